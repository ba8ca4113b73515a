"""rulings.md, 3B / RTR Spades: tests for the parts of the rulings that
tests/test_3b_spades.py does not already guard (see docs/rulings-coverage.md).
Every expected score is worked out by hand in the comments."""

from __future__ import annotations

import random
from datetime import date

from test_3b_spades import BLOCKS, act, bid_through, deal, finish, new, play_out, scored_hand
from tricktable import Phase, step
from tricktable.engine.records import summary
from tricktable.games.threeb_spades import GameResult, game_result, low_ball, session_stats


def test_ruling_3b_8_five_players_low_ball_under_12_super_low_ball_under_11() -> None:
    assert low_ball([3, 3, 3, 3], 5) is None  # 12
    assert low_ball([3, 3, 3, 2], 5) == "low"  # 11: under 12, not under 11
    assert low_ball([3, 3, 2, 2], 5) == "super"  # 10
    assert low_ball([0, 4, 3, 3], 5) == "low"  # the zero counts as one: 11
    # the same through a 5-player hand: only the four who hold cards bid
    game, state = new(5)
    for bids, expected in (([3, 3, 3, 2], "low"), ([3, 3, 2, 2], "super"), ([3, 3, 3, 3], None)):
        step(state, game.random_deal(state, random.Random(len(state.results))))
        assert len(state.bidders) == 4
        by_seat = dict(zip(state.bidders, bids, strict=True))
        bid_through(game, state, by_seat)
        assert game.observe(state, state.bidders[0]).info["low_ball"] == expected
        won = dict(zip(state.bidders, [4, 3, 3, 3], strict=True))
        finish(game, state, won)
        assert summary(state)["hands"][-1]["low_ball"] == expected


def test_ruling_3b_10_some_hands_on_the_nose_is_neither_a_perfect_nor_an_imperfect_day() -> None:
    game, state = new(3, hands=2)
    # hand 1: bids 3, 4, 5; tricks 3, 5, 9: off 0, 1, 4
    h1 = scored_hand(game, state, {0: 3, 1: 4, 2: 5}, {0: 3, 1: 5, 2: 9})
    assert h1["tricks_off"] == {"0": 0, "1": 1, "2": 4}
    # hand 2: bids 2, 5, 6; tricks 4, 5, 8: off 2, 0, 2
    h2 = scored_hand(game, state, {0: 2, 1: 5, 2: 6}, {0: 4, 1: 5, 2: 8})
    assert h2["tricks_off"] == {"0": 2, "1": 0, "2": 2}
    result = summary(state)
    # 0: 30 + 0 = 30; 1: 30 + 50 = 80; 2: 10 + 40 = 50
    assert result["totals"] == {"0": 30, "1": 80, "2": 50} and result["finished"]
    assert result["perfect_day"] == []  # nobody was on the nose in every hand
    assert result["imperfect_day"] == [2]  # only seat 2 was never on the nose


def test_ruling_3b_10_a_gold_star_for_4_wins_in_a_row_a_red_star_for_5() -> None:
    three = [GameResult("A", "C"), GameResult("A", "C"), GameResult("A", "B"),
             GameResult("B", "A")]
    a = session_stats(three)["A"]
    assert (a.longest_streak, a.gold_star, a.red_star) == (3, False, False)
    four = [*three[:3], GameResult("A", "C"), GameResult("B", "A")]
    a = session_stats(four)["A"]
    assert (a.longest_streak, a.gold_star, a.red_star) == (4, True, False)


def test_ruling_3b_7_an_all_tricks_bid_that_fails_does_not_end_the_game() -> None:
    # Seat 1 holds only hearts and bids 13 before drawing; he draws the joker as highest
    # bidder and throws back the 2H, but seat 0 holds every spade and takes tricks.
    game, state = new(4)
    step(state, deal(3, BLOCKS, "BJ", 4))
    act(state, "0: bid 1", "1: bid 13", "2: bid 1", "3: bid 1")
    assert state.drawer == 1 and state.all_tricks[1]
    act(state, "1: exchange 2H")
    play_out(game, state)
    assert state.won[1] < 13
    result = summary(state)
    assert result["hands"][0]["all_tricks"] is None and result["all_tricks_win"] is None
    assert not result["finished"] and state.phase is Phase.SCORING
    # a set bid of 13 scores +T
    assert result["hands"][0]["scores"]["1"] == state.won[1]


def test_ruling_3b_5_gaccing_is_recorded_and_costs_nothing() -> None:
    # Seat 0 (first bidder, opening leader) holds all the spades and draws the joker as
    # highest bidder, throwing back the 2S; he opens with a spade and takes all 13 tricks.
    game, state = new(4)
    step(state, deal(3, BLOCKS, "BJ", 4))
    bid_through(game, state, {0: 4, 1: 3, 2: 3, 3: 3})
    play_out(game, state)
    hand = summary(state)["hands"][0]
    assert hand["gaccing"] == 0
    assert hand["tricks"] == {"0": 13, "1": 0, "2": 0, "3": 0}
    # bid 4, 13 tricks: 40 - 90 = -50, no more; the others are set with no trick: 0
    assert hand["scores"] == {"0": -50, "1": 0, "2": 0, "3": 0}


def test_ruling_3b_10_bonehead_and_zero_buddy_marks_that_players_add_are_counted() -> None:
    game, state = new(3, hands=1)
    scored_hand(game, state, {0: 3, 1: 4, 2: 5}, {0: 3, 1: 4, 2: 10})  # 30, 40, 0: over
    names = {0: "Ann", 1: "Bob", 2: "Cy"}
    # Bob claims a bonehead play; the others give Cy two ZB marks for his zero hunt
    first = game_result(state, names, date(2024, 1, 2), boneheads=["Bob"],
                        zero_buddies=["Cy", "Cy"])
    assert first.boneheads == ("Bob",) and first.zero_buddies == ("Cy", "Cy")
    second = GameResult("Ann", "Cy", boneheads=("Bob", "Ann"), zero_buddies=("Dee",))
    stats = session_stats([first, second])
    assert {n: (s.boneheads, s.zero_buddies) for n, s in stats.items()} == {
        "Ann": (1, 0), "Bob": (2, 0), "Cy": (0, 2), "Dee": (0, 1),
    }
