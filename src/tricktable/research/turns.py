"""Whose turn it is, for environments that give one seat a turn at a time.

The engine lets a seat act out of turn in a few places (a 3B rebid in its window, a
renege call in honour mode); the table runner offers those actions to the seats that
have them before the seat to act chooses. Sequential environments do the same: each seat
with such an offer gets a turn of its own, in which it may also ``decline``; once every
offer is declined (or an action changes the state), the seat to act chooses.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from ..engine.actions import Action
from ..engine.game import Game
from ..engine.state import State


@dataclass(frozen=True)
class Turn:
    seat: int
    """The seat whose agent acts (a dummy's declarer acts for the dummy)."""
    legal: tuple[Action, ...]
    """The actions that agent may take now."""
    offered: bool
    """Out of turn: the agent may also decline."""


def offered(game: Game, state: State, seat: int) -> bool:
    """``seat`` may act out of turn now (it is not the seat that chooses)."""
    return game.controller(state, state.to_act) != seat and any(
        game.controller(state, a.seat) == seat for a in game.legal_actions(state)
    )


def next_turn(game: Game, state: State, declined: Collection[int]) -> Turn | None:
    """The next turn, or None when nobody may act (between hands, or the game is over)."""
    legal = game.legal_actions(state)
    if not legal:
        return None
    chooser = game.controller(state, state.to_act)
    offers = [
        s for s in game.player_seats
        if s != chooser and s not in declined and offered(game, state, s)
    ]
    seat = offers[0] if offers else chooser
    mine = tuple(a for a in legal if game.controller(state, a.seat) == seat)
    return Turn(seat, mine, bool(offers))
