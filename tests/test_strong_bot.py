"""The strong bot: montecarlo's worlds valued double dummy. It plays legal cards and
whole hands in every game, cannot peek (the hidden cards dealt again give the same choice,
cards and bids), values a card as the game scores the hand the solver's line makes of
it, keeps to its thinking time (counted in worlds, on a clock the test drives), and
weighs its worlds instead of rejecting them."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from test_montecarlo import (
    GAMES,
    PASSING,
    bid_positions,
    play_positions,
    plays_a_whole_hand,
    same_choice_when_redealt,
)
from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.actions import Action, Bid, Play
from tricktable.engine.game import Game, step
from tricktable.engine.state import State
from tricktable.search import strong
from tricktable.search.claims import play_out
from tricktable.search.montecarlo import MonteCarloBot, hand_value
from tricktable.search.pimc import nil_at_stake
from tricktable.search.position import position_of
from tricktable.search.solver import side_of
from tricktable.search.strong import (
    StrongBot,
    alone_final_tricks,
    effective_worlds,
    final_tricks,
    standard_error,
    truncated,
    weighted_mean,
)
from tricktable.search.strong_worlds import WeightedWorlds

EVERY_GAME = [GAMES[0], GAMES[2], GAMES[4], GAMES[5], GAMES[6], GAMES[8], *PASSING]
"""Spades, Dummy Hand (flip-2), 3B with 3 and 4 players, Dummy Whist, Double Dummy
Whist, Paperless."""


def late_positions(game: Game, seed: int, cards: int = strong.FIXED_DD_CARDS
                   ) -> Iterator[tuple[State, int]]:
    """Card choices of a rules-bot game once no hand holds more than ``cards`` (where a
    fixed search values cards double dummy)."""
    for state, seat in play_positions(game, seed, limit=400):
        if max(state.hand_size) <= cards:
            yield state, seat


@pytest.mark.parametrize("name,options", EVERY_GAME)
def test_the_bot_plays_legal_cards_through_whole_hands(
        name: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    """The table refuses an illegal action, so a scored hand is a hand of legal ones."""
    monkeypatch.setattr(StrongBot, "worlds", 2)
    assert plays_a_whole_hand(make_game(name, options), "strong")


# Double Dummy Whist hides nothing once both dummies are shown: nothing to deal again.
@pytest.mark.parametrize("name,options", [g for g in EVERY_GAME if g != GAMES[8]])
def test_the_bot_cannot_peek(name: str, options: dict[str, object],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Where its cards are valued double dummy, its choice with a fixed
    seed is the same in the real position and in one whose hidden cards were dealt
    again consistently with what it sees (in 3B with its double-dummy bounds switched on:
    ``dd_alone``)."""
    monkeypatch.setattr(StrongBot, "worlds", 3)
    monkeypatch.setattr(StrongBot, "dd_alone", True)
    game = make_game(name, options)
    positions = (p for seed in (4, 5, 6, 7) for p in late_positions(game, seed))
    assert same_choice_when_redealt(game, positions, random.Random(9), every=3, most=3,
                                    bot_class=StrongBot) >= 2


