"""Standard partnership Spades: every ruling and option, by hand-computed scenarios."""

from __future__ import annotations

import pickle
import random

import pytest

from tricktable import IllegalAction, Phase, State, make_game, step
from tricktable.engine.actions import Bid, Give, Pass, Play, parse_action
from tricktable.engine.cards import parse_card
from tricktable.engine.records import HandRecord, Record, replay, summary
from tricktable.games.spades import Spades, SpadesOptions, SpadesState

# Each seat holds one whole suit: seat 0 spades, 1 hearts, 2 diamonds, 3 clubs.
ONE_SUIT_EACH = {
    "0": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "1": "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "2": "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "3": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
}


def scored(bids: list[int], won: list[int], options: dict[str, object] | None = None,
           blind: int = -1, bags: tuple[int, int] = (0, 0)) -> tuple[list[int], dict[str, object]]:
    """Score a hand from bids and tricks won, per team."""
    game = make_game("spades", options)
    state = game.new_game()
    assert isinstance(state, SpadesState)
    state.bids = [Bid(s, b, blind=(s == blind)) for s, b in enumerate(bids)]
    state.won = list(won)
    state.bags = list(bags)
    return game.score_hand(state)


def test_contract_made_scores_ten_per_trick_plus_one_per_bag() -> None:
    scores, details = scored([3, 2, 4, 3], [4, 3, 3, 3])
    # team 0 bid 7 took 7: 70; team 1 bid 5 took 6: 51 and a bag
    assert scores == [70, 51]
    assert details["bags"] == {"0": 0, "1": 1}


def test_contract_set_loses_ten_per_trick_bid() -> None:
    scores, _ = scored([5, 2, 4, 1], [4, 5, 3, 1])
    assert scores == [-90, 33]


def test_nil_made_and_failed() -> None:
    # seat 0 nil takes 0: +100; partner bid 4 takes 5 -> 41
    assert scored([0, 3, 4, 3], [0, 4, 5, 4])[0] == [141, 62]
    # seat 0 nil takes 2: -100; by default its tricks count for the partner: 4 bid, 2+3 = 5
    assert scored([0, 3, 4, 3], [2, 4, 3, 4])[0] == [-100 + 41, 62]


def test_nil_tricks_do_not_count_for_partner_when_option_off() -> None:
    scores, _ = scored([0, 3, 4, 3], [2, 4, 3, 4], {"nil_tricks_count": False})
    assert scores == [-100 - 40, 62]


def test_both_partners_nil_every_trick_is_a_bag() -> None:
    scores, details = scored([0, 3, 0, 3], [1, 6, 0, 6])
    assert scores == [-100 + 100 + 1, 66]
    assert details["bags"] == {"0": 1, "1": 6}


def test_ten_bags_cost_a_hundred_and_carry_over() -> None:
    scores, details = scored([3, 2, 4, 1], [4, 3, 4, 2], bags=(9, 8))
    # team 0: 71 with 1 bag -> 10 bags -> -100, 0 left; team 1: 32, 2 bags -> 10 -> -100
    assert scores == [71 - 100, 32 - 100]
    assert details["bags"] == {"0": 0, "1": 0}
    scores, details = scored([3, 2, 4, 1], [4, 3, 4, 2], {"bag_limit": 5, "bag_penalty": 50},
                             bags=(3, 0))
    assert scores == [71, 32]
    assert details["bags"] == {"0": 4, "1": 2}


def test_blind_nil_is_worth_two_hundred() -> None:
    assert scored([0, 3, 4, 3], [0, 4, 5, 4], blind=0)[0] == [241, 62]
    assert scored([0, 3, 4, 3], [1, 4, 4, 4], blind=0)[0] == [-200 + 41, 62]


def _record(actions: list[str], options: dict[str, object] | None = None,
            dealer: int = 3, deal: dict[str, str] | None = None) -> Record:
    return Record("spades", dict(options or {}), {str(s): f"P{s}" for s in range(4)},
                  [HandRecord(dealer, deal or ONE_SUIT_EACH, actions)])


