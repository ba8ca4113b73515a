"""The ``ismcts`` bot: information-set Monte Carlo tree search for the card play.

Built for the games where every seat scores for itself (3B with 3 to 5 players, Dummy
Hand Spades' two defenders), where a two-sided double-dummy value is not what a seat
plays for. One tree is grown from the bot's own decision (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012). Each iteration:

1. deals a world from the bot's own observation (every hidden card placed consistently
   with what it has seen, the worlds weighted by the other seats' bids: ``search.worlds``)
   and rebuilds the hand in it;
2. walks down the tree, every seat in turn choosing among the cards it may play *in that
   world* by UCB1, the exploration counted over the iterations where a card was there to
   be played (its availability), until it meets a card never tried: that one is added;
3. plays the hand to its end with ``rules`` bots for every seat;
4. gives every card on the path what the hand was worth to the side that chose it (its
   score less the others' mean, ``montecarlo.OBJECTIVES``): each seat plays for its own
   side, not for the bot's.

The card chosen is the one tried most often. Bids and the other choices besides cards
are weighed as montecarlo weighs them.

How many iterations: ``ITERATIONS`` when the bot has no thinking time (its choice then
follows from its seed and what it sees, tests/test_ismcts.py), else as many as fit in it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..bots.base import register_bot
from ..engine.actions import Action, Play
from ..engine.game import Game, step
from ..engine.observation import Observation
from ..engine.state import Phase, State
from .montecarlo import MonteCarloBot, hand_value
from .sampler import InconsistentObservation

ITERATIONS = 240
"""Iterations per card when the bot has no thinking time (reproducible play)."""
MAX_ITERATIONS = 5000
"""Iterations per card at most when it has."""
EXPLORATION = 0.7
"""UCB1's exploration weight, in units of the spread of the scores seen so far."""


class _Node:
    """A card played in the tree: by which side (its label), how often the card could be
    played when its parent was visited, how often it was tried, and the scores its side
    got when it was."""

    __slots__ = ("available", "children", "label", "total", "visits")

    def __init__(self, label: str) -> None:
        self.label = label
        self.children: dict[Action, _Node] = {}
        self.available = 0
        self.visits = 0
        self.total = 0.0


@register_bot
class IsmctsBot(MonteCarloBot):
    name = "ismcts"
    description = ("information-set Monte Carlo tree search: grows one tree of the card "
                   "play over worlds sampled from what it sees, each seat playing for its "
                   "own score, hands finished by rules bots")
    iterations = ITERATIONS

    def __init__(self, game: Game, seat: int, seed: int | str = 0) -> None:
        super().__init__(game, seat, seed)
        self.last_iterations = 0
        """How many iterations the last card decision ran."""

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        if len(plays) != len(legal) or len(plays) < 2:
            return super().choose(obs, legal)
        self.last_values = {}
        root = self.search(obs)
        tried = {a: root.children[a] for a in plays if a in root.children} if root else {}
        if not tried:
            return self.rules.choose(obs, legal)
        self.last_values = {str(a): n.total / n.visits for a, n in tried.items() if n.visits}
        most = max(n.visits for n in tried.values())
        return next(a for a in plays if a in tried and tried[a].visits == most)

    def search(self, obs: Observation) -> _Node | None:
        """Grow the tree from ``obs``; its root, or None when no world could be rebuilt."""
        self.weigh_the_game(obs)
        rng = random.Random(self.rng.random())
        root = _Node("")
        budget = self.think
        start = time.perf_counter()
        spread = _Spread()
        self.last_iterations = 0
        for i in range(self.iterations if budget is None else MAX_ITERATIONS):
            if budget is not None and i and time.perf_counter() - start > budget:
                break
            try:
                state = self.worlds_drawn.draw(obs, rng)
            except InconsistentObservation:
                return None
            if state is None:
                return None
            self._iterate(root, state, rng, spread, f"{i}")
            self.last_iterations += 1
        return root

    def _iterate(self, root: _Node, state: State, rng: random.Random, spread: _Spread,
                 stream: str) -> None:
        game = self.game
        hand = state.hand_number
        node = root
        path: list[_Node] = []
        while state.phase is Phase.PLAY and state.hand_number == hand:
            chooser = game.controller(state, state.to_act)
            plays = [a for a in game.legal_actions(state)
                     if isinstance(a, Play) and game.controller(state, a.seat) == chooser]
            if not plays:
                break  # something else is asked first (a call): the rollout answers it
            for a in plays:
                child = node.children.get(a)
                if child is not None:
                    child.available += 1
            untried = [a for a in plays if a not in node.children]
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = _Node(game.entity_label(game.entity_of_seat(chooser)))
                child.available = 1
                node.children[action] = child
                step(state, action)
                path.append(child)
                break
            action = max(plays, key=lambda a: _ucb(node.children[a], spread.width))
            node = node.children[action]
            step(state, action)
            path.append(node)
        scores = self._hand_scores(state, self.seat, stream)
        for value in scores.values():
            spread.add(value)
        for n in path:
            n.visits += 1
            n.total += hand_value(scores, n.label, self.objective)


class _Spread:
    """The range of the scores seen, which scales UCB1's exploration (the games' scores
    run from single points to hundreds)."""

    def __init__(self) -> None:
        self.low = math.inf
        self.high = -math.inf

    def add(self, value: float) -> None:
        self.low = min(self.low, value)
        self.high = max(self.high, value)

    @property
    def width(self) -> float:
        return max(1.0, self.high - self.low) if self.high >= self.low else 1.0


def _ucb(node: _Node, width: float) -> float:
    mean = node.total / node.visits if node.visits else math.inf
    return mean + EXPLORATION * width * math.sqrt(math.log(max(node.available, 1))
                                                  / max(node.visits, 1))
