"""Card orders: which suit a card follows as, and which card wins a trick.

A ``CardOrder`` is fixed for a hand (trump suit or none, high or low, what jokers are).
It precomputes, for each led suit, a table of 54 "powers": 0 for a card that cannot win
the trick, otherwise a number that is larger for a better card. Resolving a trick is then
a few list look-ups and no allocation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import ACE, BIG_JOKER, LITTLE_JOKER, NO_SUIT, SUIT_MASKS, Card, CardSet, cards_of

_TRUMP_BASE = 100  # any trump beats any card of the led suit
_LOW_ACE_KEY = 1  # an ace called low ranks below the two (3B)


@dataclass(frozen=True)
class CardOrder:
    """How cards rank in a hand.

    trump: the trump suit (0..3) or NO_SUIT for no trump.
    low: rank A 2 3 ... K (ace best, then two; whist "low"/"downtown") instead of A K ... 2.
    jokers_trump: jokers are the top trumps (big above little) and follow as the trump
        suit; otherwise jokers belong to no suit and never win (whist no-trump).
    """

    trump: int = NO_SUIT
    low: bool = False
    jokers_trump: bool = True
    suit_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    suit_masks: tuple[CardSet, ...] = field(init=False, repr=False, compare=False)
    powers: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        suit_of = [c // 13 for c in range(52)] + [NO_SUIT, NO_SUIT]
        masks = list(SUIT_MASKS)
        if self.jokers_trump and self.trump != NO_SUIT:
            suit_of[LITTLE_JOKER] = suit_of[BIG_JOKER] = self.trump
            masks[self.trump] |= (1 << LITTLE_JOKER) | (1 << BIG_JOKER)
        object.__setattr__(self, "suit_of", tuple(suit_of))
        object.__setattr__(self, "suit_masks", tuple(masks))
        tables = []
        for led in range(4):
            table = []
            for c in range(54):
                suit = suit_of[c]
                key = self.rank_key(c)
                if suit == NO_SUIT:
                    table.append(0)
                elif suit == self.trump:
                    table.append(_TRUMP_BASE + key)
                elif suit == led:
                    table.append(key)
                else:
                    table.append(0)
            tables.append(tuple(table))
        object.__setattr__(self, "powers", tuple(tables))

    def rank_key(self, c: Card) -> int:
        """Larger is better within a suit: 2..14 for A..2 / 2..K, 15 and 16 for the jokers."""
        if c == LITTLE_JOKER:
            return 15
        if c == BIG_JOKER:
            return 16
        rank = c % 13
        if not self.low:
            return rank + 2
        return 14 if rank == ACE else 13 - rank

    def between(self, a: Card, b: Card) -> CardSet:
        """The cards of a's suit (as this order sees it) that rank strictly between a and
        b: none for a card of no suit."""
        suit = self.suit_of[a]
        if suit == NO_SUIT:
            return 0
        low, high = sorted((self.rank_key(a), self.rank_key(b)))
        out = 0
        for c in cards_of(self.suit_masks[suit]):
            if low < self.rank_key(c) < high:
                out |= 1 << c
        return out

    def power(self, c: Card, led_suit: int, ace_low: bool = False) -> int:
        """How well card c does in a trick led in ``led_suit``; 0 if it cannot win."""
        p = self.powers[led_suit][c]
        if ace_low and p:
            # the ace keeps its suit (trump or led) but ranks below the two
            return p - self.rank_key(c) + _LOW_ACE_KEY
        return p

    def winner(self, cards: list[Card], led_suit: int, low_aces: int = 0) -> int:
        """Index in ``cards`` of the card that wins. ``low_aces`` has bit i set when the
        i-th card is an ace called low."""
        table = self.powers[led_suit]
        best, best_i = -1, 0
        for i, c in enumerate(cards):
            p = table[c]
            if low_aces and low_aces >> i & 1:  # (no shift at all in the usual trick)
                p = self.power(c, led_suit, True)
            if p > best:
                best, best_i = p, i
        return best_i


SPADES_TRUMP = CardOrder(trump=0)
"""Spades are trumps, aces high; a joker (3B) is the highest spade."""
