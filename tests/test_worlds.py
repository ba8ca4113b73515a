"""Worlds weighted by the auction (``search.worlds``): the likelihood of a bid, worlds that
read the other seats' bids better than uniform ones, only other seats' looked-at bids
weighed, and nothing read beyond the seat's observation."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest

from harness import after_a_blind_nil, redeal
from tricktable import make_game, step
from tricktable.bots import make_bot
from tricktable.engine.actions import Bid, Pass
from tricktable.engine.cards import CardSet
from tricktable.engine.state import Phase, State
from tricktable.search import worlds as worlds_module
from tricktable.search.determinize import world_state
from tricktable.search.random_positions import first_card_by_rules
from tricktable.search.sampler import WorldSampler
from tricktable.search.worlds import OTHER_CHOICE, PER_TRICK_OFF, Worlds, likelihood

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("spades", {}),
    ("dummy-hand-spades", {}),
    ("3b-spades", {"players": 3}),
    ("3b-spades", {"players": 4}),
    ("dummy-whist", {}),
]
IDS = [g + "".join(f"-{k}={v}" for k, v in o.items()) for g, o in GAMES]


def high_cards(cards: CardSet) -> int:
    """Points of the jacks to aces (1 to 4): what a bid says most about."""
    return sum(max(0, c % 13 - 8) for c in range(52) if cards >> c & 1)


def test_the_likelihood_of_a_bid() -> None:
    assert likelihood(Bid(1, 4), Bid(1, 4)) == 1.0
    assert likelihood(Bid(1, 5), Bid(1, 4)) == pytest.approx(PER_TRICK_OFF)
    assert likelihood(Bid(1, 2), Bid(1, 4)) == pytest.approx(PER_TRICK_OFF**2)
    # a nil is another kind of bid than a number of tricks, and so is another mode
    assert likelihood(Bid(1, 0), Bid(1, 1)) == OTHER_CHOICE
    assert likelihood(Bid(1, 1), Bid(1, 0)) == OTHER_CHOICE
    assert likelihood(Bid(1, 3, mode="uptown"), Bid(1, 3, mode="downtown")) == OTHER_CHOICE
    assert likelihood(Bid(1, 3, nils=(2,)), Bid(1, 3)) == OTHER_CHOICE
    assert likelihood(Pass(1), Bid(1, 3)) == OTHER_CHOICE


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_weighted_worlds_read_the_bids(name: str, options: dict[str, Any]) -> None:
    """The high cards the worlds give each other seat are nearer its real ones than
    uniform worlds' are, over a few hands (the bids were made by rules bots, the model)."""
    game = make_game(name, options)
    errors: dict[bool, list[float]] = {True: [], False: []}
    for seed in range(10):
        state = first_card_by_rules(game, seed)
        seat = state.to_act
        obs = game.observe(state, seat)
        for weighted in (True, False):
            worlds = Worlds(game, weighted)
            rng = random.Random(seed)
            drawn = [w for w in (worlds.draw(obs, rng) for _ in range(16)) if w is not None]
            if not drawn:
                continue
            for other in game.player_seats:
                if other != seat and not obs.visible[other]:
                    mean = statistics.fmean(high_cards(w.hands[other]) for w in drawn)
                    errors[weighted].append(abs(mean - high_cards(state.hands[other])))
    assert errors[True] and len(errors[True]) == len(errors[False])
    assert statistics.fmean(errors[True]) < statistics.fmean(errors[False]) * 0.95


def test_every_weighted_world_looks_the_same_to_the_seat() -> None:
    game = make_game("spades")
    for seed in range(4):
        state = first_card_by_rules(game, seed)
        seat = state.to_act
        obs = game.observe(state, seat)
        worlds = Worlds(game)
        rng = random.Random(seed)
        for _ in range(6):
            world = worlds.draw(obs, rng)
            assert world is not None
            again = game.observe(world, seat)
            assert again.hand == obs.hand and again.visible == obs.visible
            assert again.history == obs.history


