"""The bot interface and the registry of bots by name.

A bot plays the seats one player controls. It is built for one game (the rules object:
options, deck, card order; never a state) and one seat, with its own seed, and each time
that seat has a choice it is handed the seat's ``Observation`` and the legal actions and
returns one of them. It never sees the state, so it can know no more than a person in
that seat would.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.errors import OptionError
from ..engine.game import Game
from ..engine.observation import Observation

_NOTHING = object()


class LazyRandom(random.Random):
    """A random stream that is seeded when first drawn from. A table reseeds every bot
    before every decision (see ``Bot.reseed``) and most decisions draw nothing, while
    seeding from text costs about 10 us (a hash of the text): the draws, when they come,
    are the very ones an eagerly seeded stream gives."""

    _pending: object = _NOTHING

    def seed(self, a: object = None, version: int = 2) -> None:
        self._pending = a
        self.gauss_next = None  # as seeding does: no normal deviate left over

    def _resolve(self) -> None:
        a, self._pending = self._pending, _NOTHING
        super().seed(a)  # type: ignore[arg-type]

    def random(self) -> float:
        if self._pending is not _NOTHING:
            self._resolve()
        return super().random()

    def getrandbits(self, k: int) -> int:
        if self._pending is not _NOTHING:
            self._resolve()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        if self._pending is not _NOTHING:
            self._resolve()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._pending = _NOTHING
        super().setstate(state)


DEFAULT_THINK = 0.5
"""Seconds a search bot thinks per decision at the terminal and at web tables, unless
told otherwise (``--think``)."""


class Bot:
    """Base of every bot. Subclasses set ``name`` and implement ``choose``."""

    name = ""
    description = ""
    searches = False
    """True for bots that search (and so take their thinking time); the others answer in
    a few milliseconds."""
    think: float | None = None
    """Seconds the bot may spend on one decision (search bots; the others are quick and
    ignore it). None: a fixed amount of search, the same on every machine, so that its
    choices follow from its seed and the position alone (tests, reproducible
    simulations)."""

    def __init__(self, game: Game, seat: int, seed: int | str = 0) -> None:
        self.game = game
        self.seat = seat
        # One stream per bot and seat, so that bots at a table never share random draws
        # and a game is reproducible from its seed.
        self.seed = seed
        self.rng: random.Random = LazyRandom(f"{seed}/bot/{self.name}/{seat}")

    def reseed(self, position: str) -> None:
        """Restart the bot's stream for one decision, named by its place in the game (hand
        and action number). A table does this before every choice, so that a game resumed
        from its record, or a server rebuilt from its log, makes the very choices it would
        have made: the stream depends on where the game is, not on what came before."""
        self.rng.seed(f"{self.seed}/bot/{self.name}/{self.seat}/{position}")

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty) for the seat to act, which this bot controls."""
        raise NotImplementedError

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        """One of ``legal`` to act out of turn (a change of bid, a renege call), or None to
        let the chance pass. Default: let it pass."""
        return None


BotFactory = Callable[[Game, int, "int | str"], Bot]

_BOTS: dict[str, type[Bot]] = {}


def register_bot(cls: type[Bot]) -> type[Bot]:
    """Class decorator: make a bot available by its ``name``."""
    if cls.name in _BOTS and _BOTS[cls.name] is not cls:
        raise ValueError(f"two bots are named {cls.name!r}")
    _BOTS[cls.name] = cls
    return cls


def bot_names() -> list[str]:
    return sorted(_BOTS)


def bot_class(name: str) -> type[Bot]:
    try:
        return _BOTS[name]
    except KeyError:
        known = ", ".join(sorted(_BOTS))
        raise OptionError(f"unknown bot {name!r}; the bots are: {known}") from None


def make_bot(
    name: str, game: Game, seat: int, seed: int | str = 0, think: float | None = None
) -> Bot:
    """A bot by its registered name, for one game and seat; ``think``: see ``Bot.think``."""
    if think is not None and not think > 0:
        raise OptionError(f"a bot's thinking time must be more than 0 seconds, not {think}")
    bot = bot_class(name)(game, seat, seed)
    bot.think = think
    return bot
