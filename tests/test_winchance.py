"""The chance of winning the game from the running totals (``search.winchance``): each game's
end rule by its totals is the rule its games end by, the model's chances add up, favour no
place and follow the totals, and late in a game a search bot's rollouts carry the game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.game import Game, step
from tricktable.engine.state import Phase, State
from tricktable.search.montecarlo import MonteCarloBot
from tricktable.search.playout import play_on
from tricktable.search.winchance import LATE_HANDS, WinChance

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("spades", {}),
    ("spades", {"target": 200, "mercy": True, "mercy_score": -100}),
    ("dummy-hand-spades", {"target": 150}),
    ("3b-spades", {"players": 3, "hands": 3}),
    ("3b-spades", {"players": 5, "hands": 2}),
    ("dummy-whist", {"target": 11}),
    ("double-dummy-whist", {}),
    ("paperless-spades", {"limit": 20, "overtime_limit": 10}),
]


def play_game(game: Game, seed: int, check: Any = None) -> State:
    """A whole game by rules bots; ``check(state)`` after each hand is scored."""
    rng = random.Random(seed)
    state = game.new_game()
    bots = {s: make_bot("rules", game, s, seed) for s in game.player_seats}
    for _ in range(200):
        if state.is_over:
            return state
        step(state, game.random_deal(state, rng))
        play_on(game, state, bots)
        if check is not None:
            check(state)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_the_end_rule_by_totals_is_the_rule_games_end_by(name: str, options: dict[str, Any]
                                                         ) -> None:
    game = make_game(name, options)
    seen: set[bool] = set()

    def check(state: State) -> None:
        info = game.observe(state, 0).info
        by_totals = game.winner_by_totals(state.totals, state.finished_hands, info)
        if state.is_over and getattr(state, "all_tricks_winner", -1) >= 0:
            return  # 3B's hand of every trick ends the game whatever the totals
        assert by_totals == game.game_winner(state) == (state.winner if state.is_over
                                                        else None)
        seen.add(state.is_over)

    for seed in range(3):
        play_game(game, seed, check)
    assert seen == {False, True} or name == "3b-spades"


def test_each_end_rule_by_hand() -> None:
    spades = make_game("spades", {"mercy": True})
    assert spades.winner_by_totals([500, 490], 9, {}) == 0
    assert spades.winner_by_totals([510, 510], 9, {}) is None  # a tie plays on
    assert spades.winner_by_totals([499, -150], 9, {}) is None
    assert spades.winner_by_totals([100, -200], 9, {}) == 0  # mercy
    threeb = make_game("3b-spades", {"players": 3})  # 9 hands
    assert threeb.winner_by_totals([300, 10, 20], 8, {}) is None
    assert threeb.winner_by_totals([300, 10, 20], 9, {}) == 0
    assert threeb.winner_by_totals([300, 300, 20], 9, {}) is None  # sudden death
    paperless = make_game("paperless-spades", {})
    limit = paperless.set_limit(1)  # type: ignore[attr-defined]
    overtime = paperless.set_limit(2)  # type: ignore[attr-defined]
    assert overtime < limit
    assert paperless.winner_by_totals([limit, 0], 4, {"set": 1}) is None
    assert paperless.winner_by_totals([limit + 1, 0], 4, {"set": 1}) == 0
    assert paperless.winner_by_totals([overtime + 1, 0], 4, {"set": 2}) == 0
    assert paperless.winner_by_totals([overtime + 1, 0], 4, {}) is None  # the first set's


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_the_chances_add_up_and_favour_no_place(name: str, options: dict[str, Any]) -> None:
    game = make_game(name, options)
    model = WinChance(game)
    assert model.known and model.game_worth > 0
    n = game.num_entities
    rng = random.Random(name)
    for _ in range(5):
        totals = [rng.randrange(-50, 150) for _ in range(n)]
        chances = model.chances(totals, 1, {})
        assert sum(chances) == pytest.approx(1.0)
        assert all(0.0 <= c <= 1.0 for c in chances)
        turned = totals[1:] + totals[:1]  # every place moved round one seat
        assert model.chances(turned, 1, {}) == pytest.approx(chances[1:] + chances[:1])


def test_a_game_the_totals_end_is_certain() -> None:
    model = WinChance(make_game("spades", {}))
    assert model.chances([520, 300], 10, {}) == (1.0, 0.0)
    assert model.chances([300, 520], 10, {}) == (0.0, 1.0)


def test_the_leader_near_the_end_is_likelier_to_win() -> None:
    spades = WinChance(make_game("spades", {}))
    near, far = spades.chances([470, 300], 8, {})
    assert near > 0.8 > 0.2 > far
    assert spades.chances([470, 300], 8, {})[0] > spades.chances([300, 170], 4, {})[0]
    # 3B: the same lead counts for more when fewer hands are left
    threeb = WinChance(make_game("3b-spades", {"players": 3}))  # 9 hands
    lead = [150, 60, 60]
    assert threeb.chances(lead, 8, {})[0] > threeb.chances(lead, 3, {})[0] > 1 / 3


def observation_at(game: Game, totals: list[int], hands_done: int) -> Any:
    """The first seat to act's observation in a hand dealt after ``hands_done`` hands with
    the running ``totals`` (the finished hands' scores are not needed by the model)."""
    state = game.new_game()
    state.totals = list(totals)
    step(state, game.random_deal(state, random.Random(1)))
    state.hand_number = hands_done
    return game.observe(state, state.to_act)


def test_only_a_late_game_is_at_stake() -> None:
    spades = make_game("spades", {})
    model = WinChance(spades)
    assert model.stake(observation_at(spades, [0, 0], 0)) is None
    assert model.stake(observation_at(spades, [120, 80], 3)) is None
    late = model.stake(observation_at(spades, [450, 380], 7))
    assert late is not None and late.finished_hands == 8
    threeb = make_game("3b-spades", {"players": 3})  # 9 hands
    model = WinChance(threeb)
    assert model.stake(observation_at(threeb, [40, 30, 20], 1)) is None
    late = model.stake(observation_at(threeb, [40, 30, 20], 9 - LATE_HANDS))
    assert late is not None and late.finished_hands == 9 - LATE_HANDS + 1


def test_a_hand_that_ends_the_game_is_worth_the_game_to_its_winner() -> None:
    """The hand's scores are added the game's worth times each side's chance of winning
    after it: all of it to the winner of a hand that ends the game, shares of it to both
    sides of one that does not."""
    game = make_game("spades", {})
    model = WinChance(game)
    outcomes = set()
    for seed in range(12):
        state = game.new_game()
        state.totals = [430, 420]  # a team that makes a good bid gets there
        stake = model.stake(game.observe(state, 0))
        assert stake is not None
        step(state, game.random_deal(state, random.Random(seed)))
        play_on(game, state, {s: make_bot("rules", game, s, seed) for s in game.player_seats})
        scores = {k: float(v) for k, v in state.results[-1].scores.items()}
        staked = stake.added(state, scores)
        gained = {k: staked[k] - scores[k] for k in scores}
        if state.is_over:
            winner = game.entity_label(game.game_winner(state) or 0)
            assert gained[winner] == model.game_worth
            assert all(v == 0.0 for k, v in gained.items() if k != winner)
            outcomes.add("over")
        else:
            assert sum(gained.values()) == pytest.approx(model.game_worth)
            assert all(0.0 <= v <= model.game_worth for v in gained.values())
            outcomes.add("on")
    assert outcomes == {"over", "on"}


def test_the_game_at_stake_reaches_the_bots_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search bot's rollouts carry the game late in a game, and only then; with
    ``plays_for_game`` off they carry the hand's points alone."""
    game = make_game("spades", {})
    early = observation_at(game, [100, 90], 2)
    late = observation_at(game, [460, 440], 9)
    bot = MonteCarloBot(game, early.seat, 3)
    bot.weigh_the_game(early)
    assert bot.stake is None
    bot.weigh_the_game(late)
    assert bot.stake is not None
    monkeypatch.setattr(MonteCarloBot, "plays_for_game", False)
    bot.weigh_the_game(late)
    assert bot.stake is None


def test_a_hint_late_in_a_game_says_the_game_counts() -> None:
    from tricktable.play.terminal import _game_at_stake

    game = make_game("spades", {})
    bot = MonteCarloBot(game, 0, 3)
    bot.weigh_the_game(observation_at(game, [100, 90], 2))
    assert _game_at_stake(bot) == ""
    bot.weigh_the_game(observation_at(game, [460, 440], 9))
    assert "chance of winning it, a win worth" in _game_at_stake(bot)


@pytest.mark.parametrize(("name", "options", "totals"), [
    ("spades", {}, [440, 430]),
    ("3b-spades", {"players": 3, "hands": 1}, [40, 30, 20]),
])
def test_the_bot_cannot_peek_when_the_game_is_at_stake(
        name: str, options: dict[str, Any], totals: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Late in a game too, the bot's choice with a fixed seed is the same in the real
    position and in one whose hidden cards were dealt again consistently with its
    observation: the stake reads only the totals, the hand's number and what is public."""
    from test_montecarlo import same_choice_when_redealt
    from tricktable.play.table import Table

    monkeypatch.setattr(MonteCarloBot, "worlds", 2)
    game = make_game(name, options)

    def positions() -> Any:
        for seed in (4, 5):
            table = Table(game, {s: make_bot("rules", game, s, seed)
                                 for s in game.player_seats}, seed)
            table.state.totals = list(totals)
            while table.state.finished_hands == 0 and not table.over:
                state = table.state
                if state.phase is Phase.PLAY:
                    seat = game.controller(state, state.to_act)
                    bot = MonteCarloBot(game, seat, 1)
                    bot.weigh_the_game(game.observe(state, seat))
                    assert bot.stake is not None  # the game is late
                    yield state, seat
                table.advance()

    assert same_choice_when_redealt(game, positions(), random.Random(2), every=6,
                                    most=4) >= 3


def test_a_game_whose_end_the_totals_do_not_decide_is_never_at_stake() -> None:
    """A game without ``winner_by_totals`` (a house game added later, say) has no model:
    the bot plays for the hand's points, however late it is."""
    spades = make_game("spades", {})

    class UntoldEnd(type(spades)):  # type: ignore[misc]
        def winner_by_totals(self, totals: Any, finished_hands: int, info: Any) -> int | None:
            raise NotImplementedError

    game = UntoldEnd(spades.options)
    model = WinChance(game)
    assert not model.known and model.futures == [] and model.game_worth > 0
    assert model.stake(observation_at(spades, [490, 480], 9)) is None
    assert WinChance(spades).known  # the real game's sample is its own
