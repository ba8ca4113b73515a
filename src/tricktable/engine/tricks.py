"""The trick play every game shares: which cards may lead and follow, moving a card to
the trick, and resolving a full trick through the hand's ``CardOrder``.

``Game`` inherits it; a game changes it through the small hooks ``lead_mask``,
``follow_mask``, ``trick_size``, ``next_leader``, ``play_rule_broken`` and
``may_call_ace_low``, and learns that the hand is over through ``finish_hand``.
"""

from __future__ import annotations

from .actions import Action, Play
from .cards import BIT_OF, Card, CardSet, card_str, format_set
from .errors import IllegalAction
from .state import State, Trick

_new_tuple = tuple.__new__


class TrickPlay:
    """The play of the cards, as a base of ``Game``."""

    num_seats: int
    _eager_follow: bool
    """True when the seat after a card follows by the base rule: ``play_card`` then works
    out its legal plays (``State._legal_plays``) as it moves the card."""
    fixed_trick_size: int
    """Cards in every trick when ``trick_size`` is not overridden (else 0): read on every
    card played instead of calling the hook."""
    _eager_lead: bool
    """True when ``legal_plays`` is not overridden: ``finish_trick`` then works out the
    next leader's legal plays."""
    _winner_leads: bool
    """True when ``next_leader`` is not overridden: a trick's winner leads the next, read
    instead of calling the hook."""

    def finish_hand(self, state: State) -> None:
        """Score the hand once its last trick is taken (``Game`` implements it)."""
        raise NotImplementedError

    def play_mask(self, state: State) -> CardSet:
        """``legal_plays``, worked out once per state (``State._legal_plays``)."""
        return state._legal_plays or self._remember_plays(state)

    def _remember_plays(self, state: State) -> CardSet:
        mask = state._legal_plays = self.legal_plays(state)
        return mask

    def legal_plays(self, state: State) -> CardSet:
        """The cards the seat to act may play now, as a set (games override the hooks
        below, or this; ``play_mask`` remembers the answer)."""
        hand = state.hands[state.to_act]
        if not state.trick_cards:
            return self.lead_mask(state, hand)
        return self.follow_mask(state, hand)

    def lead_mask(self, state: State, hand: CardSet) -> CardSet:
        """Cards that may lead. Default: any (games with "spades broken" override)."""
        return hand

    def follow_mask(self, state: State, hand: CardSet) -> CardSet:
        """Cards that may follow: the led suit when held, else any card."""
        if state.led_suit < 0:
            return hand
        same = hand & state.order.suit_masks[state.led_suit]
        return same or hand

    def check_play(self, state: State, action: Action) -> None:
        assert isinstance(action, Play)
        c = action.card
        legal = self.play_mask(state)
        if type(c) is int and 0 <= c < 54 and legal >> c & 1:
            if action.ace_low and not self.may_call_ace_low(state, c):
                raise IllegalAction(
                    "ace calls", f"{card_str(c)} cannot be called low now", f"play {card_str(c)}"
                )
            return
        if type(c) is not int or not 0 <= c < 54 or not state.hands[action.seat] >> c & 1:
            raise IllegalAction(
                "own cards", f"seat {action.seat} does not hold {card_str(c)}",
                "play " + format_set(legal),
            )
        raise IllegalAction(
            self.play_rule_broken(state, c), f"{card_str(c)} may not be played now",
            "play " + format_set(legal),
        )

    def play_rule_broken(self, state: State, card: Card) -> str:
        if state.trick_cards:
            return "follow suit"
        return "spades not broken"

    def may_call_ace_low(self, state: State, card: Card) -> bool:
        return False

    def apply_play(self, state: State, action: Action) -> None:
        assert isinstance(action, Play)
        self.play_card(state, action.seat, action.card, action.ace_low)

    def play_card(self, state: State, seat: int, c: Card, ace_low: bool = False) -> None:
        """Move a (legal) card from a hand to the trick; resolve the trick when full.
        Leaves ``State._legal_plays`` right for the new state: the next seat's when the
        trick goes on and ``_eager_follow``, else forgotten."""
        card_bit = BIT_OF[c]  # (``1 << c`` makes a new int for all but the lowest cards)
        hands = state.hands
        hands[seat] ^= card_bit  # (the seat holds it)
        state.played |= card_bit
        order = state.order
        suit = order.suit_of[c]
        trick_cards = state.trick_cards
        if trick_cards:
            led_suit = state.led_suit
            if led_suit < 0:
                # the first card with a suit after a suitless lead (which, suitless, has
                # no power in any suit: the best card so far stays right)
                state.led_suit = led_suit = suit
            elif suit != led_suit and suit == order.trump:
                state.trump_broken = True
            power = order.powers[led_suit][c]
            if power > state._best_power:  # (the first of equals wins, as in ``winner``)
                state._best_power = power
                state._best_seat = seat
        else:
            state.leader = seat
            state.led_suit = led_suit = suit
            state._best_power = order.powers[led_suit][c]
            state._best_seat = seat
        if ace_low:
            state.low_aces |= 1 << len(trick_cards)
        state.trick_seats.append(seat)
        trick_cards.append(c)
        if len(trick_cards) < (self.fixed_trick_size or self.trick_size(state)):
            follower = state.to_act = state.next_seat[seat]
            if self._eager_follow:
                # its legal plays known now, which saves ``legal_actions`` two calls
                # (``legal_plays``, ``follow_mask``): the base rule, inlined
                hand = hands[follower]
                same = led_suit >= 0 and hand & order.suit_masks[led_suit]
                state._legal_plays = same or hand
            else:
                state._legal_plays = 0
            return
        state._legal_plays = 0
        self.finish_trick(state)

    def trick_size(self, state: State) -> int:
        return self.num_seats

    def finish_trick(self, state: State) -> None:
        cards = state.trick_cards
        seats = state.trick_seats
        led_suit = state.led_suit
        low_aces = state.low_aces
        # the best card kept by ``play_card``, unless an ace was called low
        winner = seats[state.order.winner(cards, led_suit, low_aces)] if low_aces else (
            state._best_seat
        )
        tricks = state.tricks
        # (made by ``tuple.__new__`` from its six fields: ``_make`` less its Python frame
        # and length check, a third of the time of the named tuple's ``__new__``)
        trick = (seats[0], tuple(seats), tuple(cards), winner, led_suit, low_aces)
        tricks.append(_new_tuple(Trick, trick))
        state.won[winner] += 1
        state.trick_seats = []
        state.trick_cards = []
        state.low_aces = 0
        state.led_suit = -1
        if len(tricks) == state.tricks_per_hand:
            self.finish_hand(state)
            return
        leader = state.to_act = winner if self._winner_leads else self.next_leader(state, winner)
        if self._eager_lead:
            # the leader's legal plays known now, as a follower's are (``play_card``):
            # ``legal_plays`` of an empty trick, less its call
            state._legal_plays = self.lead_mask(state, state.hands[leader])

    def next_leader(self, state: State, winner: int) -> int:
        """Who leads after a trick: its winner (a dummy leads from the board)."""
        return winner
