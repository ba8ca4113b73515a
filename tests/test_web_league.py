"""The league's web routes (web/league_routes.py, issue 41): groups made and joined by their
private link, people known by a key that travels only in the X-Person-Key header, every
view answering the very dict ``tricktable league <view> --json`` prints for the same
database, and every refusal one sentence of JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.testclient import TestClient
from typer.testing import CliRunner

from test_league_3b import season
from tricktable.cli import app as cli
from tricktable.engine.records import load_record
from tricktable.league.importer import entry_from_record
from tricktable.league.model import GameEntry, PlayerResult, StakeFacts
from tricktable.league.store import LeagueStore
from tricktable.web.league_routes import STATIC, league_routes

EXAMPLES = Path(__file__).parent / "data" / "examples"
GROUP = "Lunch club"


def _stake_game(key: str, played: date, winners: tuple[str, str], losers: tuple[str, str],
                points: int, stake: int, session: str) -> GameEntry:
    players = (
        PlayerResult(winners[0], 0, "0", True, 250), PlayerResult(losers[0], 1, "1", False,
                                                                   250 - points),
        PlayerResult(winners[1], 2, "0", True, 250), PlayerResult(losers[1], 3, "1", False,
                                                                   250 - points),
    )
    return GameEntry(key, "paperless-spades", played, players, session=session,
                     stakes=StakeFacts(winners, losers, points, stake, points * stake))


def league_games(group: str) -> list[tuple[GameEntry, str | None]]:
    """A month of a lunch group's games: the hand-computed 3B season of test_league_3b
    (stars, outside, gold and red stars, a violator, chits spent and lost, perfect and
    imperfect days, marks), two Friday nights of Paperless Spades at a stake and two
    recorded ones without, and two recorded games of Dummy Hand Spades."""
    out: list[tuple[GameEntry, str | None]] = [(replace(e, group=group), None)
                                               for e in season()]
    friday = date(2026, 11, 6)
    out += [
        (replace(_stake_game("S1", friday, ("Ann", "Bob"), ("Cy", "Di"), 30, 2,
                             "Friday night"), group=group, sequence=5), None),
        (replace(_stake_game("S2", friday, ("Cy", "Bob"), ("Ann", "Di"), 12, 2,
                             "Friday night"), group=group, sequence=6), None),
        (replace(_stake_game("S3", friday + timedelta(days=7), ("Di", "Ann"), ("Bob", "Cy"),
                             20, 1, "Another Friday"), group=group), None),
    ]
    four = {"P0": "Ann", "P1": "Bob", "P2": "Cy", "P3": "Di"}
    three = {"P0": "Ann", "P1": "Bob", "P2": "Cy"}
    for n, (name, mapping, day) in enumerate([
        ("paperless-spades-41-000.json", four, date(2026, 11, 10)),
        ("paperless-spades-41-001.json", four, date(2026, 11, 11)),
        ("dummy-hand-spades-11-000.json", three, date(2026, 11, 12)),
        ("dummy-hand-spades-11-001.json", three, date(2026, 11, 13)),
    ]):
        record = load_record(EXAMPLES / name)
        out.append((entry_from_record(record, day, mapping, group, sequence=10 + n),
                    record.dumps()))
    return out


def fill(store: LeagueStore, group: str) -> None:
    for entry, record in league_games(group):
        assert store.add_game(entry, record)


def league_client(store: LeagueStore) -> TestClient:
    app = Starlette(routes=[*league_routes(store),
                            Mount("/static", StaticFiles(directory=STATIC), name="static")])
    return TestClient(app)


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, TestClient]]:
    """(database URL, the group's token, a client) of a group holding ``league_games``."""
    url = f"sqlite:///{tmp_path_factory.mktemp('league') / 'league.db'}"
    store = LeagueStore(url)
    _, token = store.create_group(GROUP, "Europe/Paris")
    fill(store, GROUP)
    with league_client(store) as client:
        yield url, token, client
    store.close()


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[tuple[LeagueStore, TestClient]]:
    store = LeagueStore(f"sqlite:///{tmp_path / 'league.db'}")
    with league_client(store) as client:
        yield store, client
    store.close()


def cli_json(url: str, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["league", *args, "--group", GROUP, "--json", "--db", url])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def refused(response: Any, status: int, code: str | None = None) -> str:
    """The refusal's sentence, after checking its shape: exactly an error code and one line."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "message"}
    assert code is None or body["error"] == code, body
    message = body["message"]
    assert isinstance(message, str) and message.strip() and "\n" not in message
    assert "Traceback" not in message
    return str(message)


# --- every view: the CLI's own figures --------------------------------------------------------

VIEWS = [
    ("standings", {}, ["standings"]),
    ("standings", {"year": "2026"}, ["standings", "--year", "2026"]),
    ("standings", {"year": "2025"}, ["standings", "--year", "2025"]),
    ("week", {"day": "2026-11-04"}, ["week", "--day", "2026-11-04"]),
    ("week", {"day": "2026-11-15"}, ["week", "--day", "2026-11-15"]),
    ("streaks", {}, ["streaks"]),
    ("streaks", {"min": "1"}, ["streaks", "--min", "1"]),
    ("trays", {}, ["trays"]),
    ("stakes", {}, ["stakes"]),
    ("stakes", {"session": "Friday night"}, ["stakes", "--session", "Friday night"]),
    ("sessions", {}, ["sessions"]),
    ("h2h", {}, ["h2h"]),
    ("h2h", {"game": "dummy-hand-spades"}, ["h2h", "--game", "dummy-hand-spades"]),
    ("card", {"person": "Ann"}, ["card", "Ann"]),
    ("card", {"person": "Di"}, ["card", "Di"]),
    ("games", {}, ["games"]),
]


@pytest.mark.parametrize(("view", "query", "command"), VIEWS,
                         ids=[f"{v}-{'-'.join(q.values()) or 'all'}" for v, q, _ in VIEWS])
def test_each_view_is_the_cli_json(filled: tuple[str, str, TestClient], view: str,
                                   query: dict[str, str], command: list[str]) -> None:
    url, token, client = filled
    r = client.get(f"/api/groups/{token}/{view}", params=query)
    assert r.status_code == 200, r.text
    assert r.json() == cli_json(url, *command)


def test_the_week_is_this_week_where_the_group_plays(filled: tuple[str, str, TestClient]
                                                    ) -> None:
    url, token, client = filled
    store = LeagueStore(url)
    try:
        group = store.group_by_token(token)
        assert group is not None
        today = store.played_day(group.id, datetime.now(UTC))
    finally:
        store.close()
    week = client.get(f"/api/groups/{token}/week").json()
    if week["monday"] != (today - timedelta(days=today.weekday())).isoformat():
        return  # midnight passed in Paris between the two looks: nothing to compare
    assert week == cli_json(url, "week", "--day", today.isoformat())


def test_the_views_hold_what_the_pages_show(filled: tuple[str, str, TestClient]) -> None:
    """Not empty answers that happen to agree: each view holds the figures of its page."""
    _, token, client = filled
    get = lambda view, **q: client.get(f"/api/groups/{token}/{view}", params=q).json()  # noqa: E731
    standings = get("standings")
    bob = next(r for r in standings["threeb"] if r["person"] == "Bob")
    assert (bob["stars"], bob["gold_stars"], bob["red_stars"], bob["longest_streak"]) == (
        5, 1, 1, 5)
    dummy = {r["person"]: r for r in standings["players"] if r["game"] == "dummy-hand-spades"}
    assert set(dummy) == {"Ann", "Bob", "Cy"}
    assert sum(r["declared"] for r in dummy.values()) == 2  # one declarer a hand, two hands
    stakes = get("stakes", session="Friday night")
    assert stakes["settle"] and stakes["balance"]["Bob"] == 42.0  # (30 + 12) x 2 / 2
    card = get("card", person="Ann")
    assert len(card["results"]) == 10 + 3 + 2 + 2
    assert "outside-star" in {e["kind"] for e in get("week", day="2026-11-04")["events"]}


def test_the_sheet_is_the_cli_figures_put_together(filled: tuple[str, str, TestClient]) -> None:
    """The 3B sheet: its lines are ``standings``', its sessions, streaks and tray log the
    commands' own, and its events, week by week, ``week``'s."""
    url, token, client = filled
    sheet = client.get(f"/api/groups/{token}/sheet").json()
    assert sheet["group"] == GROUP and sheet["year"] is None
    assert sheet["threeb"] == cli_json(url, "standings")["threeb"]
    assert sheet["sessions"] == cli_json(url, "sessions")["sessions"]
    assert sheet["streaks"] == cli_json(url, "streaks")["streaks"]
    trays = cli_json(url, "trays")
    del trays["group"]
    assert sheet["trays"] == trays
    awards = {"outside-star", "gold-star", "red-star", "chit-earned", "chit-spent",
              "chit-lost", "trays-forgot", "trays-carried", "deck-owed", "decks-brought"}
    monday = date(2026, 11, 2)
    while monday <= date(2026, 11, 16):
        week = cli_json(url, "week", "--day", monday.isoformat())
        sunday = (monday + timedelta(days=6)).isoformat()
        assert week["events"], monday
        assert [e for e in sheet["events"] if monday.isoformat() <= e["played"] <= sunday
                and e["kind"] in awards] == week["events"]
        monday += timedelta(days=7)
    # everything the hand-computed season holds is on the sheet
    said = {(e["person"], e["kind"], e["key"]) for e in sheet["events"]}
    assert {("Ann", "outside-star", "G3"), ("Bob", "outside-star", "G8"),
            ("Ann", "gold-star", "G4"), ("Bob", "gold-star", "G8"), ("Bob", "red-star", "G9"),
            ("Ann", "chit-spent", "G5"), ("Cy", "chit-lost", "G7"),
            ("Cy", "perfect-day", "G6"), ("Di", "imperfect-day", "G2"),
            ("Cy", "trays-forgot", "G2"), ("Cy", "trays-carried", "G4"),
            ("Di", "wire-to-wire", "G6"), ("Bob", "bonehead", "G3"),
            ("Ann", "zero-buddy", "G6")} <= said
    year = client.get(f"/api/groups/{token}/sheet", params={"year": "2025"}).json()
    assert year["threeb"] == [] and year["events"] == []


# --- groups and people ---------------------------------------------------------------------------


def test_a_group_is_made_joined_and_known_by_its_link(fresh: tuple[LeagueStore, TestClient]
                                                      ) -> None:
    store, client = fresh
    r = client.post("/api/groups", json={"name": "Friday club", "time_zone": "America/New_York"})
    assert r.status_code == 201
    made = r.json()
    token = made["token"]
    assert made["group"] == "Friday club" and made["link"] == f"/league/{token}"
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token)
    assert client.get(f"/api/groups/{token}").json() == {
        "name": "Friday club", "time_zone": "America/New_York", "open_session": None,
        "members": [], "games": 0, "you": None}

    eve = client.post(f"/api/groups/{token}/join", json={"name": "Eve"}).json()
    assert eve["person"] == "Eve" and re.fullmatch(r"[A-Za-z0-9_-]{32}", eve["key"])
    seen = client.get(f"/api/groups/{token}", headers={"X-Person-Key": eve["key"]}).json()
    assert seen["you"] == "Eve" and seen["members"] == ["Eve"]
    # a known key joins the same person again, whatever name is sent
    again = client.post(f"/api/groups/{token}/join", json={"name": "Someone"},
                        headers={"X-Person-Key": eve["key"]}).json()
    assert again == eve
    # and the same person joins a second group, keeping her name and key
    _, other = store.create_group("Evenings")
    there = client.post(f"/api/groups/{other}/join", json={},
                        headers={"X-Person-Key": eve["key"]}).json()
    assert there == eve
    me = client.get("/api/people/me", headers={"X-Person-Key": eve["key"]}).json()
    assert me == {"person": "Eve", "groups": ["Evenings", "Friday club"]}
    # a stranger's key sees the group but is not "you"
    bob = client.post(f"/api/groups/{other}/join", json={"name": "Bob"}).json()
    assert client.get(f"/api/groups/{token}",
                      headers={"X-Person-Key": bob["key"]}).json()["you"] is None


def test_a_member_who_lost_his_key_relinks_and_renames(
    database_url: str,
) -> None:
    """On SQLite and PostgreSQL: an imported person (no key) takes one by the group's link,
    a second re-link stops the first key, and a rename carries the past games along."""
    store = LeagueStore(database_url)
    try:
        _, token = store.create_group(GROUP)
        fill(store, GROUP)
        with league_client(store) as client:
            card_before = client.get(f"/api/groups/{token}/card", params={"person": "Ann"}).json()
            first = client.post(f"/api/groups/{token}/relink", json={"name": "ann"}).json()
            assert first["person"] == "Ann"
            second = client.post(f"/api/groups/{token}/relink", json={"name": "Ann"}).json()
            assert second["key"] != first["key"]
            refused(client.get("/api/people/me", headers={"X-Person-Key": first["key"]}), 404,
                    "no-person")
            key = {"X-Person-Key": second["key"]}
            assert client.get("/api/people/me", headers=key).json()["person"] == "Ann"

            assert client.post("/api/people/me/rename", json={"name": "Annie"},
                               headers=key).json() == {"person": "Annie"}
            card = client.get(f"/api/groups/{token}/card", params={"person": "Annie"}).json()
            assert card["results"] == card_before["results"]
            assert card["threeb"] == {**card_before["threeb"], "person": "Annie"}
            assert card["streaks"] == [{**s, "person": "Annie"} for s in card_before["streaks"]]
            refused(client.get(f"/api/groups/{token}/card", params={"person": "Ann"}), 404)
            group = client.get(f"/api/groups/{token}", headers=key).json()
            assert group["you"] == "Annie" and "Ann" not in group["members"]
            # a name another member has is refused, in any case
            sentence = refused(client.post("/api/people/me/rename", json={"name": "bob"},
                                           headers=key), 409)
            assert "Bob" in sentence
    finally:
        store.close()


def test_a_member_opens_and_closes_a_named_session(fresh: tuple[LeagueStore, TestClient]
                                                   ) -> None:
    store, client = fresh
    _, token = store.create_group("Club")
    key = {"X-Person-Key": client.post(f"/api/groups/{token}/join",
                                       json={"name": "Ann"}).json()["key"]}
    opened = client.post(f"/api/groups/{token}/session", json={"name": " Friday  night "},
                         headers=key)
    assert opened.status_code == 200
    assert opened.json()["open_session"] == "Friday night" and opened.json()["you"] == "Ann"
    assert client.get(f"/api/groups/{token}").json()["open_session"] == "Friday night"
    closed = client.post(f"/api/groups/{token}/session", json={"name": None}, headers=key)
    assert closed.json()["open_session"] is None
    # only a member may
    refused(client.post(f"/api/groups/{token}/session", json={"name": "x"}), 400, "no-key")
    _, other = store.create_group("Other club")
    stranger = client.post(f"/api/groups/{other}/join", json={"name": "Zed"}).json()["key"]
    refused(client.post(f"/api/groups/{token}/session", json={"name": "x"},
                        headers={"X-Person-Key": stranger}), 400, "not-a-member")
    assert store.group_by_token(token).open_session is None  # type: ignore[union-attr]


def test_a_member_adds_a_mark_and_the_sheet_keeps_it(fresh: tuple[LeagueStore, TestClient]
                                                     ) -> None:
    store, client = fresh
    _, token = store.create_group(GROUP)
    fill(store, GROUP)
    _, other = store.create_group("Other club")
    key = {"X-Person-Key": client.post(f"/api/groups/{token}/relink",
                                       json={"name": "Cy"}).json()["key"]}
    path = f"/api/groups/{token}/games/G1/marks"
    r = client.post(path, json={"kind": "bonehead", "person": "Di", "note": "led the ace"},
                    headers=key)
    assert r.status_code == 201
    assert r.json() == {"key": "G1", "kind": "bonehead", "person": "Di",
                        "note": "led the ace", "named": None}
    games = client.get(f"/api/groups/{token}/games").json()["games"]
    assert {"kind": "bonehead", "person": "Di", "note": "led the ace", "named": None} in next(
        g for g in games if g["key"] == "G1")["marks"]
    sheet = client.get(f"/api/groups/{token}/sheet").json()
    assert {"person": "Di", "kind": "bonehead", "key": "G1"}.items() <= next(
        e for e in sheet["events"] if e["key"] == "G1" and e["kind"] == "bonehead").items()
    # the score sheet's rules refuse what breaks them, and nothing changes
    before = client.get(f"/api/groups/{token}/games").json()
    refused(client.post(path, json={"kind": "carried-trays", "person": "Di"}, headers=key),
            409)
    refused(client.post(path, json={"kind": "bonehead", "person": "Zed"}, headers=key), 409)
    assert client.get(f"/api/groups/{token}/games").json() == before
    # a tray chit is spent by its holder only: Cy, the tray person of G7, holds one
    di = {"X-Person-Key": client.post(f"/api/groups/{token}/relink",
                                      json={"name": "Di"}).json()["key"]}
    chit = {"kind": "chit", "person": "Cy", "named": "Bob"}
    seven = f"/api/groups/{token}/games/G7/marks"
    assert "only Cy" in refused(client.post(seven, json=chit, headers=di), 400, "not-yours")
    assert client.get(f"/api/groups/{token}/games").json() == before
    assert client.post(seven, json=chit, headers=key).status_code == 201
    log = client.get(f"/api/groups/{token}/trays").json()["games"]
    assert next(g for g in log if g["key"] == "G7")["named"] == "Bob"
    # a game of another group, a key cut short, a member's key needed
    refused(client.post(f"/api/groups/{other}/games/G1/marks",
                        json={"kind": "bonehead", "person": "Di"}, headers=key), 400,
            "not-a-member")
    refused(client.post(f"/api/groups/{token}/games/G/marks",
                        json={"kind": "bonehead", "person": "Di"}, headers=key), 404, "no-game")
    refused(client.post(path, json={"kind": "bonehead", "person": "Di"}), 400, "no-key")
    refused(client.post(path, json={"kind": "gold", "person": "Di"}, headers=key), 400,
            "bad-mark")
    refused(client.post(path, json={"kind": "chit", "person": "Di"}, headers=key), 400,
            "bad-mark")


# --- the person key: a header, never an address ------------------------------------------------


def test_the_person_key_is_read_from_its_header_only(fresh: tuple[LeagueStore, TestClient],
                                                     tmp_path: Path) -> None:
    store, client = fresh
    _, token = store.create_group("Club")
    key = client.post(f"/api/groups/{token}/join", json={"name": "Ann"}).json()["key"]
    for query in ({"key": key}, {"person_key": key}, {"x-person-key": key}):
        refused(client.get("/api/people/me", params=query), 400, "no-key")
        assert client.get(f"/api/groups/{token}", params=query).json()["you"] is None
    assert client.get("/api/people/me", headers={"X-Person-Key": key}).json()["person"] == "Ann"
    # no answer but join's and relink's holds a key; the database holds only its hash
    for path in (f"/api/groups/{token}", "/api/people/me", f"/api/groups/{token}/games"):
        assert key not in client.get(path, headers={"X-Person-Key": key}).text
    assert key.encode() not in (tmp_path / "league.db").read_bytes()


def test_the_page_never_puts_the_key_in_an_address() -> None:
    """The page sends the key in its header; "key=" appears only in a link's fragment
    (``#key=``, which no server sees) and in reading one."""
    scripts = sorted((STATIC / "js" / "league").glob("*.js"))
    assert scripts
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        for m in re.finditer(r"key=", text, re.IGNORECASE):
            before = text[max(0, m.start() - 5):m.start()]
            assert before.endswith(("#", "[#&]")), f"{script.name}: {text[m.start() - 40:m.end()]}"
    api = (STATIC / "js" / "league" / "api.js").read_text(encoding="utf-8")
    assert 'headers["x-person-key"] = key' in api


def test_the_page_writes_names_as_text_only() -> None:
    """Every name, session and note reaches the page as text: no script of the league
    writes markup."""
    for script in sorted((STATIC / "js" / "league").glob("*.js")):
        text = script.read_text(encoding="utf-8")
        for markup in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                       "createContextualFragment", "DOMParser"):
            assert markup not in text, f"{script.name} uses {markup}"


# --- refusals -------------------------------------------------------------------------------------


def test_every_refusal_is_one_sentence(filled: tuple[str, str, TestClient]) -> None:
    _, token, client = filled
    base = f"/api/groups/{token}"
    stranger = "A" * 32
    cases: list[tuple[str, str, Any, dict[str, str], int, str]] = [
        ("get", "/api/groups/" + "B" * 32, None, {}, 404, "no-group"),
        ("get", "/api/groups/not-a-token", None, {}, 404, "no-group"),
        ("get", "/api/groups/" + "B" * 32 + "/standings", None, {}, 404, "no-group"),
        ("post", "/api/groups/" + "B" * 32 + "/join", {"name": "Eve"}, {}, 404, "no-group"),
        ("get", f"{base}/nonsense", None, {}, 404, "no-view"),
        ("get", f"{base}/standings?year=twenty", None, {}, 400, "bad-year"),
        ("get", f"{base}/standings?year=0", None, {}, 400, "bad-year"),
        ("get", f"{base}/sheet?year=99999", None, {}, 400, "bad-year"),
        ("get", f"{base}/week?day=someday", None, {}, 400, "bad-day"),
        ("get", f"{base}/streaks?min=0", None, {}, 400, "bad-min"),
        ("get", f"{base}/card", None, {}, 400, "no-person"),
        ("get", f"{base}/card?person=Zed", None, {}, 404, "no-person"),
        ("get", f"{base}/card?person=%01", None, {}, 400, "bad-request"),
        ("post", "/api/groups", "not json", {}, 400, "bad-json"),
        ("post", "/api/groups", ["a list"], {}, 400, "bad-request"),
        ("post", "/api/groups", {"name": "X", "colour": "red"}, {}, 400, "bad-request"),
        ("post", "/api/groups", {"name": ""}, {}, 400, "bad-request"),
        ("post", "/api/groups", {"name": "a\u202eb"}, {}, 400, "bad-request"),
        ("post", "/api/groups", {"name": "x" * 101}, {}, 400, "bad-request"),
        ("post", "/api/groups", {"name": "X", "time_zone": "Mars/Olympus"}, {}, 400,
         "bad-time-zone"),
        ("post", "/api/groups", {"name": "X", "time_zone": 3}, {}, 400, "bad-time-zone"),
        ("post", "/api/groups", {"name": GROUP}, {}, 409, "refused"),
        ("post", "/api/groups", {"name": "x" * 9000}, {}, 413, "too-large"),
        ("post", f"{base}/join", {"name": "Ann"}, {}, 409, "refused"),
        ("post", f"{base}/join", {"name": "tab\there"}, {}, 400, "bad-name"),
        ("post", f"{base}/join", {"name": "RulesBot"}, {}, 400, "bad-name"),
        ("post", f"{base}/join", {"name": 7}, {}, 400, "bad-name"),
        ("post", f"{base}/join", {}, {}, 400, "bad-name"),
        ("post", f"{base}/relink", {"name": "Zed"}, {}, 404, "no-person"),
        ("get", "/api/people/me", None, {}, 400, "no-key"),
        ("get", "/api/people/me", None, {"X-Person-Key": "short"}, 400, "bad-key"),
        ("get", "/api/people/me", None, {"X-Person-Key": stranger}, 404, "no-person"),
        ("post", "/api/people/me/rename", {"name": "Eve"}, {"X-Person-Key": stranger}, 404,
         "no-person"),
        ("post", "/api/people/me/rename", {"name": "Eve"}, {}, 400, "no-key"),
        ("post", f"{base}/session", {"name": "x"}, {"X-Person-Key": stranger}, 404,
         "no-person"),
        ("post", f"{base}/games/G1/marks", {"kind": "bonehead", "person": "Di"},
         {"X-Person-Key": stranger}, 404, "no-person"),
    ]
    for method, path, body, headers, status, code in cases:
        kwargs: dict[str, Any] = {"headers": headers}
        if isinstance(body, str):
            kwargs["content"] = body
        elif body is not None:
            kwargs["json"] = body
        response = getattr(client, method)(path, **kwargs)
        try:
            refused(response, status, code)
        except AssertionError as e:
            raise AssertionError(f"{method} {path} {body!r}: {e}") from None


def test_too_many_new_groups_from_one_address(fresh: tuple[LeagueStore, TestClient],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    store, _ = fresh
    monkeypatch.setenv("TRICKTABLE_CREATE_RATE", "1/2")
    with league_client(store) as client:
        for n in range(2):
            assert client.post("/api/groups", json={"name": f"G{n}"}).status_code == 201
        sentence = refused(client.post("/api/groups", json={"name": "G2"}), 429, "rate")
    assert "a minute" in sentence
    assert "G2" not in store.groups()


def test_the_page_is_served_for_the_group_link(filled: tuple[str, str, TestClient]) -> None:
    _, token, client = filled
    for path in ("/league", f"/league/{token}"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert r.headers["referrer-policy"] == "no-referrer"
        assert "/static/js/league/main.js" in r.text
    for script in ("main", "api", "views", "chart", "person", "store", "words", "dom"):
        assert client.get(f"/static/js/league/{script}.js").status_code == 200
    assert client.get("/static/css/league.css").status_code == 200
