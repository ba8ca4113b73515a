"""3B / RTR Spades for 3, 4 and 5 players (rulings.md, "3B / RTR Spades").

Every player scores alone. 3 players: 52 cards, 17 each, one extra card. 4 players: 52 and
one joker (the highest spade), 13 each, one extra card. 5 players: the dealer deals the
4-player deal to the other four and sits the hand out (no cards, no bid, scores 0).

How the engine reads the bidding (ruling 3 and 4), where the text leaves room:

- The extra card is drawn into a hand at the moment the rules hand it to a player: a zero
  bidder at once, the highest bidder when the bidding is over. ``exchange CARD`` then throws
  CARD back face down (it may be the card just drawn). Between the draw and the throw-back
  the drawer holds one card more than the others (public: the hand sizes show it).
- One seat at a time has its "rebid window" open: the latest bidder until the next player
  bids; the last bidder until the extra card is thrown back after the bidding or the first
  card is played. ``rebid N`` is accepted from that seat even when it is not its turn; those
  rebids are listed in ``legal_actions`` (they are legal now) and in the window seat's
  ``info["may_rebid"]``.
- Nobody changes to zero after drawing the extra card himself. A change to zero is a zero
  bid: the player draws the extra card at once and throws one back before anything else.
- A rebid after the bidding puts a highest bidder's drawn card back in the middle and the
  draw is made again for the (possibly new) highest bidder, after any new zero's exchange.
- An all-tricks bid wins the game at once if made, when the bidder made it before he had
  drawn the extra card himself (the text: "before drawing the extra card"); the hand scores
  normally (10 x the bid).
- Gaccing: the opening lead of the hand is a spade (the joker counts as one). The opening
  leader bid first; his first card after his bid is that lead.

Per-hand details in the replay output: ``zero_pot_before`` (the zero value of that hand),
``zero_pot_after`` (the next hand's value), ``bids``, ``tricks``, ``tricks_off``,
``in_tray`` (seats tied for last after the hand), ``low_ball`` ("low", "super" or null),
``gaccing`` (seat or null), ``all_tricks`` (seat that made an all-tricks bid, or null),
``sitting_out`` (the 5-player dealer, or null) and ``sudden_death``. Game-level facts are
in ``game_summary``. Session statistics (stars, streaks, tray chits) are computed from a
list of finished games by ``session_stats``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from ..engine.actions import PLAYS_LOW_BY_SEAT, Action, Bid, Exchange, Play, Rebid
from ..engine.cards import (
    ACE,
    ONE_JOKER_DECK,
    SPADES,
    STANDARD_DECK,
    SUITS,
    Card,
    CardSet,
    card,
    card_str,
    cards_of,
    format_set,
    from_cards,
    is_joker,
    rank_of,
)
from ..engine.errors import IllegalAction, OptionError
from ..engine.game import Game, register
from ..engine.observation import Observation
from ..engine.options import Options, option
from ..engine.state import Phase, State
from ..engine.words import TableWords

NO_CARD = -1

_DEFAULT_HANDS = {3: 9, 4: 8, 5: 9}
_LOW_BALL = {3: (15, 14), 4: (12, 11), 5: (12, 11)}  # (low-ball under, super-low-ball under)

_BIDS = [tuple(Bid(seat, n) for n in range(18)) for seat in range(5)]
_REBIDS = [tuple(Rebid(seat, n) for n in range(18)) for seat in range(5)]
_EXCHANGES = [tuple(Exchange(seat, c) for c in range(54)) for seat in range(5)]
_ACES = from_cards(card(ACE, suit) for suit in SUITS)


# --- scoring rules as pure functions ------------------------------------------------------


def hand_score(bid: int, tricks: int, zero_value: int) -> int:
    """Ruling 6: bid B >= 1 with T tricks scores +T when set (T < B), else
    10B - 10(T - B); a zero scores -10 a trick, or the zero value when it takes none."""
    if bid == 0:
        return zero_value if tricks == 0 else -10 * tricks
    if tricks < bid:
        return tricks
    return 10 * bid - 10 * (tricks - bid)


def next_zero_pot(pot: int, initial: int, zeros: Sequence[int]) -> int:
    """The zero value of the next hand, given this hand's value and the tricks taken by each
    zero bidder this hand. Failed zeros add their lost points; when any zero succeeded the
    pot restarts from the initial value plus this hand's failed zeros' losses."""
    losses = sum(10 * t for t in zeros if t > 0)
    if any(t == 0 for t in zeros):
        return initial + losses
    return pot + losses


def tricks_off(bid: int, tricks: int) -> int:
    """Ruling 10: T - B, except that a bid of 3 or more taking no trick counts as 0 off."""
    if bid >= 3 and tricks == 0:
        return 0
    return tricks - bid


def low_ball(bids: Sequence[int], players: int) -> str | None:
    """Ruling 8: "super", "low" or None, counting a zero bid as one."""
    total = sum(max(b, 1) for b in bids)
    low, super_low = _LOW_BALL[players]
    if total < super_low:
        return "super"
    if total < low:
        return "low"
    return None


def last_places(totals: Sequence[int], seats: Sequence[int]) -> list[int]:
    """The seats tied for the lowest total: who is "in the tray"."""
    lowest = min(totals[s] for s in seats)
    return [s for s in seats if totals[s] == lowest]


def _and(names: Iterable[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    listed = list(names)
    if len(listed) < 2:
        return "".join(listed)
    return ", ".join(listed[:-1]) + " and " + listed[-1]


def tray_sheet(in_tray: Sequence[Sequence[int]]) -> list[list[int]]:
    """The scoresheet's tray column: after a tie in the tray, if one of the tied players is
    still in the tray after the next hand, the others' names are erased; if a different
    player is there after the next hand, the old names stay."""
    out = [list(t) for t in in_tray]
    for h in range(len(out) - 1):
        kept = [s for s in out[h] if s in in_tray[h + 1]]
        if kept:
            out[h] = kept
    return out


# --- options and state --------------------------------------------------------------------


MAX_HANDS = 100
"""The most hands a table may set before sudden death (8 or 9 are usual): wide enough for
any house rule, and narrow enough that a game cannot be asked to go on for ever."""


@dataclass(frozen=True)
class ThreeBSpadesOptions(Options):
    players: int | None = option(
        None, "Players at the table: 3, 4 or 5 (a record may leave it out: the number of "
        "players it names).", choices=(3, 4, 5)
    )
    hands: int | None = option(
        None, "Hands in a game before sudden death (default: 9 with 3 players, 8 with 4, 9 "
        "with 5).", minimum=1, maximum=MAX_HANDS,
    )
    ace_calls: bool = option(
        True, "Aces may be called low when played (4 and 5 players; with 3 players aces are "
        "always high)."
    )
    millennium2: bool = option(
        False, "3 players: the zero value starts at 150 (the 2nd millennium) instead of 200."
    )


class ThreeBSpadesState(State):
    __slots__ = (
        "all_tricks",
        "all_tricks_winner",
        "bid_time",
        "bidders",
        "bids",
        "clock",
        "dead",
        "draw_is_zero",
        "drawer",
        "drawn",
        "drawn_card",
        "middle",
        "n_bid",
        "window",
        "zero_pot",
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        assert isinstance(game, ThreeBSpades)
        n = game.num_seats
        self.zero_pot = game.zero_initial  # the value of the current (or next) hand
        self.all_tricks_winner = -1
        self.bidders: tuple[int, ...] = ()
        self.bids: list[int | None] = [None] * n
        self.bid_time: list[int] = [-1] * n  # when the standing bid was made (ties)
        self.clock = 0
        self.n_bid = 0  # first bids made so far
        self.all_tricks: list[bool] = [False] * n  # standing bid is all tricks, made undrawn
        self.drawn: list[bool] = [False] * n  # has drawn the extra card this hand
        self.window = -1  # the seat that may rebid now
        self.drawer = -1  # holds the drawn extra card and must throw one back
        self.draw_is_zero = False  # the drawer drew as a zero bidder (not after the bidding)
        self.drawn_card = NO_CARD
        self.middle = NO_CARD  # the extra card face down in the middle
        self.dead = NO_CARD  # the highest bidder's thrown-back card, out of play


# --- the game -----------------------------------------------------------------------------


@register
class ThreeBSpades(Game):
    """3B / RTR Spades: cut-throat Spades with an extra card, zeros and a zero pot."""

    name = "3b-spades"
    title = "3B / RTR Spades"
    options_type = ThreeBSpadesOptions
    replay_notes = ("bids", "tricks", "zero_pot_before", "low_ball", "gaccing", "in_tray")
    state_type = ThreeBSpadesState
    phase_actions = {
        Phase.BIDDING: (Bid, Rebid, Exchange),
        Phase.EXCHANGE: (Exchange, Rebid),
        Phase.PLAY: (Play, Rebid),
    }
    has_extra_play_actions = True

    options: ThreeBSpadesOptions


    def configure(self) -> None:
        n = self.options.players
        if n not in (3, 4, 5):
            given = "none was given" if n is None else f"not {n}"
            raise OptionError(
                "3b-spades is played by 3, 4 or 5: say how many with -o players=3 (or 4, 5); "
                + given
            )
        self.num_seats = n
        self.player_seats = tuple(range(n))
        self.num_entities = n
        self.deck = STANDARD_DECK if n == 3 else ONE_JOKER_DECK
        self.num_tricks = 17 if n == 3 else 13
        self.ace_calls = self.options.ace_calls and n >= 4
        self.hands_in_game = self.options.hands or _DEFAULT_HANDS[n]
        if n == 3:
            self.zero_initial = 150 if self.options.millennium2 else 200
        else:
            self.zero_initial = 100

    @classmethod
    def infer_options(cls, options: dict[str, Any], players: Mapping[str, str]) -> dict[str, Any]:
        if options.get("players") is None and 3 <= len(players) <= 5:
            options = {**options, "players": len(players)}
        return options

    # --- dealing ---------------------------------------------------------------------------

    def deal_sizes(self, dealer: int) -> tuple[list[int], int]:
        if self.num_seats == 3:
            return [17, 17, 17], 1
        if self.num_seats == 4:
            return [13, 13, 13, 13], 1
        return [0 if s == dealer else 13 for s in range(5)], 1

    def sitting_out(self, state: State) -> int:
        """The 5-player dealer, who sits the hand out; -1 with 3 or 4 players."""
        return state.dealer if self.num_seats == 5 else -1

    def begin_hand(self, state: State) -> None:
        assert isinstance(state, ThreeBSpadesState)
        n = self.num_seats
        out = self.sitting_out(state)
        state.bidders = tuple(
            s for s in ((state.dealer + i) % n for i in range(1, n + 1)) if s != out
        )
        # play goes clockwise among those holding cards
        for i, seat in enumerate(state.bidders):
            state.next_seat[seat] = state.bidders[(i + 1) % len(state.bidders)]
        state.bids = [None] * n
        state.bid_time = [-1] * n
        state.clock = 0
        state.n_bid = 0
        state.all_tricks = [False] * n
        state.drawn = [False] * n
        state.window = -1
        state.drawer = -1
        state.draw_is_zero = False
        state.drawn_card = NO_CARD
        assert state.deal is not None
        state.middle = state.deal.extra[0]
        state.dead = NO_CARD
        state.all_tricks_winner = -1
        state.phase = Phase.BIDDING
        state.to_act = state.bidders[0]

    def out_of_play(self, state: State) -> CardSet:
        assert isinstance(state, ThreeBSpadesState)
        out = 0
        if state.middle != NO_CARD:
            out |= 1 << state.middle
        if state.dead != NO_CARD:
            out |= 1 << state.dead
        return out

    def trick_size(self, state: State) -> int:
        return 4 if self.num_seats == 5 else self.num_seats

    # --- the extra card --------------------------------------------------------------------

    def _draw(self, state: ThreeBSpadesState, seat: int, as_zero: bool) -> None:
        c = state.middle
        state.middle = NO_CARD
        state.hands[seat] |= 1 << c
        state.drawn[seat] = True
        state.drawer = seat
        state.draw_is_zero = as_zero
        state.drawn_card = c
        state.to_act = seat

    def _undraw(self, state: ThreeBSpadesState) -> None:
        """Put a highest bidder's drawn card back in the middle (a rebid came first)."""
        seat, c = state.drawer, state.drawn_card
        state.hands[seat] &= ~(1 << c)
        state.middle = c
        state.drawer = -1
        state.drawn_card = NO_CARD

    def high_bidder(self, state: ThreeBSpadesState) -> int:
        """The highest bidder, the first to make that bid on a tie; -1 before any bid."""
        best, best_key = -1, (-1, 0)
        for seat in state.bidders:
            bid = state.bids[seat]
            if bid is None:
                continue
            key = (bid, -state.bid_time[seat])
            if key > best_key:
                best, best_key = seat, key
        return best

    def _after_bid(self, state: ThreeBSpadesState) -> None:
        """Move on once no zero bidder owes a throw-back: the next bid, or the draw."""
        if state.n_bid < len(state.bidders):
            state.phase = Phase.BIDDING
            state.to_act = state.bidders[state.n_bid]
            return
        high = self.high_bidder(state)
        bid = state.bids[high]
        if bid:
            state.phase = Phase.EXCHANGE
            self._draw(state, high, as_zero=False)
        else:  # everybody bid zero: nobody draws after the bidding
            state.phase = Phase.PLAY
            state.to_act = state.bidders[0]

    def _set_bid(self, state: ThreeBSpadesState, seat: int, tricks: int) -> None:
        state.bids[seat] = tricks
        state.bid_time[seat] = state.clock
        state.clock += 1
        state.all_tricks[seat] = tricks == self.num_tricks and not state.drawn[seat]
        if tricks == 0:
            self._draw(state, seat, as_zero=True)  # a zero draws at once
        else:
            self._after_bid(state)

    # --- bidding ---------------------------------------------------------------------------

    def rebid_values(self, state: ThreeBSpadesState, seat: int) -> list[int]:
        """The bids ``seat`` may change to now (empty when it may not rebid)."""
        if seat != state.window or (state.drawer >= 0 and state.draw_is_zero):
            return []
        if state.phase is Phase.PLAY and (state.trick_cards or state.tricks):
            return []
        current = state.bids[seat]
        low = 1 if state.drawn[seat] else 0
        return [n for n in range(low, self.num_tricks + 1) if n != current]

    def phase_legal_actions(self, state: State) -> list[Action]:
        assert isinstance(state, ThreeBSpadesState)
        seat = state.to_act
        if state.drawer >= 0:
            own: list[Action] = [_EXCHANGES[seat][c] for c in cards_of(state.hands[seat])]
        elif state.phase is Phase.BIDDING:
            own = list(_BIDS[seat][: self.num_tricks + 1])
        else:
            own = []
        return own + self._rebids(state)

    def _rebids(self, state: ThreeBSpadesState) -> list[Action]:
        if state.window < 0:
            return []
        rebids = _REBIDS[state.window]
        return [rebids[n] for n in self.rebid_values(state, state.window)]

    def extra_play_actions(self, state: State) -> list[Action]:
        assert isinstance(state, ThreeBSpadesState)
        out: list[Action] = []
        if self.ace_calls:
            low = PLAYS_LOW_BY_SEAT[state.to_act]
            aces = self.play_mask(state) & _ACES  # only an ace may be called low
            out = [low[c] for c in cards_of(aces) if self.may_call_ace_low(state, c)]
        return out + self._rebids(state)

    def may_call_ace_low(self, state: State, card: Card) -> bool:
        return self.ace_calls and not is_joker(card) and rank_of(card) == ACE

    def check_turn(self, state: State, action: Action) -> None:
        assert isinstance(state, ThreeBSpadesState)
        if isinstance(action, Rebid) and state.window >= 0 and action.seat == state.window:
            return  # the rebid window is open out of turn; check_rebid says the rest
        if isinstance(action, Rebid):
            raise IllegalAction(
                "change of bid",
                f"seat {action.seat} may not change its bid now: a bid may be changed only "
                "until the next player bids (the last bidder: until the extra card is thrown "
                "back or the first card is played)",
                self.describe_allowed(state, action.seat),
            )
        super().check_turn(state, action)

    def _owes_throw_back(self, state: ThreeBSpadesState) -> None:
        if state.drawer >= 0:
            raise IllegalAction(
                "the extra card",
                f"seat {state.drawer} has drawn the extra card and must throw one card back "
                "first",
                "exchange one of " + format_set(state.hands[state.drawer]),
            )

    def check_bid(self, state: State, action: Action) -> None:
        assert isinstance(state, ThreeBSpadesState) and isinstance(action, Bid)
        self._owes_throw_back(state)
        allowed = f"bid 0..{self.num_tricks}"
        if action.nils or action.mode or action.blind:
            raise IllegalAction("bids", f"'{action}' is not a 3B bid", allowed)
        if not 0 <= action.tricks <= self.num_tricks:
            raise IllegalAction(
                "bids", f"a bid is 0 to {self.num_tricks} tricks, not {action.tricks}", allowed
            )

    def apply_bid(self, state: State, action: Action) -> None:
        assert isinstance(state, ThreeBSpadesState) and isinstance(action, Bid)
        state.n_bid += 1
        state.window = action.seat  # the previous bidder's window closes
        self._set_bid(state, action.seat, action.tricks)

    def check_rebid(self, state: State, action: Action) -> None:
        assert isinstance(state, ThreeBSpadesState) and isinstance(action, Rebid)
        seat, n = action.seat, action.tricks
        if state.window < 0 or seat != state.window:  # window -1: no window is open
            self.check_turn(state, action)  # names the rule
        if state.drawer >= 0 and state.draw_is_zero:
            self._owes_throw_back(state)
        values = self.rebid_values(state, seat)
        allowed = "rebid " + ", ".join(map(str, values)) if values else "no rebid"
        if not 0 <= n <= self.num_tricks:
            raise IllegalAction("bids", f"a bid is 0 to {self.num_tricks} tricks, not {n}", allowed)
        if n == state.bids[seat]:
            raise IllegalAction("change of bid", f"seat {seat} has already bid {n}", allowed)
        if n == 0 and state.drawn[seat]:
            raise IllegalAction(
                "change of bid",
                f"seat {seat} has drawn the extra card and may not change its bid to zero",
                allowed,
            )

    def apply_rebid(self, state: State, action: Action) -> None:
        assert isinstance(state, ThreeBSpadesState) and isinstance(action, Rebid)
        if state.drawer >= 0:  # a highest bidder's draw is made again after the change
            self._undraw(state)
        # a change to zero draws at once; otherwise the next bidder bids, or (after the
        # bidding) the highest bidder draws again
        self._set_bid(state, action.seat, action.tricks)

    # --- the exchange ----------------------------------------------------------------------

    def check_exchange(self, state: State, action: Action) -> None:
        assert isinstance(state, ThreeBSpadesState) and isinstance(action, Exchange)
        if state.drawer != action.seat:
            raise IllegalAction(
                "the extra card",
                f"seat {action.seat} has not drawn the extra card; a zero bidder draws at once "
                "and the highest bidder after the bidding",
                self.describe_allowed(state, action.seat),
            )
        hand = state.hands[action.seat]
        if not hand >> action.card & 1:
            raise IllegalAction(
                "own cards", f"seat {action.seat} does not hold {card_str(action.card)}",
                "exchange one of " + format_set(hand),
            )

    def apply_exchange(self, state: State, action: Action) -> None:
        assert isinstance(state, ThreeBSpadesState) and isinstance(action, Exchange)
        seat, c = action.seat, action.card
        state.hands[seat] &= ~(1 << c)
        state.drawer = -1
        state.drawn_card = NO_CARD
        if state.draw_is_zero:
            state.middle = c  # the new extra card
            self._after_bid(state)
        else:
            state.dead = c  # out of play; the last bidder's window closes
            state.window = -1
            state.phase = Phase.PLAY
            state.to_act = state.bidders[0]

    # --- play ------------------------------------------------------------------------------

    def apply_play(self, state: State, action: Action) -> None:
        assert isinstance(state, ThreeBSpadesState)
        state.window = -1  # a card laid: no more changes of bid
        super().apply_play(state, action)

    # --- scoring ---------------------------------------------------------------------------

    def score_hand(self, state: State) -> tuple[list[int], dict[str, Any]]:
        assert isinstance(state, ThreeBSpadesState)
        n = self.num_seats
        bids = {s: b for s in state.bidders if (b := state.bids[s]) is not None}
        pot = state.zero_pot
        scores = [0] * n
        for seat, bid in bids.items():
            scores[seat] = hand_score(bid, state.won[seat], pot)
        state.zero_pot = next_zero_pot(
            pot, self.zero_initial, [state.won[s] for s, b in bids.items() if b == 0]
        )
        for seat in state.bidders:
            if state.all_tricks[seat] and state.won[seat] == self.num_tricks:
                state.all_tricks_winner = seat
        totals = [t + s for t, s in zip(state.totals, scores, strict=True)]
        out = self.sitting_out(state)
        details: dict[str, Any] = {
            "zero_pot_before": pot,
            "zero_pot_after": state.zero_pot,
            "bids": {str(s): b for s, b in bids.items()},
            "tricks": {str(s): state.won[s] for s in bids},
            "tricks_off": {str(s): tricks_off(b, state.won[s]) for s, b in bids.items()},
            "in_tray": last_places(totals, range(n)),
            "low_ball": low_ball(list(bids.values()), n),
            "gaccing": self.gaccing(state),
            "all_tricks": None if state.all_tricks_winner < 0 else state.all_tricks_winner,
            "sitting_out": None if out < 0 else out,
            "sudden_death": state.hand_number >= self.hands_in_game,
        }
        return scores, details

    def gaccing(self, state: State) -> int | None:
        """The opening leader, if the opening lead of the hand was a spade."""
        if state.tricks:
            first = state.tricks[0]
            return first.leader if first.led_suit == SPADES else None
        if state.trick_cards:  # the opening lead is on the table
            return state.trick_seats[0] if state.led_suit == SPADES else None
        return None

    def game_winner(self, state: State) -> int | None:
        assert isinstance(state, ThreeBSpadesState)
        if state.all_tricks_winner >= 0:
            return state.all_tricks_winner
        return self.winner_by_totals(state.totals, state.finished_hands, {})

    def winner_by_totals(self, totals: Sequence[int], finished_hands: int,
                         info: Mapping[str, Any]) -> int | None:
        if finished_hands < self.hands_in_game or len(set(totals)) < len(totals):
            return None  # regulation not over, or a place is tied: sudden death
        return max(range(self.num_seats), key=lambda s: totals[s])

    # --- statistics ------------------------------------------------------------------------


    def hand_lines(self, state: State, scores: Sequence[int], details: Mapping[str, Any]
                   ) -> list[str]:
        """Each bid against the tricks taken (ruling 6), the zero value, the tray."""
        pot = details["zero_pot_before"]
        lines = []
        for key, bid in details["bids"].items():
            took = details["tricks"][key]
            score = scores[int(key)]
            if bid == 0:
                why = (f"a zero taking no trick wins the zero value, {pot}" if took == 0
                       else f"a zero loses 10 a trick: {took} trick(s)")
            elif took < bid:
                why = "set: one point a trick taken"
            elif took == bid:
                why = f"made exactly: 10 x {bid}"
            else:
                why = f"made with {took - bid} over: 10 x {bid} less 10 a trick over"
            said = "zero" if bid == 0 else bid
            lines.append(f"{self.seat_name(int(key))} bid {said}, took {took}: {why} = {score:+d}")
        if details["zero_pot_after"] != pot:
            lines.append(f"the zero value of the next hand: {details['zero_pot_after']}")
        if details.get("all_tricks") is not None:
            lines.append(f"{self.seat_name(details['all_tricks'])} took every trick: "
                         "the game is won")
        tray = details["in_tray"]
        lines.append("in the tray: " + ", ".join(self.seat_name(s) for s in tray))
        return lines

    def summary_lines(self, state: State) -> list[str]:
        """The score sheet's end of game in sentences (ruling 10), naming people."""
        facts = self.game_summary(state)
        name = self.seat_name
        lines = super().summary_lines(state)
        if facts["all_tricks_win"] is not None:
            lines.append(f"{name(facts['all_tricks_win'])} won by taking every trick of a "
                         "hand.")
        if facts["tray_person"] is not None:
            wire = " and was in the tray after every hand: wire to wire" \
                if facts["wire_to_wire"] else ""
            lines.append(f"{name(facts['tray_person'])} is the tray person (last){wire}.")
        elif state.is_over:
            lines.append("Nobody is the tray person: last place is shared.")
        sheet = facts["tray_sheet"]
        if sheet:
            lines.append("In the tray after each hand: " + "; ".join(
                f"hand {n}: {_and(name(s) for s in seats)}" for n, seats in enumerate(sheet, 1)
            ) + ".")
        if facts["perfect_day"]:
            lines.append(f"A perfect day (every hand exactly as bid): "
                         f"{_and(name(s) for s in facts['perfect_day'])}.")
        if facts["imperfect_day"]:
            lines.append(f"An imperfect day (no hand as bid): "
                         f"{_and(name(s) for s in facts['imperfect_day'])}.")
        if facts["sudden_death_hands"]:
            lines.append(f"Sudden death: {facts['sudden_death_hands']} more hand(s) to break "
                         "the tie.")
        return lines

    def game_summary(self, state: State) -> dict[str, Any]:
        """Game-level statistics (ruling 10): ``tray_person`` (lowest total when the game is
        over; null while it goes on or if an all-tricks win leaves last place tied),
        ``wire_to_wire`` (the tray person was in the tray after every hand), ``tray_sheet``
        (the seats in the tray after each hand, tied names erased as the text says),
        ``perfect_day`` / ``imperfect_day`` (seats with every / no hand 0 tricks off, over
        the hands played so far), ``all_tricks_win``, ``sudden_death_hands`` and
        ``zero_pot`` (the next hand's zero value)."""
        assert isinstance(state, ThreeBSpadesState)
        trays = [list(r.details["in_tray"]) for r in state.results]
        offs: dict[int, list[int]] = {s: [] for s in range(self.num_seats)}
        for r in state.results:
            for seat, off in r.details["tricks_off"].items():
                offs[int(seat)].append(off)
        tray_person = None
        if state.is_over:
            last = last_places(state.totals, range(self.num_seats))
            tray_person = last[0] if len(last) == 1 else None
        return {
            "tray_person": tray_person,
            "wire_to_wire": tray_person is not None
            and bool(trays)
            and all(tray_person in t for t in trays),
            "tray_sheet": tray_sheet(trays),
            "perfect_day": [s for s, o in offs.items() if o and all(x == 0 for x in o)],
            "imperfect_day": [s for s, o in offs.items() if o and all(x != 0 for x in o)],
            "all_tricks_win": None if state.all_tricks_winner < 0 else state.all_tricks_winner,
            "sudden_death_hands": max(0, state.finished_hands - self.hands_in_game),
            "zero_pot": state.zero_pot,
        }

    def score_lines(self, state: State) -> list[str]:
        assert isinstance(state, ThreeBSpadesState)
        lines = [f"Zero value of the next hand: {state.zero_pot}"]
        if state.results:
            tray = state.results[-1].details["in_tray"]
            lines.append("In the tray: " + ", ".join(self.seat_name(s) for s in tray))
        return lines

    # --- what seats see --------------------------------------------------------------------

    def redact(self, state: State, action: Action, viewer: int) -> str:
        if isinstance(action, Exchange) and action.seat != viewer:
            return f"{action.seat}: exchange ?"
        return str(action)

    def carry_over(self, state: State, info: Mapping[str, Any]) -> None:
        assert isinstance(state, ThreeBSpadesState)
        value = info.get("zero_value")
        if isinstance(value, int):
            state.zero_pot = value

    def public_info(self, state: State, viewer: int) -> dict[str, Any]:
        assert isinstance(state, ThreeBSpadesState)
        if state.phase is Phase.PLAY and (state.tricks or state.trick_cards):
            # a card laid: the bids and the rebid window are closed, the opening lead
            # (gaccing) is known, and nothing else changes before the hand is scored
            return self.play_facts(state, viewer, lambda: self._info(state, viewer))
        return self._info(state, viewer)

    def _info(self, state: ThreeBSpadesState, viewer: int) -> dict[str, Any]:
        bids = [b for s in state.bidders if (b := state.bids[s]) is not None]
        bidding_over = state.n_bid == len(state.bidders) and state.phase is not Phase.DEAL
        out = self.sitting_out(state)
        info: dict[str, Any] = {
            "players": self.num_seats,
            "tricks_per_hand": self.num_tricks,
            "ace_calls": self.ace_calls,
            "sitting_out": None if out < 0 else out,
            "bidding_order": state.bidders,
            "bids": tuple(state.bids),
            "zero_value": state.zero_pot,
            "rebid_window": state.window,
            "extra_drawn_by": state.drawer,
            "extra_thrown_out": state.dead != NO_CARD,
            "high_bidder": self.high_bidder(state) if state.bidders else -1,
            "low_ball": low_ball(bids, self.num_seats) if bidding_over and bids else None,
            "gaccing": self.gaccing(state),
            "hands_in_game": self.hands_in_game,
            "sudden_death": state.hand_number >= self.hands_in_game,
            "in_tray": tuple(state.results[-1].details["in_tray"]) if state.results else (),
        }
        thrown = [
            a.card for a in state.actions if isinstance(a, Exchange) and a.seat == viewer
        ]
        if thrown:  # private: the cards this seat threw back this hand
            info["thrown_back"] = tuple(card_str(c) for c in thrown)
        if viewer == state.window:
            info["may_rebid"] = tuple(self.rebid_values(state, viewer))
        return info


