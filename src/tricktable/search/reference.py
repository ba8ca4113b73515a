"""The reference solver: plain minimax over every legal move, no pruning, no tables.

It is slow on purpose and short enough to check by reading; the tests use it as the
oracle for the fast solver on small positions. It plays through ``position.play``, which
resolves tricks with the hand's ``CardOrder`` exactly as the engine does.
"""

from __future__ import annotations

from .position import Move, Position, play


def reference_tricks(pos: Position, counted: int, maximizers: int) -> int:
    """Tricks the seats of ``counted`` (a seat mask) take from the rest of the hand, the
    trick in progress included, when the seats of ``maximizers`` play to make that number
    as large as they can and every other seat plays to make it small."""
    if pos.tricks_left == 0:
        return 0
    maximizing = maximizers >> pos.to_act & 1
    best = -1 if maximizing else pos.tricks_left + 1
    for move in pos.legal_moves():
        value = _after(pos, move, counted, maximizers)
        best = max(best, value) if maximizing else min(best, value)
    return best


def _after(pos: Position, move: Move, counted: int, maximizers: int) -> int:
    nxt, winner = play(pos, move)
    gained = 1 if winner >= 0 and counted >> winner & 1 else 0
    return gained + reference_tricks(nxt, counted, maximizers)


def reference_move_values(pos: Position, counted: int, maximizers: int) -> list[tuple[Move, int]]:
    """Each legal move with the value of the position after it (its trick included)."""
    return [(m, _after(pos, m, counted, maximizers)) for m in pos.legal_moves()]
