"""3B / RTR Spades: every ruling of rulings.md "3B / RTR Spades" with a test that fails if
the rule is broken. Scores are hand-computed (the seed's worked examples first).

Some multi-hand scenarios (zero pot, ties, statistics) fix the tricks each seat took with
``finish``, which ends the hand through the game's own scoring once the bidding and the
extra card are done; the trick play itself is tested with real deals elsewhere here."""

from __future__ import annotations

import json
import random
from datetime import date
from typing import Any

import pytest

from harness import snapshot
from test_examples import EXAMPLES
from tricktable import IllegalAction, OptionError, Phase, make_game, parse_action, step
from tricktable.engine.actions import CHANCE, Action, Bid, Deal, Exchange, Play, Rebid
from tricktable.engine.cards import (
    BIG_JOKER,
    HEARTS,
    SPADES,
    card_str,
    cards_of,
    lowest,
    parse_card,
    parse_cards,
)
from tricktable.engine.game import Game
from tricktable.engine.order import SPADES_TRUMP
from tricktable.engine.records import (
    load_record,
    loads_record,
    record_from_state,
    replay,
    summary,
)
from tricktable.games.threeb_spades import (
    GameResult,
    ThreeBSpadesState,
    game_result,
    hand_score,
    last_places,
    longest_streaks,
    low_ball,
    next_zero_pot,
    session_stats,
    tray_sheet,
    tricks_off,
)

# --- helpers ------------------------------------------------------------------------------


def new(players: int, **options: Any) -> tuple[Game, ThreeBSpadesState]:
    game = make_game("3b-spades", {"players": players, **options})
    state = game.new_game()
    assert isinstance(state, ThreeBSpadesState)
    return game, state


def act(state: ThreeBSpadesState, *texts: str) -> None:
    for text in texts:
        step(state, parse_action(text))


def refused(state: ThreeBSpadesState, text: str, rule: str) -> IllegalAction:
    """The action is refused for ``rule`` and the state is exactly as it was."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        step(state, parse_action(text))
    assert info.value.rule == rule, str(info.value)
    assert info.value.allowed, "the error must say what is allowed"
    assert snapshot(state) == before
    return info.value


def same_state(a: ThreeBSpadesState, b: ThreeBSpadesState) -> bool:
    """Every field equal but the game object (equal options, another instance)."""
    sa, sb = snapshot(a), snapshot(b)
    assert repr(sa.pop("game")) == repr(sb.pop("game"))
    return sa == sb


def deal(dealer: int, hands: dict[int, str], extra: str, seats: int) -> Deal:
    return Deal(
        CHANCE,
        dealer,
        tuple(tuple(parse_cards(hands.get(s, ""))) for s in range(seats)),
        tuple(parse_cards(extra)),
    )


def suit(letter: str, ranks: str = "23456789TJQKA") -> str:
    return " ".join(r + letter for r in ranks)


# 4 players, one whole suit each: seat 0 all thirteen spades, the joker is the extra card.
BLOCKS = {0: suit("S"), 1: suit("H"), 2: suit("D"), 3: suit("C")}


def bid_through(game: Game, state: ThreeBSpadesState, bids: dict[int, int]) -> None:
    """Bid as given; every draw throws back the drawer's lowest card. Stops at the play."""
    while state.phase is not Phase.PLAY:
        seat = state.to_act
        if state.drawer >= 0:
            step(state, Exchange(seat, lowest(state.hands[seat])))
        else:
            step(state, Bid(seat, bids[seat]))


def finish(game: Game, state: ThreeBSpadesState, won: dict[int, int]) -> None:
    """End the hand with these trick counts, scored by the game's own rules."""
    assert state.phase is Phase.PLAY
    state.won = [won.get(s, 0) for s in range(game.num_seats)]
    game.finish_hand(state)


def play_out(game: Game, state: ThreeBSpadesState, rng: random.Random | None = None) -> None:
    """Play the hand to its end: the first legal plain card, or a random legal play."""
    while state.phase is Phase.PLAY:
        plays = [a for a in game.legal_actions(state) if type(a) is Play and not a.ace_low]
        step(state, rng.choice(plays) if rng else plays[0])


def scored_hand(
    game: Game, state: ThreeBSpadesState, bids: dict[int, int], won: dict[int, int]
) -> dict[str, Any]:
    if state.phase in (Phase.DEAL, Phase.SCORING):
        step(state, game.random_deal(state, random.Random(len(state.results))))
    bid_through(game, state, bids)
    finish(game, state, won)
    return summary(state)["hands"][-1]


