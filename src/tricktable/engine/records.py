"""Game records, version 1 (docs/records.md): read, write and replay.

A record is UTF-8 JSON. Reading checks its form and says precisely what is wrong (where a
file is truncated, which field is missing); replaying checks every action against the
rules and reports the first illegal one by hand, position, text and rule.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import CHANCE, Deal, parse_action
from .cards import Card, format_cards, parse_card
from .errors import IllegalAction, NotationError, OptionError, RecordError
from .game import Game, game_class, make_game, step
from .state import Phase, State

FORMAT = "tricktable-record/1"


@dataclass
class HandRecord:
    dealer: int
    deal: dict[str, str]
    actions: list[str]


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
            "hands": [
                {"dealer": h.dealer, "deal": h.deal, "actions": h.actions} for h in self.hands
            ],
        }
        obj.update({k: v for k, v in self.extra.items() if k not in obj})
        return obj

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write atomically: a crash mid-write never leaves a truncated record behind."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(self.dumps(), encoding="utf-8")
        tmp.replace(target)


# --- reading ------------------------------------------------------------------------------


def load_record(path: str | Path) -> Record:
    """Read a record file. Raises RecordError saying what is wrong and where."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise RecordError(f"cannot read {p}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{p} is not UTF-8 text (byte {e.start})") from None
    return loads_record(text, str(p))


def loads_record(text: str, source: str = "record") -> Record:
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
    return parse_record(obj, source)


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
    if not isinstance(players, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in players.items()
    ):
        raise RecordError(f"{source}: 'players' must map seats to names")
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
        hands.append(HandRecord(dealer, dict(deal), list(actions)))
    known = {"format", "game", "options", "players", "hands"}
    extra = {k: v for k, v in obj.items() if k not in known}
    return Record(game, dict(options), dict(players), hands, extra)


# --- from records to states and back ------------------------------------------------------


def game_for_record(record: Record) -> Game:
    try:
        cls = game_class(record.game)
        options = cls.infer_options(dict(record.options), record.players)
        return make_game(record.game, options)
    except OptionError as e:
        raise RecordError(f"record options: {e}") from None


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


def replay(record: Record) -> State:
    """Play a record through the rules. Raises RecordError at the first bad deal or action,
    naming the hand (1-based), the action's position in it (1-based), its text and the rule."""
    game = game_for_record(record)
    state = game.new_game()
    for h, hand in enumerate(record.hands, 1):
        where = f"hand {h}"
        deal = deal_from_record(game, hand, where)
        try:
            step(state, deal)
        except IllegalAction as e:
            raise RecordError(f"{where}, deal: {e}") from None
        for i, text in enumerate(hand.actions, 1):
            try:
                action = parse_action(text)
            except NotationError as e:
                raise RecordError(f"{where}, action {i} ({text!r}): malformed: {e}") from None
            try:
                step(state, action)
            except IllegalAction as e:
                raise RecordError(f"{where}, action {i} ({text!r}): {e}") from None
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
        entry.update(result.details)
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
    out.update(game.game_summary(state))
    return out
