"""Double-dummy review of a game record: what each card played cost.

For every card played, the solver gives the tricks of the rest of the hand that the
player's side could take before the card and after it (every seat seeing every card and
playing its best from then on). A card after which the side can take fewer tricks threw
tricks away; the review names the cards that would have kept them. For each nil, whether
it could be made from the start of the play and which card lost it. For each hand, a par
line: the tricks each side could take from the first lead.

Sides are the solver's (``search.solver.side_of``): partnerships, declarer and dummy
against the defenders, or in the cut-throat games each seat against all the others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from .engine.actions import Bid, Play, Rebid, parse_action
from .engine.cards import card_str, parse_card
from .engine.errors import RecordError, TricktableError
from .engine.game import step
from .engine.records import Record, deal_from_record, game_for_record, replay
from .engine.state import Phase, State
from .engine.words import card_words
from .search.position import Move, Position, move_classes, position_of
from .search.position import play as play_move
from .search.solver import Solver, side_of


@dataclass
class CardReview:
    """One card played: the tricks of the rest of the hand (this trick included) that the
    player's side could take before it and after it."""

    trick: int  # 1-based
    seat: int
    card: str
    side: list[int]
    before: int
    after: int
    better: list[str] = field(default_factory=list)  # cards that kept ``before``

    @property
    def cost(self) -> int:
        return self.before - self.after


@dataclass
class NilReview:
    seat: int
    side: list[int]
    makeable: bool  # from the first lead, against the best defence
    made: bool
    lost_at: CardReview | None = None  # the card after which it could no longer be made


@dataclass
class HandReview:
    hand: int  # 1-based
    par: dict[str, int]  # side (seats joined by "+") -> tricks it could take from the lead
    cards: list[CardReview]
    nils: list[NilReview]
    thrown: dict[str, int]  # seat -> tricks its cards threw away

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for card, review in zip(out["cards"], self.cards, strict=True):
            card["cost"] = review.cost
        return out


def side_label(side: int) -> str:
    return "+".join(str(s) for s in range(side.bit_length()) if side >> s & 1)


def _seats(mask: int) -> list[int]:
    return [s for s in range(mask.bit_length()) if mask >> s & 1]


TABLE_BITS = 20
"""Each question's transposition table holds 2**20 positions (128 MB of address space,
touched as used): a 13-card question needs them (a nil's first question in the example
records searched 139 million positions with 2**16, 26 million with 2**20)."""

LONG_HAND_TABLE_BITS = 22
"""... and 2**22 (512 MB of address space) in a hand of more than 13 tricks (3B's 17
cards), where a review asks some 200 questions that keep filling a smaller table: the
17-card example took 54 s with 2**20 and 38 s with 2**22 (740 MB resident at most).
13-card hands took the same time with either."""


def _table_bits(tricks: int) -> int:
    return LONG_HAND_TABLE_BITS if tricks > 13 else TABLE_BITS


class _Solvers:
    """One solver per question (a side counted), so each keeps its table for the hand."""

    def __init__(self, table_bits: int) -> None:
        self._table_bits = table_bits
        self._by_side: dict[int, Solver] = {}

    def __call__(self, side: int) -> Solver:
        if side not in self._by_side:
            self._by_side[side] = Solver(table_bits=self._table_bits)
        return self._by_side[side]


def _hand_states(record: Record, hand_index: int) -> Iterator[tuple[State, Any]]:
    """Replay the record up to hand ``hand_index`` (0-based) and yield, for each action of
    that hand, the state before it and the action; finally the state after the hand with
    None."""
    game = game_for_record(record)
    state = game.new_game()
    for h, hand in enumerate(record.hands[: hand_index + 1]):
        where = f"hand {h + 1}"
        try:
            step(state, deal_from_record(game, hand, where))
            for text in hand.actions:
                action = parse_action(text)
                if h == hand_index:
                    yield state, action
                step(state, action)
        except TricktableError as e:  # IllegalAction, NotationError, RecordError
            raise RecordError(f"{where}: {e}") from None
    yield state, None


