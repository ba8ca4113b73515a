"""Card-play heuristics shared by the rules bot of every game.

Each game's module says what its seat is trying to do this hand (``Goals``: which seats'
tricks count with its own, how many tricks the side still wants, whether more tricks
hurt, which of its hands are nil and which opponents' nils it hunts). ``choose_play``
then picks a card the way a sound casual player would: win cheaply, let a partner's
sure winner stand, duck when the bid is made and overtricks cost, shed high cards on a
nil, cover a partner's nil, keep an opponent's nil winning, cash sure winners and ruff.

What a seat knows comes only from its observation (``CardView``): its cards, the cards
it may see (a face-up dummy), the cards played, and the voids the play has shown.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine.actions import Action, Play
from ..engine.cards import NO_SUIT, Card, CardSet, cards_of, parse_card
from ..engine.observation import Observation
from ..engine.order import CardOrder


@dataclass(frozen=True)
class Goals:
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
    avoid: frozenset[int] = field(default_factory=frozenset)
    hunt: frozenset[int] = field(default_factory=frozenset)


class VoidMemo:
    """The voids that a hand's finished tricks showed, kept by a bot from one decision to
    the next: the finished tricks only grow, so each is read once, not at every card."""

    def __init__(self) -> None:
        self.order: CardOrder | None = None  # suits are read in this hand's order
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
        memo: VoidMemo | None = None,
    ) -> None:
        self.obs = obs
        self.order = order
        self.cycle = tuple(cycle)
        seen = obs.played
        for cards in obs.visible:
            seen |= cards
        self.unseen = deck & ~seen
        n = len(obs.hand_sizes)
        self.known = [obs.visible[s].bit_count() >= obs.hand_sizes[s] for s in range(n)]
        tricks = obs.tricks
        start = 0
        if (memo is not None and memo.order == order and len(memo.void) == n
                and len(memo.tricks) <= len(tricks) and tricks[:len(memo.tricks)] == memo.tricks):
            self.void = list(memo.void)
            start = len(memo.tricks)
        else:
            self.void = [0] * n
        for t in tricks[start:]:
            self._note_voids(t.seats, t.cards, t.led_suit)
        if memo is not None:
            memo.order, memo.tricks, memo.void = order, tricks, list(self.void)
        if obs.trick:
            self._note_voids(
                tuple(s for s, _ in obs.trick), tuple(c for _, c in obs.trick), obs.led_suit
            )
        self._low_called: frozenset[Card] | None = None
        self._threats: dict[int, int] = {}
        self._beaters = _beaters(order)

    @property
    def low_called(self) -> frozenset[Card]:
        """Aces called low in this hand (read from the history only when asked)."""
        if self._low_called is None:
            self._low_called = _low_aces_from_history(self.obs.history)
        return self._low_called

    def _note_voids(self, seats: Sequence[int], cards: Sequence[Card], led: int) -> None:
        if led < 0:
            return
        for i in range(1, len(cards)):
            if self.order.suit_of[cards[i]] != led:
                self.void[seats[i]] |= 1 << led

    # --- what a seat may hold -------------------------------------------------------------

    def possible(self, seat: int) -> CardSet:
        """The cards ``seat`` may hold, as far as the observer knows."""
        cards = self.obs.visible[seat]
        if self.known[seat]:
            return cards
        hidden = self.unseen
        for suit in range(4):
            if self.void[seat] >> suit & 1:
                hidden &= ~self.order.suit_masks[suit]
        return cards | hidden

    def suit_cards(self, suit: int) -> CardSet:
        return self.order.suit_masks[suit] if suit >= 0 else 0

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
        order = self.order
        cards = self.possible(seat)
        follow = cards & order.suit_masks[led]
        if self.known[seat]:
            pool = follow if follow else cards
        else:
            pool = follow
            # Trumps count only where the seat is void, or likely to be: few cards of the
            # suit are out. Early in a hand an ace of a side suit is as good as a sure trick.
            unseen_led = (self.unseen & order.suit_masks[led]).bit_count()
            if self.void[seat] >> led & 1 or unseen_led <= 1:
                pool = cards
        best = 0
        table = order.powers[led]
        for c in cards_of(pool):
            if table[c] > best:
                best = table[c]
        return best

    def higher_unseen(self, c: Card) -> int:
        """How many unseen cards of c's suit rank above it."""
        return (self.unseen & self._beaters[c]).bit_count()

    def lower_unseen(self, c: Card) -> int:
        """How many unseen cards of c's suit rank below it."""
        suit = self.order.suit_of[c]
        if suit == NO_SUIT:
            return 0
        below = self.order.suit_masks[suit] & ~self._beaters[c] & ~(1 << c)
        return (self.unseen & below).bit_count()


_ACES = frozenset(parse_card(f"A{suit}") for suit in "SHDC")

_BEATERS: dict[CardOrder, tuple[CardSet, ...]] = {}


