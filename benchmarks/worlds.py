"""What the search bots' worlds are worth and cost, per game.

For hands dealt from seeds 0.. and bid by rules bots, at the first card, from the seat to
play: the mean error of the high-card points (J=1 .. A=4) that the worlds give each hidden
hand against its real cards, for worlds weighted by the bids (``search.worlds``) and for
uniform ones, and the milliseconds each costs to draw. Then, over rules-bot games, the
share of a bot's decisions (with more than one choice) whose hand no world rebuilds: where
a search bot falls back to the rules bot.

Run: ``.venv/bin/python benchmarks/worlds.py [--deals N] [--games spades,3b-spades]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.table import Table as RichTable

from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.game import Game
from tricktable.engine.state import Phase
from tricktable.play.table import Table
from tricktable.search.random_positions import first_card_by_rules
from tricktable.search.sampler import InconsistentObservation
from tricktable.search.worlds import Worlds

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("spades", {}),
    ("dummy-hand-spades", {}),
    ("3b-spades", {"players": 3}),
    ("3b-spades", {"players": 4}),
    ("3b-spades", {"players": 5}),
    ("dummy-whist", {}),
    ("dummy-whist", {"jokers": True}),
    ("paperless-spades", {}),
]
WORLDS_PER_DEAL = 20


def high_cards(cards: int) -> int:
    return sum(max(0, c % 13 - 8) for c in range(52) if cards >> c & 1)


def reading(game: Game, deals: int) -> dict[bool, tuple[float, float]]:
    """Weighted or not: (mean high-card error, ms a world)."""
    errors: dict[bool, list[float]] = {True: [], False: []}
    seconds = {True: 0.0, False: 0.0}
    drawn = {True: 0, False: 0}
    for seed in range(deals):
        state = first_card_by_rules(game, seed)
        seat = state.to_act
        obs = game.observe(state, seat)
        for weighted in (True, False):
            worlds, rng = Worlds(game, weighted), random.Random(seed)
            start = time.perf_counter()
            kept = [w for w in (worlds.draw(obs, rng) for _ in range(WORLDS_PER_DEAL)) if w]
            seconds[weighted] += time.perf_counter() - start
            drawn[weighted] += WORLDS_PER_DEAL
            for other in game.player_seats:
                if kept and other != seat and not obs.visible[other] and state.hands[other]:
                    mean = statistics.fmean(high_cards(w.hands[other]) for w in kept)
                    errors[weighted].append(abs(mean - high_cards(state.hands[other])))
    return {w: (statistics.fmean(errors[w]) if errors[w] else float("nan"),
                1000 * seconds[w] / max(1, drawn[w])) for w in (True, False)}


def not_rebuilt(game: Game, games: int) -> tuple[int, int]:
    """(decisions whose hand no world rebuilds, decisions) over rules-bot games."""
    worlds = Worlds(game, weighted=False)
    rng = random.Random(1)
    failed = total = 0
    for seed in range(games):
        table = Table(game, {s: make_bot("rules", game, s, seed) for s in game.player_seats}, seed)
        for _ in range(600):
            if table.over:
                break
            state = table.state
            if state.to_act >= 0 and state.phase is not Phase.DEAL:
                obs = game.observe(state, game.controller(state, state.to_act))
                if len(obs.legal) > 1:
                    total += 1
                    try:
                        failed += worlds.draw(obs, rng) is None
                    except InconsistentObservation:
                        failed += 1
            table.advance()
    return failed, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40, help="deals read at the first card")
    ap.add_argument("--tables", type=int, default=6, help="rules-bot games for the rebuild rate")
    ap.add_argument("--games", default="", help="comma-separated game names (default: all)")
    args = ap.parse_args()
    console = Console()
    table = RichTable(title="worlds: high-card error of the hidden hands, cost, rebuild rate")
    for col in ("game", "error weighted", "error uniform", "ms weighted", "ms uniform",
                "decisions not rebuilt"):
        table.add_column(col)
    for name, options in GAMES:
        if args.games and name not in args.games.split(","):
            continue
        game = make_game(name, options)
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        with console.status(label):
            read = reading(game, args.deals)
            failed, total = not_rebuilt(game, args.tables)
        table.add_row(label, f"{read[True][0]:.2f}", f"{read[False][0]:.2f}",
                      f"{read[True][1]:.2f}", f"{read[False][1]:.2f}",
                      f"{failed}/{total} ({100 * failed / max(1, total):.1f}%)")
    console.print(table)


if __name__ == "__main__":
    main()
