"""Actions and their record notation ``"SEAT: VERB ARGS"``.

Every action names the seat it is for; a dummy's actions carry the dummy's seat and are
chosen by its declarer. Actions are frozen values; the ones on the hot path (``Play``) are
interned so that listing legal plays allocates nothing new.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from .cards import Card, CardSet, card_str, format_cards, parse_card, sorted_for_display
from .errors import IllegalAction, NotationError, shown

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
        return _text(self)


def _text(action: Action) -> str:
    """The notation of an action; for one whose fields no action can hold (made in Python:
    ``Trump(0, 4)``), a stand-in that says so, since an error message may name it. Only a
    well-formed action's text is remembered: ``Bid(0, True)`` equals ``Bid(0, 1)`` (True
    == 1, with the same hash), and its text must never become the other's."""
    try:
        check_fields(action)
    except IllegalAction:
        return f"{shown(action.seat)}: {action.verb} (malformed: {shown(action)})"
    try:
        return _notation(action)
    except (TypeError, ValueError, IndexError, KeyError):  # unhashable, or no such card
        return f"{shown(action.seat)}: {action.verb} (malformed: {shown(action)})"


def _card_text(c: Card) -> str:
    """A card's notation; IndexError for a number that is no card (``card_str`` would
    write -1 as "AC")."""
    if not 0 <= c < 54:
        raise IndexError(c)
    return card_str(c)


def _cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(map(_card_text, cards))


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
        parts += [f"{s}=[{_cards_text(h)}]" for s, h in enumerate(self.hands) if h]
        if self.extra:
            parts.append(f"extra=[{_cards_text(self.extra)}]")
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
        return _card_text(self.card) + (" low" if self.ace_low else "")

    def __str__(self) -> str:
        # plays are most of every history an observation writes: their texts are listed
        # once per seat and card rather than hashed into the notation cache each time
        seat, card = self.seat, self.card
        if type(seat) is int and type(card) is int and 0 <= seat < 6 and 0 <= card < 54:
            return _PLAY_TEXTS[bool(self.ace_low)][seat][card]
        return _text(self)

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


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """``exchange CARD``: take the extra card into hand and throw CARD back (3B)."""

    card: Card = 0
    verb: ClassVar[str] = "exchange"

    def args(self) -> str:
        return _card_text(self.card)


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """``discard C C``: the declarer's two discards from a 15-card dummy (whist, jokers)."""

    cards: tuple[Card, ...] = ()
    verb: ClassVar[str] = "discard"

    def args(self) -> str:
        return _cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class Give(Action):
    """``give C C C``: the cards passed to partner (Paperless; blind nil exchange)."""

    cards: tuple[Card, ...] = ()
    verb: ClassVar[str] = "give"

    def args(self) -> str:
        return _cards_text(self.cards)


@dataclass(frozen=True, slots=True)
class Trump(Action):
    """``trump S|H|D|C``: trumps named after an uptown/downtown bid (whist)."""

    suit: int = 0
    verb: ClassVar[str] = "trump"

    def args(self) -> str:
        if not 0 <= self.suit < 4:
            raise IndexError(self.suit)  # "SHDC"[-1] would be C
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


# --- fields -------------------------------------------------------------------------------
# An action made in Python may hold in a field what no action of its kind can (a card 99,
# a suit 4, a bid of "3"); the notation cannot write such a thing, and a game's rules are
# written for fields of the right kind. ``check_fields`` refuses it first, for every game.

_CARD_ALLOWED = "a card: record notation AS, TH, 7C, BJ, LJ (card numbers 0 to 53)"
_CARD_NUMBERS = frozenset(range(54))
_JUST_INT = frozenset((int,))
_JUST_TUPLE = frozenset((tuple,))