def _nil_seats(state: State, bids: dict[int, Bid | Rebid]) -> list[int]:
    """The seats playing a nil this hand: the game's own account after the hand (Dummy Hand
    Spades lists the nils that applied), else every seat whose last bid is zero."""
    if state.results:
        listed = state.results[-1].details.get("nils")
        if isinstance(listed, list):
            return sorted({int(n["hand"]) for n in listed if isinstance(n, dict)})
    return sorted(
        s for s, b in bids.items()
        if b.tricks == 0 and not (isinstance(b, Bid) and (b.mode or b.nils))
    )


CardProgress = Callable[[int, int, str], None]
"""Told (cards done, cards in the hand, what is being searched) as a review goes on."""


def _doing(state: State, play: Play) -> str:
    """What the progress says while a card is reviewed."""
    return f"trick {len(state.tricks) + 1}, seat {play.seat}'s {card_str(play.card)}"


def review_hand(
    record: Record, hand_index: int, progress: CardProgress | None = None
) -> HandReview:
    """The double-dummy review of one hand of a record (0-based index)."""
    plays: list[tuple[State, Play]] = []
    bids: dict[int, Bid | Rebid] = {}
    final: State | None = None
    for state, action in _hand_states(record, hand_index):
        if action is None:
            final = state
        elif isinstance(action, Bid | Rebid):
            bids[action.seat] = action
        elif isinstance(action, Play) and state.phase is Phase.PLAY:
            plays.append((state.copy(), action))
    assert final is not None
    def tell(done: int, doing: str) -> None:
        if progress:
            progress(done, len(plays), doing)

    # the hand and its number of cards shown at once: the par's searches come first and
    # can take a while (seconds in a 17-card 3B hand)
    tell(0, "the par")
    solvers = _Solvers(_table_bits(final.tricks_per_hand))
    cards: list[CardReview] = []
    par: dict[str, int] = {}
    if plays:
        first = plays[0][0]
        pos = position_of(first)
        holding = sum(1 << s for s in range(pos.num_seats) if pos.hands[s])
        sides = sorted({side_of(first, s) & holding
                        for s in range(pos.num_seats) if pos.hands[s]})
        if len(sides) == 2 and sides[0] | sides[1] == holding:
            # two sides sharing every trick: one question answers both. Its search starts
            # at the tricks the side took in the play (mostly near double-dummy best),
            # not at an estimate from the cards: a search that misses the value costs a
            # whole search more. (A seat alone against the others takes more in the play
            # than against a coalition, so there the estimate is the better start.)
            taken = sum(final.won[s] for s in _seats(sides[0]))
            value = solvers(sides[0]).tricks(pos, sides[0], guess=taken)
            par = {side_label(sides[0]): value, side_label(sides[1]): pos.tricks_left - value}
            cards = _review_as_one_question(plays, solvers(sides[0]), sides[0], holding,
                                            value, tell)
        else:
            for side in sides:
                label = side_label(side)
                tell(0, f"the par of seat{'s' if '+' in label else ''} {label}")
                par[label] = solvers(side).tricks(pos, side)
            known = {side: (par[side_label(side)], 0) for side in sides}
            for i, (state, play) in enumerate(plays):
                doing = _doing(state, play)
                tell(i, doing)
                cards.append(_review_card(state, play, solvers, known,
                                          partial(_tell_other_cards, tell, i, doing)))
    tell(len(plays), "done")
    nils = [_review_nil(seat, plays, cards, final) for seat in _nil_seats(final, bids)] \
        if plays else []
    thrown: dict[str, int] = {}
    for c in cards:
        thrown[str(c.seat)] = thrown.get(str(c.seat), 0) + c.cost
    return HandReview(hand_index + 1, par, cards, nils, thrown)


def _tell_other_cards(
    tell: Callable[[int, str], None], done: int, doing: str, asked: int, classes: int
) -> None:
    """Progress while the other cards of a card that lost tricks are tried: each is a
    whole search (seconds each at the first trick of a 17-card 3B hand)."""
    tell(done, f"{doing}: other cards {asked} of {classes}")


