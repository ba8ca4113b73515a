"""Who may sit in a claimed seat, and talk at the table: a seat is bound to the device that
claimed it, another device gets in only when the seat's person lets it; chat and quick
reactions are stored in the table's log (never in the game's record), shown as text, heard
by spectators only if the host allows, and a muted person is refused."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from test_web_outage import Ear, until
from tricktable.web.protocol import ProtocolError, parse_client_message
from tricktable.web.spec import table_spec
from tricktable.web.store import Store
from tricktable.web.tables import Hub, Refused

PHONE, LAPTOP = "phone-key-0123456789abcdef", "laptop-key-0123456789abcdef"


async def a_table(tmp_path: Any) -> tuple[Hub, Any, dict[str, Any]]:
    hub = Hub(Store(f"sqlite:///{tmp_path / 'talk.db'}"))
    table, tokens = await hub.create(table_spec({
        "game": "spades", "seats": {"0": "person", "1": "person", "2": "rules", "3": "rules"}}))
    return hub, table, tokens


def test_a_claimed_seat_lets_in_another_device_only_when_its_person_allows(
    tmp_path: Any,
) -> None:
    async def run() -> None:
        hub, table, tokens = await a_table(tmp_path)
        ann_phone = Ear()
        await table.hello(ann_phone, tokens["seats"]["0"], "Ann", PHONE)
        # the same link opened on another device (the host, say): not seated, asked
        intruder = Ear()
        await table.hello(intruder, tokens["seats"]["0"], None, LAPTOP)
        assert intruder not in table.listeners and intruder.views() == []
        assert intruder.heard[-1]["code"] == "other-device"
        request = ann_phone.heard[-1]
        assert request["type"] == "device-request"
        # Ann says no: the other device is told and closed, and sees no hand
        await table.allow_device(ann_phone, request["request"], False)
        assert intruder.closed and intruder.views() == []
        # she says yes to her laptop: it is seated, and stays allowed after a rebuild
        laptop = Ear()
        await table.hello(laptop, tokens["seats"]["0"], None, LAPTOP)
        ask = ann_phone.heard[-1]["request"]
        with pytest.raises(Refused):  # only the seat's person answers
            await table.allow_device(laptop, ask, True)
        await table.allow_device(ann_phone, ask, True)
        assert laptop in table.listeners and laptop.views()[-1]["you"]["seat"] == 0
        assert table.summary_json()["seats"][0]["devices"] == 2
        await hub.close()
        again = Hub(Store(hub.store.url), owner=hub.owner)
        rebuilt = await again.get(table.id)
        assert rebuilt is not None
        later = Ear()
        await rebuilt.hello(later, tokens["seats"]["0"], None, LAPTOP)
        assert later in rebuilt.listeners
        stranger = Ear()
        await rebuilt.hello(stranger, tokens["seats"]["0"], None, "x" * 20)
        assert stranger not in rebuilt.listeners and stranger.heard[-1]["waiting"]
        rebuilt.forget_requests(stranger)
        rebuilt.leave(later)
        with pytest.raises(Refused) as refused:  # nobody of Ann's is connected to ask
            await rebuilt.hello(Ear(), tokens["seats"]["0"], None, "y" * 20)
        assert refused.value.code == "other-device"
        await again.close()

    asyncio.run(run())


def test_a_new_link_from_the_host_forgets_the_seats_devices(tmp_path: Any) -> None:
    async def run() -> None:
        hub, table, tokens = await a_table(tmp_path)
        await table.hello(Ear(), tokens["seats"]["0"], "Ann", PHONE)
        opened = await table.host_seat(0, "open", None)
        newcomer = Ear()
        await table.hello(newcomer, opened["token"], "Bea", LAPTOP)
        assert newcomer in table.listeners
        await hub.close()

    asyncio.run(run())


def test_chat_is_stored_shown_as_text_and_kept_out_of_the_record(tmp_path: Any) -> None:
    async def run() -> None:
        hub, table, tokens = await a_table(tmp_path)
        ann, bob, watcher = Ear(), Ear(), Ear()
        await table.hello(ann, tokens["seats"]["0"], "Ann")
        await table.hello(bob, tokens["seats"]["1"], "Bob")
        await table.hello(watcher, tokens["spectator"], None)
        await table.say(ann, "<b>nice</b> [/] hand 👩‍💻", None)
        await table.say(bob, None, "well-played")
        said = [m for m in bob.heard if m["type"] == "chat"]
        assert [(m["name"], m["text"]) for m in said] == [
            ("Ann", "<b>nice</b> [/] hand 👩‍💻"), ("Bob", "Well played!")]
        assert not [m for m in watcher.heard if m["type"] == "chat"]  # not allowed yet
        with pytest.raises(Refused):
            await table.say(watcher, "hello", None)
        await table.host_talk(True, None, None)
        await table.say(watcher, "hello from the rail", None)
        assert [m for m in watcher.heard if m["type"] == "chat"][-1]["name"] == "a spectator"
        await table.host_talk(None, 1, None)
        with pytest.raises(Refused) as muted:
            await table.say(bob, "hey", None)
        assert muted.value.code == "muted"
        await until(lambda: table.status == "playing", "the deal")
        await hub.close()
        # kept in the log: a newcomer after a restart hears what was said, the mute holds
        again = Hub(Store(hub.store.url), owner=hub.owner)
        rebuilt = await again.get(table.id)
        assert rebuilt is not None and rebuilt.muted == {1} and rebuilt.spectators_chat
        back = Ear()
        await rebuilt.hello(back, tokens["seats"]["0"], None)
        log = [m for m in back.heard if m["type"] == "chat-log"][-1]["lines"]
        assert [line["text"] for line in log][-1] == "hello from the rail"
        record = rebuilt._record().dumps()
        assert "nice" not in record and "rail" not in record
        await again.close()

    asyncio.run(run())


def test_chat_messages_are_checked() -> None:
    assert parse_client_message(json.dumps({"type": "say", "text": " hi "}))["text"] == "hi"
    for bad in ({"type": "say", "text": ""}, {"type": "say", "text": "x" * 201},
                {"type": "say", "text": "a\u202eb"}, {"type": "say", "text": "a\x1b[2Jb"},
                {"type": "say", "text": 5}, {"type": "react", "reaction": "boo"},
                {"type": "allow-device", "request": "x"},
                {"type": "hello", "token": "t", "device": "short"}):
        with pytest.raises(ProtocolError):
            parse_client_message(json.dumps(bad))


def test_the_hosts_calls_over_http(tmp_path: Any) -> None:
    from web_helpers import client_for, create, sqlite_url

    with client_for(sqlite_url(tmp_path)) as client:
        made = create(client, game="spades")
        table, host = made["table"], {"authorization": f"Bearer {made['host_token']}"}
        talk = f"/api/tables/{table}/talk"
        assert client.post(talk, json={"spectators": True}).status_code == 403
        answer = client.post(talk, json={"spectators": True, "mute": 1}, headers=host)
        assert answer.status_code == 200 and answer.json() == {"spectators": True,
                                                                 "muted": [1]}
        for bad in ({"spectators": "yes"}, {"mute": "1"}, [], {}):
            assert client.post(talk, json=bad, headers=host).status_code in (400, 409)
        assert client.post(talk, content=b"[" * 100, headers=host).status_code == 400
        ended = client.post(f"/api/tables/{table}/end", headers=host)
        assert ended.status_code == 200 and ended.json()["status"] == "ended"
        assert client.post(f"/api/tables/{table}/end", headers=host).status_code == 409
