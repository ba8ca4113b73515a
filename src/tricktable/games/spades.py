"""Standard partnership Spades, the reference game (rulings.md, "Standard partnership Spades").

Four players, partners opposite (team 0 = seats 0+2, team 1 = seats 1+3), 13 cards each.
The player to the dealer's left bids first and leads. Spades are trumps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, Bid, Give, Pass, Play
from ..engine.cards import (
    NOT_SPADES,
    SPADE_MASK,
    STANDARD_DECK,
    Card,
    CardSet,
    card_str,
    cards_of,
    format_set,
)
from ..engine.errors import IllegalAction, OptionError
from ..engine.game import Game, register
from ..engine.observation import Observation
from ..engine.options import Options, option
from ..engine.scoring import add_bags, contract_score, sole_leader
from ..engine.state import Phase, State
from ..engine.words import TableWords

VARIANTS = ("standard", "mirror", "suicide", "whiz")
VARIANT_RULES = {
    "mirror": "in Mirror every bid is the number of spades held (none: nil)",
    "suicide": "in Suicide the first of a partnership to bid bids nil or 4 or more, and the "
    "partner the other kind",
    "whiz": "in Whiz every bid is nil or exactly the number of spades held",
}
"""The variants' bidding rules, as a refusal explains them (rulings: Spades rule 7)."""
_BIDS = [tuple(Bid(seat, n) for n in range(14)) for seat in range(4)]
# Phases as module constants: a member read off the Enum class costs ~70 ns a time.
_REVEAL = Phase.REVEAL
_BIDDING = Phase.BIDDING
_EXCHANGE = Phase.EXCHANGE
_PLAY = Phase.PLAY


# The ranges of the numeric options: wide enough for any house rule, and narrow enough
# that a table cannot be asked for a game that never ends or a number of 4,000 digits.
MAX_TARGET = 10_000
MAX_BAG_LIMIT = 100
MAX_BAG_PENALTY = 1_000


@dataclass(frozen=True)
class SpadesOptions(Options):
    target: int = option(500, "Points a team needs to win; the game ends after the hand.",
                         minimum=1, maximum=MAX_TARGET)
    nil_tricks_count: bool = option(
        True, "A nil bidder's tricks count toward the partner's contract (as OpenSpiel does)."
    )
    bag_limit: int = option(10, "Accumulated bags that cost a penalty (0: no bag penalty).",
                            minimum=0, maximum=MAX_BAG_LIMIT)
    bag_penalty: int = option(100, "Points lost each time a team's bags reach the limit.",
                              minimum=0, maximum=MAX_BAG_PENALTY)
    spades_broken: bool = option(
        True, "Spades may not be led until one has been played on another suit, unless the "
        "leader holds only spades."
    )
    mercy: bool = option(False, "A team at or below mercy_score loses the game.")
    mercy_score: int = option(-200, "The score at or below which a team loses, with mercy on.",
                              minimum=-MAX_TARGET, maximum=0)
    blind_nil: bool = option(
        False, "A player whose team trails by 100 or more may bid nil before looking (+/-200);"
        " then partners exchange two cards."
    )
    variant: str = option(
        "standard", "standard; mirror: every bid is the number of spades held (none: nil); "
        "suicide: in each partnership one bids nil and the other 4 or more; whiz: every bid "
        "is nil or exactly the number of spades held.", choices=VARIANTS,
    )


class SpadesState(State):
    __slots__ = ("bags", "bids", "blind_nil_seat", "gives", "undecided")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.bids: list[Bid | None] = [None] * 4
        self.bags: list[int] = [0, 0]
        self.blind_nil_seat = -1
        self.gives: list[tuple[Card, ...]] = []
        self.undecided: tuple[int, ...] = ()
        """Seats that may still bid blind nil and have not looked at their cards."""


def _shown_bids(allowed: Sequence[int]) -> str:
    """Allowed bids as a refusal lists them: "bid 0, bid 4..13"."""
    parts = []
    if 0 in allowed:
        parts.append("bid 0")
    rest = [n for n in allowed if n]
    if len(rest) > 2 and rest == list(range(rest[0], rest[-1] + 1)):
        parts.append(f"bid {rest[0]}..{rest[-1]}")
    else:
        parts.extend(f"bid {n}" for n in rest)
    return ", ".join(parts)