def test_with_montecarlos_rejected_worlds_it_cannot_peek_either(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(StrongBot, "worlds", 3)
    monkeypatch.setattr(StrongBot, "weigh_worlds", False)
    game = make_game("spades", {})
    positions = (p for seed in (4, 5, 6) for p in late_positions(game, seed))
    assert same_choice_when_redealt(game, positions, random.Random(9), every=3, most=2,
                                    bot_class=StrongBot) >= 2


@pytest.mark.parametrize("name,options", [GAMES[0], PASSING[0]])
def test_the_bot_cannot_peek_when_bidding_double_dummy(
        name: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(StrongBot, "worlds", 2)
    monkeypatch.setattr(strong, "FIXED_DD_BIDS", True)
    monkeypatch.setattr(StrongBot, "dd_bids", True)
    game = make_game(name, options)
    positions = (p for seed in range(1, 6) for p in bid_positions(game, seed))
    assert same_choice_when_redealt(game, positions, random.Random(3), every=1, most=2,
                                    bot_class=StrongBot) >= 2


def test_a_card_is_worth_what_the_game_scores_for_the_solvers_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In a world that is the real position, each card's value is the margin the game
    scores after that card and the rest played along the solver's line."""
    game = make_game("spades", {})
    for state, seat in (p for seed in range(6) for p in late_positions(game, seed, 5)):
        legal = [a for a in game.observe(state, seat).legal if isinstance(a, Play)]
        if len(legal) >= 2 and not nil_at_stake(state):
            break
    else:
        pytest.fail("no late position with a choice and no nil")
    bot = StrongBot(game, seat, 1)
    bot.stake = None
    values = bot._card_values(state, seat, legal)
    assert values is not None
    label = game.entity_label(game.entity_of_seat(seat))
    for action in legal:
        line = state.copy()
        step(line, action)
        if line.phase.value == "play":
            play_out(line, seat)
        scores = {k: float(v) for k, v in line.results[-1].scores.items()}
        # the solver's line after the card: the side's best, so the value is its margin
        # when the side keeps its most tricks (the line's tricks may be shared otherwise
        # between partners, which the score does not see)
        assert values[action] == hand_value(scores, label, "margin")


def test_a_nil_of_its_own_side_is_left_to_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """While a nil of its side is at stake the hand is played out by rules bots (double
    dummy, the nil bidder seeing every card, broke more of its own nils); otherwise its
    late cards are valued double dummy."""
    monkeypatch.setattr(StrongBot, "worlds", 2)
    game = make_game("spades", {})
    seen = set()
    for state, seat in (p for seed in range(12) for p in late_positions(game, seed)):
        obs = game.observe(state, seat)
        if len(obs.legal) < 2:
            continue
        own_nil = StrongBot.own_nil_at_stake(state, seat)
        if own_nil in seen:
            continue
        bot = StrongBot(game, seat, 1)
        bot.choose(obs, list(obs.legal))
        assert bot.last_method == ("rollouts" if own_nil else "dd")
        seen.add(own_nil)
        if len(seen) == 2:
            return
    pytest.fail("no late position with (and without) a nil of the side at stake")


def test_its_bids_are_montecarlos_very_bids() -> None:
    """Bids (and the cards of a hand with its own nil at stake) are montecarlo's, drawn
    from montecarlo's random streams: the same choice and the same values."""
    game = make_game("spades", {})
    positions = (p for seed in range(1, 4) for p in bid_positions(game, seed))
    for _, (state, seat) in zip(range(2), positions, strict=False):
        obs = game.observe(state, seat)
        ours, theirs = StrongBot(game, seat, 7), MonteCarloBot(game, seat, 7)
        ours.reseed("7")
        theirs.reseed("7")
        assert ours.choose(obs, list(obs.legal)) == theirs.choose(obs, list(obs.legal))
        assert ours.last_values and ours.last_values == theirs.last_values


def test_final_tricks_share_the_tricks_left_between_sides_and_nils() -> None:
    game = make_game("spades", {})
    state = next(s for s, _ in late_positions(game, 1, 6))
    pos = position_of(state)
    side = side_of(state, 0)
    left = pos.tricks_left
    won = list(pos.won)
    # no nil: the side's count to its first seat, the rest to the other side's first
    out = final_tricks(pos, side, 2, {})
    assert sum(out) == sum(won) + left
    assert out[0] == won[0] + 2 and out[1] == won[1] + left - 2
    # partner's nil survives, an opponent's is broken (one trick)
    out = final_tricks(pos, side, 2, {2: True, 3: False})
    assert out[2] == won[2] and out[3] == won[3] + 1
    assert out[0] == won[0] + 2 and out[1] == won[1] + left - 3
    # a side of nils at stake takes only its broken nils' tricks
    out = final_tricks(pos, side, 5, {0: True, 2: False})
    assert out[0] == won[0] and out[2] == won[2] + 1 and out[1] == won[1] + left - 1


def test_where_every_seat_plays_alone_the_others_share_the_rest_by_their_bids() -> None:
    game = make_game("3b-spades", {"players": 4})
    state = next(s for s, _ in late_positions(game, 1, 6))
    pos = position_of(state)
    left = pos.tricks_left
    won = pos.won
    bids = {0: won[0] + 9, 1: won[1] + 1, 2: 0, 3: won[3] + 2}
    out = alone_final_tricks(pos, 0, 1, bids)
    assert sum(out) == sum(won) + left and out[0] == won[0] + 1
    # seat 1 and seat 3 get what they are short of first, the zero bidder nothing
    assert out[1] - won[1] >= min(1, left - 1) and out[2] == won[2]
    assert alone_final_tricks(pos, 0, left + 3, bids)[0] == won[0] + left


def test_weights_are_means_truncated_and_counted() -> None:
    assert weighted_mean([1.0, 3.0], [10.0, 20.0]) == 17.5
    assert effective_worlds([1.0, 1.0, 1.0, 1.0]) == 4.0
    assert effective_worlds([1.0, 0.0]) == 1.0
    heavy = truncated([100.0, 1.0, 1.0, 1.0])
    assert max(heavy) == pytest.approx(sum([100.0, 1.0, 1.0, 1.0]) / 4 * 2)
    assert standard_error([1.0, 1.0], [5.0, 5.0]) == 0.0
    assert standard_error([1.0], [5.0]) == float("inf")


def test_worlds_are_weighed_not_rejected() -> None:
    """Every candidate world is kept, with the weight its replay gives it (how likely
    it makes the other seats' bids and cards): below 1 for some; 1 for all when the
    worlds are not weighted."""
    game = make_game("spades", {})
    state, seat = next(late_positions(game, 2, 8))
    obs = game.observe(state, seat)
    worlds = WeightedWorlds(game)
    rng = random.Random(4)
    drawn = [worlds.draw_weighted(obs, rng) for _ in range(12)]
    assert all(d is not None for d in drawn)
    weights = [d[1] for d in drawn if d is not None]
    assert all(0 < w <= 1 for w in weights) and min(weights) < 1
    uniform = WeightedWorlds(game, weighted=False).draw_weighted(obs, rng)
    assert uniform is not None and uniform[1] == 1.0


class _Clock:
    """A stand-in for the ``time`` module whose clock moves ``step`` seconds each time it
    is read: a world then costs a known number of readings, whatever the machine."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 0.0, step, 0

    def perf_counter(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


@pytest.mark.parametrize("think", [0.2, 0.5])
def test_a_thinking_time_bounds_the_worlds(think: float,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clock that moves 5 ms at each reading (a world reads it four times), the bot
    stops sampling while the time spent plus another world still fits the time."""
    game = make_game("spades", {})
    state, seat = next((s, t) for s, t in late_positions(game, 2)
                       if len(game.observe(s, t).legal) >= 2
                       and not StrongBot.own_nil_at_stake(s, t))
    obs = game.observe(state, seat)
    clock = _Clock(0.005)
    monkeypatch.setattr(strong, "time", clock)
    bot = make_bot("strong", game, seat, 1, think=think)
    assert isinstance(bot, StrongBot)
    start = clock.now
    assert bot.choose(obs, list(obs.legal)) in obs.legal
    spent = clock.now - start
    assert bot.last_method == "dd"
    per_world = 4 * clock.step
    assert spent <= think
    assert think * strong.SAFETY / per_world - 2 <= bot.last_worlds
    assert bot.last_worlds <= think * strong.SAFETY / per_world + 1


def test_dear_searches_are_left_to_rollouts() -> None:
    """With thinking time, a decision is valued double dummy when enough worlds fit (or
    a search costs no more than drawing a world) and the hands are small enough
    (``dd_cards_at_most``), else by montecarlo's rollouts."""
    game = make_game("spades", {})
    bot = make_bot("strong", game, 0, 1, think=0.5)
    assert isinstance(bot, StrongBot)
    bot.costs.draw = 0.005
    bot.costs.search["play", 11] = 0.01
    bot.costs.search["play", 13] = 0.2
    bot.dd_cards_at_most = 13
    assert bot.plans_dd("play", 11, 0, True)
    assert not bot.plans_dd("play", 13, 0, True)
    assert not bot.plans_dd("play", 11, 0, False)
    # and never from more cards than dd_cards_at_most, however cheap
    bot.dd_cards_at_most = 10
    assert not bot.plans_dd("play", 11, 0, True)
    # a seat against all the others: montecarlo's way unless dd_alone, and then never
    # from more than ALONE_DD_CARDS cards a hand
    alone = make_bot("strong", make_game("3b-spades", {"players": 3}), 0, 1, think=0.5)
    assert isinstance(alone, StrongBot) and alone.every_seat_alone
    assert not alone.plans_dd("play", 2, 13, True)
    alone.dd_alone = True
    alone.dd_cards_at_most = 13
    assert alone.plans_dd("play", strong.ALONE_DD_CARDS, 0, True)
    assert not alone.plans_dd("play", strong.ALONE_DD_CARDS + 1, 13, True)


def test_the_bot_is_registered_with_the_others() -> None:
    import tricktable.play  # noqa: F401  (registers the search bots)
    from tricktable.bots import bot_names

    assert "strong" in bot_names()



# --- a Spades number bid chosen double dummy (dd_numbers, off by default) ---------------


def number_bid_positions(game: Game, seeds: range) -> Iterator[tuple[State, int]]:
    """Bid positions of rules-bot games where the rules bot bids a number (not blind)."""
    for seed in seeds:
        for state, seat in bid_positions(game, seed):
            obs = game.observe(state, seat)
            preferred = StrongBot(game, seat, seed).rules.choose(obs, list(obs.legal))
            if isinstance(preferred, Bid) and preferred.tricks > 0 and not preferred.blind:
                yield state, seat


@pytest.mark.parametrize("after", [0, 2])
def test_double_dummy_numbers_are_legal_bids(after: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Its bids are legal and it plays whole hands, with the side's tricks solved from
    the first card or after two tricks played by rules bots."""
    monkeypatch.setattr(StrongBot, "worlds", 2)
    monkeypatch.setattr(StrongBot, "dd_numbers", True)
    monkeypatch.setattr(StrongBot, "dd_numbers_after", after)
    game = make_game("spades", {})
    assert plays_a_whole_hand(game, "strong")
    for _, (state, seat) in zip(range(3), number_bid_positions(game, range(1, 9)),
                                strict=False):
        obs = game.observe(state, seat)
        bot = StrongBot(game, seat, 2)
        assert bot.choose(obs, list(obs.legal)) in obs.legal
        assert bot.last_bid["solved"] == 2


@pytest.mark.parametrize("after", [0, 2])
def test_the_bot_cannot_peek_when_bidding_numbers_double_dummy(
        after: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its bid with a fixed seed is the same when the hidden cards are dealt again."""
    monkeypatch.setattr(StrongBot, "worlds", 2)
    monkeypatch.setattr(StrongBot, "dd_numbers", True)
    monkeypatch.setattr(StrongBot, "dd_numbers_after", after)
    game = make_game("spades", {})
    positions = number_bid_positions(game, range(1, 9))
    assert same_choice_when_redealt(game, positions, random.Random(3), every=1, most=3,
                                    bot_class=StrongBot) >= 2


def test_one_solve_values_every_number_as_the_game_scores_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In one world (here the real deal), the side's tricks are solved once, and each
    number is worth what Spades scores with them: 10 a trick bid less a bag while the
    contract is made, less than the best number once it is not."""
    game = make_game("spades", {})
    solves = []
    real_tricks = strong.Solver.tricks

    def counted_tricks(solver: strong.Solver, *args: object, **kwargs: object) -> int:
        solves.append(1)
        return real_tricks(solver, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(strong.Solver, "tricks", counted_tricks)
    shapes = 0
    first_hands = (p for p in number_bid_positions(game, range(1, 6)) if p[0].hand_number == 0)
    for state, seat in itertools.islice(first_hands, 8):  # no bags yet: no bag penalty
        obs = game.observe(state, seat)
        bot = StrongBot(game, seat, 1)
        bot.stake = None
        reference = bot.rules.choose(obs, list(obs.legal))
        numbers = [a for a in obs.legal if isinstance(a, Bid) and a.tricks > 0
                   and not a.blind and abs(a.tricks - reference.tricks) <= strong.NUMBER_SPREAD]
        solves.clear()
        valued = bot.number_worths(state, seat, reference, numbers, "0")
        assert valued is not None and len(solves) == 1
        worths, _ = valued
        values = [worths[a] for a in sorted(worths, key=lambda a: a.tricks)]
        best = values.index(max(values))
        rising = values[:best + 1]
        assert all(later - earlier == 9 for earlier, later in itertools.pairwise(rising))
        assert all(v < values[best] for v in values[best + 1:])
        shapes += best > 0 and best < len(values) - 1
    assert shapes >= 2  # worths that rise and fall were seen


def test_a_thinking_time_bounds_the_double_dummy_bid(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clock that moves 50 ms at each reading (a world reads it once), the bot
    stops sampling while the time spent plus another world still fits its time, and
    solves every world it sampled."""
    game = make_game("spades", {})
    state, seat = next(number_bid_positions(game, range(1, 9)))
    obs = game.observe(state, seat)
    clock = _Clock(0.05)
    monkeypatch.setattr(strong, "time", clock)
    bot = make_bot("strong", game, seat, 1, think=0.5)
    assert isinstance(bot, StrongBot)
    bot.dd_numbers, bot.dd_numbers_after = True, 2
    start = clock.now
    assert bot.choose(obs, list(obs.legal)) in obs.legal
    assert clock.now - start <= 0.5
    expected = 0.5 * strong.SAFETY / clock.step
    assert expected - 2 <= bot.last_worlds <= expected + 1
    assert bot.last_bid["solved"] == bot.last_worlds


def test_a_bonus_scores_the_numbers_with_more_tricks(monkeypatch: pytest.MonkeyPatch) -> None:
    """``dd_numbers_bonus``: a whole trick scores every number as a solve of one trick
    more would; half a trick, halfway between."""
    game = make_game("spades", {})
    state, seat = next(p for p in number_bid_positions(game, range(1, 9))
                       if p[0].hand_number == 0)
    obs = game.observe(state, seat)
    reference = StrongBot(game, seat, 1).rules.choose(obs, list(obs.legal))
    assert isinstance(reference, Bid)
    numbers = [a for a in obs.legal if isinstance(a, Bid) and a.tricks > 0 and not a.blind]

    def worths(solved: int, bonus: float) -> dict[Action, float]:
        monkeypatch.setattr(strong.Solver, "tricks", lambda *args, **kwargs: solved)
        bot = StrongBot(game, seat, 1)
        bot.stake, bot.dd_numbers_bonus = None, bonus
        valued = bot.number_worths(state, seat, reference, numbers, "0")
        assert valued is not None
        return valued[0]

    assert worths(5, 1.0) == worths(6, 0.0)
    low, high, half = worths(5, 0.0), worths(6, 0.0), worths(5, 0.5)
    assert half == {a: (low[a] + high[a]) / 2 for a in low}
    assert low != high
