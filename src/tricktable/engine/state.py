"""The game state: one object per table, with an explicit phase.

A state is changed only through ``tricktable.step`` (or a game's ``apply`` after its
``check``), which either applies a legal action completely or raises and changes nothing.
The state is mutated in place rather than copied per action because copying ~20 fields on
each of ~60 actions a hand would cost more than the rules themselves; ``copy()`` gives an
independent state for search and what-ifs.
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import Action, Deal
from .cards import Card, CardSet
from .order import CardOrder

if TYPE_CHECKING:
    from .game import Game


class Phase(enum.Enum):
    """Where a hand is. Every game passes through a subset of these, in this order
    (Paperless passes cards in EXCHANGE before BIDDING)."""

    DEAL = "deal"
    """Waiting for the cards of the first hand (a chance action)."""
    REVEAL = "reveal"
    """Looks at face-down cards before bidding: peeks and flips, keep or swap."""
    BIDDING = "bidding"
    EXCHANGE = "exchange"
    """Cards change hands: passes to partner, the extra card, a declarer's discards."""
    DECLARE = "declare"
    """The declarer names trumps or the direction (whist)."""
    PLAY = "play"
    SCORING = "scoring"
    """The hand is over and scored; the next hand's deal starts the next hand."""
    GAME_OVER = "game over"

    # Members are singletons, so hashing by identity is right, and it is done in C:
    # Enum's own __hash__ (a Python method hashing the name) showed up when profiling
    # ``check``, which looks the phase up on every action.
    __hash__ = object.__hash__


class Trick(NamedTuple):
    """A completed trick: who led, the plays in order, who won. (A named tuple rather
    than a frozen dataclass: one is made per trick, and a frozen dataclass takes four
    times as long to make.)"""

    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int
    led_suit: int
    low_aces: int = 0  # bit i: the i-th card is an ace called low


