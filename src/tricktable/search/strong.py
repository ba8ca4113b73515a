"""The ``strong`` bot: montecarlo's worlds, the cards valued double dummy.

Like ``montecarlo`` it deals the cards it cannot see again, weighted by how likely each
world makes the other seats' bids and cards (``search.worlds``), and weighs every choice
in the same worlds. What differs:

- **Worlds weighed, not rejected** (``search.strong_worlds``), for the decisions valued
  double dummy: every candidate world is kept with its weight and the bot takes weighted
  means (truncated importance sampling). Late in a hand a world kept by rejection costs
  about seven replays of the hand; here one.
- **Cards valued double dummy.** In each world every legal card is valued by the solver:
  the tricks the bot's side takes from the rest of the hand after that card, every seat
  seeing every card (``Solver.move_values``; the tricks of a seat playing a nil are not
  counted for its side), and for each opponent's nil still at stake whether its side can
  keep it trickless (``Solver.nil_makeable``). The end of the hand those answers make
  (each seat's tricks: ``final_tricks``) is scored as the game scores it (contracts,
  bags, nils, books, the game at stake late in a game), so a card is worth the side's
  margin, not its tricks. The card with the best weighted mean is played.
- **When**: once no hand holds more than ``dd_cards_at_most`` cards (7), and enough
  worlds fit in the thinking time (``DD_MIN_WORLDS``; what a world costs is learnt as
  the bot plays, by cards left in a hand). Measured in Spades, starting as early as the
  time allows (about 12 cards at 0.5 s) did no better and let a search of seconds make
  a decision late. Before that the card is montecarlo's (rollouts by rules bots in
  rejection-sampled worlds), and so it is while a nil of the bot's own side is at stake
  (``dd_own_nils``: double dummy, which lets the nil bidder see every card, broke more
  of its own nils), and where every seat plays for itself (3B, ``dd_alone``: the most
  tricks the seat can take and the fewest it can be held to, all the others against it,
  the best-scoring number between them taken, lost points against montecarlo).
- **Random streams**: montecarlo's (``stream``), so that where it decides as montecarlo
  does it makes montecarlo's very choice, and a duplicate match measures what differs.
- **Bids** and every other choice are montecarlo's: valuing each bid by the double-dummy
  tricks of the hand it leads to (``dd_bids``, ``_start_values``) costs about 0.2 s a
  world in Spades at 13 cards, too dear for a half-second decision. Behind a switch
  (``dd_numbers``, off): a Spades number bid from one solve a world (the side's tricks
  do not depend on the number bid, so one solve values every number), nil or not
  still montecarlo's decision.

It reads only its observation; with a fixed number of worlds (no thinking time) its
choice follows from its seed and the position (tests/test_strong_bot.py deals the hidden
cards again and expects the same choice).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Sequence

from ..bots.base import LazyRandom, make_bot, register_bot
from ..engine.actions import Action, Bid, Play, Rebid
from ..engine.errors import IllegalAction
from ..engine.game import Game, step
from ..engine.observation import Observation
from ..engine.state import Phase, State
from .montecarlo import MonteCarloBot, hand_value
from .playout import hand_over, play_on
from .position import Move, Position, play, position_of
from .sampler import InconsistentObservation
from .solver import Solver, side_of
from .strong_worlds import WeightedWorlds

DD_MIN_WORLDS = 10
"""Worlds that must fit in the thinking time for a decision to be valued double dummy;
fewer, and rules-bot rollouts (many more worlds) decide."""
FIXED_DD_CARDS = 7
"""Without thinking time (a fixed search): the most cards a hand may hold for its cards
to be valued double dummy (a search there costs about a millisecond)."""
FIXED_DD_BIDS = False
"""Without thinking time: whether bids are valued double dummy (a 13-card search per
world: too slow for a fixed search of 12 worlds in the tests)."""
BID_SPREAD = 2
"""Bids weighed either side of the rules bot's when bids are valued double dummy."""
ALONE_DD_CARDS = 8
"""Where every seat plays for itself (3B): the most cards a hand may hold for its cards
to be valued double dummy (a seat against all the others: about 2 ms a search at 8
cards, seconds at 13)."""
NUMBER_SPREAD = 3
"""Number bids weighed either side of the rules bot's when the number is chosen double
dummy (``dd_numbers``)."""
MAX_WEIGHED_WORLDS = 200
"""Worlds sampled at most in one decision (each is weighed, none rejected)."""
SAFETY = 0.9
"""Share of the thinking time the bot plans to fill: a double-dummy search cannot be cut
short, so the last world must end within the time too."""

