"""Dummy Whist and Double Dummy (rulings.md, "Dummy Whist").

**Dummy Whist** (``dummy-whist``): seats 0, 1 and 2 are the real players, seat 3 is the
dummy's home seat, and the deal passes clockwise among the real players only (as in Dummy
Hand Spades). Each hand: one round of auction from the dealer's left, ending with the
dealer (``pass`` or a better ``bid N uptown|downtown|notrump``; the dealer must bid when
both others have passed); with jokers the declarer sees the dummy's 15 cards and discards
two of them (``discard C C``, under the declarer's own seat, private to him); the dummy is
then shown and sits opposite the declarer (play order: declarer, next real player, dummy,
third real player); the declarer names trumps (``trump S``) after uptown/downtown or the
direction (``direction high|low``) after no-trump; he leads the first trick from his own
hand and plays the dummy's cards under seat 3. Scores are kept per real player.

**Double Dummy** (``double-dummy-whist``), two players. Ruling 8 makes each player's
partner the dummy opposite him, so the two players cannot also sit opposite each other
(the seed's words); they sit side by side and the table is an ordinary whist table:

    seat 0  player A           seat 2  A's dummy (opposite A)
    seat 1  player B           seat 3  B's dummy (opposite B)

Play is clockwise 0, 1, 2, 3, so the sides alternate round the table (0+2 against 1+3).
The deal alternates between the players (dummies never deal); everything else runs from
the dealer's left among the players, i.e. the non-dealer first: the keep/swap choice, then
the auction (the dealer must bid if the other passes). Before the auction (phase REVEAL)
each player, non-dealer first, either ``keep``s his hand or ``swap``s it for "the dead hand
on his right": the seed seats the players opposite each other with the two dead hands
between them, so each player's right-hand dead hand is a different one, and it is the one
that is *not* his own partner. Here that is seat 3 for seat 0 (literally on his right) and
seat 2 for seat 1: a swap exchanges the player's cards with the opponent's dummy, whose
hand becomes the thrown-in one. The swapper remembers the cards he threw in. The dead
hands stay face down until the auction is over; then both dummies are face up. Whoever
wins the auction declares; his dummy is his side; the other player and his dummy defend.
The declarer leads from his own hand. Each player scores alone; every player who kept his
hand doubles the scores of the hand (both kept: x4). Jokers are not played in Double
Dummy: the 15-card dummy of ruling 1 is the single dummy that joins the declarer, and the
text gives no way to deal 54 cards to two dummies owned from the deal.

**Scoring** (ruling 6): the declarer's side needs 6 + bid books; made, the declarer
scores one point per book over six; set, each opponent scores the bid. No-trump doubles
and a bid of 7 doubles (options); the doublings multiply (a 7 no-trump is x4, and Double
Dummy's keep doubling multiplies them too). First to ``target`` (21) or more wins; if two
pass it in one hand the higher wins; a tie for first plays on.

**Jokers** (ruling 4): with a trump suit they are the top trumps (big, little, then the
trump suit in the hand's direction) and follow as trumps. In no-trump they belong to no
suit and cannot win; they may be played only when void in the suit led, and (option
``joker_must_throw``) must be thrown the first time their holder cannot follow; a joker
may be led only when its holder has nothing else, and after a joker lead the first card
with a suit sets the suit (a joker follows a joker lead only when nothing else is left).

**Honour mode** (ruling 7, option ``honour``): any held card may be played. A play the
strict rules would refuse (not following suit when able, or breaking the no-trump joker
rules) is a renege. A renege is called with ``renege T`` by a real player (the declarer
calls for his side under his own seat; the dummy's seat never calls):

- only during the play of the hand, at any moment, in turn or out of turn: a call does not
  use up anyone's turn;
- naming a trick already completed in this hand (1..tricks played so far);
- at most once per trick per side (a side is the declarer with his dummy, or the
  opponents: the two defenders in Dummy Whist, the other player and his dummy in Double
  Dummy): once a side has called trick T neither of its members may call T again.

A call accuses the caller's opposing side. It is right when a seat of that side reneged in
trick T (a renege from the dummy's hand is the declarer's side's); then the reneging side
loses three books to the caller's side; a wrong call costs the caller's side three books.
Calls are settled when the hand is scored, in the order they were made; a side that has
fewer than three books gives up all it has. Settling at the end keeps the verdict public:
by then every card has been played. The last trick cannot hold a renege (every hand has
one card left), so every trick that can hold one can be called. In strict mode (the
default) illegal cards are refused and ``renege`` is refused too.

Replay details per hand: ``declarer``, ``contract`` (e.g. "4 notrump"), ``trump`` (suit
letter, or null in no-trump), ``direction`` ("high"/"low"), ``books`` (the declarer's side
after any renege penalties), ``made``, ``multiplier``; ``reneges`` (each call with its
caller, trick and whether it was right) when a call was made; Double Dummy adds ``kept``
(the players who played their hand as dealt).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import (
    Action,
    Bid,
    Direction,
    Discard,
    Keep,
    Pass,
    Play,
    Renege,
    Swap,
    Trump,
)
from ..engine.cards import (
    JOKERS,
    NO_SUIT,
    STANDARD_DECK,
    SUIT_LETTERS,
    SUIT_MASKS,
    TWO_JOKER_DECK,
    Card,
    CardSet,
    card_str,
    cards_of,
    format_set,
)
from ..engine.dummy import DUMMY, REAL_PLAYERS, defenders, left_of, seat_dummy_opposite
from ..engine.errors import IllegalAction
from ..engine.game import Game, register
from ..engine.observation import Observation
from ..engine.options import Options, option
from ..engine.order import CardOrder
from ..engine.scoring import sole_leader
from ..engine.state import Phase, State
from ..engine.words import TableWords, by_seat, cards_short, seat_words, suit_words

HAND_SIZE = 13
BOOK = 6  # the books a side needs before its bid counts
MAX_BID = 7
MODES = ("uptown", "downtown", "notrump")
RENEGE_PENALTY = 3


@functools.cache
def card_order(trump: int, low: bool) -> CardOrder:
    """The order of a hand: uptown/downtown with a trump suit (jokers the top trumps) or
    no-trump (jokers of no suit, never winning), high or low."""
    return CardOrder(trump=trump, low=low, jokers_trump=trump != NO_SUIT)


NO_TRUMP_HIGH = card_order(NO_SUIT, False)


MAX_TARGET = 1_000
"""The highest target a table may set (21 is usual): wide enough for any house rule, and
narrow enough that a game cannot be asked to go on for ever."""


@dataclass(frozen=True)
class WhistOptions(Options):
    """Options of both whist games."""

    target: int = option(21, "Points that win the game; the higher wins if two pass it.",
                         minimum=1, maximum=MAX_TARGET)
    downtown_beats_uptown: bool = option(
        False, "At equal books downtown beats uptown (otherwise they are equal bids)."
    )
    notrump_doubles: bool = option(True, "A no-trump bid scores double, made or set.")
    seven_doubles: bool = option(True, "A bid of 7 (a Boston) scores double, made or set.")
    honour: bool = option(
        False, "Honour mode: any card may be played and reneges are called by trick number "
        "(three books to the caller's side if right, from it if wrong)."
    )


@dataclass(frozen=True)
class DummyWhistOptions(WhistOptions):
    jokers: bool = option(
        False, "Play with big and little joker (54 cards); the dummy gets 15 and the "
        "declarer discards 2 of them before it is shown."
    )
    joker_must_throw: bool = option(
        True, "In no-trump a joker must be thrown the first time its holder cannot follow."
    )


@dataclass(frozen=True)
class DoubleDummyWhistOptions(WhistOptions):
    """The same laws as Dummy Whist, without jokers (see the module docstring)."""


class WhistState(State):
    __slots__ = (
        "auction",
        "auction_pos",
        "best",
        "choices",
        "declarer",
        "discards",
        "renege_calls",
        "reneged",
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.auction: list[Bid | Pass] = []  # this hand's bids and passes, in order
        self.auction_pos = 0
        self.best: Bid | None = None  # the best bid so far
        self.declarer = -1  # known once the auction is over
        self.discards: CardSet = 0  # the declarer's two discards from a 15-card dummy
        # Double Dummy: "keep"/"swap"/"" per seat (all "" before the first deal too, so a
        # seat can be observed at an empty table)
        self.choices: list[str] = [""] * game.num_seats
        self.reneged: list[int] = []  # per trick: bit s set when seat s reneged in it
        self.renege_calls: list[tuple[int, int]] = []  # (caller, trick 1-based), in order


def bid_key(bid: Bid, downtown_beats_uptown: bool) -> tuple[int, int]:
    """Larger is a better bid: books first; at equal books no-trump, then (under the
    option) downtown over uptown."""
    if bid.mode == "notrump":
        rank = 2
    elif bid.mode == "downtown" and downtown_beats_uptown:
        rank = 1
    else:
        rank = 0
    return bid.tricks, rank


@functools.cache
def _all_bids(seat: int) -> tuple[Bid, ...]:
    return tuple(Bid(seat, n, mode=m) for n in range(1, MAX_BID + 1) for m in MODES)


class WhistGame(Game):
    """What Dummy Whist and Double Dummy share: auction, declaration, play, reneges,
    scoring. Subclasses say who sits where."""

    options_type = WhistOptions
    replay_notes = ("declarer", "contract", "trump", "direction", "books", "made")
    state_type = WhistState
    has_extra_play_actions = True  # renege calls, in honour mode

    options: WhistOptions
    jokers: bool
    joker_must_throw: bool


    # --- seats -----------------------------------------------------------------------------

    def partner_of(self, state: WhistState, declarer: int) -> int:
        """The dummy that plays with ``declarer``."""
        raise NotImplementedError

    def declarer_side(self, state: WhistState) -> tuple[int, int]:
        return state.declarer, self.partner_of(state, state.declarer)

    def opponents(self, state: WhistState) -> tuple[int, ...]:
        """The real players who score when the declarer is set."""
        return tuple(p for p in self.player_seats if p != state.declarer)

    def side_mask(self, state: WhistState, seat: int) -> int:
        """The seats (as bits) of ``seat``'s side: the declarer's, or the opponents'."""
        team = self.declarer_side(state)
        mask = sum(1 << s for s in team)
        return mask if seat in team else ((1 << self.num_seats) - 1) & ~mask

    def next_player(self, seat: int) -> int:
        """The next real player clockwise (dummies are skipped)."""
        for step in range(1, self.num_seats + 1):
            nxt = (seat + step) % self.num_seats
            if nxt in self.player_seats:
                return nxt
        return seat

    def auction_order(self, dealer: int) -> tuple[int, ...]:
        """The real players from the dealer's left round to the dealer."""
        order = [self.next_player(dealer)]
        while order[-1] != dealer:
            order.append(self.next_player(order[-1]))
        return tuple(order)

    def begin_hand(self, state: State) -> None:
        assert isinstance(state, WhistState)
        state.tricks_per_hand = HAND_SIZE  # the 15-card dummy is cut to 13 before play
        state.auction = []
        state.auction_pos = 0
        state.best = None
        state.declarer = -1
        state.discards = 0
        state.choices = [""] * self.num_seats
        state.reneged = [0] * HAND_SIZE
        state.renege_calls = []
        self.begin_auction(state)

    def begin_auction(self, state: WhistState) -> None:
        """The auction starts on the dealer's left."""
        state.phase = Phase.BIDDING
        state.auction_pos = 0
        state.to_act = self.auction_order(state.dealer)[0]

    # --- legal actions ---------------------------------------------------------------------

    def phase_legal_actions(self, state: State) -> list[Action]:
        assert isinstance(state, WhistState)
        seat = state.to_act
        phase = state.phase
        if phase is Phase.REVEAL:
            return [Keep(seat), Swap(seat)]
        if phase is Phase.BIDDING:
            out: list[Action] = [] if self.must_bid(state) else [Pass(seat)]
            out += [b for b in _all_bids(seat) if self.is_better(state, b)]
            return out
        if phase is Phase.EXCHANGE:
            dummy = self.partner_of(state, state.declarer)
            cards = list(cards_of(state.hands[dummy]))
            return [Discard(seat, pair) for pair in itertools.combinations(cards, 2)]
        # DECLARE
        assert state.best is not None
        if state.best.mode == "notrump":
            return [Direction(seat, False), Direction(seat, True)]
        return [Trump(seat, s) for s in range(4)]

    def describe_choices(self, state: State) -> str:
        assert isinstance(state, WhistState)
        if state.phase is Phase.BIDDING:
            better = [b for b in _all_bids(state.to_act) if self.is_better(state, b)]
            if not better:
                return "pass (7 notrump cannot be beaten)"
            text = "" if self.must_bid(state) else "pass, or "
            low = better[0]
            return text + f"bid {low.tricks} {low.mode} or better, up to 7 notrump"
        if state.phase is Phase.EXCHANGE:
            dummy = self.partner_of(state, state.declarer)
            return "discard two of the dummy's cards: " + format_set(state.hands[dummy])
        return super().describe_choices(state)

    # --- the auction -----------------------------------------------------------------------

    def must_bid(self, state: WhistState) -> bool:
        """The dealer must bid when everyone before him has passed."""
        return state.to_act == state.dealer and state.best is None

    def is_better(self, state: WhistState, bid: Bid) -> bool:
        if state.best is None:
            return True
        flag = self.options.downtown_beats_uptown
        return bid_key(bid, flag) > bid_key(state.best, flag)

    def check_bid(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Bid)
        if action.nils or action.blind or action.mode not in MODES:
            raise IllegalAction(
                "whist bids", f"'{action}' is not a whist bid: write 'bid N uptown', "
                "'bid N downtown' or 'bid N notrump'", self.describe_allowed(state, action.seat),
            )
        if not 1 <= action.tricks <= MAX_BID:
            raise IllegalAction(
                "whist bids", f"a bid is 1 to {MAX_BID} books over six, not {action.tricks}",
                self.describe_allowed(state, action.seat),
            )
        if not self.is_better(state, action):
            assert state.best is not None
            best = f"{state.best.tricks} {state.best.mode}"
            why = (
                "more books, or the same books in no-trump"
                if not self.options.downtown_beats_uptown
                else "more books, or the same books in a better mode (notrump > downtown > "
                "uptown)"
            )
            raise IllegalAction(
                "better bid", f"{action.tricks} {action.mode} does not beat {best}; a bid "
                f"must be better: {why}", self.describe_allowed(state, action.seat),
            )

    def apply_bid(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Bid)
        state.auction.append(action)
        state.best = action
        self.next_bidder(state)

    def check_pass(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState)
        if self.must_bid(state):
            raise IllegalAction(
                "dealer must bid", "everyone else has passed, so the dealer must bid",
                self.describe_allowed(state, action.seat),
            )

    def apply_pass(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Pass)
        state.auction.append(action)
        self.next_bidder(state)

    def next_bidder(self, state: WhistState) -> None:
        order = self.auction_order(state.dealer)
        state.auction_pos += 1
        if state.auction_pos < len(order):
            state.to_act = order[state.auction_pos]
            return
        assert state.best is not None
        state.declarer = state.best.seat
        self.end_auction(state)

    def end_auction(self, state: WhistState) -> None:
        """The dummy is shown (after the discards, with jokers) and the declarer declares."""
        state.phase = Phase.DECLARE
        state.to_act = state.declarer

    # --- discards (Dummy Whist with jokers) ------------------------------------------------

    def check_discard(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Discard)
        dummy = self.partner_of(state, state.declarer)
        allowed = self.describe_allowed(state, action.seat)
        if len(action.cards) != 2 or len(set(action.cards)) != 2:
            raise IllegalAction(
                "dummy discards", "the declarer discards exactly two different cards from "
                "the dummy", allowed,
            )
        for c in action.cards:
            if not state.hands[dummy] >> c & 1:
                raise IllegalAction(
                    "dummy discards", f"the dummy does not hold {card_str(c)}; the discards "
                    "come from the dummy's 15 cards", allowed,
                )

    def apply_discard(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Discard)
        dummy = self.partner_of(state, state.declarer)
        for c in action.cards:
            state.hands[dummy] &= ~(1 << c)
            state.discards |= 1 << c
        state.phase = Phase.DECLARE  # the dummy is shown now
        state.to_act = state.declarer

    def out_of_play(self, state: State) -> CardSet:
        assert isinstance(state, WhistState)
        return state.discards

    # --- trumps or direction ---------------------------------------------------------------

    def contract_mode(self, state: WhistState) -> str:
        assert state.best is not None
        return state.best.mode

    def check_trump(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Trump)
        if self.contract_mode(state) == "notrump":
            raise IllegalAction(
                "declaration", "after a no-trump bid the declarer names the direction, not "
                "trumps", "direction high, direction low",
            )
        if not 0 <= action.suit < 4:
            raise IllegalAction("declaration", "trumps are S, H, D or C", "trump S|H|D|C")

    def apply_trump(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Trump)
        self.start_play(state, card_order(action.suit, self.contract_mode(state) == "downtown"))

    def check_direction(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Direction)
        mode = self.contract_mode(state)
        if mode != "notrump":
            raise IllegalAction(
                "declaration", f"after an {mode} bid the declarer names trumps; the "
                "direction is set by the bid", "trump S, trump H, trump D, trump C",
            )

    def apply_direction(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Direction)
        self.start_play(state, card_order(NO_SUIT, action.low))

    def start_play(self, state: WhistState, order: CardOrder) -> None:
        state.order = order
        state.phase = Phase.PLAY
        state.to_act = state.declarer  # he leads from his own hand

    # --- play ------------------------------------------------------------------------------

    def lead_mask(self, state: State, hand: CardSet) -> CardSet:
        if state.order.trump == NO_SUIT and hand & JOKERS:
            return (hand & ~JOKERS) or hand  # a no-trump joker leads only when alone
        return hand

    def follow_mask(self, state: State, hand: CardSet) -> CardSet:
        if state.order.trump != NO_SUIT or not hand & JOKERS:
            return super().follow_mask(state, hand)
        if state.led_suit < 0:  # a joker was led: the first card with a suit sets the suit
            return (hand & ~JOKERS) or hand
        same = hand & SUIT_MASKS[state.led_suit]
        if same:
            return same
        if self.joker_must_throw:
            return hand & JOKERS  # void for the first time with a joker: throw it
        return hand

    def strict_plays(self, state: State) -> CardSet:
        """The cards the rules allow; in honour mode any other card played is a renege."""
        return super().legal_plays(state)

    def legal_plays(self, state: State) -> CardSet:
        if self.options.honour:
            return state.hands[state.to_act]
        return self.strict_plays(state)

    def play_rule_broken(self, state: State, card: Card) -> str:
        hand = state.hands[state.to_act]
        if not state.trick_cards or state.led_suit < 0:
            # only a no-trump joker is refused on a lead, or after a joker lead
            return "joker lead"
        if hand & state.order.suit_masks[state.led_suit]:
            return "follow suit"
        return "joker must be thrown"  # void, holding a no-trump joker

    def apply_play(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Play)
        if self.options.honour and not self.strict_plays(state) >> action.card & 1:
            state.reneged[len(state.tricks)] |= 1 << action.seat
        super().apply_play(state, action)

    # --- renege calls (honour mode) --------------------------------------------------------

    def called_by_side(self, state: WhistState, seat: int, trick: int) -> bool:
        side = self.side_mask(state, seat)
        return any(t == trick and side >> c & 1 for c, t in state.renege_calls)

    def renege_calls_for(self, state: WhistState, seat: int) -> list[Renege]:
        """The calls ``seat`` may make now."""
        if not self.options.honour or state.phase is not Phase.PLAY:
            return []
        if seat not in self.player_seats:
            return []
        return [
            Renege(seat, t)
            for t in range(1, len(state.tricks) + 1)
            if not self.called_by_side(state, seat, t)
        ]

    def extra_play_actions(self, state: State) -> list[Action]:
        """Every renege call any player may make now: calls are made out of turn too, so
        the list is the table's, not only the seat to act's (observations give each
        player his own under ``info["renege_calls_open"]``)."""
        assert isinstance(state, WhistState)
        out: list[Action] = []
        for p in self.player_seats:
            out += self.renege_calls_for(state, p)
        return out

    def plain_card_play(self) -> bool:
        return not self.options.honour  # a renege is called (and noted) in honour mode only

    def check_turn(self, state: State, action: Action) -> None:
        if type(action) is Renege and state.phase is Phase.PLAY:
            return  # a renege may be called at any moment of the play; check_renege rules
        super().check_turn(state, action)

    def check_renege(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Renege)
        if not self.options.honour:
            raise IllegalAction(
                "renege calls", "this table refuses illegal cards (honour mode is off), so "
                "there is no renege to call", self.describe_allowed(state, action.seat),
            )
        seat, trick = action.seat, action.trick
        if seat not in self.player_seats:
            raise IllegalAction(
                "renege calls", f"seat {seat} is not a player; a renege is called by a "
                "player (the declarer calls for his side under his own seat)",
                ", ".join(f"{p}: renege T" for p in self.player_seats),
            )
        done = len(state.tricks)
        allowed = ", ".join(str(a).split(": ", 1)[1] for a in self.renege_calls_for(state, seat))
        allowed = allowed or "nothing to call yet"
        if not 1 <= trick <= done:
            where = f"tricks 1..{done} have" if done else "no trick has"
            raise IllegalAction(
                "renege calls", f"trick {trick} is not a finished trick of this hand; "
                f"{where} been played", allowed,
            )
        if self.called_by_side(state, seat, trick):
            raise IllegalAction(
                "renege calls", f"seat {seat}'s side has already called trick {trick}", allowed
            )

    def apply_renege(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState) and isinstance(action, Renege)
        state.renege_calls.append((action.seat, action.trick))

    def settle_reneges(self, state: WhistState, books: int) -> tuple[int, list[dict[str, Any]]]:
        """The declarer's side's books after the calls, and each call's verdict."""
        verdicts = []
        for caller, trick in state.renege_calls:
            callers = self.side_mask(state, caller)
            accused = ((1 << self.num_seats) - 1) & ~callers
            right = bool(state.reneged[trick - 1] & accused)
            losers = accused if right else callers
            if losers >> state.declarer & 1:
                books -= min(RENEGE_PENALTY, books)
            else:
                books += min(RENEGE_PENALTY, HAND_SIZE - books)
            verdicts.append({"caller": caller, "trick": trick, "right": right})
        return books, verdicts

    # --- scoring ---------------------------------------------------------------------------

    def multiplier(self, state: WhistState) -> int:
        assert state.best is not None
        mult = 1
        if state.best.mode == "notrump" and self.options.notrump_doubles:
            mult *= 2
        if state.best.tricks == MAX_BID and self.options.seven_doubles:
            mult *= 2
        return mult

    def score_hand(self, state: State) -> tuple[list[int], dict[str, Any]]:
        assert isinstance(state, WhistState) and state.best is not None
        declarer, dummy = self.declarer_side(state)
        books, verdicts = self.settle_reneges(state, state.won[declarer] + state.won[dummy])
        bid = state.best.tricks
        made = books >= BOOK + bid
        mult = self.multiplier(state)
        scores = [0] * self.num_entities
        if made:
            scores[declarer] = (books - BOOK) * mult
        else:
            for seat in self.opponents(state):
                scores[seat] = bid * mult
        trump = state.order.trump
        details: dict[str, Any] = {
            "declarer": declarer,
            "contract": f"{bid} {state.best.mode}",
            "trump": SUIT_LETTERS[trump] if trump != NO_SUIT else None,
            "direction": "low" if state.order.low else "high",
            "books": books,
            "made": made,
            "multiplier": mult,
        }
        if verdicts:
            details["reneges"] = verdicts
        return scores, details

    def game_winner(self, state: State) -> int | None:
        return self.winner_by_totals(state.totals, state.finished_hands, {})

    def winner_by_totals(self, totals: Sequence[int], finished_hands: int,
                         info: Mapping[str, Any]) -> int | None:
        if max(totals) < self.options.target:
            return None
        return sole_leader(totals)  # a tie for first plays on

    # --- what seats see --------------------------------------------------------------------


    def hand_lines(self, state: State, scores: Sequence[int], details: Mapping[str, Any]
                   ) -> list[str]:
        """The contract against the books, renege verdicts (honour mode) and who scores."""
        assert isinstance(state, WhistState) and state.best is not None
        declarer = details["declarer"]
        bid = state.best.tricks
        mult = details["multiplier"]
        lines = []
        for verdict in details.get("reneges", ()):
            caller = self.seat_name(verdict["caller"])
            if verdict["right"]:
                lines.append(f"{caller}'s renege call on trick {verdict['trick']} was right: "
                             f"{RENEGE_PENALTY} books go to the caller's side")
            else:
                lines.append(f"{caller}'s renege call on trick {verdict['trick']} was wrong: "
                             f"{RENEGE_PENALTY} books go to the other side")
        need = BOOK + bid
        times = f" x {mult}" if mult > 1 else ""
        if details["made"]:
            over = details["books"] - BOOK
            lines.append(f"{self.seat_name(declarer)} declared "
                         f"{contract_words(details['contract'])} and took "
                         f"{details['books']} books (needed {need}): made, {over}{times} = "
                         f"{scores[declarer]:+d}")
        else:
            opponents = [s for s, v in enumerate(scores) if v]
            lines.append(f"{self.seat_name(declarer)} declared "
                         f"{contract_words(details['contract'])} and took "
                         f"{details['books']} books (needed {need}): set; "
                         + ", ".join(f"{self.seat_name(s)} {bid}{times} = {scores[s]:+d}"
                                     for s in opponents))
        return lines

    def controller(self, state: State, seat: int) -> int:
        raise NotImplementedError

    def dummies_shown(self, state: WhistState) -> bool:
        """Face up from the declaration (after the discards) to the end of the hand."""
        return state.phase in (Phase.DECLARE, Phase.PLAY)

    def redact(self, state: State, action: Action, viewer: int) -> str:
        if isinstance(action, Discard) and viewer != action.seat:
            return f"{action.seat}: discard ? ?"  # discards are the declarer's secret
        return str(action)

    def public_info(self, state: State, viewer: int) -> dict[str, Any]:
        """Public: the auction, declarer, contract, trumps and direction, the multiplier,
        renege calls made (not their verdicts, which come with the score). Private to the
        viewer: the renege calls he may make now, his discards (declarer, jokers)."""
        assert isinstance(state, WhistState)
        if state.phase is Phase.PLAY:
            # the auction, contract and discards are fixed while the cards are played
            info = self.play_facts(state, viewer, lambda: self._auction_info(state, viewer))
        else:
            info = self._auction_info(state, viewer)
        info["renege_calls"] = tuple(state.renege_calls)
        info["renege_calls_open"] = tuple(
            a.trick for a in self.renege_calls_for(state, viewer)
        )
        return info

    def _auction_info(self, state: WhistState, viewer: int) -> dict[str, Any]:
        """The public facts of ``public_info`` that only the auction and the exchange
        change."""
        known = state.declarer >= 0  # the auction is over (this hand's, or the last)
        best = state.best
        in_play = known and state.phase in (Phase.PLAY, Phase.SCORING, Phase.GAME_OVER)
        info: dict[str, Any] = {
            "auction": tuple(str(a) for a in state.auction),
            "best_bid": None if best is None else f"{best.seat}: bid {best.tricks} {best.mode}",
            "declarer": state.declarer if known else None,
            "contract": f"{best.tricks} {best.mode}" if known and best else None,
            "trump": SUIT_LETTERS[state.order.trump]
            if in_play and state.order.trump != NO_SUIT else None,
            "direction": ("low" if state.order.low else "high") if in_play else None,
            "multiplier": self.multiplier(state) if known else None,
            "need": BOOK + best.tricks if known and best else None,
            "target": self.options.target,
            "honour": self.options.honour,
        }
        if viewer == state.declarer and state.discards:
            info["discards"] = format_set(state.discards)
        return info


