"""Dummy Whist: the rulings of rulings.md ("Dummy Whist") one by one, and the seed's worked
example. Double Dummy has its own file (test_double_dummy_whist.py)."""

from __future__ import annotations

import random

import pytest

from tricktable import IllegalAction, Phase, make_game, parse_action, step
from tricktable.engine.actions import CHANCE, Bid, Deal, Discard, Pass, Play, Renege
from tricktable.engine.cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    NO_SUIT,
    SUITED,
    TWO_JOKER_DECK,
    card_str,
    cards_of,
    from_cards,
    parse_card,
    parse_cards,
)
from tricktable.engine.game import Game
from tricktable.engine.records import load_record, record_from_state, replay, summary
from tricktable.engine.state import State
from tricktable.games.dummy_whist import WhistGame, WhistState, card_order

CLUBS = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"


def deal(dealer: int, *hands: str) -> Deal:
    return Deal(CHANCE, dealer, tuple(tuple(parse_cards(h)) for h in hands), ())


def act(state: State, *texts: str) -> None:
    for text in texts:
        step(state, parse_action(text))


def whist(state: State) -> tuple[WhistGame, WhistState]:
    game = state.game
    assert isinstance(game, WhistGame) and isinstance(state, WhistState)
    return game, state


def play_until(
    state: State,
    prefs: dict[int, str] | None = None,
    tricks: int = 13,
    reneges: dict[tuple[int, int], str] | None = None,
) -> None:
    """Play until ``tricks`` tricks are done (or the hand ends). Each seat plays the first
    card of its preference list the strict rules allow (else the lowest allowed card);
    ``reneges[(trick, seat)]`` (trick 1-based) forces a card instead, legal or not."""
    game, ws = whist(state)
    order = {s: parse_cards(p) for s, p in (prefs or {}).items()}
    while ws.phase is Phase.PLAY and len(ws.tricks) < tricks:
        seat = ws.to_act
        forced = (reneges or {}).get((len(ws.tricks) + 1, seat))
        if forced:
            step(ws, Play(seat, parse_card(forced)))
            continue
        allowed = game.strict_plays(ws)
        card = next((c for c in order.get(seat, []) if allowed >> c & 1), None)
        if card is None:
            card = next(cards_of(allowed))
        step(ws, Play(seat, card))


