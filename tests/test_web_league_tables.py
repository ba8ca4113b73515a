"""A league group's table (issue 41): its seats are taken by the group's members under
their own names, and each finished game goes into the group's league by itself, in the
transaction of the table's last event: counted once, never twice, never lost, whatever
fails around it; the bots at the table are not people and never enter the league."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from test_web_outage import Ear, FlakyStore, until
from tricktable import parse_action, step
from tricktable.league.importer import record_key
from tricktable.league.store import LeagueStore
from tricktable.web.league_link import CLOCK_FILE_ENV
from tricktable.web.spec import table_spec
from tricktable.web.store import Store
from tricktable.web.tables import OVER, Hub, LiveTable, Refused

SHORT_3B = {"players": 4, "hands": 1}
"""One hand, then sudden death while the lead is shared: a game in a few seconds."""


async def group_table(hub: Hub, league: LeagueStore, seats: dict[str, str],
                      people: list[str]) -> tuple[LiveTable, dict[int, Ear], str]:
    """A 3B table of a new group whose person seats are taken, in seat order, by new
    members named ``people`` (each seat's token is kept in its ear)."""
    group, token = league.create_group("Lunch", "Europe/Paris")
    table, tokens = await hub.create(table_spec({
        "game": "3b-spades", "options": SHORT_3B, "seats": seats, "bot_pace": 0,
        "seed": "lunch"}), group.id)
    ears = {}
    for (seat, seat_token), name in zip(sorted(tokens["seats"].items()), people, strict=True):
        _, key = league.join_group(token, name)
        ear = Ear()
        ear.token = seat_token  # type: ignore[attr-defined]
        await table.hello(ear, seat_token, "ignored", person_key=key)
        ears[int(seat)] = ear
    return table, ears, token


async def play_to_the_end(table: LiveTable, ears: dict[int, Ear]) -> None:
    """The people play the first legal action whenever it is their turn (bots play by
    themselves); a refusal because a bot moved meanwhile is tried again."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    while table.status != OVER:
        assert loop.time() < deadline, "the game did not end"
        state = table.runner.state
        legal = table.game.legal_actions(state) if state.to_act is not None else []
        seat = table.game.controller(state, state.to_act) if legal else None
        if seat not in ears:
            await asyncio.sleep(0.005)
            continue
        try:
            await table.act(ears[seat], table.seq, str(legal[0]))
        except Refused as r:
            if r.code not in ("stale", "not-your-turn", "not-stored"):
                raise


def test_members_take_the_seats_and_the_finished_game_counts_once(
        tmp_path: Path, monkeypatch: Any) -> None:
    clock = tmp_path / "clock"
    clock.write_text("2026-11-27T23:30:00+00:00")  # already the 28th in Paris
    monkeypatch.setenv(CLOCK_FILE_ENV, str(clock))

    async def run() -> None:
        url = f"sqlite:///{tmp_path / 'lunch.db'}"
        hub, league = Hub(Store(url)), LeagueStore(url)
        table, ears, _token = await group_table(
            hub, league, {str(s): "person" for s in range(4)}, ["Ann", "Bob", "Cy", "Di"])
        assert [table.seats[s].name for s in range(4)] == ["Ann", "Bob", "Cy", "Di"]
        await play_to_the_end(table, ears)
        entries = league.entries("Lunch")
        assert len(entries) == 1
        entry = entries[0]
        async with table.lock:
            assert entry.key == record_key(table.record(0))
        assert sorted(entry.people) == ["Ann", "Bob", "Cy", "Di"]
        assert entry.played == date(2026, 11, 28)  # the group's day, not the server's
        # the game-over panel says what changed on the sheet
        await until(lambda: (table.view("spectator", None)["league"] or {}).get("news"),
                    "the league's news at the table")
        shown = table.view("seat", 0)["league"]
        assert shown["group"] == "Lunch" and shown["counted"] is True
        assert any("star" in line for line in shown["news"])
        # loading the table again counts nothing twice
        await hub.close()
        again = Hub(Store(url), owner=hub.owner)
        rebuilt = await again.get(table.id)
        assert rebuilt is not None
        await until(lambda: rebuilt.league_news is not None, "the news after a restart")
        assert len(league.entries("Lunch")) == 1
        await again.close()
        league.close()

    asyncio.run(run())


def test_a_seat_of_a_group_table_is_for_its_members(tmp_path: Path) -> None:
    async def run() -> None:
        url = f"sqlite:///{tmp_path / 'members.db'}"
        hub, league = Hub(Store(url)), LeagueStore(url)
        group, _token = league.create_group("Lunch")
        _other, other_token = league.create_group("Club")
        _, stranger = league.join_group(other_token, "Eve")
        table, tokens = await hub.create(table_spec({
            "game": "3b-spades", "options": SHORT_3B, "seed": "x",
            "seats": {str(s): "person" for s in range(4)}}), group.id)
        seat_token = tokens["seats"]["0"]
        for key, code in ((None, "need-member"), (stranger, "not-member")):
            with pytest.raises(Refused) as refused:
                await table.hello(Ear(), seat_token, "Eve", person_key=key)
            assert refused.value.code == code and "Lunch" in refused.value.message
        assert table.seats[0].name is None  # nothing changed
        await hub.close()
        league.close()

    asyncio.run(run())


def test_a_last_move_that_is_not_stored_is_not_counted_and_counts_when_made_again(
        tmp_path: Path) -> None:
    async def run() -> None:
        url = f"sqlite:///{tmp_path / 'flaky.db'}"
        store = FlakyStore(url)
        hub, league = Hub(store), LeagueStore(url)
        table, ears, _ = await group_table(
            hub, league, {str(s): "person" for s in range(4)}, ["Ann", "Bob", "Cy", "Di"])
        # play up to the last card of the game, then lose the database under it
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120
        while True:
            assert loop.time() < deadline, "the game did not come to its last card"
            state = table.runner.state
            legal = table.game.legal_actions(state) if state.to_act is not None else []
            if not legal:  # the next deal is coming
                await asyncio.sleep(0.005)
                continue
            seat = table.game.controller(state, state.to_act)
            action = str(legal[0])
            trial = state.copy()
            step(trial, parse_action(action))
            if trial.phase.name == "GAME_OVER":
                break
            try:
                await table.act(ears[seat], table.seq, action)
            except Refused as r:
                if r.code != "stale":  # the deal came meanwhile
                    raise
        store.down = True
        with pytest.raises(Refused) as refused:
            await table.act(ears[seat], table.seq, action)
        assert refused.value.code == "not-stored"
        assert table.status != OVER and league.entries("Lunch") == []
        store.down = False
        await until(lambda: not table.recovering, "the table read again")
        await table.act(ears[seat], table.seq, action)
        assert table.status == OVER
        assert len(league.entries("Lunch")) == 1
        await hub.close()
        league.close()

    asyncio.run(run())


def test_members_mark_the_finished_game_from_the_table(tmp_path: Path) -> None:
    async def run() -> None:
        url = f"sqlite:///{tmp_path / 'marks.db'}"
        hub, league = Hub(Store(url)), LeagueStore(url)
        table, ears, _ = await group_table(
            hub, league, {"0": "person", "1": "person", "2": "person", "3": "rules"},
            ["Ann", "Bob", "Cy"])
        with pytest.raises(Refused) as early:
            await table.add_mark(ears[0].token, "bonehead", "Bob", "led into a tenace")  # type: ignore[attr-defined]
        assert early.value.code == "not-counted"
        await play_to_the_end(table, ears)
        await until(lambda: (table.league_news or {}).get("counted"), "the game counted")
        entry = league.entries("Lunch")[0]
        assert sorted(entry.people) == ["Ann", "Bob", "Cy"]  # the bot is nobody
        await table.add_mark(ears[0].token, "bonehead", "Bob", "led into a tenace")  # type: ignore[attr-defined]
        marks = league.entries("Lunch")[0].marks
        assert [(m.kind, m.person, m.note) for m in marks] == [
            ("bonehead", "Bob", "led into a tenace")]
        shown = table.view("seat", 1)["league"]
        assert "Bob made a bonehead play: led into a tenace" in shown["marks"]
        for who, kind, code in (("the spectators", "bonehead", "not-member"),
                                ("Bob", "chit", "not-yours")):
            token = ears[1].token if who == "Bob" else "x" * 32  # type: ignore[attr-defined]
            with pytest.raises(Refused) as refused:
                await table.add_mark(token, kind, "Ann", "")
            assert refused.value.code == code
        with pytest.raises(Refused) as unknown:  # the league's own rule, one sentence
            await table.add_mark(ears[0].token, "zero-buddy", "Zed", "")  # type: ignore[attr-defined]
        assert unknown.value.code == "refused" and "Zed" in unknown.value.message
        assert len(league.entries("Lunch")[0].marks) == 1
        await hub.close()
        league.close()

    asyncio.run(run())


def test_a_game_played_here_and_imported_too_is_counted_once(tmp_path: Path) -> None:
    """The record downloaded from a group's table, imported into the same group by hand,
    is the same game (its key is the record's hash): the import finds it there."""
    from tricktable.league.importer import import_records

    async def run() -> None:
        url = f"sqlite:///{tmp_path / 'twice.db'}"
        hub, league = Hub(Store(url)), LeagueStore(url)
        table, ears, _ = await group_table(
            hub, league, {str(s): "person" for s in range(4)}, ["Ann", "Bob", "Cy", "Di"])
        await play_to_the_end(table, ears)
        async with table.lock:
            record = table.record(0)
        await hub.close()
        report = import_records(league, [("game.json", record, date(2026, 11, 28))], "Lunch")
        assert report.added == () and report.already == (record_key(record),)
        assert len(league.entries("Lunch")) == 1
        league.close()

    asyncio.run(run())