# --- ruling 6: scores ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "tricks", "score"),
    [
        (4, 3, 3),  # the seed's examples with a bid of 4: set, each trick 1 point
        (4, 4, 40),  # on the nose
        (4, 6, 20),  # 40 - 20
        (1, 5, -30),  # docs worked example, 3-spades-21 hand 1, seat 0: 10 - 40
        (1, 9, -70),  # seat 1: 10 - 80
        (3, 3, 30),  # seat 2
        (5, 0, 0),
        (0, 2, -20),  # a failed zero: -10 a trick
        (0, 0, 310),  # a successful zero: the current value
        (13, 13, 130),
    ],
)
def test_hand_score(bid: int, tricks: int, score: int) -> None:
    assert hand_score(bid, tricks, 310) == score


def test_first_hand_of_the_3_player_example_scores_as_worked_out() -> None:
    record = load_record(EXAMPLES / "3b-spades-21-000.json")
    record.hands = record.hands[:1]
    first = summary(replay(record))["hands"][0]
    assert first["bids"] == {"1": 1, "2": 3, "0": 1}
    assert first["tricks"] == {"1": 9, "2": 3, "0": 5}
    assert first["scores"] == {"0": -30, "1": -70, "2": 30}


@pytest.mark.parametrize(
    ("bid", "tricks", "off"), [(4, 6, 2), (4, 3, -1), (2, 0, -2), (3, 0, 0), (7, 0, 0), (0, 1, 1)]
)
def test_tricks_off(bid: int, tricks: int, off: int) -> None:
    assert tricks_off(bid, tricks) == off


# --- ruling 6: the zero pot ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "initial"),
    [(3, {}, 200), (3, {"millennium2": True}, 150), (4, {}, 100), (5, {}, 100)],
)
def test_zero_initial_value(players: int, options: dict[str, Any], initial: int) -> None:
    game, state = new(players, **options)
    bids = {s: 1 for s in range(players)}
    hand = scored_hand(game, state, bids, {})
    assert hand["zero_pot_before"] == initial


def test_zero_pot_grows_with_failed_zeros_and_pays_every_successful_zero() -> None:
    game, state = new(3)
    # hand 1: seat 1's zero takes 2 tricks (-20); the pot grows to 220
    h = scored_hand(game, state, {0: 5, 1: 0, 2: 6}, {0: 6, 1: 2, 2: 9})
    assert (h["zero_pot_before"], h["zero_pot_after"]) == (200, 220)
    assert h["scores"] == {"0": 40, "1": -20, "2": 30}
    # hand 2: seat 2's zero takes 3 (-30); 250
    h = scored_hand(game, state, {0: 4, 1: 5, 2: 0}, {0: 7, 1: 7, 2: 3})
    assert (h["zero_pot_before"], h["zero_pot_after"]) == (220, 250)
    assert h["scores"] == {"0": 10, "1": 30, "2": -30}
    # hand 3, two zeros: seat 0 makes it and is paid 250; seat 1 fails with 1 trick (-10),
    # so the pot restarts at 200 + 10
    h = scored_hand(game, state, {0: 0, 1: 0, 2: 8}, {0: 0, 1: 1, 2: 16})
    assert (h["zero_pot_before"], h["zero_pot_after"]) == (250, 210)
    assert h["scores"] == {"0": 250, "1": -10, "2": 0}
    # hand 4: a zero made at 210; the pot restarts at 200
    h = scored_hand(game, state, {0: 6, 1: 5, 2: 0}, {0: 9, 1: 8, 2: 0})
    assert (h["zero_pot_before"], h["zero_pot_after"]) == (210, 200)
    assert h["scores"] == {"0": 30, "1": 20, "2": 210}
    # hand 5: two zeros made in one hand are each paid the hand's value
    h = scored_hand(game, state, {0: 0, 1: 0, 2: 9}, {0: 0, 1: 0, 2: 17})
    assert h["scores"] == {"0": 200, "1": 200, "2": 10}
    assert h["zero_pot_after"] == 200
    assert summary(state)["totals"] == {"0": 530, "1": 220, "2": 220}


def test_next_zero_pot() -> None:
    assert next_zero_pot(100, 100, []) == 100
    assert next_zero_pot(140, 100, [4]) == 180
    assert next_zero_pot(140, 100, [0]) == 100
    assert next_zero_pot(140, 100, [0, 3, 2]) == 150
    assert next_zero_pot(140, 100, [0, 0]) == 100


def test_zero_pot_before_in_the_examples_follows_failed_zeros() -> None:
    hands = summary(replay(load_record(EXAMPLES / "3b-spades-21-000.json")))["hands"]
    assert [h["zero_pot_before"] for h in hands] == [200] * 5 + [290] * 2 + [310] * 2
    assert hands[4]["bids"]["0"] == 0 and hands[4]["scores"]["0"] == -90


# --- ruling 7: all the tricks -------------------------------------------------------------


