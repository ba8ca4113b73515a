"""Scoring rules shared by the Spades family."""

from __future__ import annotations

from collections.abc import Sequence


def contract_score(bid: int, tricks: int) -> tuple[int, int]:
    """Standard Spades contract: (points, bags). Made: 10 x bid plus 1 per overtrick, each
    overtrick a bag; set: -10 x bid and no bags."""
    if tricks >= bid:
        over = tricks - bid
        return 10 * bid + over, over
    return -10 * bid, 0


def add_bags(bags: int, new_bags: int, limit: int, penalty: int) -> tuple[int, int]:
    """Accumulate bags: (bags carried forward, penalty points this hand, <= 0). Every
    ``limit`` accumulated bags cost ``penalty`` points and are removed."""
    bags += new_bags
    points = 0
    if limit > 0:
        while bags >= limit:
            bags -= limit
            points -= penalty
    return bags, points


def sole_leader(totals: Sequence[int]) -> int | None:
    """The index of the single highest total, or None when the highest is shared."""
    best = max(totals)
    leaders = [i for i, t in enumerate(totals) if t == best]
    return leaders[0] if len(leaders) == 1 else None
