"""The montecarlo bot and the hand rebuilt from an observation: the rebuilt hand looks to
the seat exactly like the real one, the bot's choice does not change when the hidden cards
are dealt again consistently with what it sees (it cannot peek), and it plays whole games
of every game."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.actions import Action, Bid, Exchange, Give, Rebid
from tricktable.engine.cards import parse_card
from tricktable.engine.errors import OptionError
from tricktable.engine.game import Game
from tricktable.engine.observation import Observation
from tricktable.engine.state import Phase, State
from tricktable.play.table import Table
from tricktable.search.determinize import mid_pass_state, rebuilt_hand, world_state
from tricktable.search.montecarlo import MAX_CANDIDATES, SIMULATED, MonteCarloBot
from tricktable.search.sampler import WorldSampler
from tricktable.search.worlds import Worlds

GAMES = [
    ("spades", {}),
    ("spades", {"variant": "suicide"}),
    ("dummy-hand-spades", {"peek": "flip-2"}),
    ("dummy-hand-spades", {"peek": "three-peeky"}),
    ("3b-spades", {"players": 3}),
    ("3b-spades", {"players": 4}),
    ("dummy-whist", {}),
    ("dummy-whist", {"jokers": True}),
    ("double-dummy-whist", {}),
]
PASSING = [("paperless-spades", {})]
"""Games whose hands start with cards passed face down between partners."""


def positions_in(game: Game, seed: int, phase: Phase, limit: int
                 ) -> Iterator[tuple[State, int]]:
    """Positions of a rules-bot game in ``phase``: (state, the seat choosing)."""
    table = Table(game, {s: make_bot("rules", game, s, seed) for s in game.player_seats}, seed)
    for _ in range(limit):
        if table.over:
            return
        state = table.state
        if state.phase == phase:
            yield state, game.controller(state, state.to_act)
        table.advance()


def play_positions(game: Game, seed: int, limit: int = 160) -> Iterator[tuple[State, int]]:
    """Positions of a rules-bot game where a seat chooses a card: (state, chooser)."""
    return positions_in(game, seed, Phase.PLAY, limit)


def same_view(game: Game, a: State, b: State, seat: int) -> bool:
    oa, ob = game.observe(a, seat), game.observe(b, seat)
    return (oa.hand, oa.visible, oa.history, oa.trick, oa.legal, oa.won) == \
        (ob.hand, ob.visible, ob.history, ob.trick, ob.legal, ob.won)


@pytest.mark.parametrize("name,options", GAMES + PASSING)
def test_the_rebuilt_hand_looks_the_same_to_the_seat(name: str, options: dict[str, object]
                                                    ) -> None:
    game = make_game(name, options)
    sampler = WorldSampler(game)
    rng = random.Random(5)
    rebuilt = 0
    seen = 0
    for state, seat in play_positions(game, 11):
        obs = game.observe(state, seat)
        seen += 1
        again = world_state(game, obs, sampler.sample(obs, rng))
        if again is None:
            # only where cards moved face down in a way not followed, or a joker rule
            assert any("?" in h or "exchange" in h for h in obs.history) or \
                getattr(game.options, "jokers", False), obs.history
            continue
        rebuilt += 1
        assert same_view(game, state, again, seat)
    assert rebuilt >= seen * 0.6 and rebuilt > 0


def test_a_hand_with_a_pass_under_way_is_rebuilt_by_splitting_the_passed_cards() -> None:
    """Paperless while the gives are being made: the cards given face down are in no
    hand, and each rebuilt hand splits them among the givers at random (the seat sees
    the same; the split varies)."""
    game = make_game("paperless-spades")
    sampler = WorldSampler(game)
    rng = random.Random(3)
    faced_down = 0
    for seed in range(4):
        for state, seat in positions_in(game, seed, Phase.EXCHANGE, limit=6):
            obs = game.observe(state, seat)
            assert world_state(game, obs, sampler.sample(obs, rng)) is None
            splits = set()
            for _ in range(8):
                again = mid_pass_state(game, obs, sampler.sample(obs, rng), rng)
                assert again is not None
                assert same_view(game, state, again, seat)
                splits.add(tuple(again.gives))
            assert len(splits) > 1 or not any("?" in h for h in obs.history)
            faced_down += any("?" in h for h in obs.history)
    assert faced_down >= 4


# Double Dummy Whist hides nothing once both dummies are shown (the fourth hand is what
# the other three leave), so it has nothing to re-deal here.
@pytest.mark.parametrize("name,options", GAMES[:-1] + PASSING)
def test_the_bot_cannot_peek(name: str, options: dict[str, object],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Its choice with a fixed seed is the same in the real position and in another whose
    hidden cards were dealt again consistently with its observation."""
    monkeypatch.setattr(MonteCarloBot, "worlds", 2)
    game = make_game(name, options)
    positions = (p for seed in (4, 5, 6, 7) for p in play_positions(game, seed, limit=160))
    assert same_choice_when_redealt(game, positions, random.Random(9), every=5, most=6) >= 2


