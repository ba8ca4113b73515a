"""Nothing lost: autosave as you play, resume exactly (bots' streams, declined offers,
names, fields this version does not know), and malformed session fields refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.actions import Action
from tricktable.engine.observation import Observation
from tricktable.engine.records import load_record, loads_record, replay
from tricktable.play.table import Agent, Table, resume


def cli(*args: str, data: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TRICKTABLE_DATA_DIR": str(data)}
    return subprocess.run([sys.executable, "-m", "tricktable.cli", *args], capture_output=True,
                          text=True, input=stdin, env=env, timeout=120)


def random_table(game_name: str, options: dict[str, object], seed: int) -> Table:
    game = make_game(game_name, options)
    agents: dict[int, Agent] = {s: make_bot("random", game, s, seed) for s in game.player_seats}
    return Table(game, agents, seed)


@pytest.mark.parametrize("game_name,options", [
    ("spades", {}), ("3b-spades", {"players": 4}), ("dummy-whist", {"honour": True}),
    ("dummy-hand-spades", {}),
])
@pytest.mark.parametrize("stop_after", [5, 37, 80])
def test_a_resumed_game_goes_on_exactly_as_if_never_stopped(
    game_name: str, options: dict[str, object], stop_after: int
) -> None:
    whole = random_table(game_name, options, 11)
    whole.run(max_hands=3)
    part = random_table(game_name, options, 11)
    for _ in range(stop_after):
        part.advance()
    saved = loads_record(part.record({"bots": {}}).dumps())

    def same_bots(game: object, info: dict[str, object]) -> dict[int, Agent]:
        return {s: make_bot("random", part.game, s, 11) for s in part.game.player_seats}

    resumed = resume(saved, same_bots)
    resumed.run(max_hands=3)
    assert [h.actions for h in resumed.record().hands] == [h.actions for h in whole.record().hands]


class Decliner:
    """Declines every out-of-turn chance and counts how often it was offered one."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.offers: list[tuple[Action, ...]] = []

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        return self.inner.choose(obs, legal)

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        self.offers.append(tuple(legal))
        return None


def test_declined_offers_are_not_offered_again_after_resume() -> None:
    game = make_game("3b-spades", {"players": 3})
    bots = {s: make_bot("rules", game, s, 4) for s in game.player_seats}
    deciders = {s: Decliner(b) for s, b in bots.items()}
    table = Table(game, dict(deciders), 4)
    table.deal()
    while not any(d.offers for d in deciders.values()):
        table.advance()
    offered = {s: list(d.offers) for s, d in deciders.items()}
    saved = loads_record(table.record().dumps())
    again = {s: Decliner(b) for s, b in bots.items()}
    resumed = resume(saved, lambda g, i: dict(again))
    resumed.advance()
    for seat, decider in again.items():
        assert not set(decider.offers) & set(offered[seat])


def test_unknown_fields_and_names_survive_resume_and_save(tmp_path: Path) -> None:
    table = random_table("spades", {}, 5)
    table.names = {0: "Ann", 1: "rules (seat 1)", 2: "rules (seat 2)", 3: "rules (seat 3)"}
    table.run(max_hands=1)
    for _ in range(10):
        table.advance()
    obj = table.record({"human": 0, "bots": {"1": "rules", "2": "rules", "3": "rules"}}
                       ).to_json()
    obj["venue"] = {"club": "lunch"}
    obj["hands"][0]["comment"] = "a fine hand"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(obj))
    done = cli("play", "--resume", str(path), "--seat", "2", data=tmp_path / "data",
               stdin="quit\n")
    assert done.returncode == 0, done.stderr
    saved = json.loads(path.read_text())
    assert saved["venue"] == {"club": "lunch"}
    assert saved["hands"][0]["comment"] == "a fine hand"
    names = saved["players"]
    assert names["0"] == "Ann" and names["2"] == "you"
    assert list(names.values()).count("you") == 1
    assert saved["session"]["human"] == 2


@pytest.mark.parametrize("field,value,words", [
    ("human", [1], "human"), ("bots", None, "bots"), ("seed", 1.5, "seed"),
    ("human", True, "human"),
])
def test_malformed_session_fields_are_refused(tmp_path: Path, field: str, value: object,
                                              words: str) -> None:
    table = random_table("spades", {}, 5)
    table.advance()
    obj = table.record({"human": 0, "bots": {"1": "rules"}}).to_json()
    obj["session"][field] = value
    path = tmp_path / "game.json"
    path.write_text(json.dumps(obj))
    result = cli("play", "--resume", str(path), data=tmp_path, stdin="quit\n")
    assert result.returncode == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_a_game_is_saved_as_it_is_played_and_resumed_without_a_path(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = cli("play", "spades", "--seed", "3", data=data, stdin="help\nquit\n")
    assert first.returncode == 0, first.stderr
    saved = list((data / "games").glob("*.json"))
    assert len(saved) == 1 and str(saved[0]) in first.stdout.replace("\n", "")
    assert "--resume" in first.stdout
    before = load_record(saved[0])
    again = cli("play", "--resume", data=data, stdin="y\nquit\n")
    assert again.returncode == 0, again.stderr
    assert "Resumed" in again.stdout
    after = load_record(saved[0])
    assert after.hands[0].actions[: len(before.hands[0].actions)] == before.hands[0].actions


def test_no_save_saves_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = cli("play", "spades", "--no-save", data=data, stdin="quit\n")
    assert result.returncode == 0 and not (data / "games").exists()
    nothing = cli("play", "--resume", data=data)
    assert nothing.returncode == 2 and "no unfinished game" in nothing.stderr


def ctrl_c_as_at_a_terminal() -> None:
    """In a child before it starts: Ctrl-C does what it does at a terminal. A child
    inherits an ignored SIGINT (and Python then never raises KeyboardInterrupt), and a
    test runner's worker may have it ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("how", ["eof", "sigterm", "sigint"])
def test_a_killed_terminal_loses_nothing_shown(tmp_path: Path, how: str) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "TRICKTABLE_DATA_DIR": str(data)}
    process = subprocess.Popen(
        [sys.executable, "-m", "tricktable.cli", "play", "dummy-whist", "--seed", "8"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env, restore_signals=True, preexec_fn=ctrl_c_as_at_a_terminal,
    )
    assert process.stdin is not None
    deadline = time.time() + 30
    while time.time() < deadline and not list((data / "games").glob("*.json")):
        time.sleep(0.1)
    if how != "eof":
        process.send_signal(signal.SIGTERM if how == "sigterm" else signal.SIGINT)
    out, err = process.communicate(input="", timeout=30)
    assert "Traceback" not in err
    assert "saved in" in out
    (path,) = list((data / "games").glob("*.json"))
    state = replay(load_record(path))
    assert state.hand_number == 0
    assert process.returncode == (0 if how == "eof" else 130)