def _beaters(order: CardOrder) -> tuple[CardSet, ...]:
    """Per card, the cards of its suit (as the order counts suits) that rank above it."""
    table = _BEATERS.get(order)
    if table is None:
        out = []
        for c in range(54):
            suit = order.suit_of[c]
            if suit == NO_SUIT:
                out.append(0)
                continue
            key = order.rank_key(c)
            out.append(sum(1 << x for x in cards_of(order.suit_masks[suit])
                           if order.rank_key(x) > key))
        table = _BEATERS[order] = tuple(out)
    return table


def _low_aces_from_history(history: Sequence[str]) -> frozenset[Card]:
    """Aces called low this hand (3B), read from the record notation ``play AH low``."""
    out = set()
    for text in history:
        if text.endswith(" low") and ": play " in text:
            with contextlib.suppress(ValueError):
                out.add(parse_card(text.split()[-2]))
    return frozenset(out)


# --- choosing a card ---------------------------------------------------------------------------


@dataclass
class _Option:
    action: Play
    card: Card
    power: int  # against the current trick (or as a lead in its own suit)
    rank: int  # rank key of the card in this hand's order, for shedding and saving
    trump: bool
    suit: int
    above: int  # unseen cards of its suit that beat it (every one, for an ace called low)


def play_options(view: CardView, plays: Sequence[Action]) -> list[_Option]:
    """The legal plays with their powers, keeping to follow suit even where the table would
    let a card renege (honour mode): a rules bot never reneges."""
    obs, order = view.obs, view.order
    options = [a for a in plays if isinstance(a, Play)]
    actor = options[0].seat if options else obs.seat
    hand = obs.visible[actor] or obs.hand
    led = obs.led_suit
    if obs.trick and led >= 0 and hand & order.suit_masks[led]:
        following = [a for a in options if order.suit_of[a.card] == led]
        if following:
            options = following
    out = []
    for a in options:
        c = a.card
        suit = order.suit_of[c]
        lead = led if obs.trick else suit
        power = order.power(c, lead, a.ace_low) if lead >= 0 else 0
        rank = order.rank_key(c)
        above = view.higher_unseen(c)
        if a.ace_low:
            # Low, it wins nothing, but the card given up is still an ace: it keeps its
            # rank, so that small cards are thrown before it.
            above = (view.unseen & order.suit_masks[suit]).bit_count()
        trump = suit == order.trump and suit != NO_SUIT
        out.append(_Option(a, c, power, rank, trump, suit, above))
    return out


def current_best(view: CardView) -> tuple[int, int]:
    """(power, seat) of the card winning the current trick so far; (0, -1) if none."""
    obs, order = view.obs, view.order
    led = obs.led_suit
    best, seat = 0, -1
    if led < 0:
        return best, seat
    for s, c in obs.trick:
        # only an ace may have been called low: the history is read for aces alone
        p = order.power(c, led, c in _ACES and c in view.low_called)
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
    actor = options[0].action.seat
    if len(options) == 1:
        return options[0].action
    if not view.obs.trick:
        return _lead(view, goals, actor, options).action
    return _follow(view, goals, actor, options).action


def _suit_length(view: CardView, actor: int, suit: int) -> int:
    hand = view.obs.visible[actor] or view.obs.hand
    return (hand & view.order.suit_masks[suit]).bit_count() if suit >= 0 else 0


def win_chance(view: CardView, goals: Goals, o: _Option, after: Sequence[int]) -> float:
    """A rough chance that ``o`` holds the trick against the opponents still to play: each
    unseen card that beats it is equally likely to be in any hidden holding."""
    obs, order = view.obs, view.order
    led = obs.led_suit if obs.trick else o.suit
    if led < 0:
        return 0.0
    hidden = [s for s in range(len(obs.hand_sizes)) if not view.known[s] and s != obs.seat]
    chance = 1.0
    trump_mask = order.suit_masks[order.trump] if order.trump >= 0 else 0
    for s in after:
        if s in goals.team:
            continue
        if view.known[s]:
            if view.threat(s, led) > o.power:
                return 0.0
            continue
        share = 1.0 / max(1, len(hidden))
        if not view.void[s] >> led & 1:
            above = o.above if order.suit_of[o.card] == led else 0
            chance *= (1.0 - share) ** above
        if led != order.trump and trump_mask and (view.void[s] >> led & 1 or o.trump):
            # a seat void in the suit may trump it (or over-trump a ruff)
            higher_trumps = sum(
                1 for c in cards_of(view.unseen & trump_mask) if order.powers[led][c] > o.power
            )
            ruff_risk = 1.0 if view.void[s] >> led & 1 else 0.3
            chance *= 1.0 - ruff_risk * (1.0 - (1.0 - share) ** higher_trumps)
    return chance


def _opp_threat(view: CardView, goals: Goals, after: Sequence[int], led: int) -> int:
    return max((view.threat(s, led) for s in after if s not in goals.team), default=0)


