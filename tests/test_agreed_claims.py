"""Claims without the solver (``search.agreed_claims``): the bots' answer to a shown claim
agrees with the reference search on small positions of every game, gives up past its
budget, and an agreed claim is played out along a legal line that gives the side the
tricks agreed. Plain Python: none of it needs the ``search`` extra."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tricktable.engine.game import step
from tricktable.engine.state import Phase, State
from tricktable.search.agreed_claims import claim_is_sure, line_giving
from tricktable.search.position import Position, play, position_of
from tricktable.search.random_positions import GAME_SETTINGS, random_play_state
from tricktable.search.reference import reference_tricks
from tricktable.search.solver import side_of


def side_tricks(state: object, side: int) -> int:
    won = state.won  # type: ignore[attr-defined]
    return sum(won[s] for s in range(len(won)) if side >> s & 1)


EVERY_GAME = pytest.mark.parametrize(
    "name,options", GAME_SETTINGS,
    ids=[f"{n}-{'-'.join(map(str, o.values()))}" for n, o in GAME_SETTINGS])


def positions(name: str, options: dict[str, object], seed: int, count: int, cards: int
              ) -> Iterator[tuple[State, int, int, Position]]:
    """Random play positions of the game: (state, the seat to act, its side, position)."""
    rng = random.Random(seed)
    for _ in range(count):
        state = random_play_state(name, options, rng, cards)
        yield state, state.to_act, side_of(state, state.to_act), position_of(state)


@EVERY_GAME
def test_the_bots_answer_is_the_reference_search_s(name: str, options: dict[str, object]
                                                   ) -> None:
    for state, seat, side, pos in positions(name, options, 40, 4, 3):
        sure = reference_tricks(pos, side, side)
        for claimed in range(1, pos.tricks_left + 1):
            assert claim_is_sure(state, seat, claimed) == (claimed <= sure), (claimed, sure)


def reachable(pos: Position, side: int, taken: int = 0) -> set[int]:
    """Every number of tricks the side can end with, whatever anyone plays."""
    if pos.tricks_left == 0:
        return {taken}
    out: set[int] = set()
    for move in pos.legal_moves():
        after, winner = play(pos, move)
        out |= reachable(after, side, taken + (1 if winner >= 0 and side >> winner & 1 else 0))
    return out


@EVERY_GAME
def test_an_agreed_claim_is_played_out_legally_giving_the_tricks_agreed(
        name: str, options: dict[str, object]) -> None:
    """Exactly the tricks agreed where some line gives them; else the nearest number above
    (the cards force the side to take more, as they would at the table)."""
    for state, seat, side, pos in positions(name, options, 41, 3, 4):
        can_end_with = reachable(pos, side)
        for claimed in range(1, pos.tricks_left + 1):
            copy = state.copy()
            before = side_tricks(copy, side)
            plays = line_giving(copy, seat, claimed)
            assert side_tricks(copy, side) == before  # the state is not changed
            for play_action in plays:
                step(copy, play_action)  # each play legal: step refuses an illegal one
            assert copy.phase is not Phase.PLAY
            above = [n for n in can_end_with if n >= claimed]
            expected = claimed if claimed in can_end_with else (
                min(above) if above else max(can_end_with))
            assert side_tricks(copy, side) - before == expected, (claimed, can_end_with)


def test_too_big_a_question_is_not_answered() -> None:
    state = random_play_state("spades", {}, random.Random(42), 13, mid_trick=False)
    assert claim_is_sure(state, state.to_act, 13, limit=1000) is None


def test_a_claim_outside_the_play_is_not_sure() -> None:
    state = random_play_state("spades", {}, random.Random(43), 2)
    for play_action in line_giving(state, state.to_act, 1):
        step(state, play_action)
    assert state.phase is not Phase.PLAY
    assert claim_is_sure(state, 0, 1) is False
