"""The solver's kernel against the plain-minimax reference on risky 3B endings, at any size.

The endings and the questions are those of ``tests/test_solver_stress.py`` (issue 45): 3B
with 4 or 5 players and ace calls, a suit to be led whose ace is out with an opponent of
the seat asked about, that seat void in it. Every wrong answer is printed in words as it
is found; the exit status is 1 when there was one. The reference takes milliseconds on a
two-card ending, tenths of a second on a three-card one, and many seconds from four.

    .venv/bin/python benchmarks/solver_stress.py                      # 2,000 endings, seed 45
    .venv/bin/python benchmarks/solver_stress.py --positions 24000 --seed 7 --cards 2,3
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
# the endings are drawn, asked and described as the CI test does
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from test_solver_stress import compare


def card_counts(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--cards is a comma-separated list of cards a hand (1 to 13), not {text!r}"
        ) from None
    if not counts or not all(1 <= c <= 13 for c in counts):
        raise argparse.ArgumentTypeError(f"cards a hand must be 1 to 13, not {text!r}")
    return counts


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"endings: a whole number from 1, not {text!r}")
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=positive, default=2000,
                        help="endings to draw (default 2000)")
    parser.add_argument("--seed", type=int, default=45, help="seed of the draw (default 45)")
    parser.add_argument("--cards", type=card_counts, default=(2, 2, 3),
                        help="cards a hand, each ending drawn one of these (default 2,2,3)")
    args = parser.parse_args()
    console = Console()
    console.print(f"{args.positions} risky 3B endings, seed {args.seed}, "
                  f"cards a hand drawn from {','.join(map(str, args.cards))}")
    wrong = 0
    start = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[wrong]} wrong"), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("endings", total=args.positions, wrong=0)
        for mismatch in compare(args.positions, args.seed, args.cards):
            if mismatch is None:
                progress.advance(task)
                continue
            wrong += 1
            progress.update(task, wrong=wrong)
            progress.console.print(str(mismatch), highlight=False, soft_wrap=True)
    elapsed = time.perf_counter() - start
    console.print(f"{args.positions} endings, {2 * args.positions} questions, {wrong} wrong "
                  f"answers ({elapsed:.1f} s, the kernel's compile included)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