def _shed(options: list[_Option], view: CardView, actor: int, high: bool) -> _Option:
    """A card to throw away: the lowest (keeping strength) or the highest (getting rid of
    danger), from side suits before trumps; low discards come from short suits."""
    side = [o for o in options if not o.trump] or options
    if high:
        return max(side, key=lambda o: (o.rank, -_suit_length(view, actor, o.suit)))
    return min(side, key=lambda o: (o.rank, _suit_length(view, actor, o.suit)))


def _follow(view: CardView, goals: Goals, actor: int, options: list[_Option]) -> _Option:
    best, winner = current_best(view)
    after = seats_after(view, actor)
    led = view.obs.led_suit
    threat = _opp_threat(view, goals, after, led)
    beats = [o for o in options if o.power > best]
    safe = [o for o in options if o.power <= best]
    sure = [o for o in beats if o.power > threat]

    if actor in goals.avoid:
        if safe:  # under the winning card: shed the most dangerous card that stays under
            return max(safe, key=lambda o: (o.power, o.rank))
        if not after:
            return max(options, key=lambda o: o.power)  # winning anyway: spend the biggest
        return min(options, key=lambda o: o.power)  # hope someone comes over it

    team_winning = winner in goals.team
    # Cover a partner's nil: take the trick from it, or play high ahead of it.
    if winner in goals.avoid or any(s in goals.avoid for s in after):
        if sure:
            return min(sure, key=lambda o: o.power)
        if beats:
            return max(beats, key=lambda o: o.power)
    # Keep an opponent's nil winning, or give it the chance to be forced to win.
    if winner in goals.hunt and safe:
        return _shed(safe, view, actor, high=goals.want <= 0)
    if any(s in goals.hunt for s in after) and safe and goals.want <= len(after):
        return min(safe, key=lambda o: o.power)

    taking = goals.want > 0 or not goals.overtricks_cost
    if taking:
        if team_winning and best > threat:
            return _shed(options, view, actor, high=False)
        if sure:
            return min(sure, key=lambda o: o.power)
        if not team_winning and beats and goals.want > 0:
            # No sure winner: the cheapest card that wins more often than not, or, when
            # every remaining trick is needed, one with a fair chance.
            left = view.obs.hand_sizes[actor]
            needed = 0.5 if goals.want < left else 0.25
            likely = [o for o in beats if win_chance(view, goals, o, after) >= needed]
            if likely:
                return min(likely, key=lambda o: o.power)
        return _shed(options, view, actor, high=False)

    # Enough tricks and more would hurt: stay under, throwing the highest card that does.
    if safe:
        return max(safe, key=lambda o: (o.power, o.rank))
    if not after or threat <= best:
        return max(options, key=lambda o: o.power)
    return min(options, key=lambda o: o.power)


def _lead(view: CardView, goals: Goals, actor: int, options: list[_Option]) -> _Option:
    order = view.order
    after = seats_after(view, actor)

    def sure(o: _Option) -> bool:
        return o.power > _opp_threat(view, goals, after, o.suit)

    if actor in goals.avoid or (goals.want <= 0 and goals.overtricks_cost):
        return _lowest_lead(view, options)
    mate_nil = [s for s in goals.avoid if s != actor]
    sure_leads = [o for o in options if o.suit >= 0 and sure(o)]
    if mate_nil:
        if sure_leads:
            return max(sure_leads, key=lambda o: o.power)
        return min(options, key=lambda o: (o.above, o.trump, -o.rank))
    hunted = [s for s in goals.hunt]
    if hunted and goals.want <= 1:
        target = hunted[0]
        leads = [
            o for o in options
            if o.suit >= 0 and not view.void[target] >> o.suit & 1 and not o.trump
        ] or options
        return min(leads, key=lambda o: (view.lower_unseen(o.card), o.rank))
    side_sure = [o for o in sure_leads if not o.trump]
    if side_sure:
        return max(side_sure, key=lambda o: o.power)
    hand = view.obs.visible[actor] or view.obs.hand
    trumps = hand & order.suit_masks[order.trump] if order.trump >= 0 else 0
    trump_sure = [o for o in sure_leads if o.trump]
    if trump_sure:
        return max(trump_sure, key=lambda o: o.power)
    if trumps.bit_count() >= 2:
        singletons = [
            o for o in options
            if not o.trump and o.suit >= 0 and _suit_length(view, actor, o.suit) == 1
            and o.above > 0
        ]
        if singletons:
            return min(singletons, key=lambda o: o.rank)
    side = [o for o in options if not o.trump and o.suit >= 0] or options
    # low from the longest side suit, where partner's honours may win it
    return min(side, key=lambda o: (-_suit_length(view, actor, o.suit), o.rank))


def _lowest_lead(view: CardView, options: list[_Option]) -> _Option:
    """The lead least likely to win: many unseen cards above it, few below, no trump."""
    def danger(o: _Option) -> tuple[int, int, int, int]:
        if o.suit < 0:
            return (0, 0, 0, 0)  # a suitless joker cannot win
        return (int(o.trump), int(o.above == 0), -o.above, o.rank)

    return min(options, key=danger)