def test_scripted_hand_player_left_of_dealer_bids_and_leads() -> None:
    # dealer 3: seat 0 bids first and leads; spades are not broken, but seat 0 holds only
    # spades, so it may lead them; it takes all 13 tricks.
    bids = ["0: bid 13", "1: bid 0", "2: bid 0", "3: bid 0"]
    plays = []
    for rank in "AKQJT98765432":
        plays += [f"0: play {rank}S", f"1: play {rank}H", f"2: play {rank}D", f"3: play {rank}C"]
    state = replay(_record(bids + plays))
    result = summary(state)
    # team 0: 13 bid made (130) but seat 2's nil made (+100); team 1: two nils made (+200)
    assert result["hands"][0]["scores"] == {"0": 230, "1": 200}
    assert state.won == [13, 0, 0, 0]


def test_spades_may_not_be_led_until_broken() -> None:
    deal = {
        "0": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH",
        "1": "2S KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
        "2": "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
        "3": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
    }
    game = make_game("spades")
    state = replay(_record(["0: bid 4", "1: bid 4", "2: bid 1", "3: bid 1"], deal=deal))
    with pytest.raises(IllegalAction) as err:
        step(state, parse_action("0: play AS"))
    assert err.value.rule == "spades not broken"
    assert "AH" in err.value.allowed
    # with the option off, spades may be led at once
    off = replay(_record(["0: bid 4", "1: bid 4", "2: bid 1", "3: bid 1"],
                         {"spades_broken": False}, deal=deal))
    step(off, parse_action("0: play AS"))
    # once a spade is played on another suit, spades may be led
    step(state, parse_action("0: play AH"))
    step(state, parse_action("1: play 2H"))
    step(state, parse_action("2: play 2D"))
    step(state, parse_action("3: play 2C"))
    assert state.to_act == 0 and not state.trump_broken
    for text in ("0: play 3S", "1: play 2S", "2: play 3D", "3: play 3C"):
        step(state, parse_action(text))
    assert not state.trump_broken  # spades were led (only spades held), not played on a suit
    assert game.legal_plays(state) == state.hands[0]


def test_follow_suit_is_enforced_and_the_state_is_unchanged() -> None:
    deal = {
        "0": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH",
        "1": "2S KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
        "2": "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
        "3": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
    }
    state = replay(_record(["0: bid 4", "1: bid 4", "2: bid 1", "3: bid 1", "0: play AH"],
                           deal=deal))
    before = (list(state.hands), list(state.trick_cards), state.to_act)
    with pytest.raises(IllegalAction) as err:
        step(state, parse_action("1: play 2S"))
    assert err.value.rule == "follow suit"
    assert (list(state.hands), list(state.trick_cards), state.to_act) == before
    with pytest.raises(IllegalAction) as err:
        step(state, parse_action("2: play 2D"))
    assert err.value.rule == "turn order"
    with pytest.raises(IllegalAction) as err:
        step(state, parse_action("1: play AD"))
    assert err.value.rule == "own cards"
    with pytest.raises(IllegalAction):
        step(state, parse_action("1: bid 3"))
    assert (list(state.hands), list(state.trick_cards), state.to_act) == before


def test_trick_won_by_highest_trump_else_highest_of_led_suit() -> None:
    deal = {
        "0": "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH",
        "1": "2S KH QH JH TH 9H 8H 7H 6H 5H 4H 3H AD",
        "2": "2H KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
        "3": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
    }
    bids = ["3: bid 4", "0: bid 4", "1: bid 1", "2: bid 1"]
    # dealer 2: seat 3 leads the ace of clubs; seat 0, void in clubs, trumps with the 3S
    state = replay(_record([*bids, "3: play AC", "0: play 3S", "1: play AD", "2: play 2H"],
                           dealer=2, deal=deal))
    assert state.tricks[-1].winner == 0
    assert state.trump_broken
    # seat 0 leads the ace of hearts: nobody trumps, the highest heart wins
    for text in ("0: play AH", "1: play KH", "2: play KD", "3: play 2C"):
        step(state, parse_action(text))
    assert state.tricks[-1].winner == 0
    # a lower spade loses to a higher one
    for text in ("0: play KS", "1: play 2S", "2: play 2D", "3: play 3C"):
        step(state, parse_action(text))
    assert state.tricks[-1].winner == 0


