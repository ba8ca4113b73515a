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


def test_a_claim_at_the_terminal_without_the_solver_is_answered_by_the_bots(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the search extra is missing, the bots agree to a sure claim (played out to the
    tricks agreed, ordinary plays in the record) and say play on to any other."""
    import contextlib
    import io

    from rich.console import Console

    from tricktable import make_game, replay
    from tricktable.play import terminal
    from tricktable.play.terminal import QuitGame, new_game, short

    monkeypatch.setattr(terminal, "search_installed", lambda: False)
    out = io.StringIO()
    said: dict[str, int] = {"refused": 0, "accepted": 0}
    holder: dict[str, object] = {}

    def read(prompt: str) -> str:
        session = holder["session"]
        state = session.table.state  # type: ignore[attr-defined]
        if "next hand" in prompt:
            raise QuitGame
        if state.phase is Phase.PLAY and max(state.hand_size) <= 3:
            left = position_of(state).tricks_left
            sure = max((n for n in range(1, left + 1) if claim_is_sure(state, 0, n)),
                       default=0)
            if sure < left and not said["refused"]:
                said["refused"] += 1
                return "claim"
            if sure:
                said["accepted"] += 1
                return f"claim {sure}"
        legal = [a for a in state.game.legal_actions(state) if a.seat in (0, 2)]
        return short(legal[0])

    session = new_game(make_game("spades", {}), 0, "rules", 21, Console(file=out, width=120),
                       read)
    holder["session"] = session
    with contextlib.suppress(QuitGame):  # the person quits after the first hand
        session.play()
    text = out.getvalue()
    assert said["accepted"] == 1, text
    assert "claim accepted: the bots agree that your side takes" in text
    assert "Played out" in text
    if said["refused"]:
        assert "claim refused: the others can still stop it; play on" in text
    record = session.record()
    assert replay(record).totals == session.table.state.totals  # plain plays
