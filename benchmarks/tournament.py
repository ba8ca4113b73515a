"""Hands per second of a bot tournament with 1 and 2 workers, local processes against
Ray tasks on a local Ray (the same games either way).

Run: ``.venv/bin/python benchmarks/tournament.py [--game spades] [--games 40]`` (needs the
``ray`` extra for the Ray rows). The Ray figures include starting and stopping the local
Ray for the run, as ``tricktable simulate --backend ray`` does.
"""

from __future__ import annotations

import argparse
import time

from tricktable.play.simulate import run as run_locally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="spades")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--bots", default="rules")
    args = parser.parse_args()
    options = {"target": 300} if args.game != "3b-spades" else {"players": 4}
    from tricktable import make_game

    seats = len(make_game(args.game, options).player_seats)
    bots = [args.bots] * seats
    runners = [("local", run_locally)]
    try:
        from tricktable.research.ray import run as run_on_ray

        runners.append(("ray", run_on_ray))
    except ImportError:
        print("ray is not installed: local rows only")
    print(f"{args.game}, {args.games} games of {args.bots} bots")
    print(f"{'backend':8} {'workers':>7} {'hands':>6} {'seconds':>8} {'hands/s':>8}")
    for name, runner in runners:
        for workers in (1, 2):
            start = time.perf_counter()
            outcomes = runner(args.game, options, bots, args.games, "bench", workers=workers)
            seconds = time.perf_counter() - start
            hands = sum(o.hands for o in outcomes)
            print(f"{name:8} {workers:>7} {hands:>6} {seconds:>8.1f} {hands / seconds:>8.1f}")


if __name__ == "__main__":
    main()
