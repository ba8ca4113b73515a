"""Card-play heuristics shared by the rules bot of every game.

Each game's module says what its seat is trying to do this hand (``Goals``: which seats'
tricks count with its own, how many tricks the side still wants, whether more tricks
hurt, which of its hands are nil and which opponents' nils it hunts). ``choose_play``
then picks a card the way a sound casual player would: win cheaply, let a partner's
sure winner stand, duck when the bid is made and overtricks cost, shed high cards on a
nil, cover a partner's nil, keep an opponent's nil winning, cash sure winners and ruff.

What a seat knows comes only from its observation (``CardView``): its cards, the cards
it may see (a face-up dummy), the cards played, and the voids the play has shown.

A play is chosen at every card of every game a bot plays, so the work is done over card
sets (bitmasks) and per-order tables (``OrderFacts``) worked out once per card order; the
plays themselves are small ints, ``option`` codes: the card, plus ``LOW`` for an ace
called low (3B), so that each fact about a play is one look-up in a table.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import NamedTuple

from ..engine.actions import Action, Play
from ..engine.cards import JOKERS, NO_SUIT, SUITS, Card, CardSet, cards_of, parse_card
from ..engine.observation import Observation
from ..engine.order import CardOrder


class Goals(NamedTuple):
    """What the side of the seat choosing a card wants from the rest of this hand.

    team: seats whose tricks count with the actor's (the actor included).
    want: tricks the team still wants this hand; <= 0 once it has enough.
    overtricks_cost: whether tricks beyond ``want`` hurt (bags, 3B's -10, exact bids).
    avoid: seats of the team that must take no trick (a live nil or zero).
    hunt: opponents whose nil or zero the team tries to break (make them win a trick).
    """

    team: frozenset[int]
    want: int
    overtricks_cost: bool = True
    avoid: frozenset[int] = frozenset()
    hunt: frozenset[int] = frozenset()


# --- per-order tables ------------------------------------------------------------------------

LOW = 64
"""Added to a card to make the option code of its play as an ace called low."""
_CODES = LOW + 54  # option codes run from 0 to LOW + 53
_ACES = frozenset(parse_card(f"A{suit}") for suit in "SHDC")
_ACE_BITS = sum(1 << c for c in _ACES)


class OrderFacts:
    """What the card play reads about cards in one card order, as tables: worked out once
    per order, since an order is fixed for a hand (and most hands share a few orders).

    Tables indexed by option code (a card, or ``LOW`` + an ace called low):
    rank: the rank key within its suit (an ace called low keeps its rank: small cards are
        thrown before it); suit: the suit it follows as; trump: whether that is trumps;
    power[led]: how well it does in a trick led in ``led``; lead_power: as a lead, in its
        own suit (0 for a suitless card); above_mask: the cards whose being unseen counts
        against it (those of its suit ranking above it; for an ace called low, its suit).
    By card: beaters (cards of its suit ranking above it), below (ranking below it);
    stronger[led][p]: the cards with power above ``p`` in a trick led in ``led``;
    void_cards[v]: the cards of the suits whose bits are set in ``v``.
    """

    def __init__(self, order: CardOrder) -> None:
        self.order = order
        self.low = order.low
        self.suit_of = order.suit_of
        self.suit_masks = order.suit_masks
        self.trump = order.trump
        self.trump_mask = order.suit_masks[order.trump] if order.trump >= 0 else 0
        keys = [order.rank_key(c) for c in range(54)]
        beaters, below = [], []
        for c in range(54):
            suit = order.suit_of[c]
            if suit == NO_SUIT:
                beaters.append(0)
                below.append(0)
                continue
            same = list(cards_of(order.suit_masks[suit]))
            beaters.append(sum(1 << x for x in same if keys[x] > keys[c]))
            below.append(sum(1 << x for x in same if keys[x] < keys[c]))
        self.beaters = tuple(beaters)
        self.below = tuple(below)
        padding = [0] * (LOW - 54)
        self.rank = tuple(keys + padding + keys)
        suits = list(order.suit_of)
        self.suit = tuple(suits + [NO_SUIT] * (LOW - 54) + suits)
        self.trump_play = tuple(s == order.trump and s != NO_SUIT for s in self.suit)
        self.power = tuple(
            tuple([order.power(c, led) for c in range(54)] + padding
                  + [order.power(c, led, True) for c in range(54)])
            for led in SUITS
        )
        self.lead_power = tuple(
            self.power[s][code] if s >= 0 else 0 for code, s in enumerate(self.suit)
        )
        self.above_mask = tuple(
            beaters + padding + [order.suit_masks[s] if s >= 0 else 0 for s in suits]
        )
        top = max(max(table) for table in self.power)
        self.stronger = tuple(
            tuple(sum(1 << c for c in range(54) if table[c] > p) for p in range(top + 1))
            for table in self.power
        )
        self.void_cards = tuple(
            sum(order.suit_masks[s] for s in SUITS if v >> s & 1) for v in range(16)
        )

    def top(self, cards: CardSet) -> Card:
        """The best card of ``cards``, all of one suit as this order counts suits."""
        if not self.low or cards & JOKERS:
            return cards.bit_length() - 1  # ranks rise with the card number; jokers on top
        aces = cards & _ACE_BITS
        if aces:
            return aces.bit_length() - 1
        return (cards & -cards).bit_length() - 1  # low: the two is best after the ace

    def best_power(self, cards: CardSet, led: int) -> int:
        """The best power among ``cards`` in a trick led in ``led``."""
        trumps = cards & self.trump_mask
        if trumps:
            return self.power[led][self.top(trumps)]
        follow = cards & self.suit_masks[led]
        return self.power[led][self.top(follow)] if follow else 0


_FACTS: dict[CardOrder, OrderFacts] = {}


def order_facts(order: CardOrder) -> OrderFacts:
    facts = _FACTS.get(order)
    if facts is None:
        facts = _FACTS[order] = OrderFacts(order)
    return facts


_NO_POWER = (0,) * _CODES  # a trick led by a suitless card: no play can win it


# --- what a seat knows --------------------------------------------------------------------


class HandMemo:
    """What a bot keeps from one decision to the next: the card order's tables and the
    voids that the hand's finished tricks showed (the finished tricks only grow, so each
    is read once, not at every card)."""

    def __init__(self) -> None:
        self.order: CardOrder | None = None  # suits are read in this hand's order
        self.facts: OrderFacts | None = None
        self.tricks: tuple[object, ...] = ()
        self.void: list[int] = []


class CardView:
    """What one observation tells about where the cards are.

    unseen: cards of the deck that are neither played nor visible to the observer; they
        are in the hidden holdings (or out of play: an extra card, discards).
    void: per seat, a bitmask of the suits the seat has shown it does not hold.
    """

    def __init__(
        self, obs: Observation, order: CardOrder, deck: CardSet, cycle: Sequence[int],
        memo: HandMemo | None = None,
    ) -> None:
        self.obs = obs
        self.order = order
        self.cycle = tuple(cycle)
        same_order = memo is not None and (memo.order is order or memo.order == order)
        facts = memo.facts if same_order and memo is not None else None
        self.facts = facts = facts or order_facts(order)
        seen = obs.played
        visible = obs.visible
        for cards in visible:
            seen |= cards
        self.unseen = deck & ~seen
        sizes = obs.hand_sizes
        n = len(sizes)
        self.known = [visible[s].bit_count() >= sizes[s] for s in range(n)]
        tricks = obs.tricks
        start = 0
        if (memo is not None and same_order and len(memo.void) == n
                and len(memo.tricks) <= len(tricks) and tricks[:len(memo.tricks)] == memo.tricks):
            self.void = list(memo.void)
            start = len(memo.tricks)
        else:
            self.void = [0] * n
        for t in tricks[start:]:
            self._note_voids(t.seats, t.cards, t.led_suit)
        if memo is not None:
            memo.order, memo.facts, memo.tricks, memo.void = order, facts, tricks, list(self.void)
        led = obs.led_suit
        if led >= 0:
            suit_of, void = facts.suit_of, self.void
            for s, c in obs.trick[1:]:
                if suit_of[c] != led:
                    void[s] |= 1 << led
        self._low_called: frozenset[Card] | None = None
        self._threats: dict[int, int] = {}

    @property
    def low_called(self) -> frozenset[Card]:
        """Aces called low in this hand (read from the history only when asked)."""
        if self._low_called is None:
            self._low_called = _low_aces_from_history(self.obs.history)
        return self._low_called

    def _note_voids(self, seats: Sequence[int], cards: Sequence[Card], led: int) -> None:
        if led < 0:
            return
        suit_of = self.facts.suit_of
        for i in range(1, len(cards)):
            if suit_of[cards[i]] != led:
                self.void[seats[i]] |= 1 << led

    # --- what a seat may hold -------------------------------------------------------------

    def possible(self, seat: int) -> CardSet:
        """The cards ``seat`` may hold, as far as the observer knows."""
        cards = self.obs.visible[seat]
        if self.known[seat]:
            return cards
        return cards | (self.unseen & ~self.facts.void_cards[self.void[seat]])

    def threat(self, seat: int, led: int) -> int:
        """The best power ``seat`` may reasonably play to a trick led in ``led``."""
        if led < 0:
            return 0
        key = seat * 4 + led
        found = self._threats.get(key)
        if found is None:
            found = self._threats[key] = self._threat(seat, led)
        return found

    def _threat(self, seat: int, led: int) -> int:
        facts = self.facts
        cards = self.possible(seat)
        follow = cards & facts.suit_masks[led]
        if self.known[seat]:
            pool = follow if follow else cards
        else:
            pool = follow
            # Trumps count only where the seat is void, or likely to be: few cards of the
            # suit are out. Early in a hand an ace of a side suit is as good as a sure trick.
            unseen_led = (self.unseen & facts.suit_masks[led]).bit_count()
            if self.void[seat] >> led & 1 or unseen_led <= 1:
                pool = cards
        return facts.best_power(pool, led)

    def above(self, option: int) -> int:
        """How many unseen cards count against a play (see ``OrderFacts.above_mask``)."""
        return (self.unseen & self.facts.above_mask[option]).bit_count()

    def higher_unseen(self, c: Card) -> int:
        """How many unseen cards of c's suit rank above it."""
        return (self.unseen & self.facts.beaters[c]).bit_count()

    def lower_unseen(self, c: Card) -> int:
        """How many unseen cards of c's suit rank below it."""
        return (self.unseen & self.facts.below[c]).bit_count()


