"""Paperless Spades (rulings.md, "Paperless Spades"; seeds/paperless-spades.txt).

Four players, partners opposite (team "0" = seats 0+2, team "1" = seats 1+3), 48 cards:
the 2 and 3 of spades and of hearts are taken out to count the score. 12 cards each.

A hand goes: deal; the pass (EXCHANGE phase); the bids (BIDDING); 12 tricks (PLAY).

The pass. Each player gives three cards to his partner (``give C C C``), one at a time in
turn order from the dealer's left. A given card leaves the giver's hand at once and is
held aside (``out_of_play``); the twelve cards join their new hands together, only after
the fourth give, so nobody can pass on a card he received. What each seat sees of a give:

- the giver: his own cards, always;
- his partner, the receiver: "give ? ? ?" until the pass is complete (all four have
  given), then the cards. Until then the cards are in no hand, and the receiver has
  nothing to choose between his own give and the end of the pass, so showing them
  earlier would change no decision; from the end of the pass they are in his hand;
- the opponents: "give ? ? ?", always (the text never shows them the passed cards).

Bids are personal, 0-12 tricks, 0 being nil; never both partners nil; no blind nil.
The player to the dealer's left bids first and leads. Spades may not be led until a spade
has been played on another suit, unless the leader holds only spades.

Scores per hand, for each team (``score_items``): exact team bid +2; more +1; fewer, +2
to the opponents; each nil made +2; each nil failed +2 to the opponents; all four heart
honours (J Q K A) won in the team's tricks +2. A nil bidder's tricks count for the team.

Sets. A set ends after a hand in which either team has more than ``limit`` points (5);
the higher score wins the game. On a tie both totals go back to 0 right after that hand
and an overtime set to more than ``overtime_limit`` (2) follows, as often as needed. The
stake owed is (winner's total - loser's total) x ``stake``, on the final set's scores: a
tied set's difference is 0, so this is also the difference summed over every set.

Replay JSON (records.md). Per hand, besides ``scores`` and ``totals``:

- ``limit``: the limit of the set the hand belongs to (5, or 2 in overtime);
- ``set``: which set: 1 for the regular set, 2 for the first overtime set, 3 for the
  next, ...

A hand's ``totals`` are its set's totals after the hand, before any reset: the hand that
ties a set shows the tied score; the next hand's totals count from zero again.
Per game (``game_summary``): ``stake``; ``sets``, the totals at the end of each set
played so far (the last may be in progress); ``owed``, once the game is over,
``{"by": loser, "to": winner, "points": difference, "amount": difference x stake}``,
else null.

Showing the score (``counting_cards``, ``score_lines``): team 0 counts with the 2 and 3
of spades, team 1 with the 2 and 3 of hearts (the text gives one pair to each captain).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, Bid, Give, Play
from ..engine.cards import (
    ACE,
    HEARTS,
    JACK,
    KING,
    NOT_SPADES,
    PAPERLESS_DECK,
    QUEEN,
    SPADES,
    SUIT_SYMBOLS,
    Card,
    CardSet,
    card,
    card_str,
    cards_of,
    format_cards,
    format_set,
    from_cards,
)
from ..engine.errors import IllegalAction
from ..engine.game import Game, register
from ..engine.observation import Observation
from ..engine.options import Options, option
from ..engine.scoring import sole_leader
from ..engine.state import Phase, State
from ..engine.words import TableWords, cards_short, seat_words, team_words

HAND_SIZE = 12
PASS_SIZE = 3
HONOURS: CardSet = from_cards(card(r, HEARTS) for r in (JACK, QUEEN, KING, ACE))
TEAM_SUITS = (SPADES, HEARTS)
"""The suit of each team's counting cards: team 0 spades, team 1 hearts."""
REGULAR_CAPACITY = 5  # the 2 face up and all three pips of the 3
OVERTIME_CAPACITY = 2  # both pips of the 2; the 3 is never turned up

