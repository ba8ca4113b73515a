"""Bot-against-bot simulation: many seeded games, optionally in duplicate, in parallel.

Game ``i`` deals from the seed ``"{seed}/game/{i}"`` (hand by hand, see ``session``), so a
simulation's results depend only on its seed and settings, never on how many worker
processes share the games or in what order they finish. In duplicate mode every deal
set is played once per rotation of the bots around the real players' seats, which
cancels most of the luck of the cards: each bot holds each seat's cards in turn.

Results are summarised per bot name over the games in which it sat: games won (a win
for a team counts for every bot on it), the mean score per hand of the scores it earned
(per seat for individual games, per team for partnerships), each with a 95% confidence
interval. Games that reach ``max_hands`` without ending (random play can keep a game
of Spades going for ever) count as unfinished: nobody wins them.
"""

from __future__ import annotations

import math
import signal
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures import process as futures_process
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import bot_class, make_bot
from ..engine.game import Game, make_game
from .table import Agent, Table

DEFAULT_MAX_HANDS = 200


@dataclass(frozen=True)
class GameSpec:
    """One game of a simulation: its deal set, the rotation of the bots, and who sits
    where (``bots[k]`` plays ``game.player_seats[k]``)."""

    index: int
    rotation: int
    bots: tuple[str, ...]
    seed: str


@dataclass(frozen=True)
class GameOutcome:
    """What a finished (or abandoned) game is summarised from; plain data, picklable."""

    index: int
    rotation: int
    bots: tuple[str, ...]
    seats: tuple[int, ...]
    entities: tuple[str, ...]  # the scoring entity of each seat in ``seats``
    finished: bool
    winner: str | None  # the winning entity's label
    hands: int
    totals: Mapping[str, int]
    seconds: float = 0.0
    record: str | None = None
    """The game's record as text, when the runner asked for it back (a worker on another
    machine cannot write in the driver's folder)."""


def seat_pattern(text: str, n_players: int, partnership: bool) -> list[str]:
    """The bot of each real player's seat from ``--bots``: one name for every seat; one
    per seat; or fewer names, which in a partnership game go round the table (one per
    team: ``rules,random`` is a rules team against a random team) and otherwise fill the
    remaining seats with the last name (``rules,random`` in a 3-player game is one rules
    bot against two random ones)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError("name at least one bot")
    if len(names) > n_players:
        raise ValueError(f"{len(names)} names for {n_players} players")
    if len(names) == n_players:
        return names
    if partnership:
        if n_players % len(names):
            raise ValueError(f"a partnership game of {n_players} players takes one name, one "
                             f"per team (2) or one per player ({n_players}); got {len(names)}")
        return names * (n_players // len(names))
    return names + [names[-1]] * (n_players - len(names))


def plan(
    n_players: int, bots: Sequence[str], games: int, seed: int | str, duplicate: bool = False
) -> list[GameSpec]:
    """The games to play: ``games`` deal sets, each once, or once per rotation."""
    if len(bots) != n_players:
        raise ValueError(f"give one bot per player: {n_players} names, not {len(bots)}")
    specs = []
    rotations = n_players if duplicate else 1
    for i in range(games):
        for r in range(rotations):
            rotated = tuple(bots[(k - r) % n_players] for k in range(n_players))
            specs.append(GameSpec(i, r, rotated, f"{seed}/game/{i}"))
    return specs


def play_game(
    game_name: str,
    options: Mapping[str, Any],
    spec: GameSpec,
    max_hands: int = DEFAULT_MAX_HANDS,
    records_dir: str | None = None,
    return_record: bool = False,
) -> GameOutcome:
    """Play one game of a simulation (in this process) and summarise it; its record is
    saved in ``records_dir``, or handed back in the outcome with ``return_record``."""
    start = time.perf_counter()
    game = make_game(game_name, dict(options))
    seats = game.player_seats
    bot_seed = f"{spec.seed}/rotation/{spec.rotation}"
    seated = list(zip(seats, spec.bots, strict=True))
    agents: dict[int, Agent] = {seat: make_bot(name, game, seat, bot_seed) for seat, name in seated}
    names = {seat: f"{name}-{seat}" for seat, name in seated}
    table = Table(game, agents, spec.seed, names)
    finished = table.run(max_hands)
    state = table.state
    text = None
    if records_dir is not None or return_record:
        record = table.record({"bots": {str(s): n for s, n in seated}})
        if records_dir is not None:
            record.save(Path(records_dir) / record_name(game_name, spec))
        else:
            text = record.dumps()
    return GameOutcome(
        index=spec.index,
        rotation=spec.rotation,
        bots=spec.bots,
        seats=seats,
        entities=tuple(game.entity_label(game.entity_of_seat(s)) for s in seats),
        finished=finished,
        winner=game.entity_label(state.winner) if finished and state.winner is not None else None,
        hands=state.finished_hands,
        totals=game.totals_mapping(state),
        seconds=time.perf_counter() - start,
        record=text,
    )


def record_name(game_name: str, spec: GameSpec) -> str:
    """The file a simulated game's record is saved as."""
    return f"{game_name}-{spec.index:05d}-r{spec.rotation}.json"


def play_batch(
    game_name: str,
    options: Mapping[str, Any],
    specs: Sequence[GameSpec],
    max_hands: int,
    records_dir: str | None,
    return_records: bool = False,
) -> list[GameOutcome]:
    """Whole games, one after another: the unit of work a worker is given."""
    return [play_game(game_name, options, s, max_hands, records_dir, return_records)
            for s in specs]