@register
class Spades(Game):
    """Standard four-player partnership Spades."""

    name = "spades"
    title = "Partnership Spades"
    options_type = SpadesOptions
    replay_notes = ("bags",)
    state_type = SpadesState
    partnership = True
    phase_actions = {
        Phase.REVEAL: (Bid, Pass),
        Phase.BIDDING: (Bid,),
        Phase.EXCHANGE: (Give,),
        Phase.PLAY: (Play,),
    }

    options: SpadesOptions


    def configure(self) -> None:
        if self.options.variant != "standard" and self.options.blind_nil:
            raise OptionError(
                f"blind nil is not played in {self.options.variant.title()} Spades: "
                "use blind_nil=no or variant=standard"
            )
        self.num_seats = 4
        self.player_seats = (0, 1, 2, 3)
        self.num_entities = 2
        self.deck = STANDARD_DECK

    def deal_sizes(self, dealer: int) -> tuple[list[int], int]:
        return [13, 13, 13, 13], 0

    def begin_hand(self, state: State) -> None:
        assert isinstance(state, SpadesState)
        state.bids = [None] * 4
        state.blind_nil_seat = -1
        state.gives = []
        first = (state.dealer + 1) % 4
        # Blind nil is bid before looking: every seat that may bid it decides first, in
        # bidding order, with its cards face down ("bid 0 blind", or "pass" to look).
        if self.options.blind_nil:
            order = [(first + i) % 4 for i in range(4)]
            state.undecided = tuple(s for s in order if self.may_bid_blind_nil(state, s))
        else:
            state.undecided = ()
        if state.undecided:
            state.phase = _REVEAL
            state.to_act = state.undecided[0]
        else:
            state.phase = _BIDDING
            state.to_act = first

    # --- bidding ---------------------------------------------------------------------------

    def may_bid_blind_nil(self, state: SpadesState, seat: int) -> bool:
        """Blind nil is allowed when the option is on, the team trails by 100 or more and
        the partner has not bid blind nil."""
        if not self.options.blind_nil:
            return False
        team = seat % 2
        partner = state.bids[(seat + 2) % 4]
        if partner is not None and partner.blind:
            return False
        return state.totals[1 - team] - state.totals[team] >= 100

    def check_pass(self, state: State, action: Action) -> None:
        """In REVEAL, "pass" declines blind nil: the seat looks at its cards."""

    def apply_pass(self, state: State, action: Action) -> None:
        assert isinstance(state, SpadesState)
        self.next_blind_decision(state, action.seat)

    def next_blind_decision(self, state: SpadesState, seat: int) -> None:
        state.undecided = tuple(s for s in state.undecided if s != seat)
        remaining = [s for s in state.undecided if self.may_bid_blind_nil(state, s)]
        state.undecided = tuple(remaining)
        if remaining:
            state.to_act = remaining[0]
            return
        state.phase = Phase.BIDDING
        state.to_act = self.next_bidder(state, state.dealer)

    def next_bidder(self, state: SpadesState, seat: int) -> int:
        """The next seat clockwise after ``seat`` that has not bid (a blind nil has)."""
        for i in range(1, 5):
            nxt = (seat + i) % 4
            if state.bids[nxt] is None:
                return nxt
        return -1

    def phase_legal_actions(self, state: State) -> Sequence[Action]:
        assert isinstance(state, SpadesState)
        seat = state.to_act
        if state.phase is _BIDDING:
            if self.options.variant == "standard":
                return _BIDS[seat]  # every bid, 0 to 13 (a tuple: kept as it is)
            return [_BIDS[seat][n] for n in self.variant_bids(state, seat)]
        if state.phase is _REVEAL:
            return [Bid(seat, 0, blind=True), Pass(seat)]
        # EXCHANGE after a blind nil: two cards to partner
        hand = state.hands[seat]
        cards = list(cards_of(hand))
        return [Give(seat, (a, b)) for i, a in enumerate(cards) for b in cards[i + 1 :]]

    def variant_bids(self, state: SpadesState, seat: int) -> list[int]:
        """The numbers ``seat`` may bid now under the table's variant (0 is nil)."""
        variant = self.options.variant
        if variant == "standard":
            return list(range(14))
        spades = (state.hands[seat] & SPADE_MASK).bit_count()
        if variant == "mirror":
            return [spades]
        if variant == "whiz":
            return sorted({0, spades})
        partner = state.bids[(seat + 2) % 4]
        if partner is None:
            return [0, *range(4, 14)]
        return list(range(4, 14)) if partner.tricks == 0 else [0]

    def check_bid(self, state: State, action: Action) -> None:
        assert isinstance(state, SpadesState) and isinstance(action, Bid)
        if action.nils or action.mode:
            raise IllegalAction("bids", f"'{action}' is not a Spades bid", "bid 0..13")
        if not 0 <= action.tricks <= 13:
            raise IllegalAction(
                "bids", f"a bid is 0 to 13 tricks, not {action.tricks}", "bid 0..13"
            )
        if action.blind:
            if action.tricks != 0:
                raise IllegalAction("blind nil", "only nil may be bid blind", "bid 0 blind")
            if not self.options.blind_nil:
                raise IllegalAction("blind nil", "blind nil is off at this table", "bid 0..13")
            if not self.may_bid_blind_nil(state, action.seat):
                raise IllegalAction(
                    "blind nil",
                    "blind nil is allowed only when your team trails by 100 or more",
                    "bid 0..13",
                )
            if state.phase is not _REVEAL:
                raise IllegalAction(
                    "blind nil",
                    "blind nil is bid before looking at the cards, at the start of the hand",
                    "bid 0..13",
                )
        elif state.phase is _REVEAL:
            raise IllegalAction(
                "blind nil",
                f"seat {action.seat} has not looked at its cards yet: it bids blind nil now or"
                " passes to look, and bids in turn afterwards",
                "bid 0 blind, pass",
            )
        elif state.phase is _BIDDING and self.options.variant != "standard":
            allowed = self.variant_bids(state, action.seat)
            if action.tricks not in allowed:
                raise IllegalAction(
                    self.options.variant,
                    f"seat {action.seat} may not bid {action.tricks}: "
                    f"{VARIANT_RULES[self.options.variant]}",
                    _shown_bids(allowed),
                )

    def apply_bid(self, state: State, action: Action) -> None:
        assert isinstance(state, SpadesState) and isinstance(action, Bid)
        state.bids[action.seat] = action
        if action.blind:
            state.blind_nil_seat = action.seat
            self.next_blind_decision(state, action.seat)
            return
        bidder = self.next_bidder(state, action.seat)
        if bidder >= 0:
            state.to_act = bidder
        elif state.blind_nil_seat >= 0:  # every seat has bid
            # the partner passes two cards first, then the blind nil bidder passes back
            state.phase = _EXCHANGE
            state.to_act = (state.blind_nil_seat + 2) % 4
        else:
            self.start_play(state)

    def start_play(self, state: State) -> None:
        state.phase = _PLAY
        state.to_act = (state.dealer + 1) % 4

    # --- blind nil exchange ----------------------------------------------------------------

    def check_give(self, state: State, action: Action) -> None:
        assert isinstance(action, Give)
        hand = state.hands[action.seat]
        if len(action.cards) != 2 or len(set(action.cards)) != 2:
            raise IllegalAction("blind nil exchange", "give exactly two cards to your partner",
                                "give C C")
        for c in action.cards:
            if not hand >> c & 1:
                raise IllegalAction(
                    "own cards", f"seat {action.seat} does not hold {card_str(c)}",
                    "give two of " + format_set(hand),
                )

    def apply_give(self, state: State, action: Action) -> None:
        assert isinstance(state, SpadesState) and isinstance(action, Give)
        partner = (action.seat + 2) % 4
        for c in action.cards:
            state.hands[action.seat] &= ~(1 << c)
            state.hands[partner] |= 1 << c
        state.gives.append(action.cards)
        if action.seat == state.blind_nil_seat:
            self.start_play(state)
        else:
            state.to_act = state.blind_nil_seat

    # --- play ------------------------------------------------------------------------------

    def lead_mask(self, state: State, hand: CardSet) -> CardSet:
        if not self.options.spades_broken or state.trump_broken:
            return hand
        return (hand & NOT_SPADES) or hand

    # --- scoring ---------------------------------------------------------------------------

    def score_hand(self, state: State) -> tuple[list[int], dict[str, Any]]:
        assert isinstance(state, SpadesState)
        opts = self.options
        bids, won, bags = state.bids, state.won, state.bags
        scores = [0, 0]
        for team in (0, 1):
            contract, counted = self._team_tricks(bids, won, team)
            points, new_bags = contract_score(contract, counted)
            for seat in (team, team + 2):
                bid = bids[seat]
                if bid is not None and bid.tricks == 0:
                    value = 200 if bid.blind else 100
                    points += -value if won[seat] else value
            bags[team], penalty = add_bags(bags[team], new_bags, opts.bag_limit, opts.bag_penalty)
            scores[team] = points + penalty
        return scores, {"bags": {"0": bags[0], "1": bags[1]}}

    def _team_tricks(self, bids: Sequence[Bid | None], won: Sequence[int], team: int
                     ) -> tuple[int, int]:
        """A team's contract (its two bids added) and the tricks counted toward it (a nil
        bidder's only with ``nil_tricks_count``), from the hand's bids and tricks won."""
        nil_tricks_count = self.options.nil_tricks_count
        contract = counted = 0
        for seat in (team, team + 2):
            bid = bids[seat]
            assert bid is not None
            contract += bid.tricks
            if bid.tricks or nil_tricks_count:
                counted += won[seat]
        return contract, counted

    def game_winner(self, state: State) -> int | None:
        return self.winner_by_totals(state.totals, state.finished_hands, {})

    def winner_by_totals(self, totals: Sequence[int], finished_hands: int,
                         info: Mapping[str, Any]) -> int | None:
        opts = self.options
        over = max(totals) >= opts.target or (opts.mercy and min(totals) <= opts.mercy_score)
        return sole_leader(totals) if over else None

    # --- what seats see --------------------------------------------------------------------


    def hand_lines(self, state: State, scores: Sequence[int], details: Mapping[str, Any]
                   ) -> list[str]:
        """Each team's contract, its nils and its bags, in words."""
        return self._lines_writer(state, scores, details)()

    def hand_lines_later(self, state: State, scores: Sequence[int], details: Mapping[str, Any]
                         ) -> Callable[[], list[str]]:
        return self._lines_writer(state, scores, details)

    def _lines_writer(self, state: State, scores: Sequence[int], details: Mapping[str, Any]
                      ) -> Callable[[], list[str]]:
        """``hand_lines`` written from what they need of the state: the hand's bids and
        tricks won and the bags before it."""
        assert isinstance(state, SpadesState)
        before = state.results[-1].details["bags"] if state.results else {"0": 0, "1": 0}
        bags_before = (int(before["0"]), int(before["1"]))
        bids, won, scores = tuple(state.bids), tuple(state.won), tuple(scores)
        return lambda: self._hand_lines(bids, won, bags_before, scores, details)

    def _hand_lines(self, bids: Sequence[Bid | None], won: Sequence[int],
                    bags_before: Sequence[int], scores: Sequence[int],
                    details: Mapping[str, Any]) -> list[str]:
        opts = self.options
        lines = []
        for team in (0, 1):
            contract, counted = self._team_tricks(bids, won, team)
            name = self.entity_name(team)
            if contract:
                points, bags = contract_score(contract, counted)
                if points > 0:
                    extra = f" and {bags} overtrick(s), each a bag" if bags else ""
                    lines.append(f"{name} bid {contract} and took {counted}: made, "
                                 f"{10 * contract}{extra} = {points:+d}")
                else:
                    lines.append(f"{name} bid {contract} and took {counted}: set, {points:+d}")
            else:
                bags = counted if opts.nil_tricks_count else 0
            for s in (team, team + 2):
                b = bids[s]
                if b is not None and b.tricks == 0:
                    kind = "blind nil" if b.blind else "nil"
                    value = 200 if b.blind else 100
                    if won[s] == 0:
                        lines.append(f"{self.seat_name(s)}'s {kind} made: +{value} to {name}")
                    else:
                        lines.append(f"{self.seat_name(s)}'s {kind} failed ({won[s]} trick(s) "
                                     f"taken): -{value} to {name}")
            _, penalty = add_bags(bags_before[team], bags, opts.bag_limit, opts.bag_penalty)
            if penalty:
                lines.append(f"{name} reached {opts.bag_limit} bags: {penalty:+d} "
                             f"({details['bags'][str(team)]} bag(s) carried on)")
            lines.append(f"{name}: {scores[team]:+d} this hand")
        return lines

    def visible_holdings(self, state: State, viewer: int) -> list[CardSet]:
        assert isinstance(state, SpadesState)
        out = [0] * 4
        if viewer not in state.undecided:  # a seat deciding on blind nil has not looked
            out[viewer] = state.hands[viewer]
        return out

    def redact(self, state: State, action: Action, viewer: int) -> str:
        if isinstance(action, Give) and viewer not in (action.seat, (action.seat + 2) % 4):
            return f"{action.seat}: give ? ?"
        return str(action)

    def carry_over(self, state: State, info: Mapping[str, Any]) -> None:
        assert isinstance(state, SpadesState)
        bags = info.get("bags")
        if isinstance(bags, Mapping):
            state.bags = [int(bags.get(str(team), 0)) for team in (0, 1)]

    def public_info(self, state: State, viewer: int) -> dict[str, Any]:
        assert isinstance(state, SpadesState)
        info: dict[str, Any] = {
            "bids": tuple(None if b is None else b.tricks for b in state.bids),
            "blind_nil": state.blind_nil_seat,
            "bags": {"0": state.bags[0], "1": state.bags[1]},
            "spades_broken": state.trump_broken,
            "target": self.options.target,
        }
        if state.phase is Phase.REVEAL and state.to_act == viewer:
            info["may_bid_blind_nil"] = True
        return info


