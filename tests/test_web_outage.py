"""The table's promises when its database goes away for a while, or holds a commit:
nothing is told before it is stored, a change whose commit failed is undone in memory and
refused in a sentence, the table reads its log again by itself once the database is back
and its bots carry on; a table whose log does not replay is set aside and never stops the
others. In process, with a store that can be switched off and a writer that can be held."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from sqlalchemy import insert, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from tricktable.web.spec import table_spec
from tricktable.web.store import EventRow, Store
from tricktable.web.tables import ENDED, Hub, LiveTable, Refused

PATIENCE = 60.0


class FlakyStore(Store):
    """A store whose database can be switched off (every session fails as a lost
    connection does) or made to hold its commits until released."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.down = False
        self.open = threading.Event()
        self.open.set()

    @contextmanager
    def session(self) -> Iterator[Session]:
        if self.down:
            raise OperationalError("connect", {}, ConnectionRefusedError("the database is down"))
        self.open.wait(PATIENCE)
        with super().session() as s:
            yield s


class Ear:
    """A listener that keeps what it hears."""

    def __init__(self) -> None:
        self.role, self.seat = "spectator", None
        self.heard: list[dict[str, Any]] = []
        self.closed: str | None = None

    def send(self, text: str) -> None:
        self.heard.append(json.loads(text))

    def close(self, reason: str, code: int = 4000) -> None:
        self.closed = reason

    def views(self) -> list[dict[str, Any]]:
        return [m for m in self.heard if m.get("type") == "view"]


