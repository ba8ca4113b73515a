"""Hands per second of rules bots playing each game against each other, on one core.

For each game (and the variants that change the work a hand takes), whole games are
played through ``session.Table`` with a ``rules`` bot in every real player's seat: each
hand is dealt from the seed, every decision is the bot's choice from its observation
(built by the game for every decision, as at a real table), and every action goes
through ``step``, which checks it against the rules. Games are played one after another
until a round has played at least ``--hands`` hands; rounds are repeated and the best
counts (the least disturbed by other work on the machine), the median is shown too.

Time is the CPU time of this process (``time.process_time``), pinned to one core where
the OS allows. ``--bots random`` measures random bots instead (the engine without the
bots' thinking); ``--json`` prints one JSON object. ``--parts`` also times, per action,
the bots' decisions (their ``choose`` and ``offer``) and the observations the table builds
for them (``Game.observe``), the rest being the table, the checked ``step``, deals and
scoring (wall clock around each call, about 0.2 us a call, so the parts add up to a
little more than the whole).

Run: ``.venv/bin/python benchmarks/simulate.py [--hands N] [--rounds R] [--bots rules]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from typing import Any

from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.game import game_names
from tricktable.play.table import Agent, Table

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("spades", {}),
    ("dummy-hand-spades", {}),
    ("dummy-hand-spades", {"peek": "flip-2"}),
    ("3b-spades", {"players": 3}),
    ("3b-spades", {"players": 4}),
    ("3b-spades", {"players": 5}),
    ("dummy-whist", {}),
    ("dummy-whist", {"jokers": True}),
    ("double-dummy-whist", {}),
    ("paperless-spades", {}),
]


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to cpu {cpu}"


def _timed(fn: Any, parts: dict[str, float], key: str) -> Any:
    """``fn`` with its wall-clock time added to ``parts[key]`` at every call."""
    def wrapper(*args: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            parts[key] += time.perf_counter() - start
    return wrapper


def one_round(
    name: str, options: dict[str, Any], bots: str, hands: int, seed: int,
    parts: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Play whole games until ``hands`` hands are done; CPU seconds, hands and actions.
    With ``parts``, the bots' decisions and the observations are timed into it."""
    played = actions = games = 0
    start = time.process_time()
    while played < hands:
        game = make_game(name, options)
        agents: dict[int, Agent] = {
            s: make_bot(bots, game, s, f"{seed}/{games}") for s in game.player_seats
        }
        if parts is not None:
            game.observe = _timed(game.observe, parts, "observe")  # type: ignore[method-assign]
            for agent in agents.values():
                agent.choose = _timed(agent.choose, parts, "bots")  # type: ignore[method-assign]
                agent.offer = _timed(agent.offer, parts, "bots")  # type: ignore[method-assign]
        table = Table(game, agents, f"bench/{seed}/{games}")
        table.run(max_hands=hands - played)
        played += table.state.finished_hands
        # the actions of every hand, the deals included
        actions += sum(len(log.actions) + 1 for log in table.state.hand_log())
        games += 1
    seconds = time.process_time() - start
    return {"seconds": seconds, "hands": played, "actions": actions, "games": games}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per round (200)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per game (3)")
    parser.add_argument("--bots", default="rules", help="the bot in every seat (rules)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--parts", action="store_true",
                        help="also time the bots' decisions and the observations")
    args = parser.parse_args(argv)
    pinned = pin_to_one_core()
    known = set(game_names())
    rows = []
    for name, options in VARIANTS:
        if name not in known:
            continue
        one_round(name, options, args.bots, 5, 0)  # warm-up
        parts = [{"bots": 0.0, "observe": 0.0} if args.parts else None
                 for _ in range(args.rounds)]
        rounds = [one_round(name, options, args.bots, args.hands, r, parts[r])
                  for r in range(args.rounds)]
        rates = [r["hands"] / r["seconds"] for r in rounds]
        best = max(range(len(rounds)), key=lambda i: rates[i])
        r = rounds[best]
        per_action = 1e6 / max(r["actions"], 1)
        row = {
            "game": name,
            "options": options,
            "hands_per_second": round(rates[best], 1),
            "median_hands_per_second": round(statistics.median(rates), 1),
            "microseconds_per_action": round(r["seconds"] * per_action, 1),
            "actions_per_hand": round(r["actions"] / max(r["hands"], 1), 1),
        }
        timed = parts[best]
        if timed is not None:  # the best round's parts, microseconds an action
            row["bots_us"] = round(timed["bots"] * per_action, 1)
            row["observe_us"] = round(timed["observe"] * per_action, 1)
        rows.append(row)
    result = {
        "bots": args.bots,
        "hands_per_round": args.hands,
        "rounds": args.rounds,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpu": pinned,
        "results": rows,
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"{args.bots} bots in every seat; {args.hands} hands x {args.rounds} rounds; "
          f"Python {result['python']}; {pinned}")
    head = f"{'game':<42} {'hands/s':>9} {'median':>9} {'us/action':>10} {'actions/hand':>13}"
    print(head + (f" {'bots us':>8} {'observe us':>10}" if args.parts else ""))
    for row in rows:
        label = row["game"] + (" " + json.dumps(row["options"]) if row["options"] else "")
        line = (f"{label:<42} {row['hands_per_second']:>9} {row['median_hands_per_second']:>9} "
                f"{row['microseconds_per_action']:>10} {row['actions_per_hand']:>13}")
        if args.parts:
            line += f" {row['bots_us']:>8} {row['observe_us']:>10}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