# --- sessions: stars, streaks and tray chits ----------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """What a session remembers of one finished game, players named rather than seated.
    ``players`` empty means everybody named in the session played it. ``boneheads`` and
    ``zero_buddies`` are the marks the players added for the game (ruling 10), one name
    per mark: a bonehead mark a player claimed for himself, a zero-buddy ("ZB") mark the
    others gave him."""

    winner: str
    tray_person: str | None
    perfect_day: tuple[str, ...] = ()
    played: date | None = None
    players: tuple[str, ...] = ()
    boneheads: tuple[str, ...] = ()
    zero_buddies: tuple[str, ...] = ()


@dataclass
class PlayerSession:
    """One player's session statistics (ruling 10).

    stars: games won. week_stars: "outside stars" for 3 or more wins in one ISO week
    (one per such week). gold_star / red_star: 4 / 5 wins in a row at some point.
    longest_streak / current_streak: wins in a row among the games the player played.
    trays: games as tray person. chits_earned (a perfect day each), chits_used (spent on the
    next loss after earning), chits_held. boneheads / zero_buddies: the marks players
    added."""

    stars: int = 0
    week_stars: int = 0
    gold_star: bool = False
    red_star: bool = False
    longest_streak: int = 0
    current_streak: int = 0
    trays: int = 0
    chits_earned: int = 0
    chits_used: int = 0
    chits_held: int = 0
    boneheads: int = 0
    zero_buddies: int = 0


def game_result(
    state: State,
    names: Mapping[int, str],
    played: date | None = None,
    boneheads: Sequence[str] = (),
    zero_buddies: Sequence[str] = (),
) -> GameResult:
    """The session entry of a finished 3B game; ``names`` maps seats to players, and the
    players add their bonehead and zero-buddy marks (names, one per mark)."""
    if not state.is_over or state.winner is None:
        raise ValueError("only a finished game goes into the session statistics")
    summary = state.game.game_summary(state)
    tray = summary["tray_person"]
    return GameResult(
        winner=names[state.winner],
        tray_person=None if tray is None else names[tray],
        perfect_day=tuple(names[s] for s in summary["perfect_day"]),
        played=played,
        players=tuple(names[s] for s in state.game.player_seats),
        boneheads=tuple(boneheads),
        zero_buddies=tuple(zero_buddies),
    )


def session_stats(results: Sequence[GameResult]) -> dict[str, PlayerSession]:
    """Stars, streaks, tray chits and marks over a session's games, in the order played."""
    everyone: list[str] = []
    for g in results:
        tray = [g.tray_person] if g.tray_person else []
        for name in (*g.players, g.winner, *tray, *g.boneheads, *g.zero_buddies):
            if name not in everyone:
                everyone.append(name)
    stats = {name: PlayerSession() for name in everyone}
    week_wins: dict[tuple[str, int, int], int] = {}
    for g in results:
        played = g.players or tuple(everyone)
        for name in played:
            s = stats[name]
            if name == g.winner:
                s.stars += 1
                s.current_streak += 1
                s.longest_streak = max(s.longest_streak, s.current_streak)
            else:
                s.current_streak = 0
        if g.played is not None:
            year, week, _ = g.played.isocalendar()
            key = (g.winner, year, week)
            week_wins[key] = week_wins.get(key, 0) + 1
            if week_wins[key] == 3:
                stats[g.winner].week_stars += 1
        if g.tray_person is not None:
            s = stats[g.tray_person]
            s.trays += 1
            if s.chits_held:  # use it or lose it: spent on the next loss
                s.chits_held -= 1
                s.chits_used += 1
        for name in g.perfect_day:  # awarded after the game
            stats[name].chits_earned += 1
            stats[name].chits_held += 1
        for name in g.boneheads:
            stats[name].boneheads += 1
        for name in g.zero_buddies:
            stats[name].zero_buddies += 1
    for s in stats.values():
        s.gold_star = s.longest_streak >= 4
        s.red_star = s.longest_streak >= 5
    return stats