@register
class DummyWhist(WhistGame):
    """Three real players and a dummy that joins the declarer."""

    name = "dummy-whist"
    title = "Dummy Whist"
    options_type = DummyWhistOptions
    phase_actions = {
        Phase.BIDDING: (Bid, Pass),
        Phase.EXCHANGE: (Discard,),
        Phase.DECLARE: (Trump, Direction),
        Phase.PLAY: (Play, Renege),
    }

    options: DummyWhistOptions

    def configure(self) -> None:
        self.num_seats = 4
        self.player_seats = REAL_PLAYERS
        self.num_entities = 3  # the real players; the dummy scores nothing
        self.jokers = self.options.jokers
        self.joker_must_throw = self.options.joker_must_throw
        self.deck = TWO_JOKER_DECK if self.jokers else STANDARD_DECK
        self.default_order = NO_TRUMP_HIGH

    def seat_name(self, seat: int) -> str:
        return "the dummy (seat 3)" if seat == DUMMY else seat_words(seat)

    def deal_sizes(self, dealer: int) -> tuple[list[int], int]:
        return [HAND_SIZE, HAND_SIZE, HAND_SIZE, HAND_SIZE + 2 if self.jokers else HAND_SIZE], 0

    def partner_of(self, state: WhistState, declarer: int) -> int:
        return DUMMY

    def opponents(self, state: WhistState) -> tuple[int, ...]:
        return defenders(state.declarer)

    def next_player(self, seat: int) -> int:
        return left_of(seat)

    def end_auction(self, state: WhistState) -> None:
        seat_dummy_opposite(state, state.declarer)
        if self.jokers:
            state.phase = Phase.EXCHANGE  # the declarer sees the 15 and discards two
            state.to_act = state.declarer
        else:
            super().end_auction(state)

    def controller(self, state: State, seat: int) -> int:
        if seat == DUMMY:
            assert isinstance(state, WhistState)
            return state.declarer  # -1 (nobody) until the auction is over
        return seat

    def visible_holdings(self, state: State, viewer: int) -> list[CardSet]:
        assert isinstance(state, WhistState)
        out = [0] * self.num_seats
        out[viewer] = state.hands[viewer]
        if viewer == DUMMY:
            return out
        if self.dummies_shown(state) or (
            state.phase is Phase.EXCHANGE and viewer == state.declarer
        ):
            out[DUMMY] = state.hands[DUMMY]
        return out


