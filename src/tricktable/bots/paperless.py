"""Rules-bot strategy for Paperless Spades.

The pass: a hand fit for nil passes its three most dangerous cards to partner (who will
have to take the tricks); any other hand passes three low side cards, shortening its
shortest side suit towards a void it can ruff in. Bids: personal, rounded down a little,
since falling short gives the opponents 2 while an overtrick only costs 1; nil on a safe
hand when partner has not bid it. Play: the team aims at its bid exactly, ducks once it
is there unless the opponents can still be set, covers partner's nil and hunts theirs.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action, Bid, Give
from ..engine.cards import Card, cards_of
from ..engine.observation import Observation
from .cardplay import CardView, Goals
from .handeval import estimate_tricks, nil_risk
from .rules import Strategy, listed_bid, register_strategy
from .spades import choose_give, team_need


@register_strategy
class PaperlessStrategy(Strategy):
    games = ("paperless-spades",)

    def cycle(self, obs: Observation) -> tuple[int, ...]:
        return (0, 1, 2, 3)

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Action:
        if isinstance(legal[0], Give):
            return self.give(obs, legal)
        return self.bid(obs, legal)

    def nil_hand(self, obs: Observation) -> bool:
        order = self.order(obs)
        return nil_risk(obs.hand, order) <= 1.3 and self.estimate(obs) < 1.6

    def estimate(self, obs: Observation) -> float:
        return estimate_tricks(obs.hand, self.order(obs), self.game.deck)

    def give(self, obs: Observation, legal: Sequence[Action]) -> Action:
        order = self.order(obs)
        hand = obs.hand
        risk_before = nil_risk(hand, order)

        def danger(c: Card) -> int:
            return order.rank_key(c) + (20 if order.suit_of[c] == order.trump else 0)

        if risk_before <= 4.0 and self.estimate(obs) < 3.0:
            # heading for nil: pass the cards that could win a trick
            cards = sorted(cards_of(hand), key=danger, reverse=True)
        else:
            def length(c: Card) -> int:
                return (hand & order.suit_masks[order.suit_of[c]]).bit_count()

            side = [c for c in cards_of(hand) if order.suit_of[c] != order.trump]
            cards = sorted(side, key=lambda c: (length(c), order.rank_key(c)))
            cards += sorted(set(cards_of(hand)) - set(side), key=danger)
        return choose_give(cards, legal, danger)

    def bid(self, obs: Observation, legal: Sequence[Action]) -> Action:
        seat = legal[0].seat
        allowed = {a.tricks for a in legal if isinstance(a, Bid)}
        if 0 in allowed and self.nil_hand(obs):
            return listed_bid(legal, seat, 0)
        tricks = max(1, int(self.estimate(obs) + 0.3))
        best = min(allowed, key=lambda n: (abs(n - tricks), n))
        return listed_bid(legal, seat, best)

    def goals(self, obs: Observation, view: CardView, actor: int) -> Goals:
        bids: Sequence[int | None] = obs.info.get("bids", (None,) * 4)
        mine = (actor % 2, actor % 2 + 2)
        theirs = (1 - actor % 2, 3 - actor % 2)
        need = team_need(bids, obs.won, mine)
        their_need = team_need(bids, obs.won, theirs)
        avoid = frozenset(s for s in mine if bids[s] == 0 and obs.won[s] == 0)
        hunt = frozenset(s for s in theirs if bids[s] == 0 and obs.won[s] == 0)
        # Exactly on the bid, ducking keeps the +2; past it, or while the opponents can
        # still fall short (+2 to us), more tricks cost nothing.
        cost = need == 0 and their_need <= 0
        return Goals(frozenset(mine), need, cost, avoid, hunt)