FIRST_COSTS = {13: 0.06, 12: 0.04, 11: 0.015, 10: 0.008, 9: 0.004, 8: 0.002}
"""Seconds a world's searches are taken to cost, by cards left in a hand, before the bot
has measured any (Spades on the project's machine; beyond 13 cards, and in 3B: see
``ALONE_DD_CARDS``). Learnt from then on (``CostModel``)."""
FIRST_DRAW = 0.01
"""Seconds a world is taken to cost to draw before any is measured."""


def weighted_mean(weights: Sequence[float], values: Sequence[float]) -> float:
    total = sum(weights)
    if total <= 0:
        return sum(values) / len(values)
    return sum(w * v for w, v in zip(weights, values, strict=True)) / total


def truncated(weights: list[float]) -> list[float]:
    """The weights with none above the mean times the square root of their number
    (truncated importance sampling, Ionides 2008): a world or two whose bids and cards
    fit the rules bot's model far better than the others' may not outweigh them all, the
    model being a guide, not the players."""
    if len(weights) < 2:
        return weights
    cap = sum(weights) / len(weights) * len(weights) ** 0.5
    return [min(w, cap) for w in weights]


def effective_worlds(weights: Sequence[float]) -> float:
    """(sum of weights)^2 / sum of squared weights: as many equally weighted worlds
    would tell as much."""
    squares = sum(w * w for w in weights)
    return sum(weights) ** 2 / squares if squares > 0 else 0.0


def standard_error(weights: Sequence[float], values: Sequence[float]) -> float:
    """The standard error of the weighted mean of ``values``, from the weighted
    variance and the effective number of worlds."""
    n = effective_worlds(weights)
    if n <= 1:
        return float("inf")
    mean = weighted_mean(weights, values)
    variance = weighted_mean(weights, [(v - mean) ** 2 for v in values]) * n / (n - 1)
    return float((variance / n) ** 0.5)


def clearly_best(weights: Sequence[float], per_world: dict[Action, list[float]],
                 preferred: Action, candidates: Sequence[Action]) -> Action:
    """``preferred``, unless another candidate does better world by world by more than
    the standard error of the difference (the best such one): a noisy estimate must not
    overturn a sound choice. With equal weights this is montecarlo's rule."""
    base = per_world[preferred]
    best, best_gain = preferred, 0.0
    for other in candidates:
        if other == preferred:
            continue
        diffs = [x - y for x, y in zip(per_world[other], base, strict=True)]
        gain = weighted_mean(weights, diffs)
        if len(diffs) > 1 and gain > standard_error(weights, diffs) and gain > best_gain:
            best, best_gain = other, gain
    return best


def nil_seats(state: State) -> list[int]:
    """The seats that bid nil (or zero) this hand, in seat order."""
    seats: set[int] = set()
    for action in state.actions:
        if isinstance(action, Bid):
            if action.nils:
                seats.update(action.nils)
            elif action.tricks == 0 and not action.mode:
                seats.add(action.seat)
        elif isinstance(action, Rebid):
            if action.tricks == 0:
                seats.add(action.seat)
            else:
                seats.discard(action.seat)
    return sorted(seats)


def final_tricks(pos: Position, side: int, ours: int, nils: dict[int, bool]) -> tuple[int, ...]:
    """Each seat's tricks at the end of the hand from ``pos``: a seat of ``nils`` (a nil
    at stake) takes none when its nil survives (True) and one when it is broken; the
    other seats of ``side`` take ``ours`` of the tricks left (the solver's count for
    them), the other seats the rest. A side's tricks go to its first seat that is not a
    nil at stake; a side of nils at stake only takes its broken nils' tricks."""
    won = list(pos.won)
    left = pos.tricks_left
    holding = [s for s in range(len(pos.hands))
               if pos.hands[s] or any(t == s for t, _ in pos.trick)]
    mine = [s for s in holding if side >> s & 1 and s not in nils]
    theirs = [s for s in holding if not side >> s & 1 and s not in nils]
    for s in sorted(nils):
        if not nils[s] and left > 0:
            won[s] += 1
            left -= 1
    ours = min(ours, left) if mine else 0
    if mine:
        won[mine[0]] += ours
    rest = left - ours
    takers = theirs or mine or [s for s in holding if s in nils]
    if takers and rest:
        won[takers[0]] += rest
    return tuple(won)


