"""Claims: proven ones are played out along the solver's line, the rest refused."""

from __future__ import annotations

import contextlib
import random

from tricktable.engine.state import Phase
from tricktable.search.claims import judge_claim, play_out
from tricktable.search.position import position_of
from tricktable.search.random_positions import GAME_SETTINGS, random_play_state
from tricktable.search.solver import shared_solver, side_of


def test_claims_on_every_game() -> None:
    rng = random.Random(14)
    for name, options in GAME_SETTINGS:
        state = random_play_state(name, options, rng, 4)
        seat = state.to_act
        side = side_of(state, seat)
        sure = shared_solver().tricks(position_of(state), side)
        left = position_of(state).tricks_left
        won_before = sum(state.won[s] for s in range(len(state.won)) if side >> s & 1)
        verdict = judge_claim(state, seat)
        assert verdict.proven == (sure == left)
        if not verdict.proven:
            assert "not proven" in verdict.message
        if sure:
            assert judge_claim(state, seat, sure).proven
        if sure < left:
            assert not judge_claim(state, seat, sure + 1).proven
        plays = play_out(state, seat)
        assert state.phase is not Phase.PLAY and plays
        won_after = sum(state.won[s] for s in range(len(state.won)) if side >> s & 1)
        assert won_after - won_before == sure  # the line gives the side what it was sure of


def test_a_claim_outside_the_play_or_of_too_many_tricks() -> None:
    state = random_play_state("spades", {}, random.Random(3), 3)
    assert not judge_claim(state, state.to_act, 9).proven
    assert "between 1 and" in judge_claim(state, state.to_act, 0).message


def test_claim_at_the_terminal() -> None:
    """The person claims whenever the solver would accept; a refused claim says so and
    play goes on; an accepted one ends the hand with ordinary plays in the record."""
    import io

    from rich.console import Console

    from tricktable import make_game, replay
    from tricktable.play.terminal import QuitGame, new_game, short
    from tricktable.search.claims import judge_claim as judge

    out = io.StringIO()
    refused = accepted = 0
    holder: dict[str, object] = {}

    def read(prompt: str) -> str:
        nonlocal refused, accepted
        session = holder["session"]
        state = session.table.state  # type: ignore[attr-defined]
        if "next hand" in prompt:
            raise QuitGame
        if state.phase is Phase.PLAY and max(state.hand_size) <= 4:
            verdict = judge(state, 0)
            if verdict.proven:
                accepted += 1
                return "claim"
            if not refused:
                refused += 1
                return "claim"
        legal = [a for a in state.game.legal_actions(state) if a.seat in (0, 2)]
        return short(legal[0])

    game = make_game("spades", {})
    session = new_game(game, 0, "rules", 12, Console(file=out, width=120), read)
    holder["session"] = session
    with contextlib.suppress(QuitGame):  # the person quits after the first hand
        session.play()
    text = out.getvalue()
    state = session.table.state
    assert state.finished_hands == 1
    if refused:
        assert "claim refused: it is not proven" in text
    if accepted:
        assert "claim accepted" in text and "Played out" in text
    assert refused or accepted
    record = session.record()
    assert replay(record).totals == state.totals  # plain plays: the record replays
