"""``benchmarks/search_bots.py --summarise``: the hands of several ``--hands`` files (runs on
other deals) add up to one row per game, and one chart."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "search_bots.py"


@pytest.fixture(scope="module")
def search_bots() -> ModuleType:
    spec = importlib.util.spec_from_file_location("search_bots_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hand(game: str, deal: int, side: list[int], gain: float, margin: float,
         **more: Any) -> str:
    return json.dumps({"game": game, "deal": deal, "side": side, "bot": "strong",
                       "against": "montecarlo", "think": 0.5, "gain": gain,
                       "margin_gain": margin, **more})


def write(path: Path, *lines: str) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


def run(search_bots: ModuleType, monkeypatch: pytest.MonkeyPatch, *args: str) -> None:
    monkeypatch.setattr(sys, "argv", ["search_bots.py", *args])
    search_bots.main()


def test_two_files_make_one_row_per_game(search_bots: ModuleType, tmp_path: Path) -> None:
    first = write(tmp_path / "a.jsonl",
                  hand("spades", 1, [0, 2], 10, 20, nils={"0": True}, nils_rules={"0": False}),
                  hand("spades", 1, [1, 3], -4, -8, nils={"0": True}, nils_rules={"0": True}),
                  hand("dummy-whist", 1, [0, 2], 1, 2))
    second = write(tmp_path / "b.jsonl",
                   hand("spades", 2, [0, 2], 30, 40, ms=[400.0, 500.0, 600.0]))
    rows = search_bots.summarise([first, second], search_bots.Console())
    by_game = {row[0]: row for row in rows}
    assert set(by_game) == {"spades", "dummy-whist"}
    _game, hands, mean, half, margin, p50, p95, most, timed, nils, bots = by_game["spades"]
    assert hands == 3 and mean == pytest.approx(12.0)
    assert half == pytest.approx(search_bots.interval([10, -4, 30]))
    assert margin.startswith("+17.3 (")
    # times come from the hands that kept them; the others count as untimed
    assert (p50, p95, most, timed) == (500.0, 600.0, 600.0, 1)
    # side 0-2's own nil made (the other bot's broken); side 1-3 broke it neither time
    assert nils == "made 1/1 (0/1); broke 0/1 (0/1)"
    assert bots == "strong against montecarlo"
    assert by_game["dummy-whist"][1] == 1 and by_game["dummy-whist"][3] == 0.0


def test_a_hand_kept_twice_counts_once(search_bots: ModuleType, tmp_path: Path) -> None:
    first = write(tmp_path / "a.jsonl", hand("spades", 1, [0, 2], 10, 20))
    again = write(tmp_path / "b.jsonl", hand("spades", 1, [0, 2], 10, 20),
                  hand("spades", 2, [0, 2], 20, 20))
    [row] = search_bots.summarise([first, again], search_bots.Console())
    assert row[1] == 2 and row[2] == pytest.approx(15.0)


def test_summarise_charts_the_rows(search_bots: ModuleType, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    first = write(tmp_path / "a.jsonl", hand("spades", 1, [0, 2], 10, 20),
                  hand("spades", 1, [1, 3], -2, -4))
    second = write(tmp_path / "b.jsonl", hand("paperless-spades", 3, [0, 2], 1, 1))
    png = tmp_path / "chart.png"
    run(search_bots, monkeypatch, "--summarise", str(first), str(second), "--png", str(png),
        "--bot", "strong", "--against", "montecarlo")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("content, expected", [
    ("not json\n", "line 1 is not a hand of --hands"),
    ('{"game": "spades", "deal": 1}\n', "line 1 is not a hand of --hands"),
    ("\n", "no hands in these files"),
])
def test_bad_files_get_one_line(search_bots: ModuleType, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch, content: str,
                                expected: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(SystemExit) as stop:
        run(search_bots, monkeypatch, "--summarise", str(path))
    assert expected in str(stop.value) and "\n" not in str(stop.value)


def test_a_missing_file_gets_one_line(search_bots: ModuleType, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit) as stop:
        run(search_bots, monkeypatch, "--summarise", str(tmp_path / "none.jsonl"))
    assert str(stop.value).startswith("--summarise: cannot read")


def test_hands_files_keep_the_decision_times(search_bots: ModuleType, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    kept = tmp_path / "hands.jsonl"
    run(search_bots, monkeypatch, "--bot", "rules", "--games", "dummy-whist", "--deals", "1",
        "--think", "0", "--hands", str(kept))
    lines = [json.loads(line) for line in kept.read_text().splitlines()]
    assert lines and all(line["ms"] and min(line["ms"]) >= 0 for line in lines)
    [row] = search_bots.summarise([kept], search_bots.Console())
    assert row[8] == len(lines)
