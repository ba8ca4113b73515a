"""Actions and their record notation ``"SEAT: VERB ARGS"``.

Every action names the seat it is for; a dummy's actions carry the dummy's seat and are
chosen by its declarer. Actions are frozen values; the ones on the hot path (``Play``) are
interned so that listing legal plays allocates nothing new.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import ClassVar

from .cards import Card, CardSet, card_str, format_cards, parse_card, sorted_for_display
from .errors import NotationError

CHANCE = -1  # the seat of chance actions (the deal)

WHIST_MODES = ("uptown", "downtown", "notrump")
SUIT_WORDS = {"S": 0, "H": 1, "D": 2, "C": 3}


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions: the seat the action is for."""

    seat: int
    verb: ClassVar[str] = ""

    def args(self) -> str:
        return ""

    def __str__(self) -> str:
        return _notation(self)


@functools.lru_cache(maxsize=1 << 16)
def _notation(action: Action) -> str:
    """Record notation of an action, remembered: observations render a hand's history
    for every seat at every step, and actions are immutable."""
    args = action.args()
    return f"{action.seat}: {action.verb}" + (f" {args}" if args else "")


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """Chance: the cards of a hand. ``hands[s]`` lists seat s's cards in dealt order;
    ``extra`` is the card(s) left in the middle (3B's extra card), in order."""

    dealer: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    extra: tuple[Card, ...] = ()
    verb: ClassVar[str] = "deal"

    def args(self) -> str:
        parts = [f"dealer={self.dealer}"]
        parts += [f"{s}=[{format_cards(h)}]" for s, h in enumerate(self.hands) if h]
        if self.extra:
            parts.append(f"extra=[{format_cards(self.extra)}]")
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """``bid N``; ``bid N nil=S,S`` (Dummy Hand Spades); ``bid N uptown`` (whist);
    ``bid 0 blind`` (blind nil, standard Spades option)."""

    tricks: int = 0
    nils: tuple[int, ...] = ()
    mode: str = ""
    blind: bool = False
    verb: ClassVar[str] = "bid"

    def args(self) -> str:
        text = str(self.tricks)
        if self.nils:
            text += " nil=" + ",".join(str(s) for s in self.nils)
        if self.mode:
            text += " " + self.mode
        if self.blind:
            text += " blind"
        return text


@dataclass(frozen=True, slots=True)
class Rebid(Action):
    """``rebid N``: a change of one's own bid while the rules allow (3B)."""

    tricks: int = 0
    verb: ClassVar[str] = "rebid"

    def args(self) -> str:
        return str(self.tricks)


@dataclass(frozen=True, slots=True)
class Pass(Action):
    verb: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """``play CARD``; ``play AH low`` calls an ace low (3B, 4 and 5 players)."""

    card: Card = 0
    ace_low: bool = False
    verb: ClassVar[str] = "play"

    def args(self) -> str:
        return card_str(self.card) + (" low" if self.ace_low else "")

    def __str__(self) -> str:
        # plays are most of every history an observation writes: their texts are listed
        # once per seat and card rather than hashed into the notation cache each time
        seat, card = self.seat, self.card
        if type(seat) is int and type(card) is int and 0 <= seat < 6 and 0 <= card < 54:
            return _PLAY_TEXTS[bool(self.ace_low)][seat][card]
        return _notation(self)

    @staticmethod
    def of(seat: int, card: Card, ace_low: bool = False) -> Play:
        """The interned play of a card (no allocation on the hot path)."""
        if ace_low:
            return PLAYS_LOW_BY_SEAT[seat][card]
        return PLAYS_BY_SEAT[seat][card]


PLAYS_BY_SEAT = [[Play(s, c) for c in range(54)] for s in range(6)]
PLAYS_LOW_BY_SEAT = [[Play(s, c, True) for c in range(54)] for s in range(6)]
_PLAY_TEXTS = [
    [[_notation(p) for p in by_seat] for by_seat in PLAYS_BY_SEAT],
    [[_notation(p) for p in by_seat] for by_seat in PLAYS_LOW_BY_SEAT],
]