def longest_streaks(stats: Mapping[str, PlayerSession]) -> list[tuple[str, int]]:
    """Players by longest winning streak, longest first (ties by name)."""
    return sorted(
        ((n, s.longest_streak) for n, s in stats.items() if s.longest_streak),
        key=lambda item: (-item[1], item[0]),
    )


__all__ = [
    "GameResult",
    "PlayerSession",
    "ThreeBSpades",
    "ThreeBSpadesOptions",
    "ThreeBSpadesState",
    "game_result",
    "hand_score",
    "last_places",
    "longest_streaks",
    "low_ball",
    "next_zero_pot",
    "session_stats",
    "tray_sheet",
    "tricks_off",
]


class ThreeBWords(TableWords):
    """What 3B / RTR Spades says at the table: a bid of none is a zero, throughout."""

    games = ("3b-spades",)

    def bid(self, tricks: int) -> str:
        return "zero" if tricks == 0 else str(tricks)

    def rule(self, verb: str, obs: Observation) -> str | None:
        if verb == "bid":
            value = obs.info.get("zero_value")
            worth = f" ({value})" if type(value) is int else ""
            return ("Bid the tricks you alone will take, exactly: more or fewer costs you. "
                    f"Zero: you draw the extra card at once, and win the zero value{worth} if "
                    "you take no trick, or lose 10 a trick.")
        if verb == "exchange":
            return ("You have drawn the extra card: pick one card to throw back face down "
                    "(it may be the card you drew).")
        return super().rule(verb, obs)

    def phase_doing(self, obs: Observation) -> str:
        if obs.phase is Phase.EXCHANGE:
            return "to throw back a card"
        return super().phase_doing(obs)

    def middle(self, obs: Observation) -> str | None:
        """The extra card in the middle until the high bidder draws it."""
        info = obs.info
        if "extra_thrown_out" not in info or obs.phase in (Phase.PLAY, Phase.SCORING):
            return None
        drawn = info.get("extra_drawn_by")
        if type(drawn) is int and drawn >= 0:
            return f"extra card: drawn by {self.seat(drawn)}"
        if info.get("extra_thrown_out"):
            return "extra card: thrown back, out of play"
        return "extra card: face down, for the high bidder"

    def facts(self, obs: Observation) -> list[str]:
        info = obs.info
        out = []
        high = info.get("high_bidder")
        if type(high) is int and high >= 0:
            out.append(f"high bidder {self.seat(high)}")
        out_seat = info.get("sitting_out")
        if type(out_seat) is int:
            out.append(f"{self.seat(out_seat)} sits out")
        if type(info.get("zero_value")) is int:
            out.append(f"zero value {info['zero_value']}")
        if info.get("low_ball"):
            out.append("super low ball" if info["low_ball"] == "super" else "low ball")
        if info.get("sudden_death"):
            out.append("sudden death")
        elif type(info.get("hands_in_game")) is int and obs.hand_number >= 0:
            out.append(f"hand {obs.hand_number + 1} of {info['hands_in_game']}")
        return out
