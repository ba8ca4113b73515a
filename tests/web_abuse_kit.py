"""The abuse of issue 39 as requests to a real server (``web_process.Server``): what
``tests/test_web_abuse.py`` sends once and checks, and ``benchmarks/web_abuse.py`` sends
over and over while ordinary tables play.

Every request here has a deadline of its own (``DEADLINE`` seconds unless told), so a
server that hangs fails the caller instead of stalling it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tricktable.bots import make_bot
from tricktable.engine.game import game_class, make_game
from tricktable.engine.records import MAX_RECORD_BYTES, Record
from tricktable.play.table import Table
from web_process import Server

DEADLINE = 30.0
"""Seconds any one request, or any one socket's answer, may take before the caller fails
(far more than any of them needs: it only turns a hang into a failure)."""

LONG_HANDS = 300
"""The issue's long record: 300 hands, some 280 KB of compact JSON."""

BOTS_ONLY = {"0": "rules", "1": "rules", "2": "rules", "3": "rules"}


# --- bodies ------------------------------------------------------------------------------------


def long_record(hands: int = LONG_HANDS, seed: str = "abuse") -> Record:
    """A legal record of ``hands`` hands: Spades to the highest target the game allows,
    played by random bots, whose scores sink far below zero, so that the game is still
    going after any number of hands (every action in it legal, the game not over: as a
    game saved part-way is). The options' ranges no longer allow a game that is
    *scheduled* to last 300 hands (3B's ``hands`` is at most 100)."""
    fields = dataclasses.fields(game_class("spades").options_type)
    target = next(f.metadata.get("maximum") for f in fields if f.name == "target")
    game = make_game("spades", {"target": target or 10_000})
    agents = {s: make_bot("random", game, s, f"{seed}/{s}") for s in game.player_seats}
    table = Table(game, agents, seed)
    table.run(max_hands=hands)
    return table.record()


def record_bytes(record: Record | dict[str, Any]) -> bytes:
    obj = record.to_json() if isinstance(record, Record) else record
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def too_many_hands(record: Record, size: int = MAX_RECORD_BYTES) -> bytes:
    """A record of the right form, at most ``size`` bytes, of the long game's hands over
    and over: thousands of hands, whose replay would go wrong only past the game's end."""
    obj = record.to_json()
    hands = obj["hands"]
    one = len(record_bytes({"hands": hands})) / len(hands)
    obj["hands"] = hands * int((size - 4096) / one / len(hands))
    body = record_bytes(obj)
    assert len(body) <= size
    return body


def padded_record(record: Record, size: int = MAX_RECORD_BYTES) -> bytes:
    """``record``, legal and whole, brought to nearly ``size`` bytes by fields of its hands
    that this version does not know (kept and ignored by a reader): the largest legal
    record the replay takes."""
    obj = record.to_json()
    spare = size - len(record_bytes(obj)) - 4096
    per_hand = spare // len(obj["hands"])
    piece = 9_000  # under the reader's limit on one text
    for hand in obj["hands"]:
        left = per_hand
        k = 0
        while left > 20:
            text = "n" * min(piece, left - 20)
            hand[f"note{k}"] = text
            left -= len(text) + 20
            k += 1
    body = record_bytes(obj)
    assert len(body) <= size
    return body


def deep_junk(size: int = MAX_RECORD_BYTES) -> bytes:
    """``size`` bytes of ``[``: JSON nested past any parser's stack."""
    return b"[" * size


def bad_tables() -> dict[str, bytes]:
    """Requests to create a table that must each be refused with a 400 and a short
    message (the issue's findings), by name."""
    return {
        "deep JSON (10,000 [, under the size limit)": b"[" * 10_000,
        "a seed of a lone surrogate": b'{"game": "spades", "seed": "\\ud800"}',
        "a NUL in the seed": b'{"game": "spades", "seed": "a\\u0000b"}',
        "options a list": b'{"game": "spades", "options": []}',
        "a 4,000-digit target": (
            '{"game": "spades", "options": {"target": ' + "9" * 4000 + "}}").encode(),
        "3B with 10^12 hands": (
            b'{"game": "3b-spades", "options": {"players": 4, "hands": 1000000000000}}'),
        "Paperless with a limit of 10^12": (
            b'{"game": "paperless-spades", "options": {"limit": 1000000000000}}'),
        "a 5,000-digit option value": (
            '{"game": "spades", "options": {"bag_limit": ' + "9" * 5000 + "}}").encode(),
        "a 5,000-character option value": (
            '{"game": "spades", "options": {"variant": "' + "x" * 5000 + '"}}').encode(),
        "a 5,000-character option name": (
            '{"game": "spades", "options": {"' + "x" * 5000 + '": 1}}').encode(),
    }