def check_fields(action: Action) -> None:
    """Raise IllegalAction, naming what the field may hold, if a field of ``action`` holds
    a value no action of its kind can have: a card other than the 54, a suit other than
    0 to 3, a negative bid, a text or a list where a number or a tuple belongs. Values of
    the right kind that a game does not allow (a bid of 14, seat 7) are the game's to
    refuse, with its own rule."""
    check = _FIELD_CHECKS.get(type(action))
    if check is None:
        raise IllegalAction(
            "actions", f"{shown(action)} is not an action of the record notation",
            "an action of tricktable.engine.actions",
        )
    if type(action.seat) is not int:
        raise IllegalAction("seats", f"the seat {shown(action.seat)} is not a seat number",
                            "a seat number 0, 1, 2 ...")
    check(action)


def _card_field(value: object, verb: str) -> None:
    if type(value) is not int or not 0 <= value < 54:
        raise IllegalAction("cards", f"{verb}: {shown(value)} is not a card", _CARD_ALLOWED)


def _cards_field(value: object, verb: str) -> None:
    if type(value) is not tuple:
        raise IllegalAction("cards", f"{verb}: {shown(value)} is not a tuple of cards",
                            f"a tuple of cards, each {_CARD_ALLOWED}")
    # tested in C first (a deal's 52 cards pass through here every hand); the loop only
    # finds the card to name
    if not (_CARD_NUMBERS.issuperset(value) and _JUST_INT.issuperset(map(type, value))):
        for c in value:
            _card_field(c, verb)


def _whole_field(value: object, verb: str, what: str, least: int) -> None:
    if type(value) is not int or value < least:
        raise IllegalAction(
            what, f"{verb}: {shown(value)} is not a {what[:-1]}",
            f"a whole number of {least} or more",
        )


def _numbers_field(value: object, verb: str, what: str) -> None:
    if type(value) is not tuple:
        raise IllegalAction(what, f"{verb}: {shown(value)} is not a tuple of {what}",
                            f"a tuple of {what}, whole numbers of 0 or more")
    for n in value:
        _whole_field(n, verb, what, 0)


def _yes_no_field(value: object, verb: str, name: str) -> None:
    if type(value) is not bool:
        raise IllegalAction(name, f"{verb}: {name} is {shown(value)}", f"{name} True or False")


def _deal_fields(action: Action) -> None:
    assert isinstance(action, Deal)
    if action.seat != CHANCE:
        raise IllegalAction("deal", f"a deal is chance's action, not seat {action.seat}'s",
                            f"a deal for seat {CHANCE} (chance)")
    _whole_field(action.dealer, "deal", "seats", 0)
    piles = (*action.hands, action.extra) if type(action.hands) is tuple else None
    if piles is None or not _JUST_TUPLE.issuperset(map(type, piles)):
        raise IllegalAction("deal", f"deal: the hands {shown(action.hands)} and extra "
                            f"{shown(action.extra)} are not tuples of cards",
                            "a tuple of each seat's cards, and a tuple of the extra cards")
    # every deal comes this way: tested in C (card numbers, and a sum that is an int only
    # if no card is a float or the like); card by card only to name the fault
    if not (all(map(_CARD_NUMBERS.issuperset, piles)) and type(sum(map(sum, piles))) is int):
        for pile in piles:
            _cards_field(pile, "deal")


def _bid_fields(action: Action) -> None:
    assert isinstance(action, Bid)
    _whole_field(action.tricks, "bid", "bids", 0)
    _numbers_field(action.nils, "bid", "seats")
    if action.mode not in _BID_MODES or type(action.mode) is not str:
        raise IllegalAction("bid modes", f"bid: the mode {shown(action.mode)} is no mode",
                            "uptown, downtown, notrump, or none ('')")
    _yes_no_field(action.blind, "bid", "blind")


def _rebid_fields(action: Action) -> None:
    assert isinstance(action, Rebid)
    _whole_field(action.tricks, "rebid", "bids", 0)


