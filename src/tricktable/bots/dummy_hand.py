"""Rules-bot strategy for Three-Player "Dummy Hand" Spades.

Peeks and flips: the positions of face-down cards tell nothing, so they are drawn from
the bot's seeded stream. Bids: a team bid is scored against whichever team the bidder
ends up on, so the bot bids its estimate for the team it is heading for: its own hand
plus the dummy (as much of it as it has seen, the rest at an average) when its bid will
top the others, its own hand plus an average defender otherwise, and never so high that
it takes the declaration by accident (a defender's bid is capped at the top bid so far,
which a tie leaves with the earlier bidder). Nils: on its own hand when the hand is safe; on the
dummy when enough of the dummy is known to be harmless (such a declaration counts only if
the bot declares, so it costs nothing otherwise); on another player's hand only when that
player has himself declared a plain nil with a modest bid, so both would defend it.
Play: the declarer plays both hands for his bid; a defender plays for his own bid
against both defenders' tricks. Each covers the nils he declared and hunts everyone
else's, his fellow defender's too: a defender's nil is another player's +100.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.actions import Action, Bid, Flip, Peek
from ..engine.dummy import DUMMY, REAL_PLAYERS, defenders, play_cycle
from ..engine.observation import Observation
from .cardplay import CardView, Goals
from .handeval import estimate_tricks, nil_risk
from .rules import Strategy, listed_bid, register_strategy

AVERAGE_CARD = 13 / 52  # tricks per unknown card: 13 tricks among 52 cards
# What the other defender is worth, unseen, and the declarer's margin on his two hands:
# the values that scored best per hand in games between rules bots (the declarer's
# edge of seeing both hands is outweighed by the defenders' ganging up on him).
DEFENDER_PARTNER = 2.5
DECLARER_EDGE = -0.5


@register_strategy
class DummyHandSpadesStrategy(Strategy):
    games = ("dummy-hand-spades",)

    def cycle(self, obs: Observation) -> tuple[int, ...]:
        declarer = obs.info.get("declarer")
        if declarer is None:
            return (*REAL_PLAYERS, DUMMY)
        return play_cycle(declarer)

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Action:
        if isinstance(legal[0], Peek | Flip):
            return legal[self.rng.randrange(len(legal))]
        return self.bid(obs, legal)

    # --- bidding ------------------------------------------------------------------------

    def dummy_estimate(self, obs: Observation) -> tuple[float, float, int]:
        """(expected tricks of the dummy, its nil risk over the known cards, known count)."""
        order = self.order(obs)
        known = obs.visible[DUMMY]
        n_known = known.bit_count()
        unknown = 13 - n_known
        value = estimate_tricks(known, order, self.game.deck) + unknown * AVERAGE_CARD
        return value, nil_risk(known, order), n_known

    def bid(self, obs: Observation, legal: Sequence[Action]) -> Action:
        seat = legal[0].seat
        if len(legal) == 1:
            return legal[0]  # Mirror: the bid is the spades held
        if all(a.nils for a in legal if isinstance(a, Bid)):
            return self.suicide_bid(obs, legal)
        order = self.order(obs)
        bids: Sequence[Mapping[str, Any] | None] = obs.info.get("bids", (None, None, None))
        made = {s: b for s, b in enumerate(bids) if b is not None}
        top = max((b["tricks"] for b in made.values()), default=-1)
        mine = estimate_tricks(obs.hand, order, self.game.deck)
        dummy, dummy_risk, dummy_known = self.dummy_estimate(obs)
        nils: list[int] = []
        own_nil = nil_risk(obs.hand, order) <= 1.3 and mine < 1.6
        if own_nil:
            nils.append(seat)
            mine = 0.0
        as_declarer = mine + dummy + DECLARER_EDGE
        as_defender = mine + DEFENDER_PARTNER
        if round(as_declarer) > top and round(as_declarer) >= round(as_defender):
            tricks = round(as_declarer)
            if dummy_known >= 9 and dummy_risk <= 0.8:
                nils.append(DUMMY)  # counts only if this bid declares
        else:
            tricks = min(round(as_defender), max(top, 0))
        for other, b in made.items():
            if other != seat and tuple(b["nils"]) == (other,) and 1 <= b["tricks"] <= 5:
                nils.append(other)  # counts only if both of us defend
        tricks = max(0, min(13, tricks))
        return _legal_bid(legal, seat, tricks, nils)

    def suicide_bid(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """Suicide: 4 or more, with nil on his own hand when it looks safe, otherwise on
        the dummy and the other two (one of them counts, whichever team he ends up in)."""
        seat = legal[0].seat
        order = self.order(obs)
        mine = estimate_tricks(obs.hand, order, self.game.deck)
        dummy, _, _ = self.dummy_estimate(obs)
        own_nil = nil_risk(obs.hand, order) <= 1.3 and mine < 1.6
        tricks = max(4, min(13, round((0.0 if own_nil else mine) + dummy + DECLARER_EDGE)))
        wanted = [a for a in legal if isinstance(a, Bid) and a.tricks == tricks
                  and (a.nils == (seat,)) == own_nil]
        return wanted[0] if wanted else legal[0]

    # --- play ---------------------------------------------------------------------------

    def goals(self, obs: Observation, view: CardView, actor: int) -> Goals:
        info = obs.info
        declarer: int = info["declarer"]
        me = self.seat
        bids: Sequence[Mapping[str, Any]] = info["bids"]
        won = obs.won
        declaring = (declarer, DUMMY)
        defending = defenders(declarer)
        team_won = won[declarer] + won[DUMMY]
        def_won = sum(won) - team_won
        options: Any = self.game.options
        bags_hurt = int(getattr(options, "bag_limit", 10)) > 0
        if me == declarer:
            team = frozenset(declaring)
            need = bids[me]["tricks"] - team_won
            rivals_need = max(bids[d]["tricks"] - def_won for d in defending)
        else:
            team = frozenset(defending)
            need = bids[me]["tricks"] - def_won
            rivals_need = bids[declarer]["tricks"] - team_won
        applying: Sequence[tuple[int, int]] = info.get("nils", ())
        avoid = frozenset(
            hand for bidder, hand in applying if bidder == me and won[hand] == 0 and hand in team
        )
        hunt = frozenset(
            hand for bidder, hand in applying
            if bidder != me and won[hand] == 0 and hand not in avoid
        )
        cost = bags_hurt and rivals_need <= 0
        return Goals(team, need, cost, avoid, hunt)


def _legal_bid(legal: Sequence[Action], seat: int, tricks: int, nils: list[int]) -> Action:
    """The bid of ``tricks`` with as many of ``nils`` as the table allows (in order)."""
    allowed = {(a.tricks, a.nils) for a in legal if isinstance(a, Bid)}
    for keep in range(len(nils), -1, -1):
        wanted = (tricks, tuple(sorted(set(nils[:keep]))))
        if wanted in allowed:
            return listed_bid(legal, seat, *wanted)
    plain = [a for a in legal if isinstance(a, Bid) and not a.nils]
    return min(plain, key=lambda a: abs(a.tricks - tricks)) if plain else legal[0]