class SpadesWords(TableWords):
    """What Partnership Spades says at the table."""

    games = ("spades",)
    BID_RULES = {
        "standard": "Bid the tricks you and your partner will take together. Nil (0): +100 "
                    "if you take no trick, -100 if you do.",
        "mirror": "Mirror: your bid is the number of spades you hold (none: nil).",
        "suicide": "Suicide: one partner of each team bids nil, the other 4 or more.",
        "whiz": "Whiz: bid the number of spades you hold, or nil.",
    }
    BLIND_RULE = ("Blind nil: bid nil before you look at your cards (+200 if you take no "
                  "trick, -200 if you do), or look at them and bid as usual.")
    GIVE_RULE = "Blind nil: pass cards to your partner face down; your partner passes back."

    @property
    def options(self) -> SpadesOptions:
        assert isinstance(self.game.options, SpadesOptions)
        return self.game.options

    def bid(self, tricks: int) -> str:
        return "nil" if tricks == 0 else str(tricks)

    def rule(self, verb: str, obs: Observation) -> str | None:
        if obs.phase is Phase.REVEAL and verb in ("bid", "pass"):
            return self.BLIND_RULE
        if verb == "bid":
            return self.BID_RULES.get(self.options.variant)
        if verb == "give":
            return self.GIVE_RULE
        return super().rule(verb, obs)

    def label(self, action: Action, obs: Observation) -> str | None:
        if obs.phase is Phase.REVEAL and action.verb == "pass":
            return "Look at my cards"
        if isinstance(action, Bid) and action.blind:
            return "Blind nil (±200)"
        return super().label(action, obs)

    def phase_doing(self, obs: Observation) -> str:
        if obs.phase is Phase.REVEAL:
            return "to bid blind nil or look"
        return super().phase_doing(obs)

    def facts(self, obs: Observation) -> list[str]:
        info = obs.info
        out = []
        blind = info.get("blind_nil")
        if type(blind) is int and blind >= 0:
            out.append(f"{self.seat(blind)} bid blind nil")
        if obs.phase is Phase.PLAY and self.options.spades_broken:
            out.append("spades broken" if info.get("spades_broken") else "spades not broken")
        if "target" in info:
            out.append(f"game to {info['target']}")
        bags = self.bags(obs)
        return out + ([bags] if bags else [])