_BIDS = [tuple(Bid(seat, n) for n in range(HAND_SIZE + 1)) for seat in range(4)]


# The ranges of the numeric options (the limits are 5 and 2 points): wide enough for any
# house rule, and narrow enough that a set cannot be asked to go on for ever.
MAX_LIMIT = 100
MAX_STAKE = 10_000


@dataclass(frozen=True)
class PaperlessOptions(Options):
    limit: int = option(5, "A set ends after a hand in which a team has more than this.",
                        minimum=0, maximum=MAX_LIMIT)
    overtime_limit: int = option(
        2, "An overtime set (after a tied set) ends when a team has more than this.",
        minimum=0, maximum=MAX_LIMIT,
    )
    stake: int = option(0, "Amount per point the losers owe the winners (0: no stakes).",
                        minimum=0, maximum=MAX_STAKE)


class PaperlessState(State):
    __slots__ = ("bids", "gives", "set_number")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.bids: list[int | None] = [None] * 4
        self.gives: list[tuple[Card, ...] | None] = [None] * 4
        self.set_number = 1  # 1: the regular set; 2, 3, ...: overtime sets


# --- scoring ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreItem:
    """One scoring line of the text that applied: ``points`` to ``team``, and why."""

    team: int
    points: int
    reason: str


def score_items(bids: list[int], won: list[int], honours_team: int | None) -> list[ScoreItem]:
    """Every scoring line that applies to a hand, in the text's order, team 0 first.

    bids and won are per seat; honours_team is the team that won all four heart honours
    in its tricks, or None when they were split.
    """
    items: list[ScoreItem] = []
    for team in (0, 1):
        other = 1 - team
        seats = (team, team + 2)
        bid = bids[seats[0]] + bids[seats[1]]
        took = won[seats[0]] + won[seats[1]]  # a nil bidder's tricks count for the team
        if took == bid:
            items.append(ScoreItem(team, 2,
                                   f"{team_words(team)} bid {bid} and took exactly {took}"))
        elif took > bid:
            items.append(ScoreItem(team, 1,
                                   f"{team_words(team)} bid {bid} and took more, {took}"))
        else:
            items.append(ScoreItem(other, 2,
                                   f"{team_words(team)} bid {bid} and took fewer, {took}"))
        for seat in seats:
            if bids[seat] != 0:
                continue
            if won[seat] == 0:
                items.append(ScoreItem(team, 2, f"{seat_words(seat)}'s nil made"))
            else:
                items.append(ScoreItem(other, 2,
                                       f"{seat_words(seat)}'s nil failed ({won[seat]} taken)"))
        if honours_team == team:
            items.append(ScoreItem(team, 2, f"{team_words(team)} won all four heart honours"))
    return items


def points_of(items: list[ScoreItem]) -> list[int]:
    """The hand's points per team from its scoring lines."""
    scores = [0, 0]
    for item in items:
        scores[item.team] += item.points
    return scores


# --- the counting cards -------------------------------------------------------------------


def _pips(n: int) -> str:
    return f"{n} pip" if n == 1 else f"{n} pips"