def test_game_ends_at_target_higher_score_wins_tie_plays_on() -> None:
    game = make_game("spades", {"target": 100})
    state = game.new_game()
    state.totals = [120, 90]
    assert game.game_winner(state) == 0
    state.totals = [120, 120]
    assert game.game_winner(state) is None
    state.totals = [99, -300]
    assert game.game_winner(state) is None  # mercy is off by default
    mercy = make_game("spades", {"target": 100, "mercy": True})
    assert mercy.game_winner(state) == 0
    state.totals = [-150, -200]
    assert mercy.game_winner(state) == 0


def test_dealer_rotates_clockwise() -> None:
    game = make_game("spades")
    rng = random.Random(5)
    state = game.new_game()
    step(state, game.random_deal(state, rng))
    first = state.dealer
    assert state.to_act == (first + 1) % 4
    while state.phase is not Phase.SCORING:
        step(state, rng.choice(game.legal_actions(state)))
    deal = game.random_deal(state, rng)
    assert deal.dealer == (first + 1) % 4
    wrong = type(deal)(-1, (first + 2) % 4, deal.hands, deal.extra)
    with pytest.raises(IllegalAction) as err:
        step(state, wrong)
    assert err.value.rule == "dealer rotation"
    # check_deal skips the card test only for the very deal random_deal made (right by
    # construction): its dealer is still checked, and an equal copy or a changed deal is
    # tested card by card
    other = state.copy()
    other.dealer = (other.dealer + 1) % 4  # another table, a seat further on
    made = game.random_deal(other, rng)
    assert made.dealer == (first + 2) % 4
    before = (state.phase, state.hand_number, list(state.hands))
    with pytest.raises(IllegalAction) as err:
        step(state, made)
    assert err.value.rule == "dealer rotation"
    assert (state.phase, state.hand_number, list(state.hands)) == before
    deal = game.random_deal(state, rng)
    hands = list(deal.hands)
    hands[0], hands[1] = hands[0][:-1], hands[1] + hands[0][-1:]
    with pytest.raises(IllegalAction, match="dealt 12 cards"):
        step(state, type(deal)(-1, deal.dealer, tuple(hands), deal.extra))
    twice = (deal.hands[0][:-1] + deal.hands[0][:1], *deal.hands[1:])
    with pytest.raises(IllegalAction, match="dealt twice"):
        step(state, type(deal)(-1, deal.dealer, twice, deal.extra))
    step(state, type(deal)(-1, deal.dealer, deal.hands, deal.extra))  # equal: checked, taken
    assert [sum(1 << c for c in cards) for cards in deal.hands] == state.hands


