"""How much stronger a search bot is than the rules bot, and how long it thinks.

Duplicate single hands: for each deal (seed) and each side, the hand is played once with
the search bot holding that side's cards (its partner too, in a partnership) and the rules
bot everywhere else, and once with rules bots everywhere; the difference in that side's
hand score is the search bot's gain on those cards. Reported per game: mean gain per hand
with a 95% interval; the gain in margin (the side's score less the mean of the others',
so that points taken from opponents count, as they do towards winning a game); nils made
and broken; the search bot's decision times (p50, p95, max); and the mean number of
worlds its card decisions sampled (with thinking time, slower worlds are fewer worlds).

    .venv/bin/python benchmarks/search_bots.py --deals 30 [--bot montecarlo] [--think 0.5]
        [--against rules|montecarlo|...] [--cpu-clock]
        [--objective margin|score] [--uniform-worlds] [--bid-weights-only] [--rules-passing]
        [--png out.png] [--hands out.jsonl]
    .venv/bin/python benchmarks/search_bots.py --paired before.jsonl after.jsonl
    .venv/bin/python benchmarks/search_bots.py --summarise a.jsonl b.jsonl [--png out.png]

``--against BOT`` compares the search bot with another bot instead of rules: the side's
cards are played once by each (its partner too), rules bots everywhere else, and the gain
is the difference. ``--cpu-clock`` makes every search bot's clock count its own thread's
CPU time, not the wall clock: on a machine other work shares, a bot then thinks as long
as it would on a core of its own (decision times are CPU times too).
``--summarise`` plays nothing: it adds up the hands kept by runs' ``--hands`` files (on
other deals, say) into one row per game, and ``--png`` charts them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.progress import track
from rich.table import Table as RichTable

import tricktable.play  # noqa: F401  (registers the search bots)
from tricktable import make_game
from tricktable.bots import DEFAULT_THINK, make_bot
from tricktable.engine.actions import Bid
from tricktable.play.table import Table
from tricktable.search.montecarlo import OBJECTIVES, MonteCarloBot, hand_value
from tricktable.search.worlds import Worlds

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("spades", {}),
    ("dummy-hand-spades", {"peek": "flip-2"}),
    ("3b-spades", {"players": 3}),
    ("3b-spades", {"players": 4}),
    ("dummy-whist", {}),
    ("double-dummy-whist", {}),
    ("paperless-spades", {}),
]


CLOCK = time.perf_counter
"""The clock decisions are timed with (``--cpu-clock``: the thread's CPU time)."""


class _CpuTime:
    """Stands in for the ``time`` module in the search modules (``--cpu-clock``): their
    ``perf_counter`` counts the thread's CPU time."""

    perf_counter = staticmethod(time.thread_time)

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def use_cpu_clock() -> None:
    """Every search bot (and the timing of its decisions) counts its thread's CPU time."""
    global CLOCK
    from tricktable.search import ismcts, montecarlo, strong

    CLOCK = time.thread_time
    for module in (montecarlo, strong, ismcts):
        if hasattr(module, "time"):
            module.time = _CpuTime()  # type: ignore[assignment]


def warm_up(name: str, options: dict[str, Any]) -> None:
    """Load what a search bot loads once a process (the solver's compiled kernel, the
    game-at-stake model's hand sample), so the first decision timed is not charged it."""
    from tricktable.search.solver import Solver
    from tricktable.search.winchance import WinChance

    Solver(table_bits=10)
    WinChance(make_game(name, options))


class Timed:
    """Wraps a bot to time its choices."""

    def __init__(self, bot: Any, times: list[float], worlds: list[int] | None = None,
                 dd: list[bool] | None = None) -> None:
        self.bot, self.times = bot, times
        self.worlds = worlds if worlds is not None else []
        self.dd = dd if dd is not None else []

    def reseed(self, position: str) -> None:
        self.bot.reseed(position)

    def choose(self, obs: Any, legal: Any) -> Any:
        t = CLOCK()
        out = self.bot.choose(obs, legal)
        self.times.append(CLOCK() - t)
        if getattr(self.bot, "last_values", None) and any(a.verb == "play" for a in legal):
            self.worlds.append(getattr(self.bot, "last_worlds", 0))
            self.dd.append(getattr(self.bot, "last_method", "") == "dd")
        return out

    def offer(self, obs: Any, legal: Any) -> Any:
        return self.bot.offer(obs, legal)


def nil_outcomes(state: Any) -> dict[int, bool]:
    """The seats that bid nil (or zero) this hand, each with whether it took no trick."""
    nils: dict[int, bool] = {}
    for a in state.actions:
        if isinstance(a, Bid):
            for seat in a.nils or ((a.seat,) if a.tricks == 0 and not a.mode else ()):
                nils[seat] = state.won[seat] == 0
    return nils


class NilCount:
    """Nils of the side and of its opponents, with and without the search bot."""

    def __init__(self) -> None:
        self.counts = [0] * 8  # per arm (bot, rules): side bid, made, opp bid, broken

    def add(self, arm: int, state: Any, side: set[int]) -> None:
        self.add_outcomes(arm, nil_outcomes(state), side)

    def add_outcomes(self, arm: int, outcomes: dict[int, bool], side: set[int]) -> None:
        for seat, made in outcomes.items():
            at = arm * 4 + (0 if seat in side else 2)
            self.counts[at] += 1
            self.counts[at + 1] += int(made if seat in side else not made)

    def text(self) -> str:
        c = self.counts
        return (f"made {c[1]}/{c[0]} ({c[5]}/{c[4]}); "
                f"broke {c[3]}/{c[2]} ({c[7]}/{c[6]})")


def hand_score(name: str, options: dict[str, Any], seed: int, search_seats: set[int],
               bot: str, times: list[float], side_seat: int,
               think: float | None = None, worlds: list[int] | None = None,
               weigh_plays: bool = True, dd: list[bool] | None = None
               ) -> tuple[float, float, Any]:
    """The hand of deal ``seed`` with the search bot at ``search_seats`` (its choices timed
    into ``times``, the worlds of its card decisions counted into ``worlds``, whether each
    was valued double dummy into ``dd``); with ``weigh_plays`` False its worlds weigh the
    other seats' bids only (``--bid-weights-only``). Returns the side's score, its margin,
    and the final state."""
    game = make_game(name, options)
    agents: dict[int, Any] = {}
    for s in game.player_seats:
        if s in search_seats:
            made = make_bot(bot, game, s, seed, think)
            if not weigh_plays and isinstance(made, MonteCarloBot):
                made.worlds_drawn = Worlds(game, weighted=made.weigh_bids, weigh_plays=False)
            agents[s] = Timed(made, times, worlds, dd)
        else:
            agents[s] = make_bot("rules", game, s, seed)
    table = Table(game, agents, seed)
    table.run(max_hands=1)
    label = game.entity_label(game.entity_of_seat(side_seat))
    scores = {k: float(v) for k, v in table.state.results[0].scores.items()}
    return scores.get(label, 0.0), hand_value(scores, label, "margin"), table.state


def quantile_ms(times: list[float], q: float) -> float:
    if not times:
        return 0.0
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def sides(name: str, options: dict[str, Any]) -> list[set[int]]:
    game = make_game(name, options)
    if game.partnership:
        return [{0, 2}, {1, 3}]
    return [{s} for s in game.player_seats]


def paired(before: Path, after: Path, console: Console) -> None:
    """Per game, the mean difference of the gains of the hands both runs played."""
    def load(path: Path) -> dict[tuple[Any, ...], dict[str, Any]]:
        rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
        return {(r["game"], r["deal"], tuple(r["side"])): r for r in rows}

    old, new = load(before), load(after)
    for game in sorted({key[0] for key in old}):
        keys = [key for key in old if key[0] == game and key in new]
        for field in ("gain", "margin_gain"):
            diffs = [new[key][field] - old[key][field] for key in keys]
            if len(diffs) < 2:
                continue
            mean, half = statistics.fmean(diffs), interval(diffs)
            console.print(f"{game} {field}: {len(diffs)} hands, after less before "
                          f"{mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f})")


def summarise(paths: list[Path], console: Console) -> list[tuple[Any, ...]]:
    """One row per game of the hands kept in ``paths`` (``--hands`` files of runs on other
    deals): hands, mean gain and its half interval, margin, decision times (of the hands
    that kept them), nils. A hand kept twice (same game, deal and side) counts once."""
    hands: dict[tuple[Any, ...], dict[str, Any]] = {}
    for path in paths:
        try:
            lines = path.read_text().splitlines()
        except OSError as error:
            raise SystemExit(f"--summarise: cannot read {path}: {error.strerror}") from None
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                key = (row["game"], row["deal"], tuple(row["side"]))
                float(row["gain"]), float(row["margin_gain"])
            except (ValueError, KeyError, TypeError):
                raise SystemExit(f"--summarise: {path} line {number} is not a hand of "
                                 "--hands (JSON with game, deal, side, gain, margin_gain)"
                                 ) from None
            if key in hands:
                console.print(f"{path} line {number}: {key[0]} deal {key[1]} side "
                              f"{list(key[2])} already counted, left out")
                continue
            hands[key] = row
    rows: list[tuple[Any, ...]] = []
    for game in dict.fromkeys(key[0] for key in hands):
        kept = [row for key, row in hands.items() if key[0] == game]
        gains = [float(row["gain"]) for row in kept]
        margins = [float(row["margin_gain"]) for row in kept]
        times = [ms / 1000 for row in kept for ms in row.get("ms", [])]
        timed = sum(1 for row in kept if "ms" in row)
        nils = NilCount()
        for row in kept:
            side = set(row["side"])
            for arm, field in ((0, "nils"), (1, "nils_rules")):
                nils.add_outcomes(arm, {int(s): made for s, made in row.get(field, {}).items()},
                                  side)
        margin_mean, margin_half = statistics.fmean(margins), interval(margins)
        rows.append((game, len(gains), statistics.fmean(gains), interval(gains),
                     f"{margin_mean:+.1f} ({margin_mean - margin_half:+.1f} to "
                     f"{margin_mean + margin_half:+.1f})",
                     quantile_ms(times, 0.5), quantile_ms(times, 0.95),
                     quantile_ms(times, 1.0), timed, nils.text(),
                     ", ".join(sorted({f"{row.get('bot')} against {row.get('against')}"
                                       for row in kept}))))
    return rows


def print_summary(rows: list[tuple[Any, ...]], console: Console) -> None:
    table = RichTable(title="hands kept by --hands files: duplicate single hands")
    for col in ("game", "hands", "gain per hand (95% CI)", "margin gain (95% CI)",
                "p50 ms", "p95 ms", "max ms", "hands timed", "nils: the side's made, "
                "opponents' broken (the other bot in brackets)", "bots"):
        table.add_column(col)
    for game, n, mean, half, margin_text, p50, p95, mx, timed, nil_text, bots in rows:
        times = (f"{p50:.0f}", f"{p95:.0f}", f"{mx:.0f}") if timed else ("-", "-", "-")
        table.add_row(game, str(n), f"{mean:+.1f} ({mean - half:+.1f} to {mean + half:+.1f})",
                      margin_text, *times, str(timed), nil_text, bots)
    console.print(table)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--first-deal", type=int, default=0,
                    help="seed of the first deal (runs on other deals add up)")
    ap.add_argument("--bot", default="montecarlo")
    ap.add_argument("--against", default="rules",
                    help="the bot the search bot's side is compared with (default rules)")
    ap.add_argument("--cpu-clock", action="store_true",
                    help="search bots count their thread's CPU time, not the wall clock")
    ap.add_argument("--games", default="", help="comma-separated game names (default: all)")
    ap.add_argument("--png", type=Path, help="write a chart of the gains")
    ap.add_argument("--gains", type=Path, help="append every hand's gain to this JSON file")
    ap.add_argument("--hands", type=Path, help="append one JSON line per hand to this file: "
                    "deal, side, gains, and the nils with and without the search bot")
    ap.add_argument("--think", type=float, default=DEFAULT_THINK,
                    help="the search bot's seconds per decision (0: its fixed search)")
    ap.add_argument("--objective", choices=OBJECTIVES, default=MonteCarloBot.objective,
                    help="what the search bot plays for (montecarlo.OBJECTIVES)")
    ap.add_argument("--uniform-worlds", action="store_true",
                    help="sample the hidden cards uniformly, not weighted by the bids")
    ap.add_argument("--bid-weights-only", action="store_true",
                    help="worlds weighted by the other seats' bids only, not by the cards "
                    "they played")
    ap.add_argument("--rules-passing", action="store_true",
                    help="cards passed on (3B's throw-back, gives) as the rules bot's, not "
                    "weighed by simulation")
    ap.add_argument("--pooled", type=Path, help="play nothing: chart and summarise the "
                    "gains kept by earlier runs' --gains in this file")
    ap.add_argument("--paired", type=Path, nargs=2, metavar=("BEFORE", "AFTER"),
                    help="play nothing: the same hands of two runs' --hands files compared "
                    "pair by pair (AFTER less BEFORE), per game")
    ap.add_argument("--summarise", type=Path, nargs="+", metavar="HANDS",
                    help="play nothing: one row per game of the hands kept in these "
                    "--hands files (runs on other deals add up); --png charts them")
    args = ap.parse_args()
    MonteCarloBot.objective = args.objective  # the search bots all derive from it
    MonteCarloBot.weigh_bids = not args.uniform_worlds
    MonteCarloBot.weigh_exchanges = not args.rules_passing
    console = Console()
    if args.cpu_clock:
        use_cpu_clock()
    if args.paired:
        paired(*args.paired, console)
        return
    if args.summarise:
        summary = summarise(args.summarise, console)
        if not summary:
            raise SystemExit("--summarise: no hands in these files")
        print_summary(summary, console)
        if args.png:
            chart([r[:4] for r in summary], args.bot, args.png, args.against,
                  own_scales=True)
            console.print(f"chart: {args.png}")
        return
    if args.pooled:
        pooled = json.loads(args.pooled.read_text())
        summary = [(label, len(g), statistics.fmean(g), interval(g))
                   for label, g in pooled.items()]
        for label, n, mean, half in summary:
            console.print(f"{label}: {n} hands, {mean:+.1f} ({mean - half:+.1f} to "
                          f"{mean + half:+.1f})")
        if args.png:
            chart(summary, args.bot, args.png, args.against)
            console.print(f"chart: {args.png}")
        return
    rows: list[tuple[Any, ...]] = []
    chosen = [g for g in GAMES if not args.games or g[0] in args.games.split(",")]
    for name, options in chosen:
        gains: list[float] = []
        margins: list[float] = []
        times: list[float] = []
        worlds: list[int] = []
        dd: list[bool] = []
        nils = NilCount()
        if args.think:
            warm_up(name, options)
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        deals = range(args.first_deal, args.first_deal + args.deals)
        for seed in track(deals, description=label, console=console):
            for side in sides(name, options):
                seat = min(side)
                hand_start = len(times)
                with_bot, margin, played = hand_score(name, options, seed, side, args.bot,
                                                      times, seat, args.think or None,
                                                      worlds, not args.bid_weights_only, dd)
                if args.against == "rules":
                    without, base_margin, baseline = hand_score(name, options, seed, set(),
                                                                args.bot, [], seat)
                else:
                    without, base_margin, baseline = hand_score(
                        name, options, seed, side, args.against, [], seat,
                        args.think or None, None, not args.bid_weights_only)
                gains.append(with_bot - without)
                margins.append(margin - base_margin)
                nils.add(0, played, side)
                nils.add(1, baseline, side)
                if args.hands:
                    with args.hands.open("a") as out:
                        out.write(json.dumps({
                            "game": label, "deal": seed, "side": sorted(side),
                            "bot": args.bot, "against": args.against, "think": args.think,
                            "gain": with_bot - without, "margin_gain": margin - base_margin,
                            "nils": {str(k): v for k, v in nil_outcomes(played).items()},
                            "nils_rules": {str(k): v for k, v in nil_outcomes(baseline).items()},
                            "ms": [round(t * 1000, 1) for t in times[hand_start:]],
                        }) + "\n")
        if args.gains:
            kept = json.loads(args.gains.read_text()) if args.gains.exists() else {}
            kept.setdefault(label, []).extend(gains)
            args.gains.write_text(json.dumps(kept))
        mean = statistics.fmean(gains)
        half = interval(gains)
        margin_mean = statistics.fmean(margins)
        margin_half = interval(margins)
        rows.append((label, len(gains), mean, half, quantile_ms(times, 0.5),
                     quantile_ms(times, 0.95), quantile_ms(times, 1.0), nils.text(),
                     f"{margin_mean:+.1f} ({margin_mean - margin_half:+.1f} to "
                     f"{margin_mean + margin_half:+.1f})",
                     statistics.fmean(worlds) if worlds else 0.0,
                     f"{100 * statistics.fmean(dd):.0f}%" if dd else "-"))
    thinking = f"thinking {args.think} s" if args.think else "fixed search"
    clock = ", CPU clock" if args.cpu_clock else ""
    table = RichTable(title=f"{args.bot} ({thinking}{clock}) against {args.against}: "
                      "duplicate single hands")
    for col in ("game", "hands", "gain per hand (95% CI)", "margin gain (95% CI)", "p50 ms",
                "p95 ms", "max ms", "worlds a card", "cards double dummy",
                f"nils: the side's made, opponents' broken ({args.against} in brackets)"):
        table.add_column(col)
    for label, n, mean, half, p50, p95, mx, nil_text, margin_text, card_worlds, dd_share in rows:
        table.add_row(label, str(n), f"{mean:+.1f} ({mean - half:+.1f} to {mean + half:+.1f})",
                      margin_text, f"{p50:.0f}", f"{p95:.0f}", f"{mx:.0f}", f"{card_worlds:.1f}",
                      dd_share, nil_text)
    console.print(table)
    if args.png:
        chart([r[:4] for r in rows], args.bot, args.png, args.against)
        console.print(f"chart: {args.png}")