def _review_card(
    state: State, play: Play, solvers: _Solvers, known: dict[int, tuple[int, int]],
    asking: Callable[[int, int], None],
) -> CardReview:
    """``known``: per side, its last value found and the tricks it had won then; the value
    now is most likely that less the tricks won since, so the searches start there.
    ``asking``: told (question, questions) as the other cards are tried."""
    pos = position_of(state)
    side = side_of(state, play.seat)
    solver = solvers(side)
    won = sum(state.won[s] for s in _seats(side))
    guess = -1
    if side in known:
        value, won_then = known[side]
        guess = max(0, value - (won - won_then))
    before = solver.tricks(pos, side, side, guess)
    # The side plays for the most tricks, so a card keeps ``before`` or loses some: one
    # zero-window test a card tells which, and only a card that lost needs its value.
    played = Move(play.card, play.ace_low)
    after = before if _reaches(solver, pos, side, before, played) else _value_after(
        solver, pos, played, side, before - 1)
    known[side] = (after, won)
    better = []
    if after < before:
        better = _better_moves(pos, played, partial(_reaches, solver, pos, side, before),
                               asking=asking)
    return CardReview(
        len(state.tricks) + 1, play.seat, card_str(play.card) + (" low" if play.ace_low else ""),
        _seats(side), before, after, better,
    )


def _better_moves(
    pos: Position, played: Move, reaches: Callable[[Move], bool], keeps_if: bool = True,
    asking: Callable[[int, int], None] | None = None,
) -> list[str]:
    """The moves that would have kept the value the played card lost, as cards: those for
    which ``reaches`` (a question to the solver) answers ``keeps_if``. One question per
    class of equivalent cards: the played card's class lost, and any other class answers
    as its first card does. ``asking`` is told (question, questions) before each."""
    better = []
    others = [moves for moves in move_classes(pos) if played not in moves]
    for asked, moves in enumerate(others, 1):
        if asking:
            asking(asked, len(others))
        if reaches(moves[0]) == keeps_if:
            better += [card_str(m.card) + (" low" if m.low else "") for m in moves]
    return better


def _after(pos: Position, move: Move, side: int) -> tuple[Position, int]:
    """The position after ``move``, and the trick it gave ``side`` (1 or 0)."""
    child, winner = play_move(pos, move)
    return child, 1 if winner >= 0 and side >> winner & 1 else 0


def _reaches(solver: Solver, pos: Position, side: int, value: int, move: Move) -> bool:
    """Does ``side`` still take ``value`` tricks of the rest of the hand after ``move``?"""
    child, gained = _after(pos, move, side)
    return solver.at_least(child, side, side, value - gained)


def _value_after(solver: Solver, pos: Position, move: Move, side: int, guess: int) -> int:
    """The tricks of the rest of the hand ``side`` takes after ``move``, this trick's too."""
    child, gained = _after(pos, move, side)
    return gained + solver.tricks(child, side, side, max(0, guess - gained))


def _review_as_one_question(
    plays: list[tuple[State, Play]], solver: Solver, canon: int, holding: int, value: int,
    tell: Callable[[int, str], None],
) -> list[CardReview]:
    """The cards of a hand whose two sides share every trick, reviewed through the tricks
    of one of them (``canon``; the other side takes the rest), so that one table serves
    every card, and the value after a card, searched for, is the value before the next:
    one search a card. ``value``: canon's tricks from the first lead."""
    cards: list[CardReview] = []
    for i, (state, played_card) in enumerate(plays):
        doing = _doing(state, played_card)
        tell(i, doing)
        pos = position_of(state)
        left = pos.tricks_left
        played = Move(played_card.card, played_card.ace_low)
        nxt, gained = _after(pos, played, canon)
        after_canon = gained + solver.tricks(nxt, canon, canon, max(0, value - gained))
        side = side_of(state, played_card.seat)
        mine = side & holding == canon
        before = value if mine else left - value
        after = after_canon if mine else left - after_canon
        better = []
        if after < before:
            # the side to play keeps ``before`` (it can do no better): canon reaches its
            # value, or the other side keeps canon below it
            reaches = partial(_reaches, solver, pos, canon, value if mine else value + 1)
            better = _better_moves(pos, played, reaches, mine,
                                   partial(_tell_other_cards, tell, i, doing))
        cards.append(CardReview(
            len(state.tricks) + 1, played_card.seat,
            card_str(played_card.card) + (" low" if played_card.ace_low else ""),
            _seats(side), before, after, better,
        ))
        value = after_canon - gained
        following = plays[i + 1][0] if i + 1 < len(plays) else None
        if following is not None and position_of(following) != nxt:
            value = solver.tricks(position_of(following), canon, canon, value)
    return cards