def test_all_tricks_bid_made_wins_the_game_at_once() -> None:
    game, state = new(4)
    step(state, deal(3, BLOCKS, "BJ", 4))
    act(state, "0: bid 13", "1: bid 1", "2: bid 1", "3: bid 1")
    assert state.drawer == 0 and state.hands[0] >> BIG_JOKER & 1
    act(state, "0: exchange 2S")
    play_out(game, state)
    result = summary(state)
    assert result["finished"] and result["winner"] == 0
    assert result["hands"][0]["scores"] == {"0": 130, "1": 0, "2": 0, "3": 0}
    assert result["hands"][0]["all_tricks"] == 0 and result["all_tricks_win"] == 0
    assert len(result["hands"]) == 1  # of 8: the game ends at once


def test_all_tricks_bid_after_drawing_the_extra_card_does_not_win_at_once() -> None:
    game, state = new(4)
    step(state, deal(3, BLOCKS, "BJ", 4))
    # seat 0 bids zero, draws the joker, throws back the 2S, then changes to 13: the bid
    # was not made before he drew the extra card
    act(state, "0: bid 0", "0: exchange 2S", "0: rebid 13", "1: bid 1", "2: bid 1", "3: bid 1")
    act(state, "0: exchange 2S")
    play_out(game, state)
    result = summary(state)
    assert result["hands"][0]["scores"]["0"] == 130
    assert not result["finished"] and result["all_tricks_win"] is None


# --- ruling 9: game length, sudden death, winner and tray person --------------------------


def test_three_way_tie_for_last_plays_sudden_death() -> None:
    game, state = new(4, hands=1)
    h = scored_hand(game, state, {0: 3, 1: 2, 2: 3, 3: 4}, {0: 0, 1: 4, 2: 6, 3: 3})
    assert h["scores"] == {"0": 0, "1": 0, "2": 0, "3": 3}
    assert h["in_tray"] == [0, 1, 2] and not h["sudden_death"]
    assert state.phase is Phase.SCORING  # a tie for a place: no winner yet
    h = scored_hand(game, state, {0: 1, 1: 2, 2: 3, 3: 1}, {0: 1, 1: 2, 2: 3, 3: 7})
    assert h["sudden_death"]
    result = summary(state)
    assert result["totals"] == {"0": 10, "1": 20, "2": 30, "3": -47}
    assert result["finished"] and result["winner"] == 2
    assert result["tray_person"] == 3 and result["sudden_death_hands"] == 1


def test_a_tie_for_a_middle_place_also_plays_sudden_death() -> None:
    game, state = new(4, hands=1)
    scored_hand(game, state, {0: 5, 1: 2, 2: 2, 3: 2}, {0: 5, 1: 2, 2: 2, 3: 4})
    assert state.totals == [50, 20, 20, 0]  # seats 1 and 2 tied for second place
    assert not state.is_over and state.phase is Phase.SCORING
    game, state = new(4, hands=1)
    scored_hand(game, state, {0: 5, 1: 2, 2: 3, 3: 2}, {0: 5, 1: 2, 2: 2, 3: 4})
    assert state.totals == [50, 20, 2, 0]
    assert state.is_over and state.winner == 0


def test_fixed_number_of_hands_by_player_count_and_option() -> None:
    lengths = [make_game("3b-spades", {"players": n}).hands_in_game for n in (3, 4, 5)]
    assert lengths == [9, 8, 9]
    game, state = new(3, hands=2)
    scored_hand(game, state, {0: 3, 1: 4, 2: 5}, {0: 3, 1: 5, 2: 9})
    assert not state.is_over
    scored_hand(game, state, {0: 2, 1: 5, 2: 6}, {0: 2, 1: 6, 2: 9})
    assert state.is_over and state.winner == 1


def test_examples_play_the_regulation_hands() -> None:
    for name, players in (("21", 3), ("22", 4), ("23", 5)):
        state = replay(load_record(EXAMPLES / f"3b-spades-{name}-000.json"))
        assert state.game.num_seats == players
        assert state.is_over and state.finished_hands == {3: 9, 4: 8, 5: 9}[players]


# --- ruling 10: statistics ----------------------------------------------------------------


def test_game_statistics_perfect_imperfect_day_tray_and_wire_to_wire() -> None:
    game, state = new(3, hands=2)
    h1 = scored_hand(game, state, {0: 3, 1: 4, 2: 5}, {0: 3, 1: 5, 2: 9})
    assert h1["scores"] == {"0": 30, "1": 30, "2": 10}
    assert h1["tricks_off"] == {"0": 0, "1": 1, "2": 4} and h1["in_tray"] == [2]
    h2 = scored_hand(game, state, {0: 2, 1: 5, 2: 6}, {0: 2, 1: 6, 2: 9})
    assert h2["scores"] == {"0": 20, "1": 40, "2": 30}
    result = summary(state)
    assert result["totals"] == {"0": 50, "1": 70, "2": 40}
    assert result["winner"] == 1 and result["tray_person"] == 2
    assert result["wire_to_wire"] is True
    assert result["perfect_day"] == [0] and result["imperfect_day"] == [1, 2]
    assert result["tray_sheet"] == [[2], [2]]


