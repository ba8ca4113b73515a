"""The ``rules`` bot: shared card-play heuristics plus a small strategy per game.

Each game's strategy (a ``Strategy`` subclass registered under the game's name) makes the
decisions that are the game's own: bids, nils and zeros, passes and exchanges, the
auction, trumps and direction, keep or swap; and it tells the shared card play
(``cardplay.choose_play``) what its side wants from the rest of the hand. Strategies read
only the observation: the seat's cards, what it may see, the public record of the hand,
and ``obs.info``, the game's public facts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from ..engine.actions import Action, Bid, Play
from ..engine.game import Game
from ..engine.observation import Observation
from ..engine.order import CardOrder
from .base import Bot, register_bot
from .cardplay import CardView, Goals, HandMemo, choose_play


class Strategy:
    """One game's decisions. Subclasses set ``games`` and override the hooks."""

    games: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        self.game = game
        self.seat = seat
        self.rng = rng
        self.memo = HandMemo()

    # --- hooks ------------------------------------------------------------------------------

    def decide(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """Every decision that is not the play of a card. Default: the first legal one."""
        return legal[0]

    def order(self, obs: Observation) -> CardOrder:
        """The card order of the hand being played."""
        return self.game.default_order

    def cycle(self, obs: Observation) -> tuple[int, ...]:
        """The seats in the order they play to a trick (clockwise among seats with cards)."""
        n = len(obs.hand_sizes)
        in_trick = {s for s, _ in obs.trick}
        return tuple(s for s in range(n) if obs.hand_sizes[s] > 0 or s in in_trick)

    def goals(self, obs: Observation, view: CardView, actor: int) -> Goals:
        """What the side of ``actor`` (a seat this bot plays) wants from the rest of the hand.
        Default: win as many tricks as possible."""
        return Goals(frozenset({actor}), want=99, overtricks_cost=False)

    def play(self, obs: Observation, legal: Sequence[Action]) -> Action:
        # plays come first in a legal list: when the last is a play, all of them are
        plays = legal if isinstance(legal[-1], Play) else [a for a in legal if isinstance(a, Play)]
        if not plays:
            return self.decide(obs, legal)
        return self.pick_play(obs, plays, self.order(obs))

    def pick_play(self, obs: Observation, plays: Sequence[Action], order: CardOrder) -> Action:
        """One of ``plays`` (plain plays of one seat) by the card-play heuristics."""
        if len(plays) == 1:
            return plays[0]  # no choice (the last trick, a singleton to follow with)
        view = CardView(obs, order, self.game.deck, self.cycle(obs), self.memo)
        return choose_play(view, self.goals(obs, view, plays[0].seat), plays)

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        """Out-of-turn chances (changes of bid, renege calls). Default: let them pass."""
        return None

    # --- entry point ------------------------------------------------------------------------

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        # plays come first in a legal list: the scan is for the rare list that starts
        # otherwise
        if isinstance(legal[0], Play) or any(isinstance(a, Play) for a in legal):
            return self.play(obs, legal)
        return self.decide(obs, legal)


def listed_bid(legal: Sequence[Action], seat: int, tricks: int, nils: tuple[int, ...] = ()
               ) -> Action:
    """``Bid(seat, tricks, nils)``, as the very object ``legal`` lists if it does: the bot's
    own check and the table's find a listed action by identity, where an equal new one is
    compared field by field with every action listed before it (Dummy Hand lists dozens
    of bids: about 30 us a bid)."""
    for a in legal:
        if (type(a) is Bid and a.tricks == tricks and a.nils == nils and a.seat == seat
                and not a.mode and not a.blind):
            return a
    return Bid(seat, tricks, nils)


_STRATEGIES: dict[str, type[Strategy]] = {}


def register_strategy(cls: type[Strategy]) -> type[Strategy]:
    """Class decorator: the rules bot's strategy for the games named in ``cls.games``."""
    for name in cls.games:
        _STRATEGIES[name] = cls
    return cls


def strategy_for(game: Game, seat: int, rng: random.Random) -> Strategy:
    """The game's strategy; a game without one gets the generic card player."""
    cls = _STRATEGIES.get(game.name, Strategy)
    return cls(game, seat, rng)


def has_strategy(game_name: str) -> bool:
    return game_name in _STRATEGIES


@register_bot
class RulesBot(Bot):
    name = "rules"
    description = "bids by trick estimation and plays by card-play rules of thumb"

    def __init__(self, game: Game, seat: int, seed: int | str = 0) -> None:
        super().__init__(game, seat, seed)
        self.strategy = strategy_for(game, seat, self.rng)

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        action = self.strategy.choose(obs, legal)
        # A strategy builds its choice from ``legal``; keep to that contract. Tested by
        # identity first (most choices are one of the listed actions itself): ``in`` alone
        # compared every action before it field by field, up to 1.5 us a card.
        assert any(a is action for a in legal) or action in legal, (
            f"rules bot chose {action}, which is not legal"
        )
        return action

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        action = self.strategy.offer(obs, legal)
        assert action is None or action in legal, f"rules bot chose {action}, not offered"
        return action