def _play_fields(action: Action) -> None:
    assert isinstance(action, Play)
    _card_field(action.card, "play")
    _yes_no_field(action.ace_low, "play", "ace_low")


def _exchange_fields(action: Action) -> None:
    assert isinstance(action, Exchange)
    _card_field(action.card, "exchange")


def _discard_fields(action: Action) -> None:
    assert isinstance(action, Discard)
    _cards_field(action.cards, "discard")


def _give_fields(action: Action) -> None:
    assert isinstance(action, Give)
    _cards_field(action.cards, "give")


def _trump_fields(action: Action) -> None:
    assert isinstance(action, Trump)
    if type(action.suit) is not int or not 0 <= action.suit < 4:
        raise IllegalAction("suits", f"trump: {shown(action.suit)} is not a suit",
                            "trump S, H, D or C (suits 0 to 3)")


def _direction_fields(action: Action) -> None:
    assert isinstance(action, Direction)
    _yes_no_field(action.low, "direction", "low")


def _positions_fields(action: Action) -> None:
    assert isinstance(action, Peek | Flip)
    _numbers_field(action.positions, action.verb, "dummy positions")


def _renege_fields(action: Action) -> None:
    assert isinstance(action, Renege)
    _whole_field(action.trick, "renege", "tricks", 1)


def _no_fields(action: Action) -> None:
    pass


_BID_MODES = ("", *WHIST_MODES)
_FIELD_CHECKS: dict[type[Action], Callable[[Action], None]] = {
    Deal: _deal_fields, Bid: _bid_fields, Rebid: _rebid_fields, Pass: _no_fields,
    Play: _play_fields, Exchange: _exchange_fields, Discard: _discard_fields,
    Give: _give_fields, Trump: _trump_fields, Direction: _direction_fields,
    Peek: _positions_fields, Flip: _positions_fields, Keep: _no_fields, Swap: _no_fields,
    Renege: _renege_fields,
}


# --- parsing ------------------------------------------------------------------------------


_NUMBER = re.compile(r"0|[1-9][0-9]{0,2}")


def _int(text: str, what: str) -> int:
    """A number as the notation writes it: ASCII digits only, no leading zero (``int``
    would also take "1_0", "+3", " 3", "01" and other scripts' digits)."""
    if not _NUMBER.fullmatch(text):
        raise NotationError(
            f"{what} is written in digits 0-9 without leading zeros (e.g. 1, 10), "
            f"not {shown(text)}"
        )
    return int(text)


def _card(text: str) -> Card:
    if len(text) > 3:  # no card is written longer (10H): the message shows a short text
        raise NotationError(
            f"{shown(text)} is not a card: write rank then suit (AS, TH, 10H, 7C) or BJ/LJ "
            "for a joker"
        )
    try:
        return parse_card(text)
    except ValueError as e:
        raise NotationError(str(e)) from None