def test_a_deceptive_overbid_taking_nothing_is_zero_off_and_keeps_a_perfect_day() -> None:
    game, state = new(3, hands=2)
    scored_hand(game, state, {0: 3, 1: 4, 2: 5}, {0: 0, 1: 4, 2: 13})
    scored_hand(game, state, {0: 2, 1: 5, 2: 6}, {0: 2, 1: 6, 2: 9})
    result = summary(state)
    assert result["hands"][0]["tricks_off"]["0"] == 0
    assert result["perfect_day"] == [0]


def test_tray_ties_and_the_erasure_rule() -> None:
    assert last_places([5, -3, -3, 7], range(4)) == [1, 2]
    # seat 1 stays in the tray after the next hand: seat 2's name is erased
    assert tray_sheet([[1, 2], [1], [0]]) == [[1], [1], [0]]
    # a different person after the next hand: the old names stay
    assert tray_sheet([[1, 2], [0]]) == [[1, 2], [0]]
    game, state = new(4, hands=2)
    scored_hand(game, state, {0: 3, 1: 2, 2: 3, 3: 4}, {0: 0, 1: 4, 2: 6, 3: 3})
    scored_hand(game, state, {0: 1, 1: 2, 2: 3, 3: 1}, {0: 1, 1: 2, 2: 3, 3: 7})
    result = summary(state)
    assert result["tray_sheet"] == [[0, 1, 2], [3]]
    assert result["tray_person"] == 3 and result["wire_to_wire"] is False


# --- ruling 8: low-ball -------------------------------------------------------------------


def test_low_ball_counts_a_zero_as_one() -> None:
    assert low_ball([5, 5, 4], 3) == "low"  # 14 < 15
    assert low_ball([5, 4, 4], 3) == "super"  # 13 < 14
    assert low_ball([0, 6, 7], 3) == "low"  # 1 + 13: not super, though the bids add to 13
    assert low_ball([5, 5, 5], 3) is None
    assert low_ball([3, 3, 3, 2], 4) == "low"
    assert low_ball([3, 3, 2, 2], 5) == "super"
    assert low_ball([0, 4, 4, 3], 4) is None  # 12


def test_low_ball_is_announced_and_recorded_without_changing_scores() -> None:
    game, state = new(4)
    step(state, game.random_deal(state, random.Random(3)))
    bid_through(game, state, {0: 1, 1: 2, 2: 3, 3: 2})
    assert game.observe(state, 0).info["low_ball"] == "super"
    finish(game, state, {0: 1, 1: 2, 2: 3, 3: 7})
    hand = summary(state)["hands"][0]
    assert hand["low_ball"] == "super"
    assert hand["scores"] == {"0": 10, "1": 20, "2": 30, "3": 20 - 50}


# --- ruling 3 and 4: bidding, rebids and the extra card -----------------------------------


def four_player_table() -> tuple[Game, ThreeBSpadesState]:
    game, state = new(4)
    step(state, deal(3, BLOCKS, "BJ", 4))  # bidding order 0, 1, 2, 3
    return game, state


def test_a_bid_may_be_changed_until_the_next_player_bids() -> None:
    game, state = four_player_table()
    act(state, "0: bid 3")
    assert Rebid(0, 4) in game.legal_actions(state)
    assert game.observe(state, 0).info["may_rebid"] == (0, 1, 2, *range(4, 14))
    act(state, "0: rebid 4")  # out of turn: seat 1 is to bid
    assert state.bids[0] == 4 and state.to_act == 1
    act(state, "1: bid 2")
    refused(state, "0: rebid 5", "change of bid")
    refused(state, "2: rebid 5", "change of bid")  # seat 2 has no bid to change
    refused(state, "1: rebid 2", "change of bid")  # no change
    refused(state, "1: rebid 14", "bids")
    refused(state, "1: bid 3", "turn order")
    act(state, "1: rebid 1")
    assert state.bids[1] == 1


def test_the_last_bidder_may_change_until_the_extra_card_is_thrown_back() -> None:
    _game, state = four_player_table()
    act(state, "0: bid 4", "1: bid 1", "2: bid 2", "3: bid 2")
    # bidding over: seat 0, the highest bidder, has drawn the joker
    assert state.phase is Phase.EXCHANGE and state.drawer == 0 and state.hand_size[0] == 14
    act(state, "3: rebid 5")  # seat 3 is now highest: the joker goes to him instead
    assert state.drawer == 3 and state.hand_size == [13, 13, 13, 14]
    assert state.hands[3] >> BIG_JOKER & 1
    refused(state, "3: rebid 0", "change of bid")  # he has drawn the extra card
    act(state, "3: rebid 3")  # seat 0 is highest again and draws again
    assert state.drawer == 0 and state.hand_size == [14, 13, 13, 13]
    refused(state, "3: rebid 0", "change of bid")  # he drew it once: never to zero now
    act(state, "0: exchange 2S")
    assert state.phase is Phase.PLAY and state.dead == parse_card("2S")
    refused(state, "3: rebid 4", "change of bid")  # the extra card has been thrown back


