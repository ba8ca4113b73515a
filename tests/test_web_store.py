"""The web store on SQLite and on PostgreSQL: migrations beside the league's, a whole game
stored and rebuilt from its log, the group-commit writer, and two processes that both
believe they hold one table."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from sqlalchemy import create_engine, inspect, select, update

from test_league_store import season
from tricktable.league.store import LeagueStore
from tricktable.league.threeb import threeb_history
from tricktable.web.spec import table_spec
from tricktable.web.store import EventRow, ServerRow, Store, TableRow, TokenRow, Writer
from tricktable.web.tables import MOVED_CODE, Hub, Refused, TableElsewhere
from web_helpers import client_for, create, play_game, receive_json


def test_web_and_league_share_one_database(database_url: str) -> None:
    Store(database_url).close()
    Store(database_url).close()  # again: already at the newest schema
    league = LeagueStore(database_url)
    assert all(league.add_game(e) for e in season())
    assert threeb_history(league.entries("lunch")).standings() == threeb_history(
        season()).standings()
    league.close()
    engine = create_engine(database_url)
    names = set(inspect(engine).get_table_names())
    engine.dispose()
    assert {"web_tables", "web_seats", "web_tokens", "web_players", "web_events",
            "tricktable_web_version", "league_alembic_version", "league_games"} <= names


def test_a_game_is_stored_and_rebuilt_from_its_log(database_url: str) -> None:
    seats = {"0": "person", "1": "rules", "2": "person"}
    with client_for(database_url) as client:
        created = create(client, game="dummy-hand-spades",
                         options={"target": 100, "peek": "flip-2"}, seats=seats, seed=5)
        players = play_game(client, created)
        final = players["0"].messages[-1]
        assert final["status"] == "over"
    store = Store(database_url)
    with store.session() as s:
        row = s.get(TableRow, created["table"])
        assert row is not None and row.status == "over"
        tokens = list(s.scalars(select(TokenRow.hash)))
        events = list(s.scalars(select(EventRow).where(EventRow.table_id == created["table"])))
    store.close()
    # only hashes of tokens are stored
    for token in (created["host_token"], created["spectator"]["token"],
                  *(i["token"] for i in created["invites"].values())):
        assert token not in tokens and len(token) >= 32
    assert [e.n for e in events] == list(range(len(events)))
    assert {e.kind for e in events} >= {"deal", "action", "seat"}
    # a new server on the same database rebuilds the table exactly where it ended
    with client_for(database_url) as client:
        again = client.get(f"/api/tables/{created['table']}").json()
        assert again["status"] == "over" and again["seq"] == final["seq"]
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": created["invites"]["0"]["token"]}))
            assert receive_json(ws)["type"] == "welcome"
            view = receive_json(ws)
        assert view["observation"] == final["observation"]
        assert view["totals"] == final["totals"]


def test_the_writer_commits_in_groups_and_a_bad_job_fails_alone(database_url: str) -> None:
    store = Store(database_url)
    writer = Writer(store)

    def table(i: int) -> Any:
        def job(s: Any) -> None:
            s.add(TableRow(id=f"t{i}", game="spades", options={}, seed="1", status="waiting"))
        return job

    def bad(s: Any) -> None:
        s.add(TableRow(id="t0", game="spades", options={}, seed="1"))  # t0 exists by then

    async def run(jobs: list[Any]) -> list[BaseException | None]:
        futures = [writer.submit(job) for job in jobs]
        return list(await asyncio.gather(*futures, return_exceptions=True))

    assert asyncio.run(run([table(i) for i in range(200)])) == [None] * 200
    assert writer.commits < 200, "jobs waiting together are committed together"
    # a batch with one bad job: that job fails, the others are stored
    jobs = [table(i) for i in range(200, 210)]
    jobs.insert(5, bad)
    outcomes = asyncio.run(run(jobs))
    writer.close()
    assert [o is not None for o in outcomes] == [i == 5 for i in range(11)]
    assert len(store.table_ids()) == 210
    store.close()


def test_a_process_whose_lease_was_taken_can_no_longer_write(database_url: str) -> None:
    """Two processes on one database: a table is owned by one through its lease; the other
    asking for it is told it is moving and gets it once the owner hands it over; a process
    whose lease was taken while it was stopped writes nothing more and lets go of the
    table (its sockets close with the "moved" code)."""
    async def run() -> None:
        store_a, store_b = Store(database_url), Store(database_url)
        hub_a, hub_b = Hub(store_a, owner="host:8001"), Hub(store_b, owner="host:8002")
        # people's seats nobody has taken: the tables do nothing by themselves
        spec = table_spec({"game": "spades", "seed": "twice",
                           "seats": {str(s): "person" for s in range(4)}})
        table_a, _ = await hub_a.create(spec)
        with pytest.raises(TableElsewhere):
            await hub_b.get(table_a.id)
        # A hands it over at its next renewal, and B has it
        await hub_a.renew_leases()
        assert table_a.id not in hub_a.tables
        table_b = await hub_b.get(table_a.id)
        assert table_b is not None

        # B stops renewing, as if it were stopped: its row expires, and A takes the table
        # back (a new epoch)
        with store_a.session() as s:
            s.execute(update(ServerRow).where(ServerRow.owner == hub_b.owner)
                      .values(expires=datetime.now(UTC) - timedelta(seconds=1)))
        table_a = await hub_a.get(table_a.id)
        assert table_a is not None and table_a.epoch > table_b.epoch
        ear = Listened()
        table_b.listeners.add(ear)
        # B comes back and deals, not knowing: refused, nothing written, the table let go
        async with table_b.lock:
            with pytest.raises(Refused) as refused:
                await table_b._deal()
        assert refused.value.code == "moved"
        assert table_b.id not in hub_b.tables and ear.closed == MOVED_CODE
        assert [e for e in store_a.load(table_a.id).events if e[1] == "deal"] == []  # type: ignore[union-attr]
        async with table_a.lock:
            await table_a._deal()
        assert table_a.seq == 1
        for hub in (hub_a, hub_b):
            await hub.close()

    asyncio.run(run())


def test_a_table_handed_over_waits_for_the_process_that_asked(database_url: str) -> None:
    """A table under way handed over (its owner released it for the process that asked)
    is not adopted as an orphan by anyone else, the releaser included, while the asker is
    alive: it takes it when its client comes again. Seen as a livelock: the releaser took
    it back at once, and a table watched by a spectator alone never moved."""
    async def run() -> None:
        store_a, store_b = Store(database_url), Store(database_url)
        hub_a, hub_b = Hub(store_a, owner="host:8001"), Hub(store_b, owner="host:8002")
        spec = table_spec({"game": "spades", "seed": "bots", "bot_pace": 30,
                           "seats": {str(s): "rules" for s in range(4)}})
        table_a, _ = await hub_a.create(spec)
        async with table_a.lock:  # dealt (a table of bots deals at once): under way
            if table_a.runner.state.hand_number < 0:
                await table_a._deal()
        assert table_a.stored_status == "playing"
        await hub_b.renew_leases()  # B is alive (its renewals keep it so)
        with pytest.raises(TableElsewhere):
            await hub_b.get(table_a.id)  # B asks for it
        await hub_a.renew_leases()  # A hands it over ...
        assert table_a.id not in hub_a.tables
        assert table_a.id not in store_a.orphans()  # ... and nobody adopts it meanwhile
        await hub_a.adopt_orphans()
        assert table_a.id not in hub_a.tables
        assert await hub_b.get(table_a.id) is not None  # B's client comes: B has it
        # an asker gone is no reason to leave a table without an owner
        await hub_b.close()
        with store_a.session() as s:
            s.execute(update(ServerRow).where(ServerRow.owner == hub_b.owner)
                      .values(expires=datetime.now(UTC) - timedelta(seconds=1)))
        assert table_a.id in store_a.orphans()
        await hub_a.close()

    asyncio.run(run())


class Listened:
    """A socket as a table sees it, keeping the code it was closed with."""

    role, seat = "spectator", None
    closed: int | None = None

    def send(self, text: str) -> None:
        pass

    def close(self, reason: str, code: int = 4000) -> None:
        self.closed = code