async def until(condition: Any, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while not condition():
        assert loop.time() < deadline, f"never: {what}"
        await asyncio.sleep(0.01)


def stored_events(store: Store, table_id: str) -> list[tuple[int, str, str]]:
    with Store.session(store) as s:
        rows = s.execute(select(EventRow.n, EventRow.kind, EventRow.text)
                         .where(EventRow.table_id == table_id).order_by(EventRow.n))
        return [tuple(r) for r in rows]  # type: ignore[misc]


async def seated_table(hub: Hub, seats: dict[str, str]) -> tuple[LiveTable, dict[int, Ear]]:
    table, tokens = await hub.create(table_spec({"game": "spades", "options": {"target": 100},
                                                 "seats": seats, "bot_pace": 0}))
    ears = {}
    for seat, token in tokens["seats"].items():
        ear = Ear()
        await table.hello(ear, token, f"P{seat}")
        ears[int(seat)] = ear
    return table, ears


def an_action_for(table: LiveTable) -> tuple[int, str]:
    state = table.runner.state
    chooser = table.game.controller(state, state.to_act)
    return chooser, str(table.game.legal_actions(state)[0])


def test_an_action_whose_commit_fails_is_refused_undone_and_taken_after(tmp_path: Any) -> None:
    async def run() -> None:
        store = FlakyStore(f"sqlite:///{tmp_path / 'flaky.db'}")
        hub = Hub(store)
        table, ears = await seated_table(hub, {str(s): "person" for s in range(4)})
        await until(lambda: table.seq == 1, "the deal")
        seat, action = an_action_for(table)
        history = list(table.runner.state.actions)
        heard = len(ears[seat].views())
        store.down = True
        with pytest.raises(Refused) as refused:
            await table.act(ears[seat], table.seq, action)
        assert refused.value.code == "not-stored"
        assert "nothing was lost" in refused.value.message
        # nothing changed, nothing was told, and the table takes nothing meanwhile
        assert table.seq == 1 and list(table.runner.state.actions) == history
        assert len(ears[seat].views()) == heard
        assert table.summary_json()["seq"] == 1
        assert table.recovering
        with pytest.raises(Refused) as again:
            await table.act(ears[seat], table.seq, action)
        assert again.value.code == "not-stored"
        store.down = False
        await until(lambda: not table.recovering, "the table read its log again")
        await table.act(ears[seat], table.seq, action)
        assert table.seq == 2
        # the log has no hole: the deal, then the action, numbered without a gap
        events = [e for e in stored_events(store, table.id) if e[1] in ("deal", "action")]
        assert [e[1:] for e in events][1] == ("action", action)
        ns = [e[0] for e in stored_events(store, table.id)]
        assert ns == list(range(len(ns)))
        await hub.close()

    asyncio.run(run())


def test_bots_carry_on_by_themselves_after_an_outage(tmp_path: Any) -> None:
    async def run() -> None:
        store = FlakyStore(f"sqlite:///{tmp_path / 'bots.db'}")
        hub = Hub(store)
        table, _ = await seated_table(hub, {str(s): "rules" for s in range(4)})
        await until(lambda: table.seq >= 3, "the bots moving")
        store.down = True
        await until(lambda: table.recovering, "a commit failing")
        stopped_at = table.seq
        store.down = False
        await until(lambda: table.seq >= stopped_at + 3, "the bots moving again")
        # and what they did is what is stored: a new hub rebuilds the same table
        other = Hub(Store(store.url), owner=hub.owner)
        async with table.lock:
            rebuilt = await other.get(table.id)
            assert rebuilt is not None and rebuilt.seq == table.seq
            assert rebuilt.runner.state.actions == table.runner.state.actions
        await other.close()
        await hub.close()

    asyncio.run(run())


def test_nothing_is_told_while_its_commit_is_held(tmp_path: Any) -> None:
    async def run() -> None:
        store = FlakyStore(f"sqlite:///{tmp_path / 'held.db'}")
        hub = Hub(store)
        table, ears = await seated_table(hub, {str(s): "person" for s in range(4)})
        await until(lambda: table.seq == 1, "the deal")
        seat, action = an_action_for(table)
        spectator = Ear()
        table.listeners.add(spectator)
        store.open.clear()  # the next commit waits
        acting = asyncio.get_running_loop().create_task(
            table.act(ears[seat], table.seq, action))
        await until(lambda: table.lock.locked(), "the action under way")
        await asyncio.sleep(0.05)  # let the action reach its commit (the check is below)
        assert table.summary_json()["seq"] == 1
        assert table.summary_json()["status"] == "playing"
        assert spectator.views() == []
        # someone leaving meanwhile is told later, under the lock, not with this state
        table.leave(ears[(seat + 1) % 4])
        await asyncio.sleep(0.05)
        assert spectator.views() == []
        store.open.set()
        await acting
        assert table.summary_json()["seq"] == 2
        await until(lambda: len(spectator.views()) >= 2, "the views after the commit")
        assert all(v["seq"] == 2 for v in spectator.views())
        await hub.close()

    asyncio.run(run())


def test_a_table_whose_log_does_not_replay_is_set_aside_and_others_are_served(
    tmp_path: Any,
) -> None:
    async def run() -> None:
        url = f"sqlite:///{tmp_path / 'aside.db'}"
        hub = Hub(Store(url))
        broken, _ = await seated_table(hub, {str(s): "person" for s in range(4)})
        fine, _ = await seated_table(hub, {str(s): "person" for s in range(4)})
        await until(lambda: broken.seq == 1 and fine.seq == 1, "the deals")
        await hub.close()
        with Store(url).session() as s:  # an action nobody could have taken
            s.execute(insert(EventRow), [{"table_id": broken.id, "n": 99, "kind": "action",
                                          "text": "0: play ZZ", "actor": "nobody"}])
        again = Hub(Store(url), owner=hub.owner)
        await again.start()
        assert await again.get(broken.id) is None
        assert "does not replay" in again.set_aside[broken.id]
        served = await again.get(fine.id)
        assert served is not None and served.seq == 1
        await again.close()

    asyncio.run(run())


def test_the_host_ends_a_table_and_it_takes_nothing_more(tmp_path: Any) -> None:
    async def run() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'end.db'}"))
        table, ears = await seated_table(hub, {str(s): "person" for s in range(4)})
        await until(lambda: table.seq == 1, "the deal")
        await table.end("the host ended the table")
        assert table.summary_json()["status"] == ENDED
        seat, action = an_action_for(table)
        with pytest.raises(Refused) as refused:
            await table.act(ears[seat], table.seq, action)
        assert refused.value.code == "ended"
        await hub.close()
        rebuilt = await Hub(Store(hub.store.url), owner=hub.owner).get(table.id)
        assert rebuilt is not None and rebuilt.summary_json()["status"] == ENDED
        assert rebuilt.hub.store.load(table.id).status == ENDED  # type: ignore[union-attr]
        await rebuilt.hub.close()

    asyncio.run(run())