def test_the_last_bidder_who_is_highest_may_change_but_not_to_zero() -> None:
    _game, state = four_player_table()
    act(state, "0: bid 1", "1: bid 1", "2: bid 2", "3: bid 5")
    assert state.drawer == 3 and state.window == 3
    refused(state, "3: rebid 0", "change of bid")
    act(state, "3: rebid 6")
    assert state.bids[3] == 6 and state.drawer == 3
    act(state, "3: rebid 1")  # seat 2 is highest now: the joker moves to him
    assert state.drawer == 2 and state.hand_size == [13, 13, 14, 13]


def test_a_change_to_zero_draws_the_extra_card_at_once() -> None:
    _game, state = four_player_table()
    act(state, "0: bid 2", "0: rebid 0")
    assert state.drawer == 0 and state.to_act == 0
    refused(state, "1: bid 3", "turn order")
    refused(state, "0: rebid 2", "the extra card")  # throw back first
    act(state, "0: exchange BJ", "1: bid 3")
    assert state.middle == BIG_JOKER


def test_the_last_bidder_may_change_to_zero_after_the_bidding_if_he_has_not_drawn() -> None:
    _game, state = four_player_table()
    act(state, "0: bid 5", "1: bid 1", "2: bid 1", "3: bid 2")
    assert state.drawer == 0
    act(state, "3: rebid 0")  # seat 0's draw is undone; the new zero draws first
    assert state.drawer == 3 and state.hand_size == [13, 13, 13, 14]
    refused(state, "0: exchange 2S", "turn order")
    act(state, "3: exchange 2C")  # the 2C becomes the extra card; seat 0 now draws it
    assert state.drawer == 0 and state.hands[0] >> parse_card("2C") & 1
    act(state, "0: exchange 2C")
    assert state.phase is Phase.PLAY and state.hands[3] >> BIG_JOKER & 1


def test_zero_bidders_exchange_in_order_before_the_next_bid() -> None:
    game, state = four_player_table()
    act(state, "0: bid 3", "1: bid 0")
    assert state.drawer == 1 and state.hands[1] >> BIG_JOKER & 1
    refused(state, "2: bid 2", "turn order")
    refused(state, "1: bid 2", "the extra card")
    refused(state, "1: exchange 2S", "own cards")
    act(state, "1: exchange 2H")  # the 2H is the new extra card
    assert state.middle == parse_card("2H") and state.to_act == 2
    act(state, "2: bid 0", "2: exchange 2D", "3: bid 2")
    # seat 0, the highest bidder, draws what the last zero threw back; it goes out of play
    assert state.drawer == 0 and state.hands[0] >> parse_card("2D") & 1
    act(state, "0: exchange 2D")
    assert game.out_of_play(state) == 1 << parse_card("2D")
    assert state.hands[1] >> BIG_JOKER & 1 and state.hands[2] >> parse_card("2H") & 1


def test_ties_for_the_highest_bid_go_to_the_first_to_make_it() -> None:
    _game, state = four_player_table()
    act(state, "0: bid 2", "1: bid 3", "2: bid 3", "3: bid 1")
    assert state.drawer == 1
    _game, state = four_player_table()
    act(state, "0: bid 2", "1: bid 3", "2: bid 1", "3: bid 2", "3: rebid 3")
    assert state.drawer == 1  # seat 3 made the bid of 3 after seat 1


def test_when_everybody_bids_zero_nobody_draws_and_the_last_bidder_may_change_until_a_card(
) -> None:
    game, state = four_player_table()
    bid_through(game, state, {0: 0, 1: 0, 2: 0, 3: 0})
    assert state.phase is Phase.PLAY and state.drawer == -1 and state.dead == -1
    assert Rebid(3, 2) in game.legal_actions(state) and Rebid(3, 0) not in game.legal_actions(
        state
    )
    act(state, "3: rebid 2")  # now the highest bidder: he draws and throws back
    assert state.phase is Phase.EXCHANGE and state.drawer == 3
    act(state, "3: exchange 3C")
    assert state.phase is Phase.PLAY
    refused(state, "3: rebid 1", "change of bid")
    game, state = four_player_table()
    bid_through(game, state, {0: 0, 1: 0, 2: 0, 3: 0})
    act(state, "0: play " + card_str(lowest(state.hands[0])))
    refused(state, "3: rebid 2", "change of bid")


def test_bids_are_0_to_the_number_of_tricks() -> None:
    game, state = new(3)
    step(state, game.random_deal(state, random.Random(1)))
    seat = state.to_act
    assert [a.tricks for a in game.legal_actions(state)] == list(range(18))  # type: ignore[attr-defined]
    refused(state, f"{seat}: bid 18", "bids")
    act(state, f"{seat}: bid 17")
    assert state.all_tricks[seat]


