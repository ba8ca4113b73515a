"""How often a search bot wins the game from late positions, playing for the game or for
points.

For each position a game is played by rules bots from its seed until, between two hands,
the game is late: by ``search.winchance``'s model it ends within ``LATE_HANDS`` hands in at
least ``--lateness`` of its futures (the search bot weighs the game from ``LATE_SHARE``
on; a higher share measures where the game is nearer its end); from there
it is played to its end three times on the same deals, one side (its seats turning from
position to position) held by: the search bot playing for the game (``plays_for_game``), the
same bot playing for the hand's points alone, and the rules bot. Reported per game: each
arm's share of games won with a 95% interval, the paired difference between the two search
arms (games won by playing for the game that playing for points lost, and the reverse), and
the search bot's decision times. Every game uses the search bot's fixed search (no think
time) so that a run is reproducible.

    .venv/bin/python benchmarks/endgames.py --positions 40 [--games spades,3b-spades]
        [--bot montecarlo] [--first 0] [--lateness 0.5] [--jsonl out.jsonl]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.progress import track
from rich.table import Table as RichTable

import tricktable.play  # noqa: F401  (registers the search bots)
from search_bots import Timed  # the search bot timed as search_bots.py times it
from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.game import Game
from tricktable.engine.state import State
from tricktable.play.table import Table
from tricktable.search.winchance import LATE_HANDS, LATE_SHARE, WinChance

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("spades", {}),
    ("3b-spades", {"players": 3}),
    ("dummy-whist", {}),
]
ARMS = ("game", "points", "rules")
"""The side's player: the search bot playing for the game, for points, the rules bot."""
MAX_HANDS = 30
"""Hands played at most from a position (sudden death can run on)."""


def late_position(game: Game, seed: int, model: WinChance, lateness: float
                  ) -> State | None:
    """The game of ``seed`` played by rules bots up to the first moment, between hands, when
    it ends within ``LATE_HANDS`` hands in ``lateness`` of the model's futures; None when it
    ended before."""
    table = Table(game, {s: make_bot("rules", game, s, seed) for s in game.player_seats}, seed)
    while not table.over:
        table.run(max_hands=table.state.finished_hands + 1)
        state = table.state
        if state.is_over:
            return None
        info = game.observe(state, 0).info
        late = model.ends_within(state.totals, state.finished_hands, info, LATE_HANDS)
        if late >= lateness:
            return state.copy()
    return None


def play_from(game: Game, position: State, seed: int, side: int, arm: str, bot: str,
              times: list[float]) -> bool:
    """Play ``position`` to its end with ``side``'s seats held as ``arm`` says; whether
    that side won."""
    agents: dict[int, Any] = {}
    for s in game.player_seats:
        if game.entity_of_seat(s) == side and arm != "rules":
            searcher = make_bot(bot, game, s, seed)
            searcher.plays_for_game = arm == "game"  # type: ignore[attr-defined]
            agents[s] = Timed(searcher, times)
        else:
            agents[s] = make_bot("rules", game, s, seed)
    table = Table(game, agents, seed)
    table.state = position.copy()
    table.run(max_hands=position.finished_hands + MAX_HANDS)
    return table.state.is_over and table.state.winner == side


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share of ``wins`` in ``n``."""
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=30, help="late positions per game")
    ap.add_argument("--first", type=int, default=0, help="seed of the first game")
    ap.add_argument("--games", help="comma-separated game names (default: "
                    + ", ".join(n for n, _ in GAMES) + ")")
    ap.add_argument("--bot", default="montecarlo")
    ap.add_argument("--lateness", type=float, default=0.5,
                    help=f"how late a position is: the share of the model's futures that end "
                    f"within {LATE_HANDS} hands (the bot weighs the game from {LATE_SHARE})")
    ap.add_argument("--jsonl", type=Path, help="append one JSON line per position")
    args = ap.parse_args()
    console = Console(width=150)
    games = GAMES if not args.games else [
        g for g in GAMES if g[0] in args.games.split(",")] or [
        (n, {}) for n in args.games.split(",")]
    out = RichTable(title=f"{args.bot} from late positions: share of games won by one side")
    for col in ("game", "positions", *ARMS, "game - points (won/lost)", "p50 ms", "p95 ms"):
        out.add_column(col)
    for name, options in games:
        game = make_game(name, options)
        model = WinChance(game)
        wins = {arm: 0 for arm in ARMS}
        gained = lost = played = 0
        times: list[float] = []
        label = f"{name} {options or ''}".strip()
        for seed in track(range(args.first, args.first + args.positions),
                          description=label, console=console):
            position = late_position(game, seed, model, args.lateness)
            if position is None:
                continue
            side = seed % game.num_entities
            won = {arm: play_from(game, position, seed, side, arm, args.bot, times)
                   for arm in ARMS}
            played += 1
            for arm in ARMS:
                wins[arm] += won[arm]
            gained += won["game"] and not won["points"]
            lost += won["points"] and not won["game"]
            if args.jsonl:
                with args.jsonl.open("a") as f:
                    f.write(json.dumps({"game": name, "options": options, "seed": seed,
                                        "side": side, "totals": position.totals,
                                        "won": won}) + "\n")
        cells = []
        for arm in ARMS:
            low, high = wilson(wins[arm], played)
            cells.append(f"{wins[arm]}/{played} ({low:.0%}..{high:.0%})")
        # the paired difference: +1, -1 or 0 a position; its mean and 95% interval
        mean = (gained - lost) / played if played else 0.0
        var = ((gained + lost) / played - mean * mean) if played else 0.0
        half = 1.96 * math.sqrt(max(var, 0.0) / played) if played > 1 else 0.0
        ordered = sorted(times)

        def ms(q: float, ordered: list[float] = ordered) -> str:
            return f"{ordered[int(q * (len(ordered) - 1))] * 1000:.0f}" if ordered else "-"

        out.add_row(label, str(played), *cells,
                    f"{mean:+.1%} ({mean - half:+.1%}..{mean + half:+.1%}), {gained}/{lost}",
                    ms(0.5), ms(0.95))
    console.print(out)


if __name__ == "__main__":
    main()
