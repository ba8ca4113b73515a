"""Every example record in shared/spec/examples replays to the results expected beside it.

The examples are a public contract (records.md); the expected results are an independent
reading of rulings.md. Each game's examples run once that game is registered.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tricktable.engine.game import game_names
from tricktable.engine.records import load_record, replay, summary

# CI clones main with shared/ beside it, as the workspace has it
EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "spec" / "examples"


def _expected() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(EXAMPLES.glob("expected-*.json")):
        out.update(json.loads(path.read_text()))
    return out


EXPECTED = _expected() if EXAMPLES.is_dir() else {}


@pytest.mark.skipif(not EXPECTED, reason="shared/spec/examples is not beside this checkout")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_replays_to_expected_results(name: str) -> None:
    record = load_record(EXAMPLES / name)
    if record.game not in game_names():
        pytest.skip(f"{record.game} is not implemented yet")
    expected = EXPECTED[name]
    result = summary(replay(record))
    assert result["totals"] == expected["totals"]
    assert result["finished"] == expected["finished"]
    assert result["winner"] == expected["winner"]
    assert len(result["hands"]) == len(expected["hands"])
    for got, want in zip(result["hands"], expected["hands"], strict=True):
        for key, value in want.items():
            assert got[key] == value, f"{key}: {got[key]} != {value}"