# --- ruling 1 and 2: the deals, the joker and aces ----------------------------------------


@pytest.mark.parametrize(("players", "size", "deck"), [(3, 17, 52), (4, 13, 53), (5, 13, 53)])
def test_deal_sizes_and_extra_card(players: int, size: int, deck: int) -> None:
    game, state = new(players)
    step(state, game.random_deal(state, random.Random(9)))
    holders = [s for s in range(players) if state.hand_size[s]]
    assert all(state.hand_size[s] == size for s in holders)
    assert len(holders) == (4 if players == 5 else players)
    assert game.deck.bit_count() == deck and game.out_of_play(state).bit_count() == 1
    assert state.tricks_per_hand == size


def test_five_players_the_dealer_sits_out_and_the_deal_rotates() -> None:
    game, state = new(5)
    rng = random.Random(5)
    dealers = []
    while not state.is_over:
        step(state, game.random_deal(state, rng))
        dealer = state.dealer
        dealers.append(dealer)
        assert state.hand_size[dealer] == 0 and state.hands[dealer] == 0
        assert dealer not in state.bidders and state.bidders[0] == (dealer + 1) % 5
        assert state.to_act == (dealer + 1) % 5
        bid_through(game, state, {s: 2 for s in range(5)})
        play_out(game, state, rng)
        hand = summary(state)["hands"][-1]
        assert hand["sitting_out"] == dealer and hand["scores"][str(dealer)] == 0
        assert str(dealer) not in hand["bids"]
        last = state.past_hands[-1]
        tricks = [a for a in last.actions if isinstance(a, Play)]
        assert len(tricks) == 52 and all(a.seat != dealer for a in tricks)
    assert dealers[:6] == [(dealers[0] + i) % 5 for i in range(6)]
    record = record_from_state(state)
    for hand_record in record.hands:
        assert str(hand_record.dealer) not in hand_record.deal
        assert set(hand_record.deal) == {str(s) for s in range(5) if s != hand_record.dealer} | {
            "extra"
        }
    assert summary(replay(loads_record(record.dumps()))) == summary(state)


def test_five_player_tricks_have_four_cards_and_skip_the_dealer() -> None:
    game, state = new(5)
    step(state, game.random_deal(state, random.Random(2)))
    dealer = state.dealer
    bid_through(game, state, {s: 3 for s in range(5)})
    play_out(game, state)
    for trick in state.tricks:
        assert len(trick.cards) == 4 and dealer not in trick.seats


def test_a_five_player_deal_giving_cards_to_the_dealer_is_refused() -> None:
    game, state = new(5)
    cards = list(cards_of(game.deck))
    hands = {s: " ".join(card_str(c) for c in cards[13 * s : 13 * s + 13]) for s in range(4)}
    bad = deal(0, hands, card_str(cards[52]), 5)  # seat 0 deals and gets cards
    with pytest.raises(IllegalAction):
        step(state, bad)
    good = deal(4, hands, card_str(cards[52]), 5)
    step(state, good)
    assert state.bidders == (0, 1, 2, 3)


ACE_DEAL = {
    0: "AH 4S 5S 5C 6C 7C 8C 9C TC JC QC KC AC",
    1: "2H AS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
    2: "3H BJ KH KD AD 2C 3C 4C 6S 7S 8S 9S TS",
    3: "4H 5H 6H 7H 8H 9H TH JH 2S 3S JS QS KS",
}


def test_a_low_ace_ranks_below_the_two_and_the_joker_is_the_highest_spade() -> None:
    game, state = new(4)
    step(state, deal(3, ACE_DEAL, "QH", 4))
    act(state, "0: bid 1", "1: bid 1", "2: bid 1", "3: bid 1", "0: exchange QH")
    legal = game.legal_actions(state)
    assert Play(0, parse_card("AH"), True) in legal and Play(0, parse_card("AH")) in legal
    assert Play(0, parse_card("KC"), True) not in legal
    refused(state, "0: play KC low", "ace calls")
    act(state, "0: play AH low", "1: play 2H", "2: play 3H", "3: play 4H")
    assert state.tricks[0].winner == 3 and state.tricks[0].low_aces == 0b0001
    act(state, "3: play 2S", "0: play 4S", "1: play AS low", "2: play BJ")
    assert state.tricks[1].winner == 2  # the joker beats every spade
    assert "0: play AH low" in [str(a) for a in state.actions]


def test_an_uncalled_ace_is_high() -> None:
    _game, state = new(4)
    step(state, deal(3, ACE_DEAL, "QH", 4))
    act(state, "0: bid 1", "1: bid 1", "2: bid 1", "3: bid 1", "0: exchange QH")
    act(state, "0: play AH", "1: play 2H", "2: play KH", "3: play 4H")
    assert state.tricks[0].winner == 0


