"""Tables of three real players and a dummy (Dummy Hand Spades, Dummy Whist).

Seat 3 is the dummy's home seat; seats 0, 1, 2 are the real players, and the deal passes
clockwise among them, skipping the dummy. Once the declarer is known the dummy "sits
opposite" him: the order of play becomes declarer, next real player clockwise, dummy,
third real player, and the declarer chooses the dummy's cards.
"""

from __future__ import annotations

from .state import State

DUMMY = 3
REAL_PLAYERS = (0, 1, 2)


def left_of(seat: int) -> int:
    """The next real player clockwise (the dummy's seat is skipped)."""
    return (seat + 1) % 3


def play_cycle(declarer: int) -> tuple[int, int, int, int]:
    """The order of play around the table once the dummy sits opposite ``declarer``."""
    first = left_of(declarer)
    return declarer, first, DUMMY, left_of(first)


def seat_dummy_opposite(state: State, declarer: int) -> None:
    """Set the play order for the hand: declarer, next real player, dummy, third."""
    cycle = play_cycle(declarer)
    for i, seat in enumerate(cycle):
        state.next_seat[seat] = cycle[(i + 1) % 4]


def defenders(declarer: int) -> tuple[int, int]:
    """The two real players who are not the declarer, clockwise from the declarer."""
    first = left_of(declarer)
    return first, left_of(first)
