"""A request to create a table, checked before anything is made: the game and its options
(judged by the game's own options class), who sits where, the pace of bots, the away grace,
the seed."""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from ..bots import bot_names
from ..engine.errors import OptionError, shown
from ..engine.game import game_class, game_names, make_game
from .protocol import ProtocolError

PERSON = "person"
MAX_PACE = 30.0
MAX_GRACE = 24 * 3600.0
MAX_SEED = 64
"""The most characters of a seed chosen by a table's creator."""
MAX_DEPTH = 32
"""The deepest nesting of a JSON request body: a table request is three deep."""
SEAT_ACTIONS = ("open", "bot", "return")
"""What the host may do with a seat (``parse_seat_request``)."""


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
    group: str | None = None
    """The private link token of the league group whose page started the table: its
    finished games count in the group's league."""


def table_spec(body: object) -> TableSpec:
    """A request to create a table, checked: the game's own options class judges the
    options; bots by their registered names. Raises ProtocolError saying what is wrong."""
    if not isinstance(body, dict):
        raise ProtocolError("bad-table", "a table is described by a JSON object")
    known = {"game", "options", "seats", "bot_pace", "away_grace", "stand_in", "seed",
             "public", "group"}
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
    options = body.get("options")
    if options is None:
        options = {}
    if not isinstance(options, dict):  # not even an empty list: it is not "no options"
        raise ProtocolError("bad-table", "options is an object of NAME: VALUE")
    try:
        # a new table: where the game's text suggests a value, it starts there
        chosen = game_class(name).options_type.for_new_game(options).to_mapping()
        game = make_game(name, chosen)
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
    elif not _good_seed(seed):
        raise ProtocolError(
            "bad-table", f"seed is a number or 1 to {MAX_SEED} printable characters (no control"
            " or format characters)"
        )
    public = body.get("public", False)
    if not isinstance(public, bool):
        raise ProtocolError("bad-table", "public is true (listed in the lobby) or false")
    group = body.get("group")
    if group is not None and (not isinstance(group, str) or not 16 <= len(group) <= 100
                              or not set(group) <= TOKEN_CHARS):
        raise ProtocolError("bad-table", "group is the token of a league group's link: 16 to "
                            "100 letters, digits, '-' or '_'")
    return TableSpec(name, game.options.to_mapping(), seats, pace, grace, stand_in, str(seed),
                     seed_chosen=body.get("seed") is not None, public=public, group=group)


TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
"""The characters of a token (``secrets.token_urlsafe``)."""


def _good_seed(seed: object) -> bool:
    """A seed a table can keep, show and store: a number, or printable text (a NUL, a
    control, a half surrogate could not be stored or shown)."""
    if isinstance(seed, bool):
        return False
    if isinstance(seed, int):
        return bool(abs(seed) < 10**MAX_SEED)
    return isinstance(seed, str) and 0 < len(seed) <= MAX_SEED and seed.isprintable()


def _number(raw: object, what: str, low: float, high: float) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not low <= raw <= high:
        raise ProtocolError("bad-table", f"{what} is a number of seconds from {low:g} to {high:g}")
    return float(raw)


def game_seed(seed: str, number: int) -> str:
    """The seed of a table's game ``number``. A finished game's record shows its seed;
    the next game's cannot be worked out from it without the table's own seed."""
    return hashlib.sha256(f"{seed}/game/{number}".encode()).hexdigest()[:32]


def parse_json_body(body: bytes, what: str) -> Any:
    """A request's body as JSON, or ProtocolError("bad-json", one sentence) for a body that
    is not UTF-8 JSON, nests deeper than MAX_DEPTH, or holds text no table can store (a NUL,
    which PostgreSQL refuses, or half a surrogate pair). ``what`` names the body in the
    sentence ("a table request"). An empty body is JSON null."""
    try:
        text = body.decode("utf-8")
    except UnicodeError:
        raise ProtocolError("bad-json", f"{what} is UTF-8 text") from None
    try:
        value = json.loads(text) if text.strip() else None
    except RecursionError:  # nested past the parser's own limit (about 1,000)
        raise ProtocolError("bad-json", f"{what} nests at most {MAX_DEPTH} deep") from None
    except json.JSONDecodeError as e:
        raise ProtocolError(
            "bad-json", f"{what} is not JSON: {e.msg} at line {e.lineno} column {e.colno}"
        ) from None
    except ValueError:  # a number of more than 4,300 digits, which Python does not read
        raise ProtocolError("bad-json", f"{what} holds a number too long to read") from None
    _check_json(value, what)
    return value