def counting_cards(
    score: int, *, overtime: bool = False, suit: int = SPADES, limit: int | None = None
) -> str:
    """One team's score as its two counting cards show it, as a picture and in words.

    Picture legend: ``[▒▒]`` the covering card face down, ``[2♠]`` the 2 face up, ``•`` a
    pip of the covered card slid into view, ``·`` a pip still covered.

    Regular set: the 3 lies face up and the 2 face down on it; the 2 is slid aside to show
    1 or 2 pips of the 3; over two, the 2 is turned face up and counts its own two pips,
    so 3 to 5 are the 2 plus 1 to 3 pips of the 3. Overtime: the 2 lies face up under the
    3 face down, slid to show 1 or 2 pips of the 2; the 3 is never turned up. A score the
    cards cannot show (over 5, or over 2 in overtime) ends the set, so it is given as a
    number. ``limit`` (default 5, or 2 in overtime) marks a team "in the barn".
    """
    s = SUIT_SYMBOLS[suit]
    two, three = f"2{s}", f"3{s}"
    capacity = OVERTIME_CAPACITY if overtime else REGULAR_CAPACITY
    if limit is None:
        limit = capacity
    if score > capacity:
        return (
            f"{score}: more than the counting cards can show ({capacity})"
            + (", the set is over" if score > limit else "")
        )
    if overtime:
        shown = max(score, 0)
        picture = "[▒▒]" + "•" * shown + "·" * (2 - shown)
        if shown == 0:
            words = f"{three} face down covering {two}"
        else:
            words = f"{three} face down, slid to show {_pips(shown)} of {two}"
    elif score <= 2:
        shown = max(score, 0)
        picture = "[▒▒]" + "•" * shown + "·" * (3 - shown)
        if shown == 0:
            words = f"{two} face down covering {three}"
        else:
            words = f"{two} face down, slid to show {_pips(shown)} of {three}"
    else:
        shown = score - 2
        picture = f"[{two}]" + "•" * shown + "·" * (3 - shown)
        of_three = "all 3 pips" if shown == 3 else _pips(shown)
        words = f"{two} face up (2) and {of_three} of {three} showing"
    barn = ", in the barn" if score == limit else ""
    return f"{picture} {words}: {score}{barn}"


# --- the game -----------------------------------------------------------------------------


