"""Every example record replays to the results expected beside it.

The examples are a public contract (docs/records.md); the expected results are an
independent reading of the rulings. The project carries its own copy in tests/data/examples;
when the rules team's copy sits beside the checkout (../shared/spec/examples, as in the
team's workspace and CI) those are replayed too, and skipped cleanly where it is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tricktable.engine.game import game_names
from tricktable.engine.records import load_record, replay, summary

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples"
SHARED_EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "spec" / "examples"


def _expected(folder: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("expected-*.json")):
        out.update(json.loads(path.read_text()))
    return out


EXPECTED = _expected(EXAMPLES)
SHARED_EXPECTED = _expected(SHARED_EXAMPLES) if SHARED_EXAMPLES.is_dir() else {}


def test_the_project_carries_its_examples() -> None:
    assert len(EXPECTED) >= 9


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_replays_to_expected_results(name: str) -> None:
    check_example(EXAMPLES, EXPECTED, name)


@pytest.mark.skipif(not SHARED_EXPECTED, reason="../shared/spec/examples is not here")
@pytest.mark.parametrize("name", sorted(SHARED_EXPECTED) or ["none"])
def test_shared_example_replays_to_expected_results(name: str) -> None:
    check_example(SHARED_EXAMPLES, SHARED_EXPECTED, name)


def check_example(folder: Path, expected_by_name: dict[str, dict[str, Any]], name: str) -> None:
    record = load_record(folder / name)
    if record.game not in game_names():
        pytest.skip(f"{record.game} is not implemented yet")
    expected = expected_by_name[name]
    result = summary(replay(record))
    assert result["totals"] == expected["totals"]
    assert result["finished"] == expected["finished"]
    assert result["winner"] == expected["winner"]
    assert len(result["hands"]) == len(expected["hands"])
    for got, want in zip(result["hands"], expected["hands"], strict=True):
        for key, value in want.items():
            assert got[key] == value, f"{key}: {got[key]} != {value}"
