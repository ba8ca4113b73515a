"""The league's store (SQLAlchemy + Alembic) and the ``tricktable league`` command: a
month of lunchtime 3B imported from records, re-imported with the same numbers, marks added
and refused, every view in the terminal and as JSON."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect
from typer.testing import CliRunner

from test_league_3b import season
from tricktable.cli import app
from tricktable.engine.game import make_game
from tricktable.engine.records import Record
from tricktable.league import views
from tricktable.league.importer import import_records
from tricktable.league.model import LeagueError, Mark
from tricktable.league.store import LeagueStore
from tricktable.league.threeb import threeb_history
from tricktable.play.simulate import make_bot
from tricktable.play.table import Table

NAMES = {0: "rules-0", 1: "rules-1", 2: "rules-2", 3: "rules-3"}
MAPPING = {"rules-0": "Ann", "rules-1": "Bob", "rules-2": "Cy", "rules-3": "Di"}


def lunch_game(seed: str) -> Record:
    """A short finished 4-handed 3B game between rules bots."""
    game = make_game("3b-spades", {"players": 4, "hands": 2})
    agents = {s: make_bot("rules", game, s, seed) for s in game.player_seats}
    table = Table(game, agents, seed, NAMES)
    assert table.run(100)
    return table.record()


@pytest.fixture(scope="module")
def month(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, date]]:
    """Twenty weekdays of lunch from Monday 2 November 2026, one game a day (two on
    Fridays), saved as record files."""
    folder = tmp_path_factory.mktemp("records")
    out = []
    day = date(2026, 11, 2)
    n = 0
    while len(out) < 24:
        if day.weekday() < 5:
            for _ in range(2 if day.weekday() == 4 else 1):
                path = folder / f"lunch-{n:02d}.json"
                lunch_game(f"lunch/{n}").save(path)
                out.append((path, day))
                n += 1
        day += timedelta(days=1)
    return out


def test_the_migration_makes_the_tables(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'league.db'}"
    LeagueStore(url).close()
    LeagueStore(url).close()  # opening again: already up to date
    tables = set(inspect(create_engine(url)).get_table_names())
    assert {"players", "league_groups", "league_memberships", "league_sessions",
            "league_games", "league_game_players", "league_marks",
            "league_alembic_version"} <= tables


def test_a_season_round_trips_through_the_store() -> None:
    store = LeagueStore("sqlite:///:memory:")
    assert all(store.add_game(e) for e in season())
    assert not store.add_game(season()[0])  # the same key: nothing changes
    stored = store.entries("lunch")
    assert threeb_history(stored).standings() == threeb_history(season()).standings()
    assert [e.key for e in stored] == [f"G{i}" for i in range(1, 11)]
    assert stored[5].marks == season()[5].marks
    assert store.members("lunch") == ["Ann", "Bob", "Cy", "Di"]
    assert store.entries("another") == []


def test_stars_per_session_and_standings_views() -> None:
    out = views.session_stars(season())
    assert [(x["session"], x["games"], x["stars"]) for x in out[3:6]] == [
        ("2026-11-05", 1, {"Ann": 1}), ("2026-11-06", 1, {"Bob": 1}),
        ("2026-11-09", 2, {"Bob": 2})]
    table = views.standings(season(), 2026)
    assert [(r["rank"], r["person"], r["stars"]) for r in table["threeb"]] == [
        (1, "Bob", 5), (2, "Ann", 4), (3, "Cy", 1), (4, "Di", 0)]
    assert table["games"] == 10 and table["sessions"] == 9
    assert views.standings(season(), 2025)["threeb"] == []


def test_a_mark_is_stored_only_if_the_rules_allow_it() -> None:
    store = LeagueStore("sqlite:///:memory:")
    games = season()
    games[4] = type(games[4])(**{**vars(games[4]), "marks": ()})  # G5 without Ann's chit
    for e in games:
        store.add_game(e)
    with pytest.raises(LeagueError, match="names another player"):
        store.add_mark("G5", Mark("chit", "Ann", named="Zed"))
    with pytest.raises(LeagueError, match="not the tray person"):
        store.add_mark("G5", Mark("chit", "Bob", named="Cy"))
    assert store.entries("lunch")[4].marks == ()
    store.add_mark("G5", Mark("chit", "Ann", "on the way to the cafe", named="Cy"))
    assert threeb_history(store.entries("lunch")).standings() == threeb_history(
        season()).standings()
    with pytest.raises(LeagueError, match="no game"):
        store.add_mark("G99", Mark("bonehead", "Ann"))


def test_a_month_of_lunch_imports_and_reimports_to_the_same_numbers(
    month: list[tuple[Path, date]],
) -> None:
    store = LeagueStore("sqlite:///:memory:")
    triples = [(str(p), Record(**vars(_load(p))), d) for p, d in month]
    first = import_records(store, triples, "lunch", MAPPING)
    assert len(first.added) == 24 and first.already == ()
    before = views.standings(store.entries("lunch"))
    again = import_records(store, triples, "lunch", MAPPING)
    assert again.added == () and len(again.already) == 24
    assert views.standings(store.entries("lunch")) == before
    rows = before["threeb"]
    assert sum(r["stars"] for r in rows) == 24 and sum(r["games"] for r in rows) == 96
    assert before["sessions"] == 20  # one session per day
    fridays = [e for e in store.entries("lunch") if e.played == date(2026, 11, 6)]
    assert [e.sequence for e in fridays] == [0, 1]  # the order the files were given
    # the stars agree with a walk over the weeks by hand
    wins: dict[tuple[str, int], int] = {}
    for e in store.entries("lunch"):
        for w in e.winners:
            week = e.played.isocalendar()[1]
            wins[(w, week)] = wins.get((w, week), 0) + 1
    outside = {p: sum(1 for (q, _), n in wins.items() if q == p and n >= 3)
               for p in MAPPING.values()}
    assert {r["person"]: r["outside_stars"] for r in rows} == {
        p: n for p, n in outside.items() if p in {r["person"] for r in rows}}


def test_a_bad_record_stores_nothing(month: list[tuple[Path, date]], tmp_path: Path) -> None:
    store = LeagueStore("sqlite:///:memory:")
    unfinished = _load(month[0][0])
    unfinished.hands = unfinished.hands[:1]
    triples = [(str(month[1][0]), _load(month[1][0]), month[1][1]),
               ("short.json", unfinished, month[0][1])]
    with pytest.raises(LeagueError, match=r"short\.json: the game is not finished"):
        import_records(store, triples, "lunch", MAPPING)
    assert store.groups() == []
    with pytest.raises(LeagueError, match="not in the player mapping"):
        import_records(store, triples[:1], "lunch", {"rules-0": "Ann"})


def _load(path: Path) -> Record:
    from tricktable.engine.records import load_record

    return load_record(path)


# --- the command ----------------------------------------------------------------------------


def run(*args: str, db: Path) -> Any:
    result = CliRunner().invoke(app, ["league", *args], env={
        "TRICKTABLE_DATABASE_URL": f"sqlite:///{db}"})
    return result


def test_league_in_the_terminal(month: list[tuple[Path, date]], tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    players = tmp_path / "players.json"
    players.write_text(json.dumps(MAPPING))
    dates = tmp_path / "dates.json"
    dates.write_text(json.dumps({p.name: d.isoformat() for p, d in month}))
    files = [str(p) for p, _ in month]
    out = run("import", *files, "--group", "lunch", "--dates", str(dates), "--players",
              str(players), db=db)
    assert out.exit_code == 0, out.output
    assert "24 games added to lunch, 0 already there." in out.output
    standings = run("standings", "--json", db=db)
    assert standings.exit_code == 0
    again = run("import", *files, "--group", "lunch", "--dates", str(dates), "--players",
                str(players), "--json", db=db)
    assert json.loads(again.output) == {"added": [], "already": json.loads(again.output)[
        "already"]} and len(json.loads(again.output)["already"]) == 24
    assert run("standings", "--json", db=db).output == standings.output
    table = run("standings", db=db).output
    assert "lunch — 3B/RTR, all time: stars" in table and "the tray" in table

    card = run("card", "Ann", "--json", "--chart", str(tmp_path / "ann.png"), db=db)
    assert card.exit_code == 0, card.output
    ann = json.loads(card.output)
    assert ann["person"] == "Ann" and len(ann["results"]) == 24
    assert (tmp_path / "ann.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert run("card", "Ann", db=db).exit_code == 0

    week = json.loads(run("week", "--day", "2026-11-08", "--json", db=db).output)
    assert (week["monday"], week["sunday"]) == ("2026-11-02", "2026-11-08")
    assert len(week["games"]) == 6  # Monday to Thursday, two on Friday
    assert sum(r["stars"] for r in week["threeb"]) == 6
    sessions = json.loads(run("sessions", "--json", db=db).output)["sessions"]
    assert len(sessions) == 20 and sum(sum(x["stars"].values()) for x in sessions) == 24
    assert [x["games"] for x in sessions[:5]] == [1, 1, 1, 1, 2]
    for command in ("week", "streaks", "trays", "games", "stakes", "sessions", "h2h"):
        result = run(command, "--day", "2026-11-08", db=db) if command == "week" else run(
            command, db=db)
        assert result.exit_code == 0, (command, result.output)
    streaks = json.loads(run("streaks", "--min", "1", "--json", db=db).output)["streaks"]
    assert sum(s["length"] for s in streaks) == 24

    key = json.loads(run("games", "--json", db=db).output)["games"][0]["key"]
    ok = run("mark", key[:10], "bonehead", "Bob", "--note", "trumped partner's... no partner",
             db=db)
    assert ok.exit_code == 0, ok.output
    marks = json.loads(run("card", "Bob", "--json", db=db).output)["marks"]
    assert [(m["kind"], m["detail"]) for m in marks] == [
        ("bonehead", "trumped partner's... no partner")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("mark", "G7", "chit", "Cy", "--named", "Zed"), "names another player"),
        (("mark", "G8", "chit", "Ann", "--named", "Bob"), "holds no tray chit"),
        (("mark", "G1", "boneheaded", "Ann"), "unknown mark"),
        (("mark", "nokey", "bonehead", "Ann"), "no game has a key"),
        (("standings", "--group", "club"), "no group 'club'"),
        (("card", "Zed"), "'Zed' has played no game"),
        (("week", "--day", "someday"), "not a date"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    args: tuple[str, ...], message: str, tmp_path: Path
) -> None:
    db = tmp_path / "league.db"
    store = LeagueStore(f"sqlite:///{db}")
    for e in season():
        store.add_game(e)
    store.close()
    result = run(*args, db=db)
    assert result.exit_code == 2
    assert message in result.output and result.output.count("\n") == 1
    assert "Traceback" not in result.output


def test_import_needs_a_date_and_a_group(month: list[tuple[Path, date]], tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    result = run("import", str(month[0][0]), "--group", "lunch", db=db)
    assert result.exit_code == 2 and "no date" in result.output
    result = run("import", str(month[0][0]), "--group", " ", "--date", "2026-11-02", db=db)
    assert result.exit_code == 2 and "name the group" in result.output
    result = run("standings", db=db)
    assert result.exit_code == 2 and "there is none yet" in result.output
