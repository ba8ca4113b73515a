"""The table protocol, version 1 (docs/protocol.md): messages, their checks and limits, and
the seat views built from the engine's observations.

Everything a client is told about the cards comes from ``observation_json`` of the
engine's ``Observation`` for its seat, or, for a spectator, from ``public_json``: only
what every player seat sees alike.
"""

from __future__ import annotations

import json
import math
import time
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.actions import Action, parse_action
from ..engine.cards import CardSet, card_str, parse_card, parse_set, sorted_for_display
from ..engine.game import Game
from ..engine.observation import Observation
from ..engine.state import Phase, State, Trick
from ..engine.words import table_words

PROTOCOL = 1
MAX_MESSAGE_BYTES = 4096
"""The largest message a client may send: an action or a hello is far below it."""
MAX_NAME = 40
RATE_PER_SECOND = 10.0
"""Messages a socket may send per second, sustained ..."""
RATE_BURST = 30.0
"""... and in one burst. Past the limit a message is refused; far past it the socket is
closed (a flood from one socket must not cost the other tables their time)."""
FLOOD_CLOSE = 100
"""Refusals for rate in a row after which the socket is closed."""

CLIENT_TYPES = ("hello", "action", "ping", "say", "react", "allow-device", "hint", "undo",
                "claim", "claim-answer")
MAX_SAY = 200
"""Characters in one chat message: a sentence or two at a card table."""
REACTIONS = {
    "well-played": "Well played!",
    "oops": "Oops!",
    "thinking": "Thinking…",
    "thanks": "Thanks!",
    "good-luck": "Good luck!",
}
"""The quick reactions, by name, and the words everyone sees."""
CHAT_PER_SECOND, CHAT_BURST = 0.5, 5.0
"""Chat messages a socket may send: a burst of five, then one every two seconds."""
_DEVICE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class ProtocolError(Exception):
    """A message the server cannot take; the text is sent back to its client only."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_name(raw: object) -> str:
    """A person's name as stored, or ProtocolError("bad-name", ...): see ``web.names``."""
    from .names import check_name as checked_name  # here: names imports this module

    return checked_name(raw)


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """A client's message as a checked dict, or ProtocolError saying what is wrong."""
    if isinstance(text, bytes):
        if len(text) > MAX_MESSAGE_BYTES:
            raise ProtocolError("too-large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad-json", "a message is UTF-8 JSON text") from None
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too-large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ProtocolError("bad-json", f"a message is one JSON object: {e}") from None
    if not isinstance(msg, dict):
        raise ProtocolError("bad-json", "a message is one JSON object")
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown-type",
            f"unknown message type {str(kind)[:40]!r}; the types are: {', '.join(CLIENT_TYPES)}",
        )
    if kind == "hello":
        token = msg.get("token")
        if not isinstance(token, str) or not token or len(token) > 200:
            raise ProtocolError("bad-hello", "hello needs the seat's or spectators' token")
        if "name" in msg and msg["name"] is not None:
            msg["name"] = check_name(msg["name"])
        device = msg.get("device")
        if device is not None and (
            not isinstance(device, str) or not 16 <= len(device) <= 100
            or not set(device) <= _DEVICE_CHARS
        ):
            raise ProtocolError("bad-hello", "device is the browser's own key: 16 to 100 "
                                "letters, digits, '-' or '_'")
        person = msg.get("person")
        if person is not None and (
            not isinstance(person, str) or not 16 <= len(person) <= 100
            or not set(person) <= _DEVICE_CHARS
        ):
            raise ProtocolError("bad-hello", "person is your key in a league group: 16 to "
                                "100 letters, digits, '-' or '_'")
        version = msg.get("protocol", PROTOCOL)
        if version != PROTOCOL:
            raise ProtocolError(
                "protocol", f"this server speaks protocol {PROTOCOL}, not {str(version)[:20]}"
            )
    elif kind == "action":
        seq = msg.get("seq")
        if type(seq) is not int or seq < 0:
            raise ProtocolError("bad-action", "an action carries 'seq', the view's number")
        action = msg.get("action")
        if not isinstance(action, str) or not action.strip():
            raise ProtocolError("bad-action", "an action carries 'action' in record notation")
    elif kind == "say":
        msg["text"] = check_chat(msg.get("text"))
    elif kind == "react" and msg.get("reaction") not in REACTIONS:
        raise ProtocolError("bad-reaction", f"a reaction is one of: {', '.join(REACTIONS)}")
    elif kind == "claim" and msg.get("tricks") is not None and (
        type(msg["tricks"]) is not int or not 1 <= msg["tricks"] <= 20
    ):
        raise ProtocolError("bad-claim", 'a claim is {"type": "claim"} for every trick left, '
                            'or {"type": "claim", "tricks": N}')
    elif kind == "claim-answer" and not isinstance(msg.get("agree"), bool):
        raise ProtocolError("bad-claim", 'a claim is answered {"type": "claim-answer", '
                            '"agree": true} (or false: play on)')
    elif kind == "allow-device" and (
        not isinstance(msg.get("request"), str) or not isinstance(msg.get("allow"), bool)
    ):
        raise ProtocolError("bad-request",
                            'allow-device carries "request" and "allow": true or false')
    return msg


