"""Rules-bot strategy for standard partnership Spades.

Bids: the hand's trick estimate, rounded, never taking the team past 13; nil on a hand
with no real risk when partner has not bid nil (and, bidding second, has bid enough to
cover it); blind nil only when the team trails by 200 or more, decided before looking
(the REVEAL step).
Play: the team wants its contract; once made it ducks to avoid bags unless the
opponents can still be set, covers partner's nil and hunts the opponents'.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..engine.actions import Action, Bid, Give, Pass
from ..engine.cards import Card, cards_of
from ..engine.game import Game
from ..engine.observation import Observation
from .cardplay import CardView, Goals
from .handeval import estimate_tricks, nil_risk
from .rules import Strategy, listed_bid, register_strategy

_TEAMS = (frozenset({0, 2}), frozenset({1, 3}))  # the partnerships, by seat % 2
_NOBODY: frozenset[int] = frozenset()


def team_need(bids: Sequence[int | None], won: Sequence[int], seats: Sequence[int],
              nil_tricks_count: bool = True) -> int:
    """Tricks a partnership still needs for its contract (its non-nil bids)."""
    need = 0
    for s in seats:  # a plain loop: this is worked out at every card
        bid = bids[s] or 0
        need += bid
        if nil_tricks_count or bid > 0:
            need -= won[s]
    return need


def choose_give(hand_cards: list[Card], legal: Sequence[Action], rank: Any) -> Action:
    """The legal ``give`` of the cards that come first in ``hand_cards`` order."""
    gives = [a for a in legal if isinstance(a, Give)]
    if not gives:
        return legal[0]
    n = len(gives[0].cards)
    wanted = set(hand_cards[:n])
    for a in gives:
        if set(a.cards) == wanted:
            return a
    return max(gives, key=lambda a: sum(rank(c) for c in a.cards))


@register_strategy
class SpadesStrategy(Strategy):
    games = ("spades",)

    def cycle(self, obs: Observation) -> tuple[int, ...]:
        return (0, 1, 2, 3)

    # --- bidding ------------------------------------------------------------------------

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Action:
        if any(isinstance(a, Give) for a in legal):
            return self.give(obs, legal)
        if any(isinstance(a, Pass) for a in legal):
            return self.blind_nil_or_look(obs, legal)
        return self.bid(obs, legal)

    def blind_nil_or_look(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """Decided on the score alone, before looking, as a blind bid must be: only when the
        team trails by 200 or more."""
        seat = legal[0].seat
        team, other = str(seat % 2), str(1 - seat % 2)
        if obs.totals.get(other, 0) - obs.totals.get(team, 0) >= 200:
            return next(a for a in legal if isinstance(a, Bid) and a.blind)
        return next(a for a in legal if isinstance(a, Pass))

    def bid(self, obs: Observation, legal: Sequence[Action]) -> Action:
        seat = legal[0].seat
        if len(legal) == 1:
            return legal[0]  # Mirror, or Suicide's second bid after a nil: no choice
        bids: Sequence[int | None] = obs.info.get("bids", (None,) * 4)
        partner = (seat + 2) % 4
        partner_bid = bids[partner]
        order = self.order(obs)
        estimate = estimate_tricks(obs.hand, order, self.game.deck)
        risk = nil_risk(obs.hand, order)
        nil_ok = partner_bid != 0 and (partner_bid is None or partner_bid >= 3)
        nil = listed_bid(legal, seat, 0)
        if nil_ok and risk <= 1.3 and estimate < 1.6 and nil in legal:
            return nil
        bid = max(1, round(estimate))
        if partner_bid == 0:
            bid += 1  # partner's nil needs covering, which costs tricks
        taken = partner_bid or 0
        bid = min(bid, 13 - taken) if taken < 13 else 1
        return _legal_bid(legal, seat, bid)

    def give(self, obs: Observation, legal: Sequence[Action]) -> Action:
        seat = legal[0].seat
        order = self.order(obs)
        blind_seat = obs.info.get("blind_nil", -1)

        def power(c: Card) -> int:
            return order.rank_key(c) + (20 if order.suit_of[c] == order.trump else 0)

        cards = sorted(cards_of(obs.hand), key=power)
        if seat == blind_seat:
            cards.reverse()  # the nil bidder passes his most dangerous cards
        return choose_give(cards, legal, power)

    # --- play ---------------------------------------------------------------------------

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng)
        options: Any = game.options
        self.nil_tricks_count = bool(getattr(options, "nil_tricks_count", True))
        self.bags_hurt = int(getattr(options, "bag_limit", 10)) > 0

    def goals(self, obs: Observation, view: CardView, actor: int) -> Goals:
        bids: Sequence[int | None] = obs.info.get("bids", (None,) * 4)
        counts = self.nil_tricks_count
        mine = (actor % 2, actor % 2 + 2)
        theirs = (1 - actor % 2, 3 - actor % 2)
        need = team_need(bids, obs.won, mine, counts)
        their_need = team_need(bids, obs.won, theirs, counts)
        avoid = hunt = _NOBODY
        if 0 in bids:  # a nil: kept or hunted while its bidder has taken no trick
            avoid = frozenset(s for s in mine if bids[s] == 0 and obs.won[s] == 0)
            hunt = frozenset(s for s in theirs if bids[s] == 0 and obs.won[s] == 0)
        # Setting the opponents is worth more than the bags it costs.
        cost = self.bags_hurt and their_need <= 0
        return Goals(_TEAMS[actor % 2], need, cost, avoid, hunt)


def _legal_bid(legal: Sequence[Action], seat: int, tricks: int) -> Action:
    """The legal plain bid closest to ``tricks``."""
    bids = [a for a in legal if isinstance(a, Bid) and not a.blind and not a.nils]
    if not bids:
        return legal[0]
    return min(bids, key=lambda a: (abs(a.tricks - tricks), a.tricks))
