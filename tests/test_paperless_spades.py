"""Paperless Spades: every ruling (rulings.md, "Paperless Spades") by hand-built scenarios.

Most scenarios start from a chosen position after the pass (a "design": each seat's twelve
cards once the pass is complete) and work the deal back from it: each seat gives three of
its partner's designed cards, so the deal holds them in the giver's hand.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from harness import snapshot
from tricktable import IllegalAction, Phase, State, make_game, step
from tricktable.engine.actions import CHANCE, Bid, Deal, Give, parse_action
from tricktable.engine.cards import HEARTS, PAPERLESS_DECK, SPADES, parse_card, parse_set
from tricktable.engine.records import (
    HandRecord,
    Record,
    load_record,
    record_from_state,
    replay,
    summary,
)
from tricktable.games.paperless_spades import (
    PaperlessSpades,
    PaperlessState,
    ScoreItem,
    counting_cards,
    points_of,
    score_items,
)

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples"

# Seat 0 all the spades but 3 and 2 (gone) plus the ace of diamonds; seat 1 the hearts and
# the king of diamonds; seat 2 the other diamonds and the 2 of clubs; seat 3 the clubs.
DESIGN_A = [
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S AD",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H KD",
    "QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D 2C",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
]
# Seat 0 ten spades and two low diamonds; seat 2 holds the 4 of spades and the ace of
# diamonds.
DESIGN_B = [
    "AS KS QS JS TS 9S 8S 7S 6S 5S 3D 2D",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H KD",
    "AD QD JD TD 9D 8D 7D 6D 5D 4D 4S 2C",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
]


def gives_for(design: list[str]) -> list[str]:
    """Each seat gives the first three cards of its partner's design."""
    return [" ".join(design[(s + 2) % 4].split()[:3]) for s in range(4)]


def deal_for(design: list[str]) -> dict[str, str]:
    """The deal from which the gives of ``gives_for`` lead to ``design``."""
    gives = gives_for(design)
    deal = {}
    for s in range(4):
        received = set(gives[(s + 2) % 4].split())
        kept = [c for c in design[s].split() if c not in received]
        deal[str(s)] = " ".join(kept + gives[s].split())
    return deal


def give_actions(design: list[str], dealer: int) -> list[str]:
    gives = gives_for(design)
    return [f"{s}: give {gives[s]}" for s in ((dealer + 1 + i) % 4 for i in range(4))]


def record(hands: list[HandRecord], options: dict[str, object] | None = None) -> Record:
    return Record("paperless-spades", dict(options or {}), {str(s): f"P{s}" for s in range(4)},
                  hands)


def start(design: list[str], dealer: int, actions: list[str] | None = None,
          options: dict[str, object] | None = None) -> PaperlessState:
    """A table after the deal of ``design``'s hand and the given actions (default: none)."""
    state = replay(record([HandRecord(dealer, deal_for(design), actions or [])], options))
    assert isinstance(state, PaperlessState)
    return state


def passed(design: list[str], dealer: int, more: list[str] | None = None,
           options: dict[str, object] | None = None) -> PaperlessState:
    """A table after the pass that leads to ``design`` (and any further actions)."""
    return start(design, dealer, give_actions(design, dealer) + (more or []), options)


def act(state: State, *texts: str) -> None:
    for text in texts:
        step(state, parse_action(text))


