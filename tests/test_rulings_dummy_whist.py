"""rulings.md, Dummy Whist: tests for the parts of the rulings that tests/test_dummy_whist.py
and tests/test_double_dummy_whist.py do not already guard (see docs/rulings-coverage.md)."""

from __future__ import annotations

from test_dummy_whist import act, joker_table, legal_cards, refused


def test_ruling_whist_4_after_a_notrump_joker_lead_a_joker_follows_only_when_nothing_else_is_left(
) -> None:
    # Ruling 4: a no-trump joker may be played only when void in the suit led; after a
    # joker lead there is no suit led yet, so the next player plays a card with a suit if
    # he has one, and that card sets the suit.
    state = joker_table("notrump", "0: direction high", h0="BJ", h1="LJ 7D", h3="AD",
                        h2="2D")
    act(state, "0: play BJ")  # seat 0 holds nothing but the joker
    assert legal_cards(state) == {"7D"}
    assert refused(state, "1: play LJ").rule == "joker lead"
    act(state, "1: play 7D", "3: play AD", "2: play 2D")
    assert state.tricks[-1].winner == 3
    # holding nothing but a joker, it may follow a joker lead
    state = joker_table("notrump", "0: direction high", h0="BJ", h1="LJ", h3="AD", h2="2D")
    act(state, "0: play BJ")
    assert legal_cards(state) == {"LJ"}
    act(state, "1: play LJ", "3: play AD", "2: play 2D")
    assert state.tricks[-1].winner == 3  # the first card with a suit, the AD, set diamonds
