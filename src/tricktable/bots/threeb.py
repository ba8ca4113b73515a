"""Rules-bot strategy for 3B / RTR Spades (3, 4 or 5 players, each alone).

Bids: the trick estimate, calibrated to the tricks such hands take in play. Zero: on a
hand whose nil risk the current zero value pays for. The bot keeps a bid once made (it
lets every chance to change it pass). Exchanges: a zero throws back its most dangerous
card; the highest bidder throws back the card whose loss costs its hand least. Ace calls:
an ace is called low exactly when the card play wants to stay under the trick (a zero,
or a made bid), else high. Play: for its own bid exactly, ducking once made; every other
zero is hunted.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action, Bid, Exchange
from ..engine.cards import Card, CardSet
from ..engine.observation import Observation
from .cardplay import CardView, Goals
from .handeval import estimate_tricks, nil_risk
from .rules import Strategy, listed_bid, register_strategy

CALIBRATION = {3: (1.3, 0.6), 4: (1.0, 0.75)}
"""Tricks taken against the sure-trick estimate, per number of hands in play: a
least-squares line over games between rules bots, its intercept then tuned to the bids
that scored best against both rules and random bots."""


@register_strategy
class ThreeBStrategy(Strategy):
    games = ("3b-spades",)

    def cycle(self, obs: Observation) -> tuple[int, ...]:
        order: tuple[int, ...] = tuple(obs.info.get("bidding_order", ()))
        return order or super().cycle(obs)

    def aces_low(self) -> bool:
        return bool(getattr(self.game, "ace_calls", False))

    def opponents(self, obs: Observation) -> int:
        return len(self.cycle(obs)) - 1

    def estimate(self, obs: Observation, hand: CardSet) -> float:
        return estimate_tricks(hand, self.order(obs), self.game.deck, self.opponents(obs))

    def expected_tricks(self, obs: Observation, hand: CardSet) -> float:
        """Tricks the hand should end up with: every trick is taken by somebody, so the
        small cards of a 17-card hand win more than a sure-trick count says."""
        slope, intercept = CALIBRATION.get(len(self.cycle(obs)), CALIBRATION[4])
        return slope * self.estimate(obs, hand) + intercept

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Action:
        exchanges = [a for a in legal if isinstance(a, Exchange)]
        if exchanges:
            return self.exchange(obs, exchanges)
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            return self.bid(obs, bids)
        return legal[0]

    # --- bidding ------------------------------------------------------------------------

    def zero_ok(self, obs: Observation) -> bool:
        risk = nil_risk(obs.hand, self.order(obs), self.aces_low())
        value = int(obs.info.get("zero_value", 100))
        # a richer pot pays for a riskier zero
        return risk <= 1.0 + value / 200 and self.estimate(obs, obs.hand) < 2.0

    def bid(self, obs: Observation, bids: Sequence[Bid]) -> Action:
        seat = bids[0].seat
        allowed = {b.tricks for b in bids}
        if 0 in allowed and self.zero_ok(obs):
            return listed_bid(bids, seat, 0)
        expected = self.expected_tricks(obs, obs.hand)
        tricks = max(1, round(expected))
        best = min(allowed - {0} or allowed, key=lambda n: (abs(n - tricks), n))
        return listed_bid(bids, seat, best)

    # --- the extra card -----------------------------------------------------------------

    def exchange(self, obs: Observation, legal: Sequence[Exchange]) -> Action:
        order = self.order(obs)
        bids = obs.info.get("bids", ())
        seat = legal[0].seat
        zero = seat < len(bids) and bids[seat] == 0
        hand = obs.hand
        aces_low = self.aces_low()

        def keep_value(c: Card) -> float:
            rest = hand & ~(1 << c)
            if zero:
                return -nil_risk(rest, order, aces_low)
            return self.estimate(obs, rest) - 0.01 * order.rank_key(c)

        return max(legal, key=lambda a: keep_value(a.card))

    # --- play ---------------------------------------------------------------------------

    def goals(self, obs: Observation, view: CardView, actor: int) -> Goals:
        bids: Sequence[int | None] = obs.info.get("bids", ())
        bid = bids[actor] if actor < len(bids) else None
        won = obs.won
        hunt = frozenset(
            s for s, b in enumerate(bids) if s != actor and b == 0 and won[s] == 0
        )
        if bid == 0:  # a zero keeps ducking even once broken: each trick costs 10
            return Goals(frozenset({actor}), 0, True, frozenset({actor}), hunt)
        return Goals(frozenset({actor}), (bid or 0) - won[actor], True, frozenset(), hunt)

