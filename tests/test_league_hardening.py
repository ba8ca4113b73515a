"""``tricktable league`` against hostile text and bad records (issue 39).

Nothing from a record or the database reaches the terminal as rich markup or a control
code: every sub-command, in tables and as JSON, shows names such as ``[/]`` or an OSC 8
link as plain characters and exits 0. A bad record, a bad --players file or a bad name
typed on the command line is one line on standard error, status 2, and stores nothing.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest

from tricktable import cli as cli_module
from tricktable.engine.game import make_game
from tricktable.engine.records import MAX_RECORD_BYTES, Record
from tricktable.league.commands import MAX_MAPPING_BYTES, league_app
from tricktable.league.store import LeagueStore
from tricktable.play.simulate import make_bot
from tricktable.play.table import Table

EXAMPLES = Path(__file__).parent / "data" / "examples"

HOSTILE = (
    "[/]",
    "[bold]x",
    "\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\",
    "\x1b]0;title\x07",
    "\x1b[2J",
    "\x9b2J",  # C1 CSI: a clear screen on a terminal that reads 8-bit controls
    "\u202eevil\u2066",  # bidirectional overrides
    "$\\nosuchmacro$",  # matplotlib mathtext, which would fail to draw the chart
)
GROUP = "lunch [/]\x1b[2J"
SESSION = "[bold]\x1b]0;title\x07"
NOTE = "led [red]the ace\x1b[5m\x9b31m"

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Control codes (ESC, BEL, C1 such as CSI) and bidirectional overrides; line breaks and
tabs are the output's own."""


