"""The league's groups and people (issue 41): private group links and person keys stored
only hashed, names unique within a group (two groups may each have an Ann), renaming (past
games follow the person), re-linking, sessions by the group's rule, games added inside a
transaction somebody else holds, and the migration from the first schema, on SQLite and
PostgreSQL (the ``database_url`` cases skip without a PostgreSQL server)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event, inspect, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from test_league_3b import game, season
from tricktable.league.importer import import_records
from tricktable.league.model import GroupInfo, LeagueError, Mark, PersonInfo
from tricktable.league.store import (
    Base,
    GameRow,
    GroupRow,
    LeagueStore,
    PlayerRow,
    SessionRow,
)
from tricktable.league.threeb import threeb_history
from tricktable.play.database import _sqlite_pragmas

FRIDAY_EVENING_UTC = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)  # Saturday 09:00 in Auckland


def sha256(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def everything(store: LeagueStore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every league table: what "nothing changed" compares."""
    with store.engine.connect() as c:
        return {t.name: sorted((tuple(r) for r in c.execute(t.select())), key=repr)
                for t in Base.metadata.sorted_tables}


def refused(store: LeagueStore, message: str, action: Any, *args: Any) -> None:
    """``action(*args)`` raises one LeagueError sentence matching ``message`` and changes
    no row."""
    before = everything(store)
    with pytest.raises(LeagueError, match=message) as caught:
        action(*args)
    assert "\n" not in str(caught.value) and str(caught.value).strip()
    assert everything(store) == before


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = LeagueStore(f"sqlite:///{tmp_path / 'league.db'}")
    yield s
    s.close()


# --- groups ---------------------------------------------------------------------------------