def test_a_low_ace_of_spades_is_still_a_trump() -> None:
    kh, as_, qh = parse_card("KH"), parse_card("AS"), parse_card("QH")
    assert SPADES_TRUMP.winner([kh, as_, qh], HEARTS, low_aces=0b010) == 1
    two_s = parse_card("2S")
    assert SPADES_TRUMP.winner([as_, two_s], SPADES, low_aces=0b01) == 1
    assert SPADES_TRUMP.winner([BIG_JOKER, as_], SPADES) == 0


def test_aces_are_always_high_with_three_players_or_with_ace_calls_off() -> None:
    for players, options in ((3, {}), (4, {"ace_calls": False})):
        game, state = new(players, **options)
        step(state, game.random_deal(state, random.Random(4)))
        bid_through(game, state, {s: 2 for s in range(players)})
        assert not any(isinstance(a, Play) and a.ace_low for a in game.legal_actions(state))
        seat = state.to_act
        ace = next(
            (c for c in cards_of(state.hands[seat]) if c < 52 and c % 13 == 12), None
        )
        if ace is not None:
            refused(state, f"{seat}: play {card_str(ace)} low", "ace calls")


# --- ruling 5: spades any time, gaccing ---------------------------------------------------


def test_spades_may_be_led_at_once_and_a_spade_opening_lead_is_gaccing() -> None:
    game, state = four_player_table()  # seat 0 leads and holds only spades
    bid_through(game, state, {0: 4, 1: 3, 2: 3, 3: 3})
    assert game.legal_actions(state)[0] == Play(0, parse_card("3S"))  # 2S thrown out
    play_out(game, state)
    assert summary(state)["hands"][0]["gaccing"] == 0
    game, state = new(4)
    mixed = dict(ACE_DEAL)
    step(state, deal(3, mixed, "QH", 4))
    act(state, "0: bid 1", "1: bid 1", "2: bid 1", "3: bid 1", "0: exchange QH")
    act(state, "0: play 4S")  # any time: the first lead of the hand
    assert game.observe(state, 1).info["gaccing"] == 0
    game, state = new(4)
    step(state, deal(3, ACE_DEAL, "QH", 4))
    act(state, "0: bid 1", "1: bid 1", "2: bid 1", "3: bid 1", "0: exchange QH")
    act(state, "0: play 5C")
    play_out(game, state)
    assert summary(state)["hands"][0]["gaccing"] is None


# --- what each seat sees ------------------------------------------------------------------


def test_the_extra_card_is_hidden_and_thrown_back_cards_are_private() -> None:
    game, state = new(3)
    step(state, game.random_deal(state, random.Random(11)))
    first, second, third = state.bidders
    extra = state.middle
    for seat in range(3):
        obs = game.observe(state, seat)
        assert not any(v >> extra & 1 for v in obs.visible) and not obs.hand >> extra & 1
    act(state, f"{first}: bid 0")
    obs = game.observe(state, first)
    assert obs.hand >> extra & 1  # he has taken it into his hand
    assert obs.legal == tuple(Exchange(first, c) for c in cards_of(obs.hand))
    assert game.observe(state, second).hand_sizes[first] == 18
    thrown = max(cards_of(state.hands[first] & ~(1 << extra)))
    act(state, f"{first}: exchange {card_str(thrown)}")
    assert game.observe(state, first).history[-1] == f"{first}: exchange {card_str(thrown)}"
    assert game.observe(state, first).info["thrown_back"] == (card_str(thrown),)
    for seat in (second, third):
        obs = game.observe(state, seat)
        assert obs.history[-1] == f"{first}: exchange ?"
        assert "thrown_back" not in obs.info
        assert all(card_str(thrown) not in h for h in obs.history)
    assert game.out_of_play(state) == 1 << thrown


def test_out_of_play_holds_the_dead_card_which_cannot_be_played() -> None:
    game, state = four_player_table()
    bid_through(game, state, {0: 4, 1: 3, 2: 3, 3: 3})
    assert state.dead == parse_card("2S")  # seat 0 threw back its lowest card
    assert game.out_of_play(state) == 1 << parse_card("2S")
    assert all(not h >> parse_card("2S") & 1 for h in state.hands)
    refused(state, "0: play 2S", "own cards")


def test_errors_name_the_rule_and_what_is_allowed() -> None:
    _game, state = four_player_table()
    error = refused(state, "2: bid 3", "turn order")
    # the error goes to seat 2: it says who is to act, never what that seat may do
    assert "seat 0" in str(error) and error.allowed == "nothing now; seat 0 is to act"
    error = refused(state, "0: play 2H", "bidding phase")
    assert "bid 0..13" in error.allowed
    act(state, "0: bid 0")
    error = refused(state, "0: exchange 2H", "own cards")
    assert "exchange one of" in error.allowed


# --- options and records ------------------------------------------------------------------


