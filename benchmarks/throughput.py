"""Random play of whole hands of partnership Spades: tricktable against OpenSpiel.

Both engines play the same workload in the same process, pinned to one core: a fresh
game, a random deal, then uniformly random legal actions until the hand is scored.

- tricktable, through its public API: ``game.random_deal`` and ``step`` for the deal, then
  ``game.legal_actions`` and ``step`` (which checks every action against the rules).
- OpenSpiel's ``spades`` (C++) driven from Python: ``new_initial_state``, then at chance
  nodes a uniform choice among ``chance_outcomes()`` (the 52 cards dealt one by one) and
  at decision nodes a uniform choice among ``legal_actions()``, each passed to
  ``apply_action``, until the state is terminal.

Both draw from Python's ``random.Random``. Time is the CPU time of this process
(``time.process_time``), so time spent waiting for the core while other programs run
is not counted; rounds of the engines are interleaved and each engine's best round
counts (the least disturbed by anything else running on the machine).

OpenSpiel is measured two ways: dealing by ``legal_actions()`` at chance nodes (valid
here because every outcome is equally likely), its fastest way to sample a deal from
Python, and by ``chance_outcomes()``. The last line printed is ``ratio: X``,
tricktable's hands per second divided by OpenSpiel's fastest; the ratio against the
other way is the line before it. ``--json`` prints one JSON object instead.

Each tricktable hand is the first hand of a fresh game, so it starts with the draw for the
first dealer (the high card of four drawn), which OpenSpiel's spades does not have: it has
no dealer, and its seat 0 always bids and leads first. An extra line shows the same
workload with the first dealer fixed (a Spades whose ``draw_first_dealer`` always gives
seat 3, so that seat 0 bids and leads first, as in OpenSpiel); every action still goes
through ``step``. It is for information: ``ratio`` is measured with the draw.

Run: ``.venv/bin/python benchmarks/throughput.py [--hands N] [--rounds R] [--json]``
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from tricktable import Phase, make_game, step
from tricktable.games.spades import Spades

Runner = Callable[[int, random.Random], int]
"""Plays ``hands`` hands with the given RNG and returns the number of actions applied."""


class FixedDealerSpades(Spades):
    """Spades whose first hand seat 3 always deals, so that seat 0 bids and leads first:
    OpenSpiel's spades, which has no dealer, without the draw for the first dealer."""

    def draw_first_dealer(self, rng: random.Random) -> int:
        return 3


def tricktable_runner(fixed_first_dealer: bool = False) -> Runner:
    game = FixedDealerSpades() if fixed_first_dealer else make_game("spades")
    ended = (Phase.SCORING, Phase.GAME_OVER)  # (an Enum member read off its class is slow)

    def run(hands: int, rng: random.Random) -> int:
        legal_actions = game.legal_actions
        choice = rng.choice
        actions = 0
        for _ in range(hands):
            state = game.new_game()
            step(state, game.random_deal(state, rng))
            actions += 1
            while legal := legal_actions(state):
                step(state, choice(legal))
                actions += 1
            if state.phase not in ended:
                raise AssertionError(f"tricktable hand stopped early: {state}")
        return actions

    return run


def tricktable_batch_runner() -> Runner:
    """The same hands, the card play by ``Game.random_playout`` (cards drawn from the legal
    mask, no action lists, no second check): what a search's playouts pay. The deal and
    the bids still go through ``step``."""
    game = make_game("spades")

    def run(hands: int, rng: random.Random) -> int:
        actions = 0
        for _ in range(hands):
            state = game.new_game()
            step(state, game.random_deal(state, rng))
            game.random_playout(state, rng)
            actions += 1 + len(state.past_hands[-1].actions)
        return actions

    return run


PARTS = (
    "new game, first dealer, deal",
    "bids (list, choice, step)",
    "legal_actions of a play",
    "rng.choice of a play",
    "step of a play",
    "the last play's step (scores the hand)",
)
"""The parts of a hand that ``--parts`` times, in the order they happen."""


def hand_parts(hands: int, seed: int) -> dict[str, float]:
    """Microseconds per hand spent in each part of the tricktable workload (``PARTS``),
    timed by ``perf_counter`` around each part: the timers add about 0.1 us a part, so the
    parts add up to somewhat more than the runner's time per hand."""
    game = make_game("spades")
    rng = random.Random(seed)
    clock = time.perf_counter
    spent = dict.fromkeys(PARTS, 0.0)
    new, bids, legal_t, choice_t, step_t, last_t = PARTS
    for _ in range(hands):
        t0 = clock()
        state = game.new_game()
        step(state, game.random_deal(state, rng))
        t1 = clock()
        spent[new] += t1 - t0
        while state.phase is not Phase.PLAY:
            step(state, rng.choice(game.legal_actions(state)))
        spent[bids] += clock() - t1
        while True:
            # (outside the timed parts) the hand's last card: its step scores the hand
            last = state.hands[state.to_act].bit_count() == 1 and len(state.trick_cards) == 3
            t0 = clock()
            legal = game.legal_actions(state)
            t1 = clock()
            if not legal:
                break
            action = rng.choice(legal)
            t2 = clock()
            step(state, action)
            t3 = clock()
            spent[legal_t] += t1 - t0
            spent[choice_t] += t2 - t1
            spent[last_t if last else step_t] += t3 - t2
    return {part: seconds / hands * 1e6 for part, seconds in spent.items()}


