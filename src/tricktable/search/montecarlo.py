"""The ``montecarlo`` bot: plays its cards by sampling what it cannot see.

For each card it may play, in each of a number of worlds drawn by the world sampler from
its own observation (the same worlds for every card, so the cards are compared on equal
terms), the hand is rebuilt (``search.determinize``), the card played, and the rest of the
hand played out by ``rules`` bots for every seat; the card with the best mean score for
the bot's side at the end of the hand wins (the score, not tricks: bags, nils, sets and
exact bids count as the game counts them). A bid is the rules bot's unless one of its
neighbours (a trick more or fewer, or nil) scores clearly better the same way, the rest of
the auction bid by rules bots in the playouts; so are a whist auction's pass, trumps and
direction, Double Dummy's keep or swap (``choose_by_simulation``), and the cards passed on:
3B's card thrown back after drawing the extra card, a Paperless give (and a Spades
blind-nil exchange), each weighed among a few plausible choices only
(``exchange_candidates``, ``give_candidates``). Every other decision is the rules bot's
(a whist declarer's discards, peeks and flips, changes of bid: see ``SIMULATED``), and so
is any decision where the hand cannot be rebuilt from what the bot knows.

Late in a game the score is not all: each side's score in a rollout is added the worth of
its chance of winning the game after the hand (``search.winchance``), so the bot makes the
safe contract that gets it home, sets the side about to win, and takes risks when only a
swing can save it.

How many worlds: a fixed ``WORLDS`` when the bot has no thinking time (``Bot.think`` is
None), else as many as fit in its time, at least one and at most ``MAX_WORLDS``: the time
of the worlds done so far says whether another fits.

It reads only its observation, and with a fixed number of worlds its choice follows from
its seed and the position:
the same observation and seed give the same card whatever the hidden cards really are
(tests/test_montecarlo.py proves it by dealing the hidden cards again).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence

from ..bots.base import Bot, make_bot, register_bot
from ..engine.actions import Action, Bid, Exchange, Give, Play, Rebid
from ..engine.cards import SPADES, Card, cards_of, is_joker, rank_of, suit_of
from ..engine.game import Game, step
from ..engine.observation import Observation
from ..engine.state import State
from .playout import hand_over, play_on
from .sampler import InconsistentObservation
from .winchance import Stake, WinChance
from .worlds import Worlds

WORLDS = 12
"""Worlds sampled per decision when the bot has no thinking time (reproducible play)."""
MAX_WORLDS = 64
"""Worlds sampled per decision at most when it has: more hardly changes a choice."""


SIMULATED = frozenset({"bid", "pass", "trump", "direction", "keep", "swap", "exchange", "give"})
"""Decisions besides cards that the bot weighs by simulation. Cards thrown back or given
have too many choices to weigh them all (a Paperless give: 286), so only a few plausible
ones are weighed against the rules bot's (``MonteCarloBot.candidates``). The others are
the rules bot's: a whist declarer's discards (not weighed yet), peeks and flips (their
worth is what they show, which a sampled world cannot tell)."""
PASSED_ON = frozenset({"exchange", "give"})
"""The decisions of SIMULATED that ``weigh_exchanges`` switches off."""
MAX_CANDIDATES = 8
"""Choices weighed at most in one decision. A decision with more weighs only the rules
bot's and its neighbours (a bid) or a few plausible others (a card thrown back or given)."""


def _worth_weighing(action: Action, preferred: Action, choices: int) -> bool:
    """Whether to weigh ``action`` against the rules bot's ``preferred`` choice."""
    if isinstance(action, Bid):
        if action.blind:
            return False
        if isinstance(preferred, Bid):
            same_kind = (action.nils, action.mode) == (preferred.nils, preferred.mode)
            return same_kind and (abs(action.tricks - preferred.tricks) == 1
                                  or action.tricks == 0)
    return choices <= MAX_CANDIDATES


def _power(c: Card) -> tuple[int, int]:
    """(suit, rank) with a joker a spade above the ace: what wins a trick within a suit."""
    if is_joker(c):
        return SPADES, 13 + c - 52
    return suit_of(c), rank_of(c)


