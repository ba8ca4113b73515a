"""Playouts per second from mid-hand positions, per game: what a search bot pays for each
sample. A playout copies the position and plays the rest of the hand through the checked
``step``, with random legal actions or with the rules bot's choices (which build an
observation at every decision); "random, batch" is ``Game.random_playout``, which draws
each card from the legal mask without making action lists (plain card play only: games
with calls beside their plays go through ``step`` as before).

    .venv/bin/python benchmarks/playouts.py [--positions 20] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.table import Table as RichTable

from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.game import Game, step
from tricktable.engine.state import Phase, State
from tricktable.play.table import Table

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("spades", {}),
    ("dummy-hand-spades", {"peek": "flip-2"}),
    ("3b-spades", {"players": 3}),
    ("3b-spades", {"players": 5}),
    ("dummy-whist", {}),
    ("double-dummy-whist", {}),
    ("paperless-spades", {}),
]


def mid_hand_positions(game: Game, count: int) -> list[State]:
    """Positions a few tricks into the card play of rules-bot games."""
    out: list[State] = []
    seed = 0
    while len(out) < count:
        table = Table(game, {s: make_bot("rules", game, s, seed) for s in game.player_seats},
                      seed)
        table.deal()
        target = random.Random(seed).randrange(1, 6)
        while not table.between_hands and not table.over:
            state = table.state
            if state.phase == Phase.PLAY and len(state.tricks) == target and not state.trick_cards:
                out.append(state.copy())
                break
            table.advance()
        seed += 1
    return out


def random_playout(game: Game, state: State, rng: random.Random) -> None:
    hand = state.hand_number
    while state.phase not in (Phase.SCORING, Phase.GAME_OVER) and state.hand_number == hand:
        step(state, rng.choice(game.legal_actions(state)))


def rules_playout(game: Game, state: State, bots: dict[int, Any]) -> None:
    hand = state.hand_number
    while state.phase not in (Phase.SCORING, Phase.GAME_OVER) and state.hand_number == hand:
        chooser = game.controller(state, state.to_act)
        legal = [a for a in game.legal_actions(state) if game.controller(state, a.seat) == chooser]
        if len(legal) == 1:
            step(state, legal[0])
        else:
            step(state, bots[chooser].choose(game.observe(state, chooser), legal))


def rate(run: Any, positions: list[State], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for p in positions:
            run(p.copy())
        best = min(best, time.perf_counter() - t)
    return len(positions) / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    console = Console()
    table = RichTable(title="playouts per second from mid-hand positions (best of repeats)")
    for col in ("game", "random playouts/s", "random, batch/s", "rules playouts/s"):
        table.add_column(col)
    for name, options in GAMES:
        game = make_game(name, options)
        positions = mid_hand_positions(game, args.positions)
        rng = random.Random(1)
        bots = {s: make_bot("rules", game, s, 1) for s in game.player_seats}
        r = rate(lambda s, g=game, r=rng: random_playout(g, s, r), positions, args.repeat)
        fast = rate(lambda s, g=game, r=rng: g.random_playout(s, r), positions, args.repeat)
        b = rate(lambda s, g=game, b=bots: rules_playout(g, s, b), positions, args.repeat)
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        table.add_row(label, f"{r:,.0f}", f"{fast:,.0f}", f"{b:,.0f}")
        console.print(f"{label}: random {r:,.0f}/s, batch {fast:,.0f}/s, rules {b:,.0f}/s")
    console.print(table)


if __name__ == "__main__":
    main()
