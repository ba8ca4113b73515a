"""Rules-bot strategy for Dummy Whist and Double Dummy Whist.

Keep or swap (Double Dummy): keep a hand at least as good as an average one, since a
kept hand doubles the score; swap a poor one for the unseen dead hand. The auction: the
bot values its hand in every mode (uptown or downtown with its best trump suit, no-trump
high or low), adds what the dummy is worth on average and the declarer's edge of naming
trumps after seeing it, and bids the cheapest better bid it expects to make, in its best
mode; the dealer forced to bid bids the cheapest one. The declarer discards (jokers) the
two dummy cards whose loss costs least, names the trump suit or the direction that makes
his two hands strongest, and plays both for every book he can take; defenders play to
set him. In honour mode the bot never reneges, and it calls a renege of the other side
once the play has proved it (a seat that showed out of a suit later plays it).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action, Bid, Direction, Discard, Keep, Pass, Play, Renege, Swap, Trump
from ..engine.cards import JOKERS, NO_SUIT, SUIT_LETTERS, CardSet
from ..engine.dummy import DUMMY, defenders, play_cycle
from ..engine.observation import Observation
from ..engine.order import CardOrder
from .cardplay import CardView, Goals
from .handeval import estimate_tricks
from .rules import Strategy, register_strategy

BOOK = 6
DUMMY_WORTH = 3.0  # tricks an unseen dummy adds, on average
DECLARER_EDGE = 0.7  # naming trumps after seeing the dummy, and playing both hands
KEEP_AT = 3.5  # a hand worth this many tricks (in its best mode) is kept as dealt

_ORDERS: dict[tuple[int, bool], CardOrder] = {}


def whist_order(trump: int, low: bool) -> CardOrder:
    """The card order of a whist hand (jokers are trumps only when there is a trump)."""
    key = (trump, low)
    if key not in _ORDERS:
        _ORDERS[key] = CardOrder(trump=trump, low=low, jokers_trump=trump != NO_SUIT)
    return _ORDERS[key]


def mode_orders(mode: str) -> list[CardOrder]:
    """Every order a declarer may choose after a bid in ``mode``."""
    if mode == "notrump":
        return [whist_order(NO_SUIT, False), whist_order(NO_SUIT, True)]
    low = mode == "downtown"
    return [whist_order(suit, low) for suit in range(4)]


@register_strategy
class WhistStrategy(Strategy):
    games = ("dummy-whist", "double-dummy-whist")

    @property
    def double(self) -> bool:
        return self.game.name == "double-dummy-whist"

    def partner(self, seat: int) -> int:
        return (seat + 2) % 4 if self.double else DUMMY

    def order(self, obs: Observation) -> CardOrder:
        trump_letter = obs.info.get("trump")
        trump = SUIT_LETTERS.index(trump_letter) if trump_letter else NO_SUIT
        return whist_order(trump, obs.info.get("direction") == "low")

    def cycle(self, obs: Observation) -> tuple[int, ...]:
        declarer = obs.info.get("declarer")
        if self.double or declarer is None:
            return (0, 1, 2, 3)
        return play_cycle(declarer)

    def value(self, hand: CardSet, order: CardOrder) -> float:
        return estimate_tricks(hand, order, self.game.deck)

    def best_value(self, hand: CardSet, mode: str) -> tuple[float, CardOrder]:
        return max(((self.value(hand, o), o) for o in mode_orders(mode)), key=lambda vo: vo[0])

    # --- decisions other than cards -----------------------------------------------------

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Action:
        first = legal[0]
        if isinstance(first, Keep | Swap):
            return self.keep_or_swap(obs, legal)
        if isinstance(first, Discard):
            return self.discard(obs, legal)
        if isinstance(first, Trump | Direction):
            return self.declare(obs, legal)
        return self.bid(obs, legal)

    def keep_or_swap(self, obs: Observation, legal: Sequence[Action]) -> Action:
        best = max(self.best_value(obs.hand, m)[0] for m in ("uptown", "downtown", "notrump"))
        want = Keep if best >= KEEP_AT else Swap
        return next(a for a in legal if isinstance(a, want))

    def bid(self, obs: Observation, legal: Sequence[Action]) -> Action:
        bids = [a for a in legal if isinstance(a, Bid)]
        passes = [a for a in legal if isinstance(a, Pass)]
        makeable: list[tuple[int, float, Bid]] = []
        for mode in ("uptown", "downtown", "notrump"):
            value = self.best_value(obs.hand, mode)[0] + DUMMY_WORTH + DECLARER_EDGE
            books = int(value) - BOOK
            for b in bids:
                if b.mode == mode and b.tricks <= books:
                    makeable.append((b.tricks, -value, b))
        if makeable:
            # the cheapest bid that wins the auction so far, in the mode that values best
            return min(makeable, key=lambda t: (t[0], t[1]))[2]
        if passes:
            return passes[0]
        # the dealer must bid: the cheapest bid in the mode the hand likes best
        values = {m: self.best_value(obs.hand, m)[0] for m in ("uptown", "downtown", "notrump")}
        return min(bids, key=lambda b: (b.tricks, -values[b.mode]))

    def contract_mode(self, obs: Observation) -> str:
        contract = obs.info.get("contract") or "1 uptown"
        return str(contract).split()[1]

    def declare(self, obs: Observation, legal: Sequence[Action]) -> Action:
        seat = legal[0].seat
        both = obs.hand | obs.visible[self.partner(seat)]

        def score(a: Action) -> float:
            if isinstance(a, Trump):
                order = whist_order(a.suit, self.contract_mode(obs) == "downtown")
            else:
                assert isinstance(a, Direction)
                order = whist_order(NO_SUIT, a.low)
            return self.value(obs.hand, order) + self.value(both & ~obs.hand, order)

        return max(legal, key=score)

    def discard(self, obs: Observation, legal: Sequence[Action]) -> Action:
        seat = legal[0].seat
        dummy = obs.visible[self.partner(seat)]
        mode = self.contract_mode(obs)
        order = self.best_value(obs.hand | dummy, mode)[1]
        if mode == "notrump":
            # jokers never win in no-trump: they go first
            for a in legal:
                if isinstance(a, Discard) and all(JOKERS >> c & 1 for c in a.cards):
                    return a

        def loss(a: Action) -> tuple[float, int]:
            assert isinstance(a, Discard)
            rest = dummy
            for c in a.cards:
                rest &= ~(1 << c)
            return (-self.value(rest, order), sum(order.rank_key(c) for c in a.cards))

        return min(legal, key=loss)

    # --- renege calls -------------------------------------------------------------------

    def other_side(self, obs: Observation, me: int) -> frozenset[int]:
        declarer = obs.info.get("declarer")
        if declarer is None:
            return frozenset()
        team = {declarer, self.partner(declarer)}
        if me in team:
            return frozenset(s for s in range(4) if s not in team)
        return frozenset(team)

    def proven_reneges(self, obs: Observation, me: int) -> set[int]:
        """Tricks (1-based) in which a seat of the other side showed out of the suit led,
        and has played that suit since."""
        order = self.order(obs)
        suspects = self.other_side(obs, me)
        showed_out: dict[tuple[int, int], int] = {}  # (seat, suit) -> first trick
        proven: set[int] = set()
        plays = [(i + 1, t.led_suit, t.seats, t.cards) for i, t in enumerate(obs.tricks)]
        if obs.trick:
            plays.append((
                len(obs.tricks) + 1, obs.led_suit,
                tuple(s for s, _ in obs.trick), tuple(c for _, c in obs.trick),
            ))
        for number, led, seats, cards in plays:
            for seat, c in zip(seats, cards, strict=True):
                if seat not in suspects:
                    continue
                suit = order.suit_of[c]
                if suit >= 0 and (seat, suit) in showed_out:
                    proven.add(showed_out.pop((seat, suit)))
                if led >= 0 and suit != led and (seat, led) not in showed_out:
                    showed_out[(seat, led)] = number
        return proven

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        calls = [a for a in legal if isinstance(a, Renege)]
        if not calls:
            return None
        proven = self.proven_reneges(obs, calls[0].seat)
        for a in calls:
            if a.trick in proven:
                return a
        return None

    # --- play ---------------------------------------------------------------------------

    def play(self, obs: Observation, legal: Sequence[Action]) -> Action:
        call = self.offer(obs, legal)
        if call is not None:
            return call
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        actor = plays[0].seat
        order = self.order(obs)
        strict = self.strict_plays(obs, actor, order)
        keep = [a for a in plays if strict >> a.card & 1] or plays
        return self.pick_play(obs, keep, order)

    def strict_plays(self, obs: Observation, actor: int, order: CardOrder) -> CardSet:
        """The cards the strict rules allow (honour mode lets any card be played)."""
        hand = obs.visible[actor] or obs.hand
        no_trump = order.trump == NO_SUIT
        if not obs.trick:
            return (hand & ~JOKERS) or hand if no_trump else hand
        led = obs.led_suit
        if led < 0:
            return (hand & ~JOKERS) or hand
        same = hand & order.suit_masks[led]
        if same:
            return same
        must_throw = bool(getattr(self.game, "joker_must_throw", True))
        if no_trump and hand & JOKERS and must_throw:
            return hand & JOKERS
        return hand

    def goals(self, obs: Observation, view: CardView, actor: int) -> Goals:
        declarer: int = obs.info["declarer"]
        need: int = obs.info["need"]
        declaring = (declarer, self.partner(declarer))
        books = obs.won[declaring[0]] + obs.won[declaring[1]]
        if actor in declaring:
            return Goals(frozenset(declaring), need - books, overtricks_cost=False)
        if self.double:
            side = frozenset(s for s in range(4) if s not in declaring)
        else:
            side = frozenset(defenders(declarer))
        theirs = sum(obs.won) - books
        # the defenders set the contract with 14 - need books
        return Goals(side, 14 - need - theirs, overtricks_cost=False)