DEEP_TABLE = b"[" * 100_000
"""The issue's deep JSON: over the size limit of a table request, so a size refusal (413)
answers it as well as a 400 does."""

SURROGATE_MESSAGES = {
    "an action's text": '{"type": "action", "seq": %d, "action": "play \\ud800"}',
    "an action's whole text": '{"type": "action", "seq": %d, "action": "\\ud800"}',
    "the message type": '{"type": "\\ud800", "seq": %d}',
}
"""Raw JSON texts (``%d``: the table's view number) with a lone surrogate escaped: valid
JSON, but no UTF-8 text can hold the string it makes."""


# --- requests ----------------------------------------------------------------------------------


def create(server: Server, body: dict[str, Any], source: str | None = None
           ) -> dict[str, Any]:
    """A table that must be made (201)."""
    status, answer = server.request("POST", "/api/tables", json.dumps(body).encode(),
                                    source=source)
    assert status == 201, f"creating a table answered {status}: {answer}"
    assert isinstance(answer, dict)
    return answer


def end(server: Server, created: dict[str, Any]) -> None:
    """End a table (its host's request); nothing if the server cannot."""
    with contextlib.suppress(OSError):
        server.request("POST", f"/api/tables/{created['table']}/end", b"",
                       {"authorization": f"Bearer {created['host_token']}"})


def alive(server: Server) -> bool:
    """The server process runs and answers ``GET /api/games`` with its games."""
    if server.process is None or server.process.poll() is not None:
        return False
    try:
        status, answer = server.request("GET", "/api/games", timeout=DEADLINE)
    except OSError:
        return False
    return status == 200 and isinstance(answer, dict) and bool(answer.get("games"))


def open_socket(server: Server, table: str, source: str | None = None) -> ClientConnection:
    """A socket to table ``table`` that says nothing yet; ``source``: the client's own
    loopback address (127.0.0.2, ...)."""
    return connect(f"ws://127.0.0.1:{server.port}/ws/{table}", open_timeout=DEADLINE,
                   close_timeout=5, source_address=None if source is None else (source, 0))


def receive(ws: ClientConnection, deadline: float) -> dict[str, Any]:
    """The socket's next message; TimeoutError past ``deadline`` (time.monotonic())."""
    text = ws.recv(timeout=max(deadline - time.monotonic(), 0.0))
    message = json.loads(text)
    assert isinstance(message, dict)
    return message


def until_closed(ws: ClientConnection, deadline: float
                 ) -> tuple[list[dict[str, Any]], int | None]:
    """Every message until the server closes the socket, and the close code; TimeoutError
    if it is still open at ``deadline``."""
    messages = []
    try:
        while True:
            messages.append(receive(ws, deadline))
    except ConnectionClosed as e:
        return messages, e.rcvd.code if e.rcvd is not None else None


def until(ws: ClientConnection, deadline: float, wanted: str) -> dict[str, Any]:
    """The first message of type ``wanted`` (others skipped)."""
    while True:
        message = receive(ws, deadline)
        if message.get("type") == wanted:
            return message


def say_hello(ws: ClientConnection, token: str, name: str | None = None) -> None:
    hello: dict[str, Any] = {"type": "hello", "token": token}
    if name is not None:
        hello["name"] = name
    ws.send(json.dumps(hello))


def loopback_sources(count: int, first: int = 0) -> list[str]:
    """``count`` client addresses of loopback other than 127.0.0.1 (127.0.0.2 on; from
    the ``first``-th, for sets that do not overlap)."""
    return [f"127.0.{n // 250}.{n % 250 + 2}" for n in range(first, first + count)]