def check_chat(raw: object) -> str:
    """A chat message: text of at most MAX_SAY characters, shown as text (never markup) by
    every client; no control or direction-changing characters."""
    if not isinstance(raw, str):
        raise ProtocolError("bad-chat", "a chat message is text")
    text = unicodedata.normalize("NFC", raw.strip())
    if not text:
        raise ProtocolError("bad-chat", "a chat message cannot be empty")
    if len(text) > MAX_SAY:
        raise ProtocolError("bad-chat", f"a chat message is at most {MAX_SAY} characters")
    for ch in text:
        category = unicodedata.category(ch)
        if category in ("Cc", "Cs", "Co", "Cn") or ch in _DIRECTION_CONTROLS:
            raise ProtocolError("bad-chat", f"a chat message cannot hold U+{ord(ch):04X} "
                                "(control characters are refused)")
    return text


_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class RateLimit:
    """A token bucket per socket."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()
        self.refused_in_a_row = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        return False


# --- views ------------------------------------------------------------------------------------


def cards_json(mask: CardSet) -> list[str]:
    return [card_str(c) for c in sorted_for_display(mask)]


def jsonable(value: Any) -> Any:
    """A game's ``info`` as JSON: mappings with string keys, sequences as lists."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, Sequence):
        return [jsonable(v) for v in value]
    if isinstance(value, Phase):
        return value.value
    return str(value)


def trick_json(t: Trick) -> dict[str, Any]:
    return {
        "leader": t.leader, "seats": list(t.seats), "cards": [card_str(c) for c in t.cards],
        "winner": t.winner, "led_suit": t.led_suit, "low_aces": t.low_aces,
    }


def observation_json(obs: Observation) -> dict[str, Any]:
    """One seat's observation as JSON, field for field (docs/protocol.md)."""
    return {
        "seat": obs.seat,
        "phase": obs.phase.value,
        "hand_number": obs.hand_number,
        "dealer": obs.dealer,
        "to_act": obs.to_act,
        "controls": list(obs.controls),
        "hand": cards_json(obs.hand),
        "visible": [cards_json(m) for m in obs.visible],
        "hand_sizes": list(obs.hand_sizes),
        "trick": [[s, card_str(c)] for s, c in obs.trick],
        "led_suit": obs.led_suit,
        "tricks": [trick_json(t) for t in obs.tricks],
        "won": list(obs.won),
        "played": cards_json(obs.played),
        "totals": dict(obs.totals),
        "history": list(obs.history),
        "info": jsonable(obs.info),
        "legal": [str(a) for a in obs.legal],
    }