def _review_nil(
    seat: int, plays: list[tuple[State, Play]], cards: list[CardReview], final: State
) -> NilReview:
    first = plays[0][0]
    side = side_of(first, seat)
    solver = Solver(table_bits=_table_bits(first.tricks_per_hand))
    makeable = solver.nil_makeable(position_of(first), seat, side)
    review = NilReview(seat, _seats(side), makeable, final.won[seat] == 0)
    if not makeable:
        return review
    for i in range(len(plays)):
        nxt = plays[i + 1][0] if i + 1 < len(plays) else None
        if nxt is None or nxt.won[seat] > 0:
            still = nxt is None and final.won[seat] == 0
        else:
            still = solver.nil_makeable(position_of(nxt), seat, side)
        if not still:
            review.lost_at = cards[i]
            break
    return review


def review_record(
    record: Record, hands: list[int] | None = None,
    progress: Callable[[int, int, int, str], None] | None = None,
) -> list[HandReview]:
    """Reviews of the record's hands (1-based numbers; all by default). ``progress`` is
    called with (hand, cards done, cards in the hand, what is being searched).

    The whole record is replayed first: a record with an illegal or malformed action
    anywhere is refused (RecordError naming the hand, the action and the rule), whichever
    hands are asked for."""
    replay(record)
    numbers = list(range(1, len(record.hands) + 1)) if hands is None else hands
    for n in numbers:
        if not 1 <= n <= len(record.hands):
            raise RecordError(f"the record has hands 1 to {len(record.hands)}, not {n}")
    out = []
    for n in numbers:
        out.append(review_hand(record, n - 1, partial(progress, n) if progress else None))
    return out



def review_words(review: HandReview, record: Record) -> dict[str, Any]:
    """A hand's review in sentences naming the record's players, for people (the replay
    viewer): the par, each card that cost its side tricks (with the frame of the hand it
    was played at, ``at``, and the cards that would have kept them), the nils, and a line
    when every card kept its tricks."""
    names = {int(s): n for s, n in record.players.items() if str(s).isdigit()}
    game = game_for_record(record)

    def who(seat: int) -> str:
        if seat not in game.player_seats:
            return "the dummy"
        return names.get(seat) or game.seat_name(seat)

    def side(label: str) -> str:
        return " & ".join(who(int(s)) for s in label.split("+"))

    def tricks(n: int) -> str:
        return f"{n} trick{'' if n == 1 else 's'}"

    par = [f"{side(label)} {tricks(value)}" for label, value in review.par.items()]
    actions = record.hands[review.hand - 1].actions
    cards = []
    for c in review.cards:
        if c.cost <= 0:
            continue
        at = next((i + 1 for i, text in enumerate(actions)
                   if text.split()[:3] == [f"{c.seat}:", "play", c.card]), None)
        kept = [card_words(parse_card(b)) for b in c.better]
        line = (f"Trick {c.trick}: {who(c.seat)}'s {card_words(parse_card(c.card))[4:]} cost "
                f"{tricks(c.cost)}")
        line += f"; {_either(kept)} would have kept {'it' if c.cost == 1 else 'them'}." \
            if kept else "."
        cards.append({"trick": c.trick, "seat": c.seat, "card": c.card, "cost": c.cost,
                      "at": at, "line": line})
    nils = []
    for n in review.nils:
        if not n.makeable:
            nils.append(f"{who(n.seat)}'s nil could not be made against the best defence.")
        elif n.made:
            nils.append(f"{who(n.seat)}'s nil was made.")
        elif n.lost_at is not None:
            nils.append(f"{who(n.seat)}'s nil could be made, until trick {n.lost_at.trick}: "
                        f"{card_words(parse_card(n.lost_at.card))}.")
    return {
        "hand": review.hand,
        "par": ("From the first lead, double dummy: " + ", ".join(par) + ".") if par else None,
        "cards": cards,
        "nils": nils,
        "summary": ("Every card kept its side's tricks." if not cards else
                    f"{len(cards)} card{'' if len(cards) == 1 else 's'} cost tricks."),
    }


def _either(things: list[str]) -> str:
    if len(things) <= 1:
        return "".join(things)
    return ", ".join(things[:-1]) + " or " + things[-1]