def _low_aces_from_history(history: Sequence[str]) -> frozenset[Card]:
    """Aces called low this hand (3B), read from the record notation ``play AH low``."""
    out = set()
    for text in history:
        if text.endswith(" low") and ": play " in text:
            with contextlib.suppress(ValueError):
                out.add(parse_card(text.split()[-2]))
    return frozenset(out)


# --- choosing a card ---------------------------------------------------------------------------


def play_options(view: CardView, plays: Sequence[Action]) -> list[int]:
    """The option codes of the legal plays, keeping to follow suit even where the table
    would let a card renege (honour mode): a rule bot never reneges. Listed in the order
    of the legal list (plain plays by card, then aces called low), which breaks ties."""
    obs = view.obs
    high = low = 0
    for a in plays:
        if isinstance(a, Play):
            if a.ace_low:
                low |= 1 << a.card
            else:
                high |= 1 << a.card
    actor = plays[0].seat if plays else obs.seat
    hand = obs.visible[actor] or obs.hand
    led = obs.led_suit
    if obs.trick and led >= 0:
        suit_cards = view.facts.suit_masks[led]
        if hand & suit_cards and (high | low) & suit_cards:
            high &= suit_cards
            low &= suit_cards
    options = list(cards_of(high))
    if low:
        options += [LOW + c for c in cards_of(low)]
    return options


