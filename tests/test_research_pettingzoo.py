"""Every game as a PettingZoo AEC environment: PettingZoo's own API and seed tests, the
vocabulary and mask, rewards that add up to the game's totals, and hidden cards that
never reach an agent."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra is not installed")

from pettingzoo.test import api_test, seed_test

from harness import redeal
from tricktable.research.pettingzoo import env

TABLES: list[tuple[str, dict[str, Any]]] = [
    ("spades", {"target": 100}),
    ("spades", {"target": 100, "blind_nil": True}),
    ("spades", {"target": 100, "variant": "suicide"}),
    ("dummy-hand-spades", {"peek": "flip-2", "target": 100}),
    ("dummy-hand-spades", {"peek": "three-peeky", "target": 100, "variant": "mirror"}),
    ("3b-spades", {"players": 3, "hands": 2}),
    ("3b-spades", {"players": 5, "hands": 2}),
    ("dummy-whist", {"jokers": True, "honour": True, "target": 5}),
    ("double-dummy-whist", {"honour": True, "target": 5}),
    ("paperless-spades", {"limit": 1}),
]
IDS = [g + "".join(f"-{k}={v}" for k, v in o.items()) for g, o in TABLES]


@pytest.mark.parametrize(("game", "options"), TABLES, ids=IDS)
def test_pettingzoo_api_and_seed_tests(game: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations with a mask, as classic envs
        api_test(env(game=game, max_hands=2, **options), num_cycles=200)
        seed_test(lambda: env(game=game, max_hands=2, **options), num_cycles=60)


def play(table: Any, seed: int, every: Any = None) -> dict[str, float]:
    """Random legal actions to the end; returns each agent's summed reward."""
    rng = random.Random(seed)
    table.reset(seed=seed)
    summed = {a: 0.0 for a in table.possible_agents}
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        summed[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        if every is not None:
            every(table)
        legal = np.flatnonzero(observation["action_mask"])
        table.step(int(rng.choice(list(legal))))
    return summed


@pytest.mark.parametrize(("game", "options"), TABLES[:1] + TABLES[3:6], ids=IDS[:1] + IDS[3:6])
def test_hand_rewards_add_up_to_the_games_totals(game: str, options: dict[str, Any]) -> None:
    table = env(game=game, max_hands=3, **options)
    summed = play(table, seed=3)
    inner = table.unwrapped
    totals = list(inner.state.totals)
    for agent, seat in inner.seat_of.items():
        assert summed[agent] == totals[inner.game.entity_of_seat(seat)]


def test_game_rewards_name_the_winner() -> None:
    table = env(game="double-dummy-whist", reward="game", target=3)
    summed = play(table, seed=5)
    inner = table.unwrapped
    winner = inner.state.winner
    assert winner is not None
    for agent, seat in inner.seat_of.items():
        assert summed[agent] == (1.0 if inner.game.entity_of_seat(seat) == winner else -1.0)


def test_the_vocabulary_and_the_mask() -> None:
    table = env(game="dummy-hand-spades", peek="flip-2")
    table.reset(seed=1)
    inner = table.unwrapped
    texts = inner.vocabulary.texts
    assert texts[0] == "decline" and "play AS" in texts and "bid 5 nil=0,3" in texts
    observation = table.observe(table.agent_selection)
    chosen = [texts[i] for i in np.flatnonzero(observation["action_mask"])]
    assert chosen and all(t.startswith("flip ") for t in chosen)
    with pytest.raises(ValueError, match="not legal now"):
        table.step(texts.index("play AS"))
    with pytest.raises(ValueError, match="render_mode"):
        env(game="spades", render_mode="screen")


def test_an_agent_never_sees_a_hidden_card() -> None:
    """Re-dealing the cards hidden from an agent leaves its observation unchanged."""
    rng = random.Random(11)
    checked = 0

    def check(table: Any) -> None:
        nonlocal checked
        inner = table.unwrapped
        if rng.random() > 0.15:
            return
        for agent, seat in inner.seat_of.items():
            alt = redeal(inner.game, inner.state, seat, rng)
            if alt is None:
                continue
            before = table.observe(agent)
            real, inner.state = inner.state, alt
            try:
                after = table.observe(agent)
            finally:
                inner.state = real
            assert np.array_equal(before["observation"], after["observation"]), agent
            assert np.array_equal(before["action_mask"], after["action_mask"]), agent
            checked += 1

    for game, options in TABLES[3:5] + TABLES[5:6] + TABLES[7:8]:
        play(env(game=game, max_hands=1, **options), seed=2, every=check)
    assert checked > 20


def test_render_shows_the_table() -> None:
    table = env(game="spades", render_mode="ansi")
    table.reset(seed=1)
    text = table.render()
    assert text is not None and "Partnership Spades" in text and "totals" in text


def test_a_few_lines_train_against_the_rules_bot() -> None:
    """The README's example, shortened: player_0 learns, the others are rules bots."""
    table = env(game="spades", target=100, max_hands=2)
    rng = random.Random(0)
    value: dict[int, float] = {}
    for episode in range(2):
        table.reset(seed=episode)
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            if agent == "player_0":
                action = max(legal, key=lambda a: value.get(int(a), 0.0) + rng.random())
                value[int(action)] = value.get(int(action), 0.0) + 0.1 * reward
            else:
                action = table.unwrapped.bot_action(agent)
                assert action in legal
            table.step(int(action))
    assert value