def _cards_arg(cards: tuple[Card, ...]) -> str:
    return format_cards(cards)


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """``exchange CARD``: take the extra card into hand and throw CARD back (3B)."""

    card: Card = 0
    verb: ClassVar[str] = "exchange"

    def args(self) -> str:
        return card_str(self.card)


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """``discard C C``: the declarer's two discards from a 15-card dummy (whist, jokers)."""

    cards: tuple[Card, ...] = ()
    verb: ClassVar[str] = "discard"

    def args(self) -> str:
        return _cards_arg(self.cards)


@dataclass(frozen=True, slots=True)
class Give(Action):
    """``give C C C``: the cards passed to partner (Paperless; blind nil exchange)."""

    cards: tuple[Card, ...] = ()
    verb: ClassVar[str] = "give"

    def args(self) -> str:
        return _cards_arg(self.cards)


@dataclass(frozen=True, slots=True)
class Trump(Action):
    """``trump S|H|D|C``: trumps named after an uptown/downtown bid (whist)."""

    suit: int = 0
    verb: ClassVar[str] = "trump"

    def args(self) -> str:
        return "SHDC"[self.suit]


@dataclass(frozen=True, slots=True)
class Direction(Action):
    """``direction high|low``: after a no-trump bid (whist)."""

    low: bool = False
    verb: ClassVar[str] = "direction"

    def args(self) -> str:
        return "low" if self.low else "high"


@dataclass(frozen=True, slots=True)
class Peek(Action):
    """``peek P P P``: dummy positions looked at privately (Dummy Hand Spades)."""

    positions: tuple[int, ...] = ()
    verb: ClassVar[str] = "peek"

    def args(self) -> str:
        return " ".join(str(p) for p in self.positions)


@dataclass(frozen=True, slots=True)
class Flip(Action):
    """``flip P P``: dummy positions turned face up for all (Dummy Hand Spades)."""

    positions: tuple[int, ...] = ()
    verb: ClassVar[str] = "flip"

    def args(self) -> str:
        return " ".join(str(p) for p in self.positions)


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """``keep``: play the hand as dealt (double dummy whist)."""

    verb: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """``swap``: take the dead hand on one's right instead (double dummy whist)."""

    verb: ClassVar[str] = "swap"


@dataclass(frozen=True, slots=True)
class Renege(Action):
    """``renege T``: a renege called in trick T, 1-based (whist, honour mode)."""

    trick: int = 1
    verb: ClassVar[str] = "renege"

    def args(self) -> str:
        return str(self.trick)


# --- parsing ------------------------------------------------------------------------------


_NUMBER = re.compile(r"[0-9]{1,3}")


def _int(text: str, what: str) -> int:
    """A number as the notation writes it: ASCII digits only (``int`` would also take
    "1_0", "+3", " 3" and other scripts' digits)."""
    if not _NUMBER.fullmatch(text):
        raise NotationError(f"{what} must be a number written in digits 0-9, not {text!r}")
    return int(text)


def _card(text: str) -> Card:
    try:
        return parse_card(text)
    except ValueError as e:
        raise NotationError(str(e)) from None


def _expect(args: list[str], n: int, usage: str) -> None:
    if len(args) != n:
        raise NotationError(f"expected {usage}")