def refused(state: State, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        step(state, parse_action(text))
    return info.value


# --- the seed's worked example: a bid of 5 needs 11 books --------------------------------

# Declarer 0 (dealer 2, so 0 bids first) with twelve spades; seat 1 keeps the ace of hearts
# for the last trick: declarer and dummy take exactly 12 books.
TWELVE = deal(
    2,
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H",
    "AH AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
    CLUBS,
    "2S KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2D",
)
TWELVE_PREFS = {
    0: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H",
    1: "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D AH",
    3: "2S 2D KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
}

# Ten spades for the declarer; seat 1 takes three heart tricks at the end: 10 books.
TEN = deal(
    2,
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4H 3H 2H",
    "AH KH QH AD KD QD JD TD 9D 8D 7D 6D 5D",
    CLUBS,
    "4S 3S 2S JH TH 9H 8H 7H 6H 5H 4D 3D 2D",
)
TEN_PREFS = {
    0: "AS KS QS JS TS 9S 8S 7S 6S 5S 2H 3H 4H",
    1: "AD KD QD JD TD 9D 8D 7D 6D 5D AH KH QH",
    3: "2S 3S 4S 2D 3D 4D 5H 6H 7H 8H 9H TH JH",
}


def bid_five_uptown(options: dict[str, object] | None = None, the_deal: Deal = TWELVE) -> State:
    state = make_game("dummy-whist", options).new_game()
    step(state, the_deal)
    act(state, "0: bid 5 uptown", "1: pass", "2: pass", "0: trump S")
    return state


def test_seed_example_five_bid_making_twelve_books_scores_six() -> None:
    state = bid_five_uptown()
    play_until(state, TWELVE_PREFS)
    assert state.won == [12, 1, 0, 0]
    result = state.results[-1]
    assert dict(result.scores) == {"0": 6, "1": 0, "2": 0}
    assert result.details["books"] == 12 and result.details["made"]


def test_seed_example_five_bid_taking_ten_books_gives_each_opponent_five() -> None:
    state = bid_five_uptown(the_deal=TEN)
    play_until(state, TEN_PREFS)
    assert state.won[0] + state.won[3] == 10
    assert dict(state.results[-1].scores) == {"0": 0, "1": 5, "2": 5}


def test_example_record_hand_seven_is_a_doubled_notrump_set() -> None:
    """examples/dummy-whist-31-000.json, hand 7: 4 no-trump set gives 8 to each opponent."""
    from test_examples import EXAMPLES

    path = EXAMPLES / "dummy-whist-31-000.json"
    hand = summary(replay(load_record(path)))["hands"][6]
    assert hand["contract"] == "4 notrump" and hand["declarer"] == 0 and not hand["made"]
    assert hand["scores"] == {"0": 0, "1": 8, "2": 8}


# --- scoring options ------------------------------------------------------------------------


def test_notrump_doubles_a_made_bid_and_can_be_turned_off() -> None:
    for option, factor in ((True, 2), (False, 1)):
        state = make_game("dummy-whist", {"notrump_doubles": option}).new_game()
        step(state, TWELVE)
        act(state, "0: bid 5 notrump", "1: pass", "2: pass", "0: direction high")
        play_until(state, TWELVE_PREFS)
        # spades are led every trick but the last, which seat 1's ace of hearts wins
        assert state.won[0] + state.won[3] == 12
        assert state.results[-1].scores["0"] == 6 * factor


def test_a_bid_of_seven_doubles_and_seven_notrump_doubles_twice() -> None:
    cases = [("7 uptown", {}, 7 * 2), ("7 uptown", {"seven_doubles": False}, 7),
             ("7 notrump", {}, 7 * 4), ("7 notrump", {"notrump_doubles": False}, 7 * 2)]
    for bid, options, each in cases:
        state = make_game("dummy-whist", options).new_game()
        step(state, TEN)
        declare = "0: trump S" if "uptown" in bid else "0: direction high"
        act(state, f"0: bid {bid}", "1: pass", "2: pass", declare)
        play_until(state, TEN_PREFS)
        assert dict(state.results[-1].scores) == {"0": 0, "1": each, "2": each}, (bid, options)


def test_game_ends_at_target_higher_wins_tie_plays_on() -> None:
    game = make_game("dummy-whist")
    state = game.new_game()
    for totals, winner in (([20, 3, 0], None), ([21, 3, 0], 0), ([22, 25, 0], 1),
                           ([24, 24, 3], None), ([30, 30, 31], 2)):
        state.totals = list(totals)
        assert game.game_winner(state) == winner, totals


def test_game_with_low_target_finishes_and_winner_reaches_it() -> None:
    state = make_game("dummy-whist", {"target": 5}).new_game()
    step(state, TWELVE)
    act(state, "0: bid 5 uptown", "1: pass", "2: pass", "0: trump S")
    play_until(state, TWELVE_PREFS)
    assert state.phase is Phase.GAME_OVER and state.winner == 0


# --- the auction ----------------------------------------------------------------------------


def test_auction_runs_from_dealer_left_to_dealer_and_deal_rotates_among_players() -> None:
    game = make_game("dummy-whist")
    state = game.new_game()
    step(state, Deal(CHANCE, 1, TWELVE.hands, ()))
    assert state.phase is Phase.BIDDING and state.to_act == 2
    act(state, "2: pass")
    assert state.to_act == 0
    act(state, "0: bid 1 uptown")
    assert state.to_act == 1
    act(state, "1: pass")
    _, ws = whist(state)
    assert ws.declarer == 0 and state.phase is Phase.DECLARE and state.to_act == 0
    assert game.next_dealer(state) == 2
    state.dealer = 2
    assert game.next_dealer(state) == 0  # the dummy's seat never deals


def auction(options: dict[str, object] | None = None) -> State:
    state = make_game("dummy-whist", options).new_game()
    step(state, TWELVE)  # dealer 2: seats 0, 1, then 2 bid
    return state


def legal_bids(state: State) -> set[str]:
    return {str(a).split(": ", 1)[1] for a in state.game.legal_actions(state)}


def test_better_bid_more_books_or_notrump_at_equal_books() -> None:
    state = auction()
    act(state, "0: bid 3 uptown")
    bids = legal_bids(state)
    assert "bid 3 notrump" in bids and "bid 4 uptown" in bids and "pass" in bids
    assert "bid 3 downtown" not in bids and "bid 3 uptown" not in bids
    assert "bid 2 notrump" not in bids
    err = refused(state, "1: bid 3 downtown")
    assert err.rule == "better bid" and "3 notrump" in err.allowed
    act(state, "1: bid 3 notrump")
    assert "bid 4 uptown" in legal_bids(state)
    assert "bid 3 notrump" not in legal_bids(state)
    assert refused(state, "2: bid 3 notrump").rule == "better bid"


def test_downtown_beats_uptown_only_under_its_option() -> None:
    state = auction({"downtown_beats_uptown": True})
    act(state, "0: bid 3 uptown")
    assert "bid 3 downtown" in legal_bids(state)
    act(state, "1: bid 3 downtown")
    assert refused(state, "2: bid 3 uptown").rule == "better bid"
    assert "bid 3 notrump" in legal_bids(state)
    # without the option a downtown bid does not beat an equal uptown bid, nor the reverse
    state = auction()
    act(state, "0: bid 3 downtown")
    assert refused(state, "1: bid 3 uptown").rule == "better bid"


def test_dealer_must_bid_when_both_others_pass() -> None:
    state = auction()
    act(state, "0: pass", "1: pass")
    assert Pass(2) not in state.game.legal_actions(state)
    err = refused(state, "2: pass")
    assert err.rule == "dealer must bid" and "bid 1 uptown" in err.allowed
    act(state, "2: bid 1 downtown")
    _, ws = whist(state)
    assert ws.declarer == 2


def test_dealer_may_pass_after_a_bid_and_the_best_bid_declares() -> None:
    state = auction()
    act(state, "0: bid 2 uptown", "1: bid 4 downtown", "2: pass")
    _, ws = whist(state)
    assert ws.declarer == 1 and state.to_act == 1


def test_bids_are_one_to_seven_with_a_mode() -> None:
    state = auction()
    assert refused(state, "0: bid 8 uptown").rule == "whist bids"
    assert refused(state, "0: bid 0 notrump").rule == "whist bids"
    assert refused(state, "0: bid 3").rule == "whist bids"
    assert len([a for a in state.game.legal_actions(state) if isinstance(a, Bid)]) == 21


# --- after the auction: trumps or direction, the dummy opposite, the first lead -------------


def test_declaration_matches_the_bid() -> None:
    state = auction()
    act(state, "0: bid 2 uptown", "1: pass", "2: pass")
    assert refused(state, "0: direction low").rule == "declaration"
    assert len(state.game.legal_actions(state)) == 4
    state = auction()
    act(state, "0: bid 2 notrump", "1: pass", "2: pass")
    assert refused(state, "0: trump S").rule == "declaration"
    act(state, "0: direction low")
    assert state.order.trump == NO_SUIT and state.order.low


def test_declarer_leads_from_own_hand_and_dummy_sits_opposite() -> None:
    state = auction()
    act(state, "0: pass", "1: bid 1 uptown", "2: pass", "1: trump H")
    assert state.phase is Phase.PLAY and state.to_act == 1
    seats = []
    for _ in range(4):
        seats.append(state.to_act)
        step(state, Play(state.to_act, next(cards_of(state.game.legal_plays(state)))))
    assert seats == [1, 2, 3, 0]  # declarer, next real player, dummy, third
    assert state.game.controller(state, 3) == 1


def test_dummy_leads_from_the_board_when_it_wins() -> None:
    state = make_game("dummy-whist").new_game()
    step(state, TWELVE)
    act(state, "0: bid 1 downtown", "1: pass", "2: pass", "0: trump S")
    act(state, "0: play KS", "1: play AD", "3: play 2S", "2: play 2C")
    assert state.tricks[-1].winner == 3 and state.to_act == 3  # 2S beats KS downtown


# --- card orders ----------------------------------------------------------------------------


def c(text: str) -> int:
    return parse_card(text)


def winner(order_trump: int, low: bool, led: str, *cards: str) -> str:
    order = card_order(order_trump, low)
    played = [c(x) for x in (led, *cards)]
    return [led, *cards][order.winner(played, order.suit_of[played[0]])]


def test_uptown_is_high_and_downtown_is_low_with_the_ace_best() -> None:
    hearts = 1
    assert winner(hearts, False, "5D", "KD", "AD", "2D") == "AD"
    assert winner(hearts, False, "5D", "KD", "QD", "2D") == "KD"
    assert winner(hearts, True, "5D", "KD", "AD", "2D") == "AD"
    assert winner(hearts, True, "5D", "KD", "3D", "2D") == "2D"
    assert winner(hearts, True, "5D", "KD", "3D", "4D") == "3D"
    assert winner(hearts, False, "AD", "2H", "KD", "QD") == "2H"  # any trump beats the suit
    assert winner(hearts, True, "2D", "KH", "AD", "QD") == "KH"
    assert winner(hearts, True, "5H", "2H", "AH", "KH") == "AH"


def test_notrump_high_and_low() -> None:
    assert winner(NO_SUIT, False, "5C", "KC", "AS", "2C") == "KC"  # off-suit never wins
    assert winner(NO_SUIT, True, "5C", "KC", "AS", "2C") == "2C"
    assert winner(NO_SUIT, True, "5C", "AC", "3C", "2C") == "AC"


def test_jokers_are_top_trumps_in_both_directions() -> None:
    for low in (False, True):
        assert winner(0, low, "AS", "LJ", "BJ", "2S") == "BJ"
        assert winner(0, low, "AS", "LJ", "KS", "2S") == "LJ"
        assert winner(0, low, "AH", "LJ", "KH", "2H") == "LJ"  # a joker trumps
        order = card_order(0, low)
        assert order.suit_of[BIG_JOKER] == 0 and order.suit_of[LITTLE_JOKER] == 0
    # a joker lead is a trump lead
    assert winner(2, False, "LJ", "AD", "KS", "BJ") == "BJ"
    assert winner(2, False, "LJ", "AD", "KS", "2S") == "LJ"


def test_notrump_jokers_have_no_suit_and_never_win() -> None:
    for low in (False, True):
        order = card_order(NO_SUIT, low)
        assert order.suit_of[BIG_JOKER] == NO_SUIT
        assert winner(NO_SUIT, low, "7H", "BJ", "LJ", "8H") in ("7H", "8H")


# --- joker rules in play (ruling 4), with a 54-card deal -----------------------------------

FULL = list(cards_of(TWO_JOKER_DECK))
JOKER_DEAL = Deal(
    CHANCE, 2, (tuple(FULL[0:13]), tuple(FULL[13:26]), tuple(FULL[26:39]), tuple(FULL[39:54])), ()
)


def joker_table(mode: str, declare: str, options: dict[str, object] | None = None,
                **hands: str) -> State:
    """Seat 0 declares; then the hands are replaced by the small ones given (h0..h3)."""
    state = make_game("dummy-whist", {"jokers": True, **(options or {})}).new_game()
    step(state, JOKER_DEAL)
    discards = "KC AC"  # two of the dummy's clubs, never used below
    act(state, f"0: bid 1 {mode}", "1: pass", "2: pass", f"0: discard {discards}", declare)
    state.hands = [from_cards(parse_cards(hands.get(f"h{s}", ""))) for s in range(4)]
    return state


def legal_cards(state: State) -> set[str]:
    return {str(a).split("play ")[1] for a in state.game.legal_actions(state)
            if isinstance(a, Play)}


def test_notrump_joker_may_not_lead_unless_nothing_else_is_left() -> None:
    state = joker_table("notrump", "0: direction high", h0="BJ 5H", h1="2C", h3="3C", h2="4C")
    assert legal_cards(state) == {"5H"}
    assert refused(state, "0: play BJ").rule == "joker lead"
    state = joker_table("notrump", "0: direction high", h0="BJ LJ", h1="7D 3C",
                        h3="AD 9S", h2="2D KD")
    assert legal_cards(state) == {"BJ", "LJ"}
    act(state, "0: play BJ")
    assert state.led_suit < 0
    assert legal_cards(state) == {"7D", "3C"}  # the first card with a suit sets the suit
    act(state, "1: play 7D")
    assert state.led_suit == 2
    assert legal_cards(state) == {"AD"}  # the dummy follows diamonds now
    act(state, "3: play AD", "2: play 2D")
    assert state.tricks[-1].winner == 3  # the joker never wins


def test_notrump_joker_only_when_void_and_thrown_the_first_time() -> None:
    state = joker_table("notrump", "0: direction high", h0="5H 6H", h1="LJ 9H 2C",
                        h3="3C 4C", h2="4H 8H")
    act(state, "0: play 5H")
    assert legal_cards(state) == {"9H"}
    assert refused(state, "1: play LJ").rule == "follow suit"
    state = joker_table("notrump", "0: direction high", h0="5H 6H", h1="LJ 2C 3C",
                        h3="3H 4C", h2="4H 8H")
    act(state, "0: play 5H")
    assert legal_cards(state) == {"LJ"}
    assert refused(state, "1: play 2C").rule == "joker must be thrown"
    act(state, "1: play LJ", "3: play 3H", "2: play 8H")
    assert state.tricks[-1].winner == 2


def test_joker_throw_is_optional_when_the_option_is_off() -> None:
    state = joker_table("notrump", "0: direction high", {"joker_must_throw": False},
                        h0="5H 6H", h1="LJ 2C 3C", h3="3H 4C", h2="4H 8H")
    act(state, "0: play 5H")
    assert legal_cards(state) == {"LJ", "2C", "3C"}
    act(state, "1: play 2C")


def test_jokers_follow_as_trumps_in_a_trump_hand() -> None:
    state = joker_table("uptown", "0: trump H", h0="AH 6D", h1="LJ 2C", h3="3C 4C",
                        h2="4H 8H")
    act(state, "0: play AH")
    assert legal_cards(state) == {"LJ"}  # the little joker is a heart now
    act(state, "1: play LJ", "3: play 3C", "2: play 4H")
    assert state.tricks[-1].winner == 1
    state = joker_table("downtown", "0: trump C", h0="AC 6D", h1="BJ 2H", h3="2C 4H",
                        h2="3C 8H")
    act(state, "0: play 6D", "1: play BJ")  # void in diamonds: trumps with the big joker
    act(state, "3: play 4H", "2: play 8H")
    assert state.tricks[-1].winner == 1


# --- jokers: the 15-card dummy and the discards --------------------------------------------


def test_jokers_deal_fifteen_to_the_dummy_and_the_declarer_discards_two_privately() -> None:
    game = make_game("dummy-whist", {"jokers": True})
    state = game.new_game()
    step(state, JOKER_DEAL)
    assert state.hand_size == [13, 13, 13, 15]
    for seat in range(4):
        assert game.observe(state, seat).visible[3] == (state.hands[3] if seat == 3 else 0)
    act(state, "0: pass", "1: bid 2 uptown", "2: pass")
    assert state.phase is Phase.EXCHANGE and state.to_act == 1
    assert game.observe(state, 1).visible[3] == state.hands[3]  # only the declarer sees
    assert game.observe(state, 0).visible[3] == 0 and game.observe(state, 2).visible[3] == 0
    assert len(game.legal_actions(state)) == 15 * 14 // 2
    dummy = [card_str(x) for x in FULL[39:54]]
    assert refused(state, f"1: discard {dummy[0]}").rule == "dummy discards"
    assert refused(state, "1: discard 2S 3S").rule == "dummy discards"  # not the dummy's
    assert refused(state, f"0: discard {dummy[0]} {dummy[1]}").rule == "turn order"
    act(state, f"1: discard {dummy[0]} {dummy[1]}")
    gone = from_cards([c(dummy[0]), c(dummy[1])])
    assert game.out_of_play(state) == gone and state.hand_size[3] == 13
    assert state.phase is Phase.DECLARE
    for seat in (0, 2):
        obs = game.observe(state, seat)
        assert obs.visible[3] == state.hands[3]  # shown to everyone now
        assert obs.history[-1] == "1: discard ? ?" and "discards" not in obs.info
    assert game.observe(state, 1).history[-1] == f"1: discard {dummy[0]} {dummy[1]}"
    assert game.observe(state, 1).info["discards"]
    act(state, "1: trump D")
    assert state.tricks_per_hand == 13
    play_until(state)
    assert state.phase in (Phase.SCORING, Phase.GAME_OVER) and len(state.tricks) == 13


def test_without_jokers_the_dummy_is_hidden_until_the_auction_ends() -> None:
    game = make_game("dummy-whist")
    state = game.new_game()
    step(state, TWELVE)
    act(state, "0: bid 1 uptown", "1: pass")
    assert all(game.observe(state, s).visible[3] == 0 for s in (0, 1, 2))
    assert game.controller(state, 3) == -1
    act(state, "2: pass")
    assert all(game.observe(state, s).visible[3] == state.hands[3] for s in (0, 1, 2))
    assert game.deck == SUITED


# --- honour mode and reneges (ruling 7) -----------------------------------------------------


def test_strict_mode_refuses_a_renege_and_a_renege_call() -> None:
    state = bid_five_uptown(the_deal=TEN)
    act(state, "0: play AS", "1: play AD")
    assert refused(state, "3: play 2D").rule == "follow suit"
    act(state, "3: play 2S", "2: play AC")
    err = refused(state, "1: renege 1")
    assert err.rule == "renege calls" and "honour mode is off" in str(err)


def test_honour_mode_offers_every_held_card() -> None:
    state = bid_five_uptown({"honour": True}, the_deal=TEN)
    act(state, "0: play AS")
    plays = [a for a in state.game.legal_actions(state) if isinstance(a, Play)]
    assert len(plays) == 13  # seat 1 may play anything
    act(state, "1: play AD")
    act(state, "3: play 2D")  # a renege: the dummy holds three spades
    _, ws = whist(state)
    assert ws.reneged[0] == 1 << 3


# Honour mode on the 12-book deal: the dummy reneges in trick 1 (2D on the ace of spades,
# holding 2S); the tricks still fall 12-1.
DUMMY_RENEGE = {(1, 3): "2D"}


def test_right_call_on_the_dummy_takes_three_books_from_the_declarer() -> None:
    state = bid_five_uptown({"honour": True})
    play_until(state, TWELVE_PREFS, tricks=5, reneges=DUMMY_RENEGE)
    act(state, "1: renege 1")
    play_until(state, TWELVE_PREFS)
    assert state.won[0] + state.won[3] == 12
    result = state.results[-1]
    assert result.details["books"] == 9 and not result.details["made"]
    assert dict(result.scores) == {"0": 0, "1": 5, "2": 5}
    assert result.details["reneges"] == [{"caller": 1, "trick": 1, "right": True}]


def test_wrong_call_costs_the_callers_side_three_or_all_it_has() -> None:
    state = bid_five_uptown({"honour": True})
    play_until(state, TWELVE_PREFS, tricks=5, reneges=DUMMY_RENEGE)
    act(state, "2: renege 2")  # nobody reneged in trick 2
    play_until(state, TWELVE_PREFS)
    result = state.results[-1]
    # the defenders took one book: they give up that one, and the declarer has all 13
    assert result.details["books"] == 13
    assert dict(result.scores) == {"0": 7, "1": 0, "2": 0}


def test_calls_are_settled_in_order() -> None:
    state = bid_five_uptown({"honour": True})
    play_until(state, TWELVE_PREFS, tricks=5, reneges=DUMMY_RENEGE)
    act(state, "1: renege 1", "2: renege 2")  # 12 -> 9 (right) -> 12 (wrong)
    play_until(state, TWELVE_PREFS)
    assert state.results[-1].details["books"] == 12
    assert dict(state.results[-1].scores) == {"0": 6, "1": 0, "2": 0}


# Honour mode on the TEN-like deal below: seat 1 reneges in trick 1 (AD on the ace of
# spades, holding 5S). Declarer 0 bids 3 uptown and takes 9 books either way.
NINE = deal(
    2,
    "AS KS QS JS TS 9S 8S 7S 6S 5H 4H 3H 2H",
    "5S AH KH QH JH AD KD QD JD TD 9D 8D 7D",
    CLUBS,
    "4S 3S 2S TH 9H 8H 7H 6H 6D 5D 4D 3D 2D",
)
NINE_PREFS = {
    0: "AS KS QS JS TS 9S 8S 7S 6S 2H 3H 4H 5H",
    1: "5S AD KD QD JD TD 9D 8D 7D AH KH QH JH",
    3: "2S 3S 4S 2D 3D 4D 5D 6D 6H 7H 8H 9H TH",
}


def nine(calls: tuple[str, ...], honour: bool = True) -> State:
    state = make_game("dummy-whist", {"honour": honour}).new_game()
    step(state, NINE)
    act(state, "0: bid 3 uptown", "1: pass", "2: pass", "0: trump S")
    reneges = {(1, 1): "AD"} if honour else {}
    play_until(state, NINE_PREFS, tricks=3, reneges=reneges)
    act(state, *calls)
    play_until(state, NINE_PREFS)
    assert state.won[0] + state.won[3] == 9
    return state


def test_strict_nine_books_score_three() -> None:
    assert dict(nine((), honour=False).results[-1].scores) == {"0": 3, "1": 0, "2": 0}


def test_declarer_calls_a_defender_renege_right() -> None:
    state = nine(("0: renege 1",))
    assert state.results[-1].details["books"] == 12
    assert dict(state.results[-1].scores) == {"0": 6, "1": 0, "2": 0}


def test_declarer_calls_wrong_and_is_set() -> None:
    state = nine(("0: renege 2",))
    assert state.results[-1].details["books"] == 6
    assert dict(state.results[-1].scores) == {"0": 0, "1": 3, "2": 3}


def test_when_a_renege_call_is_allowed() -> None:
    state = make_game("dummy-whist", {"honour": True}).new_game()
    step(state, NINE)
    act(state, "0: bid 3 uptown", "1: pass")
    assert refused(state, "2: renege 1").rule == "bidding phase"
    assert refused(state, "0: renege 1").rule == "turn order"
    act(state, "2: pass", "0: trump S")
    assert refused(state, "1: renege 1").rule == "renege calls"  # no trick finished yet
    play_until(state, NINE_PREFS, tricks=2, reneges={(1, 1): "AD"})
    assert state.to_act == 0
    act(state, "2: renege 1")  # out of turn: allowed, and nobody's turn is used up
    assert state.to_act == 0 and state.phase is Phase.PLAY
    # the defenders' side has called trick 1; seat 1 is on it too
    assert refused(state, "1: renege 1").rule == "renege calls"
    assert refused(state, "1: renege 3").rule == "renege calls"  # trick 3 is not finished
    assert refused(state, "3: renege 2").rule == "renege calls"  # the dummy never calls
    act(state, "0: renege 1")  # the other side may call the same trick
    calls = {a for a in state.game.legal_actions(state) if isinstance(a, Renege)}
    assert calls == {Renege(1, 2), Renege(2, 2), Renege(0, 2)}
    obs = state.game.observe(state, 2)
    assert obs.info["renege_calls_open"] == (2,) and obs.info["renege_calls"] == ((2, 1), (0, 1))


def test_honour_game_records_replay_with_calls() -> None:
    state = nine(("2: renege 1", "0: renege 2"))
    replayed = replay(record_from_state(state))
    assert summary(replayed) == summary(state)
    assert any(a == "2: renege 1" for a in record_from_state(state).hands[0].actions)


# --- records ---------------------------------------------------------------------------------


def test_jokers_game_record_replays_with_discards() -> None:
    game: Game = make_game("dummy-whist", {"jokers": True})
    state = game.new_game()
    rng = random.Random(5)
    while state.phase is not Phase.GAME_OVER and state.finished_hands < 2:
        if state.phase in (Phase.DEAL, Phase.SCORING):
            step(state, game.random_deal(state, rng))
        else:
            step(state, rng.choice(game.legal_actions(state)))
    record = record_from_state(state)
    assert record.options == {"jokers": True}
    assert any(": discard " in a for h in record.hands for a in h.actions)
    assert summary(replay(record)) == summary(state)


def test_discard_notation_round_trips() -> None:
    action = parse_action("1: discard LJ 4C")
    assert action == Discard(1, (LITTLE_JOKER, c("4C")))
    assert str(action) == "1: discard LJ 4C"


def test_breaking_a_joker_rule_in_honour_mode_is_a_renege() -> None:
    state = joker_table("notrump", "0: direction high", {"honour": True},
                        h0="BJ 5H", h1="LJ 9H", h3="3H 4C", h2="2C 3C")
    act(state, "0: play BJ")  # led while holding a heart
    act(state, "1: play 9H")  # the first card with a suit sets hearts
    act(state, "3: play 4C")  # a renege: the dummy holds 3H
    act(state, "2: play 2C")  # void: no renege
    _, ws = whist(state)
    assert ws.reneged[0] == 1 << 0 | 1 << 3
    assert state.tricks[-1].winner == 1


@pytest.mark.parametrize("name", ["dummy-whist", "double-dummy-whist"])
def test_the_play_is_plain_without_honour_mode(name: str) -> None:
    # Without honour mode there is no renege to call or note: the engine's fast paths for
    # plain plays apply; with it, renege calls are listed and made out of turn.
    plain = make_game(name)
    assert plain.plain_card_play() and plain.turns_only and not plain.has_extra_play_actions
    honour = make_game(name, {"honour": True})
    assert not honour.plain_card_play() and not honour.turns_only
    assert honour.has_extra_play_actions
