"""Worlds weighted by the auction and the play (``search.worlds``): the likelihood of a bid
and of a card, worlds that read the other seats' bids better than uniform ones and follow
what their cards say, only other seats' looked-at bids and unforced cards weighed, and
nothing read beyond the seat's observation."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest

from harness import after_a_blind_nil, redeal
from tricktable import make_game, step
from tricktable.bots import make_bot
from tricktable.engine.actions import CHANCE, Bid, Deal, Pass, Play
from tricktable.engine.cards import CardSet, parse_card, parse_cards
from tricktable.engine.game import Game
from tricktable.engine.state import Phase, State
from tricktable.search import worlds as worlds_module
from tricktable.search.determinize import world_state
from tricktable.search.playout import play_on
from tricktable.search.random_positions import first_card_by_rules
from tricktable.search.sampler import WorldSampler
from tricktable.search.worlds import (
    OTHER_CHOICE,
    OTHER_SUIT,
    PER_TRICK_OFF,
    SAME_SUIT_OFF,
    Worlds,
    likelihood,
    play_likelihood,
)

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


def dealt(game: Game, dealer: int, hands: list[str]) -> State:
    """A hand of ``game`` dealt by ``dealer`` with these cards, seat by seat."""
    state = game.new_game()
    step(state, Deal(CHANCE, dealer, tuple(tuple(parse_cards(h)) for h in hands), ()))
    return state


def played_on(game: Game, seed: int, cards_left: int) -> State:
    """A hand dealt from ``seed`` and played by rules bots until no seat holds more than
    ``cards_left`` cards (mid-trick, as it falls)."""
    state = first_card_by_rules(game, seed)
    bots = {s: make_bot("rules", game, s, seed) for s in game.player_seats}
    play_on(game, state, bots,
            lambda s: s.phase is not Phase.PLAY or max(s.hand_size) <= cards_left)
    return state


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


def test_the_likelihood_of_a_card() -> None:
    """The model's card, or one touching it in that world (no card of the suit still out in
    another holding between the two), 1; another card of its suit, ``SAME_SUIT_OFF``;
    another suit, ``OTHER_SUIT``."""
    game = make_game("spades")
    state = dealt(game, 3, ["AH KH QH 9H 7H 2S 3S 4S 2D 3D 4D 5D 6D",
                            "JH TH 8H 6H 2C 3C 4C 5C 6C 7C 8C 9C TC",
                            "5H 4H 3H 2H 5S 6S 7S 8S 9S TS JC QC KC",
                            "JS QS KS AS AC 7D 8D 9D TD JD QD KD AD"])
    real = Play(0, parse_card("KH"))
    assert play_likelihood(real, real, state) == 1.0
    assert play_likelihood(real, Play(0, parse_card("AH")), state) == 1.0  # touching
    assert play_likelihood(real, Play(0, parse_card("QH")), state) == 1.0
    # the 9H does another job than the KH: the JH and TH are out between them
    assert play_likelihood(Play(0, parse_card("9H")), real, state) == SAME_SUIT_OFF
    # the 9H and 7H touch: the 8H between them is out, in seat 1's hand, so they do not
    assert play_likelihood(Play(0, parse_card("7H")), Play(0, parse_card("9H")),
                           state) == SAME_SUIT_OFF
    assert play_likelihood(Play(0, parse_card("2D")), real, state) == OTHER_SUIT
    assert play_likelihood(Play(0, parse_card("2S")), real, state) == OTHER_SUIT
    # the 2D and 6D touch: the cards between them are the seat's own
    assert play_likelihood(Play(0, parse_card("6D")), Play(0, parse_card("2D")), state) == 1.0
    # once the 8H is played, the 9H and 7H touch
    for seat, card in ((0, "2D"), (1, "8H"), (2, "8S"), (3, "7D")):
        state.hands[seat] &= ~(1 << parse_card(card))
    assert play_likelihood(Play(0, parse_card("7H")), Play(0, parse_card("9H")), state) == 1.0


def test_a_nil_bidders_discards_make_its_honours_less_likely(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1 bid nil and, void in hearts, threw the 9C and then the 7C on them. The rules
    bot, bidding nil, throws its highest card: holding a club honour (or one of another
    side suit) it would have thrown that, so the worlds where seat 1 holds one are drawn
    less often once the cards are weighed. (The bids' likelihood is set to 1 here so that
    only the cards speak: these bids are not the rules bot's.)"""
    game = make_game("spades")
    state = dealt(game, 3, ["AH KH QH AD KD QD JD TD 9D 8D 7D 6D 5D",
                            "2C 3C 4C 5C 6C 7C 9C 2D 3D 4D 2S 3S 4S",
                            "7H 6H 5H 5S 6S 7S 8S 9S TS JS QS KS AS",
                            "4H 3H 2H JH TH 9H 8H AC KC QC JC TC 8C"])
    for seat, tricks in ((0, 5), (1, 0), (2, 4), (3, 3)):
        step(state, Bid(seat, tricks))
    for seat, card in ((0, "AH"), (1, "9C"), (2, "5H"), (3, "2H"),
                       (0, "KH"), (1, "7C"), (2, "6H"), (3, "3H")):
        step(state, Play(seat, parse_card(card)))
    obs = game.observe(state, 0)
    monkeypatch.setattr(worlds_module, "likelihood", lambda real, model: 1.0)
    honours = [parse_card(c) for c in ("AC", "KC", "QC", "JC")]
    share: dict[bool, float] = {}
    for weigh_plays in (False, True):
        held = []
        for k in range(10):  # a new decision every 30 worlds: each weighs new candidates
            worlds = Worlds(game, weigh_plays=weigh_plays)
            rng = random.Random(k)
            for _ in range(30):
                world = worlds.draw(obs, rng)
                assert world is not None
                held.append(any(world.hands[1] >> c & 1 for c in honours))
        share[weigh_plays] = statistics.fmean(held)
    assert share[True] < share[False] - 0.08


