"""Simulation: same seed, same results (whatever the number of workers); duplicate mode
replays the same deals with the bots rotated; unfinished games; the summary; the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tricktable.engine.records import load_record, replay
from tricktable.play.simulate import (
    GameOutcome,
    mean_interval,
    plan,
    run,
    summarize,
    wilson_interval,
)


def comparable(outcomes: list[GameOutcome]) -> list[GameOutcome]:
    return [replace(o, seconds=0.0) for o in outcomes]


BOTS = ["rules", "random", "rules", "random"]


def test_same_seed_same_results_and_another_seed_others() -> None:
    first = run("spades", {"target": 200}, BOTS, 6, seed=42)
    again = run("spades", {"target": 200}, BOTS, 6, seed=42)
    other = run("spades", {"target": 200}, BOTS, 6, seed=43)
    assert comparable(first) == comparable(again)
    assert comparable(first) != comparable(other)


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    one = run("paperless-spades", {}, BOTS, 12, seed=5, workers=1)
    two = run("paperless-spades", {}, BOTS, 12, seed=5, workers=2)
    three = run("paperless-spades", {}, BOTS, 12, seed=5, workers=3, duplicate=True)
    one_dup = run("paperless-spades", {}, BOTS, 12, seed=5, workers=1, duplicate=True)
    assert comparable(one) == comparable(two)
    assert comparable(three) == comparable(one_dup)


def test_duplicate_replays_each_deal_set_with_the_bots_rotated(tmp_path: Path) -> None:
    outcomes = run("dummy-hand-spades", {"target": 100}, ["rules", "random", "random"], 2,
                   seed=9, duplicate=True, records_dir=tmp_path)
    assert [(o.index, o.rotation) for o in outcomes] == [
        (0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)
    ]
    assert [o.bots for o in outcomes[:3]] == [
        ("rules", "random", "random"), ("random", "rules", "random"), ("random", "random", "rules")
    ]
    records = [load_record(tmp_path / f"dummy-hand-spades-00000-r{r}.json") for r in range(3)]
    first_deals = [(r.hands[0].dealer, r.hands[0].deal) for r in records]
    assert first_deals[0] == first_deals[1] == first_deals[2]
    for record, outcome in zip(records, outcomes[:3], strict=True):
        assert replay(record).totals == [outcome.totals[str(s)] for s in range(3)]
        assert record.extra["session"]["bots"] == {"0": outcome.bots[0], "1": outcome.bots[1],
                                                   "2": outcome.bots[2]}


def test_plan_checks_the_number_of_bots() -> None:
    with pytest.raises(ValueError, match="one bot per player"):
        plan(4, ["rules", "random"], 3, 0)
    assert len(plan(3, ["a", "b", "c"], 4, 0, duplicate=True)) == 12


def test_games_that_do_not_end_are_counted_unfinished() -> None:
    outcomes = run("spades", {}, ["random"] * 4, 3, seed=1, max_hands=2)
    assert all(not o.finished and o.hands == 2 and o.winner is None for o in outcomes)
    (random_bot,) = summarize(outcomes)
    assert (random_bot.games, random_bot.wins, random_bot.unfinished) == (3, 0, 3)
    assert len(random_bot.per_hand) == 6  # two teams a game, both random


def test_summary_counts_wins_per_bot_and_team() -> None:
    outcomes = run("spades", {"target": 150}, BOTS, 8, seed=3)
    summary = {s.bot: s for s in summarize(outcomes)}
    assert summary["rules"].games == summary["random"].games == 8
    assert summary["rules"].wins + summary["random"].wins == 8
    lo, hi = summary["rules"].win_interval
    assert lo <= summary["rules"].win_rate <= hi
    assert summary["rules"].mean_per_hand > summary["random"].mean_per_hand


def test_intervals() -> None:
    lo, hi = wilson_interval(95, 100)
    assert 0.88 < lo < 0.95 < hi < 0.98
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(10, 10)[1] == 1.0
    assert mean_interval([1.0, 1.0, 1.0]) == (1.0, 1.0)
    lo, hi = mean_interval([0.0, 2.0, 4.0])
    assert lo < 2.0 < hi


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tricktable.cli", *args], capture_output=True, text=True,
        timeout=120, check=False,
    )


def test_simulate_command(tmp_path: Path) -> None:
    done = cli("simulate", "3b-spades", "--option", "players=3", "--games", "4", "--bots",
               "rules,random,random", "--seed", "7", "--json", "--records", str(tmp_path))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 4 and result["options"] == {"players": 3}
    assert [b["bot"] for b in result["bots"]] == ["rules", "random"]
    assert len(list(tmp_path.glob("*.json"))) == 4
    again = cli("simulate", "3b-spades", "--option", "players=3", "--games", "4", "--bots",
                "rules,random,random", "--seed", "7", "--json", "--workers", "2")
    assert json.loads(again.stdout)["results"] == result["results"]
    table = cli("simulate", "paperless-spades", "--games", "3", "--bots", "rules,random",
                "--duplicate")
    assert table.returncode == 0, table.stderr
    assert "rules" in table.stdout and "win rate" in table.stdout


def test_simulate_command_refuses_bad_bots_and_options() -> None:
    wrong_count = cli("simulate", "spades", "--bots", "rules,random,rules")
    assert wrong_count.returncode == 2 and "4 players" in wrong_count.stderr
    unknown = cli("simulate", "spades", "--bots", "genius", "--games", "1")
    assert unknown.returncode == 2 and "unknown bot" in unknown.stderr
    bad = cli("simulate", "spades", "--option", "colour=blue")
    assert bad.returncode == 2 and "unknown option" in bad.stderr
