"""A table's finished games are kept whole: after a rematch the table is rebuilt from the
snapshot the rematch wrote and the log after it, so loading a table costs its current game,
never the games finished before; the old games' records stay downloadable, the chat
settings survive, and a commit that fails after a snapshot is still undone in memory."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("sqlalchemy", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from test_web_outage import FlakyStore, until
from tricktable.web.spec import table_spec
from tricktable.web.store import Store
from tricktable.web.tables import OVER, Hub


def test_a_table_is_rebuilt_from_its_last_rematch(tmp_path: Any, monkeypatch: Any) -> None:
    from tricktable.web import tables

    monkeypatch.setattr(tables, "BOT_ONLY_PACE", 0.0)

    async def run() -> None:
        store = FlakyStore(f"sqlite:///{tmp_path / 'long.db'}")
        hub = Hub(store)
        table, _ = await hub.create(table_spec({
            "game": "spades", "options": {"target": 100}, "bot_pace": 0,
            "seats": {str(s): "rules" for s in range(4)}}))
        await table.host_talk(True, 2, None)
        for _ in range(2):
            await until(lambda: table.status == OVER, "the game over")
            await table.rematch()
        await until(lambda: table.seq >= table.snapshot.seq + 5,  # type: ignore[union-attr]
                    "the third game under way")

        # a commit that fails after the snapshot is undone from it, and the bots carry on
        store.down = True
        await until(lambda: table.recovering, "a commit failing")
        store.down = False
        await until(lambda: not table.recovering, "the table read again")

        async with table.lock:
            first, second = table.record(0), table.record(1)
            loaded = Store(store.url).load(table.id)
            assert loaded is not None and loaded.snapshot is not None
            # only the third game's log is read: nothing of the first two
            assert loaded.events[0][0] == loaded.snapshot.n + 1
            assert not [e for e in loaded.events if e[1] == "rematch"]
            assert len(loaded.records) == 2
            other = Hub(Store(store.url), owner=hub.owner)
            rebuilt = await other.get(table.id)
            assert rebuilt is not None
            assert rebuilt.seq == table.seq and rebuilt.game_number == 2
            assert rebuilt.runner.state.actions == table.runner.state.actions
            assert rebuilt.record(0).dumps() == first.dumps()
            assert rebuilt.record(1).dumps() == second.dumps()
            assert rebuilt.spectators_chat and rebuilt.muted == {2}
            assert rebuilt.view("spectator", None) == table.view("spectator", None)
        await other.close()
        await hub.close()

    asyncio.run(run())