def parse_action(text: str) -> Action:
    """Parse ``"SEAT: VERB ARGS"`` into an action. Raises NotationError saying what is wrong.

    Parsing checks only the form; whether the action is legal is the game's business. The
    form is strict where looseness could change the meaning: every word must be used (no
    "play AH high" read as "play AH"), numbers have no leading zeros ("01:" is not seat 1),
    no control characters. Case and spacing are free ("2:renege 5", "1: trump h"): they
    cannot.
    """
    line = text.strip()
    if not line.isascii() or not line.isprintable():
        raise NotationError(
            f"{shown(line)} is not an action: the notation uses plain ASCII letters, digits "
            "and spaces"
        )
    head, sep, rest = line.partition(":")
    if not sep:
        raise NotationError(
            f"{shown(line)} is not an action: write 'SEAT: VERB ARGS', e.g. '1: bid 4'"
        )
    seat = _int(head.strip(), "the seat")
    words = rest.split()
    if not words:
        raise NotationError(f"{shown(line)} has no verb after the seat: write 'SEAT: VERB ARGS'")
    verb, args = words[0].lower(), words[1:]

    def expect(count: int, form: str) -> None:
        if len(args) != count:
            raise NotationError(f"expected {form}, not {shown(line)}")

    if verb == "play":
        if not args or len(args) > 2 or (len(args) == 2 and args[1].lower() != "low"):
            raise NotationError(
                f"expected 'play CARD' or 'play AH low' (an ace called low), not {shown(line)}"
            )
        c = _card(args[0])
        low = len(args) == 2
        return Play.of(seat, c, low) if 0 <= seat < 6 else Play(seat, c, low)
    if verb == "bid":
        if not args:
            raise NotationError(f"expected 'bid N', not {shown(line)}")
        tricks = _int(args[0], "a bid")
        nils: tuple[int, ...] = ()
        mode = ""
        blind = False
        seen: set[str] = set()
        for arg in args[1:]:
            word = arg.lower()
            kind = "nil=" if word.startswith("nil=") else word
            if kind in WHIST_MODES and mode:
                raise NotationError(f"{shown(line)} names two modes: a bid has one")
            if kind in seen:
                raise NotationError(f"{shown(line)} says {shown(arg)} twice: a bid says it once")
            seen.add(kind)
            if kind == "nil=":
                items = word[4:].split(",")
                if not word[4:] or "" in items:
                    raise NotationError(
                        f"{shown(arg)} names no seat: write nil= then seats with commas, "
                        "e.g. nil=1,3"
                    )
                nils = tuple(_int(s, "a nil seat") for s in items)
                if len(set(nils)) != len(nils):
                    raise NotationError(f"a seat is named twice in {shown(arg)}")
            elif word in WHIST_MODES:
                mode = word
            elif word == "blind":
                blind = True
            else:
                raise NotationError(
                    f"{shown(arg)} is not part of a bid: expected nil=S,S, uptown, downtown, "
                    "notrump or blind"
                )
        return Bid(seat, tricks, nils, mode, blind)
    if verb == "rebid":
        expect(1, "'rebid N'")
        return Rebid(seat, _int(args[0], "a bid"))
    if verb == "pass":
        expect(0, "'pass' alone")
        return Pass(seat)
    if verb == "exchange":
        expect(1, "'exchange CARD'")
        return Exchange(seat, _card(args[0]))
    if verb == "discard":
        return Discard(seat, tuple(_card(a) for a in args))
    if verb == "give":
        return Give(seat, tuple(_card(a) for a in args))
    if verb == "trump":
        expect(1, "'trump S|H|D|C'")
        suit = SUIT_WORDS.get(args[0].upper())
        if suit is None:
            raise NotationError(f"{shown(args[0])} is not a suit: expected S, H, D or C")
        return Trump(seat, suit)
    if verb == "direction":
        expect(1, "'direction high|low'")
        if args[0].lower() not in ("high", "low"):
            raise NotationError(f"{shown(args[0])} is not a direction: expected high or low")
        return Direction(seat, args[0].lower() == "low")
    if verb in ("peek", "flip"):
        positions = tuple(_int(a, "a dummy position") for a in args)
        return Peek(seat, positions) if verb == "peek" else Flip(seat, positions)
    if verb == "keep":
        expect(0, "'keep' alone")
        return Keep(seat)
    if verb == "swap":
        expect(0, "'swap' alone")
        return Swap(seat)
    if verb == "renege":
        expect(1, "'renege T' (T: the trick's number, from 1)")
        return Renege(seat, _int(args[0], "a trick number"))
    raise NotationError(
        f"unknown verb {shown(verb)}: expected one of bid, rebid, pass, play, exchange, "
        "discard, give, trump, direction, peek, flip, keep, swap, renege"
    )


def describe_cards(mask: CardSet) -> str:
    """Cards of a set in display order, for messages."""
    return format_cards(sorted_for_display(mask))