def batches(specs: Sequence[GameSpec], workers: int) -> list[Sequence[GameSpec]]:
    """Batches keep the traffic to workers small; each is a list of whole games, so the
    results do not depend on how the games are spread over the workers."""
    size = max(1, min(50, len(specs) // (workers * 8) or 1))
    return [specs[i : i + size] for i in range(0, len(specs), size)]


def prepare(
    game_name: str, options: Mapping[str, Any], bots: Sequence[str], games: int,
    seed: int | str, duplicate: bool, records_dir: str | Path | None,
) -> tuple[dict[str, Any], list[GameSpec], str | None]:
    """(the options in full, the games to play, the records folder, made): every check
    before anything is played (OptionError for an unknown game, option or bot)."""
    game = make_game(game_name, dict(options))
    for name in bots:
        bot_class(name)
    specs = plan(len(game.player_seats), bots, games, seed, duplicate)
    directory = None
    if records_dir is not None:
        Path(records_dir).mkdir(parents=True, exist_ok=True)
        directory = str(records_dir)
    return game.options.to_mapping(), specs, directory


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops the workers), so that an
    interrupted simulation ends with one line, not a traceback from every process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_at_once(pool: ProcessPoolExecutor) -> None:
    """Stop the workers now, without waiting for the games they are playing."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=1)
    # The pool's manager thread notices the workers gone and closes its wake-up pipe;
    # Python 3.11's exit hook writes to that pipe without a lock, and a thread still
    # tearing down then printed "Bad file descriptor" after our one line. Let it finish
    # first; if it is slow (a busy machine), take it off the hook's list: it needs no
    # wake-up (shutdown has woken it), and the interpreter still joins it at exit.
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(timeout=2)
        getattr(futures_process, "_threads_wakeups", {}).pop(manager, None)


def run(
    game_name: str,
    options: Mapping[str, Any],
    bots: Sequence[str],
    games: int,
    seed: int | str = 0,
    *,
    workers: int = 1,
    duplicate: bool = False,
    max_hands: int = DEFAULT_MAX_HANDS,
    records_dir: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GameOutcome]:
    """Play a simulation and return every game's outcome, in plan order.

    ``progress(n)`` is called as ``n`` more games finish. Raises OptionError for an
    unknown game, option or bot name before anything is played."""
    opts, specs, directory = prepare(game_name, options, bots, games, seed, duplicate,
                                     records_dir)
    outcomes: list[GameOutcome] = []
    if workers <= 1:
        for spec in specs:
            outcomes.append(play_game(game_name, opts, spec, max_hands, directory))
            if progress:
                progress(1)
        return outcomes
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    try:
        futures = [
            pool.submit(play_batch, game_name, opts, batch, max_hands, directory)
            for batch in batches(specs, workers)
        ]
        for future in as_completed(futures):
            done = future.result()
            outcomes.extend(done)
            if progress:
                progress(len(done))
    except BaseException:
        _stop_at_once(pool)
        raise
    pool.shutdown()
    outcomes.sort(key=lambda o: (o.index, o.rotation))
    return outcomes


# --- summaries -------------------------------------------------------------------------------


@dataclass
class BotSummary:
    """One bot's results over a simulation."""

    bot: str
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    per_hand: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_per_hand(self) -> float:
        return statistics.fmean(self.per_hand) if self.per_hand else 0.0

    @property
    def mean_interval(self) -> tuple[float, float]:
        return mean_interval(self.per_hand)

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.win_interval
        mlo, mhi = self.mean_interval
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "unfinished": self.unfinished,
            "win_rate": round(self.win_rate, 4),
            "win_rate_95": [round(lo, 4), round(hi, 4)],
            "mean_score_per_hand": round(self.mean_per_hand, 3),
            "mean_score_per_hand_95": [round(mlo, 3), round(mhi, 3)],
        }


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (sound near 0 and 1, unlike p +- 2se)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """A normal-approximation 95% interval of a mean."""
    if not values:
        return (0.0, 0.0)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return (mean - half, mean + half)


def summarize(outcomes: Sequence[GameOutcome]) -> list[BotSummary]:
    """Per bot name, in order of first appearance."""
    out: dict[str, BotSummary] = {}
    for o in outcomes:
        entities_of: dict[str, set[str]] = {}
        for name, entity in zip(o.bots, o.entities, strict=True):
            entities_of.setdefault(name, set()).add(entity)
        for name, entities in entities_of.items():
            s = out.setdefault(name, BotSummary(name))
            s.games += 1
            if not o.finished:
                s.unfinished += 1
            elif o.winner in entities:
                s.wins += 1
            if o.hands:
                for entity in sorted(entities):
                    s.per_hand.append(o.totals[entity] / o.hands)
    return list(out.values())


def summary_json(game: Game, outcomes: Sequence[GameOutcome], seconds: float) -> dict[str, Any]:
    hands = sum(o.hands for o in outcomes)
    return {
        "game": game.name,
        "options": game.options.to_mapping(),
        "games": len(outcomes),
        "unfinished": sum(1 for o in outcomes if not o.finished),
        "hands": hands,
        "seconds": round(seconds, 3),
        "bots": [s.to_json() for s in summarize(outcomes)],
        "results": [
            {
                "game": o.index,
                "rotation": o.rotation,
                "bots": list(o.bots),
                "finished": o.finished,
                "winner": o.winner,
                "hands": o.hands,
                "totals": dict(o.totals),
            }
            for o in outcomes
        ],
    }
