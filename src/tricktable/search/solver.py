"""The double-dummy solver: the exact number of the remaining tricks a set of seats takes
when every seat sees every card.

    solver = Solver()
    solver.tricks(position_of(state), counted=side, maximizers=side)

Three kinds of question use the same search:

- two sides (partnerships, declarer and dummy against the defenders): ``counted`` and
  ``maximizers`` are the side;
- one seat against all the others together (paranoid, for the cut-throat games): both
  are the one seat;
- a nil: ``nil_makeable`` asks whether the nil seat's side can keep it from taking any
  trick, the other seats playing to make it take one.

The kernel (numba) is imported on the first solve, never by merely importing this module.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..bots.handeval import estimate_tricks
from ..engine.cards import NO_SUIT
from ..engine.order import CardOrder
from ..engine.state import State
from .position import Move, PlayRules, Position, play, position_of, seats_mask

if TYPE_CHECKING:
    import numpy as np


def side_of(state: State, seat: int) -> int:
    """The seats (a mask) that play together with ``seat``: a partnership, a declarer and
    the dummy he controls (the defenders are then one side too), or the seat alone in a
    cut-throat game."""
    game = state.game
    n = game.num_seats
    if game.partnership:
        return seats_mask(s for s in range(n) if s % 2 == seat % 2)
    groups: dict[int, int] = {}
    for s in range(n):
        c = game.controller(state, s)
        key = c if c >= 0 else s  # a dummy before the auction has made a declarer
        groups[key] = groups.get(key, 0) | 1 << s
    c = game.controller(state, seat)
    mine = groups.get(c if c >= 0 else seat, 1 << seat)
    shared = [g for g in groups.values() if g.bit_count() > 1]
    if not shared:
        return 1 << seat
    if mine.bit_count() > 1:
        return mine
    together = 0
    for g in shared:
        together |= g
    return ((1 << n) - 1) & ~together


def _encode_card(order: CardOrder, c: int) -> tuple[int, int]:
    suit = order.suit_of[c]
    if suit < 0:
        return 4, c - 52
    return suit, order.rank_key(c) - 2


@functools.lru_cache(maxsize=32)
def _suit_tables(order: CardOrder) -> tuple[list[int], ...]:
    """Per suit of the deck (13 cards each), a table from its 13-bit block of a card set
    to the kernel's rank mask in that suit (the suits of the deck are the kernel's suits
    0..3; jokers are encoded apart). Built once per card order."""
    tables = []
    for suit in range(4):
        bits = [1 << _encode_card(order, suit * 13 + r)[1] for r in range(13)]
        table = [0] * (1 << 13)
        for x in range(1, 1 << 13):
            low = x & -x
            table[x] = table[x ^ low] | bits[low.bit_length() - 1]
        tables.append(table)
    return tuple(tables)


def _per_suit(order: CardOrder, mask: int) -> list[int]:
    tables = _suit_tables(order)
    out = [tables[0][mask & 0x1FFF], tables[1][mask >> 13 & 0x1FFF],
           tables[2][mask >> 26 & 0x1FFF], tables[3][mask >> 39 & 0x1FFF], 0]
    for c in (52, 53):
        if mask >> c & 1:
            s, b = _encode_card(order, c)
            out[s] |= 1 << b
    return out


@functools.lru_cache(maxsize=64)
def _rule_masks(order: CardOrder, rules: PlayRules) -> tuple[int, ...]:
    """The five rule masks per kernel suit, in the kernel's order (cached: a hand's rules
    do not change while it is played)."""
    out: list[int] = []
    for mask in rules.masks:
        out += _per_suit(order, mask)
    return tuple(out)


GUESS_FROM = 8
"""Tricks left from which a first search starts at an estimate, not the midpoint."""


def first_guess(pos: Position, counted: int) -> int:
    """Where the searches for a value start when nothing is known of it: the tricks left
    shared in proportion to the counted seats' strength by the bidding's count of tricks
    (``bots.handeval``). Each search that misses the value by a trick costs a whole
    zero-window search more, and the one just above the value is the dearest; over 200
    random 13-card deals this guess was 1.2 tricks off on average, half the trick count's
    midpoint's 2.4. Small positions, searched in no time, start at the midpoint (the
    count costs 30 us, more than their searches: a pimc endgame asks thousands)."""
    left = pos.tricks_left
    if left < GUESS_FROM:
        return (left + 1) // 2
    strength = [estimate_tricks(hand, pos.order, opponents=max(1, pos.num_seats - 1))
                for hand in pos.hands]
    total = sum(strength)
    if total <= 0:
        return (left + 1) // 2
    mine = sum(x for seat, x in enumerate(strength) if counted >> seat & 1)
    return min(left, max(0, round(left * mine / total)))


class Solver:
    """A reusable double-dummy solver: its transposition table is kept between positions
    of the same hand and question, so reviewing a hand card by card is cheap. One thread
    at a time: the kernel searches without Python's lock, in the solver's own table."""

    def __init__(self, table_bits: int = 20) -> None:
        from . import kernel  # numba: compiled (or loaded from the cache) on first use

        self._k = kernel
        self._table = kernel.new_table(table_bits)
        self._moves = kernel.new_move_buffer()
        self._generation = 0
        self._setting: tuple[Any, ...] | None = None
        self.nodes = 0

    def _encode(self, pos: Position, counted: int, maximizers: int) -> np.ndarray:
        import numpy as np

        k = self._k
        order = pos.order
        st = np.zeros(k.STATE_SIZE, dtype=np.int64)
        n = pos.num_seats
        left = pos.tricks_left
        if n > k.MAX_SEATS or left > k.MAX_TRICKS:
            raise ValueError(
                f"the solver handles up to {k.MAX_SEATS} seats and {k.MAX_TRICKS} tricks"
            )
        in_play = [0] * 5
        for seat, hand in enumerate(pos.hands):
            per_suit = _per_suit(order, hand)
            st[k.HANDS + seat * 5:k.HANDS + seat * 5 + 5] = per_suit
            for s in range(5):
                in_play[s] |= per_suit[s]
                st[k.IN_HANDS + s] |= per_suit[s]
                for b in range(15):
                    if per_suit[s] >> b & 1:
                        st[k.HOLDER + s * 16 + b] = seat
        st[k.NEXT:k.NEXT + n] = pos.next_seat
        for i, (seat, c) in enumerate(pos.trick):
            s, b = _encode_card(order, c)
            at = k.TRICK_CARDS + (left * k.MAX_SEATS + i) * k.CARD_WORDS
            st[at + k.T_SUIT] = s
            st[at + k.T_BIT] = b
            st[at + k.T_LOW] = pos.trick_low_aces >> i & 1
            st[at + k.T_SEAT] = seat
            in_play[s] |= 1 << b
        st[k.N_TRICK] = len(pos.trick)
        st[k.LED] = pos.led_suit
        st[k.BROKEN] = int(pos.trump_broken)
        st[k.TO_ACT] = pos.to_act
        st[k.N_SEATS] = n
        st[k.TRICK_SIZE] = pos.trick_size
        st[k.TRUMP] = order.trump if order.trump != NO_SUIT else -1
        st[k.MAXIMIZERS] = maximizers
        st[k.COUNTED] = counted
        st[k.TRICKS_LEFT] = left
        rules = pos.rules
        masks = _rule_masks(order, rules)
        st[k.RULES:k.RULES + 25] = masks
        # Ranks a stored result always depends on (see kernel.FORCED): all of a suit's
        # when a rule tells its cards apart by rank, and the ace where it may be called low.
        # A stored result is reused in any position of the same setting with the same
        # shape and top cards, so the setting also says how each rule treats each suit's
        # cards in play: none, all, or some (then the very cards go into the key).
        treatment = []
        partial = 0
        for s in range(5):
            forced = k.NO_RANK
            for r in range(4):
                m = masks[r * 5 + s] & in_play[s]
                if m and m != in_play[s]:
                    forced = 0
                    partial |= 1 << s
                treatment.append(0 if not m else 1 if m == in_play[s] else 2)
            if masks[k.R_ACE_LOW * 5 + s] >> k.ACE_BIT & 1:
                forced = min(forced, k.ACE_BIT)
            st[k.FORCED + s] = forced
        st[k.PARTIAL] = partial
        setting = (
            order, rules, pos.next_seat, pos.trick_size, counted, maximizers, tuple(treatment)
        )
        if setting != self._setting:
            self._setting = setting
            self._generation += 1
        st[k.GENERATION] = self._generation
        return st

    def forget(self) -> None:
        """Empty the transposition table (a new generation: no entry is valid)."""
        self._generation += 1
        self._setting = None

    def tricks(
        self, pos: Position, counted: int, maximizers: int | None = None, guess: int = -1
    ) -> int:
        """Tricks the ``counted`` seats take from the rest of the hand (the trick in
        progress included), the ``maximizers`` (by default the same seats) playing for
        more and everyone else for fewer."""
        if pos.tricks_left == 0:
            return 0
        maxi = counted if maximizers is None else maximizers
        st = self._encode(pos, counted, maxi)
        if guess < 0:
            guess = first_guess(pos, counted)
        value = int(self._k.solve(st, self._table, self._moves, guess))
        self.nodes += int(st[self._k.NODES])
        return value

    def at_least(self, pos: Position, counted: int, maximizers: int, target: int) -> bool:
        """Do the maximizers get at least ``target`` counted tricks? (one search)"""
        if target <= 0:
            return True
        if target > pos.tricks_left:
            return False
        st = self._encode(pos, counted, maximizers)
        result = bool(self._k.test_target(st, self._table, self._moves, target))
        self.nodes += int(st[self._k.NODES])
        return result

    @property
    def trick_starts(self) -> int:
        """Positions searched at the start of a trick so far, by every question this
        solver was asked (DDS reports the same count as its nodes)."""
        return int(self._moves[self._k.STATS + self._k.S_TRICK_STARTS])

    def move_values(
        self, pos: Position, counted: int, maximizers: int | None = None,
        moves: Iterable[Move] | None = None, guess: int = -1,
    ) -> list[tuple[Move, int]]:
        """Each legal move (or those given) with the counted tricks of the rest of the hand
        after it, its own trick included. ``guess``: the value expected (the position's,
        when known), where the searches start."""
        maxi = counted if maximizers is None else maximizers
        out = []
        for move in pos.legal_moves() if moves is None else moves:
            nxt, winner = play(pos, move)
            gained = 1 if winner >= 0 and counted >> winner & 1 else 0
            start = guess - gained if guess >= 0 else -1
            out.append((move, gained + self.tricks(nxt, counted, maxi, start)))
        return out

    def nil_makeable(self, pos: Position, nil_seat: int, nil_side: int) -> bool:
        """Can the seats of ``nil_side`` keep ``nil_seat`` from taking any more trick?"""
        others = ((1 << pos.num_seats) - 1) & ~nil_side
        return not self.at_least(pos, 1 << nil_seat, others, 1)


_shared = threading.local()


def shared_solver() -> Solver:
    """One solver per thread (its table is 128 MB of address space, touched as used):
    two threads never search in one table at once."""
    solver: Solver | None = getattr(_shared, "solver", None)
    if solver is None:
        solver = _shared.solver = Solver()
    return solver


def solve(state: State, seat: int) -> int:
    """Tricks of the rest of the hand that ``seat``'s side takes, double dummy."""
    side = side_of(state, seat)
    return shared_solver().tricks(position_of(state), side)


__all__ = [
    "Move",
    "PlayRules",
    "Position",
    "Solver",
    "position_of",
    "shared_solver",
    "side_of",
    "solve",
]