def same_choice_when_redealt(game: Game, positions: Iterator[tuple[State, int]],
                             rng: random.Random, every: int, most: int,
                             bot_class: type[MonteCarloBot] = MonteCarloBot) -> int:
    """At every ``every``-th position (up to ``most`` compared), the bot's choice with a
    fixed seed is the same in the real state and in one whose hidden cards were dealt
    again consistently with its observation; returns how many were compared."""
    sampler = WorldSampler(game)
    compared = 0
    for i, (state, seat) in enumerate(positions):
        if i % every or compared >= most:
            continue
        obs = game.observe(state, seat)
        other = rebuilt_hand(game, obs, sampler.sample(obs, rng), rng)
        if other is None or other.hands == state.hands:
            continue  # not rebuilt, or nothing hidden was dealt differently
        choices = []
        for s in (state, other):
            bot = bot_class(game, seat, "fixed")
            bot.reseed(f"{i}")
            o = game.observe(s, seat)
            choices.append(bot.choose(o, list(o.legal)))
            assert choices[-1] in o.legal
        assert choices[0] == choices[1]
        compared += 1
    return compared


@pytest.mark.parametrize("name,options", [GAMES[0], GAMES[2], GAMES[4], GAMES[8]])
def test_the_bot_plays_whole_hands(name: str, options: dict[str, object],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MonteCarloBot, "worlds", 2)
    assert plays_a_whole_hand(make_game(name, options), "montecarlo")


def plays_a_whole_hand(game: Game, bot_name: str) -> bool:
    """Whether a hand with the bot in seat 0 and rules bots elsewhere gets scored."""
    agents = {s: make_bot(bot_name if s == 0 else "rules", game, s, 3)
              for s in game.player_seats}
    table = Table(game, agents, 3)
    table.run(max_hands=1)
    return bool(table.state.results) and isinstance(agents[0], MonteCarloBot)


def test_values_are_kept_for_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MonteCarloBot, "worlds", 3)
    game = make_game("spades", {})
    for state, seat in play_positions(game, 2):
        obs = game.observe(state, seat)
        if len(obs.legal) >= 3:
            bot = MonteCarloBot(game, seat, 1)
            choice = bot.choose(obs, list(obs.legal))
            assert set(bot.last_values) == {str(a) for a in obs.legal}
            assert bot.last_values[str(choice)] == max(bot.last_values.values())
            return
    pytest.fail("no position with three choices")


def _card_position(game: Game, seed: int, at_least: int = 3) -> tuple[State, int]:
    for state, seat in play_positions(game, seed):
        if len(game.observe(state, seat).legal) >= at_least:
            return state, seat
    pytest.fail("no position with enough choices")


def test_without_thinking_time_the_bot_samples_its_fixed_worlds() -> None:
    game = make_game("spades", {})
    state, seat = _card_position(game, 2)
    bot = make_bot("montecarlo", game, seat, 1)
    assert isinstance(bot, MonteCarloBot) and bot.think is None
    obs = game.observe(state, seat)
    bot.choose(obs, list(obs.legal))
    assert bot.last_worlds == MonteCarloBot.worlds


def test_a_thinking_time_bounds_the_worlds_sampled() -> None:
    """With a time the bot samples worlds while another fits: with almost none, one world
    (it always looks at one)."""
    game = make_game("spades", {})
    state, seat = _card_position(game, 2)
    obs = game.observe(state, seat)
    hurried = make_bot("montecarlo", game, seat, 1, think=1e-9)
    choice = hurried.choose(obs, list(obs.legal))
    assert choice in obs.legal
    assert isinstance(hurried, MonteCarloBot) and hurried.last_worlds == 1
    assert hurried.last_values  # the hint's values come from that one world


def test_a_thinking_time_must_be_positive() -> None:
    game = make_game("spades", {})
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(OptionError, match="thinking time"):
            make_bot("montecarlo", game, 0, 1, think=bad)


