"""Records: reading, writing, malformed input, and the replay command's contract."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tricktable import Phase, make_game, step
from tricktable.engine.actions import parse_action
from tricktable.engine.errors import NotationError, RecordError
from tricktable.engine.records import load_record, loads_record, record_from_state, replay, summary

CLI = [sys.executable, "-m", "tricktable.cli"]


def played_record(seed: int = 4, hands: int = 2) -> dict[str, object]:
    game = make_game("spades", {"target": 200})
    state = game.new_game()
    rng = random.Random(seed)
    while state.finished_hands < hands and state.phase is not Phase.GAME_OVER:
        if state.phase in (Phase.DEAL, Phase.SCORING):
            step(state, game.random_deal(state, rng))
        else:
            step(state, rng.choice(game.legal_actions(state)))
    return record_from_state(state).to_json()


def write(tmp_path: Path, obj: object, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(obj) if not isinstance(obj, str) else obj)
    return path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, check=False)


def test_a_record_round_trips_to_the_same_scores(tmp_path: Path) -> None:
    obj = played_record()
    path = write(tmp_path, obj)
    state = replay(load_record(path))
    again = record_from_state(state).to_json()
    assert again == obj
    assert summary(replay(loads_record(json.dumps(again))))["totals"] == summary(state)["totals"]


def test_unknown_fields_are_ignored_and_kept(tmp_path: Path) -> None:
    obj = played_record()
    obj["venue"] = "cafeteria"
    record = load_record(write(tmp_path, obj))
    assert record.extra == {"venue": "cafeteria"}
    assert record.to_json()["venue"] == "cafeteria"


def test_a_record_may_stop_in_the_middle_of_a_hand(tmp_path: Path) -> None:
    obj = played_record()
    hands = obj["hands"]
    assert isinstance(hands, list)
    hands[-1]["actions"] = hands[-1]["actions"][:20]
    state = replay(load_record(write(tmp_path, obj)))
    result = summary(state)
    assert len(result["hands"]) == 1
    assert result["finished"] is False and result["winner"] is None
    assert result["hand_in_progress"]["phase"] == "play"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda o: o.update(format="tricktable-record/9"), "format"),
        (lambda o: o.update(game="bridge"), "unknown game 'bridge'"),
        (lambda o: o.update(options={"target": "lots"}), "whole number"),
        (lambda o: o.update(options={"colour": "red"}), "unknown option 'colour'"),
        (lambda o: o["hands"][0].pop("dealer"), "dealer"),
        (lambda o: o["hands"][0]["deal"].update({"0": "AS AS"}), "seat 0 is dealt 2 cards"),
        (lambda o: o["hands"][0]["deal"].update({"0": "ZZ"}), "'ZZ' is not a card"),
        (lambda o: o["hands"][0].update(dealer=7), "seat 7"),
        (lambda o: o["hands"][0]["actions"].insert(0, "hello"), "not an action"),
        (lambda o: o["hands"][0]["actions"].insert(0, "1: dance"), "unknown verb"),
        (lambda o: o["hands"][1].update(dealer=o["hands"][0]["dealer"]), "dealer rotation"),
    ],
)
def test_malformed_records_name_what_is_wrong(tmp_path: Path, mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    obj = played_record()
    mutate(obj)
    path = write(tmp_path, obj)
    with pytest.raises(RecordError) as err:
        replay(load_record(path))
    assert message in str(err.value)
    proc = run("replay", str(path))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert message in proc.stderr


def test_truncated_file_is_reported_as_truncated(tmp_path: Path) -> None:
    text = json.dumps(played_record())
    path = write(tmp_path, text[: len(text) // 2])
    with pytest.raises(RecordError, match="truncated"):
        load_record(path)
    proc = run("replay", str(path), "--json")
    assert proc.returncode == 2 and proc.stdout == "" and "truncated" in proc.stderr


def test_illegal_action_names_hand_position_text_and_rule(tmp_path: Path) -> None:
    obj = played_record()
    actions = obj["hands"][1]["actions"]  # type: ignore[index]
    # make the 7th action (a play) a card its seat does not hold
    seat = actions[6].split(":")[0]
    held = obj["hands"][1]["deal"]  # type: ignore[index]
    all_cards = set(" ".join(held.values()).split())
    foreign = next(c for c in sorted(all_cards) if c not in held[seat].split())
    actions[6] = f"{seat}: play {foreign}"
    path = write(tmp_path, obj)
    proc = run("replay", str(path), "--json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "hand 2, action 7" in proc.stderr
    assert f"'{seat}: play {foreign}'" in proc.stderr
    assert "own cards" in proc.stderr


def test_missing_file_and_non_json(tmp_path: Path) -> None:
    proc = run("replay", str(tmp_path / "nope.json"))
    assert proc.returncode == 2 and proc.stdout == "" and "cannot read" in proc.stderr
    path = write(tmp_path, "[1, 2]")
    with pytest.raises(RecordError, match="JSON object"):
        load_record(path)
    path = write(tmp_path, "{\"format\": ]")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(path)


def test_replay_json_shape(tmp_path: Path) -> None:
    path = write(tmp_path, played_record())
    proc = run("replay", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) >= {"hands", "totals", "finished", "winner"}
    assert set(out["hands"][0]) >= {"scores", "totals", "bags"}
    assert set(out["totals"]) == {"0", "1"}
    table = run("replay", str(path))
    assert table.returncode == 0 and "team 0" in table.stdout


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1: play 10h", "1: play TH"),
        ("2: play as", "2: play AS"),
        ("0: bid 6 nil=1,3", "0: bid 6 nil=1,3"),
        ("1: bid 3 Uptown", "1: bid 3 uptown"),
        ("3: play AH low", "3: play AH low"),
        ("0: give 2C 3D 4S", "0: give 2C 3D 4S"),
        ("2: exchange BJ", "2: exchange BJ"),
        ("1: trump h", "1: trump H"),
        ("0: direction LOW", "0: direction low"),
        ("1: peek 0 4 7", "1: peek 0 4 7"),
        ("2:renege 5", "2: renege 5"),
        ("0: pass", "0: pass"),
        ("1: keep", "1: keep"),
        ("1: rebid 4", "1: rebid 4"),
    ],
)
def test_action_notation_round_trips(text: str, expected: str) -> None:
    assert str(parse_action(text)) == expected


@pytest.mark.parametrize(
    "text",
    ["play AS", "x: play AS", "1:", "1: play", "1: play 1S", "1: bid", "1: bid x",
     "1: bid 3 sideways", "1: trump X", "1: direction up", "1: pass now", "1: bid 2 nil=1,1"],
)
def test_malformed_actions_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)
