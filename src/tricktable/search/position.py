"""A card-play position as the solvers see it, read from a ``State`` through the engine's
public API.

A ``Position`` holds every seat's cards, the trick in progress, who is to play, the hand's
``CardOrder`` and the game's play rules, reduced to a few card sets. The rules are not
copied from the games: ``play_rules`` asks the game's own hooks (``lead_mask``,
``follow_mask``, ``may_call_ace_low``) about probe hands and records what they answer, and
the tests compare the solver's legal moves with the engine's on random positions of every
game. The shapes of rule the probes can see are the ones the games have:

- a set of cards that may not lead until trumps are broken, unless nothing else is held
  (Spades' "spades not broken");
- a set that may never lead unless nothing else is held (a no-trump joker in whist);
- a set that must be thrown when void in the led suit (whist's ``joker_must_throw``);
- a set that may not follow a suitless lead unless nothing else is held (whist jokers);
- the aces that may be called low (3B with ace calls): two possible plays of one card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..engine.cards import NO_SUIT, SUIT_MASKS, Card, CardSet, cards_of
from ..engine.order import CardOrder
from ..engine.state import Phase, State

ALL_CARDS: CardSet = (1 << 54) - 1


@dataclass(frozen=True)
class PlayRules:
    """The play rules of one hand, as card sets (see the module docstring)."""

    lead_blocked_until_broken: CardSet = 0
    lead_blocked: CardSet = 0
    must_throw_when_void: CardSet = 0
    not_after_suitless_lead: CardSet = 0
    ace_low: CardSet = 0

    @property
    def masks(self) -> tuple[CardSet, ...]:
        """The five sets in one fixed order (the kernel's rule order)."""
        return (self.lead_blocked_until_broken, self.lead_blocked, self.must_throw_when_void,
                self.not_after_suitless_lead, self.ace_low)


@dataclass(frozen=True)
class Move:
    """One play: a card, and whether an ace is called low."""

    card: Card
    low: bool = False


@dataclass(frozen=True)
class Position:
    """Everything that decides the rest of the card play of a hand.

    hands: each seat's cards (a seat sitting out holds none).
    next_seat: who plays after each seat.
    to_act: the seat to play now.
    trick: (seat, card) of the trick in progress, in order; trick_low_aces has bit i set
        when the i-th card is an ace called low; led_suit as the engine keeps it (-1 before
        the first card with a suit).
    trick_size: cards in a full trick.
    trump_broken: a trump has been played on another suit's lead (the engine's flag).
    won: tricks each seat has taken so far (the solvers count only the rest).
    """

    hands: tuple[CardSet, ...]
    next_seat: tuple[int, ...]
    to_act: int
    trick: tuple[tuple[int, Card], ...]
    trick_low_aces: int
    led_suit: int
    trick_size: int
    order: CardOrder
    trump_broken: bool
    rules: PlayRules
    won: tuple[int, ...]

    @property
    def num_seats(self) -> int:
        return len(self.hands)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the one in progress included."""
        cards = sum(h.bit_count() for h in self.hands) + len(self.trick)
        return cards // self.trick_size

    def legal_cards(self) -> CardSet:
        """The cards the seat to act may play, by the recorded rules."""
        return legal_cards(self, self.hands[self.to_act])

    def legal_moves(self) -> list[Move]:
        """Every legal play, an ace that may be called low counted twice."""
        out: list[Move] = []
        for c in cards_of(self.legal_cards()):
            out.append(Move(c))
            if self.rules.ace_low >> c & 1:
                out.append(Move(c, True))
        return out


def legal_cards(pos: Position, hand: CardSet) -> CardSet:
    """The cards of ``hand`` that may be played now in ``pos``."""
    rules = pos.rules
    if not pos.trick:
        blocked = rules.lead_blocked
        if not pos.trump_broken:
            blocked |= rules.lead_blocked_until_broken
        return (hand & ~blocked) or hand
    if pos.led_suit < 0:
        return (hand & ~rules.not_after_suitless_lead) or hand
    same = hand & pos.order.suit_masks[pos.led_suit]
    if same:
        return same
    return (hand & rules.must_throw_when_void) or hand


def play_rules(state: State) -> PlayRules:
    """Ask the game's hooks what its play rules are for this hand (see module docstring)."""
    game = state.game
    probe = state.copy()
    probe.trick_cards, probe.trick_seats, probe.led_suit = [], [], -1
    probe.trump_broken = False
    deck = game.deck | _hand_cards(state)
    before_broken = deck & ~game.lead_mask(probe, deck)
    probe.trump_broken = True
    always = deck & ~game.lead_mask(probe, deck)
    # follow rules: a card of each suit led, the hand holding every card of the other suits
    order = state.order
    must_throw = 0
    for suit in range(4):
        led = _first(deck & order.suit_masks[suit])
        if led < 0:
            continue
        probe.trick_cards, probe.trick_seats, probe.led_suit = [led], [state.to_act], suit
        void_hand = deck & ~order.suit_masks[suit] & ~(1 << led)
        allowed = game.follow_mask(probe, void_hand)
        if allowed != void_hand:
            must_throw |= allowed
    suitless = [c for c in cards_of(deck) if order.suit_of[c] < 0]
    not_after = 0
    if suitless:
        probe.trick_cards, probe.trick_seats, probe.led_suit = [suitless[0]], [state.to_act], -1
        rest = deck & ~(1 << suitless[0])
        not_after = rest & ~game.follow_mask(probe, rest)
    ace_low = 0
    for c in cards_of(deck & _ACES):
        if game.may_call_ace_low(state, c):
            ace_low |= 1 << c
    return PlayRules(before_broken & ~always, always, must_throw, not_after, ace_low)


_ACES: CardSet = sum(1 << (suit_mask.bit_length() - 1) for suit_mask in SUIT_MASKS)


def _first(mask: CardSet) -> Card:
    return (mask & -mask).bit_length() - 1 if mask else -1


def _hand_cards(state: State) -> CardSet:
    out = state.played
    for h in state.hands:
        out |= h
    return out


def position_of(state: State) -> Position:
    """The card-play position of a state in its play phase."""
    if state.phase is not Phase.PLAY:
        raise ValueError(f"there is no card play to solve in the {state.phase.value} phase")
    game = state.game
    return Position(
        hands=tuple(state.hands),
        next_seat=tuple(state.next_seat),
        to_act=state.to_act,
        trick=tuple(zip(state.trick_seats, state.trick_cards, strict=True)),
        trick_low_aces=state.low_aces,
        led_suit=state.led_suit,
        trick_size=game.trick_size(state),
        order=state.order,
        trump_broken=state.trump_broken,
        rules=play_rules(state),
        won=tuple(state.won),
    )


def play(pos: Position, move: Move) -> tuple[Position, int]:
    """The position after ``move`` and the seat that won the trick it completed (-1 when
    the trick goes on). The move must be legal."""
    seat, c = pos.to_act, move.card
    hands = list(pos.hands)
    hands[seat] &= ~(1 << c)
    order = pos.order
    suit = order.suit_of[c]
    led_suit, broken = pos.led_suit, pos.trump_broken
    if pos.trick:
        if led_suit < 0:
            led_suit = suit
        elif suit != led_suit and suit == order.trump:
            broken = True
    else:
        led_suit = suit
    low_aces = pos.trick_low_aces | ((1 << len(pos.trick)) if move.low else 0)
    trick = (*pos.trick, (seat, c))
    if len(trick) < pos.trick_size:
        nxt = Position(
            tuple(hands), pos.next_seat, pos.next_seat[seat], trick, low_aces, led_suit,
            pos.trick_size, order, broken, pos.rules, pos.won,
        )
        return nxt, -1
    winner = trick[order.winner([tc for _, tc in trick], led_suit, low_aces)][0]
    won = list(pos.won)
    won[winner] += 1
    nxt = Position(
        tuple(hands), pos.next_seat, winner, (), 0, -1, pos.trick_size, order, broken,
        pos.rules, tuple(won),
    )
    return nxt, winner


def move_classes(pos: Position) -> list[list[Move]]:
    """The legal moves in classes of equal effect, in the order of ``legal_moves``: cards
    of one suit held by the seat to act with no card ranking between them in another hand
    or in the trick, that every play rule treats alike. Whichever card of a class is
    played, the tricks go the same way (a double-dummy solver's "equivalent cards"), so
    one search answers for the class. An ace called low and a card of no suit stand
    alone."""
    order, rules = pos.order, pos.rules
    rule_masks = rules.masks
    elsewhere = 0  # cards that could tell the seat's own apart: other hands', the trick's
    for _, c in pos.trick:
        elsewhere |= 1 << c
    for seat, hand in enumerate(pos.hands):
        if seat != pos.to_act:
            elsewhere |= hand
    classes: list[list[Move]] = []
    last: Card = -1  # the last card placed in a class (its class is classes[-1])
    for move in pos.legal_moves():
        c = move.card
        suit = order.suit_of[c]
        if (not move.low and last >= 0 and suit == order.suit_of[last] and suit != NO_SUIT
                and all((m >> c & 1) == (m >> last & 1) for m in rule_masks)
                and not order.between(last, c) & elsewhere):
            classes[-1].append(move)
        else:
            classes.append([move])
        last = -1 if move.low or suit == NO_SUIT else c
    return classes


def seats_mask(seats: Iterable[int]) -> int:
    """A set of seats as a bit mask (bit s for seat s)."""
    out = 0
    for s in seats:
        out |= 1 << s
    return out
