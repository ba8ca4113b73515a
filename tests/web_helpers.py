"""Helpers of the web tests: an app on a temporary database, clients in threads that play
their seats, and the engine's own view of every moment of a table's log."""

from __future__ import annotations

import json
import re
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from tricktable import make_game, parse_action, step
from tricktable.bots import make_bot
from tricktable.engine.game import Game
from tricktable.engine.records import HandRecord, deal_from_record
from tricktable.engine.state import State
from tricktable.web.app import create_app
from tricktable.web.protocol import observation_from_json, observation_json, public_json
from tricktable.web.store import Store

FAST = (10_000.0, 10_000.0)

RECEIVE_WAIT = 60.0
"""Seconds a test waits for a socket's next message before it fails (a bot at these
tables thinks half a second)."""


def receive_json(ws: Any, seconds: float = RECEIVE_WAIT) -> Any:
    """``ws.receive_json()``, failing after ``seconds`` instead of waiting for ever: the
    test client's receive has no timeout, so a table that stops answering would hang the
    run rather than fail the test. Reads the message stream of Starlette's test session;
    a session without one is read as it reads itself."""
    stream = getattr(ws, "_send_rx", None)
    if stream is None:
        return ws.receive_json()

    async def receive() -> Any:
        with anyio.fail_after(seconds):
            return await stream.receive()

    try:
        message = ws.portal.call(receive)
    except TimeoutError:
        raise AssertionError(f"no message from the table in {seconds:g} s") from None
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason", ""))
    return json.loads(message["text"])


Chooser = Callable[[dict[str, Any]], "str | None"]


def first_legal(view: dict[str, Any]) -> str | None:
    return str(view["legal"][0])


_GAMES: dict[str, Any] = {}


def rules_choice(view: dict[str, Any]) -> str | None:
    """What the rules bot would do in this seat, from the view alone (out of turn: its
    offer, which may be nothing)."""
    key = json.dumps([view["game"], view["options"]], sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = make_game(view["game"], view["options"])
    obs = observation_from_json(view["game"], view["observation"])
    bot = make_bot("rules", game, obs.seat, f"client/{view['seq']}")
    legal = list(obs.legal)
    if obs.to_act in obs.controls:
        return str(bot.choose(obs, legal))
    offer = bot.offer(obs, legal)
    return None if offer is None else str(offer)


@contextmanager
def client_for(url: str, think: float | None = 0.5) -> Iterator[TestClient]:
    with TestClient(create_app(url, rate=FAST, think=think)) as client:
        yield client


def sqlite_url(tmp: Path) -> str:
    return f"sqlite:///{tmp / 'web.db'}"


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("bot_pace", 0)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def my_turn(view: dict[str, Any]) -> bool:
    obs = view["observation"]
    return bool(view["legal"]) and (obs["to_act"] in obs["controls"] or bool(view["legal"]))


@dataclass
class Player:
    """A socket in a thread: says hello, keeps every message, plays its seat's choices
    (by ``chooser``) until the game is over."""

    client: TestClient
    table: str
    token: str
    name: str | None
    chooser: Chooser | None = rules_choice
    stop_at_seq: int | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    error: BaseException | None = None

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._run, daemon=True)
        thread.start()
        return thread

    def _run(self) -> None:
        try:
            with self.client.websocket_connect(f"/ws/{self.table}") as ws:
                ws.send_text(json.dumps({"type": "hello", "token": self.token, "name": self.name}))
                while True:
                    m = receive_json(ws)
                    self.messages.append(m)
                    if m["type"] != "view":
                        continue
                    if m["status"] == "over":
                        return
                    if self.stop_at_seq is not None and m["seq"] >= self.stop_at_seq:
                        return
                    if self.chooser is not None and m["legal"] and m["status"] == "playing":
                        choice = self.chooser(m)
                        if choice is not None:
                            ws.send_text(json.dumps(
                                {"type": "action", "seq": m["seq"], "action": choice}))
        except BaseException as e:  # handed to the test
            self.error = e


def play_game(client: TestClient, created: dict[str, Any], spectate: bool = True,
              chooser: Chooser = rules_choice, timeout: float = 60) -> dict[str, Player]:
    """Every person seat and a spectator on sockets until the game is over."""
    players = {
        seat: Player(client, created["table"], inv["token"], f"P{seat}", chooser)
        for seat, inv in created["invites"].items()
    }
    if spectate:
        players["spectator"] = Player(
            client, created["table"], created["spectator"]["token"], None, None)
    threads = [p.start() for p in players.values()]
    for t in threads:
        t.join(timeout)
        assert not t.is_alive(), "the game did not finish"
    for p in players.values():
        if p.error is not None:
            raise p.error
    return players


def replayed(url: str, table_id: str) -> Iterator[tuple[int, Game, State]]:
    """The table's first game replayed from the stored log by the engine alone: (its view
    number, the game, the state) at the start and after each deal and action."""
    store = Store(url)
    data = store.load(table_id)
    store.close()
    assert data is not None
    game = make_game(data.game, data.options)
    state = game.new_game()
    seq = 0
    yield seq, game, state
    for _n, kind, text, _actor in data.events:
        if kind == "deal":
            obj = json.loads(text)
            step(state, deal_from_record(game, HandRecord(obj["dealer"], obj["deal"], []), "log"))
        elif kind == "action":
            step(state, parse_action(text))
        elif kind == "rematch":
            break
        else:
            continue
        seq += 1
        yield seq, game, state


def moments(url: str, table_id: str) -> dict[int, dict[str | int, dict[str, Any]]]:
    """Per sequence number of the table's first game, the engine's observation (as JSON)
    of every player seat and the public one, replayed from the stored log by the
    engine alone."""
    out: dict[int, dict[str | int, dict[str, Any]]] = {}
    for seq, game, state in replayed(url, table_id):
        views: dict[str | int, dict[str, Any]] = {
            s: observation_json(game.observe(state, s)) for s in game.player_seats
        }
        views["spectator"] = public_json([views[s] for s in game.player_seats])
        out[seq] = views
    return out


CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[AKQJT2-9])[SHDC](?![A-Za-z0-9])|\b[BL]J\b")


def card_tokens(value: Any) -> set[str]:
    return {t.replace("10", "T") for t in CARD.findall(json.dumps(value))}