def bid_positions(game: Game, seed: int, limit: int = 400) -> Iterator[tuple[State, int]]:
    """Positions of a rules-bot game where a seat chooses among bids only."""
    for state, seat in decision_positions(game, seed, limit):
        if all(isinstance(a, Bid) for a in game.observe(state, seat).legal):
            yield state, seat


def decision_positions(game: Game, seed: int, limit: int = 400
                       ) -> Iterator[tuple[State, int]]:
    """Positions of a rules-bot game where a seat makes a choice besides a card that the
    montecarlo bot weighs by simulation (bids, passes, trumps, keep or swap, a card
    thrown back or given)."""
    table = Table(game, {s: make_bot("rules", game, s, seed) for s in game.player_seats}, seed)
    for _ in range(limit):
        if table.over:
            return
        state = table.state
        if state.phase not in (Phase.DEAL, Phase.PLAY, Phase.SCORING):
            seat = game.controller(state, state.to_act)
            legal = game.observe(state, seat).legal
            if len(legal) > 1 and all(a.verb in SIMULATED for a in legal):
                yield state, seat
        table.advance()


@pytest.mark.parametrize("name,options",
                         [GAMES[0], GAMES[2], GAMES[5], GAMES[6], GAMES[8], *PASSING])
def test_the_bot_cannot_peek_when_bidding(name: str, options: dict[str, object],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Its bid (or pass, trumps, keep or swap) with a fixed seed is the same when the
    hidden cards are dealt again (cards passed on: the test below)."""
    monkeypatch.setattr(MonteCarloBot, "worlds", 3)
    game = make_game(name, options)
    positions = (p for seed in range(1, 9) for p in decision_positions(game, seed)
                 if not passes_on(game, *p))
    assert same_choice_when_redealt(game, positions, random.Random(3), every=1, most=3) >= 2


def test_a_bid_is_changed_only_for_a_clear_gain(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules bot's bid stands unless a neighbour (a trick more or fewer, or nil) did
    better world by world by more than its standard error."""
    game = make_game("spades", {})
    state, seat = next(bid_positions(game, 1))
    obs = game.observe(state, seat)
    bot = MonteCarloBot(game, seat, 1)
    preferred = bot.rules.choose(obs, list(obs.legal))
    assert isinstance(preferred, Bid)
    asked: list[list[Action]] = []

    def fake(gains: dict[int, list[float]]) -> object:
        def world_values(o: object, actions: list[Action]) -> dict[Action, list[float]]:
            asked.append(list(actions))
            base = [50.0, 60.0, 40.0, 55.0]
            return {a: [b + g for b, g in zip(base, gains.get(a.tricks - preferred.tricks,
                                                             [0.0] * 4), strict=True)]
                    for a in actions if isinstance(a, Bid)}
        return world_values

    monkeypatch.setattr(bot, "world_values", fake({1: [9.0, 11.0, 10.0, 10.0]}))
    chosen = bot.choose(obs, list(obs.legal))
    assert isinstance(chosen, Bid) and chosen.tricks == preferred.tricks + 1
    offered = {a.tricks - preferred.tricks for a in asked[-1] if isinstance(a, Bid)}
    assert offered <= {-1, 0, 1, -preferred.tricks} and {-1, 0, 1} <= offered
    # a gain on average that is mostly noise does not overturn the bid
    monkeypatch.setattr(bot, "world_values", fake({1: [40.0, -35.0, 30.0, -30.0]}))
    assert bot.choose(obs, list(obs.legal)) == preferred


def test_cards_passed_to_a_partner_are_in_the_partners_hand_in_every_world() -> None:
    """Paperless: the seat knows the three cards it passed are with its partner (unless
    played since); every world puts them there, and the rebuilt hand's deal gives them
    back to the seat, which replays the very pass it made."""
    game = make_game("paperless-spades", {})
    sampler = WorldSampler(game)
    rng = random.Random(2)
    checked = 0
    for state, seat in play_positions(game, 4, limit=60):
        obs = game.observe(state, seat)
        gave = next(h for h in obs.history if h.startswith(f"{seat}: give"))
        passed = 0
        for word in gave.split(" ")[2:]:
            passed |= 1 << parse_card(word)
        partner = (seat + 2) % 4
        for _ in range(3):
            world = sampler.sample(obs, rng)
            assert passed & ~obs.played & ~world[partner] == 0
            again = world_state(game, obs, world)
            assert again is not None and same_view(game, state, again, seat)
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize(("name", "options", "carried"), [
    ("spades", {"target": 5000}, "bags"),
    ("dummy-hand-spades", {"target": 5000}, "bags"),
    ("3b-spades", {"players": 4}, "zero_pot"),
])
def test_a_rebuilt_hand_carries_what_earlier_hands_left(
    name: str, options: dict[str, object], carried: str
) -> None:
    """Bags (their penalty) and the zero pot (a zero's value) come from earlier hands: a
    hand rebuilt from a seat's view of a later hand has them as the real one does."""
    game = make_game(name, options)
    sampler = WorldSampler(game)
    rng = random.Random(1)
    fresh = getattr(game.new_game(), carried)
    compared = 0
    positions = (p for seed in range(1, 12) for p in positions_in(game, seed, Phase.PLAY, 1500))
    for state, seat in positions:
        if compared >= 3:
            break
        if getattr(state, carried) == fresh:
            continue  # nothing carried yet: no test of it
        obs = game.observe(state, seat)
        again = world_state(game, obs, sampler.sample(obs, rng))
        if again is None:
            continue
        assert getattr(again, carried) == getattr(state, carried)
        compared += 1
    assert compared >= 2


def test_a_whist_decision_besides_bids_is_weighed_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trumps, direction, passes, keep or swap: every choice is weighed (they are few),
    and one that does clearly better than the rules bot's is taken."""
    game = make_game("dummy-whist", {})
    for state, seat in (p for seed in range(1, 9) for p in decision_positions(game, seed)):
        legal = list(game.observe(state, seat).legal)
        if not any(isinstance(a, Bid) for a in legal):
            break
    else:
        pytest.fail("no whist decision besides bids")
    obs = game.observe(state, seat)
    bot = MonteCarloBot(game, seat, 1)
    preferred = bot.rules.choose(obs, legal)
    other = next(a for a in legal if a != preferred)
    asked: list[list[Action]] = []

    def world_values(o: object, actions: list[Action]) -> dict[Action, list[float]]:
        asked.append(list(actions))
        return {a: [5.0, 6.0, 4.0] if a != other else [9.0, 10.0, 9.0] for a in actions}

    monkeypatch.setattr(bot, "world_values", world_values)
    assert bot.choose(obs, legal) == other
    assert set(asked[-1]) == set(legal)


def test_a_hand_is_worth_its_margin_over_the_others_or_its_score() -> None:
    """By default a point taken from an opponent counts for the bot (setting a contract,
    breaking a nil); with the ``score`` objective only its own score does."""
    from tricktable.search.montecarlo import OBJECTIVES, hand_value

    assert MonteCarloBot.objective == "margin" and set(OBJECTIVES) == {"margin", "score"}
    two_sides = {"0": 120.0, "1": -80.0}
    assert hand_value(two_sides, "0", "margin") == 200.0
    assert hand_value(two_sides, "0", "score") == 120.0
    three = {"0": 30.0, "1": 50.0, "2": -10.0}
    assert hand_value(three, "0", "margin") == 30.0 - 20.0
    assert hand_value({"0": 5.0}, "0", "margin") == 5.0


def test_a_rebuilt_hand_carries_the_running_totals() -> None:
    game = make_game("spades", {})
    state = game.new_game()
    state.totals = [320, 150]
    table = Table(game, {s: make_bot("rules", game, s, 3) for s in game.player_seats}, 3)
    table.state = state
    while state.phase is not Phase.PLAY:
        table.advance()
    seat = state.to_act
    obs = game.observe(state, seat)
    again = world_state(game, obs, WorldSampler(game).sample(obs, random.Random(1)))
    assert again is not None and again.totals == [320, 150]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_an_extra_card_drawn_from_hand_to_hand_is_followed(players: int) -> None:
    """3B: a zero bidder draws the extra card and throws one back, which the next zero
    bidder or the high bidder draws. Hands where the card went through two hands or more
    (or where a drawer holds it now) are rebuilt, every seat's view exactly as it is, so
    the search bots no longer fall back to the rules bot there."""
    game = make_game("3b-spades", {"players": players})
    sampler = WorldSampler(game)
    rng = random.Random(2)
    chained = 0
    for seed in range(1, 5):
        for state, _ in positions_in(game, seed, Phase.PLAY, 400):
            if sum(isinstance(a, Exchange) for a in state.actions) < 2:
                continue
            for seat in game.player_seats:
                if not state.hands[seat]:
                    continue  # the five-player dealer sits the hand out
                obs = game.observe(state, seat)
                again = world_state(game, obs, sampler.sample(obs, rng))
                if again is None:
                    # a joker may be dealt to a seat that showed out of spades (the
                    # sampler's known approximation): that world breaks a rule
                    assert players > 3 and any(c >= 52 for c in cards_in_play(state)), \
                        obs.history
                    continue
                assert same_view(game, state, again, seat)
                chained += 1
    assert chained >= 20


def cards_in_play(state: State) -> list[int]:
    return [c for t in state.tricks for c in t.cards] + list(state.trick_cards) + [
        c for h in state.hands for c in range(54) if h >> c & 1
    ]


def test_the_bot_weighs_the_game_when_the_hand_can_end_it() -> None:
    """Wired end to end: with its team 5 points from the target, the bot's rollouts (in
    rebuilt hands that carry the totals) credit the game to the side that wins it, so
    its values hold the 500 of the game; at 0 to 0 they are hand margins alone."""
    game = make_game("spades", {})
    values: dict[bool, list[float]] = {}
    for near in (True, False):
        state = game.new_game()
        state.totals = [495, 0] if near else [0, 0]
        table = Table(game, {s: make_bot("rules", game, s, 4) for s in game.player_seats}, 4)
        table.state = state
        while state.phase is not Phase.PLAY or state.to_act % 2:
            table.advance()  # to the first card a seat of team 0 plays
        seat = state.to_act
        obs = game.observe(state, seat)
        bot = MonteCarloBot(game, seat, 1)
        per_world = bot.world_values(obs, list(obs.legal))
        values[near] = [v for vs in per_world.values() for v in vs]
    assert max(values[True]) > 400  # the game won: 500 on top of the hand
    assert max(abs(v) for v in values[False]) < 400


PASSING_ON = [("3b-spades", {"players": 3}), ("3b-spades", {"players": 4}),
              ("3b-spades", {"players": 5}), ("paperless-spades", {})]
"""Games where a seat passes cards on: 3B's throw-back after drawing the extra card, the
Paperless give."""


def passing_positions(game: Game, seeds: range, limit: int = 300
                      ) -> Iterator[tuple[State, int]]:
    """Positions of rules-bot games where a seat throws back a card or gives cards (3B's
    open rebid window may offer rebids beside the throw-back)."""
    for seed in seeds:
        table = Table(game, {s: make_bot("rules", game, s, seed) for s in game.player_seats},
                      seed)
        for _ in range(limit):
            if table.over:
                break
            state = table.state
            if state.phase not in (Phase.DEAL, Phase.SCORING):
                seat = game.controller(state, state.to_act)
                if passes_on(game, state, seat):
                    yield state, seat
            table.advance()


def passes_on(game: Game, state: State, seat: int) -> bool:
    """Whether ``seat`` is to throw back a card or give cards."""
    return any(isinstance(a, Exchange | Give) for a in game.observe(state, seat).legal)


@pytest.mark.parametrize("name,options", PASSING_ON)
def test_a_card_passed_on_is_weighed_among_a_few_legal_choices(
    name: str, options: dict[str, object]
) -> None:
    """At most MAX_CANDIDATES choices, every one legal and different, the rules bot's
    first; a 3B zero bidder looks at its high cards, a high bidder at its low ones."""
    game = make_game(name, options)
    checked = 0
    kinds = set()
    for state, seat in passing_positions(game, range(1, 4)):
        obs = game.observe(state, seat)
        legal = list(obs.legal)
        bot = MonteCarloBot(game, seat, 1)
        assert bot.simulates(legal)
        preferred = bot.rules.choose(obs, legal)
        candidates = bot.candidates(obs, legal, preferred)
        assert candidates[0] == preferred
        assert 2 <= len(candidates) <= MAX_CANDIDATES
        assert len(set(candidates)) == len(candidates)
        assert all(a in legal and not isinstance(a, Rebid) for a in candidates)
        if isinstance(preferred, Exchange):
            zero = obs.info["bids"][seat] == 0
            kinds.add(zero)
            suits: dict[int, list[int]] = {}
            for a in legal:
                if isinstance(a, Exchange):
                    suits.setdefault(0 if a.card >= 52 else a.card // 13, []).append(a.card)
            # a joker is a spade above the ace: LJ 52 -> 13, BJ 53 -> 14
            ends = {(max if zero else min)(cards, key=lambda c: c - 39 if c >= 52 else c)
                    for cards in suits.values()}
            assert ends <= {a.card for a in candidates if isinstance(a, Exchange)}, zero
        checked += 1
    assert checked >= 5
    if name == "3b-spades":
        assert kinds == {True, False}  # both a zero's and a high bidder's throw-back


@pytest.mark.parametrize("name,options", PASSING_ON)
def test_a_world_is_rebuilt_for_a_card_passed_on(name: str, options: dict[str, object]
                                                ) -> None:
    """The drawer holding the extra card (3B), a pass under way with other seats' cards
    given face down (Paperless): the worlds rebuild the hand, and the seat sees in each
    exactly what it sees in the real one."""
    game = make_game(name, options)
    worlds = Worlds(game)
    rng = random.Random(4)
    rebuilt = 0
    for state, seat in passing_positions(game, range(1, 4)):
        obs = game.observe(state, seat)
        for _ in range(2):
            again = worlds.draw(obs, rng)
            assert again is not None
            assert same_view(game, state, again, seat)
            rebuilt += 1
    assert rebuilt >= 10


@pytest.mark.parametrize("name,options", PASSING_ON)
def test_the_bot_cannot_peek_when_passing_cards_on(name: str, options: dict[str, object],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Its throw-back or give with a fixed seed is the same when the hidden cards (the
    partner's, the opponents', those given face down so far) are dealt again."""
    monkeypatch.setattr(MonteCarloBot, "worlds", 3)
    game = make_game(name, options)
    positions = passing_positions(game, range(1, 9))
    assert same_choice_when_redealt(game, positions, random.Random(5), every=1, most=4) >= 3


def first_passing_decision(name: str, options: dict[str, object]
                           ) -> tuple[Observation, list[Action], MonteCarloBot, Action]:
    """The first card-passing decision of a game's early hands: the seat's view, its
    choices, a montecarlo bot in its seat and the rules bot's choice."""
    game = make_game(name, options)
    state, seat = next(passing_positions(game, range(1, 4)))
    obs = game.observe(state, seat)
    legal = list(obs.legal)
    bot = MonteCarloBot(game, seat, 1)
    return obs, legal, bot, bot.rules.choose(obs, legal)


@pytest.mark.parametrize("name,options", [PASSING_ON[0], PASSING_ON[3]])
def test_a_card_passed_on_is_the_rules_bots_without_a_world(
    name: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no world can be rebuilt, the rules bot's throw-back or give stands; and with
    ``weigh_exchanges`` off, it stands without a world being looked for."""
    obs, legal, bot, preferred = first_passing_decision(name, options)
    monkeypatch.setattr(bot.worlds_drawn, "draw", lambda o, rng: None)
    assert bot.choose(obs, legal) == preferred
    assert bot.last_worlds == 0 and not bot.last_values

    def no_world(o: object, rng: object) -> None:
        raise AssertionError("a world was looked for")

    monkeypatch.setattr(bot.worlds_drawn, "draw", no_world)
    monkeypatch.setattr(MonteCarloBot, "weigh_exchanges", False)
    assert not bot.simulates(legal)
    assert bot.choose(obs, legal) == preferred


@pytest.mark.parametrize("name,options", [PASSING_ON[1], PASSING_ON[3]])
def test_a_card_passed_on_is_changed_only_for_a_clear_gain(
    name: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another throw-back or give is taken when it does better world by world than the
    rules bot's by more than its standard error, not when the gain is mostly noise."""
    obs, legal, bot, preferred = first_passing_decision(name, options)
    other = bot.candidates(obs, legal, preferred)[-1]
    asked: list[list[Action]] = []

    def fake(gains: list[float]) -> object:
        def world_values(o: object, actions: list[Action]) -> dict[Action, list[float]]:
            asked.append(list(actions))
            base = [5.0, -6.0, 4.0, 0.0]
            return {a: [b + g for b, g in zip(base, gains, strict=True)] if a == other
                    else base for a in actions}
        return world_values

    monkeypatch.setattr(bot, "world_values", fake([3.0, 2.0, 4.0, 3.0]))
    assert bot.choose(obs, legal) == other
    assert asked[-1] == bot.candidates(obs, legal, preferred)
    monkeypatch.setattr(bot, "world_values", fake([30.0, -25.0, 20.0, -20.0]))
    assert bot.choose(obs, legal) == preferred