def bids_of(state: State) -> dict[int, int]:
    """Each seat's bid of this hand in tricks (its last bid or change of bid)."""
    bids: dict[int, int] = {}
    for action in state.actions:
        if isinstance(action, Bid | Rebid):
            bids[action.seat] = action.tricks
    return bids


def alone_final_tricks(pos: Position, me: int, mine: int, bids: dict[int, int]
                       ) -> tuple[int, ...]:
    """Each seat's tricks at the end of the hand from ``pos`` in a game where every
    seat plays for itself, when ``me`` takes ``mine`` of the tricks left: the others'
    go first to each other seat still short of its bid (in seat order from ``me``), the
    rest round the seats that did not bid zero, else round them all."""
    n = len(pos.hands)
    won = list(pos.won)
    left = pos.tricks_left
    mine = max(0, min(mine, left))
    won[me] += mine
    rest = left - mine
    others = [s for s in ((me + k) % n for k in range(1, n))
              if pos.hands[s] or any(t == s for t, _ in pos.trick)]
    for s in others:
        take = min(rest, max(0, bids.get(s, 0) - won[s]))
        won[s] += take
        rest -= take
    takers = [s for s in others if bids.get(s, 0) > 0] or others
    while rest > 0 and takers:
        for s in takers:
            if rest == 0:
                break
            won[s] += 1
            rest -= 1
    return tuple(won)


def counted_seats(side: int, nils: Sequence[int]) -> int:
    """The seats of ``side`` whose tricks the solver counts: those not playing a nil
    (a nil bidder's tricks break its nil, and do not make the contract)."""
    return side & ~sum(1 << s for s in nils)


Valuer = Callable[[State, int, Sequence[Action]], "dict[Action, float] | None"]
"""Values every choice of a decision in one world (None: the world cannot be valued)."""

_solvers = threading.local()


def thread_solver(purpose: str) -> Solver:
    """One solver per thread and kind of question (the side's tricks, a nil's survival):
    a solver keeps its table while it is asked the same kind of question, so the worlds
    of one decision share what it learnt; two kinds in one would empty it each time."""
    kept: dict[str, Solver] | None = getattr(_solvers, "kept", None)
    if kept is None:
        kept = _solvers.kept = {}
    solver = kept.get(purpose)
    if solver is None:
        solver = kept[purpose] = Solver(table_bits=20 if purpose == "side" else 18)
    return solver


class CostModel:
    """What a world costs, learnt as the bot plays: seconds to draw one, and seconds of
    double-dummy search per world by kind of decision ("play": every card searched;
    "start": the hand searched from its first card) and cards left in a hand (moving
    averages)."""

    def __init__(self) -> None:
        self.draw = FIRST_DRAW
        self.search: dict[tuple[str, int], float] = {}

    def search_cost(self, kind: str, cards: int) -> float:
        known = self.search.get((kind, cards))
        if known is not None:
            return known
        return FIRST_COSTS.get(cards, 10.0 if cards > 13 else 0.002)

    def learn(self, kind: str, cards: int, drew: float, searched: float) -> None:
        self.draw += 0.2 * (drew - self.draw)
        old = self.search_cost(kind, cards)
        self.search[kind, cards] = old + 0.2 * (searched - old)

    def worlds_in(self, budget: float, kind: str, cards: int) -> float:
        return budget / (self.draw + self.search_cost(kind, cards))


class WorldValuer:
    """Values the hand's end in one world for ``me``'s side: each seat's final tricks
    scored as the game scores them (a copy of the world finished), cached by tricks."""

    def __init__(self, bot: StrongBot, world: State, me: int) -> None:
        self.bot, self.world, self.me = bot, world, me
        self.cache: dict[tuple[int, ...], float] = {}
        game = bot.game
        self.label = game.entity_label(game.entity_of_seat(me))

    def value(self, won: tuple[int, ...]) -> float:
        cached = self.cache.get(won)
        if cached is not None:
            return cached
        end = self.world.copy()
        end.won = list(won)
        end.trick_cards, end.trick_seats = [], []
        self.bot.game.finish_hand(end)
        scores = {label: float(v) for label, v in end.results[-1].scores.items()}
        if self.bot.stake is not None:
            scores = self.bot.stake.added(end, scores)
        value = self.cache[won] = hand_value(scores, self.label, self.bot.objective)
        return value


