"""Three-Player "Dummy Hand" Spades (rulings.md, "Three-Player "Dummy Hand" Spades").

Seats 0, 1 and 2 are the real players and seat 3 is the dummy's home seat; the deal passes
among the real players only. Each hand: an optional REVEAL phase (peeks or flips of the
face-down dummy), one round of team bids with nil declarations, then play. The highest
bidder (first in bidding order on a tie) is declarer and plays the dummy, which "sits
opposite" him once the first bidder has made the opening lead. Every real player scores
alone, with his own bags.

Replay details per hand: ``bags`` (per real player, after the hand), ``declarer``, ``bids``
(team bids per real player), ``nils`` (the declarations that applied, each with its
bidder, hand and whether it was made) and ``team_tricks`` (declarer+dummy, defenders).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, Bid, Flip, Peek, Play
from ..engine.cards import NOT_SPADES, SPADE_MASK, STANDARD_DECK, CardSet, card_str
from ..engine.dummy import DUMMY, REAL_PLAYERS, defenders, left_of, seat_dummy_opposite
from ..engine.errors import IllegalAction, OptionError
from ..engine.game import Game, register
from ..engine.observation import Observation
from ..engine.options import Options, option
from ..engine.scoring import add_bags, contract_score, sole_leader
from ..engine.state import Phase, State
from ..engine.words import TableWords, seat_words

HAND_SIZE = 13
MAX_BID = 13
NIL_POINTS = 100

VARIANTS = ("standard", "mirror", "suicide")
MIRROR_RULE = ("in Mirror there is no bidding: each bid is the number of spades the bidder "
               "holds, and a hand without spades is nil")
SUICIDE_RULE = ("in Suicide every team bid is 4 or more and carries exactly one nil on "
                "whichever team the bidder ends up in: on his own hand, or on the dummy and "
                "both other players together")
_FACT_DICTS = ("peeks", "flips", "flipped", "peeked", "bags", "contracts")
"""The keys of ``public_info`` whose values are dicts (copied for each observation)."""
PEEK_CHOICES = ("none", "three-peeky", "four-peeky", "flip-1", "flip-2", "flip-3", "flip-4")
"""The ``peek`` option: how many dummy cards each real player looks at (privately) or
turns face up (for all) before the bidding."""


def reveal_rule(peek: str) -> tuple[str, int]:
    """The REVEAL verb and the number of positions each player picks under a ``peek``
    option: ("peek", 3) for three peeky, ("flip", 2) for flip 2, ("", 0) for no peeking."""
    if peek == "three-peeky":
        return "peek", 3
    if peek == "four-peeky":
        return "peek", 4
    if peek.startswith("flip-"):
        return "flip", int(peek[5:])
    return "", 0


# The ranges of the numeric options: wide enough for any house rule, and narrow enough
# that a table cannot be asked for a game that never ends or a number of 4,000 digits.
MAX_TARGET = 10_000
MAX_BAG_LIMIT = 100
MAX_BAG_PENALTY = 1_000


@dataclass(frozen=True)
class DummyHandSpadesOptions(Options):
    target: int = option(
        500, "Points that end the game after the hand; the highest score wins. A new game "
        "starts at 300, the text's suggestion; a record naming no target plays to 500.",
        minimum=1, maximum=MAX_TARGET, suggested=300,
    )
    max_nils: int = option(
        3, "Most nil declarations in one bid (own hand, dummy, the other two players).",
        minimum=0, maximum=4,
    )
    spades_broken: bool = option(
        True, "Spades may not be led until one has been played on another suit, unless the "
        "leader holds only spades."
    )
    bag_limit: int = option(10, "Accumulated bags that cost a penalty (0: no bag penalty).",
                            minimum=0, maximum=MAX_BAG_LIMIT)
    bag_penalty: int = option(100, "Points a player loses each time his bags reach the limit.",
                              minimum=0, maximum=MAX_BAG_PENALTY)
    peek: str = option(
        "none", "Before bidding each player peeks at 3 or 4 dummy cards privately, or flips "
        "N of them face up for all.", choices=PEEK_CHOICES,
    )
    variant: str = option(
        "standard", "standard; mirror: no bidding, every hand's bid is its spades (the "
        "declarer holds the most; a hand without spades is nil); suicide: every team bid is "
        "4 or more with exactly one nil on the bidder's team (max_nils does not apply).",
        choices=VARIANTS,
    )


class DummyHandSpadesState(State):
    __slots__ = ("bags", "bids", "declarer", "flips", "peeks")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.bids: list[Bid | None] = [None] * 3  # per real player, this hand
        self.bags: list[int] = [0] * 3  # per real player, running
        self.declarer = -1  # known once the bidding is over
        self.peeks: list[tuple[int, ...]] = [()] * 3  # dummy positions each player peeked at
        self.flips: list[tuple[int, ...]] = [()] * 3  # dummy positions each player flipped


def nil_applies(declarer: int, bidder: int, hand: int) -> bool:
    """Ruling 4: a nil declaration counts only when the bidder ends up on the hand's team."""
    if hand == bidder:
        return True
    if hand == DUMMY:
        return bidder == declarer
    return declarer not in (bidder, hand)  # both defenders


