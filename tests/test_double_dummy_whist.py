"""Double Dummy (rulings.md, Dummy Whist ruling 8): two players at seats 0 and 1, their
dummies opposite them at seats 2 and 3; keep or swap (with the opponent's dummy, the dead
hand on one's right) before the auction; every player who keeps doubles the hand's score."""

from __future__ import annotations

import pytest

from tricktable import IllegalAction, OptionError, Phase, make_game, parse_action, step
from tricktable.engine.actions import CHANCE, Deal, Keep, Pass, Play, Swap
from tricktable.engine.cards import cards_of, from_cards, parse_cards
from tricktable.engine.state import State
from tricktable.games.dummy_whist import WhistGame

SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
HEARTS = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"
DIAMONDS = "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"
CLUBS = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"


def suits_deal(dealer: int) -> Deal:
    """Seat 0 spades, seat 1 hearts, seat 2 (0's dummy) diamonds, seat 3 (1's) clubs."""
    hands = (SPADES, HEARTS, DIAMONDS, CLUBS)
    return Deal(CHANCE, dealer, tuple(tuple(parse_cards(h)) for h in hands), ())


def act(state: State, *texts: str) -> None:
    for text in texts:
        step(state, parse_action(text))


def play_out(state: State) -> None:
    """Each seat plays its lowest allowed card."""
    game = state.game
    assert isinstance(game, WhistGame)
    while state.phase is Phase.PLAY:
        step(state, Play(state.to_act, next(cards_of(game.strict_plays(state)))))


def table(dealer: int = 1, options: dict[str, object] | None = None) -> State:
    state = make_game("double-dummy-whist", options).new_game()
    step(state, suits_deal(dealer))
    return state


def test_layout_players_dummies_and_controllers() -> None:
    game = make_game("double-dummy-whist")
    assert game.player_seats == (0, 1) and game.num_entities == 2
    state = table()
    assert [game.controller(state, s) for s in range(4)] == [0, 1, 0, 1]
    assert game.observe(state, 0).controls == (0, 2)
    assert state.phase is Phase.REVEAL and state.to_act == 0  # the non-dealer first
    assert game.legal_actions(state) == [Keep(0), Swap(0)]


def test_deal_alternates_between_the_players() -> None:
    game = make_game("double-dummy-whist")
    state = table(dealer=1)
    assert game.next_dealer(state) == 0
    state.dealer = 0
    assert game.next_dealer(state) == 1
    with pytest.raises(IllegalAction):
        step(make_game("double-dummy-whist").new_game(), suits_deal(2))  # a dummy never deals


@pytest.mark.parametrize(
    ("choices", "trump", "points"),
    [
        (("keep", "keep"), "S", 7 * 4),  # both play the hand as dealt: x4
        (("keep", "swap"), "S", 7 * 2),
        (("swap", "keep"), "C", 7 * 2),  # seat 0 took seat 3's clubs
        (("swap", "swap"), "C", 7),
    ],
)
def test_keeping_doubles_per_player(choices: tuple[str, str], trump: str, points: int) -> None:
    """Seat 0 declares 2 uptown with a whole suit as trumps and takes all 13 books: 7 over six."""
    state = table(dealer=1)
    act(state, f"0: {choices[0]}", f"1: {choices[1]}")
    assert state.phase is Phase.BIDDING and state.to_act == 0
    act(state, "0: bid 2 uptown", "1: pass", f"0: trump {trump}")
    assert state.to_act == 0  # the declarer leads from his own hand
    play_out(state)
    assert state.won[0] + state.won[2] == 13
    result = state.results[-1]
    assert dict(result.scores) == {"0": points, "1": 0}
    assert result.details["kept"] == [i for i, ch in enumerate(choices) if ch == "keep"]


def test_set_with_seven_and_both_keeping_is_x8_to_the_opponent() -> None:
    """Seat 1 bids 7 uptown with diamonds trumps, but seat 0's dummy holds every diamond."""
    state = table(dealer=0)
    assert state.to_act == 1
    act(state, "1: keep", "0: keep", "1: bid 7 uptown", "0: pass", "1: trump D")
    play_out(state)
    assert state.won[1] + state.won[3] == 0 and state.won[2] == 13
    assert dict(state.results[-1].scores) == {"0": 7 * 2 * 4, "1": 0}


