"""Game records, version 1 (docs/records.md): read, write and replay.

A record is UTF-8 JSON. Reading checks its form and says precisely what is wrong (where a
file is truncated, which field is missing); replaying checks every action against the
rules and reports the first illegal one by hand, position, text and rule.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import CHANCE, Deal, parse_action
from .cards import Card, format_cards, parse_card
from .errors import IllegalAction, NotationError, OptionError, RecordError
from .game import Game, game_class, make_game, step
from .state import Phase, State, independent

FORMAT = "tricktable-record/1"

MAX_RECORD_BYTES = 8 * 1024 * 1024
"""The largest record read: thousands of hands, far beyond any real game."""
MAX_NESTING = 16
"""Records are flat: an object of hands of lists of strings. Deeper JSON is refused."""
MAX_NUMBER = 10**9
MAX_TEXT = 10_000
MAX_PLAYER_NAME = 100
"""The longest player name a record holds (the web table's names are at most 40)."""


@dataclass
class HandRecord:
    dealer: int
    deal: dict[str, str]
    actions: list[str]
    extra: dict[str, Any] = field(default_factory=dict)
    """Per-hand fields a later version added; kept so that saving a record loses nothing."""

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {"dealer": self.dealer, "deal": self.deal, "actions": self.actions}
        obj.update({k: v for k, v in self.extra.items() if k not in obj})
        return obj


@dataclass
class Record:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)
    hands: list[HandRecord] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    """Fields a later version added; kept so that saving a record loses nothing."""

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "hands": [h.to_json() for h in self.hands],
        }
        obj.update({k: v for k, v in self.extra.items() if k not in obj})
        return obj

    def dumps(self) -> str:
        text = json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            # a lone surrogate (say, a name typed on a terminal that is not UTF-8) is not
            # text: it is written as "?" so that the game is never lost to it
            text = json.dumps(_without_surrogates(self.to_json()), indent=1, ensure_ascii=False)
            text += "\n"
        return text

    def save(self, path: str | Path) -> None:
        """Write atomically, each writer through its own temporary file in the same folder
        (written, flushed to disk, then renamed over the target): a crash or a second
        writer never leaves an empty, truncated or mixed record. Raises RecordError
        naming ``path``."""
        target = Path(path)
        data = self.dumps().encode("utf-8")
        tmp = ""
        try:
            fd, tmp = tempfile.mkstemp(
                dir=target.parent if str(target.parent) else ".",
                prefix=f".{target.name}.",
                suffix=".tmp",
            )
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
            tmp = ""
            with contextlib.suppress(OSError):  # make the rename itself durable
                dir_fd = os.open(target.parent if str(target.parent) else ".", os.O_RDONLY)
                try:
                    os.fsync(dir_fd)
                finally:
                    os.close(dir_fd)
        except OSError as e:
            raise RecordError(f"cannot save {target}: {e.strerror or e}") from None
        finally:
            if tmp:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def _without_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_surrogates(v) for v in value]
    return value


# --- reading ------------------------------------------------------------------------------


def load_record(path: str | Path) -> Record:
    """Read a record file. Raises RecordError saying what is wrong and where. Only regular
    files of at most MAX_RECORD_BYTES are read (never /dev/zero, a pipe or a folder)."""
    return loads_record(read_text_file(path), str(path))