def _distinct(choices: list[Action | None]) -> list[Action]:
    """The first ``MAX_CANDIDATES`` distinct choices, in order, ``None`` left out."""
    out: list[Action] = []
    for a in choices:
        if a is not None and a not in out and len(out) < MAX_CANDIDATES:
            out.append(a)
    return out


def exchange_candidates(obs: Observation, legal: Sequence[Action], preferred: Action
                        ) -> list[Action]:
    """The cards worth weighing as 3B's throw-back, the rules bot's ``preferred`` first.
    A zero bidder looks first at the highest card of each suit (the card most likely to
    take a trick it must lose), a high bidder at the lowest (the card its tricks miss
    least, the last of a short suit voiding it); then each the other end of each suit (a
    zero may keep a high card that a low one guards; a bidder with a trick too many, which
    costs 10, may throw a winner)."""
    by_card = {a.card: a for a in legal if isinstance(a, Exchange)}
    bids = obs.info.get("bids", ())
    zero = obs.seat < len(bids) and bids[obs.seat] == 0
    suits: dict[int, list[Card]] = {}
    for c in sorted(by_card, key=_power):
        suits.setdefault(_power(c)[0], []).append(c)
    highest = [by_card[cards[-1]] for cards in suits.values()]
    lowest = [by_card[cards[0]] for cards in suits.values()]
    return _distinct([preferred, *(highest + lowest if zero else lowest + highest)])


def give_candidates(obs: Observation, legal: Sequence[Action], preferred: Action
                    ) -> list[Action]:
    """The passes worth weighing as a give to partner, the rules bot's ``preferred``
    first: it with its highest card kept and the lowest card kept given instead, and
    with its lowest card kept and the highest kept given; the most dangerous cards (a
    nil hand's pass); the lowest cards of the shortest side suit, then of the next
    shortest (towards a void to ruff in); the lowest cards (keeping the strength); the
    highest side cards (strength for partner, the spades kept)."""
    by_cards = {frozenset(a.cards): a for a in legal if isinstance(a, Give)}
    if not isinstance(preferred, Give) or not by_cards:
        return [preferred]
    n = len(preferred.cards)
    hand = list(cards_of(obs.hand))

    def danger(c: Card) -> tuple[bool, int]:  # spades are trumps: any spade may win
        suit, rank = _power(c)
        return suit == SPADES, rank

    def give(cards: list[Card]) -> Action | None:
        return by_cards.get(frozenset(cards[:n])) if len(cards) >= n else None

    given = sorted(preferred.cards, key=danger)
    kept = sorted((c for c in hand if c not in given), key=danger)
    lower = give([*given[:-1], kept[0]]) if kept else None
    higher = give([*given[1:], kept[-1]]) if kept else None
    side = [c for c in hand if _power(c)[0] != SPADES]
    lengths: dict[int, int] = {}
    for c in side:
        lengths[_power(c)[0]] = lengths.get(_power(c)[0], 0) + 1
    by_length = sorted(lengths, key=lambda s: (lengths[s], s))
    spades = sorted((c for c in hand if _power(c)[0] == SPADES), key=danger)

    def shortening(first: list[int]) -> list[Card]:
        """Side cards suit by suit in the order ``first`` (low cards first), then spades."""
        return [c for s in first for c in sorted(side, key=danger) if _power(c)[0] == s] + spades

    by_danger = sorted(hand, key=danger)
    return _distinct([
        preferred, lower, higher,
        give(by_danger[::-1]),
        give(shortening(by_length)),
        give(shortening(by_length[1:] + by_length[:1])),
        give(by_danger),
        give(sorted(side, key=danger, reverse=True) + spades),
    ])


OBJECTIVES = ("margin", "score")
"""What a hand is worth to a side: ``margin``, its score less the mean of the others'
(a point taken from an opponent counts, so setting a contract or breaking a nil is worth
playing for, as it is to win the game); ``score``, its own score alone. Either way, late
in a game each side's score is added the worth of its chance of winning the game after
the hand (``search.winchance``; ``MonteCarloBot.plays_for_game``)."""