def test_only_other_seats_looked_at_bids_are_weighed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model is asked about each bid of the other three seats, never about the seat's
    own bid (it knows its cards), and a candidate world's weight is the product."""
    game = make_game("spades")
    state = first_card_by_rules(game, 3)
    seat = state.to_act
    obs = game.observe(state, seat)
    asked: list[tuple[int, float]] = []
    real = worlds_module.likelihood

    def counting(action: Any, model: Any) -> float:
        value = real(action, model)
        asked.append((action.seat, value))
        return value

    monkeypatch.setattr(worlds_module, "likelihood", counting)
    monkeypatch.setattr(worlds_module, "PROBES", 1)
    worlds = Worlds(game)
    worlds.draw(obs, random.Random(1))
    probe = asked[:3]  # the probe replays every bid whatever its weight
    assert sorted(s for s, _ in probe) == sorted(s for s in range(4) if s != seat)
    assert all(s != seat for s, _ in asked)


def test_a_blind_nil_is_not_weighed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A blind nil is bid before looking: the cards say nothing about it."""
    game = make_game("spades", {"blind_nil": True})
    state, blind = after_a_blind_nil(game, 2)
    bots = {s: make_bot("rules", game, s, 2) for s in game.player_seats}
    while state.phase is not Phase.PLAY:
        seat = state.to_act
        step(state, bots[seat].choose(game.observe(state, seat), game.legal_actions(state)))
    seat = (blind + 1) % 4
    obs = game.observe(state, seat)
    asked: list[int] = []
    real = worlds_module.likelihood
    monkeypatch.setattr(worlds_module, "likelihood",
                        lambda a, m: asked.append(a.seat) or real(a, m))
    Worlds(game).draw(obs, random.Random(1))
    assert asked and blind not in asked


def test_nothing_to_weigh_gives_the_uniform_world() -> None:
    """Before any other seat has bid, a weighted world is the uniform sampler's."""
    game = make_game("spades")
    rng = random.Random(4)
    state = game.new_game()
    step(state, game.random_deal(state, rng))
    obs = game.observe(state, state.to_act)
    weighted = Worlds(game).draw(obs, random.Random(7))
    uniform = world_state(game, obs, WorldSampler(game).sample(obs, random.Random(7)))
    assert weighted is not None and uniform is not None
    assert weighted.hands == uniform.hands


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_the_worlds_come_from_the_observation_alone(name: str, options: dict[str, Any]) -> None:
    """Two states that look alike to the seat (the hidden cards dealt again) give the very
    same worlds for the same random stream."""
    game = make_game(name, options)
    compared = 0
    for seed in range(6):
        state = first_card_by_rules(game, seed)
        seat = state.to_act
        other = redeal(game, state, seat, random.Random(seed))
        if other is None or other.hands == state.hands:
            continue
        drawn = []
        for s in (state, other):
            obs = game.observe(s, seat)
            worlds = Worlds(game)
            rng = random.Random(11)
            kept = (worlds.draw(obs, rng) for _ in range(3))
            drawn.append([w.hands if w else None for w in kept])
        assert drawn[0] == drawn[1]
        compared += 1
    assert compared >= 2


def test_a_long_search_is_dealt_the_kept_worlds_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``POOL`` worlds in one decision, the worlds already weighed are dealt again."""
    monkeypatch.setattr(worlds_module, "POOL", 3)
    game = make_game("spades")
    state = first_card_by_rules(game, 5)
    obs = game.observe(state, state.to_act)
    worlds = Worlds(game)
    rng = random.Random(3)
    first = [w.hands for w in (worlds.draw(obs, rng) for _ in range(3)) if w is not None]
    later = [w.hands for w in (worlds.draw(obs, rng) for _ in range(12)) if w is not None]
    assert len(first) == 3 and len(later) == 12
    assert all(hands in first for hands in later)


def test_a_world_the_replay_refuses_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sampler does not know every rule (a whist joker that had to be thrown): a world
    the replay refuses is replaced by another, and only a hand that no world rebuilds
    gives None."""
    game = make_game("spades")
    state = first_card_by_rules(game, 6)
    obs = game.observe(state, state.to_act)
    real = worlds_module.rebuilt_hand
    calls: list[int] = []

    def refusing(*args: Any, **kwargs: Any) -> State | None:
        calls.append(1)
        return None if len(calls) <= 2 else real(*args, **kwargs)

    monkeypatch.setattr(worlds_module, "rebuilt_hand", refusing)
    assert Worlds(game, weighted=False).draw(obs, random.Random(1)) is not None
    assert len(calls) == 3
    monkeypatch.setattr(worlds_module, "rebuilt_hand", lambda *a, **k: None)
    assert Worlds(game, weighted=False).draw(obs, random.Random(1)) is None