def read_text_file(path: str | Path, limit: int = MAX_RECORD_BYTES,
                   kind: str = "a record") -> str:
    """The UTF-8 text of a small file: a record, or a JSON file that goes with records.
    Raises RecordError naming ``path`` if it is not a regular file, is larger than
    ``limit`` bytes (checked before reading) or is not UTF-8."""
    p = Path(path)
    try:
        with open(p, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise RecordError(f"{p} is not {kind} file (it is not a regular file)")
            if info.st_size > limit:
                raise RecordError(_too_large(p, info.st_size, limit, kind))
            data = f.read(limit + 1)
    except OSError as e:
        raise RecordError(f"cannot read {p}: {e.strerror or e}") from None
    if len(data) > limit:
        raise RecordError(_too_large(p, len(data), limit, kind))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{p} is not UTF-8 text (byte {e.start})") from None


def _too_large(source: object, size: int, limit: int = MAX_RECORD_BYTES,
               kind: str = "a record") -> str:
    return f"{source} is {size / 1e6:.1f} MB; {kind} is at most {limit / 2**20:g} MiB"


def loads_record(text: str, source: str = "record") -> Record:
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(_too_large(source, len(text.encode("utf-8", "replace"))))
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        if e.pos >= len(text.rstrip()):
            raise RecordError(
                f"{source} ends early at line {e.lineno}: the file is truncated or incomplete"
            ) from None
        raise RecordError(
            f"{source} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}"
        ) from None
    except RecursionError:
        raise RecordError(f"{source} is nested too deeply to be a record") from None
    except ValueError:  # integers of thousands of digits
        raise RecordError(f"{source} holds a number too large for a record") from None
    _check_values(obj, source)
    return parse_record(obj, source)


def _check_values(value: Any, source: str, depth: int = 0) -> None:
    """Refuse what no record holds: deep nesting, enormous numbers or texts, lone
    surrogates (valid JSON, but not text)."""
    if depth > MAX_NESTING:
        raise RecordError(f"{source} is nested too deeply to be a record")
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise RecordError(f"{source} holds a text of {len(value)} characters; too long")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise RecordError(f"{source} holds a broken character (a lone surrogate)") from None
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > MAX_NUMBER:
            raise RecordError(f"{source} holds a number too large for a record")
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise RecordError(f"{source} holds a number that is not finite")
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_values(k, source, depth + 1)
            _check_values(v, source, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _check_values(v, source, depth + 1)


def parse_record(obj: Any, source: str = "record") -> Record:
    """A Record from decoded JSON, checking the form of every field."""
    if not isinstance(obj, dict):
        raise RecordError(f"{source} must be a JSON object, not {type(obj).__name__}")
    fmt = obj.get("format")
    if fmt != FORMAT:
        raise RecordError(f"{source} has format {fmt!r}; this reader reads {FORMAT!r}")
    game = obj.get("game")
    if not isinstance(game, str):
        raise RecordError(f"{source} has no 'game' name")
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"{source}: 'options' must be an object")
    players = obj.get("players", {})
    if not isinstance(players, dict):
        raise RecordError(f"{source}: 'players' must be an object mapping seat numbers to "
                          "names")
    problem = players_problem(players)
    if problem is not None:
        raise RecordError(f"{source}: {problem}")
    hands_obj = obj.get("hands", [])
    if not isinstance(hands_obj, list):
        raise RecordError(f"{source}: 'hands' must be a list")
    hands = []
    for i, h in enumerate(hands_obj, 1):
        where = f"{source}, hand {i}"
        if not isinstance(h, dict):
            raise RecordError(f"{where} must be an object")
        dealer = h.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise RecordError(f"{where} has no 'dealer' seat number")
        deal = h.get("deal")
        if not isinstance(deal, dict) or not all(isinstance(v, str) for v in deal.values()):
            raise RecordError(f"{where} has no 'deal' mapping seats to cards")
        actions = h.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError(f"{where}: 'actions' must be a list of strings")
        unknown = {k: v for k, v in h.items() if k not in ("dealer", "deal", "actions")}
        hands.append(HandRecord(dealer, dict(deal), list(actions), unknown))
    known = {"format", "game", "options", "players", "hands"}
    extra = {k: v for k, v in obj.items() if k not in known}
    return Record(game, dict(options), dict(players), hands, extra)


# --- from records to states and back ------------------------------------------------------


def players_problem(players: Mapping[str, object], seats: Sequence[int] | None = None
                    ) -> str | None:
    """What is wrong with a ``players`` map, or None: its keys are seat numbers ("0", "1",
    ...: ASCII digits, no leading zero; among ``seats`` when given), its values names
    (strings of at most MAX_PLAYER_NAME characters)."""
    for key, name in players.items():
        if not _is_seat_number(key):
            return (f"'players' has the key {_quoted(key)}; its keys are seat numbers "
                    '("0", "1", ...)')
        if seats is not None and int(key) not in seats:
            return (f"'players' names a player for seat {key}, but the players sit in seats "
                    f"{', '.join(map(str, seats))}")
        if not isinstance(name, str):
            return (f"'players': the player of seat {key} must be a name (a string), not "
                    f"{type(name).__name__}")
        if len(name) > MAX_PLAYER_NAME:
            return (f"'players': the name of seat {key}'s player is {len(name)} characters "
                    f"long; a name is at most {MAX_PLAYER_NAME}")
    return None


def _is_seat_number(key: object) -> bool:
    return (isinstance(key, str) and 0 < len(key) <= 3 and key.isascii() and key.isdigit()
            and (key == "0" or not key.startswith("0")))


def _quoted(text: object, limit: int = 20) -> str:
    """A short quotation of a bad value, for a message."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def game_for_record(record: Record) -> Game:
    """The game a record is played in. RecordError if its options or its players do not
    fit the game (a player's seat must be one of the game's player seats)."""
    problem = players_problem(record.players)
    if problem is None:
        try:
            cls = game_class(record.game)
            options = cls.infer_options(dict(record.options), record.players)
            game = make_game(record.game, options)
        except OptionError as e:
            raise RecordError(f"record options: {e}") from None
        problem = players_problem(record.players, game.player_seats)
    if problem is not None:
        raise RecordError(problem)
    return game


def deal_from_record(game: Game, hand: HandRecord, where: str) -> Deal:
    hands: list[tuple[Card, ...]] = []
    for seat in range(game.num_seats):
        text = hand.deal.get(str(seat), "")
        try:
            hands.append(tuple(parse_card(t) for t in text.split()))
        except ValueError as e:
            raise RecordError(f"{where}, deal of seat {seat}: {e}") from None
    seats = {str(s) for s in range(game.num_seats)}
    unknown = [k for k in hand.deal if k != "extra" and k not in seats]
    if unknown:
        raise RecordError(f"{where}, deal: {game.name} has no seat {unknown[0]!r}")
    try:
        extra = tuple(parse_card(t) for t in hand.deal.get("extra", "").split())
    except ValueError as e:
        raise RecordError(f"{where}, extra card: {e}") from None
    return Deal(CHANCE, hand.dealer, tuple(hands), extra)


def deal_to_record(deal: Deal) -> tuple[int, dict[str, str]]:
    out = {str(s): format_cards(cards) for s, cards in enumerate(deal.hands) if cards}
    if deal.extra:
        out["extra"] = format_cards(deal.extra)
    return deal.dealer, out


def replay(record: Record, on_step: Callable[[State, int, str | None], None] | None = None
           ) -> State:
    """Play a record through the rules. Raises RecordError at the first bad deal or action,
    naming the hand (1-based), the action's position in it (1-based), its text and the rule.
    ``on_step(state, hand, text)`` is told of each step taken (``text`` None for a deal)."""
    game = game_for_record(record)
    state = game.new_game()
    for h, hand in enumerate(record.hands, 1):
        where = f"hand {h}"
        deal = deal_from_record(game, hand, where)
        try:
            step(state, deal)
        except IllegalAction as e:
            raise RecordError(f"{where}, deal: {e}") from None
        if on_step is not None:
            on_step(state, h, None)
        for i, text in enumerate(hand.actions, 1):
            try:
                action = parse_action(text)
            except NotationError as e:
                raise RecordError(f"{where}, action {i} ({text!r}): malformed: {e}") from None
            try:
                step(state, action)
            except IllegalAction as e:
                raise RecordError(f"{where}, action {i} ({text!r}): {e}") from None
            if on_step is not None:
                on_step(state, h, text)
        if h < len(record.hands) and state.phase not in (Phase.SCORING, Phase.GAME_OVER):
            raise RecordError(
                f"{where} stops before the hand is over, but another hand follows it"
            )
    return state


def record_from_state(state: State, players: Mapping[int, str] | None = None) -> Record:
    """Everything played at a table so far, as a record that replays to the same scores."""
    game = state.game
    if players is None:
        players = {s: f"P{s}" for s in game.player_seats}
    hands = []
    for log in state.hand_log():
        dealer, deal = deal_to_record(log.deal)
        hands.append(HandRecord(dealer, deal, [str(a) for a in log.actions]))
    return Record(
        game.name,
        game.options.to_mapping(),
        {str(s): name for s, name in players.items()},
        hands,
    )


def summary(state: State) -> dict[str, Any]:
    """The replay's JSON: per hand scores, totals and running state; final totals, whether
    the game is finished, and the winner."""
    game = state.game
    hands = []
    for result in state.results:
        entry: dict[str, Any] = {"scores": dict(result.scores), "totals": dict(result.totals)}
        entry.update(independent(dict(result.details)))  # the caller may change its copy
        hands.append(entry)
    out: dict[str, Any] = {
        "game": game.name,
        "hands": hands,
        "totals": game.totals_mapping(state),
        "finished": state.phase is Phase.GAME_OVER,
        "winner": state.winner,
    }
    if state.phase not in (Phase.SCORING, Phase.GAME_OVER, Phase.DEAL):
        out["hand_in_progress"] = {
            "hand": state.hand_number + 1,
            "phase": state.phase.value,
            "tricks_won": {str(s): w for s, w in enumerate(state.won)},
        }
    out.update(independent(game.game_summary(state)))
    return out