def finished_game(name: str, options: dict[str, object], seed: str,
                  names: tuple[str, ...]) -> Record:
    game = make_game(name, options)
    agents = {s: make_bot("rules", game, s, seed) for s in game.player_seats}
    table = Table(game, agents, seed, dict(zip(game.player_seats, names, strict=True)))
    assert table.run(500)
    return table.record()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three finished games whose players are all the hostile names: two 3B games (the
    score sheet, tray, streaks) and a Paperless game (stakes)."""
    folder = tmp_path_factory.mktemp("hostile")
    games = [
        finished_game("3b-spades", {"players": 4, "hands": 2}, "a", HOSTILE[:4]),
        finished_game("3b-spades", {"players": 4, "hands": 2}, "b", HOSTILE[4:]),
        finished_game("paperless-spades", {}, "c", HOSTILE[2:6]),
    ]
    paths = []
    for i, record in enumerate(games):
        path = folder / f"game-{i}.json"
        record.save(path)
        paths.append(path)
    return paths


def league(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> tuple[int, str, str]:
    """``tricktable league ARGS`` as the command line runs it (internal errors included)."""
    status = cli_module.run(["league", *args, "--db", f"sqlite:///{db}"])
    out, err = capsys.readouterr()
    return status, out, err


def assert_safe(text: str) -> None:
    found = UNSAFE.search(text)
    assert found is None, (found.group(), text)


@pytest.fixture
def hostile_db(records: list[Path], tmp_path: Path,
               capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "league.db"
    status, out, err = league(capsys, db, "import", *map(str, records), "--group", GROUP,
                              "--session", SESSION, "--date", "2026-11-02")
    assert status == 0, err
    assert_safe(out + err)
    assert "3 games added to lunch [/]?[2J" in out
    return db


def sub_command_args(db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, list[str]]:
    """Arguments that make each read-only sub-command show everything it has."""
    status, out, _ = league(capsys, db, "games", "--json")
    assert status == 0
    key = json.loads(out)["games"][0]["key"]
    return {
        "standings": [],
        "card": [HOSTILE[0]],
        "week": ["--day", "2026-11-04"],
        "streaks": ["--min", "1"],
        "trays": [],
        "stakes": [],
        "sessions": [],
        "h2h": [],
        "games": [],
        "mark": [key[:12], "bonehead", HOSTILE[0], "--note", NOTE],
        "link": ["--group", GROUP],
    }


def test_every_sub_command_shows_hostile_names_plain(
    hostile_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = sub_command_args(hostile_db, capsys)
    commands = {c.name for c in league_app.registered_commands}
    assert commands == {*args, "import"}, "a new sub-command: add it to sub_command_args"
    status, out, err = league(capsys, hostile_db, "mark", *args.pop("mark"))
    assert status == 0, err
    assert_safe(out + err)
    for command, extra in args.items():
        status, out, err = league(capsys, hostile_db, command, *extra)
        assert status == 0, (command, err)
        assert_safe(out + err)
        assert out.strip(), command
    status, out, _ = league(capsys, hostile_db, "card", HOSTILE[0])
    assert "[/]" in out and "led [red]the ace?[5m?31m" in out  # the note, shown plain
    assert "?]8;;http://evil?\\link" in league(capsys, hostile_db, "h2h")[1]


def test_json_keeps_hostile_names_escaped(
    hostile_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = sub_command_args(hostile_db, capsys)
    del args["mark"]
    for command, extra in args.items():
        status, out, err = league(capsys, hostile_db, command, *extra, "--json")
        assert status == 0, (command, err)
        assert_safe(out)
        json.loads(out)
    status, out, _ = league(capsys, hostile_db, "games", "--json")
    games = json.loads(out)
    assert games["group"] == GROUP  # JSON says exactly what is stored
    assert {p for g in games["games"] for p in g["players"]} == set(HOSTILE)
    assert games["games"][0]["session"] == SESSION
    assert "\\u009b2J" in out and "\\u202eevil\\u2066" in out


def test_chart_of_a_player_with_hostile_names(
    hostile_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "chart.png"
    status, out, err = league(capsys, hostile_db, "card", HOSTILE[7], "--chart", str(chart))
    assert status == 0, err
    assert_safe(out + err)
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_refusals_show_stored_names_plain(
    hostile_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for args in (("card", "Zed"), ("standings", "--group", "\x1b]0;x\x07"),
                 ("mark", "0", "bonehead", "Zed"), ("week", "--day", "\x1b[2J")):
        status, out, err = league(capsys, hostile_db, *args)
        assert status == 2, (args, err)
        assert out == "" and len(err.splitlines()) == 1, err
        assert_safe(err)


# --- bad records and bad input: one line, status 2, nothing stored -----------------------


def refused(capsys: pytest.CaptureFixture[str], db: Path, *args: str) -> str:
    status, out, err = league(capsys, db, *args)
    assert status == 2, (args, out, err)
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert LeagueStore(f"sqlite:///{db}").groups() == []  # nothing stored
    return err


def example(tmp_path: Path, name: str, change: object = None, text: str | None = None
            ) -> Path:
    """A finished example game, changed by ``change(obj)``, or replaced by ``text``."""
    obj = json.loads((EXAMPLES / "paperless-spades-41-000.json").read_text())
    if callable(change):
        change(obj)
    path = tmp_path / name
    path.write_text(text if text is not None else json.dumps(obj))
    return path


def _swap_two_cards_of_hand_2(obj: dict[str, list[dict[str, list[str]]]]) -> None:
    actions = obj["hands"][1]["actions"]
    actions[20], actions[21] = actions[21], actions[20]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda o: o.update(players={"x": "Ann", "1": "Bob", "2": "Cy", "3": "Di"}),
         "'players' has the key 'x'"),
        (lambda o: o.update(players={"0": "Ann", "1": "Bob", "2": "Cy", "7": "Di"}),
         "seat 7, but the players sit in seats 0, 1, 2, 3"),
        (lambda o: o["players"].update({"3": ["Di"]}), "must be a name (a string), not list"),
        (lambda o: o["players"].update({"3": "D" * 101}), "a name is at most 100"),
        (_swap_two_cards_of_hand_2, "hand 2, action 21 ('3: play JC'): it is not seat 3's turn"),
    ],
    ids=["key-x", "seat-7", "not-a-string", "long-name", "illegal-later-action"],
)
def test_a_bad_record_is_refused_in_one_line(
    change: object, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = example(tmp_path, "good.json")
    bad = example(tmp_path, "bad.json", change)
    err = refused(capsys, tmp_path / "league.db", "import", str(good), str(bad), "--group",
                  "lunch", "--date", "2026-11-02")
    assert "bad.json" in err and says in err, err


def test_malformed_and_huge_records_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    truncated = example(tmp_path, "truncated.json", text='{"format": "tricktable-record/1"')
    assert "truncated.json ends early" in refused(
        capsys, db, "import", str(truncated), "--group", "lunch", "--date", "2026-11-02")
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)  # sparse: no memory, no time
    assert "a record is at most 8 MiB" in refused(
        capsys, db, "import", str(huge), "--group", "lunch", "--date", "2026-11-02")


def test_bad_players_and_dates_files_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "league.db"
    good = str(example(tmp_path, "good.json"))
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(MAX_MAPPING_BYTES + 1)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    surrogate = tmp_path / "surrogate.json"
    surrogate.write_text(json.dumps({f"P{s}": f"\ud800{s}" for s in range(4)}))
    long_name = tmp_path / "long.json"
    long_name.write_text(json.dumps({f"P{s}": f"{s}" * 101 for s in range(4)}))
    for option, path, says in (
        ("--players", huge, "is at most 1 MiB"),
        ("--players", Path("/dev/zero"), "not a regular file"),
        ("--players", deep, "cannot read the player mapping"),
        ("--players", surrogate, "not UTF-8 text"),
        ("--players", long_name, "at most 100"),
        ("--dates", huge, "is at most 1 MiB"),
    ):
        args = ["import", good, "--group", "lunch", option, str(path)]
        if option == "--players":
            args += ["--date", "2026-11-02"]
        assert says in refused(capsys, db, *args), (option, path)


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--group", "lunch\udcff", "the group's name holds a byte that is not UTF-8"),
        ("--group", "g" * 101, "the group's name is 101 characters long"),
        ("--session", "\udcff", "the session's name holds a byte"),
    ],
)
def test_bad_names_typed_for_an_import_are_refused(
    option: str, value: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["import", str(example(tmp_path, "good.json")), "--date", "2026-11-02"]
    if option != "--group":
        args += ["--group", "lunch"]
    assert says in refused(capsys, tmp_path / "league.db", *args, option, value)


def test_bad_mark_text_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "league.db"
    status, _, err = league(capsys, db, "import", str(example(tmp_path, "good.json")),
                            "--group", "lunch", "--date", "2026-11-02")
    assert status == 0, err
    status, out, _ = league(capsys, db, "games", "--json")
    key = json.loads(out)["games"][0]["key"]
    for args, says in (
        (("P0", "--note", "\udcff"), "--note holds a byte"),
        (("P0", "--note", "n" * 1001), "--note is 1001 characters long"),
        (("P\udcff",), "the person holds a byte"),
    ):
        status, out, err = league(capsys, db, "mark", key, "bonehead", *args)
        assert status == 2 and says in err and len(err.splitlines()) == 1, err
    store = LeagueStore(f"sqlite:///{db}")
    assert store.entries("lunch")[0].marks == ()
    assert store.entries("lunch")[0].played == date(2026, 11, 2)
