"""Trick estimation for bidding: sure tricks, trump length and voids.

The estimate is the casual player's count: an ace is a trick, a guarded king most of the
time, a queen with two guards sometimes; in trumps the top honours are tricks, and every
trump past the third is a trick once the others are drawn; a void, singleton or doubleton
turns spare trumps into ruffs. It is a float so that per-game code may round it to taste.
"""

from __future__ import annotations

from ..engine.cards import NO_SUIT, STANDARD_DECK, CardSet, cards_of, lowest
from ..engine.order import CardOrder


def estimate_tricks(
    hand: CardSet, order: CardOrder, deck: CardSet = STANDARD_DECK, opponents: int = 3
) -> float:
    """Tricks ``hand`` should take on its own with ``order``'s trumps and ranks.

    ``opponents`` is how many hands play against each trick (fewer means honours are
    safer: a king is caught less often when fewer hands might hold the ace)."""
    trump = order.trump
    tricks = 0.0
    trump_cards = hand & order.suit_masks[trump] if trump != NO_SUIT else 0
    n_trumps = trump_cards.bit_count()
    guard = 0.1 * (3 - opponents)  # honours gain a little value at smaller tables

    short_suits: list[int] = []
    no_trump = trump == NO_SUIT
    for suit in range(4):
        if suit == trump:
            continue
        cards = hand & order.suit_masks[suit] & ~trump_cards
        short_suits.append(cards.bit_count())
        if cards:
            # added one by one, as the sum was always made: the same float to the last bit
            for gain in _side_suit_gains(cards, order, deck, guard, no_trump):
                tricks += gain
    if trump != NO_SUIT:
        honours, n_tops = _trump_honours(trump_cards, order, deck)
        # spare trumps ruff short side suits; past the fourth, trumps are long-suit tricks
        spare = max(0, n_trumps - n_tops)
        ruffs = 0.0
        for length_side in sorted(short_suits):
            if spare <= 0:
                break
            if length_side == 0:
                used = min(spare, 2)
                ruffs += 0.9 * used
                spare -= used
            elif length_side == 1:
                ruffs += 0.7
                spare -= 1
            elif length_side == 2:
                ruffs += 0.3
                spare -= 1
        long_trumps = max(0, n_trumps - 4) * 0.6
        tricks += min(float(n_trumps), honours + ruffs + long_trumps)
    return tricks


_GAINS: dict[tuple[CardSet, CardSet, bool, float, bool], tuple[float, ...]] = {}
_HONOURS: dict[tuple[CardSet, CardSet, bool, int], tuple[float, int]] = {}
_MEMO_MAX = 1 << 16
"""A suit's part of an estimate depends on that suit's cards alone, and bidding, trumps
and discards estimate many hands sharing most suits (a dummy less two cards, a hand in
every mode): the parts are remembered, the tables emptied when they reach this size."""


def _side_suit_gains(
    cards: CardSet, order: CardOrder, deck: CardSet, guard: float, no_trump: bool
) -> tuple[float, ...]:
    """The tricks a side suit's cards add to an estimate, term by term in the order they
    are added (an honour's worth by its place from the top, then a long suit's run)."""
    key = (cards, deck, order.low, guard, no_trump)
    found = _GAINS.get(key)
    if found is not None:
        return found
    length = cards.bit_count()
    tops = _tops(cards, order, deck)
    gains: list[float] = []
    for i, top in enumerate(tops):
        if top == 0:
            gains.append(1.0 if length <= 6 else 0.8)
        elif top == 1 and length >= 2:
            gains.append((0.85 if i >= 1 else 0.6) + guard)
        elif top == 2 and length >= 3:
            gains.append((0.5 if i >= 1 else 0.3) + guard)
    if no_trump and tops and length > 4:
        gains.append(0.7 * (length - 4))  # without trumps a long suit's small cards run
    if len(_GAINS) >= _MEMO_MAX:
        _GAINS.clear()
    found = _GAINS[key] = tuple(gains)
    return found


def _trump_honours(trumps: CardSet, order: CardOrder, deck: CardSet) -> tuple[float, int]:
    """What the top trumps of a hand are worth, and how many of the top four it holds."""
    key = (trumps, deck, order.low, order.trump)
    found = _HONOURS.get(key)
    if found is not None:
        return found
    n_trumps = trumps.bit_count()
    tops = _tops(trumps, order, deck)
    honours = 0.0
    for top in tops:
        if top == 0:
            honours += 1.0
        elif top == 1:
            honours += 1.0 if n_trumps >= 2 else 0.5
        elif top == 2:
            honours += 0.8 if n_trumps >= 3 else 0.3
        elif top == 3:
            honours += 0.5 if n_trumps >= 4 else 0.1
    if len(_HONOURS) >= _MEMO_MAX:
        _HONOURS.clear()
    found = _HONOURS[key] = (honours, len(tops))
    return found


def _tops(cards: CardSet, order: CardOrder, deck: CardSet) -> list[int]:
    """For each card of ``cards`` (one suit) among the suit's top four in ``deck``, how
    many of the deck's cards of that suit rank above it (0 for the best card)."""
    if not cards:
        return []
    suit = order.suit_of[lowest(cards)]
    ranking = _top_four(order, order.low, deck & order.suit_masks[suit])
    return [i for i, c in enumerate(ranking) if cards >> c & 1]


_TOP_FOUR: dict[tuple[bool, CardSet], tuple[int, ...]] = {}


def _top_four(order: CardOrder, low: bool, suit_cards: CardSet) -> tuple[int, ...]:
    """The four best cards of a suit, best first. A card's rank within its suit depends
    only on the direction (``low``), so the answer is remembered by direction and cards:
    bidding evaluates many hands of the same deck."""
    key = (low, suit_cards)
    found = _TOP_FOUR.get(key)
    if found is None:
        ranking = sorted(cards_of(suit_cards), key=order.rank_key, reverse=True)
        found = _TOP_FOUR[key] = tuple(ranking[:4])
    return found


def low_card_count(hand: CardSet, order: CardOrder) -> int:
    """Cards that can hardly win: ranks 2..7 in high order (not trumps)."""
    n = 0
    for c in cards_of(hand):
        if order.suit_of[c] == order.trump:
            continue
        if order.rank_key(c) <= 8:
            n += 1
    return n


def nil_risk(hand: CardSet, order: CardOrder, aces_low: bool = False) -> float:
    """How dangerous a hand is to bid nil (0 is ideal). High cards in short suits and any
    high trump are the risks; long low suits are safe. With ``aces_low`` (3B's ace calls)
    an ace is no risk: it can always be called below the two."""
    risk = 0.0
    trump = order.trump
    for suit in range(4):
        cards = hand & order.suit_masks[suit]
        length = cards.bit_count()
        if not length:
            continue
        keys = sorted((order.rank_key(c) for c in cards_of(cards)), reverse=True)
        for i, key in enumerate(keys):
            if aces_low and key == 14:
                continue
            # cards below it in this hand protect it: a king with three small ones can duck
            covers = length - 1 - i
            if suit == trump:
                if key >= 12:
                    risk += 1.5
                elif key >= 10:
                    risk += 0.7
            if key >= 13:
                risk += max(0.2, 1.0 - 0.25 * covers)
            elif key >= 11:
                risk += max(0.1, 0.6 - 0.2 * covers)
            elif key >= 9:
                risk += max(0.0, 0.3 - 0.1 * covers)
        if suit == trump and length >= 4:
            risk += 0.5 * (length - 3)
    return risk
