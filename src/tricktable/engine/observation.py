"""What one seat may see at one moment.

An observation is built from the state by the game and holds nothing the seat may not
know now: its own cards, the cards of other holdings it is allowed to see (a dummy that
is face up, cards it peeked at or that were flipped), and the public record of the hand
with hidden parts (a pass to partner seen by others, a thrown-back extra card) redacted.
Bots, the terminal and the web table are given observations, never states.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import Card, CardSet
from .state import Phase, Trick


@dataclass(frozen=True)
class Observation:
    """One seat's view of the table.

    seat: the seat observing.
    controls: the seats whose choices this seat makes now (itself, and a dummy it plays).
    to_act: the seat whose turn it is (-1 when the cards are to be dealt or the game is over).
    hand: the observing seat's own cards.
    visible: per seat, the cards of that seat's current holding the observer can see
        (its own hand; a face-up dummy; peeked or flipped dummy cards).
    hand_sizes: how many cards each seat holds (public).
    trick: the current trick so far as (seat, card) pairs; led_suit is -1 before a lead.
    tricks: the completed tricks of this hand (public: every played card is seen).
    won: tricks won so far this hand, per seat.
    played: every card played to a trick this hand.
    totals: the game scores so far, keyed like the replay output.
    history: this hand's actions in record notation as this seat saw them; hidden parts
        are written "?" (a pass to partner seen by the opponents, say).
    info: the game's further public facts (bids, declarer, trumps, bags, zero pot ...)
        and, where the seat knows something privately, its private facts.
    legal: the actions the seat may take now, for itself and the seats it controls,
        including actions out of turn (3B changes of bid, whist renege calls); empty if none.
    """

    game: str
    seat: int
    phase: Phase
    hand_number: int
    dealer: int
    to_act: int
    controls: tuple[int, ...]
    hand: CardSet
    visible: tuple[CardSet, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    led_suit: int
    tricks: tuple[Trick, ...]
    won: tuple[int, ...]
    played: CardSet
    totals: Mapping[str, int]
    history: tuple[str, ...]
    info: Mapping[str, Any] = field(default_factory=dict)
    legal: tuple[Action, ...] = ()

    @classmethod
    def build(cls, fields: dict[str, Any]) -> Observation:
        """An observation made from a dict of all its fields, which it takes as its own,
        without the frozen dataclass's ``__init__`` (which sets each field through
        ``object.__setattr__``: 6.6 us against 0.8 here) and without passing them as
        keywords (a second dict, 0.8 us more): one is made at every decision of every
        bot, playouts included. It is as frozen as one made the usual way."""
        obs = object.__new__(cls)
        object.__setattr__(obs, "__dict__", fields)
        return obs

    @property
    def my_turn(self) -> bool:
        return self.to_act in self.controls and bool(self.legal)
