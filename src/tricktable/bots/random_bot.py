"""The ``random`` bot: a uniformly random legal action, from its own seeded stream."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action
from ..engine.observation import Observation
from .base import Bot, register_bot


def _seat_of(text: str) -> str:
    return text.split(": ", 1)[0]


@register_bot
class RandomBot(Bot):
    name = "random"
    description = "chooses uniformly among the legal actions"

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        if any(a.verb == "rebid" for a in legal) and self._rebid_in_window(obs, legal[0].seat):
            others = [a for a in legal if a.verb != "rebid"]
            legal = others or legal
        return legal[self.rng.randrange(len(legal))]

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        if all(a.verb == "rebid" for a in legal) and self._rebid_in_window(obs, legal[0].seat):
            return None  # one change of bid per window is enough to exercise the rule
        # letting the chance pass is one more choice, as likely as each action
        i = self.rng.randrange(len(legal) + 1)
        return legal[i] if i < len(legal) else None

    @staticmethod
    def _rebid_in_window(obs: Observation, seat: int) -> bool:
        """Whether ``seat`` already changed its bid since it last bid (3B's rebid window
        stays open until the next player bids): read from the public history, so the
        bot needs no memory and a resumed game behaves the same."""
        me = str(seat)
        for text in reversed(obs.history):
            if _seat_of(text) == me and " rebid " in f" {text.split(': ', 1)[-1]} ":
                return True
            if _seat_of(text) == me and text.split(": ", 1)[-1].startswith("bid "):
                return False
        return False