SWAP_WITH = {0: 3, 1: 2}
"""Double Dummy: the dead hand on each player's right, the opponent's dummy."""

PARTNER = {0: 2, 1: 3, 2: 0, 3: 1}
"""Double Dummy: the seat opposite, a player's dummy (and a dummy's player)."""


@register
class DoubleDummyWhist(WhistGame):
    """Two players, each with the dummy opposite him as partner."""

    name = "double-dummy-whist"
    title = "Double Dummy Whist"
    options_type = DoubleDummyWhistOptions
    phase_actions = {
        Phase.REVEAL: (Keep, Swap),
        Phase.BIDDING: (Bid, Pass),
        Phase.DECLARE: (Trump, Direction),
        Phase.PLAY: (Play, Renege),
    }

    options: DoubleDummyWhistOptions

    def configure(self) -> None:
        self.num_seats = 4
        self.player_seats = (0, 1)
        self.num_entities = 2
        self.jokers = False
        self.joker_must_throw = True
        self.deck = STANDARD_DECK
        self.default_order = NO_TRUMP_HIGH

    def seat_name(self, seat: int) -> str:
        if seat in self.player_seats:
            return seat_words(seat)
        return f"{seat_words(seat)} ({seat_words(PARTNER[seat])}'s dummy)"

    def deal_sizes(self, dealer: int) -> tuple[list[int], int]:
        return [HAND_SIZE] * 4, 0

    def partner_of(self, state: WhistState, declarer: int) -> int:
        return PARTNER[declarer]

    def begin_hand(self, state: State) -> None:
        super().begin_hand(state)
        # before the auction each player keeps his hand or swaps it, non-dealer first
        state.phase = Phase.REVEAL

    def check_keep(self, state: State, action: Action) -> None:
        """Always allowed in its turn (the REVEAL phase and the seat are checked first)."""

    def apply_keep(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState)
        state.choices[action.seat] = "keep"
        self.next_chooser(state)

    def check_swap(self, state: State, action: Action) -> None:
        """Always allowed in its turn (the REVEAL phase and the seat are checked first)."""

    def apply_swap(self, state: State, action: Action) -> None:
        assert isinstance(state, WhistState)
        seat, dead = action.seat, SWAP_WITH[action.seat]
        state.hands[seat], state.hands[dead] = state.hands[dead], state.hands[seat]
        state.choices[seat] = "swap"
        self.next_chooser(state)

    def next_chooser(self, state: WhistState) -> None:
        order = self.auction_order(state.dealer)
        state.auction_pos += 1
        if state.auction_pos < len(order):
            state.to_act = order[state.auction_pos]
        else:
            self.begin_auction(state)

    def kept(self, state: WhistState) -> tuple[int, ...]:
        return tuple(p for p in self.player_seats if state.choices[p] == "keep")

    def multiplier(self, state: WhistState) -> int:
        return super().multiplier(state) << len(self.kept(state))  # x2 per keeper

    def score_hand(self, state: State) -> tuple[list[int], dict[str, Any]]:
        assert isinstance(state, WhistState)
        scores, details = super().score_hand(state)
        details["kept"] = list(self.kept(state))
        return scores, details

    def controller(self, state: State, seat: int) -> int:
        return seat if seat in self.player_seats else PARTNER[seat]

    def visible_holdings(self, state: State, viewer: int) -> list[CardSet]:
        assert isinstance(state, WhistState)
        out = [0] * self.num_seats
        out[viewer] = state.hands[viewer]
        if viewer not in self.player_seats:
            return out
        if self.dummies_shown(state):
            for dummy in (2, 3):
                out[dummy] = state.hands[dummy]
        elif state.choices[viewer] == "swap":
            # the hand he threw in lies where he took the dead hand from: he has seen it
            out[SWAP_WITH[viewer]] = state.hands[SWAP_WITH[viewer]]
        return out

    def public_info(self, state: State, viewer: int) -> dict[str, Any]:
        assert isinstance(state, WhistState)
        info = super().public_info(state, viewer)
        info["choices"] = {str(p): state.choices[p] or None for p in self.player_seats}
        info["partners"] = {str(p): PARTNER[p] for p in self.player_seats}
        return info