def _check_json(value: Any, what: str) -> None:
    """Refuse nesting past MAX_DEPTH and text that cannot be stored, walking the value
    without recursion (the walk must not fail where the parser did not)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, what)
        elif isinstance(item, list | dict):
            if depth > MAX_DEPTH:
                raise ProtocolError("bad-json", f"{what} nests at most {MAX_DEPTH} deep")
            if isinstance(item, dict):
                for key in item:
                    _check_text(key, what)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)


def _check_text(text: str, what: str) -> None:
    if "\x00" in text:
        raise ProtocolError("bad-json", f"{what} cannot hold the NUL character (\\u0000)")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ProtocolError(
                "bad-json", f"{what} cannot hold half a surrogate pair (\\ud800 to \\udfff)"
            ) from None


def parse_seat_request(obj: object) -> tuple[str, str | None]:
    """The host's request for a seat, ``{"do": "open" | "bot" | "return", "bot": NAME}``,
    checked: what to do, and the bot's registered name (None: the default). Raises
    ProtocolError("bad-request", one sentence)."""
    form = '{"do": "open" | "bot" | "return", "bot": NAME}'
    if not isinstance(obj, dict):
        raise ProtocolError("bad-request", f"a seat request is a JSON object {form}")
    unknown = sorted(str(k) for k in obj if k not in ("do", "bot"))
    if unknown:
        raise ProtocolError(
            "bad-request", f"a seat request has no field {shown(unknown[0])}; it is {form}"
        )
    do = obj.get("do")
    if not isinstance(do, str) or do not in SEAT_ACTIONS:
        raise ProtocolError(
            "bad-request", f"do is one of: {', '.join(SEAT_ACTIONS)}, not {shown(do)}"
        )
    bot = obj.get("bot")
    if bot is not None:
        if do != "bot":
            raise ProtocolError("bad-request", f'a bot is named only with "do": "bot", not {do!r}')
        if not isinstance(bot, str) or bot not in bot_names():
            raise ProtocolError(
                "bad-request", f"bot is a bot's name ({', '.join(bot_names())}), not {shown(bot)}"
            )
    return do, bot


MARK_KINDS = ("bonehead", "zero-buddy", "chit")
"""The marks a member adds at the table (docs/league.md, "Marks"); the others (trays
forgotten or carried, decks brought) are added on the group's page."""
MAX_NOTE = 300


def parse_mark_request(body: object) -> tuple[str, str, str, str | None]:
    """(kind, person, note, named) of a mark added at a table, checked: ProtocolError in
    one sentence otherwise."""
    shape = ('a mark is {"kind": "bonehead" | "zero-buddy" | "chit", "person": NAME, '
             '"note": TEXT, "named": NAME (a chit only)}')
    if not isinstance(body, dict) or set(body) - {"kind", "person", "note", "named"}:
        raise ProtocolError("bad-request", shape)
    kind, person = body.get("kind"), body.get("person")
    note, named = body.get("note", ""), body.get("named")
    if kind not in MARK_KINDS or not isinstance(person, str) or not isinstance(note, str):
        raise ProtocolError("bad-request", shape)
    if named is not None and not isinstance(named, str):
        raise ProtocolError("bad-request", shape)
    if len(note) > MAX_NOTE:
        raise ProtocolError("bad-request", f"a mark's note is at most {MAX_NOTE} characters")
    if not note.isprintable() and note.strip():
        raise ProtocolError("bad-request", "a mark's note is one line of text, without "
                            "control characters")
    return str(kind), person, note.strip(), named