def openspiel_runner(chance_by_legal_actions: bool = False) -> Runner | None:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")

    def run(hands: int, rng: random.Random) -> int:
        choice = rng.choice
        actions = 0
        for _ in range(hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    if chance_by_legal_actions:
                        action = choice(state.legal_actions())
                    else:
                        action = choice(state.chance_outcomes())[0]
                else:
                    action = choice(state.legal_actions())
                state.apply_action(action)
                actions += 1
        return actions

    return run


def pin_to_one_core() -> str:
    """Run on a single core (the first one this process may use), if the OS allows it."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def timed(run: Runner, hands: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    gc.collect()
    start = time.process_time()
    actions = run(hands, rng)
    return time.process_time() - start, actions


def measure(runners: dict[str, Runner], hands: int, rounds: int) -> dict[str, dict[str, Any]]:
    """Interleave ``rounds`` rounds of every runner; summarise each runner's rounds."""
    times: dict[str, list[float]] = {name: [] for name in runners}
    counts: dict[str, int] = {}
    for run in runners.values():  # warm up: imports, caches, first allocations
        run(max(1, hands // 20), random.Random(-1))
    for r in range(rounds):
        for name, run in runners.items():
            seconds, actions = timed(run, hands, seed=r)
            times[name].append(seconds)
            counts[name] = actions
    out: dict[str, dict[str, Any]] = {}
    for name, ts in times.items():
        best, median = min(ts), statistics.median(ts)
        out[name] = {
            "hands_per_s": round(hands / best, 1),
            "median_hands_per_s": round(hands / median, 1),
            "us_per_action": round(best / counts[name] * 1e6, 3),
            "actions_per_hand": round(counts[name] / hands, 2),
            "rounds_s": [round(t, 4) for t in ts],
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=1000, help="hands per round (1000)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds of each engine (10)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--parts", action="store_true",
                        help="also time each part of a tricktable hand (best of the rounds)")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.rounds < 1:
        parser.error("--hands and --rounds must be at least 1")

    pinned = pin_to_one_core()
    runners: dict[str, Runner] = {
        "tricktable": tricktable_runner(),
        "tricktable (random_playout)": tricktable_batch_runner(),
        "tricktable (first dealer fixed)": tricktable_runner(fixed_first_dealer=True),
    }
    openspiel = openspiel_runner()
    openspiel_fast = openspiel_runner(chance_by_legal_actions=True)
    if openspiel is not None and openspiel_fast is not None:
        runners["openspiel"] = openspiel
        runners["openspiel (deal by legal_actions)"] = openspiel_fast
    results = measure(runners, args.hands, args.rounds)
    parts: dict[str, float] = {}
    if args.parts:
        hand_parts(max(1, args.hands // 20), -1)  # warm up
        rounds = [hand_parts(args.hands, r) for r in range(args.rounds)]
        parts = {p: min(r[p] for r in rounds) for p in PARTS}

    ratio: float | None = None
    ratio_fast: float | None = None
    ratio_batch: float | None = None
    ratio_fixed: float | None = None
    if "openspiel" in results:
        ours = results["tricktable"]["hands_per_s"]
        fastest = results["openspiel (deal by legal_actions)"]["hands_per_s"]
        ratio = ours / results["openspiel"]["hands_per_s"]
        ratio_fast = ours / fastest
        ratio_batch = results["tricktable (random_playout)"]["hands_per_s"] / fastest
        ratio_fixed = results["tricktable (first dealer fixed)"]["hands_per_s"] / fastest

    if args.json:
        report = {
            "game": "spades",
            "hands_per_round": args.hands,
            "rounds": args.rounds,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "affinity": pinned,
            "results": results,
            "ratio": None if ratio_fast is None else round(ratio_fast, 2),
            "ratio_vs_deal_by_chance_outcomes": None if ratio is None else round(ratio, 2),
            "ratio_random_playout": None if ratio_batch is None else round(ratio_batch, 2),
            "ratio_first_dealer_fixed": None if ratio_fixed is None else round(ratio_fixed, 2),
        }
        if parts:
            report["us_per_hand_by_part"] = {p: round(us, 1) for p, us in parts.items()}
        print(json.dumps(report, indent=1))
        return 0

    print(
        f"Random play of whole hands of partnership Spades, deal included: {args.hands} hands "
        f"x {args.rounds} rounds, best round by CPU time; "
        f"Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {pinned}."
    )
    print()
    width = max(len(name) for name in results)
    print(
        f"{'engine':<{width}}  {'hands/s':>9}  {'median':>9}  {'us/action':>9}  "
        f"{'actions/hand':>12}"
    )
    for name, r in results.items():
        print(
            f"{name:<{width}}  {r['hands_per_s']:>9.0f}  {r['median_hands_per_s']:>9.0f}  "
            f"{r['us_per_action']:>9.2f}  {r['actions_per_hand']:>12.1f}"
        )
    print()
    if parts:
        print("where a tricktable hand's time goes (us per hand, each part's best round):")
        for part, us in parts.items():
            print(f"  {part:<40} {us:>7.1f}")
        print(f"  {'all parts':<40} {sum(parts.values()):>7.1f}")
        print()
    if ratio is None:
        print("OpenSpiel (pyspiel) is not installed: no ratio.")
        print("ratio: n/a")
        return 1
    print(f"ratio of random_playout (batch card play) against OpenSpiel's fastest: "
          f"{ratio_batch:.2f}")
    print(f"ratio with the first dealer fixed (no draw for it, as OpenSpiel's spades has "
          f"none): {ratio_fixed:.2f}")
    print(f"ratio against OpenSpiel dealing by chance_outcomes: {ratio:.2f}")
    print(f"ratio: {ratio_fast:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