def hand_value(scores: dict[str, float], label: str, objective: str) -> float:
    """A hand's worth to the side ``label`` by ``objective`` (see OBJECTIVES)."""
    own = scores.get(label, 0.0)
    if objective == "score":
        return own
    others = [v for k, v in scores.items() if k != label]
    return own - (sum(others) / len(others) if others else 0.0)


@register_bot
class MonteCarloBot(Bot):
    name = "montecarlo"
    description = ("plays each card it may play in worlds sampled from what it sees, the "
                   "hand played out by rules bots, and keeps the best mean score; bids "
                   "like the rules bot unless a neighbouring bid scores clearly better")
    worlds = WORLDS
    searches = True
    objective = "margin"
    weigh_bids = True
    """Worlds weighted by how likely they make the other seats' bids (``search.worlds``);
    False: uniform over the deals that fit what the bot sees."""
    weigh_exchanges = True
    """3B's card thrown back and a Paperless give weighed by simulation (``PASSED_ON``);
    False: the rules bot's, as before they were (benchmarks compare the two)."""
    plays_for_game = True
    """Late in a game, a hand played out is worth its points plus the worth of each
    side's chance of winning the game after it (``search.winchance``); False: its points
    alone (benchmarks compare the two)."""

    def __init__(self, game: Game, seat: int, seed: int | str = 0) -> None:
        super().__init__(game, seat, seed)
        self.worlds_drawn = Worlds(game, weighted=self.weigh_bids)
        self.rules = make_bot("rules", game, seat, seed)
        self.last_values: dict[str, float] = {}
        """The mean score of each card at the last decision (for hints)."""
        self.last_worlds = 0
        """How many worlds the last decision sampled."""
        self.stake: Stake | None = None
        """The game at stake in the decision being made (None: the hand's points alone)."""
        self._win_chance: WinChance | None = None

    def reseed(self, position: str) -> None:
        super().reseed(position)
        self.rules.reseed(position)

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        self.last_values = {}
        plays = [a for a in legal if isinstance(a, Play)]
        if len(plays) != len(legal):
            if len(legal) > 1 and self.simulates(legal):
                return self.choose_by_simulation(obs, legal)
            return self.rules.choose(obs, legal)
        if len(plays) < 2:
            return plays[0]
        values = self.evaluate(obs, plays)
        if not values:
            return self.rules.choose(obs, legal)
        self.last_values = {str(a): v for a, v in values.items()}
        best = max(values.values())
        # ties go to the rules bot's choice when it is among the best, else the first
        tied = [a for a in plays if values[a] >= best - 1e-9]
        preferred = self.rules.choose(obs, legal)
        return preferred if preferred in tied else tied[0]

    def simulates(self, legal: Sequence[Action]) -> bool:
        """Whether a choice among ``legal`` (not cards) is weighed by simulation."""
        verbs = {a.verb for a in legal}
        if "exchange" in verbs:
            # 3B's rebid window may be open at the throw-back: the rules bot keeps its bid
            # (choose_by_simulation still asks it), so the throw-back is what is weighed
            verbs.discard("rebid")
        simulated = SIMULATED if self.weigh_exchanges else SIMULATED - PASSED_ON
        return verbs <= simulated

    def candidates(self, obs: Observation, legal: Sequence[Action], preferred: Action
                   ) -> list[Action]:
        """The choices ``choose_by_simulation`` weighs, the rules bot's ``preferred`` first."""
        if isinstance(preferred, Exchange):
            return exchange_candidates(obs, legal, preferred)
        if isinstance(preferred, Give):
            return give_candidates(obs, legal, preferred)
        return [preferred] + [
            a for a in legal if a != preferred and _worth_weighing(a, preferred, len(legal))
        ]

    def choose_by_simulation(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """The rules bot's choice, unless another (for a bid, one of its neighbours: a
        trick more or fewer, or nil; for a card thrown back or given, a few plausible
        ones: ``candidates``) scored clearly better over sampled worlds, each hand
        played out by rules bots: better on average by more than its standard error,
        world by world against the rules bot's choice in the same worlds (a noisy
        estimate must not overturn a sound choice)."""
        preferred = self.rules.choose(obs, legal)
        if isinstance(preferred, Bid) and preferred.blind:
            return preferred  # blind: chosen before looking, nothing to weigh it with
        if isinstance(preferred, Rebid):
            return preferred  # a change of bid beside a throw-back: not weighed
        candidates = self.candidates(obs, legal, preferred)
        if len(candidates) < 2:
            return preferred
        per_world = self.world_values(obs, candidates)
        if not per_world:
            return preferred
        self.last_values = {str(a): statistics.fmean(v) for a, v in per_world.items()}
        base = per_world[preferred]
        best, best_gain = preferred, 0.0
        for other in candidates[1:]:
            diffs = [x - y for x, y in zip(per_world[other], base, strict=True)]
            gain = statistics.fmean(diffs)
            error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
            if len(diffs) > 1 and gain > error and gain > best_gain:
                best, best_gain = other, gain
        return best

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        return self.rules.offer(obs, legal)

    def evaluate(self, obs: Observation, plays: Sequence[Action]) -> dict[Action, float]:
        """Mean hand score for this bot's side of each play over sampled worlds; empty when
        no world could be rebuilt."""
        return {a: statistics.fmean(v) for a, v in self.world_values(obs, plays).items()}

    def weigh_the_game(self, obs: Observation) -> None:
        """Set ``stake`` for the decision of ``obs``: the game at stake when it is late."""
        self.stake = None
        if self.plays_for_game:
            if self._win_chance is None:
                self._win_chance = WinChance(self.game)
            self.stake = self._win_chance.stake(obs)

    def world_values(self, obs: Observation, plays: Sequence[Action]
                     ) -> dict[Action, list[float]]:
        """Hand score for this bot's side after each action in each sampled world (the
        same worlds for every action); empty when no world could be rebuilt."""
        self.weigh_the_game(obs)
        rng = random.Random(self.rng.random())
        totals: dict[Action, list[float]] = {a: [] for a in plays}
        used = 0
        start = time.perf_counter()
        budget = self.think
        self.last_worlds = 0
        for w in range(self.worlds if budget is None else MAX_WORLDS):
            if budget is not None and used:
                spent = time.perf_counter() - start
                if spent + spent / used > budget:
                    break  # another world, taking as long as the others, would not fit
            try:
                base = self.worlds_drawn.draw(obs, rng)
            except InconsistentObservation:
                return {}
            if base is None:
                return {}
            used += 1
            for action in plays:
                state = base.copy()
                step(state, action)
                totals[action].append(self._play_out(state, obs.seat, f"{w}"))
        self.last_worlds = used
        return totals if used else {}

    def _finish_play(self, state: State, me: int) -> bool:
        """A subclass's way to play the rest of the cards of a rollout other than by
        rules bots (``pimc``: double dummy); whether it did."""
        return False

    def _play_out(self, state: State, me: int, stream: str) -> float:
        """Play the hand to its end with rules bots; what it was worth to this side."""
        scores = self._hand_scores(state, me, stream)
        return hand_value(scores, self.game.entity_label(self.game.entity_of_seat(me)),
                          self.objective)

    def _hand_scores(self, state: State, me: int, stream: str) -> dict[str, float]:
        """Play the hand to its end with rules bots (``me``: whose side a subclass's way
        of finishing the play serves); every side's score for the hand, by label, with
        the game at stake added late in a game (``stake``)."""
        game = self.game
        bots = {s: make_bot("rules", game, s, f"{self.seed}/{stream}") for s in game.player_seats}
        hand = state.hand_number
        play_on(game, state, bots, lambda s: hand_over(s) or s.hand_number != hand,
                lambda s: self._finish_play(s, me))
        if not state.results:
            return {}
        scores = {label: float(v) for label, v in state.results[-1].scores.items()}
        return scores if self.stake is None else self.stake.added(state, scores)