def parse_action(text: str) -> Action:
    """Parse ``"SEAT: VERB ARGS"`` into an action. Raises NotationError saying what is wrong.

    Parsing checks only the form; whether the action is legal is the game's business.
    """
    if not text.isascii():
        raise NotationError(
            f"{text!r} is not an action: the notation uses plain ASCII letters and digits"
        )
    head, sep, rest = text.partition(":")
    if not sep:
        raise NotationError(f"{text!r} is not an action: write 'SEAT: VERB ARGS', e.g. '1: bid 4'")
    seat = _int(head.strip(), "the seat")
    words = rest.split()
    if not words:
        raise NotationError(f"{text!r} has no verb after the seat")
    verb, args = words[0].lower(), words[1:]
    if verb == "play":
        if not args or len(args) > 2 or (len(args) == 2 and args[1].lower() not in ("low", "high")):
            raise NotationError("expected 'play CARD' or 'play AH low'")
        c = _card(args[0])
        low = len(args) == 2 and args[1].lower() == "low"
        return Play.of(seat, c, low) if 0 <= seat < 6 else Play(seat, c, low)
    if verb == "bid":
        if not args:
            raise NotationError("expected 'bid N'")
        tricks = _int(args[0], "a bid")
        nils: tuple[int, ...] = ()
        mode = ""
        blind = False
        seen: set[str] = set()
        for arg in args[1:]:
            word = arg.lower()
            kind = "nil=" if word.startswith("nil=") else word
            if kind in WHIST_MODES and mode:
                raise NotationError(f"{text.strip()!r} names two modes: a bid has one")
            if kind in seen:
                raise NotationError(f"{text.strip()!r} says {arg!r} twice: a bid says it once")
            seen.add(kind)
            if kind == "nil=":
                items = word[4:].split(",")
                if not word[4:] or "" in items:
                    raise NotationError(
                        f"{arg!r} names no seat: write nil= then seats with commas, e.g. nil=1,3"
                    )
                nils = tuple(_int(s, "a nil seat") for s in items)
                if len(set(nils)) != len(nils):
                    raise NotationError(f"a seat is named twice in {arg!r}")
            elif word in WHIST_MODES:
                mode = word
            elif word == "blind":
                blind = True
            else:
                raise NotationError(
                    f"{arg!r} is not part of a bid: expected nil=S,S, uptown, downtown, notrump"
                    " or blind"
                )
        return Bid(seat, tricks, nils, mode, blind)
    if verb == "rebid":
        _expect(args, 1, "'rebid N'")
        return Rebid(seat, _int(args[0], "a bid"))
    if verb == "pass":
        _expect(args, 0, "'pass' with nothing after it")
        return Pass(seat)
    if verb == "exchange":
        _expect(args, 1, "'exchange CARD'")
        return Exchange(seat, _card(args[0]))
    if verb == "discard":
        return Discard(seat, tuple(_card(a) for a in args))
    if verb == "give":
        return Give(seat, tuple(_card(a) for a in args))
    if verb == "trump":
        _expect(args, 1, "'trump S|H|D|C'")
        suit = SUIT_WORDS.get(args[0].upper())
        if suit is None:
            raise NotationError(f"{args[0]!r} is not a suit: expected S, H, D or C")
        return Trump(seat, suit)
    if verb == "direction":
        _expect(args, 1, "'direction high|low'")
        if args[0].lower() not in ("high", "low"):
            raise NotationError(f"{args[0]!r} is not a direction: expected high or low")
        return Direction(seat, args[0].lower() == "low")
    if verb in ("peek", "flip"):
        positions = tuple(_int(a, "a dummy position") for a in args)
        return Peek(seat, positions) if verb == "peek" else Flip(seat, positions)
    if verb == "keep":
        _expect(args, 0, "'keep' with nothing after it")
        return Keep(seat)
    if verb == "swap":
        _expect(args, 0, "'swap' with nothing after it")
        return Swap(seat)
    if verb == "renege":
        _expect(args, 1, "'renege T' with the trick number")
        return Renege(seat, _int(args[0], "a trick number"))
    raise NotationError(
        f"unknown verb {verb!r}: expected one of bid, rebid, pass, play, exchange, discard, "
        "give, trump, direction, peek, flip, keep, swap, renege"
    )


def describe_cards(mask: CardSet) -> str:
    """Cards of a set in display order, for messages."""
    return format_cards(sorted_for_display(mask))