def refused(state: State, text: str) -> IllegalAction:
    """Step an illegal action; check it is refused and changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        step(state, parse_action(text))
    assert snapshot(state) == before
    assert err.value.rule and err.value.allowed
    return err.value


# --- the deck and the deal -------------------------------------------------------------------


def test_deck_is_48_cards_without_the_twos_and_threes_of_spades_and_hearts() -> None:
    game = make_game("paperless-spades")
    assert game.deck == PAPERLESS_DECK
    assert PAPERLESS_DECK.bit_count() == 48
    for text in ("2S", "3S", "2H", "3H"):
        assert not PAPERLESS_DECK >> parse_card(text) & 1
    for text in ("2D", "3D", "2C", "3C", "4S", "4H"):
        assert PAPERLESS_DECK >> parse_card(text) & 1
    assert game.partnership and game.num_entities == 2
    state = game.new_game()
    deal = game.random_deal(state, random.Random(3))
    assert [len(h) for h in deal.hands] == [12, 12, 12, 12] and deal.extra == ()
    step(state, deal)
    assert state.tricks_per_hand == 12
    # a deal holding a counting card is refused
    bad = [list(h) for h in deal.hands]
    bad[0][0] = parse_card("2S")
    with pytest.raises(IllegalAction) as err:
        step(game.new_game(), Deal(CHANCE, 0, tuple(tuple(h) for h in bad), ()))
    assert err.value.rule == "deal" and "2S" in str(err.value)


# --- the pass --------------------------------------------------------------------------------


def test_passes_go_in_turn_order_from_the_dealers_left_before_the_bids() -> None:
    state = start(DESIGN_A, dealer=2)
    assert state.phase is Phase.EXCHANGE and state.to_act == 3
    gives = gives_for(DESIGN_A)
    err = refused(state, f"0: give {gives[0]}")
    assert err.rule == "turn order"
    assert err.allowed == "nothing now; seat 3 is to act"
    assert "give C C C" in refused(state, "3: bid 4").allowed
    # the allowed actions of the seat to act do not show its cards to whoever erred
    assert not any(c in err.allowed.split() for c in DESIGN_A[3].split() + DESIGN_A[2].split())
    assert refused(state, "3: bid 4").rule == "exchange phase"
    assert refused(state, "3: play 6H").rule == "exchange phase"
    for seat in (3, 0, 1):
        act(state, f"{seat}: give {gives[seat]}")
        assert state.phase is Phase.EXCHANGE
    assert state.to_act == 2
    act(state, f"2: give {gives[2]}")
    assert state.phase is Phase.BIDDING and state.to_act == 3
    assert refused(state, f"3: give {' '.join(DESIGN_A[3].split()[:3])}").rule == "bidding phase"


def test_a_pass_is_three_different_cards_of_ones_own() -> None:
    state = start(DESIGN_A, dealer=3)
    hand = deal_for(DESIGN_A)["0"].split()
    assert state.to_act == 0
    for text in (f"0: give {hand[0]} {hand[1]}", f"0: give {' '.join(hand[:4])}", "0: give"):
        err = refused(state, text)
        assert err.rule == "pass three cards"
        assert err.allowed.startswith("give three of ")
    assert refused(state, f"0: give {hand[0]} {hand[0]} {hand[1]}").rule == "pass three cards"
    err = refused(state, f"0: give {hand[0]} {hand[1]} KH")
    assert err.rule == "own cards" and "KH" in str(err)
    legal = make_game("paperless-spades").legal_actions(state)
    assert len(legal) == 220 and all(isinstance(a, Give) and len(a.cards) == 3 for a in legal)


def test_received_cards_join_the_hand_only_after_all_four_have_given() -> None:
    state = start(DESIGN_A, dealer=3)  # gives: 0, 1, 2, 3
    gives = gives_for(DESIGN_A)
    dealt = [parse_set(deal_for(DESIGN_A)[str(s)]) for s in range(4)]
    act(state, f"0: give {gives[0]}")
    assert state.hands[0] == dealt[0] & ~parse_set(gives[0])
    assert state.hands[2] == dealt[2]  # the partner does not hold them yet
    assert state.hand_size == [9, 12, 12, 12]
    act(state, f"1: give {gives[1]}")
    # seat 2 cannot pass on a card that seat 0 passed to it
    received = gives[0].split()[0]
    err = refused(state, f"2: give {received} {' '.join(gives[2].split()[:2])}")
    assert err.rule == "own cards" and received in str(err)
    act(state, f"2: give {gives[2]}", f"3: give {gives[3]}")
    assert state.hands == [parse_set(d) for d in DESIGN_A]
    assert state.hand_size == [12, 12, 12, 12]


def test_passed_cards_are_seen_by_the_giver_and_by_the_receiver_only_after_the_pass() -> None:
    game = make_game("paperless-spades")
    state = start(DESIGN_A, dealer=3)  # gives: 0, 1, 2, 3; partners 0+2 and 1+3
    gives = gives_for(DESIGN_A)

    def history(seat: int) -> list[str]:
        return list(game.observe(state, seat).history)

    act(state, f"0: give {gives[0]}", f"1: give {gives[1]}")
    # seat 2 has not given yet: it must not see what is coming to it
    obs = game.observe(state, 2)
    assert history(2) == ["0: give ? ? ?", "1: give ? ? ?"]
    assert obs.hand == parse_set(deal_for(DESIGN_A)["2"])
    assert "received" not in obs.info and "gave" not in obs.info
    assert history(0) == [f"0: give {gives[0]}", "1: give ? ? ?"]
    assert game.observe(state, 0).info["gave"] == gives[0]
    act(state, f"2: give {gives[2]}")
    # given, but the pass is not complete: still hidden from the receiver
    assert history(2) == ["0: give ? ? ?", "1: give ? ? ?", f"2: give {gives[2]}"]
    assert "received" not in game.observe(state, 2).info
    assert game.observe(state, 2).info["given"] == (True, True, True, False)
    act(state, f"3: give {gives[3]}")
    # the pass is complete: each receiver sees what its partner gave, opponents never do
    assert history(2) == [f"0: give {gives[0]}", "1: give ? ? ?", f"2: give {gives[2]}",
                          "3: give ? ? ?"]
    assert game.observe(state, 2).info["received"] == gives[0]
    assert history(1) == ["0: give ? ? ?", f"1: give {gives[1]}", "2: give ? ? ?",
                          f"3: give {gives[3]}"]
    for text in ("0: bid 11", "1: bid 0", "2: bid 0", "3: bid 2", "0: play AD"):
        act(state, text)
    assert history(3)[:4] == ["0: give ? ? ?", f"1: give {gives[1]}", "2: give ? ? ?",
                              f"3: give {gives[3]}"]
    assert history(3)[4:] == ["0: bid 11", "1: bid 0", "2: bid 0", "3: bid 2", "0: play AD"]


# --- the bids --------------------------------------------------------------------------------


def test_personal_bids_0_to_12_from_the_dealers_left_no_blind_nil() -> None:
    game = make_game("paperless-spades")
    state = passed(DESIGN_A, dealer=1)
    assert state.phase is Phase.BIDDING and state.to_act == 2
    assert game.legal_actions(state) == [Bid(2, n) for n in range(13)]
    assert refused(state, "2: bid 13").rule == "bids"
    err = refused(state, "2: bid 0 blind")
    assert err.rule == "no blind nil" and err.allowed == "bid 0..12"
    assert refused(state, "2: bid 3 nil=2").rule == "bids"
    assert refused(state, "3: bid 3").rule == "turn order"
    act(state, "2: bid 3", "3: bid 4", "0: bid 5", "1: bid 2")
    assert state.bids == [5, 2, 3, 4]
    assert state.phase is Phase.PLAY and state.to_act == 2  # the dealer's left leads


def test_both_partners_may_not_bid_nil_but_each_team_may_have_one() -> None:
    game = make_game("paperless-spades")
    state = passed(DESIGN_A, dealer=3)
    act(state, "0: bid 0")
    act(state, "1: bid 0")  # the other team may have its own nil
    err = refused(state, "2: bid 0")
    assert err.rule == "one nil per team" and err.allowed == "bid 1..12"
    assert Bid(2, 0) not in game.legal_actions(state)
    assert game.legal_actions(state) == [Bid(2, n) for n in range(1, 13)]
    act(state, "2: bid 1")
    assert refused(state, "3: bid 0").rule == "one nil per team"
    act(state, "3: bid 1")
    assert state.bids == [0, 0, 1, 1]


# --- the play --------------------------------------------------------------------------------


def test_spades_may_not_be_led_until_broken() -> None:
    state = passed(DESIGN_B, dealer=3, more=["0: bid 3", "1: bid 2", "2: bid 3", "3: bid 2"])
    assert state.to_act == 0
    err = refused(state, "0: play AS")
    assert err.rule == "spades not broken" and err.allowed == "play 3D 2D"
    act(state, "0: play 2D", "1: play KD", "2: play AD", "3: play AC")
    assert state.tricks[-1].winner == 2
    assert refused(state, "2: play 4S").rule == "spades not broken"
    # a spade played on a club (seat 0 has none) breaks spades
    act(state, "2: play 2C", "3: play 3C", "0: play 5S")
    assert state.trump_broken
    act(state, "1: play 4H")
    assert state.tricks[-1].winner == 0
    act(state, "0: play AS")  # now allowed, though seat 0 still holds the 3 of diamonds


def test_a_leader_holding_only_spades_may_lead_them() -> None:
    state = passed(DESIGN_A, dealer=3, more=["0: bid 11", "1: bid 0", "2: bid 0", "3: bid 2"])
    assert refused(state, "0: play AS").rule == "spades not broken"
    act(state, "0: play AD", "1: play KD", "2: play 2D", "3: play AC")
    assert state.to_act == 0 and not state.trump_broken
    act(state, "0: play AS")
    assert state.trick_cards == [parse_card("AS")]


def test_follow_suit() -> None:
    state = passed(DESIGN_B, dealer=3, more=["0: bid 3", "1: bid 2", "2: bid 3", "3: bid 2",
                                             "0: play 2D"])
    err = refused(state, "1: play AH")
    assert err.rule == "follow suit" and err.allowed == "play KD"


# --- scoring lines ---------------------------------------------------------------------------


def test_exact_team_bid_scores_two() -> None:
    items = score_items([3, 4, 2, 3], [3, 4, 2, 3], None)
    assert items == [ScoreItem(0, 2, "team 0 bid 5 and took exactly 5"),
                     ScoreItem(1, 2, "team 1 bid 7 and took exactly 7")]


def test_more_than_the_team_bid_scores_one() -> None:
    assert points_of(score_items([2, 4, 2, 3], [4, 4, 1, 3], None)) == [1, 2]
    assert points_of(score_items([1, 1, 1, 1], [3, 3, 3, 3], None)) == [1, 1]


def test_fewer_than_the_team_bid_gives_two_to_the_opponents() -> None:
    items = score_items([4, 3, 4, 2], [2, 5, 3, 2], None)
    # team 0 bid 8, took 5: team 1 gets 2; team 1 bid 5, took 7: more, 1
    assert items == [ScoreItem(1, 2, "team 0 bid 8 and took fewer, 5"),
                     ScoreItem(1, 1, "team 1 bid 5 and took more, 7")]
    assert points_of(items) == [0, 3]


def test_nil_made_scores_two_and_nil_failed_gives_two_to_the_opponents() -> None:
    # seat 1's nil made, seat 2's nil failed with 1 trick, which counts for team 0
    items = score_items([5, 0, 0, 5], [5, 0, 1, 6], None)
    assert items == [
        ScoreItem(0, 1, "team 0 bid 5 and took more, 6"),
        ScoreItem(1, 2, "seat 2's nil failed (1 taken)"),
        ScoreItem(1, 1, "team 1 bid 5 and took more, 6"),
        ScoreItem(1, 2, "seat 1's nil made"),
    ]
    assert points_of(items) == [1, 5]


def test_a_nil_bidders_tricks_count_for_the_team_contract() -> None:
    # seat 0 nil took 2, partner bid 4 took 2: the team made exactly 4
    assert points_of(score_items([0, 5, 4, 3], [2, 5, 2, 3], None)) == [2, 2 + 2]


def test_all_four_heart_honours_score_two() -> None:
    assert points_of(score_items([3, 4, 2, 3], [3, 4, 2, 3], 1)) == [2, 4]
    assert score_items([3, 4, 2, 3], [3, 4, 2, 3], 0)[1] == ScoreItem(
        0, 2, "team 0 won all four heart honours")


def test_several_lines_at_once_in_a_played_hand_and_the_game_ends_with_the_stake() -> None:
    # Seat 0 wins every trick (the ace of diamonds, then eleven spades) and so team 0 wins
    # the heart honours that seat 1 must throw on the spades.
    plays = ["0: play AD", "1: play KD", "2: play 2D", "3: play AC"]
    spades = ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S"]
    hearts = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H"]
    diamonds = ["QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D", "3D", "2C"]
    clubs = ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C"]
    for s, h, d, c in zip(["AS", *spades], hearts, diamonds, clubs, strict=True):
        plays += [f"0: play {s}", f"1: play {h}", f"2: play {d}", f"3: play {c}"]
    bids = ["0: bid 11", "1: bid 0", "2: bid 0", "3: bid 2"]
    state = passed(DESIGN_A, dealer=3, more=bids + plays, options={"stake": 3})
    game = state.game
    assert isinstance(game, PaperlessSpades)
    assert state.won == [12, 0, 0, 0]
    assert game.honours_team(state) == 0
    assert game.hand_items(state) == [
        ScoreItem(0, 1, "team 0 bid 11 and took more, 12"),
        ScoreItem(0, 2, "seat 2's nil made"),
        ScoreItem(0, 2, "team 0 won all four heart honours"),
        ScoreItem(0, 2, "team 1 bid 2 and took fewer, 0"),
        ScoreItem(1, 2, "seat 1's nil made"),
    ]
    result = summary(state)
    assert result["hands"] == [{"scores": {"0": 7, "1": 2}, "totals": {"0": 7, "1": 2},
                                "limit": 5, "set": 1}]
    assert result["finished"] and result["winner"] == 0
    assert result["stake"] == 3
    assert result["owed"] == {"by": "1", "to": "0", "points": 5, "amount": 15}
    lines = game.score_lines(state)
    assert "Team 1 owes team 0 5 x 3 = 15." in lines
    assert "Team 0 wins, 7 to 2." in lines


def test_worked_examples_from_the_example_records() -> None:
    # paperless-spades-41-000, hand 1 (the rules document's worked example): both teams
    # short, so each gives the other 2, and team 0 won the four honours.
    rec = load_record(EXAMPLES / "paperless-spades-41-000.json")
    state = replay(record(rec.hands[:1]))
    game = state.game
    assert isinstance(game, PaperlessSpades) and isinstance(state, PaperlessState)
    assert state.bids == [4, 2, 5, 5] and state.won == [2, 4, 5, 1]
    assert sorted((i.team, i.points) for i in game.hand_items(state)) == [(0, 2), (0, 2), (1, 2)]
    assert points_of(game.hand_items(state)) == [4, 2]
    # paperless-spades-41-001, hand 1: both nils fail, both teams take more than their bid
    rec = load_record(EXAMPLES / "paperless-spades-41-001.json")
    state = replay(record(rec.hands[:1]))
    assert isinstance(state, PaperlessState)
    assert state.bids == [0, 0, 3, 2]
    items = state.game.hand_items(state)  # type: ignore[attr-defined]
    assert sorted((i.team, i.points) for i in items) == [(0, 1), (0, 2), (1, 1), (1, 2)]
    assert summary(replay(rec))["owed"] == {"by": "1", "to": "0", "points": 1, "amount": 0}


# --- sets and overtime -----------------------------------------------------------------------


def _bids_for(won: list[int], honours: int | None, want: tuple[int, int]) -> list[int] | None:
    for bids in itertools.product(range(6), repeat=4):
        if (bids[0] == bids[2] == 0) or (bids[1] == bids[3] == 0):
            continue
        if points_of(score_items(list(bids), won, honours)) == list(want):
            return list(bids)
    return None


def play_hand_scoring(state: PaperlessState, want: tuple[int, int], seeds: itertools.count[int],
                      ) -> None:
    """Play one whole hand, through the rules, that scores ``want`` (team 0, team 1).

    The pass and the play take the first legal action, which does not depend on the bids,
    so the tricks are known before bidding: a dry run finds them, then bids that give the
    wanted score are chosen. Deals are tried from ``seeds`` until one allows it; a scoring
    rule broken so that no deal can give ``want`` fails after a bounded search."""
    game = state.game
    assert isinstance(game, PaperlessSpades)
    for seed in itertools.islice(seeds, 2000):
        trial = state.copy()
        step(trial, game.random_deal(trial, random.Random(seed)))
        while trial.phase is Phase.EXCHANGE:
            step(trial, game.legal_actions(trial)[0])
        dry = trial.copy()
        while dry.phase is Phase.BIDDING:
            step(dry, Bid(dry.to_act, 1))
        while dry.phase is Phase.PLAY:
            step(dry, game.legal_actions(dry)[0])
        bids = _bids_for(list(dry.won), game.honours_team(dry), want)
        if bids is None:
            continue
        step(state, trial.deal)  # type: ignore[arg-type]
        while state.phase is not Phase.BIDDING:
            step(state, game.legal_actions(state)[0])
        while state.phase is Phase.BIDDING:
            step(state, Bid(state.to_act, bids[state.to_act]))
        while state.phase is Phase.PLAY:
            step(state, game.legal_actions(state)[0])
        assert state.results[-1].scores == {"0": want[0], "1": want[1]}
        return
    raise AssertionError(f"no deal among 2000 gives the hand score {want}")


def play_hands(wants: list[tuple[int, int]], options: dict[str, object] | None = None,
               ) -> PaperlessState:
    game = make_game("paperless-spades", options)
    state = game.new_game()
    assert isinstance(state, PaperlessState)
    seeds = itertools.count()
    for want in wants:
        play_hand_scoring(state, want, seeds)
    return state


def hands_of(state: State) -> list[tuple[dict[str, int], int, int]]:
    return [(h["totals"], h["limit"], h["set"]) for h in summary(state)["hands"]]


def test_a_set_ends_after_a_hand_with_a_team_over_five_and_the_higher_score_wins() -> None:
    state = play_hands([(2, 2), (2, 1), (1, 2)])
    assert state.totals == [5, 5] and state.phase is Phase.SCORING  # both in the barn
    play_hand_scoring(state, (2, 1), itertools.count(100))
    assert state.is_over and state.winner == 0 and state.totals == [7, 6]
    assert summary(state)["owed"] == {"by": "1", "to": "0", "points": 1, "amount": 0}
    # only one team over: it wins even if it scored less in the last hand
    state = play_hands([(2, 2), (2, 2), (0, 3)], {"stake": 2})
    assert state.is_over and state.winner == 1 and state.totals == [4, 7]
    assert summary(state)["owed"] == {"by": "0", "to": "1", "points": 3, "amount": 6}


def test_a_tied_set_goes_to_overtime_and_a_tied_overtime_to_another() -> None:
    state = play_hands([(2, 2), (2, 2), (2, 2)], {"stake": 5})
    # 6-6: tied over five; both go back to 0 and an overtime set to more than 2 follows
    assert not state.is_over and state.totals == [0, 0]
    assert state.set_number == 2
    assert hands_of(state)[-1] == ({"0": 6, "1": 6}, 5, 1)
    game = state.game
    assert game.totals_reset_after(state, 2)
    assert game.observe(state, 0).info["limit"] == 2
    seeds = itertools.count(1000)
    for want in [(1, 1), (2, 2)]:  # 3-3: the overtime set is tied too
        play_hand_scoring(state, want, seeds)
    assert not state.is_over and state.totals == [0, 0] and state.set_number == 3
    for want in [(2, 1), (1, 1)]:  # 2-1 is not over two; 3-2 is
        play_hand_scoring(state, want, seeds)
    assert state.is_over and state.winner == 0 and state.totals == [3, 2]
    assert hands_of(state) == [
        ({"0": 2, "1": 2}, 5, 1), ({"0": 4, "1": 4}, 5, 1), ({"0": 6, "1": 6}, 5, 1),
        ({"0": 1, "1": 1}, 2, 2), ({"0": 3, "1": 3}, 2, 2),
        ({"0": 2, "1": 1}, 2, 3), ({"0": 3, "1": 2}, 2, 3),
    ]
    result = summary(state)
    assert result["totals"] == {"0": 3, "1": 2}
    assert result["sets"] == [{"0": 6, "1": 6}, {"0": 3, "1": 3}, {"0": 3, "1": 2}]
    # the tied sets' difference is 0: the losers owe the final set's difference
    assert result["owed"] == {"by": "1", "to": "0", "points": 1, "amount": 5}
    assert [game.totals_reset_after(state, i) for i in range(7)] == [
        False, False, True, False, True, False, False]
    # the record replays to the same results
    assert summary(replay(record_from_state(state))) == result


def test_overtime_limit_and_limit_are_options() -> None:
    state = play_hands([(1, 1)], {"limit": 0, "overtime_limit": 3})
    assert state.totals == [0, 0] and state.set_number == 2
    seeds = itertools.count(500)
    for want in [(2, 1), (1, 1)]:
        play_hand_scoring(state, want, seeds)
    assert state.totals == [3, 2] and not state.is_over  # 3 is not over an overtime limit of 3
    play_hand_scoring(state, (0, 3), seeds)
    assert state.is_over and state.winner == 1 and state.totals == [3, 5]


# --- the counting cards ----------------------------------------------------------------------


def test_counting_cards_regular_set() -> None:
    assert counting_cards(0) == "[▒▒]··· 2♠ face down covering 3♠: 0"
    assert counting_cards(1) == "[▒▒]•·· 2♠ face down, slid to show 1 pip of 3♠: 1"
    assert counting_cards(2) == "[▒▒]••· 2♠ face down, slid to show 2 pips of 3♠: 2"
    # over two, the 2 is turned face up and counts its own two pips
    assert counting_cards(3) == "[2♠]•·· 2♠ face up (2) and 1 pip of 3♠ showing: 3"
    assert counting_cards(4) == "[2♠]••· 2♠ face up (2) and 2 pips of 3♠ showing: 4"
    assert counting_cards(5, suit=HEARTS) == (
        "[2♥]••• 2♥ face up (2) and all 3 pips of 3♥ showing: 5, in the barn")
    assert counting_cards(7) == "7: more than the counting cards can show (5), the set is over"
    # a table limit above 5: 6 is not over it, but the cards cannot show it
    assert counting_cards(6, limit=8) == "6: more than the counting cards can show (5)"


def test_counting_cards_overtime_set_the_three_covers_the_two_and_is_never_turned() -> None:
    assert counting_cards(0, overtime=True) == "[▒▒]·· 3♠ face down covering 2♠: 0"
    assert counting_cards(1, overtime=True, suit=HEARTS) == (
        "[▒▒]•· 3♥ face down, slid to show 1 pip of 2♥: 1")
    assert counting_cards(2, overtime=True) == (
        "[▒▒]•• 3♠ face down, slid to show 2 pips of 2♠: 2, in the barn")
    assert counting_cards(3, overtime=True) == (
        "3: more than the counting cards can show (2), the set is over")
    for score in range(3):
        assert "face up" not in counting_cards(score, overtime=True, suit=SPADES)


def test_score_lines_show_each_teams_counting_cards() -> None:
    state = play_hands([(2, 2), (2, 2), (2, 2)])
    game = state.game
    lines = game.score_lines(state)
    assert lines[0] == "Overtime set 1: the set ends when a team has more than 2 points."
    assert lines[1] == "Team 0 (2 and 3 of spades): [▒▒]·· 3♠ face down covering 2♠: 0"
    assert lines[2] == "Team 1 (2 and 3 of hearts): [▒▒]·· 3♥ face down covering 2♥: 0"
    assert lines[3].startswith("Last hand: ")
    assert lines[4] == "That hand tied the set: both scores go back to 0 for overtime."
    state = play_hands([(2, 1), (2, 2)])
    lines = state.game.score_lines(state)
    assert lines[0] == "Regular set: the set ends when a team has more than 5 points."
    assert lines[1].endswith("2♠ face up (2) and 2 pips of 3♠ showing: 4")
    assert lines[2].endswith("3♥ showing: 3")


def test_replay_command_prints_the_counting_cards(tmp_path: Path) -> None:
    rec = load_record(EXAMPLES / "paperless-spades-41-000.json")
    rec.options = {"stake": 1}
    path = tmp_path / "game.json"
    rec.save(path)
    cli = [sys.executable, "-m", "tricktable.cli", "replay", str(path)]
    out = subprocess.run(cli, capture_output=True, text=True, check=True,
                         env={**os.environ, "COLUMNS": "200"}).stdout
    assert "2♥ face down, slid to show 2 pips of 3♥: 2" in out
    assert "Team 1 owes team 0 5 x 1 = 5." in out
    data = json.loads(subprocess.run([*cli, "--json"], capture_output=True, text=True,
                                     check=True).stdout)
    assert [h["limit"] for h in data["hands"]] == [5, 5]
    assert [h["set"] for h in data["hands"]] == [1, 1]
    assert data["owed"] == {"by": "1", "to": "0", "points": 5, "amount": 5}


# --- records ---------------------------------------------------------------------------------


def test_gives_are_recorded_and_a_bad_give_in_a_record_is_reported() -> None:
    state = passed(DESIGN_A, dealer=3, more=["0: bid 11", "1: bid 0"])
    rec = record_from_state(state)
    assert rec.hands[0].actions[:4] == give_actions(DESIGN_A, 3)
    assert summary(replay(rec)) == summary(state)
    bad = give_actions(DESIGN_A, 3)
    bad[2] = "2: give " + " ".join(gives_for(DESIGN_A)[0].split())  # cards seat 0 gave
    with pytest.raises(Exception) as err:
        replay(record([HandRecord(3, deal_for(DESIGN_A), bad)]))
    assert "hand 1, action 3" in str(err.value) and "own cards" in str(err.value)
