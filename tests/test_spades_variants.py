"""Mirror, Suicide and Whiz Spades (rulings: standard Spades rule 7): who may bid what,
the refusals that explain each variant's rule, blind nil refused with them, and hands
scored by hand."""

from __future__ import annotations

import pytest

from harness import snapshot
from tricktable import IllegalAction, make_game, parse_action, step
from tricktable.bots import make_bot
from tricktable.engine.actions import Deal
from tricktable.engine.cards import parse_set
from tricktable.engine.errors import OptionError
from tricktable.engine.game import CHANCE, Game
from tricktable.engine.records import record_from_state, replay
from tricktable.engine.state import State
from tricktable.play.table import Table

# One suit per seat: seat 0 all the spades, 1 the hearts, 2 the diamonds, 3 the clubs.
SUITED = ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
          "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D", "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C")
# A mixed deal: seat 0 holds 4 spades, seat 1 none, seat 2 five, seat 3 four.
MIXED = ("AS KS 3S 2S AH KH QH AD KD QD AC KC QC", "JH TH 9H 8H JD TD 9D 8D JC TC 9C 8C 7C",
         "QS JS TS 9S 8S 7H 6H 5H 7D 6D 5D 6C 5C", "7S 6S 5S 4S 4H 3H 2H 4D 3D 2D 4C 3C 2C")


def dealt(variant: str, hands: tuple[str, ...]) -> tuple[Game, State]:
    """A game of ``variant`` with ``hands`` dealt by seat 3 (seat 0 bids first)."""
    game = make_game("spades", {"variant": variant})
    state = game.new_game()
    cards = tuple(tuple(sorted(_cards(h))) for h in hands)
    step(state, Deal(CHANCE, 3, cards, ()))
    return game, state


def _cards(text: str) -> list[int]:
    mask = parse_set(text)
    return [c for c in range(52) if mask >> c & 1]


def bids(game: Game, state: State) -> list[str]:
    return [str(a).split(": ")[1] for a in game.legal_actions(state)]


def play_out(game: Game, state: State, actions: list[str]) -> None:
    """Bid ``actions``, then play the hand out with the first legal card each time."""
    for text in actions:
        step(state, parse_action(text))
    while state.hand_number == 0 and game.legal_actions(state):
        step(state, game.legal_actions(state)[0])


def test_mirror_every_bid_is_the_spades_held() -> None:
    game, state = dealt("mirror", MIXED)
    assert bids(game, state) == ["bid 4"]
    step(state, parse_action("0: bid 4"))
    assert bids(game, state) == ["bid 0"]  # no spades: nil
    with pytest.raises(IllegalAction) as refused:
        step(state, parse_action("1: bid 2"))
    assert refused.value.rule == "mirror"
    assert "number of spades held" in str(refused.value) and refused.value.allowed == "bid 0"


def test_whiz_bids_nil_or_exactly_the_spades_held() -> None:
    game, state = dealt("whiz", MIXED)
    assert bids(game, state) == ["bid 0", "bid 4"]
    before = state.copy()
    with pytest.raises(IllegalAction) as refused:
        step(state, parse_action("0: bid 3"))
    assert refused.value.rule == "whiz" and refused.value.allowed == "bid 0, bid 4"
    assert snapshot(state) == snapshot(before)
    step(state, parse_action("0: bid 0"))
    assert bids(game, state) == ["bid 0"]


def test_suicide_one_partner_nil_the_other_four_or_more() -> None:
    game, state = dealt("suicide", MIXED)
    assert bids(game, state) == ["bid 0"] + [f"bid {n}" for n in range(4, 14)]
    with pytest.raises(IllegalAction) as refused:
        step(state, parse_action("0: bid 3"))
    assert refused.value.rule == "suicide" and refused.value.allowed == "bid 0, bid 4..13"
    step(state, parse_action("0: bid 5"))
    step(state, parse_action("1: bid 0"))
    # seat 2's partner bid 5: seat 2 must bid nil; seat 3's partner bid nil: 4 or more
    assert bids(game, state) == ["bid 0"]
    with pytest.raises(IllegalAction, match="the partner the other kind"):
        step(state, parse_action("2: bid 4"))
    step(state, parse_action("2: bid 0"))
    assert bids(game, state) == [f"bid {n}" for n in range(4, 14)]


@pytest.mark.parametrize("variant", ["mirror", "suicide", "whiz"])
def test_no_blind_nil_in_the_variants(variant: str) -> None:
    with pytest.raises(OptionError, match="blind nil is not played"):
        make_game("spades", {"variant": variant, "blind_nil": True})
    with pytest.raises(OptionError, match="standard, mirror, suicide, whiz"):
        make_game("spades", {"variant": "cutthroat"})


@pytest.mark.parametrize(("variant", "actions", "totals"), [
    # seat 0 takes all 13 tricks with the 13 spades; everyone else keeps a nil
    # mirror: 13 + nil (team 0: 130 + 100), nil + nil (team 1: 200)
    ("mirror", ["0: bid 13", "1: bid 0", "2: bid 0", "3: bid 0"], [230, 200]),
    # whiz: seat 0 could have bid nil; he bids his 13
    ("whiz", ["0: bid 13", "1: bid 0", "2: bid 0", "3: bid 0"], [230, 200]),
    # suicide: team 1's 4 is set (-40), its nil made (+100)
    ("suicide", ["0: bid 13", "1: bid 4", "2: bid 0", "3: bid 0"], [230, 60]),
])
def test_a_hand_scored_by_hand(variant: str, actions: list[str], totals: list[int]) -> None:
    game, state = dealt(variant, SUITED)
    play_out(game, state, actions)
    assert state.won[0] == 13 and list(state.totals) == totals
    # the record is plain v1: the bids as usual, and it replays to the same totals
    again = replay(record_from_state(state))
    assert list(again.totals) == totals


@pytest.mark.parametrize("variant", ["mirror", "suicide", "whiz"])
def test_rules_bots_play_the_variants_within_their_rules(variant: str) -> None:
    game = make_game("spades", {"variant": variant, "target": 250})
    table = Table(game, {s: make_bot("rules", game, s, "v") for s in range(4)}, f"v/{variant}")
    assert table.run(100)
    record = table.record()
    assert list(replay(record).totals) == list(table.state.totals)


def test_the_terminal_explains_the_variant_when_bidding() -> None:
    from tricktable.play.terminal import move_explanations

    game, state = dealt("suicide", MIXED)
    lines = move_explanations(game, game.legal_actions(state), 0, None)
    assert any("In Suicide the first of a partnership" in line for line in lines)
    standard, state = dealt("standard", MIXED)
    assert not move_explanations(standard, standard.legal_actions(state), 0, None)