def current_best(view: CardView) -> tuple[int, int]:
    """(power, seat) of the card winning the current trick so far; (0, -1) if none."""
    obs = view.obs
    led = obs.led_suit
    best, seat = 0, -1
    if led < 0:
        return best, seat
    power = view.facts.power[led]
    for s, c in obs.trick:
        # only an ace may have been called low: the history is read for aces alone
        p = power[LOW + c] if c in _ACES and c in view.low_called else power[c]
        if p > best:
            best, seat = p, s
    return best, seat


def seats_after(view: CardView, actor: int) -> list[int]:
    """The seats still to play to this trick after ``actor``."""
    cycle = view.cycle
    if actor not in cycle:
        return []
    left = len(cycle) - len(view.obs.trick) - 1
    i = cycle.index(actor)
    return [cycle[(i + k) % len(cycle)] for k in range(1, left + 1)]


def choose_play(view: CardView, goals: Goals, plays: Sequence[Action]) -> Action:
    """The card a sound casual player would choose, given the side's goals."""
    options = play_options(view, plays)
    if not options:
        return plays[0]
    actor = plays[0].seat
    if len(options) == 1:
        chosen = options[0]
    elif not view.obs.trick:
        chosen = _lead(view, goals, actor, options)
    else:
        chosen = _follow(view, goals, actor, options)
    return Play.of(actor, chosen % LOW, chosen >= LOW)