@functools.cache
def _all_bids(seat: int, max_nils: int) -> tuple[Bid, ...]:
    """Every legal bid of a seat: 0..13 with each set of at most ``max_nils`` nil hands."""
    nil_sets = [
        combo for size in range(max_nils + 1) for combo in itertools.combinations(range(4), size)
    ]
    return tuple(Bid(seat, n, nils) for n in range(MAX_BID + 1) for nils in nil_sets)


def _words(action: Action) -> str:
    """An action without its seat, as a person types it: 'bid 5 nil=0'."""
    return str(action).split(": ", 1)[-1]


@functools.cache
def _suicide_bids(seat: int) -> tuple[Bid, ...]:
    """Suicide's bids: 4..13 with nil on the bidder's own hand, or on the dummy and both
    other real players (exactly one of which counts, whichever team he ends up in)."""
    others = tuple(sorted({*REAL_PLAYERS, DUMMY} - {seat}))
    return tuple(Bid(seat, n, nils) for n in range(4, MAX_BID + 1) for nils in ((seat,), others))


@functools.cache
def _peeks(seat: int, n: int) -> tuple[Peek, ...]:
    return tuple(Peek(seat, p) for p in itertools.combinations(range(HAND_SIZE), n))


@functools.lru_cache(maxsize=256)
def _flips(seat: int, face_down: tuple[int, ...], n: int) -> tuple[Flip, ...]:
    return tuple(Flip(seat, p) for p in itertools.combinations(face_down, n))