def interval(gains: list[float]) -> float:
    """Half the width of the 95% interval of the mean gain."""
    return 1.96 * statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0


def chart(rows: list[tuple[Any, ...]], bot: str, png: Path, against: str = "rules",
          own_scales: bool = False) -> None:
    """Bars of the mean gain per game with their 95% intervals; with ``own_scales`` each
    game on its own axis (a whist book is a point, a Spades hand a hundred)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if own_scales:
        fig, axes = plt.subplots(len(rows), 1, figsize=(7.5, 0.5 + 0.75 * len(rows)),
                                 squeeze=False)
        for ax, (label, n, mean, half) in zip(axes[:, 0], rows, strict=True):
            ax.barh([f"{label} ({n})"], [mean], xerr=[half], color="#1d6b43", capsize=3,
                    height=0.5)
            reach = max(abs(mean) + half, 1e-9) * 1.15
            ax.set_xlim(-reach, reach)
            ax.axvline(0, color="#888", lw=1)
            ax.tick_params(axis="x", labelsize=8)
        fig.suptitle(f"{bot}'s gain over {against}, points a hand (95% CI), each game "
                     "on its own scale", fontsize=10)
        fig.tight_layout()
        fig.savefig(png, dpi=110)
        return
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(rows)))
    ax.barh([f"{r[0]} ({r[1]})" for r in rows], [r[2] for r in rows],
            xerr=[r[3] for r in rows], color="#1d6b43", capsize=3)
    ax.axvline(0, color="#888", lw=1)
    ax.set_xlabel(f"{bot}'s gain over {against}, points a hand (95% CI)")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    main()
