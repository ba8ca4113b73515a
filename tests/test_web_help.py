"""Hints and undo at a web table of one person and bots, as the terminal has them: a hint
comes from the person's own observation and goes to that person only; undo takes back the
person's last decision of the hand (the bots choose again) and is stored like any change.
Neither is offered where another person sits."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from test_web_outage import Ear, until
from tricktable.web.spec import table_spec
from tricktable.web.store import Store
from tricktable.web.tables import Hub, Refused


async def alone_with_bots(tmp_path: Any) -> tuple[Hub, Any, Ear]:
    hub = Hub(Store(f"sqlite:///{tmp_path / 'help.db'}"), think=None)
    table, tokens = await hub.create(table_spec({
        "game": "spades", "bot_pace": 0, "seed": "help",
        "seats": {"0": "person", "1": "rules", "2": "rules", "3": "rules"}}))
    ann = Ear()
    await table.hello(ann, tokens["seats"]["0"], "Ann")
    return hub, table, ann


def my_turn(table: Any) -> bool:
    state = table.runner.state
    return table.status == "playing" and state.to_act >= 0 and \
        table.game.controller(state, state.to_act) == 0


async def wait_my_turn(table: Any) -> int:
    """Wait until it is Ann's turn, read under the table's lock (a bot's move is in memory
    before its commit, which the lock waits for); the view's number."""
    while True:
        await until(lambda: my_turn(table), "Ann's turn")
        async with table.lock:
            if my_turn(table):
                return int(table.seq)


def test_a_hint_is_a_legal_choice_told_to_the_person_only(tmp_path: Any) -> None:
    async def run() -> None:
        hub, table, ann = await alone_with_bots(tmp_path)
        watcher = Ear()
        table.listeners.add(watcher)
        await wait_my_turn(table)
        await table.hint(ann)
        hint = [m for m in ann.heard if m["type"] == "hint"][-1]
        legal = [str(a) for a in table.game.legal_actions(table.runner.state)]
        assert hint["action"] in legal and hint["seq"] == table.seq
        assert hint["message"].startswith("The strong bot would ")
        assert not [m for m in watcher.heard if m["type"] == "hint"]
        await hub.close()

    asyncio.run(run())


def test_undo_takes_back_the_persons_last_decision_and_is_stored(tmp_path: Any) -> None:
    async def run() -> None:
        hub, table, ann = await alone_with_bots(tmp_path)
        with pytest.raises(Refused):  # nothing to take back before the game
            await table.undo(ann)
        seq = await wait_my_turn(table)
        before = list(table.runner.state.actions)
        mine = table.game.legal_actions(table.runner.state)[0]
        await table.act(ann, seq, str(mine))
        # the bots move until it is Ann's turn again (they never move for her)
        await wait_my_turn(table)
        await table.undo(ann)
        assert list(table.runner.state.actions) == before  # back to her choice
        assert my_turn(table)
        seq = table.seq
        await hub.close()
        # stored: a new server rebuilds the same moment
        again = Hub(Store(hub.store.url), think=None, owner=hub.owner)
        rebuilt = await again.get(table.id)
        assert rebuilt is not None and rebuilt.seq == seq
        assert list(rebuilt.runner.state.actions) == before
        await again.close()

    asyncio.run(run())


def test_no_hint_or_undo_where_another_person_sits(tmp_path: Any) -> None:
    async def run() -> None:
        hub = Hub(Store(f"sqlite:///{tmp_path / 'two.db'}"), think=None)
        table, tokens = await hub.create(table_spec({
            "game": "spades", "bot_pace": 0,
            "seats": {"0": "person", "1": "person", "2": "rules", "3": "rules"}}))
        ann = Ear()
        await table.hello(ann, tokens["seats"]["0"], "Ann")
        for ask in (table.hint, table.undo):
            with pytest.raises(Refused) as refused:
                await ask(ann)
            assert refused.value.code == "not-alone"
        await hub.close()

    asyncio.run(run())


def test_a_proven_claim_plays_the_hand_out_and_an_unproven_one_tells_nothing(
    tmp_path: Any,
) -> None:
    pytest.importorskip("numba", reason="claims are checked by the solver (search extra)")

    async def run() -> None:
        hub, table, ann = await alone_with_bots(tmp_path)
        # play on (Ann by the rules bot) until the last two tricks of the first hand
        from tricktable.bots import make_bot

        adviser = make_bot("rules", table.game, 0, "claim")
        while True:
            seq = await wait_my_turn(table)
            state = table.runner.state
            if state.phase.name == "PLAY" and state.hand_size[0] <= 2:
                break
            obs = table.game.observe(state, 0)
            await table.act(ann, seq, str(adviser.choose(obs, list(obs.legal))))
        left = table.runner.state.hand_size[0]
        from tricktable.search.claims import judge_claim

        sure = judge_claim(table.runner.state.copy(), 0).sure
        if sure < left:  # a claim of every trick is not proven: refused, no figures
            with pytest.raises(Refused) as refused:
                await table.claim(ann, None)
            assert refused.value.code == "claim-refused"
            assert not any(ch.isdigit() for ch in refused.value.message)
        if sure == 0:
            return await hub.close()
        done = table.runner.state.finished_hands
        await table.claim(ann, sure)
        assert table.runner.state.finished_hands == done + 1  # the hand was played out
        said = [m for m in ann.heard if m["type"] == "claim"]
        assert said and "Ann claims" in said[-1]["message"]
        seq = table.seq
        await hub.close()
        again = Hub(Store(hub.store.url), think=None, owner=hub.owner)
        rebuilt = await again.get(table.id)
        assert rebuilt is not None and rebuilt.seq == seq
        await again.close()

    asyncio.run(run())
