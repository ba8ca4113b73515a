"""Cards, suits, ranks, jokers and card sets.

A card is a small int and a set of cards is an int bitmask (bit ``c`` set when card ``c``
is in the set), so set algebra, membership and counting are single integer operations with
no allocation. Card ``c`` for a suited card is ``suit * 13 + rank`` with suits in the
record notation's order ``S H D C`` (0..3) and ranks from ``2`` (0) to ``A`` (12); the two
jokers follow: ``LJ`` (52) and ``BJ`` (53).

Notation (records.md): rank then suit, ``AS``, ``TH`` (``10H`` is read as ``TH``), either
case; jokers ``BJ`` (big, or the only joker) and ``LJ`` (little).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat, starmap

Card = int
CardSet = int

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_LETTERS = "23456789TJQKA"
TWO, THREE, JACK, QUEEN, KING, ACE = 0, 1, 9, 10, 11, 12

LITTLE_JOKER: Card = 52
BIG_JOKER: Card = 53
JOKERS: CardSet = (1 << LITTLE_JOKER) | (1 << BIG_JOKER)
NO_SUIT = -1

SUIT_MASKS: tuple[CardSet, ...] = tuple(0x1FFF << (13 * s) for s in SUITS)
SUITED: CardSet = (1 << 52) - 1
SPADE_MASK: CardSet = SUIT_MASKS[SPADES]
"""The spades: trumps in every Spades game."""
NOT_SPADES: CardSet = ~SPADE_MASK
"""Every card but the spades (a negative int), worked out once: ``~SPADE_MASK`` makes a
new int every time, and a lead asks for it."""


def card(rank: int, suit: int) -> Card:
    """The card of a rank (0 = two .. 12 = ace) and a suit (0..3)."""
    return suit * 13 + rank


def suit_of(c: Card) -> int:
    """The printed suit of a card; NO_SUIT for a joker."""
    return c // 13 if c < 52 else NO_SUIT


def rank_of(c: Card) -> int:
    """The printed rank of a suited card, 0 (two) .. 12 (ace)."""
    return c % 13


def is_joker(c: Card) -> bool:
    return c >= 52


def card_str(c: Card) -> str:
    """Record notation of one card: ``AS``, ``TH``, ``BJ``."""
    if c == BIG_JOKER:
        return "BJ"
    if c == LITTLE_JOKER:
        return "LJ"
    return RANK_LETTERS[c % 13] + SUIT_LETTERS[c // 13]


_PARSE: dict[str, Card] = {card_str(c): c for c in range(54)}
for _c in range(52):
    if _c % 13 == 8:  # the ten: "10H" is also accepted
        _PARSE["10" + SUIT_LETTERS[_c // 13]] = _c


def parse_card(text: str) -> Card:
    """Parse one card in record notation, either case. Raises ValueError naming the text."""
    # ASCII only: str.upper() maps look-alikes onto letters ("\u017f".upper() == "S")
    c = _PARSE.get(text.strip().upper()) if text.isascii() else None
    if c is None:
        raise ValueError(
            f"{text!r} is not a card: write rank then suit (AS, TH, 10H, 7C) or BJ/LJ for a joker"
        )
    return c


def bit(c: Card) -> CardSet:
    return 1 << c


BIT_OF: dict[Card, CardSet] = {c: 1 << c for c in range(54)}
"""Each card's bit: ``sum(map(BIT_OF.__getitem__, cards))`` makes the set of distinct
cards in half the time of shifting them one by one (a deal does it for every hand), and
a number that is no card raises KeyError rather than making a bit."""


def from_cards(cards: Iterable[Card]) -> CardSet:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: CardSet) -> Iterator[Card]:
    """The cards of a set, lowest index first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: CardSet) -> int:
    return mask.bit_count()


def lowest(mask: CardSet) -> Card:
    return (mask & -mask).bit_length() - 1


def highest(mask: CardSet) -> Card:
    return mask.bit_length() - 1


def parse_cards(text: str) -> list[Card]:
    """Parse space-separated cards, keeping their order (dummy positions depend on it)."""
    return [parse_card(t) for t in text.split()]


def parse_set(text: str) -> CardSet:
    """Parse space-separated cards into a set. Raises ValueError on a repeated card."""
    cards = parse_cards(text)
    mask = from_cards(cards)
    if mask.bit_count() != len(cards):
        seen: set[Card] = set()
        dup = next(c for c in cards if c in seen or seen.add(c))  # type: ignore[func-returns-value]
        raise ValueError(f"card {card_str(dup)} appears twice in {text!r}")
    return mask


def display_order(c: Card) -> tuple[int, int]:
    """Sort key for showing a hand: jokers first, then suits S H D C, high rank first."""
    if c >= 52:
        return (-1, -c)
    return (c // 13, -(c % 13))


def sorted_for_display(mask: CardSet) -> list[Card]:
    return sorted(cards_of(mask), key=display_order)


def format_cards(cards: Iterable[Card]) -> str:
    """Space-separated record notation, in the order given."""
    return " ".join(card_str(c) for c in cards)


def format_set(mask: CardSet) -> str:
    """Space-separated record notation, sorted for display."""
    return format_cards(sorted_for_display(mask))


# --- decks --------------------------------------------------------------------------------

STANDARD_DECK: CardSet = SUITED
ONE_JOKER_DECK: CardSet = SUITED | (1 << BIG_JOKER)
TWO_JOKER_DECK: CardSet = SUITED | JOKERS
PAPERLESS_DECK: CardSet = SUITED & ~from_cards(
    card(r, s) for r in (TWO, THREE) for s in (SPADES, HEARTS)
)


@functools.lru_cache(maxsize=64)
def deck_cards(deck: CardSet) -> tuple[Card, ...]:
    """The cards of a deck in card order, remembered per deck."""
    # a game deals from one or two decks thousands of times: list their cards once
    return tuple(cards_of(deck))


def shuffled(deck: CardSet, rng: random.Random) -> list[Card]:
    """The cards of a deck in a random order drawn from ``rng`` (reproducible by seed).
    Each card gets a random key and the deck is sorted by the keys: every order equally
    likely, like ``rng.shuffle``, in half its time (one C call per card, not three)."""
    cards = deck_cards(deck)
    # each card's key is the next number drawn, in card order (the same draws as a key
    # function calling ``rng.random``): ``next(draws, card)``, which runs no Python
    # frame per card (a lambda's cost about 0.7 us a deck of 52)
    draws = starmap(rng.random, repeat((), len(cards)))
    return sorted(cards, key=functools.partial(next, draws))


def deal_piles(deck: CardSet, sizes: Sequence[int], rng: random.Random
               ) -> list[tuple[Card, ...]]:
    """Shuffle a deck and cut it into piles of the given sizes (which must use it all)."""
    cards = tuple(shuffled(deck, rng))  # cut into tuples at once, as a Deal holds them
    if sum(sizes) != len(cards):
        raise ValueError(f"piles of {list(sizes)} do not use a deck of {len(cards)} cards")
    piles: list[tuple[Card, ...]] = []
    start = 0
    for size in sizes:
        piles.append(cards[start : start + size])
        start += size
    return piles
