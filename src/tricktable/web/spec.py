"""A request to create a table, checked before anything is made: the game and its options
(judged by the game's own options class), who sits where, the pace of bots, the away grace,
the seed."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from ..bots import bot_names
from ..engine.errors import OptionError
from ..engine.game import game_names, make_game
from .protocol import ProtocolError

PERSON = "person"
MAX_PACE = 30.0
MAX_GRACE = 24 * 3600.0


@dataclass(frozen=True)
class TableSpec:
    game: str
    options: dict[str, Any]
    seats: dict[int, str]
    """Per player seat: "person" or a bot's name."""
    bot_pace: float
    away_grace: float | None
    stand_in: str
    seed: str
    seed_chosen: bool = False
    """The creator chose the seed: everyone at the table is shown it (whoever knows a
    seed can work out every deal)."""
    public: bool = False
    """Listed in the lobby; a table is private unless its host says otherwise."""


def table_spec(body: object) -> TableSpec:
    """A request to create a table, checked: the game's own options class judges the
    options; bots by their registered names. Raises ProtocolError saying what is wrong."""
    if not isinstance(body, dict):
        raise ProtocolError("bad-table", "a table is described by a JSON object")
    known = {"game", "options", "seats", "bot_pace", "away_grace", "stand_in", "seed",
             "public"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise ProtocolError(
            "bad-table",
            f"unknown field {unknown[0][:40]!r}; the fields: {', '.join(sorted(known))}",
        )
    name = body.get("game")
    if not isinstance(name, str) or name not in game_names():
        raise ProtocolError(
            "bad-table", f"unknown game {str(name)[:40]!r}; the games: {', '.join(game_names())}"
        )
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ProtocolError("bad-table", "options is an object of NAME: VALUE")
    try:
        game = make_game(name, options)
    except (OptionError, TypeError, ValueError) as e:
        raise ProtocolError("bad-options", str(e)) from None
    raw_seats = body.get("seats")
    if raw_seats is None:
        raw_seats = {str(s): PERSON if i == 0 else "rules" for i, s in enumerate(game.player_seats)}
    if not isinstance(raw_seats, dict):
        raise ProtocolError("bad-seats", 'seats is an object: {"0": "person", "1": "rules", ...}')
    seats: dict[int, str] = {}
    for s in game.player_seats:
        who = raw_seats.get(str(s), PERSON)
        if not isinstance(who, str) or (who != PERSON and who not in bot_names()):
            raise ProtocolError(
                "bad-seats",
                f"seat {s}: {str(who)[:40]!r} is neither 'person' nor a bot "
                f"({', '.join(bot_names())})",
            )
        seats[s] = who
    extra = sorted(set(raw_seats) - {str(s) for s in game.player_seats})
    if extra:
        raise ProtocolError(
            "bad-seats",
            f"{name} has no player seat {extra[0][:10]!r}; its seats: "
            f"{', '.join(map(str, game.player_seats))}",
        )
    pace = _number(body.get("bot_pace", 1.0), "bot_pace", 0.0, MAX_PACE)
    grace_raw = body.get("away_grace")
    grace = None if grace_raw is None else _number(grace_raw, "away_grace", 0.0, MAX_GRACE)
    stand_in = body.get("stand_in", "rules")
    if not isinstance(stand_in, str) or stand_in not in bot_names():
        raise ProtocolError("bad-table", f"stand_in is a bot: {', '.join(bot_names())}")
    seed = body.get("seed")
    if seed is None:
        seed = secrets.token_hex(16)
    elif not isinstance(seed, str | int) or isinstance(seed, bool) or len(str(seed)) > 64:
        raise ProtocolError("bad-table", "seed is a string or a number (64 characters at most)")
    public = body.get("public", False)
    if not isinstance(public, bool):
        raise ProtocolError("bad-table", "public is true (listed in the lobby) or false")
    return TableSpec(name, game.options.to_mapping(), seats, pace, grace, stand_in, str(seed),
                     seed_chosen=body.get("seed") is not None, public=public)


def _number(raw: object, what: str, low: float, high: float) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not low <= raw <= high:
        raise ProtocolError("bad-table", f"{what} is a number of seconds from {low:g} to {high:g}")
    return float(raw)


def game_seed(seed: str, number: int) -> str:
    """The seed of a table's game ``number``. A finished game's record shows its seed;
    the next game's cannot be worked out from it without the table's own seed."""
    return hashlib.sha256(f"{seed}/game/{number}".encode()).hexdigest()[:32]