@register_bot
class StrongBot(MonteCarloBot):
    name = "strong"
    description = ("montecarlo whose late cards are valued double dummy in the worlds it "
                   "samples (every card, each world scored as the game scores the hand); "
                   "measured level with montecarlo, not stronger")
    dd_cards = True
    """Cards valued double dummy where the time allows (False: montecarlo's rollouts)."""
    weigh_worlds = True
    """Worlds weighed, not rejected, where cards are valued double dummy (False:
    montecarlo's rejection-sampled worlds there too)."""
    dd_alone = False
    """Cards valued double dummy where every seat plays for itself (3B) too, from
    ``ALONE_DD_CARDS`` (False: montecarlo's there: measured, the seat-against-all-others
    bounds cost 3B 13 points a hand against montecarlo, 16 hands with 3 players)."""
    dd_cards_at_most = 7
    """The most cards a hand may hold for its cards to be valued double dummy, whatever
    the time allows. Measured in Spades against montecarlo at 0.5 s: from as early as the
    time allows (about 12 cards), -1.2 a hand (-10.6 to +8.2, 120 hands), and a search at
    12 cards can take seconds (a decision took 5.5 s); from 7 cards, +9.5 (-3.4 to
    +22.4, 56 hands), each search a few milliseconds."""
    dd_own_nils = False
    """Cards valued double dummy while a nil of the bot's side is at stake too (False:
    rollouts then: measured, double dummy broke more of its own nils)."""
    dd_bids = False
    """Bids and the other simulated choices valued double dummy at the hand's start where
    the time allows, in weighed worlds (False: montecarlo's). Off: a 13-card
    search with a nil's question costs about 0.2 s a world in Spades, so a half-second
    bid would see two or three worlds."""

    dd_numbers = False
    """A Spades number bid chosen double dummy (False: montecarlo's bid). Nil or not is
    still montecarlo's decision (rules-bot rollouts in the same worlds); when that is not
    a nil, each world is solved once for the side's tricks from the first card (the
    auction finished by rules bots after the rules bot's number), which values every
    number at once (``NUMBER_SPREAD`` either side), scored as the game scores the hand
    with that many tricks. See ``choose_number``. Measured in Spades against montecarlo
    (0.5 s, 60 hands, after two rules-bot tricks): it bid lower numbers than montecarlo
    and lost 5 a hand where only the number differed; with ``dd_numbers_bonus`` 0.5
    level there (-0.7, -4.4 to +3.1); overall no better than without it."""
    dd_numbers_after = 0
    """With ``dd_numbers``: tricks played by rules bots in each world before the solve
    (0: the whole hand double dummy; a 13-card solve costs 20 ms at the median and can
    take a second, an 11-card one after two tricks 4 ms and under 0.1 s)."""
    dd_numbers_bonus = 0.0
    """With ``dd_numbers``: tricks added to the side's solved tricks before a number is
    scored (a fraction: the two whole numbers either side, weighted), for what double
    dummy misses: a side that plays well against weaker defenders takes more tricks
    than perfect defenders would let it."""

    stream = "montecarlo"
    """The name its random streams go by: montecarlo's, so that where it decides as
    montecarlo does (bids, the cards of a hand with its own nil at stake) it makes
    montecarlo's very choice in the same worlds, and a duplicate comparison of the two
    measures what differs, not two draws of the same thing."""

    def __init__(self, game: Game, seat: int, seed: int | str = 0) -> None:
        super().__init__(game, seat, seed)
        self.rng = LazyRandom(f"{seed}/bot/{self.stream}/{seat}")
        self.costs = CostModel()
        self.weighed_worlds = WeightedWorlds(game, weighted=self.weigh_bids)
        self.uniform_worlds = WeightedWorlds(game, weighted=False)
        self._stream = "0"
        self.last_ess = 0.0
        """The effective number of worlds of the last decision (see ``effective_worlds``)."""
        self.last_method = ""
        """How the last decision valued its worlds: "dd", "rollouts" or "" (no search)."""
        self.last_bid: dict[str, object] = {}
        """What the last bid chosen double dummy saw (``choose_number``: for benchmarks)."""

    def reseed(self, position: str) -> None:
        self.rng.seed(f"{self.seed}/bot/{self.stream}/{self.seat}/{position}")
        self.rules.reseed(position)

    # --- which way a decision is valued ------------------------------------------------

    @property
    def every_seat_alone(self) -> bool:
        """Whether every seat plays for itself (3B): no partner, no dummy."""
        game = self.game
        return not game.partnership and len(game.player_seats) == game.num_seats

    def plans_dd(self, kind: str, cards: int, fixed_limit: int, allowed: bool) -> bool:
        """Whether to value a decision of ``kind`` double dummy at ``cards`` cards a hand.
        Where every seat plays for itself, only from ``ALONE_DD_CARDS`` cards a hand: a
        seat against all the others is the solver's slowest question (seconds a search
        at 13 cards, so a first measurement of its cost would already be too late)."""
        if not allowed or (self.every_seat_alone and (cards > ALONE_DD_CARDS
                                                      or not self.dd_alone)):
            return False
        if kind == "play" and cards > self.dd_cards_at_most:
            return False
        if self.think is None:
            return cards <= fixed_limit
        costs = self.costs
        # enough worlds for a sound mean, or searches no dearer than drawing the worlds
        # (then double dummy sees about as many worlds as the rollouts would)
        return (costs.worlds_in(self.think * SAFETY, kind, cards) >= DD_MIN_WORLDS
                or costs.search_cost(kind, cards) <= costs.draw)

    def plan(self, obs: Observation, actions: Sequence[Action]
             ) -> tuple[Valuer, str, int] | None:
        """How a decision's worlds are valued double dummy (the valuer, the kind of search
        and the cards a hand its cost goes by), or None where montecarlo's way decides
        (``last_method`` says which)."""
        self.last_method = "rollouts"
        if all(isinstance(a, Play) for a in actions):
            cards = max(obs.hand_sizes)
            if not self.plans_dd("play", cards, FIXED_DD_CARDS, self.dd_cards):
                return None
            if not self.dd_own_nils:
                shared = self.shared_facts(obs)
                if shared is None or self.own_nil_at_stake(shared, obs.seat):
                    return None
            self.last_method = "dd"
            if self.every_seat_alone:
                return self._alone_values, "play", cards
            return self._card_values, "play", cards
        cards = self.game.deal_sizes(obs.dealer)[0][0]
        if not self.every_seat_alone and self.plans_dd(
                "start", cards, 13 if FIXED_DD_BIDS else -1, self.dd_bids):
            self.last_method = "dd"
            return self._start_values, "start", cards
        return None

    def shared_facts(self, obs: Observation) -> State | None:
        """The hand rebuilt in one uniform world, read only for what every world of the
        decision shares (bids, tricks won, who plays with whom); its own random stream,
        so the worlds the decision samples stay the same."""
        drawn = self.uniform_worlds.draw_weighted(obs, random.Random(0))
        return None if drawn is None else drawn[0]

    @staticmethod
    def own_nil_at_stake(state: State, me: int) -> bool:
        """Whether a seat of ``me``'s side bid nil and has taken no trick yet."""
        side = side_of(state, me)
        return any(side >> s & 1 and state.won[s] == 0 for s in nil_seats(state))

    # --- choosing ------------------------------------------------------------------------

    def candidates(self, obs: Observation, legal: Sequence[Action], preferred: Action
                   ) -> list[Action]:
        """Montecarlo's candidates; when bids are valued double dummy (one search serves
        every bid that leads to the same cards), the bids up to ``BID_SPREAD`` tricks
        either side of the rules bot's too."""
        out = super().candidates(obs, legal, preferred)
        if not isinstance(preferred, Bid) or self.every_seat_alone or not self.plans_dd(
                "start", self.game.deal_sizes(obs.dealer)[0][0],
                13 if FIXED_DD_BIDS else -1, self.dd_bids):
            return out
        for a in legal:
            if (isinstance(a, Bid) and a not in out and not a.blind
                    and (a.nils, a.mode) == (preferred.nils, preferred.mode)
                    and abs(a.tricks - preferred.tricks) <= BID_SPREAD):
                out.append(a)
        return out

    def evaluate(self, obs: Observation, plays: Sequence[Action]) -> dict[Action, float]:
        """Each card's weighted mean worth over the sampled worlds, valued double dummy
        where ``plan`` says so, else montecarlo's mean rollout score (empty when no world
        could be rebuilt)."""
        plan = self.plan(obs, plays)
        if plan is None:
            return super().evaluate(obs, plays)
        weights, values = self.world_values_weighted(obs, plays, plan)
        if not weights:
            return {}
        return {a: weighted_mean(weights, v) for a, v in values.items()}

    def choose_by_simulation(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """Montecarlo's, unless bids are valued double dummy (``dd_bids``): then the rules
        bot's choice unless another candidate does better world by world by more than
        its standard error, the worlds weighted (the standard error from their effective
        number)."""
        preferred = self.rules.choose(obs, legal)
        if (isinstance(preferred, Bid) and preferred.blind) or isinstance(preferred, Rebid):
            return preferred
        if (self.dd_numbers and isinstance(preferred, Bid) and not preferred.nils
                and not preferred.mode and not self.every_seat_alone):
            return self.choose_number(obs, legal, preferred)
        plan = self.plan(obs, legal)
        if plan is None:
            return super().choose_by_simulation(obs, legal)
        candidates = self.candidates(obs, legal, preferred)
        if len(candidates) < 2:
            return preferred
        weights, per_world = self.world_values_weighted(obs, candidates, plan)
        if not weights:
            return preferred
        self.last_values = {str(a): weighted_mean(weights, v) for a, v in per_world.items()}
        return clearly_best(weights, per_world, preferred, candidates)

    def choose_number(self, obs: Observation, legal: Sequence[Action], preferred: Bid
                      ) -> Action:
        """A bid (``dd_numbers``). Nil or not as montecarlo decides it: the rules bot's
        bid and nil played out by rules bots in each of montecarlo's worlds, nil taken
        when it does better by more than its standard error (its bids a trick more or
        fewer are not played out: double dummy chooses the number). Otherwise the
        number with the best mean score in the same worlds, each solved once for the
        side's tricks (``number_worths``): the rules bot's number unless another is
        better by more than its standard error."""
        numbers = [a for a in legal if isinstance(a, Bid) and a.tricks > 0 and not a.blind
                   and not a.nils and not a.mode]
        if not numbers:
            return super().choose_by_simulation(obs, legal)
        reference = (preferred if preferred.tricks > 0
                     else min(numbers, key=lambda a: abs(a.tricks - preferred.tricks)))
        numbers = [a for a in numbers if abs(a.tricks - reference.tricks) <= NUMBER_SPREAD]
        nil = next((a for a in MonteCarloBot.candidates(self, obs, legal, preferred)
                    if isinstance(a, Bid) and a.tricks == 0), None)
        rolled: dict[Action, list[float]] = {} if nil is None else {reference: [], nil: []}
        self.weigh_the_game(obs)
        rng = random.Random(self.rng.random())  # montecarlo's worlds, in its order
        solved: list[dict[Action, float]] = []
        tricks: list[int] = []
        budget = None if self.think is None else self.think * SAFETY
        start = time.perf_counter()
        used = 0
        for w in range(self.worlds if budget is None else MAX_WEIGHED_WORLDS):
            if budget is not None and used:
                spent = time.perf_counter() - start
                if spent + spent / used > budget:
                    break  # another world, as dear as the others, would not fit
            try:
                world = self.worlds_drawn.draw(obs, rng)
            except InconsistentObservation:
                return preferred
            if world is None:
                return preferred
            used += 1
            for action, values in rolled.items():
                state = world.copy()
                step(state, action)
                values.append(self._play_out(state, obs.seat, f"{w}"))
            worths = self.number_worths(world, obs.seat, reference, numbers, f"{w}")
            if worths is not None:
                solved.append(worths[0])
                tricks.append(worths[1])
        self.last_worlds = used
        self.last_bid = {"worlds": used, "solved": len(solved),
                         "tricks": sum(tricks) / len(tricks) if tricks else None}
        if nil is not None and used and clearly_best([1.0] * used, rolled,
                                                      preferred, list(rolled)) == nil:
            return nil
        valued = [a for a in numbers if all(a in worths for worths in solved)]
        if reference not in valued:
            return reference
        per_world: dict[Action, list[float]] = {a: [worths[a] for worths in solved]
                                                for a in valued}
        ones = [1.0] * len(solved)
        self.last_values = {str(a): weighted_mean(ones, v) for a, v in per_world.items()}
        return clearly_best(ones, per_world, reference, valued)

    def number_worths(self, world: State, me: int, reference: Bid, numbers: Sequence[Action],
                      stream: str) -> tuple[dict[Action, float], int] | None:
        """Each number bid's worth in one world, and the side's tricks there: the
        auction finished by rules bots after ``reference``, the others' bids then kept
        for every number; the side's tricks solved double dummy from the first card (or
        after ``dd_numbers_after`` tricks played by rules bots), the same for every
        number (only a nil changes the play); each number scored as the game scores the
        hand with those tricks (``dd_numbers_bonus`` added), the nils bid taken to
        survive (the same for every number). None where the hand does not reach its
        first card."""
        game = self.game
        state = world.copy()
        step(state, reference)
        mark = len(state.actions)
        bots = {s: make_bot("rules", game, s, f"{self.seed}/{stream}") for s in game.player_seats}
        hand = state.hand_number
        play_on(game, state, bots,
                lambda s: hand_over(s) or s.hand_number != hand or s.phase is Phase.PLAY)
        if state.phase is not Phase.PLAY:
            return None
        rest = state.actions[mark:]
        side = side_of(state, me)
        nils = nil_seats(state)
        counted = counted_seats(side, nils)
        played = state
        if self.dd_numbers_after:
            played = state.copy()
            tricks_before = sum(state.won)
            play_on(game, played, bots, lambda s: hand_over(s) or s.phase is not Phase.PLAY
                    or sum(s.won) - tricks_before >= self.dd_numbers_after)
            if played.phase is not Phase.PLAY:
                return None
        pos = position_of(played)
        ours = thread_solver("side").tricks(pos, counted, side) if counted else 0
        kept = dict.fromkeys(nils, True)
        whole = math.floor(self.dd_numbers_bonus)
        part = self.dd_numbers_bonus - whole
        ends = [(share, final_tricks(pos, side, max(0, ours + whole + more), kept))
                for more, share in ((0, 1.0 - part), (1, part)) if share > 0]
        won = final_tricks(pos, side, ours, kept)
        out: dict[Action, float] = {}
        for number in numbers:
            bid_state = state
            if number != reference:
                bid_state = world.copy()
                try:
                    step(bid_state, number)
                    for action in rest:
                        step(bid_state, action)
                except IllegalAction:
                    continue  # the others' bids do not follow this one: not valued
                if bid_state.phase is not Phase.PLAY or bid_state.hands != state.hands:
                    continue
            valuer = WorldValuer(self, bid_state, me)
            out[number] = sum(share * valuer.value(end) for share, end in ends)
        side_tricks = sum(won[s] for s in range(len(won)) if counted >> s & 1)
        return out, side_tricks

    # --- the worlds ----------------------------------------------------------------------

    def world_values_weighted(self, obs: Observation, actions: Sequence[Action],
                              plan: tuple[Valuer, str, int]
                              ) -> tuple[list[float], dict[Action, list[float]]]:
        """The sampled worlds' weights, and each action's worth in each of them by the
        ``plan``'s valuer (the same worlds for every action): as many worlds as fit in the
        thinking time, or ``worlds`` without it; no weights when no world could be
        rebuilt."""
        self.weigh_the_game(obs)
        valuer, kind, cards = plan
        rng = random.Random(self.rng.random())
        weights: list[float] = []
        totals: dict[Action, list[float]] = {a: [] for a in actions}
        budget = None if self.think is None else self.think * SAFETY
        start = time.perf_counter()
        self.last_worlds = 0
        for _ in range(self.worlds if budget is None else MAX_WEIGHED_WORLDS):
            if budget is not None and weights:
                spent = time.perf_counter() - start
                if spent + spent / len(weights) > budget:
                    break  # another world, as dear as the others, would not fit
            t0 = time.perf_counter()
            try:
                drawn = self._draw(obs, rng)
            except InconsistentObservation:
                return [], {}
            if drawn is None:
                return [], {}
            world, weight = drawn
            t1 = time.perf_counter()
            self._stream = str(len(weights))  # the rules bots' stream in this world
            values = valuer(world, obs.seat, actions)
            if values is None:
                return [], {}
            self.costs.learn(kind, cards, t1 - t0, time.perf_counter() - t1)
            weights.append(weight)
            for action in actions:
                totals[action].append(values[action])
        self.last_worlds = len(weights)
        weights = truncated(weights)
        self.last_ess = effective_worlds(weights)
        return (weights, totals) if weights else ([], {})

    def _draw(self, obs: Observation, rng: random.Random) -> tuple[State, float] | None:
        """One world and its weight: weighed (``weigh_worlds``), or montecarlo's
        rejection-sampled world with weight 1."""
        if self.weigh_worlds:
            return self.weighed_worlds.draw_weighted(obs, rng)
        world = self.worlds_drawn.draw(obs, rng)
        return None if world is None else (world, 1.0)

    def _card_values(self, world: State, me: int, plays: Sequence[Action]
                     ) -> dict[Action, float] | None:
        """Each card's worth in one world: double-dummy tricks and nils, scored."""
        pos = position_of(world)
        side = side_of(world, me)
        at_stake = [s for s in nil_seats(world) if pos.won[s] == 0]
        counted = counted_seats(side, at_stake)
        moves = {a: Move(a.card, a.ace_low) for a in plays if isinstance(a, Play)}
        tricks = dict(thread_solver("side").move_values(pos, counted, side,
                                                        moves=list(moves.values()))
                      ) if counted else dict.fromkeys(moves.values(), 0)
        valuer = WorldValuer(self, world, me)
        out: dict[Action, float] = {}
        for action, move in moves.items():
            nxt, winner = play(pos, move)
            nils = {s: self._nil_survives(world, nxt, s, winner) for s in at_stake}
            gained = 1 if winner >= 0 and counted >> winner & 1 else 0
            out[action] = valuer.value(final_tricks(nxt, side, tricks[move] - gained, nils))
        return out

    def _alone_values(self, world: State, me: int, plays: Sequence[Action]
                      ) -> dict[Action, float] | None:
        """Each card's worth in one world of a game where every seat plays for itself:
        after the card, the most tricks ``me`` can take and the fewest it can be held
        to, the others all playing against it (two double-dummy searches); it is taken
        to end with whichever number between the two the game scores best (3B scores an
        exact bid, a zero, overtricks lost), the others sharing the rest by their bids."""
        pos = position_of(world)
        mine = 1 << me
        others = ((1 << pos.num_seats) - 1) & ~mine
        moves = {a: Move(a.card, a.ace_low) for a in plays if isinstance(a, Play)}
        most = dict(thread_solver("side").move_values(pos, mine, mine, list(moves.values())))
        fewest = dict(thread_solver("forced").move_values(pos, mine, others,
                                                          list(moves.values())))
        bids = bids_of(world)
        valuer = WorldValuer(self, world, me)
        out: dict[Action, float] = {}
        for action, move in moves.items():
            nxt, winner = play(pos, move)
            gained = 1 if winner == me else 0
            low, high = sorted((fewest[move] - gained, most[move] - gained))
            out[action] = max(valuer.value(alone_final_tricks(nxt, me, t, bids))
                              for t in range(low, high + 1))
        return out

    @staticmethod
    def _nil_survives(world: State, pos: Position, seat: int, winner: int) -> bool:
        """Whether ``seat``'s nil survives from ``pos`` (reached by a trick that ``winner``
        won, or -1), its side keeping it trickless double dummy."""
        if winner == seat:
            return False
        if pos.tricks_left == 0 or not pos.hands[seat]:
            return True
        return thread_solver("nil").nil_makeable(pos, seat, side_of(world, seat))

    def _start_values(self, world: State, me: int, choices: Sequence[Action]
                      ) -> dict[Action, float] | None:
        """Each choice's worth in one world: made, the auction finished by rules bots, and
        the hand from its first card valued double dummy (the same cards searched once)."""
        game = self.game
        searched: dict[tuple[object, ...], tuple[int, dict[int, bool]]] = {}
        out: dict[Action, float] = {}
        hand = world.hand_number

        def at_first_card(s: State) -> bool:
            return hand_over(s) or s.hand_number != hand or s.phase is Phase.PLAY

        for choice in choices:
            state = world.copy()
            step(state, choice)
            bots = {s: make_bot("rules", game, s, f"{self.seed}/{self._stream}")
                    for s in game.player_seats}
            play_on(game, state, bots, at_first_card)
            if state.phase is not Phase.PLAY:
                if not state.results:
                    return None
                out[choice] = hand_value(
                    {k: float(v) for k, v in state.results[-1].scores.items()},
                    game.entity_label(game.entity_of_seat(me)), self.objective)
                continue
            pos = position_of(state)
            side = side_of(state, me)
            nil_bids = nil_seats(state)
            key = (pos.hands, pos.order, pos.to_act, side, tuple(nil_bids), pos.rules)
            known = searched.get(key)
            if known is None:
                counted = counted_seats(side, nil_bids)
                ours = thread_solver("side").tricks(pos, counted, side) if counted else 0
                nils = {s: self._nil_survives(state, pos, s, -1) for s in nil_bids}
                known = searched[key] = (ours, nils)
            ours, nils = known
            out[choice] = WorldValuer(self, state, me).value(final_tricks(pos, side, ours, nils))
        return out

