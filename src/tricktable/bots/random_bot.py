"""The ``random`` bot: a uniformly random legal action, from its own seeded stream."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action
from ..engine.observation import Observation
from .base import Bot, register_bot


@register_bot
class RandomBot(Bot):
    name = "random"
    description = "chooses uniformly among the legal actions"

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        # letting the chance pass is one more choice, as likely as each action
        i = self.rng.randrange(len(legal) + 1)
        return legal[i] if i < len(legal) else None
