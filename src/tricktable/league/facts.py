"""Each person's facts in one finished game, read from its record (docs/league.md).

The record is replayed through the rules (``engine.records.replay``), and the league reads
what the games already compute: the replay summary (``records.summary``: totals, winner,
each hand's details and the game's ``game_summary``). Two facts no game writes down in its
details are taken while replaying: each seat's bid (from the record's own ``bid`` and
``rebid`` actions) and the tricks each seat won in each hand (the public ``won`` count at
the end of the hand), for the partnership games whose details name neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Bid, Rebid, parse_action
from ..engine.errors import IllegalAction, NotationError, RecordError
from ..engine.game import Game, step
from ..engine.records import Record, deal_from_record, replay, summary
from ..engine.scoring import contract_score
from ..engine.state import Phase
from .model import PAPERLESS, THREEB, LeagueError, PlayerResult, StakeFacts, ThreeBFacts


@dataclass(frozen=True)
class GameFacts:
    """What the league keeps of one finished game, people named by ``names`` (seat ->
    person)."""

    game: str
    players: tuple[PlayerResult, ...]
    threeb: ThreeBFacts | None
    stakes: StakeFacts | None


@dataclass
class _Tally:
    hands: int = 0
    contracts: int = 0
    made: int = 0
    sets: int = 0
    bags: int = 0
    nils_bid: int = 0
    nils_made: int = 0
    nil_points: int = 0
    declared: int = 0
    declared_made: int = 0

    def contract(self, bid: int, tricks: int) -> None:
        """A contract of ``bid`` tricks (1 or more) that took ``tricks``."""
        self.contracts += 1
        if tricks >= bid:
            self.made += 1
            self.bags += contract_score(bid, tricks)[1]
        else:
            self.sets += 1


def _hand_bids_and_tricks(record: Record, game: Game) -> list[tuple[dict[int, int], list[int]]]:
    """Each finished hand's final bid by seat and tricks won by seat (the record is known
    to replay)."""
    state = game.new_game()
    out: list[tuple[dict[int, int], list[int]]] = []
    for h, hand in enumerate(record.hands, 1):
        step(state, deal_from_record(game, hand, f"hand {h}"))
        bids: dict[int, int] = {}
        for text in hand.actions:
            action = parse_action(text)
            if isinstance(action, Bid | Rebid):
                bids[action.seat] = action.tricks
            step(state, action)
        if state.phase in (Phase.SCORING, Phase.GAME_OVER):
            out.append((bids, list(state.won)))
    return out


def game_facts(record: Record, names: Mapping[int, str]) -> GameFacts:
    """The facts of a finished game. Raises RecordError if the record does not replay or
    the game is not over, LeagueError if a player seat has no person."""
    state = replay(record)
    if state.phase is not Phase.GAME_OVER or state.winner is None:
        raise RecordError("the game is not finished: only finished games count in the league")
    game = state.game
    missing = [s for s in game.player_seats if s not in names]
    if missing:
        raise LeagueError(f"no person for seat(s) {', '.join(map(str, missing))}")
    result = summary(state)
    tallies = {s: _Tally() for s in game.player_seats}
    hands: list[dict[str, Any]] = result["hands"]
    try:
        if game.name == THREEB:
            _threeb(hands, tallies)
        elif game.name == "dummy-hand-spades":
            _dummy_hand(hands, tallies)
        elif game.name in ("dummy-whist", "double-dummy-whist"):
            _whist(hands, tallies)
        elif game.name in ("spades", PAPERLESS):
            _partnership(game, _hand_bids_and_tricks(record, game), tallies)
        else:
            for t in tallies.values():
                t.hands = len(hands)
    except (IllegalAction, NotationError) as e:  # replay() has passed: cannot happen
        raise RecordError(str(e)) from None
    totals: dict[str, int] = result["totals"]
    players = []
    for seat in game.player_seats:
        side = game.entity_label(game.entity_of_seat(seat))
        t = tallies[seat]
        players.append(PlayerResult(
            names[seat], seat, side, side == game.entity_label(state.winner), totals[side],
            t.hands, t.contracts, t.made, t.sets, t.bags, t.nils_bid, t.nils_made,
            t.nil_points, t.declared, t.declared_made,
        ))
    threeb = _threeb_facts(result, names) if game.name == THREEB else None
    stakes = _stakes(game, result, names) if game.name == PAPERLESS else None
    return GameFacts(game.name, tuple(players), threeb, stakes)


def _threeb(hands: Sequence[Mapping[str, Any]], tallies: dict[int, _Tally]) -> None:
    for hand in hands:
        for seat_label, bid in hand["bids"].items():
            seat = int(seat_label)
            tricks = hand["tricks"][seat_label]
            t = tallies[seat]
            t.hands += 1
            if bid == 0:
                t.nils_bid += 1
                if tricks == 0:
                    t.nils_made += 1
                    t.nil_points += hand["scores"][seat_label]  # the zero pot won
            else:
                t.contract(bid, tricks)


def _dummy_hand(hands: Sequence[Mapping[str, Any]], tallies: dict[int, _Tally]) -> None:
    for hand in hands:
        declarer = hand["declarer"]
        team = hand["team_tricks"]
        for seat_label, bid in hand["bids"].items():
            seat = int(seat_label)
            t = tallies[seat]
            t.hands += 1
            tricks = team["declarer"] if seat == declarer else team["defenders"]
            if bid > 0:
                t.contract(bid, tricks)
            if seat == declarer:
                t.declared += 1
                t.declared_made += tricks >= bid
        for nil in hand["nils"]:
            t = tallies[nil["bidder"]]
            t.nils_bid += 1
            t.nils_made += bool(nil["made"])


def _whist(hands: Sequence[Mapping[str, Any]], tallies: dict[int, _Tally]) -> None:
    for hand in hands:
        for t in tallies.values():
            t.hands += 1
        declarer = hand.get("declarer")
        if declarer in tallies:
            t = tallies[declarer]
            t.declared += 1
            t.contracts += 1
            if hand["made"]:
                t.declared_made += 1
                t.made += 1
            else:
                t.sets += 1


def _partnership(
    game: Game, hands: Sequence[tuple[dict[int, int], list[int]]], tallies: dict[int, _Tally]
) -> None:
    """Spades and Paperless: a nil is the player's own; the team's contract (the partners'
    bids added up), its bags and sets count for both partners."""
    nil_tricks_count = bool(getattr(game.options, "nil_tricks_count", True))
    for bids, won in hands:
        for team in (0, 1):
            seats = [s for s in game.player_seats if s % 2 == team]
            contract = sum(bids.get(s, 0) for s in seats)
            counted = sum(won[s] for s in seats if nil_tricks_count or bids.get(s, 0) > 0)
            for s in seats:
                t = tallies[s]
                t.hands += 1
                if bids.get(s, 0) == 0:
                    t.nils_bid += 1
                    t.nils_made += won[s] == 0
                if contract > 0:
                    t.contract(contract, counted)


def _threeb_facts(result: Mapping[str, Any], names: Mapping[int, str]) -> ThreeBFacts:
    tray = result["tray_person"]
    return ThreeBFacts(
        winner=names[result["winner"]],
        tray_person=None if tray is None else names[tray],
        wire_to_wire=bool(result["wire_to_wire"]),
        tray_sheet=tuple(tuple(names[s] for s in row) for row in result["tray_sheet"]),
        perfect_day=tuple(names[s] for s in result["perfect_day"]),
        imperfect_day=tuple(names[s] for s in result["imperfect_day"]),
    )


def _stakes(game: Game, result: Mapping[str, Any], names: Mapping[int, str]) -> StakeFacts | None:
    owed = result.get("owed")
    if not owed:
        return None

    def team(label: str) -> tuple[str, ...]:
        return tuple(
            names[s] for s in game.player_seats
            if game.entity_label(game.entity_of_seat(s)) == label
        )

    return StakeFacts(team(owed["to"]), team(owed["by"]), owed["points"], result["stake"],
                      owed["amount"])
