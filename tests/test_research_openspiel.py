"""Every game as an OpenSpiel Python game: OpenSpiel's random simulation test,
resampling that keeps the player's information state, and OpenSpiel's IS-MCTS playing a
hand of ours."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

import tricktable.research.openspiel  # noqa: E402,F401  (registers the games)

TABLES: list[tuple[str, dict[str, Any]]] = [
    ("tricktable_spades", {"blind_nil": True}),
    ("tricktable_dummy_hand_spades", {"peek": "flip-2"}),
    ("tricktable_3b_spades", {"players": 3}),
    ("tricktable_3b_spades", {"players": 5}),
    ("tricktable_dummy_whist", {"jokers": True, "honour": True}),
    ("tricktable_double_dummy_whist", {"honour": True}),
    ("tricktable_paperless_spades", {}),
]


@pytest.mark.parametrize(("name", "params"), TABLES, ids=[n for n, _ in TABLES])
def test_openspiel_random_simulation(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, {**params, "max_hands": 1})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def mid_hand(game: Any, seed: int, moves: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    done = 0
    while not state.is_terminal() and done < moves:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        done += 1
    return state


def moved_cards(state: Any) -> bool:
    """Whether cards changed hands (or went out of play) in the hand in progress."""
    table = state.table
    return any(a.verb in ("give", "exchange", "discard", "swap") for a in table.actions)


@pytest.mark.parametrize(("name", "params"), TABLES, ids=[n for n, _ in TABLES])
def test_resampling_keeps_the_players_information_state(name: str, params: dict[str, Any]
                                                       ) -> None:
    """Every game, cards that changed hands included (passes, exchanges, discards, a
    swap): the player sees the same, the others were dealt again."""
    game = pyspiel.load_game(name, {**params, "max_hands": 2})
    differed = resampled = moved = 0
    for seed in range(6):
        for moves in (2, 8, 20, 30, 45):
            state = mid_hand(game, seed, moves)
            if state.is_terminal() or state.is_chance_node():
                continue
            player = state.current_player()
            moved += moved_cards(state)
            for draw in range(2):
                other = state.resample_from_infostate(
                    player, pyspiel.UniformProbabilitySampler(draw, draw + 0.9))
                assert other.information_state_string(player) == \
                    state.information_state_string(player)
                assert other.information_state_tensor(player) == \
                    state.information_state_tensor(player)
                assert other.legal_actions() == state.legal_actions()
                resampled += 1
                hidden = [p for p in range(game.num_players()) if p != player]
                differed += any(other.information_state_string(p) !=
                                state.information_state_string(p) for p in hidden)
    assert resampled >= 20
    assert differed > 0, "resampling dealt the hidden cards again"
    if name in ("tricktable_3b_spades", "tricktable_dummy_whist", "tricktable_paperless_spades"):
        assert moved > 0, "the positions include hands where cards changed hands"


def player_passing(state: Any, player: int) -> bool:
    given = state.spiel_game.engine.observe(state.table, player).info.get("given")
    return isinstance(given, tuple | list) and not all(given)


@pytest.mark.parametrize(("name", "params", "moves"), [
    ("tricktable_spades", {}, 30),
    ("tricktable_paperless_spades", {}, 0),  # the pass, then the bids
    ("tricktable_3b_spades", {"players": 3}, 2),  # bids, zeros' exchanges
])
def test_openspiels_ismcts_plays(name: str, params: dict[str, Any], moves: int) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name, {**params, "max_hands": 1})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=None)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8,
                           random_state=None)
    state = mid_hand(game, 5, moves)
    rng = random.Random(5)
    for _ in range(8):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_resampling_while_a_pass_is_under_way() -> None:
    """Paperless, one or more gives made face down: their cards are in nobody's hand,
    and the worlds split them among the givers at random."""
    game = pyspiel.load_game("tricktable_paperless_spades", {"max_hands": 1})
    for seed, moves in [(1, 1), (2, 2), (3, 3), (4, 1)]:
        state = mid_hand(game, seed, moves)
        player = state.current_player()
        assert player_passing(state, player)
        splits = set()
        for draw in range(6):
            other = state.resample_from_infostate(
                player, pyspiel.UniformProbabilitySampler(draw, draw + 0.9))
            assert other.information_state_string(player) == \
                state.information_state_string(player)
            assert other.legal_actions() == state.legal_actions()
            splits.add(tuple(a for a in other.table.actions if a.verb == "give"))
        assert len(splits) > 1
