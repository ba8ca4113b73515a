"""Bad input anywhere on the command line: one line on standard error, status 2, never a
traceback; Ctrl-C: one line, status 130; untrusted text never reaches the terminal as
markup or control codes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_resume_keeps_everything import ctrl_c_as_at_a_terminal
from tricktable import cli as cli_module
from tricktable.engine.records import MAX_RECORD_BYTES
from tricktable.play.display import plain

EXAMPLES = Path(__file__).parent / "data" / "examples"


def cli(*args: str, env: dict[str, str] | None = None, stdin: str = "",
        timeout: float = 60) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "tricktable.cli", *args], capture_output=True, text=True,
        input=stdin, env=full_env, timeout=timeout, errors="replace",
    )


def one_line_refusal(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert lines[0].startswith("tricktable")
    for word in words:
        assert word in lines[0], lines[0]


def run_in_process(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli_module.run(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_3b_without_players_says_how_many() -> None:
    one_line_refusal(cli("simulate", "3b-spades"), "players=3")


@pytest.mark.parametrize("command", [("simulate", "chess"), ("games", "chess"),
                                     ("play", "chess")])
def test_unknown_game_lists_the_games(command: tuple[str, ...]) -> None:
    one_line_refusal(cli(*command), "unknown game 'chess'", "spades")


def test_bounds_on_workers_games_and_hands(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (("--workers", "100000"), ("--games", str(10**20)), ("--max-hands", "10**9"),
                 ("--max-hands", str(10**9))):
        status, _, err = run_in_process(capsys, "simulate", "spades", *args)
        assert status == 2 and len(err.strip().splitlines()) == 1, err


def test_records_directory_that_cannot_be(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for target in (a_file, a_file / "below", Path("/dev/null/x")):
        status, _, err = run_in_process(capsys, "simulate", "spades", "--games", "1",
                                        "--records", str(target))
        assert status == 2 and "--records" in err and len(err.strip().splitlines()) == 1


def test_records_nested_huge_and_special_files(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    digits = tmp_path / "digits.json"
    digits.write_text('{"format": "tricktable-record/1", "game": "spades", "hands": '
                      '[{"dealer": ' + "9" * 5000 + ', "deal": {}, "actions": []}]}')
    for path in (nested, digits, Path("/dev/zero"), tmp_path):
        status, out, err = run_in_process(capsys, "replay", str(path))
        assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, err


def test_version_and_short_help(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_in_process(capsys, "--version")
    assert status == 0 and out.startswith("tricktable ")
    status, out, _ = run_in_process(capsys, "play", "-h")
    assert status == 0 and "--resume" in out and "--no-save" in out


def test_option_defaults_are_not_python(capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("spades", "3b-spades", "dummy-whist"):
        status, out, _ = run_in_process(capsys, "games", name)
        assert status == 0
        for python in (" True ", " False ", " None ", "(1, 1)"):
            assert python not in out, (name, python)


def test_an_internal_fault_is_one_line_and_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(cli_module, "game_names", broken)
    monkeypatch.delenv("TRICKTABLE_DEBUG", raising=False)
    status, _, err = run_in_process(capsys, "games")
    assert status == 1 and "internal error" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", [("games",), ("games", "3b-spades")])
def test_an_ascii_terminal_does_not_crash(command: tuple[str, ...]) -> None:
    result = cli(*command, env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0, result.stderr


def test_replay_and_play_on_an_ascii_terminal(tmp_path: Path) -> None:
    record = hostile_record(tmp_path)
    result = cli("replay", str(record), env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0, result.stderr
    play = cli("play", "spades", "--seed", "1", "--no-save", stdin="help\nquit\n",
               env={"PYTHONIOENCODING": "ascii"})
    assert play.returncode == 0, play.stderr
    assert "Traceback" not in play.stderr


def hostile_record(tmp_path: Path) -> Path:
    """A legal record whose player names are markup, escape sequences and a lone
    surrogate."""
    source = json.loads((EXAMPLES / "paperless-spades-41-000.json").read_text())
    source["players"] = {
        "0": "[/]", "1": "\x1b]0;pwned\x07\x1b[2J", "2": "[link=http://x]click[/link]",
        "3": "\u202eevil\u0007",
    }
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(source))
    return path


def test_untrusted_names_are_shown_plain(tmp_path: Path) -> None:
    result = cli("replay", str(hostile_record(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "\u202e" not in result.stdout


def test_plain_text_keeps_what_is_printable() -> None:
    assert plain("Zoë 👩‍👩‍👧") == "Zoë 👩‍👩‍👧"
    assert plain("a\x1b[2Jb\ud800") == "a?[2Jb?"
    assert len(plain("x" * 10_000)) == 200


def test_ctrl_c_stops_a_simulation_with_workers_at_once() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "tricktable.cli", "simulate", "spades", "--games", "100000",
         "--workers", "2", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    time.sleep(4)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=10)  # a hang fails here
    assert process.returncode == 130
    assert err.strip() == "tricktable: interrupted", err


# --- every command that reads a record refuses a bad one in one line (issue 39) -----------

RECORD_COMMANDS = {
    "replay": ("replay",),
    "replay --json": ("replay", "--json"),
    "analyze": ("analyze",),
    "analyze --hand 1": ("analyze", "--hand", "1"),
    "play --resume": ("play", "--no-save", "--resume"),
}


def bad_records(tmp_path: Path) -> dict[str, tuple[Path, tuple[str, ...]]]:
    """Bad records, each with the words its refusal must hold."""
    source = (EXAMPLES / "paperless-spades-41-000.json").read_text()

    def changed(name: str, change: object) -> Path:
        obj = json.loads(source)
        assert callable(change)
        change(obj)
        path = tmp_path / name
        path.write_text(json.dumps(obj))
        return path

    def swap_two_cards_of_hand_2(obj: dict[str, list[dict[str, list[str]]]]) -> None:
        actions = obj["hands"][1]["actions"]
        actions[20], actions[21] = actions[21], actions[20]

    def bad_card_in_hand_2(obj: dict[str, list[dict[str, list[str]]]]) -> None:
        obj["hands"][1]["actions"][20] = "0: play ZZ"

    truncated = tmp_path / "truncated.json"
    truncated.write_text(source[: len(source) // 2])
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)  # sparse: no memory, no time
    return {
        "malformed JSON": (truncated, ("truncated.json ends early",)),
        "huge": (huge, ("huge.json", "at most 8 MiB")),
        "players key": (changed("key.json", lambda o: o["players"].update(x="Ann")),
                        ("'players' has the key 'x'", "seat numbers")),
        "players seat": (changed("seat.json", lambda o: o["players"].update({"4": "Ed"})),
                         ("seat 4, but the players sit in seats 0, 1, 2, 3",)),
        "players name": (changed("name.json", lambda o: o["players"].update({"0": 7})),
                         ("must be a name (a string), not int",)),
        "illegal later action": (
            changed("illegal.json", swap_two_cards_of_hand_2),
            ("hand 2, action 21 ('3: play JC')", "not seat 3's turn")),
        "malformed later action": (
            changed("malformed.json", bad_card_in_hand_2),
            ("hand 2, action 21 ('0: play ZZ')", "'ZZ' is not a card")),
    }


@pytest.mark.parametrize("command", list(RECORD_COMMANDS))
def test_every_record_reader_refuses_a_bad_record_in_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for problem, (path, words) in bad_records(tmp_path).items():
        status, out, err = run_in_process(capsys, *RECORD_COMMANDS[command], str(path))
        assert status == 2, (command, problem, err)
        assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
        if command != "play --resume":  # the play command's refusals are not this issue's
            words = (*words, path.name)
        for word in words:
            assert word in err, (command, problem, err)


def test_analyze_refuses_a_hand_number_that_is_not_in_the_record(
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = EXAMPLES / "paperless-spades-41-000.json"
    for hand in ("0", "3", "-1"):
        status, out, err = run_in_process(capsys, "analyze", "--hand", hand, str(record))
        assert status == 2 and out == "", err
        assert f"{record.name}: the record has hands 1 to 2, not {hand}" in err


def test_analyze_shows_names_and_the_file_name_plain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tricktable import analysis
    from tricktable.analysis import CardReview, HandReview

    def reviewed(record: object, hands: object, progress: object) -> list[HandReview]:
        card = CardReview(1, 1, "AS", [1, 3], 5, 4, ["KS"])  # the solver is not the point
        return [HandReview(1, {"0+2": 8, "1+3": 5}, [card], [], {"1": 1, "3": 0})]

    monkeypatch.setattr(analysis, "review_record", reviewed)
    record = hostile_record(tmp_path)
    named = tmp_path / "[bold]\x1b[2J.json"
    record.rename(named)
    status, out, err = run_in_process(capsys, "analyze", "--hand", "1", str(named))
    assert status == 0, err
    assert "\x1b" not in out + err and "\x07" not in out and "\u202e" not in out
    assert "[bold]?[2J.json" in out
    assert "seat 1 ?]0;pwned??[2J 1, seat 3 ?evil? 0" in out


def test_analyze_without_the_search_extra_says_which_extra_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli_module, "search_installed", lambda: False)
    record = tmp_path / "game.json"
    record.write_text("{}")
    assert cli_module.run(["analyze", str(record)]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "tricktable[search]" in said[0]