@register
class DummyHandSpades(Game):
    """Three real players and a dummy, each real player scoring alone."""

    name = "dummy-hand-spades"
    title = 'Three-Player "Dummy Hand" Spades'
    options_type = DummyHandSpadesOptions
    replay_notes = ("declarer", "bids", "bags")
    state_type = DummyHandSpadesState
    phase_actions = {
        Phase.REVEAL: (Peek, Flip),
        Phase.BIDDING: (Bid,),
        Phase.PLAY: (Play,),
    }

    options: DummyHandSpadesOptions


    def configure(self) -> None:
        if self.options.peek not in PEEK_CHOICES:
            raise OptionError(
                f"option peek cannot be {self.options.peek!r}; it takes one of: "
                + ", ".join(PEEK_CHOICES)
            )
        self.num_seats = 4
        self.player_seats = REAL_PLAYERS
        self.num_entities = 3  # the real players; the dummy scores nothing
        self.deck = STANDARD_DECK
        self.reveal_verb, self.reveal_count = reveal_rule(self.options.peek)

    def seat_name(self, seat: int) -> str:
        return "the dummy (seat 3)" if seat == DUMMY else seat_words(seat)

    def deal_sizes(self, dealer: int) -> tuple[list[int], int]:
        return [HAND_SIZE] * 4, 0

    def begin_hand(self, state: State) -> None:
        assert isinstance(state, DummyHandSpadesState)
        state.bids = [None] * 3
        state.declarer = -1
        state.peeks = [()] * 3
        state.flips = [()] * 3
        state.phase = Phase.REVEAL if self.reveal_verb else Phase.BIDDING
        state.to_act = left_of(state.dealer)  # peeks, flips and bids start left of the dealer

    # --- reveal: peeks and flips before the bidding --------------------------------------

    def face_down_positions(self, state: DummyHandSpadesState) -> tuple[int, ...]:
        flipped = {p for picks in state.flips for p in picks}
        return tuple(p for p in range(HAND_SIZE) if p not in flipped)

    def phase_legal_actions(self, state: State) -> list[Action]:
        assert isinstance(state, DummyHandSpadesState)
        seat = state.to_act
        if state.phase is Phase.REVEAL:
            if self.reveal_verb == "peek":
                return list(_peeks(seat, self.reveal_count))
            return list(_flips(seat, self.face_down_positions(state), self.reveal_count))
        if self.options.variant == "mirror":
            return [self.mirror_bid(state, seat)]
        if self.options.variant == "suicide":
            return list(_suicide_bids(seat))
        return list(_all_bids(seat, self.options.max_nils))

    def mirror_bid(self, state: DummyHandSpadesState, seat: int) -> Bid:
        """Mirror's only bid for ``seat``: its spades, with nil on its own hand if none."""
        spades = (state.hands[seat] & SPADE_MASK).bit_count()
        return Bid(seat, spades, () if spades else (seat,))

    def dummy_spades(self, state: DummyHandSpadesState) -> int:
        """The spades dealt to the dummy (Mirror's declarer contract adds them)."""
        assert state.deal is not None
        return sum(1 for c in state.deal.hands[DUMMY] if SPADE_MASK >> c & 1)

    def describe_choices(self, state: State) -> str:
        assert isinstance(state, DummyHandSpadesState)
        n = self.reveal_count
        if state.phase is Phase.REVEAL and self.reveal_verb == "peek":
            return f"peek {n} different dummy positions 0..{HAND_SIZE - 1}, e.g. 'peek 0 5 9'"
        if state.phase is Phase.REVEAL:
            down = " ".join(map(str, self.face_down_positions(state)))
            return f"flip {n} different positions of the face-down dummy cards: {down}"
        if state.phase is Phase.BIDDING and self.options.variant == "mirror":
            return str(self.mirror_bid(state, state.to_act)).split(": ", 1)[1]
        if state.phase is Phase.BIDDING and self.options.variant == "suicide":
            seat = state.to_act
            others = ",".join(map(str, sorted({*REAL_PLAYERS, DUMMY} - {seat})))
            return f"bid 4..13 with nil={seat} or nil={others}, e.g. 'bid 5 nil={seat}'"
        if state.phase is Phase.BIDDING:
            return (
                f"bid 0..{MAX_BID}, with nil declared on up to {self.options.max_nils} of seats "
                f"0, 1, 2 and 3 (the dummy), e.g. 'bid 6 nil={state.to_act},3'"
            )
        return super().describe_choices(state)

    def _check_positions(self, state: DummyHandSpadesState, action: Peek | Flip) -> None:
        verb = action.verb
        rule = "peeking" if verb == "peek" else "flipping"
        if self.reveal_verb != verb:
            raise IllegalAction(
                rule, f"this table plays peek={self.options.peek}; '{verb}' is not used",
                self.describe_allowed(state, action.seat),
            )
        positions = action.positions
        n = self.reveal_count
        if len(positions) != n or len(set(positions)) != n:
            raise IllegalAction(
                rule, f"each player picks exactly {n} different dummy positions",
                self.describe_allowed(state, action.seat),
            )
        for p in positions:
            if not 0 <= p < HAND_SIZE:
                raise IllegalAction(
                    rule, f"{p} is not a dummy position; they are 0..{HAND_SIZE - 1}",
                    self.describe_allowed(state, action.seat),
                )
        if verb == "flip":
            down = self.face_down_positions(state)
            for p in positions:
                if p not in down:
                    raise IllegalAction(
                        rule, f"dummy position {p} is already face up; flip face-down cards",
                        self.describe_allowed(state, action.seat),
                    )

    def check_peek(self, state: State, action: Action) -> None:
        assert isinstance(state, DummyHandSpadesState) and isinstance(action, Peek)
        self._check_positions(state, action)

    def apply_peek(self, state: State, action: Action) -> None:
        assert isinstance(state, DummyHandSpadesState) and isinstance(action, Peek)
        state.peeks[action.seat] = action.positions
        self._next_reveal(state, action.seat)

    def check_flip(self, state: State, action: Action) -> None:
        assert isinstance(state, DummyHandSpadesState) and isinstance(action, Flip)
        self._check_positions(state, action)

    def apply_flip(self, state: State, action: Action) -> None:
        assert isinstance(state, DummyHandSpadesState) and isinstance(action, Flip)
        state.flips[action.seat] = action.positions
        self._next_reveal(state, action.seat)

    def _next_reveal(self, state: DummyHandSpadesState, seat: int) -> None:
        if seat == state.dealer:  # the dealer picks last; then the bidding starts
            state.phase = Phase.BIDDING
            state.to_act = left_of(state.dealer)
        else:
            state.to_act = left_of(seat)

    def positions_mask(self, state: State, positions: tuple[int, ...]) -> CardSet:
        """The dummy's dealt cards at these positions, as a set."""
        assert state.deal is not None
        dealt = state.deal.hands[DUMMY]
        mask = 0
        for p in positions:
            mask |= 1 << dealt[p]
        return mask

    def flipped_cards(self, state: DummyHandSpadesState) -> CardSet:
        mask = 0
        for picks in state.flips:
            mask |= self.positions_mask(state, picks)
        return mask

    # --- bidding ---------------------------------------------------------------------------

    def check_bid(self, state: State, action: Action) -> None:
        assert isinstance(state, DummyHandSpadesState) and isinstance(action, Bid)
        allowed = self.describe_allowed(state, action.seat)
        if action.mode or action.blind:
            raise IllegalAction("bids", f"'{action}' is not a Dummy Hand Spades bid", allowed)
        if not 0 <= action.tricks <= MAX_BID:
            raise IllegalAction(
                "bids", f"a team bid is 0 to {MAX_BID} tricks, not {action.tricks}", allowed
            )
        nils = action.nils
        if len(set(nils)) != len(nils):
            raise IllegalAction("nil declarations", "a hand is declared nil twice", allowed)
        for hand in nils:
            if hand not in (0, 1, 2, DUMMY):
                raise IllegalAction(
                    "nil declarations",
                    f"seat {hand} is not at the table; nil may be declared on seats 0, 1, 2 "
                    "and 3 (the dummy)", allowed,
                )
        variant = self.options.variant
        if variant == "mirror" and action != self.mirror_bid(state, action.seat):
            only = self.mirror_bid(state, action.seat)
            raise IllegalAction(
                "mirror", f"seat {action.seat} may not '{_words(action)}': {MIRROR_RULE}",
                _words(only),
            )
        if variant == "suicide" and action not in _suicide_bids(action.seat):
            others = ",".join(map(str, sorted({*REAL_PLAYERS, DUMMY} - {action.seat})))
            raise IllegalAction(
                "suicide", f"seat {action.seat} may not '{_words(action)}': "
                f"{SUICIDE_RULE}", f"bid 4..13 nil={action.seat}, bid 4..13 nil={others}",
            )
        if variant == "standard" and len(nils) > self.options.max_nils:
            raise IllegalAction(
                "nil declarations",
                f"a bid may declare nil on at most {self.options.max_nils} hands at this "
                f"table, not {len(nils)}", allowed,
            )

    def apply_bid(self, state: State, action: Action) -> None:
        assert isinstance(state, DummyHandSpadesState) and isinstance(action, Bid)
        state.bids[action.seat] = action
        if action.seat != state.dealer:
            state.to_act = left_of(action.seat)
            return
        # the dealer bids last: the highest bid declares, the earliest in bidding order on a tie
        first = left_of(state.dealer)
        order = (first, left_of(first), state.dealer)
        best = max(self._bid(state, s).tricks for s in order)
        state.declarer = next(s for s in order if self._bid(state, s).tricks == best)
        seat_dummy_opposite(state, state.declarer)
        state.phase = Phase.PLAY
        state.to_act = first  # the opening lead, before the dummy is shown

    @staticmethod
    def _bid(state: DummyHandSpadesState, seat: int) -> Bid:
        bid = state.bids[seat]
        assert bid is not None
        return bid

    # --- play ------------------------------------------------------------------------------

    def lead_mask(self, state: State, hand: CardSet) -> CardSet:
        if not self.options.spades_broken or state.trump_broken:
            return hand
        return (hand & NOT_SPADES) or hand

    def controller(self, state: State, seat: int) -> int:
        if seat == DUMMY:
            assert isinstance(state, DummyHandSpadesState)
            return state.declarer  # -1 (nobody) until the bidding has made a declarer
        return seat

    # --- scoring ---------------------------------------------------------------------------

    def score_hand(self, state: State) -> tuple[list[int], dict[str, Any]]:
        assert isinstance(state, DummyHandSpadesState)
        opts = self.options
        declarer = state.declarer
        team_tricks = state.won[declarer] + state.won[DUMMY]
        defender_tricks = sum(state.won) - team_tricks
        scores = [0, 0, 0]
        nils: list[dict[str, Any]] = []
        contracts = self.contracts(state)
        for seat in REAL_PLAYERS:
            tricks = team_tricks if seat == declarer else defender_tricks
            points, new_bags = contract_score(contracts[seat], tricks)
            for hand in self.nils_of(state, seat):
                made = state.won[hand] == 0
                points += NIL_POINTS if made else -NIL_POINTS
                nils.append({"bidder": seat, "hand": hand, "made": made})
            state.bags[seat], penalty = add_bags(
                state.bags[seat], new_bags, opts.bag_limit, opts.bag_penalty
            )
            scores[seat] = points + penalty
        details: dict[str, Any] = {
            "bags": {str(s): state.bags[s] for s in REAL_PLAYERS},
            "declarer": declarer,
            "bids": {str(s): self._bid(state, s).tricks for s in REAL_PLAYERS},
            "nils": nils,
            "team_tricks": {"declarer": team_tricks, "defenders": defender_tricks},
        }
        if self.options.variant == "mirror":
            details["contracts"] = {str(s): contracts[s] for s in REAL_PLAYERS}
        return scores, details

    def contracts(self, state: DummyHandSpadesState) -> dict[int, int]:
        """Each real player's contract once the declarer is known: his team bid; in Mirror
        the declarer's spades and the dummy's, and for each defender both defenders'
        spades (so the contracts add up to 13)."""
        bids = {s: self._bid(state, s).tricks for s in REAL_PLAYERS}
        if self.options.variant != "mirror":
            return bids
        declarer = state.declarer
        pair = defenders(declarer)
        out = {s: bids[pair[0]] + bids[pair[1]] for s in pair}
        out[declarer] = bids[declarer] + self.dummy_spades(state)
        return out

    def nils_of(self, state: DummyHandSpadesState, seat: int) -> list[int]:
        """The hands whose nil counts for ``seat`` this hand (ruling 4); in Mirror also the
        dummy's, for the declarer, when the dummy has no spades."""
        hands = [h for h in self._bid(state, seat).nils if nil_applies(state.declarer, seat, h)]
        if (self.options.variant == "mirror" and seat == state.declarer
                and self.dummy_spades(state) == 0):
            hands.append(DUMMY)
        return hands

    def game_winner(self, state: State) -> int | None:
        return self.winner_by_totals(state.totals, state.finished_hands, {})

    def winner_by_totals(self, totals: Sequence[int], finished_hands: int,
                         info: Mapping[str, Any]) -> int | None:
        if max(totals) < self.options.target:
            return None
        return sole_leader(totals)  # a tie for first plays another hand

    # --- what seats see --------------------------------------------------------------------


    def hand_lines(self, state: State, scores: Sequence[int], details: Mapping[str, Any]
                   ) -> list[str]:
        """Each player's team bid against his team's tricks, the nils and the bags."""
        assert isinstance(state, DummyHandSpadesState)
        opts = self.options
        declarer = state.declarer
        tricks = details["team_tricks"]
        before = state.results[-1].details["bags"] if state.results else {}
        lines = []
        contracts = {int(s): c for s, c in details.get("contracts", {}).items()}
        for seat in REAL_PLAYERS:
            bid = contracts.get(seat, self._bid(state, seat).tricks)
            role = "declarer, with the dummy" if seat == declarer else "defender"
            took = tricks["declarer"] if seat == declarer else tricks["defenders"]
            team = "his team" if seat == declarer else "the defenders"
            points, bags = contract_score(bid, took)
            verdict = f"made, {points:+d}" if points > 0 else f"set, {points:+d}"
            if points > 0 and bags:
                verdict += f" ({bags} bag(s))"
            lines.append(
                f"{self.seat_name(seat)} ({role}) bid {bid}; {team} took {took}: {verdict}")
            for nil in details["nils"]:
                if nil["bidder"] == seat:
                    hand = "his own hand" if nil["hand"] == seat else self.seat_name(nil["hand"])
                    outcome = "made: +" if nil["made"] else "failed: -"
                    lines.append(f"{self.seat_name(seat)}'s nil on {hand} {outcome}{NIL_POINTS}")
            _, penalty = add_bags(int(before.get(str(seat), 0)), bags if points > 0 else 0,
                                  opts.bag_limit, opts.bag_penalty)
            if penalty:
                lines.append(f"{self.seat_name(seat)} reached {opts.bag_limit} bags: {penalty:+d}")
            lines.append(f"{self.seat_name(seat)}: {scores[seat]:+d} this hand")
        return lines

    def dummy_shown(self, state: State) -> bool:
        """The dummy is face up from the opening lead to the end of the hand."""
        return state.phase is Phase.PLAY and state.played != 0

    def visible_holdings(self, state: State, viewer: int) -> list[CardSet]:
        assert isinstance(state, DummyHandSpadesState)
        out = [0] * self.num_seats
        out[viewer] = state.hands[viewer]
        if viewer == DUMMY or state.deal is None:
            return out
        if self.dummy_shown(state):
            out[DUMMY] = state.hands[DUMMY]
        else:
            # face down: only the flipped cards and the ones this viewer peeked at
            seen = self.flipped_cards(state) | self.positions_mask(state, state.peeks[viewer])
            out[DUMMY] = state.hands[DUMMY] & seen
        return out

    def carry_over(self, state: State, info: Mapping[str, Any]) -> None:
        assert isinstance(state, DummyHandSpadesState)
        bags = info.get("bags")
        if isinstance(bags, Mapping):
            for s in REAL_PLAYERS:
                state.bags[s] = int(bags.get(str(s), 0))

    def public_info(self, state: State, viewer: int) -> dict[str, Any]:
        """Public: bids with their nil declarations, declarer, teams, the positions each
        player peeked at or flipped and the flipped cards, the declarations that apply,
        bags and target. Private to the viewer: the cards at the positions it peeked at."""
        assert isinstance(state, DummyHandSpadesState)
        if not self.dummy_shown(state):
            return self._info(state, viewer)
        # from the opening lead to the score only whether spades are broken changes
        info = self.play_facts(state, viewer, lambda: self._info(state, viewer))
        info["spades_broken"] = state.trump_broken
        # the kept facts' dicts are this observation's own, as they were when built anew
        info["bids"] = tuple(None if b is None else dict(b) for b in info["bids"])
        for key in _FACT_DICTS:
            if key in info:
                info[key] = dict(info[key])
        return info

    def _info(self, state: DummyHandSpadesState, viewer: int) -> dict[str, Any]:
        declarer = state.declarer
        known = declarer >= 0
        info: dict[str, Any] = {
            "peek": self.options.peek,
            "bids": tuple(
                None if b is None else {"tricks": b.tricks, "nils": b.nils} for b in state.bids
            ),
            "declarer": declarer if known else None,
            "dummy": DUMMY,
            "team": (declarer, DUMMY) if known else None,
            "defenders": defenders(declarer) if known else None,
            "peeks": {s: state.peeks[s] for s in REAL_PLAYERS if state.peeks[s]},
            "flips": {s: state.flips[s] for s in REAL_PLAYERS if state.flips[s]},
            "flipped": {},
            "peeked": {},
            "dummy_shown": self.dummy_shown(state),
            "nils": (),
            "bags": {str(s): state.bags[s] for s in REAL_PLAYERS},
            "spades_broken": state.trump_broken,
            "target": self.options.target,
        }
        if state.deal is not None:
            dealt = state.deal.hands[DUMMY]
            info["flipped"] = {
                p: card_str(dealt[p]) for picks in state.flips for p in sorted(picks)
            }
            if viewer in REAL_PLAYERS:
                info["peeked"] = {p: card_str(dealt[p]) for p in sorted(state.peeks[viewer])}
        if known:
            # Mirror's nil on a spadeless dummy (and so the declarer's contract) is known
            # only once the dummy is face up
            shown = self.dummy_shown(state) or state.phase is not Phase.PLAY
            info["nils"] = tuple(
                (s, hand)
                for s in REAL_PLAYERS
                for hand in (self.nils_of(state, s) if shown else
                             [h for h in self._bid(state, s).nils
                              if nil_applies(declarer, s, h)])
            )
            if self.options.variant == "mirror":
                contracts = self.contracts(state)
                info["contracts"] = {
                    str(s): contracts[s] if shown or s != declarer else None
                    for s in REAL_PLAYERS
                }
        return info