def test_play_is_clockwise_with_each_dummy_opposite_its_player() -> None:
    state = table(dealer=0)
    act(state, "1: swap", "0: swap", "1: bid 1 notrump", "0: pass", "1: direction high")
    seats = []
    for _ in range(4):
        seats.append(state.to_act)
        play_out_one(state)
    assert seats == [1, 2, 3, 0]


def play_out_one(state: State) -> None:
    game = state.game
    assert isinstance(game, WhistGame)
    step(state, Play(state.to_act, next(cards_of(game.strict_plays(state)))))


def test_swap_exchanges_with_the_opponents_dummy_and_the_swapper_remembers() -> None:
    state = table(dealer=1)
    game = state.game
    act(state, "0: swap")
    assert state.hands[0] == from_cards(parse_cards(CLUBS))
    assert state.hands[3] == from_cards(parse_cards(SPADES))
    assert game.observe(state, 0).visible == (state.hands[0], 0, 0, state.hands[3])
    assert game.observe(state, 1).visible == (0, state.hands[1], 0, 0)
    act(state, "1: swap")
    assert state.hands[1] == from_cards(parse_cards(DIAMONDS))
    assert state.hands[2] == from_cards(parse_cards(HEARTS))
    assert game.observe(state, 1).visible == (0, state.hands[1], state.hands[2], 0)
    assert game.observe(state, 0).visible[2] == 0  # 0 never saw seat 1's old hand
    act(state, "0: bid 1 uptown")
    assert game.observe(state, 1).visible[3] == 0  # still face down during the auction
    act(state, "1: pass")
    for seat in (0, 1):  # both dummies face up once the auction is over
        visible = game.observe(state, seat).visible
        assert visible[2] == state.hands[2] and visible[3] == state.hands[3]
    info = game.observe(state, 1).info
    assert info["choices"] == {"0": "swap", "1": "swap"} and info["multiplier"] == 1


def test_keep_or_swap_only_in_turn_and_before_the_auction() -> None:
    state = table(dealer=1)
    with pytest.raises(IllegalAction) as err:
        step(state, Swap(1))
    assert err.value.rule == "turn order"
    act(state, "0: keep", "1: keep")
    with pytest.raises(IllegalAction) as err:
        step(state, Keep(0))
    assert err.value.rule == "bidding phase"


def test_dealer_must_bid_when_the_other_passes() -> None:
    state = table(dealer=1)
    act(state, "0: keep", "1: keep", "0: pass")
    assert Pass(1) not in state.game.legal_actions(state)
    with pytest.raises(IllegalAction) as err:
        step(state, Pass(1))
    assert err.value.rule == "dealer must bid"


def test_renege_in_double_dummy_is_against_the_other_players_side() -> None:
    """Seat 1 bids 1 uptown, hearts trumps; seat 0's dummy reneges in trick 1 and seat 1
    calls it: seat 0's side gives up three books to seat 1's."""
    deal = Deal(CHANCE, 0, tuple(tuple(parse_cards(h)) for h in (
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2D",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2S",
        "2H AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
        CLUBS,
    )), ())
    state = make_game("double-dummy-whist", {"honour": True}).new_game()
    step(state, deal)
    act(state, "1: keep", "0: keep", "1: bid 1 uptown", "0: pass", "1: trump H")
    # trick 1: 1 leads AH; seat 2 (0's dummy) holds 2H but plays AD: a renege
    act(state, "1: play AH", "2: play AD", "3: play 2C", "0: play 2D", "1: renege 1")
    play_out(state)
    # lowest cards: 1 leads 2S, which seat 2 trumps with 2H (trick 2); seat 2 leads a
    # diamond, which seat 1 trumps; seat 1 then draws every trick with hearts: 12 to 1
    assert state.won[1] + state.won[3] == 12 and state.won[2] == 1
    result = state.results[-1]
    assert result.details["reneges"] == [{"caller": 1, "trick": 1, "right": True}]
    # seat 0's side has one book to give up; seat 1's side then has all 13 (7 over six)
    assert result.details["books"] == 13
    assert dict(result.scores) == {"0": 0, "1": 7 * 4}


def test_jokers_are_not_an_option_of_double_dummy() -> None:
    with pytest.raises(OptionError):
        make_game("double-dummy-whist", {"jokers": True})