def test_blind_nil_needs_option_and_a_trailing_team_then_partners_exchange_two() -> None:
    game = make_game("spades", {"blind_nil": True})
    rng = random.Random(2)
    # nobody trails: no blind decision, bidding starts at once and blind bids are refused
    state = game.new_game()
    step(state, game.random_deal(state, rng))
    assert state.phase is Phase.BIDDING
    with pytest.raises(IllegalAction) as err:
        step(state, Bid(state.to_act, 0, blind=True))
    assert "trails by 100" in err.value.detail
    # team 1 trails by 100: its seats decide first, before looking at their cards
    state = game.new_game()
    state.totals = [100, 0]
    step(state, game.random_deal(state, rng))
    assert state.phase is Phase.REVEAL
    seat = state.to_act
    assert seat % 2 == 1
    obs = game.observe(state, seat)
    assert obs.hand == 0 and obs.visible[seat] == 0  # cards still face down
    assert game.observe(state, (seat + 1) % 4).hand == state.hands[(seat + 1) % 4]
    assert set(map(str, game.legal_actions(state))) == {f"{seat}: bid 0 blind", f"{seat}: pass"}
    step(state, Bid(seat, 0, blind=True))
    assert game.observe(state, seat).hand == state.hands[seat]
    # the partner may no longer bid blind nil, so bidding starts, skipping the blind bidder
    assert state.phase is Phase.BIDDING
    bidders = []
    while state.phase is Phase.BIDDING:
        bidders.append(state.to_act)
        with pytest.raises(IllegalAction):
            step(state, Bid(state.to_act, 0, blind=True))  # only before looking
        step(state, Bid(state.to_act, 3))
    assert sorted(bidders) == sorted(s for s in range(4) if s != seat)
    assert state.phase is Phase.EXCHANGE
    partner = (seat + 2) % 4
    assert state.to_act == partner
    give = game.legal_actions(state)[0]
    assert isinstance(give, Give) and len(give.cards) == 2
    step(state, give)
    assert state.to_act == seat
    assert state.hands[seat].bit_count() == 15
    with pytest.raises(IllegalAction):
        step(state, Give(seat, (parse_card("AS"),)))
    step(state, game.legal_actions(state)[0])
    assert state.phase is Phase.PLAY
    assert all(h.bit_count() == 13 for h in state.hands)
    # declining ("pass") shows the cards and leaves the normal bidding
    state = game.new_game()
    state.totals = [100, 0]
    step(state, game.random_deal(state, rng))
    first = state.to_act
    step(state, Pass(first))
    assert game.observe(state, first).hand == state.hands[first]
    assert state.phase is Phase.REVEAL and state.to_act == (first + 2) % 4
    step(state, Pass(state.to_act))
    assert state.phase is Phase.BIDDING and state.to_act == (state.dealer + 1) % 4
    # with the option off there is never a blind decision
    off = make_game("spades")
    state = off.new_game()
    state.totals = [500, 0]
    step(state, off.random_deal(state, rng))
    assert state.phase is Phase.BIDDING
    with pytest.raises(IllegalAction) as err:
        step(state, Bid(state.to_act, 0, blind=True))
    assert err.value.rule == "blind nil"


def test_bids_out_of_range_are_refused() -> None:
    game = make_game("spades")
    state = game.new_game()
    step(state, game.random_deal(state, random.Random(1)))
    for bad in (Bid(state.to_act, 14), Bid(state.to_act, -1), Bid(state.to_act, 3, mode="uptown"),
                Bid(state.to_act, 3, nils=(1,))):
        with pytest.raises(IllegalAction):
            step(state, bad)
    assert state.actions == []


def test_play_in_the_bidding_phase_is_refused_naming_the_phase() -> None:
    game = make_game("spades")
    state = game.new_game()
    step(state, game.random_deal(state, random.Random(1)))
    card = next(c for c in range(52) if state.hands[state.to_act] >> c & 1)
    with pytest.raises(IllegalAction) as err:
        step(state, Play(state.to_act, card))
    assert err.value.rule == "bidding phase"
    assert "bid 0..13" in err.value.allowed


class _LinesAtOnce(Spades):
    """Spades writing each hand's lines at the end of the hand, as every game did."""

    def hand_lines_later(self, state, scores, details):  # type: ignore[no-untyped-def]
        return None


