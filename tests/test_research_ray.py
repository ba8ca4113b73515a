"""Tournaments on a local Ray: the same results as the local runner (duplicate mode
included), records gathered on the driver, and the command line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="the ray extra is not installed")

from tricktable.play.simulate import GameOutcome
from tricktable.play.simulate import run as run_locally
from tricktable.research.ray import run as run_on_ray


def same(outcomes: list[GameOutcome]) -> list[GameOutcome]:
    return [replace(o, seconds=0.0) for o in outcomes]


def test_ray_plays_the_same_tournament_as_the_local_runner(tmp_path: Path) -> None:
    args = ("dummy-hand-spades", {"target": 150}, ["rules", "random", "rules"], 3, "ray")
    local = run_locally(*args, duplicate=True, workers=1, records_dir=tmp_path / "local")
    seen: list[int] = []
    remote = run_on_ray(*args, duplicate=True, workers=2, records_dir=tmp_path / "ray",
                        progress=seen.append)
    assert same(remote) == same(local) and len(local) == 9
    assert sum(seen) == 9
    names = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "ray").iterdir()) and len(names) == 9
    for name in names:
        assert (tmp_path / "ray" / name).read_text() == (tmp_path / "local" / name).read_text()


def test_the_command_line_backend(tmp_path: Path) -> None:
    from test_cli_hardening import cli, one_line_refusal

    one_line_refusal(cli("simulate", "spades", "--backend", "spark"), "--backend")
    one_line_refusal(cli("simulate", "spades", "--address", "ray://x:1"), "--address")
    done = cli("simulate", "spades", "-o", "target=100", "-n", "2", "--backend", "ray",
               "--workers", "2", "--json", timeout=180)
    assert done.returncode == 0, done.stderr
    assert '"games": 2' in done.stdout or '"games":2' in done.stdout