def _suit_length(view: CardView, actor: int, suit: int) -> int:
    hand = view.obs.visible[actor] or view.obs.hand
    return (hand & view.facts.suit_masks[suit]).bit_count() if suit >= 0 else 0


def win_chance(view: CardView, goals: Goals, option: int, after: Sequence[int]) -> float:
    """A rough chance that a play holds the trick against the opponents still to play:
    each unseen card that beats it is equally likely to be in any hidden holding."""
    obs, facts = view.obs, view.facts
    suit = facts.suit[option]
    led = obs.led_suit if obs.trick else suit
    if led < 0:
        return 0.0
    power = facts.power[led][option]
    trump = facts.trump_play[option]
    hidden = [s for s in range(len(obs.hand_sizes)) if not view.known[s] and s != obs.seat]
    chance = 1.0
    trump_mask = facts.trump_mask
    for s in after:
        if s in goals.team:
            continue
        if view.known[s]:
            if view.threat(s, led) > power:
                return 0.0
            continue
        share = 1.0 / max(1, len(hidden))
        if not view.void[s] >> led & 1:
            above = view.above(option) if suit == led else 0
            chance *= (1.0 - share) ** above
        if led != facts.trump and trump_mask and (view.void[s] >> led & 1 or trump):
            # a seat void in the suit may trump it (or over-trump a ruff)
            higher_trumps = (view.unseen & trump_mask & facts.stronger[led][power]).bit_count()
            ruff_risk = 1.0 if view.void[s] >> led & 1 else 0.3
            chance *= 1.0 - ruff_risk * (1.0 - (1.0 - share) ** higher_trumps)
    return chance


def _opp_threat(view: CardView, goals: Goals, after: Sequence[int], led: int) -> int:
    best = 0
    for s in after:
        if s not in goals.team:
            threat = view.threat(s, led)
            if threat > best:
                best = threat
    return best


def _shed(options: list[int], view: CardView, actor: int, high: bool) -> int:
    """A card to throw away: the lowest (keeping strength) or the highest (getting rid of
    danger), from side suits before trumps; low discards come from short suits."""
    facts = view.facts
    trump, rank, suit = facts.trump_play, facts.rank, facts.suit
    side = [o for o in options if not trump[o]] or options
    if high:
        return max(side, key=lambda o: (rank[o], -_suit_length(view, actor, suit[o])))
    return min(side, key=lambda o: (rank[o], _suit_length(view, actor, suit[o])))