@register
class PaperlessSpades(Game):
    """Paperless Spades: a short partnership Spades scored with four cards."""

    name = "paperless-spades"
    title = "Paperless Spades"
    options_type = PaperlessOptions
    replay_notes = ("limit", "set")
    state_type = PaperlessState
    partnership = True
    phase_actions = {Phase.EXCHANGE: (Give,), Phase.BIDDING: (Bid,), Phase.PLAY: (Play,)}

    options: PaperlessOptions


    def configure(self) -> None:
        self.num_seats = 4
        self.player_seats = (0, 1, 2, 3)
        self.num_entities = 2
        self.deck = PAPERLESS_DECK

    def deal_sizes(self, dealer: int) -> tuple[list[int], int]:
        return [HAND_SIZE] * 4, 0

    def begin_hand(self, state: State) -> None:
        assert isinstance(state, PaperlessState)
        state.bids = [None] * 4
        state.gives = [None] * 4
        state.phase = Phase.EXCHANGE
        state.to_act = (state.dealer + 1) % 4

    def set_limit(self, set_number: int) -> int:
        """The limit of a set: the regular set's, or the overtime sets'."""
        return self.options.limit if set_number == 1 else self.options.overtime_limit

    def phase_legal_actions(self, state: State) -> list[Action]:
        assert isinstance(state, PaperlessState)
        seat = state.to_act
        if state.phase is Phase.EXCHANGE:
            cards = list(cards_of(state.hands[seat]))
            return [
                Give(seat, (a, b, c))
                for i, a in enumerate(cards)
                for j, b in enumerate(cards[i + 1 :], i + 1)
                for c in cards[j + 1 :]
            ]
        if state.bids[(seat + 2) % 4] == 0:
            return list(_BIDS[seat][1:])  # the partner bid nil
        return list(_BIDS[seat])

    def is_listed(self, state: State, action: Action) -> bool:
        # The pass lists every three of the seat's cards (286 of them from 13): say
        # whether a pass is among them without making the list, which was most of the
        # time a search bot spent rebuilding a Paperless hand.
        if isinstance(action, Give) and state.phase is Phase.EXCHANGE:
            hand = state.hands[state.to_act]
            cards = action.cards
            return (
                action.seat == state.to_act
                and len(cards) == PASS_SIZE
                and len(set(cards)) == PASS_SIZE
                and all(type(c) is int and 0 <= c < 54 and hand >> c & 1 for c in cards)
            )
        return super().is_listed(state, action)

    def describe_choices(self, state: State) -> str:
        if state.phase is Phase.EXCHANGE:
            # never list the cards of the seat to act: the error may be shown to another seat
            return f"seat {state.to_act}: give C C C, three of its own cards"
        return super().describe_choices(state)

    # --- the pass --------------------------------------------------------------------------

    def check_give(self, state: State, action: Action) -> None:
        assert isinstance(action, Give)
        hand = state.hands[action.seat]
        allowed = "give three of " + format_set(hand)
        if len(action.cards) != PASS_SIZE:
            raise IllegalAction(
                "pass three cards",
                f"a pass is exactly three cards to your partner, not {len(action.cards)}",
                allowed,
            )
        if len(set(action.cards)) != PASS_SIZE:
            raise IllegalAction("pass three cards", "the three cards passed must differ", allowed)
        for c in action.cards:
            if not 0 <= c < 54 or not hand >> c & 1:
                raise IllegalAction(
                    "own cards", f"seat {action.seat} does not hold {card_str(c)}", allowed
                )

    def apply_give(self, state: State, action: Action) -> None:
        assert isinstance(state, PaperlessState) and isinstance(action, Give)
        seat = action.seat
        state.gives[seat] = action.cards
        state.hands[seat] &= ~from_cards(action.cards)
        if any(g is None for g in state.gives):
            state.to_act = (seat + 1) % 4
            return
        # the pass is complete: every seat takes the three cards its partner gave
        for giver, cards in enumerate(state.gives):
            assert cards is not None
            receiver = (giver + 2) % 4
            state.hands[receiver] |= from_cards(cards)
        state.phase = Phase.BIDDING
        state.to_act = (state.dealer + 1) % 4

    def out_of_play(self, state: State) -> CardSet:
        """The cards given during a pass that is not complete yet."""
        assert isinstance(state, PaperlessState)
        if all(g is not None for g in state.gives):
            return 0
        return from_cards(c for g in state.gives if g is not None for c in g)

    # --- bidding ---------------------------------------------------------------------------

    def check_bid(self, state: State, action: Action) -> None:
        assert isinstance(state, PaperlessState) and isinstance(action, Bid)
        allowed = "bid 1..12" if state.bids[(action.seat + 2) % 4] == 0 else "bid 0..12"
        if action.blind:
            raise IllegalAction("no blind nil", "Paperless Spades has no blind nil", allowed)
        if action.nils or action.mode:
            raise IllegalAction("bids", f"'{action}' is not a Paperless Spades bid", allowed)
        if not 0 <= action.tricks <= HAND_SIZE:
            raise IllegalAction(
                "bids", f"a bid is 0 (nil) to {HAND_SIZE} tricks, not {action.tricks}", allowed
            )
        if action.tricks == 0 and state.bids[(action.seat + 2) % 4] == 0:
            raise IllegalAction(
                "one nil per team",
                f"seat {(action.seat + 2) % 4}, your partner, bid nil; both partners may not"
                " bid nil",
                allowed,
            )

    def apply_bid(self, state: State, action: Action) -> None:
        assert isinstance(state, PaperlessState) and isinstance(action, Bid)
        state.bids[action.seat] = action.tricks
        if any(b is None for b in state.bids):
            state.to_act = (action.seat + 1) % 4
            return
        state.phase = Phase.PLAY
        state.to_act = (state.dealer + 1) % 4  # the player to the dealer's left leads

    # --- play ------------------------------------------------------------------------------

    def lead_mask(self, state: State, hand: CardSet) -> CardSet:
        if state.trump_broken:
            return hand
        return (hand & NOT_SPADES) or hand

    # --- scoring ---------------------------------------------------------------------------

    def honours_team(self, state: State) -> int | None:
        """The team that won all four heart honours this hand, if one did."""
        taken = [0, 0]
        for trick in state.tricks:
            taken[trick.winner % 2] |= from_cards(trick.cards)
        for team in (0, 1):
            if taken[team] & HONOURS == HONOURS:
                return team
        return None

    def hand_items(self, state: State) -> list[ScoreItem]:
        """The scoring lines of the finished hand (the last one played)."""
        assert isinstance(state, PaperlessState)
        bids = [b if b is not None else 0 for b in state.bids]
        return score_items(bids, list(state.won), self.honours_team(state))

    def score_hand(self, state: State) -> tuple[list[int], dict[str, Any]]:
        assert isinstance(state, PaperlessState)
        scores = points_of(self.hand_items(state))
        return scores, {"limit": self.set_limit(state.set_number), "set": state.set_number}

    def game_winner(self, state: State) -> int | None:
        assert isinstance(state, PaperlessState)
        return self.winner_by_totals(state.totals, state.finished_hands,
                                     {"set": state.set_number})

    def winner_by_totals(self, totals: Sequence[int], finished_hands: int,
                         info: Mapping[str, Any]) -> int | None:
        """The set's winner (``info["set"]``: which set, the first by default). A set tied
        past its limit ends nobody's game: the totals go back to zero (``finish_hand``)."""
        if max(totals) <= self.set_limit(int(info.get("set", 1))):
            return None
        return sole_leader(totals)  # None on a tie: see finish_hand

    def finish_hand(self, state: State) -> None:
        super().finish_hand(state)
        assert isinstance(state, PaperlessState)
        if state.phase is Phase.SCORING and max(state.totals) > self.set_limit(state.set_number):
            # a tied set: both scores go back to zero and an overtime set is played
            state.totals = [0, 0]
            state.set_number += 1

    def totals_reset_after(self, state: State, hand: int) -> bool:
        assert isinstance(state, PaperlessState)
        results = state.results
        this_set = results[hand].details["set"]
        next_set = results[hand + 1].details["set"] if hand + 1 < len(results) else (
            state.set_number
        )
        return bool(next_set != this_set)

    def set_totals(self, state: State) -> list[dict[str, int]]:
        """The totals at the end of each set played so far (the last may be unfinished)."""
        ends: dict[int, dict[str, int]] = {}
        for result in state.results:
            ends[result.details["set"]] = dict(result.totals)
        return [ends[k] for k in sorted(ends)]

    def game_summary(self, state: State) -> dict[str, Any]:
        owed: dict[str, Any] | None = None
        if state.winner is not None:
            winner, loser = state.winner, 1 - state.winner
            diff = state.totals[winner] - state.totals[loser]
            owed = {
                "by": self.entity_label(loser),
                "to": self.entity_label(winner),
                "points": diff,
                "amount": diff * self.options.stake,
            }
        return {"stake": self.options.stake, "sets": self.set_totals(state), "owed": owed}

    def summary_lines(self, state: State) -> list[str]:
        """Who won, by how much, and what is owed at the stake, naming people."""
        if state.winner is None:
            return []
        winner, loser = state.winner, 1 - state.winner
        lines = [f"{team_words(winner, start=True)} won, {state.totals[winner]} to "
                 f"{state.totals[loser]}."]
        owed = self.game_summary(state)["owed"]
        if self.options.stake and owed is not None:
            lines.append(f"{team_words(loser, start=True)} owe {team_words(winner)} "
                         f"{owed['amount']} ({owed['points']} points at {self.options.stake} "
                         "a point).")
        return lines

    def score_lines(self, state: State) -> list[str]:
        """The score as the counting cards show it, the last hand's scoring lines, and
        the stake owed at the end."""
        assert isinstance(state, PaperlessState)
        number = state.set_number
        overtime = number > 1
        limit = self.set_limit(number)
        name = f"Overtime set {number - 1}" if overtime else "Regular set"
        lines = [f"{name}: the set ends when a team has more than {limit} points."]
        if state.is_over:
            lines[0] = f"{name}, finished."
        for team in (0, 1):
            suit = TEAM_SUITS[team]
            picture = counting_cards(
                state.totals[team], overtime=overtime, suit=suit, limit=limit
            )
            lines.append(f"{team_words(team, start=True)} (2 and 3 of "
                         f"{('spades', 'hearts')[team]}): {picture}")
        if state.results and state.phase in (Phase.SCORING, Phase.GAME_OVER):
            items = self.hand_items(state)
            lines.append(
                "Last hand: "
                + "; ".join(f"+{i.points} to {team_words(i.team)}: {i.reason}" for i in items)
            )
            if state.results[-1].details["set"] != number:
                lines.append("That hand tied the set: both scores go back to 0 for overtime.")
        if state.winner is not None:
            summary = self.game_summary(state)["owed"]
            lines.append(
                f"{team_words(state.winner, start=True)} wins, "
                f"{state.totals[state.winner]} to "
                f"{state.totals[1 - state.winner]}."
            )
            if self.options.stake:
                lines.append(
                    f"{team_words(1 - state.winner, start=True)} owes "
                    f"{team_words(state.winner)} {summary['points']} x "
                    f"{self.options.stake} = {summary['amount']}."
                )
        return lines

    # --- what seats see --------------------------------------------------------------------

    def redact(self, state: State, action: Action, viewer: int) -> str:
        if isinstance(action, Give) and viewer != action.seat:
            assert isinstance(state, PaperlessState)
            receiver = (action.seat + 2) % 4
            complete = all(g is not None for g in state.gives)
            if viewer != receiver or not complete:
                return f"{action.seat}: give " + " ".join("?" * len(action.cards))
        return str(action)

    def redaction_epoch(self, state: State, viewer: int) -> object:
        """A pass is shown to its receiver once both passes are made (see ``redact``)."""
        assert isinstance(state, PaperlessState)
        return all(g is not None for g in state.gives)

    def public_info(self, state: State, viewer: int) -> dict[str, Any]:
        assert isinstance(state, PaperlessState)
        info: dict[str, Any] = {
            "bids": tuple(state.bids),
            "given": tuple(g is not None for g in state.gives),
            "spades_broken": state.trump_broken,
            "set": state.set_number,
            "overtime": state.set_number > 1,
            "limit": self.set_limit(state.set_number),
            "stake": self.options.stake,
        }
        mine = state.gives[viewer] if 0 <= viewer < 4 else None
        if mine is not None:
            info["gave"] = format_cards(mine)
            received = state.gives[(viewer + 2) % 4]
            if received is not None and all(g is not None for g in state.gives):
                info["received"] = format_cards(received)
        return info


