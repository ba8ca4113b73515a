"""Claims where the solver is not installed, settled as people settle them at a real
table: the claimer shows his cards, the others agree or say "play on".

Two questions, in plain Python (no numba), sized for the last tricks of a hand:

- ``claim_is_sure``: whether the claimer's side takes the tricks claimed whatever the
  others play, every card known. The bots answer a claim with it (they agree only to a
  claim that is sure); it gives up (``None``) past a number of positions, and a bot
  that cannot tell says "play on", as a careful player would.
- ``line_giving``: a legal way to play out the rest of the hand in which the claimer's
  side takes the tricks agreed, so that the record holds ordinary plays, as a claim the
  solver proves does (``claims.play_out``).
"""

from __future__ import annotations

from ..engine.actions import Play
from ..engine.state import Phase, State
from .position import Move, Position, move_classes, play, position_of
from .solver import side_of

SURE_POSITIONS = 50_000
"""The most positions ``claim_is_sure`` looks at before it gives up: under a second of
plain Python (it holds the table meanwhile), enough for the last three or four tricks of
four hands, and often for more when the claim is plainly sure."""
LINE_POSITIONS = 50_000
"""The most positions ``line_giving`` looks at for a line giving exactly the tricks
agreed, before it settles for the closest it found."""


def claim_size(state: State, tricks: int | None) -> tuple[int, int]:
    """The tricks a claim asks for (``None``: every one left) and the tricks left, the
    trick in progress included; ValueError, in a sentence, for a number outside them."""
    left = position_of(state).tricks_left
    claimed = left if tricks is None else tricks
    if not 0 < claimed <= left:
        raise ValueError(f"claim between 1 and the {left} tricks left, not {claimed}")
    return claimed, left


class _TooBig(Exception):
    """The question needs more positions than allowed."""


def claim_is_sure(state: State, seat: int, tricks: int,
                  limit: int = SURE_POSITIONS) -> bool | None:
    """Whether ``seat``'s side surely takes ``tricks`` of the tricks left (the trick in
    progress included), every card known and the others playing their best against it;
    None when that takes more than ``limit`` positions to tell."""
    if state.phase is not Phase.PLAY:
        return False
    side = side_of(state, seat)
    budget = [limit]
    try:
        return _sure(position_of(state), tricks, side, budget)
    except _TooBig:
        return None


def _sure(pos: Position, need: int, side: int, budget: list[int]) -> bool:
    if need <= 0:
        return True
    if pos.tricks_left < need:
        return False
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooBig
    ours = side >> pos.to_act & 1
    classes = move_classes(pos)  # one card of each class of equal cards, low to high
    for moves in reversed(classes) if ours else classes:  # a claimer's high cards first
        after, winner = play(pos, moves[0])
        gained = 1 if winner >= 0 and side >> winner & 1 else 0
        made = _sure(after, need - gained, side, budget)
        if ours and made:
            return True  # the side has a card that makes it
        if not ours and not made:
            return False  # the others have a card that stops it
    return not ours


def line_giving(state: State, seat: int, tricks: int,
                limit: int = LINE_POSITIONS) -> list[Play]:
    """The plays (in order, for ``step``) of a legal way to finish the hand in which
    ``seat``'s side takes exactly ``tricks`` of the tricks left, tried with the side's
    high cards first and the others' low ones. Where no line gives exactly that (or none
    is found within ``limit`` positions), the line found giving the nearest number above
    it, else below it. ``state`` is not changed."""
    side = side_of(state, seat)
    start = position_of(state)
    best: list[tuple[int, list[tuple[int, Move]]]] = []  # (distance, line)
    budget = [limit]

    def distance(taken: int) -> int:
        # the nearest number at or above the claim (the cards may force the side to take
        # more, as they would at the table), else the nearest below
        return taken - tricks if taken >= tricks else 100 + tricks - taken

    def search(pos: Position, taken: int, line: list[tuple[int, Move]]) -> bool:
        if pos.tricks_left == 0:
            if not best or distance(taken) < best[0][0]:
                best[:] = [(distance(taken), list(line))]
            return taken == tricks
        budget[0] -= 1
        if budget[0] < 0 or (taken > tricks and best and best[0][0] <= taken - tricks):
            return False  # out of time, or past a line as near as this one can be
        ours = side >> pos.to_act & 1
        classes = move_classes(pos)
        # the side's high cards first while it still needs tricks, else low ones
        wants = ours if taken < tricks else not ours
        for moves in (reversed(classes) if wants else classes):
            move = moves[-1] if wants else moves[0]
            after, winner = play(pos, move)
            gained = 1 if winner >= 0 and side >> winner & 1 else 0
            line.append((pos.to_act, move))
            if search(after, taken + gained, line):
                return True
            line.pop()
            if budget[0] < 0:
                return False
        return False

    search(start, 0, [])
    return [Play(s, m.card, m.low) for s, m in best[0][1]]
