"""Three-Player "Dummy Hand" Spades: every ruling and option, by hand-computed scenarios.

Most scenarios play a whole hand from an explicit deal built by ``scripted_hand``: the
deal is made from a list of trick winners, so the tricks each seat takes are chosen by the
test and the expected scores are worked out by hand from the bids and those tricks.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tricktable import IllegalAction, NotationError, OptionError, Phase, make_game, step
from tricktable.engine.actions import CHANCE, Bid, Deal, Flip, Peek, Play, parse_action
from tricktable.engine.cards import CLUBS, DIAMONDS, HEARTS, SPADES, card, card_str
from tricktable.engine.dummy import left_of, play_cycle
from tricktable.engine.game import Game
from tricktable.engine.records import record_from_state, replay, summary
from tricktable.engine.state import HandResult, State
from tricktable.games.dummy_hand_spades import DummyHandSpadesState

DUMMY = 3


# --- building hands whose tricks are chosen in advance --------------------------------------


def scripted_hand(
    dealer: int, declarer: int, winners: list[int], ruffer: int
) -> tuple[Deal, list[Play]]:
    """A deal and the plays of a whole hand in which trick t is won by ``winners[t]``.

    Tricks 1-9 are hearts, diamonds and clubs, three tricks each, every seat following
    with one card from a block of four ranks (the winner holds the block's top card).
    The 2s of those suits go to the three seats other than ``ruffer``, who holds four spades
    instead: in trick 10 the leader leads his 2, the other two throw theirs and ``ruffer``
    trumps with the 2S and wins (so ``winners[9]`` must be ``ruffer`` and ``winners[8]``
    not). Tricks 11-13 are spades, again by blocks of four. Every play follows suit and
    no spade is led before spades are broken. The first bidder leads trick 1; play goes
    round the cycle of the dummy sitting opposite ``declarer``.
    """
    assert len(winners) == 13 and winners[9] == ruffer and winners[8] != ruffer
    cycle = play_cycle(declarer)
    holders = [s for s in range(4) if s != ruffer]
    twos = {s: card(0, suit) for s, suit in zip(holders, (HEARTS, DIAMONDS, CLUBS), strict=True)}
    leader = left_of(dealer)
    tricks: list[list[tuple[int, int]]] = []
    for t, winner in enumerate(winners):
        start = cycle.index(leader)
        order = cycle[start:] + cycle[:start]
        if t == 9:
            cards = {s: twos[s] for s in holders}
            cards[ruffer] = card(0, SPADES)
        else:
            suit, block = (1 + t // 3, t % 3) if t < 9 else (SPADES, t - 10)
            ranks = [1 + 4 * block + i for i in range(4)]  # low to high
            cards = {winner: card(ranks[3], suit)}
            for s, r in zip([s for s in order if s != winner], ranks[:3], strict=True):
                cards[s] = card(r, suit)
        tricks.append([(s, cards[s]) for s in order])
        leader = winner
    hands = tuple(tuple(c for trick in tricks for s, c in trick if s == seat) for seat in range(4))
    plays = [Play.of(s, c) for trick in tricks for s, c in trick]
    return Deal(CHANCE, dealer, hands), plays


def bidding_order(dealer: int) -> list[int]:
    first = left_of(dealer)
    return [first, left_of(first), dealer]


def bid_all(state: State, bids: dict[int, str]) -> None:
    """Bid for the three players in bidding order: ``{seat: "7 nil=1,3"}``."""
    for seat in bidding_order(state.dealer):
        step(state, parse_action(f"{seat}: bid {bids[seat]}"))


def play_hand(
    state: State,
    dealer: int,
    bids: dict[int, str],
    declarer: int,
    winners: list[int],
    ruffer: int,
) -> HandResult:
    """Deal a scripted hand, bid, check the declarer, play it out; the hand's result."""
    deal, plays = scripted_hand(dealer, declarer, winners, ruffer)
    step(state, deal)
    bid_all(state, bids)
    assert isinstance(state, DummyHandSpadesState)
    assert state.declarer == declarer
    for play in plays:
        step(state, play)
    for seat in range(4):
        assert state.won[seat] == winners.count(seat)
    return state.results[-1]


def one_hand(
    bids: dict[int, str], declarer: int, winners: list[int], ruffer: int, dealer: int = 2,
    **options: Any,
) -> HandResult:
    game = make_game("dummy-hand-spades", options)
    return play_hand(game.new_game(), dealer, bids, declarer, winners, ruffer)


def new_state(**options: Any) -> tuple[Game, DummyHandSpadesState]:
    game = make_game("dummy-hand-spades", options)
    state = game.new_game()
    assert isinstance(state, DummyHandSpadesState)
    return game, state


def refused(state: State, action: Any, rule: str) -> IllegalAction:
    """Step an illegal action: it must name ``rule`` (and what is allowed, while the game
    goes on) and leave the state as it was."""
    before = record_from_state(state).to_json(), state.phase, state.to_act
    with pytest.raises(IllegalAction) as err:
        step(state, action)
    assert err.value.rule == rule
    assert err.value.allowed or state.phase is Phase.GAME_OVER
    assert (record_from_state(state).to_json(), state.phase, state.to_act) == before
    return err.value


def test_scripted_hand_gives_thirteen_cards_to_every_seat() -> None:
    deal, plays = scripted_hand(2, 0, [1, 2, 1, 2, 1, 0, 0, 0, 0, 3, 3, 0, 3], 3)
    assert [len(h) for h in deal.hands] == [13, 13, 13, 13]
    assert len({c for h in deal.hands for c in h}) == 52
    assert len(plays) == 52


# --- the seed's worked example (ruling 7) ---------------------------------------------------

# Dealer 2, so seat 0 bids first: 0 bids 7 and declares, defenders 1 and 2 bid 5 and 6.
WORKED_BIDS = {0: "7", 1: "5", 2: "6"}
DEFENDERS_TAKE_5 = [1, 2, 1, 2, 1, 0, 0, 0, 0, 3, 3, 0, 3]  # declarer+dummy 8
DEFENDERS_TAKE_7 = [1, 2, 1, 2, 1, 2, 1, 0, 0, 3, 3, 3, 0]  # declarer+dummy 6


def test_worked_example_defenders_take_five() -> None:
    result = one_hand(WORKED_BIDS, 0, DEFENDERS_TAKE_5, ruffer=3)
    # "the 5-bidding defender wins 50 points, the 6-bidding defender is set 60 points, and
    # the declarer wins 71 points with one bag"
    assert result.scores == {"0": 71, "1": 50, "2": -60}
    assert result.details["bags"] == {"0": 1, "1": 0, "2": 0}
    assert result.details["team_tricks"] == {"declarer": 8, "defenders": 5}


def test_worked_example_defenders_take_seven() -> None:
    result = one_hand(WORKED_BIDS, 0, DEFENDERS_TAKE_7, ruffer=3)
    # "the 5-bidding defender wins 52 points with 2 bags, the 6-bidding defender wins 61
    # points with one bag, and the declarer is set 70 points"
    assert result.scores == {"0": -70, "1": 52, "2": 61}
    assert result.details["bags"] == {"0": 0, "1": 2, "2": 1}


def test_scores_and_bags_are_kept_per_player_across_hands() -> None:
    _, state = new_state()
    play_hand(state, 2, WORKED_BIDS, 0, DEFENDERS_TAKE_5, 3)
    # the deal passes to seat 0; seat 1 bids first now and the same bids make 0 declarer
    result = play_hand(state, 0, WORKED_BIDS, 0, DEFENDERS_TAKE_7, 3)
    assert result.totals == {"0": 71 - 70, "1": 50 + 52, "2": -60 + 61}
    assert result.details["bags"] == {"0": 1, "1": 2, "2": 1}
    assert state.phase is Phase.SCORING


def test_ten_bags_cost_a_hundred_and_the_rest_carry() -> None:
    # Dealer 2: 0 bids 0, 1 bids 1, 2 bids 2 and declares; the defenders take all 13.
    bids = {0: "0", 1: "1", 2: "2"}
    winners = [0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1]
    result = one_hand(bids, 2, winners, ruffer=0)
    # 0: 13 over a bid of 0 -> 13 points, 13 bags -> -100, 3 left
    # 1: 10 + 12 = 22, 12 bags -> -100, 2 left; 2: set -20
    assert result.scores == {"0": 13 - 100, "1": 22 - 100, "2": -20}
    assert result.details["bags"] == {"0": 3, "1": 2, "2": 0}


def test_bag_limit_and_penalty_options() -> None:
    bids = {0: "0", 1: "1", 2: "2"}
    winners = [0, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1]
    result = one_hand(bids, 2, winners, ruffer=0, bag_limit=5, bag_penalty=40)
    # 13 bags: two penalties of 40, 3 left; 12 bags: two penalties, 2 left
    assert result.scores == {"0": 13 - 80, "1": 22 - 80, "2": -20}
    assert result.details["bags"] == {"0": 3, "1": 2, "2": 0}
    result = one_hand(bids, 2, winners, ruffer=0, bag_limit=0)
    assert result.scores == {"0": 13, "1": 22, "2": -20}
    assert result.details["bags"] == {"0": 13, "1": 12, "2": 0}


# --- nil declarations (ruling 4) ------------------------------------------------------------


def test_defender_nil_on_the_other_defender_scores_for_the_bidder_alone() -> None:
    # Dealer 2: 0 bids 6 nil=1, 1 bids 4, 2 bids 7 and declares; 0 and 1 defend.
    bids = {0: "6 nil=1", 1: "4", 2: "7"}
    made = [0, 0, 0, 0, 0, 2, 2, 2, 2, 3, 3, 0, 2]  # defenders 6, all by seat 0
    result = one_hand(bids, 2, made, ruffer=3)
    # 0: 60 + 100 (seat 1 took nothing); 1: 4 bid, 6 taken -> 42, no nil points; 2: 70
    assert result.scores == {"0": 160, "1": 42, "2": 70}
    assert result.details["nils"] == [{"bidder": 0, "hand": 1, "made": True}]
    failed = [0, 0, 0, 0, 1, 2, 2, 2, 2, 3, 3, 0, 2]  # defenders 6, one of them by seat 1
    result = one_hand(bids, 2, failed, ruffer=3)
    # seat 1's trick fails the nil but still counts for the defenders: 0 makes 6 (60 - 100)
    assert result.scores == {"0": -40, "1": 42, "2": 70}
    assert result.details["nils"] == [{"bidder": 0, "hand": 1, "made": False}]


def test_first_bidder_nils_on_dummy_and_both_others_when_he_declares() -> None:
    # Dealer 2: 0 bids 8 nil=1,2,3 and declares; only the dummy's nil applies.
    bids = {0: "8 nil=1,2,3", 1: "4", 2: "5"}
    winners = [0, 0, 1, 2, 0, 0, 0, 1, 2, 0, 0, 0, 0]  # dummy none, 1 and 2 two each
    result = one_hand(bids, 0, winners, ruffer=0)
    # 0: 9 on 8 -> 81, + 100 for the dummy's nil (1's and 2's tricks do not matter to him)
    # 1: bid 4, defenders 4 -> 40; 2: bid 5 -> -50
    assert result.scores == {"0": 181, "1": 40, "2": -50}
    assert result.details["nils"] == [{"bidder": 0, "hand": 3, "made": True}]
    assert result.details["bags"] == {"0": 1, "1": 0, "2": 0}


def test_first_bidder_nils_on_dummy_and_both_others_when_he_defends() -> None:
    # Dealer 2: 0 bids 5 nil=1,2,3, 1 bids 8 and declares: only 0's nil on 2 applies.
    bids = {0: "5 nil=1,2,3", 1: "8", 2: "4"}
    winners = [1, 3, 1, 3, 0, 0, 1, 3, 1, 0, 1, 1, 0]  # 1+3 take 9, seat 2 none
    result = one_hand(bids, 1, winners, ruffer=0)
    # 0: defenders 4 < 5 -> -50, + 100 for seat 2's nil; the nils on 1 and the dummy (both
    # took tricks) are ignored. 1: 9 on 8 -> 81. 2: bid 4 -> 40.
    assert result.scores == {"0": 50, "1": 81, "2": 40}
    assert result.details["nils"] == [{"bidder": 0, "hand": 2, "made": True}]


def test_defender_nil_on_both_defenders_is_assessed_for_each() -> None:
    # Dealer 2: 0 bids 3 nil=0,1, 1 bids 2, 2 bids 9 and declares.
    bids = {0: "3 nil=0,1", 1: "2", 2: "9"}
    winners = [1, 2, 3, 2, 3, 2, 2, 2, 2, 3, 3, 2, 2]  # seat 1 one trick, seat 0 none
    result = one_hand(bids, 2, winners, ruffer=3)
    # 0: defenders 1 < 3 -> -30, +100 (own hand clean), -100 (seat 1 took one)
    # 1: -20; 2: 12 on 9 -> 93, 3 bags
    assert result.scores == {"0": -30, "1": -20, "2": 93}
    assert result.details["nils"] == [
        {"bidder": 0, "hand": 0, "made": True},
        {"bidder": 0, "hand": 1, "made": False},
    ]
    clean = [2, 2, 3, 2, 3, 2, 2, 2, 2, 3, 3, 2, 2]  # the defenders take nothing
    result = one_hand({0: "2 nil=0,1", 1: "3", 2: "7"}, 2, clean, ruffer=3)
    # 0: -20 + 100 + 100; 1: -30; 2: 13 on 7 -> 76
    assert result.scores == {"0": 180, "1": -30, "2": 76}


def test_nil_on_the_dummy_by_a_defender_is_ignored() -> None:
    # Dealer 2: 1 bids 3 nil=3 but 2 declares; the dummy takes tricks and 1 loses nothing.
    bids = {0: "4", 1: "3 nil=3", 2: "6"}
    winners = [0, 1, 3, 2, 3, 2, 0, 1, 2, 3, 3, 0, 2]
    result = one_hand(bids, 2, winners, ruffer=3)
    # defenders 0+1 take 5: 0 -> 41, 1 -> 32; 2+3 take 8 on 6 -> 62
    assert result.scores == {"0": 41, "1": 32, "2": 62}
    assert result.details["nils"] == []


def test_nil_on_the_declarer_by_a_defender_and_on_a_defender_by_the_declarer_are_ignored() -> None:
    # Dealer 2: 0 bids 4 nil=1, 1 bids 9 nil=0 and declares, 2 bids 3.
    bids = {0: "4 nil=1", 1: "9 nil=0", 2: "3"}
    winners = [1, 2, 1, 0, 1, 3, 1, 3, 1, 3, 1, 1, 2]  # 0 and 2 both take tricks
    result = one_hand(bids, 1, winners, ruffer=3)
    # defenders 0+2 take 3: 0 -> -40, 2 -> 30; 1+3 take 10 on 9 -> 91; no nil applies
    assert result.scores == {"0": -40, "1": 91, "2": 30}
    assert result.details["nils"] == []


def test_declarer_nil_on_own_hand_applies() -> None:
    bids = {0: "7 nil=0", 1: "2", 2: "3"}
    failed = [3, 3, 1, 3, 2, 3, 3, 3, 1, 0, 3, 3, 3]  # declarer takes only the ruff
    result = one_hand(bids, 0, failed, ruffer=0)
    # 0+3 take 10 on 7 -> 73, own nil failed -100; defenders take 3: 1 -> 21, 2 -> 30
    assert result.scores == {"0": -27, "1": 21, "2": 30}
    assert result.details["nils"] == [{"bidder": 0, "hand": 0, "made": False}]
    made = [3, 3, 1, 3, 2, 3, 3, 3, 1, 3, 3, 3, 3]  # the dummy covers every trick
    result = one_hand(bids, 0, made, ruffer=3)
    assert result.scores == {"0": 173, "1": 21, "2": 30}
    assert result.details["nils"] == [{"bidder": 0, "hand": 0, "made": True}]


def test_example_record_with_nils_scores_as_documented() -> None:
    # examples/dummy-hand-spades-11-001: 1 bids 7 nil=1,3, 2 bids 10, 0 bids 7
    from test_examples import EXAMPLES
    from tricktable.engine.records import load_record

    result = summary(replay(load_record(EXAMPLES / "dummy-hand-spades-11-001.json")))
    hand = result["hands"][0]
    assert hand["declarer"] == 2
    assert hand["nils"] == [{"bidder": 1, "hand": 1, "made": False}]
    assert hand["scores"] == {"0": -70, "1": -170, "2": 100}


# --- bidding (rulings 2 and 3) --------------------------------------------------------------


def deal_for_bidding(state: State, dealer: int = 2) -> Deal:
    deal, _ = scripted_hand(dealer, 0, DEFENDERS_TAKE_5, 3)
    step(state, deal)
    return deal


def test_highest_bid_declares_and_the_first_to_bid_it_wins_a_tie() -> None:
    for bids, declarer in [
        ({0: "6", 1: "6", 2: "6"}, 0),  # all equal: the first bidder
        ({0: "5", 1: "7", 2: "7"}, 1),  # 1 bid 7 before 2 did
        ({0: "5", 1: "6", 2: "7"}, 2),
        ({0: "0", 1: "0", 2: "0"}, 0),
    ]:
        game, state = new_state()
        deal_for_bidding(state)
        assert game.controller(state, DUMMY) == -1  # nobody plays the dummy yet
        bid_all(state, bids)
        assert state.declarer == declarer
        assert game.controller(state, DUMMY) == declarer
        assert game.observe(state, declarer).controls == (declarer, DUMMY)
        assert game.observe(state, DUMMY).controls == ()
    # with dealer 0 the bidding order is 1, 2, 0: a tie between 2 and 0 goes to 2
    game, state = new_state()
    deal_for_bidding(state, dealer=0)
    bid_all(state, {1: "3", 2: "8", 0: "8"})
    assert state.declarer == 2


def test_bidding_starts_left_of_the_dealer_and_ends_with_the_dealer() -> None:
    _game, state = new_state()
    deal_for_bidding(state, dealer=1)
    assert state.phase is Phase.BIDDING and state.to_act == 2
    refused(state, parse_action("0: bid 4"), "turn order")
    step(state, parse_action("2: bid 4"))
    assert state.to_act == 0
    step(state, parse_action("0: bid 4"))
    assert state.to_act == 1
    step(state, parse_action("1: bid 4"))
    assert state.phase is Phase.PLAY


def test_bids_are_zero_to_thirteen_with_nils_on_any_of_the_four_hands() -> None:
    _game, state = new_state()
    deal_for_bidding(state)
    refused(state, parse_action("0: bid 14"), "bids")
    with pytest.raises(NotationError, match="digits"):
        parse_action("0: bid -1")  # the notation has no negative numbers
    refused(state, parse_action("0: bid 4 uptown"), "bids")
    refused(state, parse_action("0: bid 4 nil=4"), "nil declarations")
    refused(state, Bid(0, 4, (1, 1)), "nil declarations")
    step(state, parse_action("0: bid 13 nil=0,1,3"))
    assert state.bids[0] == Bid(0, 13, (0, 1, 3))


def test_at_most_three_nil_declarations_by_default() -> None:
    game, state = new_state()
    deal_for_bidding(state)
    err = refused(state, parse_action("0: bid 5 nil=0,1,2,3"), "nil declarations")
    assert "at most 3" in str(err)
    legal = game.legal_actions(state)
    assert len(legal) == 14 * (1 + 4 + 6 + 4)  # every nil set of size 0..3, bids 0..13
    assert Bid(0, 5, (0, 1, 2)) in legal and Bid(0, 5, (0, 1, 2, 3)) not in legal
    step(state, parse_action("0: bid 5 nil=0,1,2"))


@pytest.mark.parametrize("max_nils", [0, 1, 4])
def test_max_nils_option(max_nils: int) -> None:
    game, state = new_state(max_nils=max_nils)
    deal_for_bidding(state)
    sizes = {len(a.nils) for a in game.legal_actions(state) if isinstance(a, Bid)}
    assert max(sizes) == max_nils
    too_many = Bid(0, 5, (0, 1, 2, 3)[: max_nils + 1]) if max_nils < 4 else None
    if too_many is not None:
        refused(state, too_many, "nil declarations")
    step(state, Bid(0, 5, (0, 1, 2, 3)[:max_nils]))


def test_options_are_checked() -> None:
    with pytest.raises(OptionError):
        make_game("dummy-hand-spades", {"max_nils": 5})
    with pytest.raises(OptionError):
        make_game("dummy-hand-spades", {"peek": "five-peeky"})
    with pytest.raises(OptionError):
        make_game("dummy-hand-spades", {"target": 0})
    game = make_game("dummy-hand-spades")
    assert game.options.to_mapping(include_defaults=True) == {
        "target": 500, "max_nils": 3, "spades_broken": True, "bag_limit": 10,
        "bag_penalty": 100, "peek": "none", "variant": "standard",
    }


# --- the deal (ruling 1) --------------------------------------------------------------------


def test_first_dealer_is_a_real_player_and_the_deal_skips_the_dummy() -> None:
    game = make_game("dummy-hand-spades")
    dealers = set()
    for seed in range(60):
        state = game.new_game()
        rng = random.Random(seed)
        deal = game.random_deal(state, rng)
        dealers.add(deal.dealer)
        assert [len(h) for h in deal.hands] == [13, 13, 13, 13] and deal.extra == ()
    assert dealers == {0, 1, 2}
    # the rotation 2 -> 0 -> 1 -> 2, never seat 3
    _, state = new_state()
    rotation = []
    for _hand in range(4):
        deal = state.game.random_deal(state, random.Random(len(rotation)))
        if rotation:
            assert deal.dealer == left_of(rotation[-1])
        else:
            deal = Deal(CHANCE, 2, deal.hands)
        step(state, deal)
        rotation.append(state.dealer)
        bid_all(state, {0: "4", 1: "4", 2: "4"})
        while state.phase is Phase.PLAY:
            step(state, state.game.legal_actions(state)[0])
    assert rotation == [2, 0, 1, 2]


def test_the_dummy_cannot_deal() -> None:
    _, state = new_state()
    deal, _ = scripted_hand(2, 0, DEFENDERS_TAKE_5, 3)
    refused(state, Deal(CHANCE, 3, deal.hands), "dealer")


# --- play (ruling 5) ------------------------------------------------------------------------


def test_first_bidder_leads_before_the_dummy_is_shown_then_the_dummy_sits_opposite() -> None:
    # Dealer 0: seat 1 bids first and leads; 2 declares, so the order is 2, 0, dummy, 1.
    game, state = new_state()
    winners = [2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 2, 2, 2]
    deal, plays = scripted_hand(0, 2, winners, 3)
    step(state, deal)
    bid_all(state, {1: "4", 2: "7", 0: "5"})
    assert state.phase is Phase.PLAY and state.to_act == 1
    for seat in range(3):  # face down for everyone, the declarer included
        assert game.observe(state, seat).visible[DUMMY] == 0
        assert game.observe(state, seat).info["dummy_shown"] is False
    # the declarer may not lead, nor play the dummy's card first
    refused(state, plays[1], "turn order")
    step(state, plays[0])
    assert plays[0].seat == 1
    for seat in range(3):
        assert game.observe(state, seat).visible[DUMMY] == state.hands[DUMMY]
        assert game.observe(state, seat).info["dummy_shown"] is True
    seats_to_act = []
    for play in plays[1:4]:
        seats_to_act.append(state.to_act)
        step(state, play)
    assert seats_to_act == [2, 0, 3]
    assert state.tricks[0].seats == (1, 2, 0, 3)
    # the declarer chooses the dummy's cards: the legal plays show in his observation only
    for play in plays[4:]:
        if state.to_act == DUMMY:
            assert game.observe(state, 2).legal == tuple(game.legal_actions(state))
            assert game.observe(state, DUMMY).legal == ()
            assert game.observe(state, 0).legal == ()
        step(state, play)
    for trick in state.tricks:
        start = trick.seats.index(2)
        assert (trick.seats[start:] + trick.seats[:start]) == (2, 0, 3, 1)


def test_play_order_for_each_declarer() -> None:
    # Dealer 2: seat 0 leads trick 1 whoever declares.
    for declarer, first_trick in [(0, (0, 1, 3, 2)), (1, (0, 1, 2, 3)), (2, (0, 3, 1, 2))]:
        _, state = new_state()
        winners = [0, 1, 2, 3, 0, 1, 2, 0, 1, 3, 3, 3, 3]
        deal, plays = scripted_hand(2, declarer, winners, 3)
        step(state, deal)
        bids = {0: "3", 1: "3", 2: "3"}
        bids[declarer] = "9"
        bid_all(state, bids)
        for play in plays[:4]:
            step(state, play)
        assert state.tricks[0].seats == first_trick


def test_a_trick_won_by_the_dummy_is_led_from_the_dummy() -> None:
    _game, state = new_state()
    winners = [3, 0, 3, 1, 2, 0, 3, 0, 0, 3, 3, 0, 2]
    deal, plays = scripted_hand(2, 0, winners, 3)
    step(state, deal)
    bid_all(state, {0: "7", 1: "3", 2: "3"})
    for play in plays[:4]:
        step(state, play)
    assert state.tricks[0].winner == DUMMY
    assert state.to_act == DUMMY
    # the declarer must lead from the board: a card from his own hand is refused
    own = Play.of(0, next(c for c in range(52) if state.hands[0] >> c & 1))
    refused(state, own, "turn order")
    step(state, plays[4])
    assert state.trick_seats == [DUMMY]
    for play in plays[5:8]:
        step(state, play)
    assert state.tricks[1].winner == 0 and state.to_act == 0


def test_follow_suit_is_enforced() -> None:
    _game, state = new_state()
    deal, plays = scripted_hand(2, 0, DEFENDERS_TAKE_5, 3)
    step(state, deal)
    bid_all(state, WORKED_BIDS)
    step(state, plays[0])  # a heart
    seat = state.to_act
    off_suit = next(c for c in range(13, 52) if state.hands[seat] >> c & 1 and c // 13 != 1)
    refused(state, Play.of(seat, off_suit), "follow suit")
    not_held = next(c for c in range(52) if not state.hands[seat] >> c & 1)
    refused(state, Play.of(seat, not_held), "own cards")


def test_spades_may_not_be_led_until_broken() -> None:
    _, state = new_state()
    deal, _plays = scripted_hand(2, 0, DEFENDERS_TAKE_5, 3)
    step(state, deal)
    bid_all(state, WORKED_BIDS)
    spade = next(c for c in range(13) if state.hands[0] >> c & 1)
    refused(state, Play.of(0, spade), "spades not broken")
    # the option off: any card may lead
    _game, state = new_state(spades_broken=False)
    step(state, deal)
    bid_all(state, WORKED_BIDS)
    step(state, Play.of(0, spade))


def test_a_leader_holding_only_spades_may_lead_one() -> None:
    _game, state = new_state()
    hands = tuple(
        tuple(card(r, suit) for r in range(13)) for suit in (SPADES, HEARTS, DIAMONDS, CLUBS)
    )
    step(state, Deal(CHANCE, 2, hands))  # seat 0 holds all the spades and leads
    bid_all(state, WORKED_BIDS)
    step(state, Play.of(0, card(12, SPADES)))
    assert state.trick_cards == [card(12, SPADES)]


# --- the end of the game (ruling 8) ---------------------------------------------------------


def test_game_ends_after_a_hand_that_reaches_the_target() -> None:
    _game, state = new_state(target=60)
    play_hand(state, 2, WORKED_BIDS, 0, DEFENDERS_TAKE_5, 3)
    assert state.phase is Phase.GAME_OVER and state.winner == 0  # 71 >= 60
    refused(state, parse_action("0: bid 4"), "game over")
    _, state = new_state(target=72)
    play_hand(state, 2, WORKED_BIDS, 0, DEFENDERS_TAKE_5, 3)
    assert state.phase is Phase.SCORING and state.winner is None


def test_a_tie_for_first_plays_another_hand() -> None:
    _game, state = new_state(target=50)
    # Dealer 2: 0 bids 9 and declares, the defenders bid 5 each and take 6: 51 and 51.
    winners = [1, 2, 1, 2, 1, 2, 0, 0, 0, 3, 3, 3, 0]
    result = play_hand(state, 2, {0: "9", 1: "5", 2: "5"}, 0, winners, 3)
    assert result.totals == {"0": -90, "1": 51, "2": 51}
    assert state.phase is Phase.SCORING and state.winner is None
    # Dealer 0: 1 bids 4, 2 bids 3, 0 bids 9 and declares; defenders take 6 again.
    result = play_hand(state, 0, {1: "4", 2: "3", 0: "9"}, 0, winners, 3)
    assert result.scores == {"0": -90, "1": 42, "2": 33}
    assert state.phase is Phase.GAME_OVER and state.winner == 1
    assert summary(state)["winner"] == 1 and summary(state)["finished"] is True


# --- peeking and flipping (ruling 9) --------------------------------------------------------


def dummy_cards(deal: Deal, *positions: int) -> int:
    return sum(1 << deal.hands[DUMMY][p] for p in positions)


def test_no_reveal_phase_without_peeking() -> None:
    _, state = new_state()
    deal_for_bidding(state)
    assert state.phase is Phase.BIDDING
    refused(state, parse_action("0: peek 0 1 2"), "bidding phase")


def test_peeks_are_private_and_may_overlap() -> None:
    game, state = new_state(peek="three-peeky")
    deal, plays = scripted_hand(2, 0, DEFENDERS_TAKE_5, 3)
    step(state, deal)
    assert state.phase is Phase.REVEAL and state.to_act == 0  # bidding order: 0, 1, 2
    assert len(game.legal_actions(state)) == 286  # 13 choose 3
    refused(state, parse_action("0: bid 4"), "reveal phase")
    refused(state, parse_action("1: peek 0 1 2"), "turn order")
    refused(state, parse_action("0: peek 0 1"), "peeking")
    refused(state, parse_action("0: peek 0 1 2 3"), "peeking")
    refused(state, parse_action("0: peek 0 0 1"), "peeking")
    refused(state, parse_action("0: peek 0 1 13"), "peeking")
    refused(state, parse_action("0: flip 0 1 2"), "flipping")
    step(state, parse_action("0: peek 0 1 2"))
    step(state, parse_action("1: peek 2 3 4"))  # overlaps seat 0's pick at position 2
    step(state, parse_action("2: peek 12 11 10"))
    assert state.phase is Phase.BIDDING and state.to_act == 0
    picks = {0: (0, 1, 2), 1: (2, 3, 4), 2: (10, 11, 12)}
    for seat, positions in picks.items():
        obs = game.observe(state, seat)
        assert obs.visible[DUMMY] == dummy_cards(deal, *positions)
        assert obs.visible[(seat + 1) % 3] == 0
        assert obs.info["peeked"] == {p: card_str(deal.hands[DUMMY][p]) for p in positions}
        # the positions everybody picked are public, the cards are not
        assert obs.history == ("0: peek 0 1 2", "1: peek 2 3 4", "2: peek 12 11 10")
        assert obs.info["peeks"] == {0: (0, 1, 2), 1: (2, 3, 4), 2: (12, 11, 10)}
        assert obs.info["flipped"] == {}
    assert game.observe(state, DUMMY).info["peeked"] == {}
    # through the bidding the dummy stays face down but for one's own peeks
    bid_all(state, WORKED_BIDS)
    assert game.observe(state, 0).visible[DUMMY] == dummy_cards(deal, 0, 1, 2)
    assert game.observe(state, 1).visible[DUMMY] == dummy_cards(deal, 2, 3, 4)
    step(state, plays[0])
    for seat in range(3):
        assert game.observe(state, seat).visible[DUMMY] == state.hands[DUMMY]


def test_four_peeky_picks_four() -> None:
    game, state = new_state(peek="four-peeky")
    deal_for_bidding(state, dealer=0)
    assert state.phase is Phase.REVEAL and state.to_act == 1
    assert len(game.legal_actions(state)) == 715  # 13 choose 4
    refused(state, parse_action("1: peek 0 1 2"), "peeking")
    step(state, parse_action("1: peek 0 1 2 3"))
    step(state, parse_action("2: peek 0 1 2 3"))
    step(state, parse_action("0: peek 9 1 5 3"))
    assert state.phase is Phase.BIDDING and state.to_act == 1


def test_flips_are_public_and_only_face_down_cards_flip() -> None:
    game, state = new_state(peek="flip-2")
    deal = deal_for_bidding(state)
    refused(state, parse_action("0: peek 0 5"), "peeking")
    refused(state, parse_action("0: flip 0"), "flipping")
    step(state, parse_action("0: flip 0 5"))
    err = refused(state, parse_action("1: flip 5 6"), "flipping")
    assert "already face up" in str(err)
    assert Flip(1, (5, 6)) not in game.legal_actions(state)
    assert len(game.legal_actions(state)) == 55  # 11 face-down cards choose 2
    step(state, parse_action("1: flip 6 7"))
    step(state, parse_action("2: flip 1 2"))
    assert state.phase is Phase.BIDDING
    flipped = dummy_cards(deal, 0, 5, 6, 7, 1, 2)
    for seat in range(3):
        obs = game.observe(state, seat)
        assert obs.visible[DUMMY] == flipped
        assert obs.info["peeked"] == {}
        assert set(obs.info["flipped"]) == {0, 1, 2, 5, 6, 7}
        assert obs.info["flips"] == {0: (0, 5), 1: (6, 7), 2: (1, 2)}


def test_flip_four_leaves_one_card_face_down() -> None:
    game, state = new_state(peek="flip-4")
    deal = deal_for_bidding(state)
    step(state, parse_action("0: flip 0 1 2 3"))
    step(state, parse_action("1: flip 4 5 6 7"))
    assert len(game.legal_actions(state)) == 5  # 5 face-down cards choose 4
    step(state, parse_action("2: flip 8 9 10 11"))
    for seat in range(3):
        assert game.observe(state, seat).visible[DUMMY] == dummy_cards(deal, *range(12))


@pytest.mark.parametrize("n", [1, 3])
def test_flip_n_picks_n(n: int) -> None:
    game, state = new_state(peek=f"flip-{n}")
    deal_for_bidding(state)
    assert all(isinstance(a, Flip) and len(a.positions) == n for a in game.legal_actions(state))
    step(state, Flip(0, tuple(range(n))))


# --- public information, records ------------------------------------------------------------


def test_public_info_for_bots_and_screens() -> None:
    game, state = new_state(peek="three-peeky", target=300)
    deal, _plays = scripted_hand(2, 1, [0, 1, 2, 3, 0, 1, 2, 3, 0, 3, 3, 3, 3], 3)
    step(state, deal)
    for seat in (0, 1, 2):
        step(state, Peek(seat, (0, 1, 2)))
    step(state, parse_action("0: bid 4 nil=0,2,3"))
    info = game.observe(state, 2).info
    assert info["bids"] == ({"tricks": 4, "nils": (0, 2, 3)}, None, None)
    assert info["declarer"] is None and info["team"] is None
    step(state, parse_action("1: bid 8 nil=3"))
    step(state, parse_action("2: bid 5"))
    info = game.observe(state, 2).info
    assert info["declarer"] == 1 and info["team"] == (1, 3) and info["defenders"] == (2, 0)
    assert info["nils"] == ((0, 0), (0, 2), (1, 3))  # 0's nil on the dummy does not apply
    assert info["target"] == 300 and info["bags"] == {"0": 0, "1": 0, "2": 0}
    assert info["peek"] == "three-peeky" and info["spades_broken"] is False


def test_record_round_trip_with_peeks_and_nils() -> None:
    _game, state = new_state(peek="three-peeky", target=50)
    deal, plays = scripted_hand(2, 0, DEFENDERS_TAKE_5, 3)
    step(state, deal)
    for seat in (0, 1, 2):
        step(state, Peek(seat, (seat, 4, 9)))
    bid_all(state, {0: "7 nil=3", 1: "5 nil=1,2", 2: "6"})
    for play in plays:
        step(state, play)
    record = record_from_state(state)
    assert record.options == {"peek": "three-peeky", "target": 50}
    actions = record.hands[0].actions
    assert actions[:6] == [
        "0: peek 0 4 9", "1: peek 1 4 9", "2: peek 2 4 9",
        "0: bid 7 nil=3", "1: bid 5 nil=1,2", "2: bid 6",
    ]
    assert actions[6] == str(plays[0])
    again = replay(record)
    assert summary(again) == summary(state)
    # 0: 71 - 100 (the dummy took 3 tricks); 1: 50, his nil on 2 fails (2 took 2), the one
    # on himself too (1 took 3): -150; 2: -60
    assert summary(state)["totals"] == {"0": -29, "1": -150, "2": -60}
    assert state.results[0].details["bags"] == {"0": 1, "1": 0, "2": 0}


def test_errors_name_the_rule_and_what_is_allowed() -> None:
    _game, state = new_state(peek="flip-1")
    deal_for_bidding(state)
    err = refused(state, parse_action("0: flip 14"), "flipping")
    assert "0 1 2 3" in err.allowed
    step(state, parse_action("0: flip 3"))
    err = refused(state, parse_action("1: flip 3"), "flipping")
    assert "flip 1" in err.allowed and "3" not in err.allowed.split(": ")[1].split()
    for seat in (1, 2):
        step(state, Flip(seat, (seat + 5,)))
    err = refused(state, parse_action("0: bid 2 nil=7"), "nil declarations")
    assert "bid 0..13" in err.allowed

