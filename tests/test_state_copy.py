"""`State.copy()` shares nothing mutable with the original; `summary()` returns copies."""

from __future__ import annotations

import random

import pytest

from harness import snapshot
from tricktable import Phase, make_game, step
from tricktable.engine.records import summary

GAMES = [
    ("spades", {}),
    ("dummy-hand-spades", {}),
    ("3b-spades", {"players": 4}),
    ("dummy-whist", {"jokers": True}),
    ("paperless-spades", {}),
]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_copy_shares_nothing_mutable(name: str, options: dict[str, object]) -> None:
    game = make_game(name, options)
    state = game.new_game()
    rng = random.Random(5)
    # two hands finished and one under way: scores and details of finished hands exist
    while state.finished_hands < 2 or state.phase is not Phase.PLAY:
        if state.phase is Phase.GAME_OVER:
            break
        if state.phase in (Phase.DEAL, Phase.SCORING):
            step(state, game.random_deal(state, rng))
        else:
            step(state, rng.choice(game.legal_actions(state)))
    before = snapshot(state)
    copy = state.copy()
    assert snapshot(copy) == before
    # play the copy to its end and scribble on every finished hand's result in it
    while copy.phase is not Phase.GAME_OVER and copy.finished_hands < 4:
        if copy.phase in (Phase.DEAL, Phase.SCORING):
            step(copy, game.random_deal(copy, rng))
        else:
            step(copy, rng.choice(game.legal_actions(copy)))
    for result in copy.results:
        for mapping in (result.scores, result.totals, result.details):
            assert isinstance(mapping, dict)
            mapping["scribble"] = 1  # type: ignore[index]
            for value in mapping.values():
                if isinstance(value, list):
                    value.append("scribble")
                elif isinstance(value, dict):
                    value["scribble"] = 1
    assert snapshot(state) == before
    for result in state.results:
        assert "scribble" not in result.scores and "scribble" not in result.details


def test_summary_returns_copies() -> None:
    game = make_game("3b-spades", {"players": 3})
    state = game.new_game()
    rng = random.Random(2)
    while state.finished_hands < 2 and state.phase is not Phase.GAME_OVER:
        if state.phase in (Phase.DEAL, Phase.SCORING):
            step(state, game.random_deal(state, rng))
        else:
            step(state, rng.choice(game.legal_actions(state)))
    first = summary(state)
    for hand in first["hands"]:
        for value in hand.values():
            if isinstance(value, dict):
                value["scribble"] = 1
            elif isinstance(value, list):
                value.append("scribble")
    assert summary(state) != first
    assert "scribble" not in repr(summary(state))


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_copy_keeps_the_histories_seen_and_they_stay_right(
    name: str, options: dict[str, object]
) -> None:
    """The redacted histories a state has written are carried into its copies (a playout
    from a copy does not write them again); both then go their own ways and every seat's
    history is still exactly the actions so far as that seat saw them."""
    game = make_game(name, options)
    state = game.new_game()
    rng = random.Random(8)
    step(state, game.random_deal(state, rng))
    seats = range(game.num_seats)

    def fresh(s: object, viewer: int) -> tuple[str, ...]:
        return tuple(game.redact(s, a, viewer) for a in s.actions)  # type: ignore[attr-defined]

    for _ in range(12):
        if state.phase not in (Phase.BIDDING, Phase.PLAY):
            break
        step(state, rng.choice(game.legal_actions(state)))
    for viewer in seats:
        game.observe(state, viewer)
    copy = state.copy()
    assert set(copy._histories) == set(state._histories)
    for s in (copy, state):
        for _ in range(6):
            if s.phase in (Phase.DEAL, Phase.SCORING, Phase.GAME_OVER):
                break
            step(s, rng.choice(game.legal_actions(s)))
        for viewer in seats:
            assert game.observe(s, viewer).history == fresh(s, viewer)
