"""The chance of winning the game from the running totals: what a search bot plays for late
in a game.

Points are what a hand is worth early in a game; near its end they are only a means. A side
at 470 of 500 wants the safe contract that gets it there, a side far behind wants the swing
that might still win, and a side about to lose wants to set the side about to win whatever
it costs in bags. So a search bot values a rollout, late in a game, by the chance each side
then has of winning the game.

The model of the game's future: hands whose scores are drawn from a sample of hands played by
rules bots in this very game (its options included), ``SAMPLED_HANDS`` of them with the
seats' places turned round every way (the model knows no side as the stronger), added to the
totals hand after hand until the game's own end rule (``Game.winner_by_totals``) names a
winner. ``FUTURES`` such futures, the same ones for every question asked of one model (common
random numbers: two totals are compared on the same futures, so their difference is far
less noisy than either chance), give each entity's share of the wins. What it does not know:
who deals next, the bags a side carries into the next hands, the hand that takes every trick
(3B), that a tied Paperless set starts again from nothing (it plays the tied set on); and it
takes every seat to play like the rules bot.

When is a game late: when, by the same model, the game ends within this hand and the next
``LATE_HANDS - 1`` in at least ``LATE_SHARE`` of the futures. Before that a search bot plays
for the hand's points as it always has (a chance of winning estimated from far away hardly
moves with a hand's points, and noise would decide its choices).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from ..bots.base import make_bot
from ..engine.game import Game, step
from ..engine.observation import Observation
from ..engine.state import State
from .playout import play_on

SAMPLED_HANDS = 300
"""Hands played by rules bots to learn what a hand scores (under a second, once a process
for each game and options)."""
FUTURES = 240
"""Futures played from each totals asked about (a multiple of the number of entities)."""
MAX_FUTURE_HANDS = 60
"""Hands a future runs at most; one still undecided then counts as a draw shared by all."""
LATE_HANDS = 3
"""A game is late when it may end within this many hands, this one included..."""
LATE_SHARE = 0.1
"""...in at least this share of the futures."""
GAME_IN_SPREADS = 10.0
"""What winning the game is worth, in standard deviations of a hand's margin (a side's score
less the others' mean): in Spades about 700 points, so late in a game a one-in-ten better
chance of winning outweighs 70 points of this hand."""


class WinChance:
    """The chance of each entity (side or player) winning one game from its totals."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.sample = _hand_sample(game)
        """Entity scores of sampled hands, hand ``h`` turned round by ``r`` places at
        ``h * num_entities + r``."""
        rng = random.Random(f"futures/{game.name}")
        n = game.num_entities
        hands = len(self.sample) // n
        self.futures: list[list[int]] = []
        """Each future's hands, as indices into ``sample``. Every future appears turned
        round every way (each of its hands turned round alike), so the model favours no
        place: the chances of totals turned round are the chances turned round."""
        for _ in range(FUTURES // n if hands else 0):
            picks = [rng.randrange(hands) for _ in range(MAX_FUTURE_HANDS)]
            self.futures.extend([p * n + r for p in picks] for r in range(n))
        margins = [s[0] - statistics.fmean(s[1:]) for s in self.sample] or [0.0]
        self.game_worth = GAME_IN_SPREADS * max(1.0, statistics.pstdev(margins))
        """What winning the game is worth in points of a hand (``GAME_IN_SPREADS``)."""

    @property
    def known(self) -> bool:
        """Whether the game's end is decided by its totals (every game here)."""
        return bool(self.sample)

    def chances(self, totals: Sequence[int], finished_hands: int,
                info: Mapping[str, Any]) -> tuple[float, ...]:
        """Each entity's chance of winning the game when its totals are ``totals`` after
        ``finished_hands`` hands; exactly 1 and 0s when the totals end it."""
        n = len(totals)
        winner = self.game.winner_by_totals(totals, finished_hands, info)
        if winner is not None:
            return tuple(1.0 if e == winner else 0.0 for e in range(n))
        wins = [0.0] * n
        for future in self.futures:
            winner = self._winner(future, totals, finished_hands, info)
            if winner is None:  # undecided after MAX_FUTURE_HANDS: a draw shared by all
                for e in range(n):
                    wins[e] += 1.0 / n
            else:
                wins[winner] += 1.0
        return tuple(w / len(self.futures) for w in wins)

    def ends_within(self, totals: Sequence[int], finished_hands: int,
                    info: Mapping[str, Any], hands: int) -> float:
        """The share of futures in which the game ends within ``hands`` more hands."""
        if self.game.winner_by_totals(totals, finished_hands, info) is not None:
            return 1.0
        ended = sum(self._winner(future[:hands], totals, finished_hands, info) is not None
                    for future in self.futures)
        return ended / len(self.futures)

    def _winner(self, future: Sequence[int], totals: Sequence[int], finished_hands: int,
                info: Mapping[str, Any]) -> int | None:
        """Who wins when the hands of ``future`` are added to ``totals`` one by one; None
        when none of them ends the game."""
        game = self.game
        sample = self.sample
        running = list(totals)
        for k, pick in enumerate(future):
            for e, points in enumerate(sample[pick]):
                running[e] += points
            winner = game.winner_by_totals(running, finished_hands + k + 1, info)
            if winner is not None:
                return winner
        return None

    def stake(self, obs: Observation) -> Stake | None:
        """What the game at stake adds to the hands played out for the decision of ``obs``,
        or None when the game is not late (or its end is not decided by its totals)."""
        if not self.known:
            return None
        game = self.game
        totals = [obs.totals.get(game.entity_label(e), 0) for e in range(game.num_entities)]
        if self.ends_within(totals, obs.hand_number, obs.info, LATE_HANDS) < LATE_SHARE:
            return None
        return Stake(self, obs.hand_number + 1, obs.info)


class Stake:
    """The game at stake for one decision: a hand's scores with the worth of each entity's
    chance of winning the game after it added (``added``)."""

    def __init__(self, model: WinChance, finished_hands: int, info: Mapping[str, Any]) -> None:
        self.model = model
        self.finished_hands = finished_hands
        """Hands finished once the hand being decided is over."""
        self.info = info
        self._known: dict[tuple[int, ...], tuple[float, ...]] = {}

    def chances(self, totals: Sequence[int]) -> tuple[float, ...]:
        """Each entity's chance of winning once the hand ends with ``totals``."""
        key = tuple(totals)
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = self.model.chances(key, self.finished_hands, self.info)
        return known

    def added(self, state: State, scores: dict[str, float]) -> dict[str, float]:
        """``scores`` of the hand that ended in ``state`` (a rebuilt hand carries the running
        totals) with the game's worth times each entity's chance of winning it added. A
        game the hand itself ended (3B's hand of every trick) is won outright."""
        game = self.model.game
        winner = game.game_winner(state) if state.is_over else None
        if winner is not None:
            chances: Sequence[float] = [float(e == winner) for e in range(game.num_entities)]
        else:
            chances = self.chances(state.totals)
        worth = self.model.game_worth
        out = dict(scores)
        for e, chance in enumerate(chances):
            label = game.entity_label(e)
            out[label] = out.get(label, 0.0) + worth * chance
        return out


_SAMPLES: dict[tuple[str, str], list[tuple[int, ...]]] = {}
"""The hand samples worked out so far, by game class and options."""


def _hand_sample(game: Game) -> list[tuple[int, ...]]:
    """Every entity's score in ``SAMPLED_HANDS`` hands of ``game`` played by rules bots from
    fresh games, each hand in every rotation of the entities; empty when the game's end is
    not decided by its totals. Worked out once a process for each game and options."""
    key = (type(game).__qualname__, repr(game.options))
    sample = _SAMPLES.get(key)
    if sample is not None:
        return sample
    try:
        game.winner_by_totals([0] * game.num_entities, 0, {})
    except NotImplementedError:
        _SAMPLES[key] = []
        return []
    rng = random.Random(f"hand sample/{game.name}")
    sample = []
    for h in range(SAMPLED_HANDS):
        state = game.new_game()
        step(state, game.random_deal(state, rng))
        bots = {s: make_bot("rules", game, s, f"sample/{h}") for s in game.player_seats}
        play_on(game, state, bots)
        if not state.results:
            continue
        scores = state.results[-1].scores
        row = [scores[game.entity_label(e)] for e in range(game.num_entities)]
        sample.extend(tuple(row[i:] + row[:i]) for i in range(len(row)))
    _SAMPLES[key] = sample
    return sample