MODE_WORDS = {"uptown": "uptown", "downtown": "downtown", "notrump": "no trump"}
"""How each way of playing a hand is said (the notation writes "notrump")."""


def contract_words(contract: str) -> str:
    """A contract in words: "4 notrump" -> "4 no trump"."""
    tricks, _, mode = contract.partition(" ")
    return f"{tricks} {MODE_WORDS.get(mode, mode)}".strip()


class WhistWords(TableWords):
    """What Dummy Whist and Double Dummy say at the table."""

    games = ("dummy-whist", "double-dummy-whist")

    @property
    def options(self) -> WhistOptions:
        assert isinstance(self.game.options, WhistOptions)
        return self.game.options

    def mode(self, mode: str) -> str:
        return MODE_WORDS.get(mode, mode)

    PLAIN_LABELS = {**TableWords.PLAIN_LABELS, "swap": "Swap for the other dummy's hand"}

    def rule(self, verb: str, obs: Observation) -> str | None:
        info = obs.info
        if verb in ("bid", "pass") and obs.phase is Phase.BIDDING:
            order = ("no trump beats downtown, downtown beats uptown"
                     if self.options.downtown_beats_uptown else "no trump beats the others")
            text = ("Bid books over six and how the hand is played: uptown (high cards win, "
                    "you name trumps), downtown (low cards win, you name trumps) or no trump "
                    f"(you say which win). More books win the auction; at the same height {order}.")
            if not any(a.verb == "pass" for a in obs.legal):
                text += " Everyone else passed: as the dealer you must bid."
            return text
        if verb == "discard":
            return ("With jokers the dummy holds 15 cards: pick 2 to put out of play face down "
                    "(only you see which).")
        if verb == "trump":
            contract = info.get("contract")
            won = f" with {contract_words(contract)}" if isinstance(contract, str) else ""
            return f"You won the auction{won}: name trumps."
        if verb == "direction":
            return "You bid no trump: choose whether high or low cards win the tricks."
        if verb in ("keep", "swap"):
            return ("Keep the hand you were dealt (each player who keeps doubles the hand's "
                    "score), or swap it for the other player's dummy's hand.")
        return super().rule(verb, obs)

    def phase_doing(self, obs: Observation) -> str:
        if obs.phase is Phase.EXCHANGE:
            return "to put cards out of play"
        if obs.phase is Phase.REVEAL:
            return "to keep or swap"
        if obs.phase is Phase.DECLARE:
            contract = obs.info.get("contract")
            if isinstance(contract, str) and contract.endswith("notrump"):
                return "to choose high or low"
            return "to name trumps"
        return super().phase_doing(obs)

    def call(self, text: str) -> str:
        """One call of the auction, as written in the record ("2: bid 3 notrump"), without
        its seat: "bid 3 no trump", "passed"."""
        words = text.split(": ", 1)[-1].split()
        if words[:1] == ["bid"]:
            return "bid " + contract_words(" ".join(words[1:]))
        return "passed" if words[:1] == ["pass"] else " ".join(words)

    def seat_line(self, seat: int, obs: Observation) -> str:
        info = obs.info
        contract = info.get("contract")
        if info.get("declarer") == seat and isinstance(contract, str):
            return f"contract {contract_words(contract)}"
        if obs.phase is Phase.BIDDING:
            calls = [t for t in info.get("auction") or () if t.split(": ", 1)[0] == str(seat)]
            if calls:
                return self.call(calls[-1])
        choice = by_seat(info.get("choices")).get(seat)
        if choice in ("keep", "swap"):
            return "kept the hand" if choice == "keep" else "swapped"
        return ""

    def facts(self, obs: Observation) -> list[str]:
        info = obs.info
        out = []
        auction = info.get("auction") or ()
        if obs.phase is Phase.BIDDING and auction:
            out.append("auction: " + ", ".join(
                f"{self.seat(int(t.split(':')[0]))} {self.call(t)}" for t in auction))
        declarer = info.get("declarer")
        if type(declarer) is int and isinstance(info.get("contract"), str):
            out.append(f"{self.seat(declarer)} declared {contract_words(info['contract'])}")
        if obs.phase is Phase.PLAY:
            trump = info.get("trump")
            if isinstance(trump, str):  # a no-trump contract says so already
                out.append(f"trumps {suit_words(trump)}")
            out.append("low cards win" if info.get("direction") == "low" else "high cards win")
        if type(info.get("need")) is int:
            out.append(f"the declarer needs {info['need']} books")
        if type(info.get("multiplier")) is int and info["multiplier"] > 1:
            times = info["multiplier"]
            out.append("scores double" if times == 2 else f"scores {times} times")
        if info.get("discards"):
            out.append(f"you put out {cards_short(info['discards'])}")
        if type(info.get("target")) is int:
            out.append(f"game to {info['target']}")
        return out

    def trumps(self, obs: Observation) -> str | None:
        trump = obs.info.get("trump")
        return trump if isinstance(trump, str) else None

    def low_cards_win(self, obs: Observation) -> bool:
        return obs.info.get("direction") == "low"
