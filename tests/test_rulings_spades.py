"""rulings.md, standard partnership Spades: tests for the parts of the rulings that
tests/test_spades.py does not already guard (see docs/rulings-coverage.md)."""

from __future__ import annotations

import pytest

from harness import after_a_blind_nil
from tricktable import IllegalAction, Phase, State, make_game, parse_action, step
from tricktable.engine.actions import Bid, Give, Pass
from tricktable.engine.cards import cards_of, parse_card
from tricktable.engine.records import HandRecord, Record, replay


def test_ruling_spades_5_the_game_is_to_500_by_default() -> None:
    game = make_game("spades")
    assert game.options.to_mapping(include_defaults=True)["target"] == 500
    state = game.new_game()
    state.totals = [499, 120]
    assert game.game_winner(state) is None
    state.totals = [500, 120]  # reaching the target exactly is enough
    assert game.game_winner(state) == 0
    state.totals = [120, 500]
    assert game.game_winner(state) == 1


def test_ruling_spades_5_when_both_teams_pass_the_target_the_higher_score_wins() -> None:
    game = make_game("spades")
    state = game.new_game()
    state.totals = [510, 530]
    assert game.game_winner(state) == 1
    state.totals = [530, 510]
    assert game.game_winner(state) == 0
    state.totals = [520, 520]  # a tie plays on
    assert game.game_winner(state) is None


# Dealer 3: seat 0 bids first and leads. Seat 1 is void in hearts and trumps the opening
# ace of hearts with the 2S; then seat 1, holding diamonds too, leads a spade.
BREAK_DEAL = {
    "0": "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 3S",
    "1": "2S 4S 5S 6S 7S 8S 9S AD KD QD JD TD 9D",
    "2": "TS JS QS KS AS 8D 7D 6D 5D 4D 3D 2D 2C",
    "3": "2H AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
}


def test_ruling_spades_4_once_a_spade_is_played_on_another_suit_any_leader_may_lead_spades(
) -> None:
    bids = ["0: bid 4", "1: bid 4", "2: bid 3", "3: bid 1"]
    record = Record("spades", {}, {str(s): f"P{s}" for s in range(4)},
                    [HandRecord(3, BREAK_DEAL, bids)])
    state = replay(record)
    with pytest.raises(IllegalAction) as err:
        step(state, parse_action("0: play 3S"))  # seat 0 holds hearts too
    assert err.value.rule == "spades not broken"
    for text in ("0: play AH", "1: play 2S", "2: play 2C", "3: play 2H"):
        step(state, parse_action(text))
    assert state.tricks[0].winner == 1 and state.trump_broken
    assert state.game.legal_plays(state) == state.hands[1]
    step(state, parse_action("1: play 4S"))
    assert state.trick_cards == [parse_card("4S")]


def phase(state: State) -> Phase:
    return state.phase


def test_ruling_spades_5_after_a_blind_nil_partners_exchange_exactly_two_cards() -> None:
    game = make_game("spades", {"blind_nil": True})
    state, blind = after_a_blind_nil(game, 2)
    while state.phase is Phase.REVEAL:
        step(state, Pass(state.to_act))
    while state.phase is Phase.BIDDING:
        step(state, Bid(state.to_act, 3))
    assert phase(state) is Phase.EXCHANGE
    for seat in ((blind + 2) % 4, blind):  # the partner gives first, then the blind bidder
        assert state.to_act == seat
        held = list(cards_of(state.hands[seat]))
        for wrong in (held[:1], held[:3]):
            with pytest.raises(IllegalAction) as err:
                step(state, Give(seat, tuple(wrong)))
            assert err.value.rule == "blind nil exchange"
        step(state, Give(seat, tuple(held[:2])))
    assert phase(state) is Phase.PLAY
    assert [h.bit_count() for h in state.hands] == [13, 13, 13, 13]