def test_a_table_of_bots_alone_is_paced_and_ended(tmp_path: Any, monkeypatch: Any) -> None:
    from tricktable.web import tables

    monkeypatch.setattr(tables, "BOT_ONLY_MOVES", 12)
    monkeypatch.setattr(tables, "BOT_ONLY_PACE", 0.01)

    async def run() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'bots.db'}"))
        table, _ = await seated_table(hub, {str(s): "rules" for s in range(4)})
        assert table.bot_pace == 0
        await until(lambda: table.seq >= 1, "the first deal (made at once)")
        move = table._next_move()
        assert move is not None and move[0] >= 0.01  # paced though its pace is 0
        await until(lambda: table.ended, "the table ended by its limit")
        assert table.seq == 12
        assert "bots alone" in table.summary_json()["ended"]
        await hub.close()

    asyncio.run(run())


def test_abandoned_tables_expire_and_waiting_ones_load_on_demand(tmp_path: Any) -> None:
    async def run() -> None:
        url = f"sqlite:///{tmp_path / 'old.db'}"
        hub = Hub(Store(url))
        waiting, _ = await hub.create(table_spec({"game": "spades",
                                                  "seats": {"0": "person"}}))
        await hub.close()
        fresh = Hub(Store(url), owner=hub.owner)
        await fresh.start()
        await asyncio.sleep(0.05)
        assert waiting.id not in fresh.tables  # nothing to do until someone asks
        assert await fresh.get(waiting.id) is not None
        assert fresh.store.expire(3600) == []  # touched just now
        assert fresh.store.expire(-1) == [waiting.id]
        assert fresh.store.load(waiting.id).status == ENDED  # type: ignore[union-attr]
        await fresh.close()

    asyncio.run(run())


def test_bot_seats_have_no_token_and_a_chosen_seed_is_shown(tmp_path: Any) -> None:
    async def run() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'seed.db'}"))
        table, tokens = await hub.create(table_spec({
            "game": "spades", "seed": "my-secret-seed",
            "seats": {"0": "person", "1": "rules", "2": "rules", "3": "rules"}}))
        assert set(tokens["seats"]) == {"0"} and "bot_seats" not in tokens
        assert table.summary_json()["seed"] == "my-secret-seed"
        ear = Ear()
        await table.hello(ear, tokens["seats"]["0"], "Ann")
        assert ear.views()[-1]["seed"] == "my-secret-seed"
        secret, _ = await hub.create(table_spec({"game": "spades"}))
        assert secret.summary_json()["seed"] is None
        assert hub.store.listing() == []  # private unless the host says otherwise
        public, _ = await hub.create(table_spec({"game": "spades", "public": True}))
        assert [t["table"] for t in hub.store.listing()] == [public.id]
        # a seat the host gives back to a person after a bot had it from the start
        # opens by a new link
        result = await table.host_seat(1, "return", None)
        assert "token" in result
        await hub.close()

    asyncio.run(run())


def test_requests_while_the_database_is_away_are_answered_503_in_a_sentence(
    tmp_path: Any,
) -> None:
    from starlette.testclient import TestClient

    from tricktable.web.app import create_app

    store = FlakyStore(f"sqlite:///{tmp_path / 'away.db'}")
    with TestClient(create_app(store=store)) as client:
        made = client.post("/api/tables", json={"game": "spades"})
        assert made.status_code == 201
        store.down = True
        for answer in (client.get("/api/tables"),
                       client.post("/api/tables", json={"game": "spades"}),
                       client.get("/api/tables/AAAAAAAAAAAA")):
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"] == "store-away"
            assert "nothing was lost" in answer.json()["message"]
        # a table already in memory is still shown
        assert client.get(f"/api/tables/{made.json()['table']}").status_code == 200
        store.down = False
        assert client.get("/api/tables").status_code == 200