class PaperlessWords(TableWords):
    """What Paperless Spades says at the table."""

    games = ("paperless-spades",)

    def bid(self, tricks: int) -> str:
        return "nil" if tricks == 0 else str(tricks)

    def rule(self, verb: str, obs: Observation) -> str | None:
        if verb == "give":
            return ("Pass three cards to your partner, face down, as your partner passes "
                    "three to you; the cards change hands once all four have passed.")
        if verb == "bid":
            return ("Bid the tricks you will take yourself (nil: none; partners may not both "
                    "bid nil). Your team's exact bid +2, more +1, fewer +2 to the others; a "
                    "nil made +2.")
        return super().rule(verb, obs)

    def phase_doing(self, obs: Observation) -> str:
        if obs.phase is Phase.EXCHANGE:
            return "to pass cards"
        return super().phase_doing(obs)

    def facts(self, obs: Observation) -> list[str]:
        info = obs.info
        out = []
        if info.get("gave"):
            out.append(f"you passed {cards_short(info['gave'])}")
        if info.get("received"):
            out.append(f"you received {cards_short(info['received'])}")
        if obs.phase is Phase.PLAY:
            out.append("spades broken" if info.get("spades_broken") else "spades not broken")
        if type(info.get("set")) is int and type(info.get("limit")) is int:
            kind = "an overtime set" if info.get("overtime") else "the set"
            limit = info["limit"]
            out.append(f"{kind} ends past {limit} point{'' if limit == 1 else 's'}")
        if info.get("stake"):
            out.append(f"stake {info['stake']} a point")
        return out