class DummyHandWords(TableWords):
    """What Three-Player "Dummy Hand" Spades says at the table."""

    games = ("dummy-hand-spades",)

    @property
    def options(self) -> DummyHandSpadesOptions:
        assert isinstance(self.game.options, DummyHandSpadesOptions)
        return self.game.options

    def hand(self, seat: int) -> str:
        """A hand named in a nil declaration: a player's, or the dummy's."""
        return "the dummy" if seat == DUMMY else self.seat(seat)

    def hands(self, seats: Sequence[int]) -> str:
        names = [self.hand(s) for s in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def rule(self, verb: str, obs: Observation) -> str | None:
        count = next((len(a.args().split()) for a in obs.legal if a.verb == verb), 0)
        if verb == "bid":
            base = (f"Your team's bid: the tricks your side will take ({HAND_SIZE} in all). "
                    f"Declare nil on a hand that will take no trick (+{NIL_POINTS} if it takes "
                    f"none, -{NIL_POINTS} if it does); a nil counts for whichever team that "
                    "hand joins.")
            variant = self.options.variant
            if variant == "mirror":
                return f"{MIRROR_RULE[0].upper()}{MIRROR_RULE[1:]}. {base}"
            if variant == "suicide":
                return f"{SUICIDE_RULE[0].upper()}{SUICIDE_RULE[1:]}. {base}"
            return base
        if verb == "peek":
            return (f"Pick {count} of the dummy's cards to look at privately, by position (0 to "
                    f"{HAND_SIZE - 1}, in the order dealt); everyone sees which positions you "
                    "chose.")
        if verb == "flip":
            return (f"Pick {count} of the dummy's face-down cards to turn face up for everyone, "
                    f"by position (0 to {HAND_SIZE - 1}, in the order dealt).")
        return super().rule(verb, obs)

    def phase_doing(self, obs: Observation) -> str:
        if obs.phase is Phase.REVEAL:
            return "to flip" if reveal_rule(self.options.peek)[0] == "flip" else "to peek"
        return super().phase_doing(obs)

    def seat_line(self, seat: int, obs: Observation) -> str:
        info = obs.info
        if info.get("declarer") == seat and info.get("team"):
            return "declarer"
        bids = info.get("bids") or ()
        bid = bids[seat] if seat < len(bids) else None
        if not isinstance(bid, Mapping):
            return ""
        nils = list(bid.get("nils") or ())
        return f"bid {bid.get('tricks')}" + (f", nil on {self.hands(nils)}" if nils else "")

    def facts(self, obs: Observation) -> list[str]:
        info = obs.info
        out = []
        declarer = info.get("declarer")
        if type(declarer) is int:
            out.append(f"{self.seat(declarer)} declares with the dummy")
        nils = [hand for _, hand in info.get("nils") or ()]
        if nils:
            out.append(f"nil on {self.hands(sorted(set(nils)))}")
        if obs.phase is Phase.PLAY and self.options.spades_broken:
            out.append("spades broken" if info.get("spades_broken") else "spades not broken")
        if type(info.get("target")) is int:
            out.append(f"game to {info['target']}")
        bags = self.bags(obs)
        return out + ([bags] if bags else [])
