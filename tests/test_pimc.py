"""The pimc bot: montecarlo whose rollouts end double dummy. Its endgames are the solver's
line, it leaves a nil at stake to the rules bots, it cannot peek (the hidden cards dealt
again give the same choice), and it plays whole hands of every game."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from test_montecarlo import (
    GAMES,
    PASSING,
    play_positions,
    plays_a_whole_hand,
    same_choice_when_redealt,
)
from tricktable import make_game
from tricktable.engine.actions import Bid
from tricktable.engine.game import Game
from tricktable.engine.state import Phase, State
from tricktable.search.claims import play_out
from tricktable.search.pimc import ENDGAME_CARDS, PimcBot, nil_at_stake
from tricktable.search.solver import Solver


def endgame_positions(game: Game, seed: int) -> Iterator[tuple[State, int]]:
    """Card choices of a rules-bot game once no hand holds more than ENDGAME_CARDS."""
    for state, seat in play_positions(game, seed, limit=400):
        if max(state.hand_size) <= ENDGAME_CARDS:
            yield state, seat


def _endgame(game: Game, trickless_seat: bool = False) -> tuple[State, int]:
    """An endgame with no nil at stake and a choice to make (with ``trickless_seat``, one
    where some seat has taken no trick yet)."""
    for seed in range(40):
        for state, seat in endgame_positions(game, seed):
            if (not nil_at_stake(state) and len(game.observe(state, seat).legal) > 1
                    and (0 in state.won or not trickless_seat)):
                return state, seat
    pytest.fail("no endgame found")


def test_the_endgame_is_played_along_the_solvers_line() -> None:
    game = make_game("spades", {})
    state, seat = _endgame(game)
    bot = PimcBot(game, seat, 1)
    ours, solvers = state.copy(), state.copy()
    assert bot._finish_play(ours, seat)
    play_out(solvers, seat, Solver(table_bits=16))
    assert ours.phase is not Phase.PLAY
    assert ours.actions == solvers.actions


def test_rules_bots_play_before_the_endgame_and_with_a_nil_at_stake() -> None:
    game = make_game("spades", {})
    bot = PimcBot(game, 0, 1)
    early = next(s for s, _ in play_positions(game, 2) if max(s.hand_size) > ENDGAME_CARDS)
    before = early.copy()
    assert not bot._finish_play(early, 0)
    assert early.actions == before.actions

    state, _ = _endgame(game, trickless_seat=True)
    empty = state.won.index(0)
    state.actions = [Bid(a.seat, 0) if isinstance(a, Bid) and a.seat == empty else a
                     for a in state.actions]
    assert nil_at_stake(state)
    assert not bot._finish_play(state.copy(), 0)
    state.won[empty] = 1  # the nil is lost: nothing left at stake
    assert not nil_at_stake(state)


@pytest.mark.parametrize("name,options", [GAMES[0], GAMES[2], GAMES[4], GAMES[5], GAMES[7]])
def test_the_bot_cannot_peek(name: str, options: dict[str, object],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """In endgames, where its worlds are played double dummy, its choice with a fixed seed
    is the same in the real position and in one whose hidden cards were dealt again."""
    monkeypatch.setattr(PimcBot, "worlds", 2)
    game = make_game(name, options)
    positions = (p for seed in (4, 5, 6, 7) for p in endgame_positions(game, seed))
    assert same_choice_when_redealt(game, positions, random.Random(9), every=3, most=4,
                                    bot_class=PimcBot) >= 2


@pytest.mark.parametrize("name,options", [GAMES[0], GAMES[2], GAMES[4], GAMES[7], GAMES[8],
                                          *PASSING])
def test_the_bot_plays_whole_hands(name: str, options: dict[str, object],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PimcBot, "worlds", 2)
    assert plays_a_whole_hand(make_game(name, options), "pimc")
