"""Mirror and Suicide with a dummy (rulings: Dummy Hand Spades rule 10): the bids each
allows, refusals that explain them, Mirror's declarer and contracts (the dummy's spades
stay hidden until it is shown), and hands scored by hand."""

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
from tricktable.engine.state import Phase, State
from tricktable.play.table import Table

# seat 0 all the spades, 1 the hearts, 2 the diamonds, the dummy (3) the clubs
SUITED = ("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
          "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D", "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C")
# seat 0: 3 spades, seat 1: 5, seat 2: 5 (a tie with seat 1), the dummy: none
MIXED = ("AS KS QS AH KH QH JH AD KD QD AC KC QC", "JS TS 9S 8S 7S TH 9H 8H JD TD 9D JC TC",
         "6S 5S 4S 3S 2S 7H 6H 5H 8D 7D 6D 9C 8C", "4H 3H 2H 5D 4D 3D 2D 7C 6C 5C 4C 3C 2C")


def dealt(variant: str, hands: tuple[str, ...]) -> tuple[Game, State]:
    """``hands`` dealt by seat 2, so seat 0 bids first and leads."""
    game = make_game("dummy-hand-spades", {"variant": variant})
    state = game.new_game()
    cards = tuple(tuple(c for c in range(52) if parse_set(h) >> c & 1) for h in hands)
    step(state, Deal(CHANCE, 2, cards, ()))
    return game, state


def legal_words(game: Game, state: State) -> list[str]:
    return [str(a).split(": ")[1] for a in game.legal_actions(state)]


def test_mirror_each_bid_is_the_spades_held_and_no_spades_is_nil() -> None:
    game, state = dealt("mirror", MIXED)
    assert legal_words(game, state) == ["bid 3"]
    before = snapshot(state)
    with pytest.raises(IllegalAction) as refused:
        step(state, parse_action("0: bid 4"))
    assert refused.value.rule == "mirror" and refused.value.allowed == "bid 3"
    assert "no bidding" in str(refused.value) and snapshot(state) == before
    for text in ("0: bid 3", "1: bid 5", "2: bid 5"):
        step(state, parse_action(text))
    # seat 1 and seat 2 both hold 5: the first in bidding order declares
    assert state.declarer == 1 and state.phase is Phase.PLAY
    game, state = dealt("mirror", SUITED)
    step(state, parse_action("0: bid 13"))
    assert legal_words(game, state) == ["bid 0 nil=1"]  # no spades: nil on his own hand


def test_mirror_contracts_and_the_dummys_nil_wait_for_the_dummy_to_be_shown() -> None:
    game, state = dealt("mirror", MIXED)
    for text in ("0: bid 3", "1: bid 5", "2: bid 5"):
        step(state, parse_action(text))
    # before the opening lead the dummy is face down: its spades (none) are not known
    info = game.observe(state, 0).info
    assert info["contracts"] == {"0": 8, "1": None, "2": 8}
    assert (1, 3) not in info["nils"]
    step(state, game.legal_actions(state)[0])  # the opening lead shows the dummy
    info = game.observe(state, 0).info
    assert info["contracts"] == {"0": 8, "1": 5, "2": 8}  # 5 + the dummy's 0; 8 + 5 = 13
    assert (1, 3) in info["nils"]


def test_suicide_bids_four_or_more_with_exactly_one_nil_on_the_bidders_team() -> None:
    game, state = dealt("suicide", MIXED)
    words = legal_words(game, state)
    assert words[:2] == ["bid 4 nil=0", "bid 4 nil=1,2,3"] and len(words) == 20
    for bad, why in [("0: bid 3 nil=0", "4 or more"), ("0: bid 5", "exactly one nil"),
                     ("0: bid 5 nil=0,3", "exactly one nil")]:
        with pytest.raises(IllegalAction, match=why) as refused:
            step(state, parse_action(bad))
        assert refused.value.rule == "suicide"
        assert refused.value.allowed == "bid 4..13 nil=0, bid 4..13 nil=1,2,3"


def test_variants_are_options_with_their_choices() -> None:
    with pytest.raises(OptionError, match="standard, mirror, suicide"):
        make_game("dummy-hand-spades", {"variant": "whiz"})


@pytest.mark.parametrize(("variant", "bids", "totals"), [
    # Mirror: seat 0 declares with 13 spades; the spadeless dummy is his nil (+100), his
    # contract 13 + 0 is made (+130); each defender's contract is 0 + 0, made with no
    # trick (0), and his own spadeless hand is his nil (+100)
    ("mirror", ["0: bid 13", "1: bid 0 nil=1", "2: bid 0 nil=2"], [230, 100, 100]),
    # Suicide: seat 0 declares 13 with nil on the dummy and the others: the dummy's counts
    # (+100, +130); seat 1's own nil is made (+100) but his 4 is set (-40); seat 2's nil on
    # the dummy and the others counts on seat 1, his fellow defender (+100, -40)
    ("suicide", ["0: bid 13 nil=1,2,3", "1: bid 4 nil=1", "2: bid 4 nil=0,1,3"], [230, 60, 60]),
])
def test_a_hand_scored_by_hand(variant: str, bids: list[str], totals: list[int]) -> None:
    game, state = dealt(variant, SUITED)
    for text in bids:
        step(state, parse_action(text))
    while state.hand_number == 0 and game.legal_actions(state):
        step(state, game.legal_actions(state)[0])
    assert state.won[0] == 13 and list(state.totals) == totals
    assert list(replay(record_from_state(state)).totals) == totals


@pytest.mark.parametrize("variant", ["mirror", "suicide"])
def test_rules_bots_play_the_variants_within_their_rules(variant: str) -> None:
    game = make_game("dummy-hand-spades", {"variant": variant, "target": 200})
    table = Table(game, {s: make_bot("rules", game, s, "v") for s in game.player_seats},
                  f"v/{variant}")
    table.run(12)  # Suicide's scores may never reach a target: a dozen hands are enough
    assert list(replay(table.record()).totals) == list(table.state.totals)


def test_the_terminal_explains_the_variant_when_bidding() -> None:
    from tricktable.play.terminal import move_explanations

    game, state = dealt("suicide", MIXED)
    lines = move_explanations(game, game.legal_actions(state), 0, 3)
    assert any(line.startswith("In Suicide every team bid is 4 or more") for line in lines)