def test_players_are_required_or_inferred_from_the_record() -> None:
    with pytest.raises(OptionError, match="players"):
        make_game("3b-spades")
    with pytest.raises(OptionError):
        make_game("3b-spades", {"players": 6})
    record = load_record(EXAMPLES / "3b-spades-21-000.json")
    assert "players" not in record.options
    assert replay(record).game.num_seats == 3


def test_records_write_rebids_exchanges_and_low_aces() -> None:
    _game, state = new(4)
    step(state, deal(3, ACE_DEAL, "QH", 4))
    act(state, "0: bid 1", "0: rebid 0", "0: exchange QH", "1: bid 2", "2: bid 1", "3: bid 1")
    act(state, "1: exchange 2H", "0: play AH low")
    text = record_from_state(state).dumps()
    actions = json.loads(text)["hands"][0]["actions"]
    assert actions == [
        "0: bid 1", "0: rebid 0", "0: exchange QH", "1: bid 2", "2: bid 1", "3: bid 1",
        "1: exchange 2H", "0: play AH low",
    ]
    again = replay(loads_record(text))
    assert same_state(again, state)


def test_a_suspended_game_resumes_from_its_record_with_nothing_lost() -> None:
    rng = random.Random(2024)
    game, state = new(4)
    log: list[Action] = []
    while not state.is_over:
        action: Action
        if state.phase in (Phase.DEAL, Phase.SCORING):
            action = game.random_deal(state, rng)
        else:
            action = rng.choice(game.legal_actions(state))
        step(state, action)
        log.append(action)
    full = summary(state)
    # suspend in the middle of the fourth hand: bidding, exchange or play
    deals = [i for i, a in enumerate(log) if isinstance(a, Deal)]
    for cut in (deals[3] + 3, deals[3] + 30, deals[5]):
        _, partial = new(4)
        for action in log[:cut]:
            step(partial, action)
        saved = record_from_state(partial, {s: f"P{s}" for s in range(4)}).dumps()
        resumed = replay(loads_record(saved))
        assert same_state(resumed, partial)
        for seat in range(4):
            assert game.observe(resumed, seat) == game.observe(partial, seat)
        for action in log[cut:]:
            step(resumed, action)
        assert summary(resumed) == full


# --- sessions -----------------------------------------------------------------------------


def test_session_stars_streaks_and_tray_chits() -> None:
    d = date
    games = [
        GameResult("A", "C", ("A",), d(2024, 3, 4)),
        GameResult("A", "B", (), d(2024, 3, 5)),
        GameResult("A", "C", (), d(2024, 3, 6)),  # A: 3 wins in one week
        GameResult("A", "B", (), d(2024, 3, 11)),  # 4 in a row
        GameResult("A", "C", ("C",), d(2024, 3, 12)),  # 5 in a row; C earns a chit
        GameResult("B", "A", (), d(2024, 3, 13)),  # A loses: his chit is spent
        GameResult("C", "A", (), d(2024, 3, 14)),  # no chit left
        GameResult("B", "C", (), d(2024, 3, 15)),  # C spends the chit from game 5
    ]
    stats = session_stats(games)
    a, b, c = stats["A"], stats["B"], stats["C"]
    assert (a.stars, a.week_stars, a.gold_star, a.red_star) == (5, 1, True, True)
    assert (a.longest_streak, a.current_streak, a.trays) == (5, 0, 2)
    assert (a.chits_earned, a.chits_used, a.chits_held) == (1, 1, 0)
    assert (b.stars, b.week_stars, b.gold_star, b.longest_streak, b.current_streak) == (
        2, 0, False, 1, 1,
    )
    assert (c.stars, c.trays, c.chits_earned, c.chits_used, c.chits_held) == (1, 4, 1, 1, 0)
    assert longest_streaks(stats) == [("A", 5), ("B", 1), ("C", 1)]


def test_a_streak_counts_only_the_games_a_player_played() -> None:
    games = [
        GameResult("A", "B", players=("A", "B", "C")),
        GameResult("D", "B", players=("B", "C", "D")),  # A sits out: his streak goes on
        GameResult("A", "C", players=("A", "B", "C")),
    ]
    assert session_stats(games)["A"].longest_streak == 2


def test_game_result_from_a_finished_game() -> None:
    game, state = new(3, hands=2)
    scored_hand(game, state, {0: 3, 1: 4, 2: 5}, {0: 3, 1: 5, 2: 9})
    with pytest.raises(ValueError):
        game_result(state, {0: "Ann", 1: "Bob", 2: "Cy"})
    scored_hand(game, state, {0: 2, 1: 5, 2: 6}, {0: 2, 1: 6, 2: 9})
    result = game_result(state, {0: "Ann", 1: "Bob", 2: "Cy"}, date(2024, 1, 2))
    assert result == GameResult("Bob", "Cy", ("Ann",), date(2024, 1, 2), ("Ann", "Bob", "Cy"))

