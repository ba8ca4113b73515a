"""Claims: a seat says its side takes every remaining trick (or a number of them) whatever
the others do. The solver decides; a proven claim is played out card by card along the
solver's line, through ``step``, so the record holds ordinary plays (records stay v1).

Used by the terminal and, later, the web table: both own the state, so they can ask.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.actions import Play
from ..engine.game import step
from ..engine.state import Phase, State
from .agreed_claims import claim_size
from .position import play, position_of
from .solver import Solver, side_of


@dataclass(frozen=True)
class ClaimVerdict:
    """The answer to a claim: proven or not, the tricks claimed and the tricks the
    claimer's side can be sure of (double dummy), and a sentence for the table."""

    proven: bool
    claimed: int
    sure: int
    message: str


def judge_claim(state: State, seat: int, tricks: int | None = None,
                solver: Solver | None = None) -> ClaimVerdict:
    """Whether ``seat``'s side surely takes ``tricks`` of the tricks left (default: all of
    them, the trick in progress included), every card being known and the other seats
    playing their best against it."""
    if state.phase is not Phase.PLAY:
        return ClaimVerdict(False, 0, 0, "a claim is made during the play of the cards")
    try:
        claimed, left = claim_size(state, tricks)
    except ValueError as e:
        return ClaimVerdict(False, 0 if tricks is None else tricks, 0, str(e))
    pos = position_of(state)
    side = side_of(state, seat)
    sure = (solver or Solver(table_bits=16)).tricks(pos, side)
    who = "your side" if side != 1 << seat else "you"
    if sure >= claimed:
        return ClaimVerdict(True, claimed, sure, f"claim accepted: {who} take {claimed} of "
                            f"the {left} tricks left whatever the others play")
    return ClaimVerdict(
        False, claimed, sure,
        f"claim refused: it is not proven; against the best defence {who} take {sure} of "
        f"the {left} tricks left, not {claimed}",
    )


def play_out(state: State, seat: int, solver: Solver | None = None) -> list[Play]:
    """Play the rest of the hand along the solver's line: the claimer's side keeps its
    best result, the others play their best against it. Every play goes through ``step``
    on ``state``; the plays are returned in order."""
    solver = solver or Solver(table_bits=16)
    side = side_of(state, seat)
    played: list[Play] = []
    pos = position_of(state)
    while state.phase is Phase.PLAY:
        if pos.to_act != state.to_act or pos.hands != tuple(state.hands):
            pos = position_of(state)  # (the position follows the state; read it again)
        values = solver.move_values(pos, side)
        mover = pos.to_act
        pick = max if side >> mover & 1 else min
        best = pick(v for _, v in values)
        move = next(m for m, v in values if v == best)
        action = Play(mover, move.card, move.low)
        step(state, action)
        played.append(action)
        # the hand's play rules hold to its end: follow the play, do not read them again
        pos = play(pos, move)[0]
    return played