def test_a_group_is_reached_by_its_token_of_which_only_the_hash_is_stored(
    store: LeagueStore,
) -> None:
    group, token = store.create_group("lunch", "Europe/Paris")
    assert group == GroupInfo(group.id, "lunch", "Europe/Paris", None, ())
    assert len(token) == 32  # 192 bits of base64url
    assert store.group_by_token(token) == group
    with store.session() as s:
        row = s.get(GroupRow, group.id)
        assert row is not None and row.token_hash == sha256(token)
    assert token not in repr(everything(store))
    assert store.group_by_token(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    for junk in ("", "x" * 10_000, "\udcff"):
        assert store.group_by_token(junk) is None
    assert store.group_by_id(group.id) == group and store.group_by_id(999) is None


def test_a_new_link_replaces_the_old(store: LeagueStore) -> None:
    _, old = store.create_group("lunch")
    new = store.group_link("lunch")
    assert new != old and store.group_by_token(old) is None
    found = store.group_by_token(new)
    assert found is not None and found.name == "lunch"
    refused(store, "no group is named 'club'", store.group_link, "club")


def test_an_imported_group_has_no_link_until_one_is_made(store: LeagueStore) -> None:
    store.add_game(season()[0])
    with store.session() as s:
        assert s.scalar(select(GroupRow.token_hash)) is None
    token = store.group_link("lunch")
    info = store.group_by_token(token)
    assert info is not None and info.members == ("Ann", "Bob", "Cy", "Di")
    assert info.time_zone == "UTC"


@pytest.mark.parametrize(
    ("name", "zone", "message"),
    [
        ("lunch", "UTC", "a group named 'lunch' already exists"),
        ("  ", "UTC", "the group's name cannot be empty"),
        ("x" * 101, "UTC", "the group's name is 101 characters long; at most 100"),
        ("club", "Mars/Olympus", "'Mars/Olympus' is not a time zone: give an IANA name"),
        ("club", "../../etc/passwd", "is not a time zone"),
        ("club", "", "the time zone cannot be empty"),
    ],
)
def test_a_group_is_refused(store: LeagueStore, name: str, zone: str, message: str) -> None:
    store.create_group("lunch")
    refused(store, message, store.create_group, name, zone)


def test_open_and_close_a_named_session(store: LeagueStore) -> None:
    group, token = store.create_group("lunch", "Pacific/Auckland")
    assert store.session_for(group.id, FRIDAY_EVENING_UTC) == "2026-11-28"
    assert store.played_day(group.id, FRIDAY_EVENING_UTC) == date(2026, 11, 28)
    opened = store.set_open_session(token, "  Friday night ")
    assert opened.open_session == "Friday night"
    assert store.session_for(group.id, FRIDAY_EVENING_UTC) == "Friday night"
    assert store.played_day(group.id, FRIDAY_EVENING_UTC) == date(2026, 11, 28)
    assert store.set_open_session(token, None).open_session is None
    assert store.session_for(group.id, FRIDAY_EVENING_UTC) == "2026-11-28"
    # a naive time is UTC (SQLite hands stored times back without their zone)
    assert store.session_for(group.id, datetime(2026, 11, 27, 10, 59)) == "2026-11-27"
    refused(store, "the session's name cannot be empty", store.set_open_session, token, " ")
    refused(store, "this group link leads nowhere", store.set_open_session, "nope", "x")
    with pytest.raises(LeagueError, match="no group has the id 999"):
        store.session_for(999, FRIDAY_EVENING_UTC)
    with pytest.raises(LeagueError, match="no group has the id 999"):
        store.played_day(999, FRIDAY_EVENING_UTC)


# --- people ---------------------------------------------------------------------------------


def test_people_join_with_keys_of_which_only_the_hash_is_stored(store: LeagueStore) -> None:
    _, lunch_token = store.create_group("lunch")
    ann, key = store.join_group(lunch_token, " Ann ")
    assert ann == PersonInfo(ann.id, "Ann", ("lunch",)) and len(key) == 32
    assert store.person_by_key(key) == ann
    with store.session() as s:
        row = s.get(PlayerRow, ann.id)
        assert row is not None and row.key_hash == sha256(key)
    assert key not in repr(everything(store))
    # with her key she joins another group, under her name; the name typed is not used
    _, club_token = store.create_group("club")
    again, same = store.join_group(club_token, "Whoever", key)
    assert (again.id, again.name, again.groups, same) == (ann.id, "Ann", ("club", "lunch"),
                                                          key)
    assert store.join_group(club_token, "", key) == (again, key)  # joining twice: no change
    # an unknown key: a new person
    bob, bob_key = store.join_group(lunch_token, "Bob", "not-a-key")
    assert bob.id != ann.id and bob_key != "not-a-key"
    assert store.group_by_token(lunch_token).members == ("Ann", "Bob")  # type: ignore[union-attr]
    assert store.person_by_key("not-a-key") is None and store.person_by_key("") is None


def test_names_are_unique_within_a_group_in_any_case(store: LeagueStore) -> None:
    _, lunch = store.create_group("lunch")
    _, club = store.create_group("club")
    store.join_group(lunch, "Ann")
    refused(store, "lunch already has a member named Ann: choose another name \\(or, if that "
            "is you, take a new key through the group's link\\)", store.join_group, lunch, "Ann")
    refused(store, "lunch already has a member named Ann", store.join_group, lunch, "ANN")
    other_ann, other_key = store.join_group(club, "Ann")  # another group: another Ann
    refused(store, "lunch already has a member named Ann", store.join_group, lunch, "x",
            other_key)
    refused(store, "your name cannot be empty", store.join_group, lunch, "   ")
    refused(store, "this group link leads nowhere", store.join_group, "nope", "Cy")
    assert store.person_by_key(other_key) == other_ann


def test_a_renamed_persons_past_games_follow_him(store: LeagueStore) -> None:
    for e in season():
        store.add_game(e)
    token = store.group_link("lunch")
    bob, key = store.relink_person(token, "bob")  # an imported person takes a key
    assert bob.name == "Bob"
    before = threeb_history(store.entries("lunch")).standings()
    robert = store.rename_person(key, "Robert")
    assert robert == PersonInfo(bob.id, "Robert", ("lunch",))
    after = threeb_history(store.entries("lunch")).standings()
    assert [replace(r, person="Bob") if r.person == "Robert" else r for r in after] == before
    assert [e.key for e in store.entries("lunch") if "Robert" in e.people] == [
        f"G{i}" for i in range(1, 11)]
    g3 = store.entries("lunch")[2]
    assert g3.marks == (Mark("bonehead", "Robert", "led the ace into a void"),)
    assert store.members("lunch") == ["Ann", "Cy", "Di", "Robert"]
    assert store.rename_person(key, "robert").name == "robert"  # his own name, recased


def test_a_rename_is_refused_if_any_group_of_his_has_the_name(store: LeagueStore) -> None:
    _, lunch = store.create_group("lunch")
    _, club = store.create_group("club")
    _, ann_key = store.join_group(lunch, "Ann")
    store.join_group(club, "Ann", ann_key)
    store.join_group(club, "Bob")
    store.join_group(club, "Eve")
    store.join_group(lunch, "Cy")
    _, zed_key = store.join_group(lunch, "Zed")  # Zed may become Bob: Bob is in club only
    assert store.rename_person(zed_key, "Bob").name == "Bob"
    refused(store, "club already has a member named Eve: choose another name$",
            store.rename_person, ann_key, "eve")
    refused(store, "lunch already has a member named Cy", store.rename_person, ann_key, "Cy")
    refused(store, "the new name cannot be empty", store.rename_person, ann_key, "")
    refused(store, "this person key is not known", store.rename_person, "nope", "Di")


def test_a_lost_key_is_replaced_through_the_group_link(store: LeagueStore) -> None:
    _, token = store.create_group("lunch")
    ann, old = store.join_group(token, "Ann")
    again, new = store.relink_person(token, "ann")
    assert again == ann and new != old
    assert store.person_by_key(old) is None and store.person_by_key(new) == ann
    refused(store, r"lunch has no member named 'Bob' \(members: Ann\): join the group",
            store.relink_person, token, "Bob")
    refused(store, "this group link leads nowhere", store.relink_person, "nope", "Ann")


# --- games ----------------------------------------------------------------------------------


def test_two_groups_each_with_an_ann(store: LeagueStore) -> None:
    lunch = season()[:3]
    club = [replace(game(f"C{i}", 2 + i, "Ann", "Bob"), group="club") for i in range(2)]
    for e in lunch + club:
        assert store.add_game(e)
    assert store.members("lunch") == ["Ann", "Bob", "Cy", "Di"]
    assert store.members("club") == ["Ann", "Bob", "Cy", "Di"]
    assert store.people().count("Ann") == 2  # two people, one name
    with store.session() as s:
        anns = {p.id for p in s.scalars(select(PlayerRow).where(PlayerRow.name == "Ann"))}
    assert len(anns) == 2
    # renaming the club's Ann leaves the lunch's Ann alone
    club_token = store.group_link("club")
    _, key = store.relink_person(club_token, "Ann")
    store.rename_person(key, "Anna")
    assert store.members("club")[0] == "Anna" and store.members("lunch")[0] == "Ann"
    assert threeb_history(store.entries("lunch")).standings()[0].person == "Ann"


def test_imports_resolve_a_name_within_the_group(store: LeagueStore) -> None:
    """A group made in the browser, then a record imported into it: its Ann is the member
    Ann (who holds a key), not a new person."""
    from test_league_store import MAPPING, lunch_game

    _, token = store.create_group("lunch")
    ann, key = store.join_group(token, "ann")
    record = lunch_game("people/1")
    report = import_records(store, [("a.json", record, date(2026, 11, 2))], "lunch", MAPPING)
    assert len(report.added) == 1
    assert store.members("lunch") == ["Bob", "Cy", "Di", "ann"]
    person = store.person_by_key(key)
    assert person is not None and person.id == ann.id
    assert "ann" in store.entries("lunch")[0].people  # her name, as she chose it


def test_add_game_in_a_transaction_somebody_else_holds(store: LeagueStore) -> None:
    group, token = store.create_group("lunch", "Pacific/Auckland")
    ids = {name: store.join_group(token, name)[0].id for name in ("Ann", "Bob", "Cy", "Di")}
    first = season()[0]
    # the caller's transaction rolls back: nothing of the game stays
    with pytest.raises(RuntimeError), store.session() as s:
        assert store.add_game_in(s, first, '{"record": 1}', ids)
        raise RuntimeError("the server died before the commit")
    assert store.entries("lunch") == []
    with store.session() as s:
        assert s.scalar(select(SessionRow.id)) is None
    # committed with the caller's own write, in one transaction
    with store.session() as s:
        played = store.played_day(group.id, FRIDAY_EVENING_UTC, s)
        session = store.session_for(group.id, FRIDAY_EVENING_UTC, s)
        entry = replace(first, played=played, session=session,
                        sequence=store.next_sequence("lunch", played, s))
        assert store.add_game_in(s, entry, '{"record": 1}', ids)
        assert not store.add_game_in(s, entry, None, ids)  # the same key: nothing written
    [stored] = store.entries_of(group.id)
    assert (stored.played, stored.session, stored.sequence) == (
        date(2026, 11, 28), "2026-11-28", 0)
    assert store.next_sequence("lunch", date(2026, 11, 28)) == 1
    assert store.record_of(first.key) == '{"record": 1}'
    with store.session() as s:
        rows = s.scalars(select(GameRow)).all()
        assert [sorted(p.player_id for p in r.players) for r in rows] == [sorted(ids.values())]


def test_a_game_whose_key_another_transaction_stored_is_not_written_twice(
    database_url: str,
) -> None:
    """The look-up found no game, then another transaction committed one with the same key:
    the insert does nothing (no error), and the caller's transaction goes on."""
    store = LeagueStore(database_url)
    first = season()[0]
    store.add_game(first)
    with store.session() as s:
        group = s.scalar(select(GroupRow))
        session = s.scalar(select(SessionRow))
        assert group is not None and session is not None
        assert store._insert_game(s, first, {}, group.id, session.id, None) is None
        s.add(GroupRow(name="club", time_zone="UTC"))
    assert store.groups() == ["club", "lunch"] and len(store.entries()) == 1
    store.close()


def refused_in(store: LeagueStore, message: str, entry: Any, people: Any) -> None:
    """add_game_in refuses with one sentence and leaves the caller's transaction as it was:
    the caller's own write before it still commits."""
    before = everything(store)
    with store.session() as s:
        s.add(GroupRow(name="marker", time_zone="UTC"))
        s.flush()
        with pytest.raises(LeagueError, match=message):
            store.add_game_in(s, entry, None, people)
    after = everything(store)
    assert [r for r in after["league_groups"] if r[1] == "marker"]
    after["league_groups"] = [r for r in after["league_groups"] if r[1] != "marker"]
    assert after == before
    with store.session() as s:
        marker = s.scalar(select(GroupRow).where(GroupRow.name == "marker"))
        s.delete(marker)


def test_add_game_in_refuses_before_writing_anything(store: LeagueStore) -> None:
    _, lunch = store.create_group("lunch")
    _, club = store.create_group("club")
    ann, _ = store.join_group(lunch, "Ann")
    club_ann, _ = store.join_group(club, "Ann")
    bob, _ = store.join_group(lunch, "Bob")
    g = season()[0]
    refused_in(store, "no person has the id 999 \\(given for Ann\\)", g, {"Ann": 999})
    refused_in(store, "one person sits in two seats", g, {"Ann": ann.id, "Bob": ann.id})
    # the club's Ann may not sit in lunch as a new member: lunch has an Ann
    refused_in(store, "lunch already has a member named Ann", g, {"Cy": club_ann.id})
    twice = replace(g, players=(*g.players[:3], replace(g.players[3], person="ann")))
    refused_in(store, "one person sits in two seats", twice, {})
    stranger = replace(g, marks=(Mark("carried-trays", "Zed"),))
    refused_in(store, "Zed is not a member of lunch", stranger, {"Bob": bob.id})
    refused_in(store, "a game belongs to a group", replace(g, group=""), {})
    assert store.entries() == []


# --- the migration --------------------------------------------------------------------------


def upgrade(engine: Any, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(
        Path(__file__).parents[1] / "src" / "tricktable" / "league" / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def test_the_migration_keeps_the_games_and_lets_two_groups_have_an_ann(
    database_url: str,
) -> None:
    """A database at the first schema, holding games, goes to 0002 (on SQLite the copy of
    ``players`` keeps every row other tables point at): same numbers, then a second Ann."""
    engine = create_engine(database_url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    upgrade(engine, "0001_league")
    with engine.begin() as c:
        c.execute(text("INSERT INTO league_groups (id, name, created) VALUES "
                       "(1, 'lunch', '2026-11-01')"))
        c.execute(text("INSERT INTO league_sessions (id, group_id, name) VALUES "
                       "(1, 1, 'Friday')"))
        for i, name in enumerate(("Ann", "Bob", "Cy", "Di"), 1):
            c.execute(text("INSERT INTO players (id, name, created) VALUES "
                           "(:i, :n, '2026-11-01')"), {"i": i, "n": name})
            c.execute(text("INSERT INTO league_memberships VALUES (1, :i, '2026-11-02')"),
                      {"i": i})
        c.execute(text(
            "INSERT INTO league_games (id, key, game, played, sequence, group_id, session_id,"
            " facts, added) VALUES (1, 'K1', '3b-spades', '2026-11-02', 0, 1, 1, :facts, "
            "'2026-11-02')"), {"facts": '{"threeb": {"winner": "Bob", "tray_person": "Ann", '
                               '"wire_to_wire": false, "tray_sheet": [], "perfect_day": [],'
                               ' "imperfect_day": []}}'})
        for seat in range(4):
            c.execute(text(
                "INSERT INTO league_game_players VALUES (1, :seat, :p, :side, :won, :score, "
                "1, 0, 0, 0, 0, 0, 0, 0, 0, 0)"),
                {"seat": seat, "p": seat + 1, "side": str(seat), "won": seat == 1,
                 "score": 10 * seat})
        if engine.dialect.name == "postgresql":  # the ids were given: move the sequences on
            for table in ("league_groups", "league_sessions", "players", "league_games"):
                c.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                               f"(SELECT max(id) FROM {table}))"))
    engine.dispose()

    store = LeagueStore(database_url)  # upgrades to the newest schema
    [entry] = store.entries("lunch")
    assert (entry.key, entry.session, entry.people, entry.winners) == (
        "K1", "Friday", ("Ann", "Bob", "Cy", "Di"), ("Bob",))
    token = store.group_link("lunch")
    info = store.group_by_token(token)
    assert info is not None and (info.time_zone, info.open_session) == ("UTC", None)
    _, club = store.create_group("club")
    store.join_group(club, "Ann")
    assert store.people().count("Ann") == 2
    _, key = store.relink_person(token, "Bob")
    store.rename_person(key, "Robert")
    [entry] = store.entries("lunch")
    assert entry.winners == ("Robert",) and entry.threeb is not None
    assert (entry.threeb.winner, entry.threeb.tray_person) == ("Robert", "Ann")
    with store.session() as s:  # the facts name seats now
        facts = s.scalar(select(GameRow.facts))
        assert facts is not None
        assert (facts["threeb"]["winner"], facts["threeb"]["tray_person"]) == (1, 0)
    names = inspect(store.engine)
    assert not [u for u in names.get_unique_constraints("players")
                if u["column_names"] == ["name"]]
    assert {i["name"] for i in names.get_indexes("players")} >= {"ix_players_name",
                                                                  "ix_players_key_hash"}
    if store.engine.dialect.name == "sqlite":  # the pool's connections enforce keys again
        with store.engine.connect() as c:
            assert c.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    store.close()


def test_people_and_games_on_each_database(database_url: str) -> None:
    """The whole round on SQLite and PostgreSQL: a group, people with keys, a game added in
    the caller's transaction with person ids, a rename and a refusal."""
    store = LeagueStore(database_url)
    group, token = store.create_group("lunch", "America/New_York")
    ids = {name: store.join_group(token, name)[0].id for name in ("Ann", "Bob", "Cy")}
    _, di_key = store.join_group(token, "Di")
    with Session(store.engine) as s, s.begin():
        entry = replace(season()[0], played=store.played_day(group.id, FRIDAY_EVENING_UTC, s),
                        session=store.session_for(group.id, FRIDAY_EVENING_UTC, s))
        assert store.add_game_in(s, entry, None, ids)
    assert not store.add_game(season()[0])
    refused(store, "lunch already has a member named Ann", store.rename_person, di_key, "ann")
    store.rename_person(di_key, "Diane")
    [stored] = store.entries_of(group.id)
    assert stored.people == ("Ann", "Bob", "Cy", "Diane") and stored.session == "2026-11-27"
    with store.session() as s:
        assert s.scalar(select(PlayerRow.key_hash).where(PlayerRow.name == "Diane")) == sha256(
            di_key)
    store.close()


def downgrade(engine: Any, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(
        Path(__file__).parents[1] / "src" / "tricktable" / "league" / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


def test_the_migration_goes_back_while_names_are_unique(database_url: str) -> None:
    store = LeagueStore(database_url)
    for e in season()[:2]:
        store.add_game(e)
    _, club = store.create_group("club")
    store.join_group(club, "Ann")  # a second Ann: names are not unique across groups
    engine = store.engine
    with pytest.raises(IntegrityError, match=r"(?i)unique"):
        downgrade(engine, "0001_league")
    with store.session() as s:
        s.execute(text("DELETE FROM league_memberships WHERE group_id = "
                       "(SELECT id FROM league_groups WHERE name = 'club')"))
        s.execute(text("DELETE FROM players WHERE id NOT IN "
                       "(SELECT player_id FROM league_memberships)"))
    downgrade(engine, "0001_league")
    with engine.connect() as c:
        facts = c.execute(text("SELECT facts FROM league_games ORDER BY key")).scalars().all()
    facts = [json.loads(f) if isinstance(f, str) else f for f in facts]
    assert [(f["threeb"]["winner"], f["threeb"]["tray_person"]) for f in facts] == [
        ("Ann", "Bob"), ("Ann", "Cy")]
    store.close()
    store = LeagueStore(database_url)  # and up again
    assert threeb_history(store.entries("lunch")).standings() == threeb_history(
        season()[:2]).standings()
    store.close()


def test_league_link_gives_an_imported_group_its_first_link(tmp_path: Path) -> None:
    """A group made by `league import` has no link until `league link` makes one; a new
    link replaces the old."""
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'link.db'}"
    store = LeagueStore(url)
    store.add_member("Lunch", "Ann")

    def link() -> str:
        out = subprocess.run(
            [sys.executable, "-m", "tricktable.cli", "league", "link", "--group", "Lunch",
             "--db", url, "--json"], capture_output=True, text=True, check=True).stdout
        answer = json.loads(out)
        assert answer["link"] == f"/league/{answer['token']}"
        return str(answer["token"])

    first = link()
    group = store.group_by_token(first)
    assert group is not None and group.members == ("Ann",)
    second = link()
    assert store.group_by_token(first) is None and store.group_by_token(second) is not None
    store.close()