@pytest.mark.parametrize("options", [{}, {"blind_nil": True, "target": 300, "bag_limit": 3}])
def test_hand_lines_written_when_read_are_those_written_at_the_end_of_the_hand(
    options: dict[str, object],
) -> None:
    # Spades writes a hand's lines when they are first read, from what it kept of the
    # hand: read after the whole game (the state long moved on), from a copy, or through
    # pickle, they are the lines written at the end of the hand.
    for seed in range(30):
        games = [make_game("spades", options), _LinesAtOnce(SpadesOptions.from_mapping(options))]
        states = []
        for game in games:
            rng = random.Random(seed)
            state = game.new_game()
            while state.phase is not Phase.GAME_OVER and state.finished_hands < 12:
                step(state, game.random_deal(state, rng))
                while legal := game.legal_actions(state):
                    step(state, rng.choice(legal))
            states.append(state)
        later, at_once = states
        assert "lines" not in later.results[-1].__dict__  # not written yet
        copied = later.copy()
        assert copied.results == at_once.results
        assert later.results == at_once.results
        assert pickle.loads(pickle.dumps(later.results)) == at_once.results
        assert all(r.lines for r in later.results)


def test_a_deal_stepped_into_two_tables_gives_each_hands_of_its_own() -> None:
    # apply_deal takes the hands as sets from the check just made of the same deal: each
    # state still gets its own list (the second here applied without a check of its own)
    game = make_game("spades")
    deal = game.random_deal(game.new_game(), random.Random(3))
    first, second = game.new_game(), game.new_game()
    step(first, deal)
    game.apply(second, deal)
    assert first.hands == second.hands and first.hands is not second.hands
    while first.phase is not Phase.PLAY:
        step(first, game.legal_actions(first)[0])
    step(first, game.legal_actions(first)[0])
    assert [h.bit_count() for h in second.hands] == [13] * 4


def test_step_takes_a_listed_action_by_identity_and_an_equal_new_one_by_check() -> None:
    """``step`` applies the very object ``legal_actions`` listed without ``check`` (it is
    legal by being listed); an equal new object and a refused one still go through
    ``check``, and all end the same way."""
    game = make_game("spades")
    rng = random.Random(8)
    state = game.new_game()
    step(state, game.random_deal(state, rng))
    listed = game.legal_actions(state)[5]
    twin = state.copy()
    step(state, listed)
    game.legal_actions(twin)  # remembered as in ``state``
    step(twin, Bid(listed.seat, 5))
    assert twin.actions == state.actions and twin.to_act == state.to_act
    assert state.bids == twin.bids
    with pytest.raises(IllegalAction):  # a bid listed for a seat no longer to act
        step(state, listed)
    with pytest.raises(IllegalAction):
        step(state, Bid(state.to_act, 14))


def test_a_game_overriding_next_leader_is_asked_who_leads() -> None:
    """The winner leads without a call to ``next_leader`` only when a game leaves it as it
    is; a game that overrides it is asked after every trick."""

    class WinnersLeft(Spades):
        def next_leader(self, state: State, winner: int) -> int:
            return (winner + 1) % 4

    plain, odd = make_game("spades"), WinnersLeft()
    assert plain._winner_leads and not odd._winner_leads
    rng = random.Random(5)
    state = odd.new_game()
    step(state, odd.random_deal(state, rng))
    while not state.tricks:
        step(state, rng.choice(odd.legal_actions(state)))
    assert state.to_act == (state.tricks[0].winner + 1) % 4


def test_a_score_for_each_side_or_the_hand_is_not_counted() -> None:
    """A game whose ``score_hand`` gives a score too many is told so, and the totals are
    left as they were (``finish_hand`` tests the count once, not through strict zips)."""

    class ThreeSides(Spades):
        def score_hand(self, state: State) -> tuple[list[int], dict[str, object]]:
            return [10, 20, 30], {}

    game = ThreeSides()
    rng = random.Random(2)
    state = game.new_game()
    step(state, game.random_deal(state, rng))
    with pytest.raises(ValueError, match="scored 3 sides, not 2"):
        while True:
            step(state, rng.choice(game.legal_actions(state)))
    assert state.totals == [0, 0] and not state.results
