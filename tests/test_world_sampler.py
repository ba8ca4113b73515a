"""The world sampler: every world fits what the seat knows, worlds come from the
observation alone, and they are uniform over the consistent deals (checked against full
enumeration on small positions)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from harness import redeal
from tricktable import make_game, step
from tricktable.engine.cards import cards_of
from tricktable.engine.game import Game
from tricktable.engine.observation import Observation
from tricktable.engine.state import Phase, State
from tricktable.search.sampler import OUT, WorldSampler

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("spades", {}),
    ("dummy-hand-spades", {"peek": "four-peeky"}),
    ("dummy-hand-spades", {"peek": "flip-2"}),
    ("3b-spades", {"players": 3}),
    ("3b-spades", {"players": 5}),
    ("dummy-whist", {"jokers": True}),
    ("double-dummy-whist", {}),
    ("paperless-spades", {}),
]
IDS = [g + "".join(f"-{k}={v}" for k, v in o.items()) for g, o in GAMES]


def states(game: Game, seed: int, count: int) -> list[State]:
    """Copies of the state at ``count`` random moments of one random hand or two."""
    rng = random.Random(seed)
    state = game.new_game()
    out = []
    while state.phase is not Phase.GAME_OVER and state.finished_hands < 2:
        legal = game.legal_actions(state)
        if not legal:
            step(state, game.random_deal(state, rng))
            continue
        if rng.random() < 0.2:
            out.append(state.copy())
        step(state, rng.choice(legal))
    return rng.sample(out, min(count, len(out)))


def voids_shown(obs: Observation) -> dict[int, set[int]]:
    shown: dict[int, set[int]] = {}
    for t in obs.tricks:
        for s, c in zip(t.seats, t.cards, strict=True):
            if c < 52 and c // 13 != t.led_suit and t.led_suit >= 0:
                shown.setdefault(s, set()).add(t.led_suit)
    return shown


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_every_world_fits_what_the_seat_knows(name: str, options: dict[str, Any]) -> None:
    game = make_game(name, options)
    sampler = WorldSampler(game)
    rng = random.Random(1)
    for state in states(game, 7, 12):
        for seat in game.player_seats:
            obs = game.observe(state, seat)
            assert sampler.count(obs) >= 1  # the real deal is one of them
            for _ in range(3):
                world = sampler.sample(obs, rng)
                assert world[seat] == obs.hand
                held = 0
                for s, cards in world.items():
                    if s == OUT:
                        continue
                    assert cards.bit_count() == obs.hand_sizes[s], (s, name)
                    assert cards & obs.visible[s] & ~obs.played == obs.visible[s] & ~obs.played
                    assert not cards & obs.played
                    assert not held & cards
                    held |= cards
                    for suit in voids_shown(obs).get(s, ()):
                        natural = [c for c in cards_of(cards) if c < 52]
                        assert all(c // 13 != suit for c in natural), (s, suit)


@pytest.mark.parametrize(("name", "options"), GAMES[:4], ids=IDS[:4])
def test_worlds_come_from_the_observation_alone(name: str, options: dict[str, Any]) -> None:
    game = make_game(name, options)
    sampler = WorldSampler(game)
    rng = random.Random(4)
    compared = 0
    for state in states(game, 3, 10):
        for seat in game.player_seats:
            other = redeal(game, state, seat, rng)
            if other is None:
                continue
            obs = game.observe(state, seat)
            assert game.observe(other, seat) == obs  # the seat cannot tell them apart
            first = sampler.sample(obs, random.Random(9))
            assert sampler.sample(game.observe(other, seat), random.Random(9)) == first
            compared += 1
    assert compared > 5


def enumerate_deals(sampler: WorldSampler, obs: Observation) -> list[tuple[tuple[int, int], ...]]:
    """Every consistent deal of the hidden cards, by brute force."""
    hidden, slots, voids = sampler.unknowns(obs)
    holders = sorted(slots)
    deals = []
    for owners in itertools.product(holders, repeat=len(hidden)):
        counts = Counter(owners)
        if any(counts[h] != slots[h] for h in holders):
            continue
        if any(c < 52 and c // 13 in voids[h] for c, h in zip(hidden, owners, strict=True)):
            continue
        deals.append(tuple(sorted(zip(hidden, owners, strict=True))))
    return deals


def late_position(seed: int, tricks_left: int) -> tuple[Game, Observation]:
    """Seat 0's observation in a random Spades hand with ``tricks_left`` tricks to go and
    at least one suit shown out of by someone else."""
    game = make_game("spades")
    rng = random.Random(seed)
    while True:
        state = game.new_game()
        step(state, game.random_deal(state, rng))
        while state.phase is not Phase.SCORING and len(state.tricks) < 13 - tricks_left:
            step(state, rng.choice(game.legal_actions(state)))
        obs = game.observe(state, 0)
        if state.phase is Phase.PLAY and not obs.trick and any(
            s != 0 for s in voids_shown(obs)
        ):
            return game, obs


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_worlds_are_uniform_over_the_consistent_deals(seed: int) -> None:
    game, obs = late_position(seed, 3)
    sampler = WorldSampler(game)
    deals = enumerate_deals(sampler, obs)
    assert sampler.count(obs) == len(deals) > 1
    hidden, _, _ = sampler.unknowns(obs)
    rng = random.Random(seed)
    draws = 30 * len(deals)
    seen: Counter[tuple[tuple[int, int], ...]] = Counter()
    for _ in range(draws):
        world = sampler.sample(obs, rng)
        owner = {c: s for s, cards in world.items() if s != 0 for c in cards_of(cards)}
        seen[tuple(sorted((c, owner[c]) for c in hidden))] += 1
    assert set(seen) <= set(deals)
    # chi-square against uniform: 30 expected per deal; the statistic has mean n-1 and
    # standard deviation sqrt(2(n-1)); six of those is far beyond chance
    expected = draws / len(deals)
    chi2 = sum((seen[d] - expected) ** 2 / expected for d in deals)
    df = len(deals) - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5, (chi2, df)