@dataclass(frozen=True)
class HandResult:
    """The outcome of one hand. ``scores``/``totals`` are keyed like the record's replay
    output: by seat for individual games, by team ("0" = seats 0+2) for partnerships.
    ``details`` holds running state documented per game (bags, zero pot, ...)."""

    scores: Mapping[str, int]
    totals: Mapping[str, int]
    details: Mapping[str, Any] = field(default_factory=dict)
    lines: tuple[str, ...] = field(default_factory=tuple)
    """The score explained in words, a line per item (see ``Game.hand_lines``). A result
    made by ``lines_later`` writes them when first read. (A default factory, not a
    default, so that the class has no ``lines`` attribute to hide an unwritten one.)"""

    @classmethod
    def lines_later(
        cls, scores: Mapping[str, int], totals: Mapping[str, int], details: Mapping[str, Any],
        write_lines: Callable[[], Iterable[str]],
    ) -> HandResult:
        """A result whose ``lines`` are ``tuple(write_lines())``, called when they are first
        read: most results (playouts, simulations) are never shown, and writing the words
        took a third of the time of scoring a hand. ``write_lines`` must not depend on
        anything that changes after the hand (see ``Game.hand_lines_later``)."""
        result = object.__new__(cls)
        object.__setattr__(result, "__dict__", {
            "scores": scores, "totals": totals, "details": details, "_write_lines": write_lines,
        })
        return result

    def __getattr__(self, name: str) -> Any:
        # only reached for an attribute not set: the lines of a ``lines_later`` result
        write = self.__dict__.get("_write_lines") if name == "lines" else None
        if write is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        lines = tuple(write())
        object.__setattr__(self, "lines", lines)
        del self.__dict__["_write_lines"]
        return lines

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles hold the lines written, never the function that writes them."""
        return {f: getattr(self, f) for f in ("scores", "totals", "details", "lines")}


@dataclass(frozen=True)
class HandLog:
    """What a record stores of one hand: the deal and every action after it."""

    deal: Deal
    actions: tuple[Action, ...]


_BETWEEN_HANDS = (Phase.DEAL, Phase.SCORING, Phase.GAME_OVER)
_DEAL = Phase.DEAL  # (a member read off the Enum class costs ~70 ns: see game.py)


class State:
    """The state of a game at a table. Games subclass it to add their own fields."""

    __slots__ = (
        "_best_power",
        "_best_seat",
        "_hand_facts",
        "_histories",
        "_legal_other",
        "_legal_plays",
        "actions",
        "deal",
        "dealer",
        "game",
        "hand_number",
        "hands",
        "leader",
        "led_suit",
        "low_aces",
        "next_seat",
        "order",
        "past_hands",
        "phase",
        "played",
        "results",
        "to_act",
        "totals",
        "trick_cards",
        "trick_seats",
        "tricks",
        "tricks_per_hand",
        "trump_broken",
        "winner",
        "won",
    )

    def __init__(self, game: Game) -> None:
        n = game.num_seats
        self.game = game
        self.phase = _DEAL
        self.hand_number = -1
        self.dealer = -1
        self.deal: Deal | None = None
        self.hands: list[CardSet] = [0] * n
        self.to_act = -1
        self.next_seat: list[int] = list(game._clockwise)
        self.leader = -1
        self.trick_seats: list[int] = []
        self.trick_cards: list[Card] = []
        self.low_aces = 0
        self.led_suit = -1
        self.order: CardOrder = game.default_order
        self.tricks: list[Trick] = []
        self.tricks_per_hand = 0
        self.won: list[int] = [0] * n
        self.played: CardSet = 0
        self.trump_broken = False
        self.actions: list[Action] = []
        self.past_hands: tuple[HandLog, ...] = ()
        self.results: list[HandResult] = []
        self.totals: list[int] = [0] * game.num_entities
        self.winner: int | None = None
        # The cards the seat to act may play, once asked during play (0: not known; never
        # set outside the play of the cards, so nonzero says the phase is PLAY).
        # ``Game.apply`` forgets it on every change, so ``legal_actions`` and ``check``
        # share one computation per state (``play_card`` may work out the next seat's).
        # Code that edits fields by hand (tests setting up a position) calls
        # ``changed()`` afterwards.
        self._legal_plays = 0
        # The best card of the current trick so far: its power in the hand's card order
        # (``CardOrder.powers`` for the suit led) and its seat, kept by ``play_card`` so
        # that ``finish_trick`` need not look through the trick (unless an ace was called
        # low: then it asks the order).
        self._best_power = 0
        self._best_seat = -1
        # the same for the other actions: outside play the legal list, in play the actions
        # beside the plain plays (3B's aces called low, whist renege calls)
        self._legal_other: tuple[Action, ...] | None = None
        # Per viewer, the hand's history as it saw it: (the actions list it was written
        # from, the game's redaction epoch, the lines). See ``Game.history_for``.
        self._histories: dict[int, tuple[list[Action], object, tuple[str, ...]]] = {}
        # Per viewer, the game's public facts that stay fixed through the play of this
        # hand: (the actions list they were worked out for, the facts). See
        # ``Game.play_facts``.
        self._hand_facts: dict[int, tuple[list[Action], dict[str, Any]]] = {}

    def changed(self) -> None:
        """Forget what was worked out from the fields (after editing them by hand)."""
        self._legal_plays = 0
        self._legal_other = None
        self._histories = {}
        self._hand_facts = {}
        if self.trick_cards:  # the trick's best card, worked out again
            order, cards, led_suit = self.order, self.trick_cards, self.led_suit
            best = order.winner(cards, led_suit, self.low_aces)
            self._best_power = order.powers[led_suit][cards[best]]
            self._best_seat = self.trick_seats[best]

    # --- conveniences ----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def finished_hands(self) -> int:
        return len(self.results)

    @property
    def hand_size(self) -> list[int]:
        """How many cards each seat holds (public): counted from the hands, so it can
        never disagree with them (a list kept beside them cost every card play a write)."""
        return list(map(int.bit_count, self.hands))

    def copy(self) -> State:
        """An independent copy (for search, hints and what-ifs): it shares nothing mutable
        with the original, finished hands' scores and details included."""
        cls = type(self)
        new = cls.__new__(cls)
        for klass in cls.__mro__:
            for name in getattr(klass, "__slots__", ()):
                if not hasattr(self, name):
                    continue
                value = getattr(self, name)
                if name in ("_histories", "_hand_facts"):
                    continue  # bound to this state's own actions list: see below
                # the game (rules and options) is shared on purpose: it never changes
                setattr(new, name, value if name == "game" else independent(value))
        # Each seat's redacted history so far holds for the copy too (same actions up to
        # now): kept, bound to the copy's own list, so that a playout from a copy does not
        # write the hand's history again for every seat.
        new._histories = {
            viewer: (new.actions, epoch, history)
            for viewer, (actions, epoch, history) in self._histories.items()
            if actions is self.actions
        }
        new._hand_facts = {}  # cheap to work out again, once per hand
        return new

    def hand_log(self) -> list[HandLog]:
        """Every hand dealt so far, the current one last, as a record stores them."""
        logs = list(self.past_hands)
        if self.deal is not None and self.phase not in _BETWEEN_HANDS:
            logs.append(HandLog(self.deal, tuple(self.actions)))
        return logs

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.name} hand {self.hand_number} "
            f"{self.phase.value} to_act={self.to_act}>"
        )


_IMMUTABLE = (int, float, str, bool, bytes, type(None), enum.Enum, Trick, HandLog)
_SHARED_TYPES: dict[type, bool] = {}
"""Per type, whether its values are immutable and may be shared by copies (worked out once
per type: a search copies states thousands of times a second)."""


def _shared(kind: type) -> bool:
    known = _SHARED_TYPES.get(kind)
    if known is None:
        params = getattr(kind, "__dataclass_params__", None)
        known = _SHARED_TYPES[kind] = (
            issubclass(kind, _IMMUTABLE)
            or issubclass(kind, CardOrder)
            or (params is not None and params.frozen and not issubclass(kind, HandResult))
        )
    return known


def independent(value: Any) -> Any:
    """A copy of ``value`` sharing nothing mutable with it. Values known to be immutable
    (numbers, texts, enums, actions, tricks, card orders) are shared as they are:
    copying them would only cost time."""
    kind = type(value)
    if _shared(kind):
        return value
    if kind is list:
        if all(_shared(type(v)) for v in value):
            return value[:]
        return [independent(v) for v in value]
    if kind is tuple:
        if all(_shared(type(v)) for v in value):
            return value
        return tuple(independent(v) for v in value)
    if kind is dict:
        return {k: independent(v) for k, v in value.items()}
    if kind is set:
        return set(value)
    if isinstance(value, HandResult):
        return HandResult(
            independent(value.scores), independent(value.totals), independent(value.details),
            value.lines,
        )
    return copy.deepcopy(value)
