"""Endings of 3B with ace calls that the kernel once got wrong or might (issue 45): an ace
that may be called low lets the seats holding it pick, after the others have played,
which of them wins a trick, and so which of them leads next.

Each ending is solved by the kernel, by the plain-minimax reference and by hand (the
docstrings say how); the three must agree. The questions are 3B's: the tricks a seat
takes alone against the other seats together, and, for a nil, the tricks the others
can make it take. Spades are trumps, and aces may be called low unless said.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tricktable.engine.cards import ACE, SUITS, card, parse_card, parse_set
from tricktable.engine.order import SPADES_TRUMP
from tricktable.search.position import Move, PlayRules, Position, play
from tricktable.search.reference import reference_move_values, reference_tricks
from tricktable.search.solver import Solver

ACE_CALLS = PlayRules(ace_low=sum(1 << card(ACE, s) for s in SUITS))


def ending(hands: tuple[str, ...], order: tuple[int, ...], trick: tuple[str, ...] = (),
           calls: bool = True) -> Position:
    """A 3B ending: each seat's cards (a seat sitting out holds none), the play order of a
    trick from the leader on, and the cards of the trick under way (``"AD low"``: an ace
    called low)."""
    seats = len(hands)
    next_seat = [order[0]] * seats  # a seat sitting out: the next to play would be the leader
    for i, seat in enumerate(order):
        next_seat[seat] = order[(i + 1) % len(order)]
    pos = Position(
        tuple(parse_set(h) for h in hands), tuple(next_seat), order[0], (), 0, -1,
        len(order), SPADES_TRUMP, True, ACE_CALLS if calls else PlayRules(), (0,) * seats,
    )
    for text in trick:
        name, *low = text.split()
        pos = play(pos, Move(parse_card(name), bool(low)))[0]
    return pos


def alone(seat: int) -> tuple[int, int]:
    """(counted, maximizers): the seat playing for its own tricks against all the others."""
    return 1 << seat, 1 << seat


def nil(pos: Position, seat: int) -> tuple[int, int]:
    """(counted, maximizers): the others playing to make the seat take tricks."""
    return 1 << seat, ((1 << pos.num_seats) - 1) & ~(1 << seat)


def solved(pos: Position, counted: int, maximizers: int) -> int:
    """The kernel's answer, which must be the reference's, and its zero-window searches
    must agree with it (``at_least`` just at and just above it)."""
    expected = reference_tricks(pos, counted, maximizers)
    solver = Solver(table_bits=12)
    value = solver.tricks(pos, counted, maximizers)
    assert value == expected
    assert solver.at_least(pos, counted, maximizers, value)
    assert not solver.at_least(pos, counted, maximizers, value + 1)
    return value


ISSUE = ending(("3D JC", "2H AD", "4C 4D", "JH KC"), (2, 3, 0, 1))


def test_the_issues_ending_the_seat_void_in_the_led_suit_takes_nothing() -> None:
    """Issue 45. Seat 2 leads the four of diamonds; seat 3, void, throws the jack of
    hearts or the king of clubs; seat 0 plays the three; seat 1 then calls the ace high
    if the king of clubs was kept (it wins and leads the two of hearts, which wins) or
    low if the jack of hearts was (the four wins and seat 2 leads the four of clubs,
    which seat 0's jack wins). Seat 3 takes nothing. Led the four of clubs instead, its
    king wins, and then its jack of hearts: two."""
    counted, maximizers = alone(3)
    assert solved(ISSUE, counted, maximizers) == 0
    solver = Solver(table_bits=12)
    assert not solver.at_least(ISSUE, counted, maximizers, 1)
    values = {m.card: v for m, v in solver.move_values(ISSUE, counted)}
    assert values == {parse_card("4D"): 0, parse_card("4C"): 2}
    assert values == {m.card: v for m, v in reference_move_values(ISSUE, counted, maximizers)}


def test_without_ace_calls_the_same_seat_takes_one() -> None:
    """The ace must win the diamond: seat 1 leads the two of hearts, and seat 3, having
    thrown the king of clubs, wins it with the jack."""
    assert solved(replace(ISSUE, rules=PlayRules()), *alone(3)) == 1


def test_the_issues_ending_as_a_nil() -> None:
    """Seat 2 leads the four of clubs: seat 3's king must follow and wins (seat 0's jack
    is lower, seat 1 has no club), and its jack of hearts then wins the last trick
    (seat 1's two of hearts is lower). Two."""
    assert solved(ISSUE, *nil(ISSUE, 3)) == 2


def test_five_players_the_dealer_sitting_out() -> None:
    """The issue's ending with five players, seat 1 (the dealer) sitting out and the
    cards moved round: seat 4 takes nothing, as seat 3 did; one without ace calls."""
    pos = ending(("3D JC", "", "2H AD", "4C 4D", "JH KC"), (3, 4, 0, 2))
    assert solved(pos, *alone(4)) == 0
    assert solved(replace(pos, rules=PlayRules()), *alone(4)) == 1


def test_five_players_the_ace_last_to_play_and_the_seat_second() -> None:
    """Seat 4 sits out. Seat 0 leads the seven of diamonds; seat 1, void, keeps one of its
    kings; seat 2 plays the ten; seat 3 plays the ace last: high if the king of clubs was
    kept (seat 3 leads the seven of hearts, which wins), low if the king of hearts was
    (the ten wins and seat 2 leads the queen of clubs, which wins). Seat 1 takes nothing;
    led the six of clubs, both its kings would win. Without ace calls the ace wins and
    the seven of hearts runs into the king seat 1 kept: one."""
    pos = ending(("7D 6C", "KH KC", "TD QC", "7H AD", ""), (0, 1, 2, 3))
    assert solved(pos, *alone(1)) == 0
    assert solved(replace(pos, rules=PlayRules()), *alone(1)) == 1


def test_the_seat_asked_about_holds_an_ace_itself() -> None:
    """Seat 0 holds the ace of hearts and the king of diamonds. Seat 2 leads the king of
    clubs (its two of diamonds would fall to the king, and the ace of hearts win after);
    seats 3 and 0 are void and throw a card each, and seat 1 plays the ace of clubs: low
    if seat 0 kept the ace of hearts (the king of clubs wins; seat 2 leads the two of
    diamonds, which seat 0 cannot follow), high if it kept the king of diamonds (seat 1
    leads the four of hearts, which seat 0 cannot follow). Nothing. Without ace calls
    the ace of clubs wins the first trick and the four of hearts runs into the ace of
    hearts seat 0 kept: one."""
    pos = ending(("AH KD", "4H AC", "2D KC", "9H JD"), (2, 3, 0, 1))
    assert solved(pos, *alone(0)) == 0
    assert solved(replace(pos, rules=PlayRules()), *alone(0)) == 1


def test_a_trick_under_way_led_with_the_joker() -> None:
    """Three cards each; seat 2 has led the joker (the highest trump, which nobody else
    can follow), so everyone throws a card and seat 2 leads next. Whatever seat 3 keeps,
    seats 0 and 1 throw their small hearts and the four of diamonds is led as in the
    issue's ending: seat 1's ace, high or low, gives the lead to the seat whose suit
    seat 3 no longer holds. Nothing; without ace calls, one (seat 3 keeps the jack of
    hearts and the king of clubs)."""
    hands = ("3D JC 5H", "2H AD 6H", "BJ 4C 4D", "JH KC 2C")
    pos = ending(hands, (2, 3, 0, 1), ("BJ",))
    assert solved(pos, *alone(3)) == 0
    assert solved(ending(hands, (2, 3, 0, 1), ("BJ",), calls=False), *alone(3)) == 1


@pytest.mark.parametrize(("trick", "tricks"), [
    (("4D", "KC", "AD low"), 0),  # the four wins; the four of clubs beats nothing of seat 3's
    (("4D", "KC", "AD"), 1),  # seat 1 wins and leads the two of hearts into the jack
    (("4D", "JH", "AD low"), 1),  # the four wins and leads the four of clubs into the king
])
def test_an_ace_called_low_in_the_trick_under_way(trick: tuple[str, ...], tricks: int) -> None:
    """The issue's hands with seat 1 playing third: the ace is already down, high or low,
    and seat 0 has only its three of diamonds left to play under the four."""
    pos = ending(("3D JC", "2H AD", "4C 4D", "JH KC"), (2, 3, 1, 0), trick)
    assert solved(pos, *alone(3)) == tricks


def test_four_cards_the_lead_passed_on_twice() -> None:
    """Seat 2 has led the four of hearts, seat 3 (void in hearts) thrown the ace of clubs
    and seat 0 played the two; seat 3 is left with the king and queen of diamonds and the
    king of clubs, the top cards of both suits. Seat 1 wins with the queen of hearts and
    leads the seven, which seat 2 overtakes with the ten to lead the six; by then seat 3
    has thrown two of its three cards, and seat 1 plays the ace last: high if seat 3 kept
    a diamond (seat 1 leads the queen of clubs, above seat 0's), low if it kept the king
    of clubs (seat 2 leads the six of diamonds, above seat 0's four). Nothing; without
    ace calls, one (the reference's count). As a nil, three: led a club or a diamond,
    seat 3 must follow with a top card, and then cashes the rest."""
    hands = ("4D JC TC 2H", "AH QH 7H QC", "TH 6H 6D 4H", "KD QD KC AC")
    trick = ("4H", "AC", "2H")
    pos = ending(hands, (2, 3, 0, 1), trick)
    assert solved(pos, *alone(3)) == 0
    assert solved(ending(hands, (2, 3, 0, 1), trick, calls=False), *alone(3)) == 1
    assert solved(pos, *nil(pos, 3)) == 3


def test_the_others_call_an_ace_low_to_make_a_nil_take_a_trick() -> None:
    """Seat 2 bid nil with the nine and eight of hearts and the three of clubs. Seat 0
    leads the eight of diamonds, seat 1 calls the ace low, seat 2 throws a card and seat
    3's nine wins; seat 3 leads the seven of hearts, which seat 2 must beat with a heart
    it kept. One (its last card then loses: the jack of hearts or the ten of clubs is
    out). Without ace calls the ace wins every diamond trick it is in, seat 3 never gets
    the lead, nobody else holds a heart, and seat 2's three of clubs goes under the ten:
    none."""
    pos = ending(("8D 3D TC", "AD 4C 2C", "9H 8H 3C", "JH 7H 9D"), (0, 1, 2, 3))
    assert solved(pos, *nil(pos, 2)) == 1
    assert solved(replace(pos, rules=PlayRules()), *nil(pos, 2)) == 0


def test_a_nil_calls_its_own_ace_low() -> None:
    """Seat 2 bid nil, holding the four of diamonds and the ace of clubs, and leads. Led
    low, the ace loses to the queen of clubs; led, the four loses to the king of diamonds
    or a ruff, and then a club led is followed with the ace called low (and a heart led
    takes a throw). None. Without ace calls seat 0 ruffs the four with the queen of
    spades and leads the queen of clubs into the ace: one."""
    pos = ending(("QS QC", "AH KD", "4D AC", "8H 5H"), (2, 3, 0, 1))
    assert solved(pos, *nil(pos, 2)) == 0
    assert solved(replace(pos, rules=PlayRules()), *nil(pos, 2)) == 1


def test_the_trumps_are_drawn_first() -> None:
    """Four cards each: the issue's hands under two rounds of trumps. Seat 2 leads the
    joker and then the ace of spades, called high; seat 3 must follow with its two small
    trumps, which beat nothing, and the issue's ending follows: nothing."""
    pos = ending(("4S 5S 3D JC", "6S 7S 2H AD", "BJ AS 4C 4D", "2S 3S JH KC"), (2, 3, 0, 1))
    assert solved(pos, *alone(3)) == 0
