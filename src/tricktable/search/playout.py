"""A hand played on by bots: the loop that a search bot's rollouts, its test positions and
its model of a game's future share."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..bots.base import Bot
from ..engine.game import Game, step
from ..engine.state import Phase, State

MAX_STEPS = 400
"""Actions taken at most in one call (no hand has so many)."""


def hand_over(state: State) -> bool:
    """Whether the hand in progress has been scored."""
    return state.phase in (Phase.SCORING, Phase.GAME_OVER)


def play_on(game: Game, state: State, bots: Mapping[int, Bot],
            until: Callable[[State], bool] = hand_over,
            finish: Callable[[State], bool] | None = None) -> None:
    """Play ``state`` on until ``until(state)`` holds: each decision made by the bot of the
    seat that makes it (from that seat's observation), an only legal action taken without
    asking. It stops early when no bot is there to choose or after ``MAX_STEPS``
    actions. ``finish``, tried before every decision, is a way to play on other than by
    the bots (pimc's double-dummy play of the last tricks); it says whether it did."""
    for _ in range(MAX_STEPS):
        if until(state):
            return
        if finish is not None and finish(state):
            continue
        chooser = game.controller(state, state.to_act)
        legal = [a for a in game.legal_actions(state) if game.controller(state, a.seat) == chooser]
        if len(legal) == 1:
            step(state, legal[0])
            continue
        bot = bots.get(chooser)
        if bot is None or not legal:
            return
        step(state, bot.choose(game.observe(state, chooser), legal))
