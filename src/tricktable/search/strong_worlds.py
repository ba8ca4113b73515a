"""Worlds kept with their weights: importance sampling instead of rejection.

``search.worlds`` keeps a candidate world with probability equal to its weight (how
likely it makes what the other seats bid and played) over the largest weight seen, so
that the worlds kept are distributed as the weights say. Late in a hand most candidates
are dropped: each kept world there costs about seven replays of the hand with the rules
bot asked at every card (35 ms at 6 cards a hand on the project's machine), far more than
valuing it double dummy (about a millisecond). Here every candidate is kept with its
weight (the same replay, never cut short) and the bot takes weighted means: the same
expectation, with at least as much information per candidate as rejection keeps (the
effective number of worlds, (sum of weights)^2 / sum of squared weights, is never
smaller than the expected number kept by rejection from the same candidates).
"""

from __future__ import annotations

import random

from ..engine.observation import Observation
from ..engine.state import State
from .worlds import Worlds


class WeightedWorlds(Worlds):
    """Rebuilt hands for one seat's decisions, each with its weight (1 when ``weighted``
    is False or nothing the other seats chose is weighed)."""

    def draw_weighted(self, obs: Observation, rng: random.Random
                      ) -> tuple[State, float] | None:
        """A state of the current hand that looks to ``obs.seat`` exactly like the real
        one, and its weight; None when the hand cannot be rebuilt from what the seat
        knows. Raises ``InconsistentObservation`` when no deal fits the observation."""
        if obs is not self._observer:
            self._observer = obs
            self._kept = []
            self._weighs = self.weighted and self._has_weighed_choices(obs)
        if not self._weighs:
            state = self._rebuilt(obs, rng, None)
            return None if state is None else (state, 1.0)
        self._threshold = 0.0  # nothing is rejected: the weight is read whole
        state = self._rebuilt(obs, rng, self._watch)
        return None if state is None else (state, self._weight)