def observation_from_json(game: str, data: Mapping[str, Any]) -> Observation:
    """The observation a view carries, back as an ``Observation`` (a client-side bot plays
    from it; ``info`` keeps its JSON shapes: lists for tuples, string keys)."""
    return Observation(
        game=game,
        seat=data["seat"],
        phase=Phase(data["phase"]),
        hand_number=data["hand_number"],
        dealer=data["dealer"],
        to_act=data["to_act"],
        controls=tuple(data["controls"]),
        hand=parse_set(" ".join(data["hand"])),
        visible=tuple(parse_set(" ".join(v)) for v in data["visible"]),
        hand_sizes=tuple(data["hand_sizes"]),
        trick=tuple((s, _card(c)) for s, c in data["trick"]),
        led_suit=data["led_suit"],
        tricks=tuple(
            Trick(t["leader"], tuple(t["seats"]), tuple(_card(c) for c in t["cards"]),
                  t["winner"], t["led_suit"], t["low_aces"])
            for t in data["tricks"]
        ),
        won=tuple(data["won"]),
        played=parse_set(" ".join(data["played"])),
        totals=dict(data["totals"]),
        history=tuple(data["history"]),
        info=dict(data["info"]),
        legal=tuple(parse_action(a) for a in data["legal"]),
    )


def words_json(game: Game, observation: Mapping[str, Any]) -> dict[str, Any]:
    """The view's ``words``: what ``game`` says to the reader of ``observation`` (a seat's
    ``observation_json`` or a spectator's ``public_json``), made from that observation
    alone, so it tells nothing the reader may not see. Called while the table's people are
    named (``engine.words.naming``): the rules of the reader's decisions, the words on
    their buttons, the line under each seat, the hand's facts, who is to act and how
    (docs/protocol.md). The terminal shows the same texts (``play.display``)."""
    return table_words(game).for_view(observation_from_json(game.name, observation))


def _card(text: str) -> int:
    return parse_card(text)


def legal_from_json(data: Mapping[str, Any]) -> list[Action]:
    return [parse_action(a) for a in data["legal"]]


def public_json(seat_views: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A spectator's observation: what every player seat's observation shows alike. Own
    hands, private facts (a pass seen by its two partners, a peek) and legal choices
    are left out; an action the seats see differently is shown as the most hidden form."""
    first = seat_views[0]
    out = dict(first)
    out["seat"] = None
    out["controls"] = []
    out["hand"] = []
    out["legal"] = []
    out["visible"] = [
        [c for c in first["visible"][s] if all(c in v["visible"][s] for v in seat_views)]
        for s in range(len(first["visible"]))
    ]
    history = []
    for i, text in enumerate(first["history"]):
        texts = {v["history"][i] for v in seat_views}
        if len(texts) == 1:
            history.append(text)
            continue
        hidden = [t for t in texts if "?" in t]
        if hidden:
            history.append(max(sorted(hidden), key=lambda t: t.count("?")))
        else:
            history.append(text.split(" ", 2)[0] + " " + text.split(" ", 2)[1] + " ?")
    out["history"] = history
    out["info"] = {
        k: v for k, v in first["info"].items()
        if all(k in o["info"] and o["info"][k] == v for o in seat_views)
    }
    return out


def around_the_table(state: State) -> list[int]:
    """The seats in the order they sit (and play) round the table: the hand's rotation,
    which moves a dummy opposite its declarer once the auction has made one. A seat outside
    the rotation (a dummy not yet placed, 3B's sit-out) sits after the seat numbered before
    it. Public: the rotation follows from the bids everyone has seen."""
    n = state.game.num_seats
    start = next((s for s in range(n) if state.next_seat[s] != s), 0)
    order: list[int] = []
    seat = start
    while seat not in order:
        order.append(seat)
        seat = state.next_seat[seat]
    for missing in range(n):
        if missing not in order:
            before = (missing - 1) % n
            order.insert(order.index(before) + 1 if before in order else len(order), missing)
    return order


def dumps(message: Mapping[str, Any]) -> str:
    """A message as text that can always be sent: text with a lone surrogate (echoed from
    a client, say) cannot be encoded as UTF-8, so such a message is written with JSON's
    escapes instead."""
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(message, separators=(",", ":"), ensure_ascii=True)
    return text
