"""The ``pimc`` bot: perfect-information Monte Carlo, the endgames played double dummy.

Like ``montecarlo`` it weighs each card (and each bid, pass, trump or keep) in worlds
sampled from its own observation, the same worlds for every choice, and keeps the choice
with the best mean score for its side at the end of the hand, counted as the game counts
it (contract, bags, nils, exact bids, books). What differs is how the rest of the hand is
played in each world: once no hand holds more than ``ENDGAME_CARDS`` cards, every seat
plays double dummy, seeing every card of that world (the solver's line,
``search.claims.play_out``: the bot's side keeps its best number of tricks, the others
play their best against it). Before that, and whenever a nil is still at stake, ``rules``
bots play, as in montecarlo.

Why only the endgame: the solver answers in milliseconds at eight cards a hand but takes
seconds at thirteen (docs/benchmarks.md, the solver benchmark), and a decision weighs
several choices in a dozen worlds. Why not with a nil at stake: the double-dummy line
plays for the side's tricks, and a nil is won or lost by one seat's.

It reads only its observation (the worlds come from the sampler); with a fixed number of
worlds its choice follows from its seed and what it sees (tests/test_pimc.py deals the
hidden cards again and gets the same card).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..bots.base import register_bot
from ..engine.actions import Bid, Rebid
from ..engine.state import Phase, State
from .montecarlo import MonteCarloBot

if TYPE_CHECKING:
    from .solver import Solver

ENDGAME_CARDS = 6
"""Cards a hand may hold at most for the rest of the hand to be played double dummy."""


def nil_at_stake(state: State) -> bool:
    """Whether a seat that bid nil (or zero) this hand has taken no trick yet."""
    for action in state.actions:
        if isinstance(action, Bid):
            seats = action.nils or (
                (action.seat,) if action.tricks == 0 and not action.mode else ())
        elif isinstance(action, Rebid):
            seats = (action.seat,) if action.tricks == 0 else ()
        else:
            continue
        if any(state.won[s] == 0 for s in seats):
            return True
    return False


@register_bot
class PimcBot(MonteCarloBot):
    name = "pimc"
    description = ("like montecarlo, but in each sampled world the last "
                   f"{ENDGAME_CARDS} tricks are played double dummy (every card seen) "
                   "instead of by rules bots, unless a nil is at stake")

    _solver: Solver | None = None

    def _finish_play(self, state: State, me: int) -> bool:
        if state.phase is not Phase.PLAY or max(state.hand_size) > ENDGAME_CARDS:
            return False
        if nil_at_stake(state):
            return False
        from .claims import play_out
        from .solver import Solver

        if self._solver is None:
            # small: endgames only; kept between worlds, whose positions share its entries
            self._solver = Solver(table_bits=16)
        play_out(state, me, self._solver)
        return True