def _follow(view: CardView, goals: Goals, actor: int, options: list[int]) -> int:
    best, winner = current_best(view)
    after = seats_after(view, actor)
    led = view.obs.led_suit
    threat = _opp_threat(view, goals, after, led)
    power = view.facts.power[led] if led >= 0 else _NO_POWER
    rank = view.facts.rank
    beats = [o for o in options if power[o] > best]
    safe = [o for o in options if power[o] <= best]
    sure = [o for o in beats if power[o] > threat]

    def power_then_rank(o: int) -> tuple[int, int]:
        return power[o], rank[o]

    if actor in goals.avoid:
        if safe:  # under the winning card: shed the most dangerous card that stays under
            return max(safe, key=power_then_rank)
        if not after:
            return max(options, key=power.__getitem__)  # winning anyway: spend the biggest
        return min(options, key=power.__getitem__)  # hope someone comes over it

    team_winning = winner in goals.team
    # Cover a partner's nil: take the trick from it, or play high ahead of it.
    if winner in goals.avoid or any(s in goals.avoid for s in after):
        if sure:
            return min(sure, key=power.__getitem__)
        if beats:
            return max(beats, key=power.__getitem__)
    # Keep an opponent's nil winning, or give it the chance to be forced to win.
    if winner in goals.hunt and safe:
        return _shed(safe, view, actor, high=goals.want <= 0)
    if any(s in goals.hunt for s in after) and safe and goals.want <= len(after):
        return min(safe, key=power.__getitem__)

    taking = goals.want > 0 or not goals.overtricks_cost
    if taking:
        if team_winning and best > threat:
            return _shed(options, view, actor, high=False)
        if sure:
            return min(sure, key=power.__getitem__)
        if not team_winning and beats and goals.want > 0:
            # No sure winner: the cheapest card that wins more often than not, or, when
            # every remaining trick is needed, one with a fair chance.
            left = view.obs.hand_sizes[actor]
            needed = 0.5 if goals.want < left else 0.25
            likely = [o for o in beats if win_chance(view, goals, o, after) >= needed]
            if likely:
                return min(likely, key=power.__getitem__)
        return _shed(options, view, actor, high=False)

    # Enough tricks and more would hurt: stay under, throwing the highest card that does.
    if safe:
        return max(safe, key=power_then_rank)
    if not after or threat <= best:
        return max(options, key=power.__getitem__)
    return min(options, key=power.__getitem__)


def _lead(view: CardView, goals: Goals, actor: int, options: list[int]) -> int:
    facts = view.facts
    suit, trump, rank, power = facts.suit, facts.trump_play, facts.rank, facts.lead_power
    after = seats_after(view, actor)

    if actor in goals.avoid or (goals.want <= 0 and goals.overtricks_cost):
        return _lowest_lead(view, options)

    def sure_leads() -> list[int]:
        """The leads that beat all the opponents still to play may hold in their suit."""
        threats: dict[int, int] = {}
        out = []
        for o in options:
            s = suit[o]
            if s < 0:
                continue
            threat = threats.get(s)
            if threat is None:
                threat = threats[s] = _opp_threat(view, goals, after, s)
            if power[o] > threat:
                out.append(o)
        return out

    mate_nil = [s for s in goals.avoid if s != actor]
    if mate_nil:
        sure = sure_leads()
        if sure:
            return max(sure, key=power.__getitem__)
        return min(options, key=lambda o: (view.above(o), trump[o], -rank[o]))
    hunted = list(goals.hunt)
    if hunted and goals.want <= 1:
        target = hunted[0]
        leads = [
            o for o in options
            if suit[o] >= 0 and not view.void[target] >> suit[o] & 1 and not trump[o]
        ] or options
        return min(leads, key=lambda o: (view.lower_unseen(o % LOW), rank[o]))
    sure = sure_leads()
    side_sure = [o for o in sure if not trump[o]]
    if side_sure:
        return max(side_sure, key=power.__getitem__)
    hand = view.obs.visible[actor] or view.obs.hand
    trumps = hand & facts.trump_mask
    trump_sure = [o for o in sure if trump[o]]
    if trump_sure:
        return max(trump_sure, key=power.__getitem__)
    if trumps.bit_count() >= 2:
        singletons = [
            o for o in options
            if not trump[o] and suit[o] >= 0 and _suit_length(view, actor, suit[o]) == 1
            and view.above(o) > 0
        ]
        if singletons:
            return min(singletons, key=rank.__getitem__)
    side = [o for o in options if not trump[o] and suit[o] >= 0] or options
    # low from the longest side suit, where partner's honours may win it
    return min(side, key=lambda o: (-_suit_length(view, actor, suit[o]), rank[o]))


def _lowest_lead(view: CardView, options: list[int]) -> int:
    """The lead least likely to win: many unseen cards above it, few below, no trump."""
    suit, trump, rank = view.facts.suit, view.facts.trump_play, view.facts.rank

    def danger(o: int) -> tuple[int, int, int, int]:
        if suit[o] < 0:
            return (0, 0, 0, 0)  # a suitless joker cannot win
        above = view.above(o)
        return (int(trump[o]), int(above == 0), -above, rank[o])

    return min(options, key=danger)