def test_a_forced_card_weighs_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cards of the last trick (one card each) are never weighed; the earlier cards of
    the other seats are."""
    game = make_game("spades")
    state = played_on(game, 2, 1)
    while len(state.trick_cards) < 2:
        step(state, game.legal_actions(state)[0])
    seat = state.to_act
    last = set(zip(state.trick_seats, state.trick_cards, strict=True))
    asked: list[tuple[int, int]] = []
    real = worlds_module.play_likelihood

    def counting(action: Any, model: Any, world: State) -> float:
        asked.append((action.seat, action.card))
        return real(action, model, world)

    monkeypatch.setattr(worlds_module, "play_likelihood", counting)
    worlds = Worlds(game)
    rng = random.Random(1)
    for _ in range(4):
        assert worlds.draw(game.observe(state, seat), rng) is not None
    assert asked
    assert all(s != seat for s, _ in asked)
    assert not last & set(asked)


def test_without_weigh_plays_no_card_is_weighed(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("spades")
    state = played_on(game, 3, 8)
    asked: list[Any] = []
    monkeypatch.setattr(worlds_module, "play_likelihood", lambda *a: asked.append(a) or 1.0)
    obs = game.observe(state, state.to_act)
    worlds = Worlds(game, weigh_plays=False)
    assert worlds.draw(obs, random.Random(2)) is not None
    assert not asked
    Worlds(game).draw(obs, random.Random(2))
    assert asked


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


@pytest.mark.parametrize("cards_left", [None, 7], ids=["first-card", "mid-hand"])
@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_the_worlds_come_from_the_observation_alone(name: str, options: dict[str, Any],
                                                    cards_left: int | None) -> None:
    """Two states that look alike to the seat (the hidden cards dealt again) give the very
    same worlds for the same random stream: at the first card (the bids weighed) and in
    the middle of the hand (the cards played too)."""
    game = make_game(name, options)
    compared = 0
    for seed in range(6):
        state = (first_card_by_rules(game, seed) if cards_left is None
                 else played_on(game, seed, cards_left))
        seat = state.to_act
        other = None
        for attempt in range(8):  # a shuffle that makes a past card a revoke is refused
            other = redeal(game, state, seat, random.Random(seed * 8 + attempt))
            if other is not None:
                break
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
