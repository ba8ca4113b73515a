"""The table protocol through the ASGI test client: whole games of every game with people
and bots, and the rules of the socket (order, refusals, tokens, limits, host, rematch)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from tricktable import loads_record, replay
from tricktable.engine.actions import Play
from web_helpers import client_for, create, play_game, receive_json, sqlite_url

GAMES = [
    ("spades", {"target": 200}, {"0": "person", "1": "rules", "2": "person", "3": "random"}),
    ("dummy-hand-spades", {"target": 150}, {"0": "person", "1": "rules", "2": "person"}),
    ("3b-spades", {"players": 4, "hands": 2}, {"0": "person", "1": "rules", "2": "person",
                                               "3": "rules"}),
    ("dummy-whist", {"target": 10}, {"0": "person", "1": "rules", "2": "person"}),
    ("double-dummy-whist", {"target": 10}, {"0": "person", "1": "rules"}),
    ("paperless-spades", {}, {"0": "person", "1": "rules", "2": "person", "3": "rules"}),
]


@pytest.mark.parametrize(("game", "options", "seats"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_with_people_and_bots(
    tmp_path: Path, game: str, options: dict[str, Any], seats: dict[str, str]
) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        created = create(client, game=game, options=options, seats=seats, seed=11)
        assert set(created["invites"]) == {s for s, who in seats.items() if who == "person"}
        players = play_game(client, created)
        last = players["0"].messages[-1]
        assert last["status"] == "over" and last["winner"] is not None
        seqs = [m["seq"] for m in players["0"].messages if m["type"] == "view"]
        assert seqs == sorted(seqs), "views arrive in order"
        # every seat names its people and bots; nobody is away while connected
        names = {s["seat"]: s["name"] for s in last["seats"] if s["kind"] != "dummy"}
        bots = {s["seat"]: s["bot"] for s in last["seats"] if s["kind"] == "bot"}
        for seat, who in seats.items():
            if who == "person":
                assert names[int(seat)] == f"P{seat}"
            else:  # a bot reads as its strength ("Casual bot", or "Casual bot A" beside
                # another), and says which bot it is
                assert re.fullmatch(r"\w+ bot( [A-E])?", names[int(seat)]), names
                assert bots[int(seat)] == who
        # the score lines name the people, never a seat number
        lines = [line for result in last["results"] for line in result["lines"]]
        assert lines and not any("seat " in line for line in lines), lines
        # the finished game is a v1 record that replays to the same totals
        r = client.get(f"/api/tables/{created['table']}/records/0",
                       headers={"authorization": f"Bearer {created['spectator']['token']}"})
        assert r.status_code == 200
        state = replay(loads_record(r.text))
        assert state.game.totals_mapping(state) == last["totals"]
        assert client.get(f"/api/tables/{created['table']}/records/0").status_code == 403


def test_a_search_bot_thinks_off_the_event_loop_and_plays_a_whole_game(
    tmp_path: Path,
) -> None:
    """A montecarlo bot at a web table (it thinks in a worker thread, for the server's
    thinking time) plays a whole game with a person; the record replays to the totals."""
    with client_for(sqlite_url(tmp_path), think=0.01) as client:
        created = create(client, game="double-dummy-whist", options={"target": 5},
                         seats={"0": "person", "1": "montecarlo"}, seed=4)
        players = play_game(client, created)
        last = players["0"].messages[-1]
        assert last["status"] == "over" and last["winner"] is not None
        r = client.get(f"/api/tables/{created['table']}/records/0",
                       headers={"authorization": f"Bearer {created['spectator']['token']}"})
        state = replay(loads_record(r.text))
        assert state.game.totals_mapping(state) == last["totals"]


def _hello(ws: Any, token: str, name: str | None = "Ann") -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "token": token, "name": name}))
    welcome = receive_json(ws)
    assert welcome["type"] == "welcome", welcome
    view = receive_json(ws)
    assert view["type"] == "view"
    return dict(view)


def _until(ws: Any, pred: Any, limit: int = 2000) -> dict[str, Any]:
    for _ in range(limit):
        m = receive_json(ws)
        if pred(m):
            return dict(m)
    raise AssertionError("no such message")


def _my_view(ws: Any) -> dict[str, Any]:
    return _until(ws, lambda m: m["type"] == "view" and m["legal"] and m["status"] == "playing")


def test_refusals_go_to_the_sender_only_and_change_nothing(tmp_path: Path) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        created = create(client, game="spades", seats={"0": "person", "1": "rules",
                                                        "2": "rules", "3": "rules"}, seed=4)
        table = created["table"]
        with client.websocket_connect(f"/ws/{table}") as a, \
                client.websocket_connect(f"/ws/{table}") as b:
            _hello(a, created["invites"]["0"]["token"], "Ann")
            _hello(b, created["spectator"]["token"], None)
            view = _my_view(a)
            seq = view["seq"]
            # an illegal action: the engine's own reason, to the sender only
            a.send_text(json.dumps({"type": "action", "seq": seq, "action": "0: bid 99"}))
            refused = _until(a, lambda m: m["type"] == "refused")
            assert refused["code"] == "illegal" and refused["rule"] and "allowed" in refused
            # another seat's action is not mine to send
            a.send_text(json.dumps({"type": "action", "seq": seq, "action": "1: bid 3"}))
            assert _until(a, lambda m: m["type"] == "refused")["code"] in ("not-yours",)
            # malformed notation
            a.send_text(json.dumps({"type": "action", "seq": seq, "action": "0: bid three"}))
            assert _until(a, lambda m: m["type"] == "refused")["code"] == "notation"
            # now a legal one, then the same message again: the second is for a past view
            msg = json.dumps({"type": "action", "seq": seq, "action": view["legal"][3]})
            a.send_text(msg)
            after = _until(a, lambda m: m["type"] == "view" and m["seq"] > seq)
            a.send_text(msg)
            stale = _until(a, lambda m: m["type"] == "refused")
            assert stale["code"] == "stale"
            again = _until(a, lambda m: m["type"] == "view")
            assert again["seq"] >= after["seq"]
            # the spectator heard of the accepted action, and of none of the refusals
            seen = _until(b, lambda m: m["type"] != "view" or m["seq"] > seq)
            assert seen["type"] == "view"
            assert view["legal"][3] in seen["observation"]["history"]


def test_two_tabs_on_one_seat_both_work(tmp_path: Path) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        created = create(client, game="paperless-spades",
                         seats={"0": "person", "1": "rules", "2": "rules", "3": "rules"}, seed=2)
        table, token = created["table"], created["invites"]["0"]["token"]
        with client.websocket_connect(f"/ws/{table}") as tab1, \
                client.websocket_connect(f"/ws/{table}") as tab2:
            first1 = _hello(tab1, token, "Ann")
            first2 = _hello(tab2, token, None)  # named once: the second tab needs no name
            # the view a hello brings may already be the one that asks (the bots are quick)
            v1 = first1 if first1["legal"] else _my_view(tab1)
            v2 = first2 if first2["seq"] == v1["seq"] else _until(
                tab2, lambda m: m["type"] == "view" and m["seq"] == v1["seq"])
            assert v1["observation"] == v2["observation"]
            tab2.send_text(json.dumps({"type": "action", "seq": v2["seq"],
                                       "action": v2["legal"][0]}))
            got = _until(tab1, lambda m: m["type"] == "view" and m["seq"] > v1["seq"])
            assert got["observation"]["history"][-1] == v2["legal"][0] or got["seq"] > v1["seq"]
            seat0 = got["seats"][0]
            assert seat0["name"] == "Ann" and not seat0["away"]


def test_tokens_names_and_bad_input(tmp_path: Path) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        created = create(client, game="spades", seed=1)
        table, token = created["table"], created["invites"]["0"]["token"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": "not-a-token", "name": "Eve"}))
            assert receive_json(ws)["code"] == "bad-token"
            assert receive_json(ws)["code"] == "closed"
        with client.websocket_connect(f"/ws/{table}") as ws:
            for bad, code in [
                ("{not json", "bad-json"),
                ("[1, 2]", "bad-json"),
                ('{"type": "shout"}', "unknown-type"),
                ("x" * 5000, "too-large"),
                (json.dumps({"type": "hello", "token": token, "name": "A\u0007nn"}), "bad-name"),
                (json.dumps({"type": "hello", "token": token, "name": "B" * 41}), "bad-name"),
                (json.dumps({"type": "hello", "token": token, "name": "x\u202ey"}), "bad-name"),
                (json.dumps({"type": "action", "seq": 0, "action": "0: bid 3"}), "hello-first"),
            ]:
                ws.send_text(bad)
                got = receive_json(ws)
                assert got.get("code") == code, (bad[:40], got)
                assert "message" in got
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            assert receive_json(ws)["code"] == "need-name"
            ws.send_text(json.dumps({"type": "ping"}))
            assert receive_json(ws)["type"] == "pong"
        # no such table
        with client.websocket_connect("/ws/nosuchtable") as ws:
            assert receive_json(ws)["code"] == "no-table"
        # table requests checked by the game's own options class
        for body, status in [
            ({"game": "bridge"}, 400),
            ({"game": "spades", "options": {"target": "lots"}}, 400),
            ({"game": "spades", "options": {"trumps": 1}}, 400),
            ({"game": "spades", "seats": {"0": "wizard"}}, 400),
            ({"game": "spades", "seats": {"7": "person"}}, 400),
            ({"game": "spades", "bot_pace": -1}, 400),
        ]:
            r = client.post("/api/tables", json=body)
            assert r.status_code == status and r.json()["message"], body
        assert client.post("/api/tables", content=b"x" * 20000).status_code == 413


def test_a_flood_from_one_socket_is_cut_off(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from tricktable.web.app import create_app

    with TestClient(create_app(sqlite_url(tmp_path), rate=(5.0, 5.0))) as client:
        created = create(client, game="spades", seed=1)
        with client.websocket_connect(f"/ws/{created['table']}") as ws:
            for _ in range(200):
                ws.send_text('{"type": "ping"}')
            kinds = []
            while True:
                m = receive_json(ws)
                kinds.append(m.get("code", m["type"]))
                if m.get("code") == "closed":
                    break
            assert kinds[:5] == ["pong"] * 5 and "rate" in kinds


def test_the_host_opens_fills_and_gives_back_seats_and_rematches(tmp_path: Path) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        created = create(client, game="double-dummy-whist", options={"target": 5},
                         seats={"0": "person", "1": "person"}, seed=9)
        table = created["table"]
        host = {"authorization": f"Bearer {created['host_token']}"}
        url = f"/api/tables/{table}/seats/1"
        assert client.post(url, json={"do": "bot"}).status_code == 403
        assert client.post(url, json={"do": "bot", "bot": "rules"}, headers=host).status_code == 200
        summary = client.get(f"/api/tables/{table}").json()
        assert summary["seats"][1]["kind"] == "bot" and summary["status"] == "waiting"
        # seat 1 played by a bot: one person is enough to play the game out
        players = play_game(client, {**created, "invites": {"0": created["invites"]["0"]}})
        assert players["0"].messages[-1]["status"] == "over"
        # give the seat back, open seat 0 to someone new (the old link stops working)
        assert client.post(url, json={"do": "return"}, headers=host).status_code == 200
        r = client.post(f"/api/tables/{table}/seats/0", json={"do": "open"}, headers=host)
        new_token = r.json()["token"]
        assert "#token=" in r.json()["url"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": created["invites"]["0"]["token"],
                                     "name": "Old"}))
            assert receive_json(ws)["code"] == "bad-token"
        # a rematch keeps the seats; the first game's record stays downloadable
        assert client.post(f"/api/tables/{table}/rematch").status_code == 403
        r = client.post(f"/api/tables/{table}/rematch", headers=host)
        assert r.status_code == 200 and r.json()["game_number"] == 1
        assert client.post(f"/api/tables/{table}/rematch", headers=host).status_code == 409
        again = play_game(client, {**created, "invites": {
            "0": {"token": new_token}, "1": created["invites"]["1"]}})
        last = again["0"].messages[-1]
        assert last["status"] == "over" and last["game_number"] == 1
        assert [s["name"] for s in last["seats"][:2]] == ["P0", "P1"]
        for number in (0, 1):
            r = client.get(f"/api/tables/{table}/records/{number}", headers=host)
            assert r.status_code == 200 and replay(loads_record(r.text)).is_over


def test_away_people_are_shown_and_replaced_after_the_grace(tmp_path: Path) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        created = create(client, game="spades", options={"target": 100}, away_grace=0.3,
                         seats={"0": "person", "1": "person", "2": "rules", "3": "rules"},
                         seed=3)
        table = created["table"]
        with client.websocket_connect(f"/ws/{table}") as ann:
            _hello(ann, created["invites"]["0"]["token"], "Ann")
            with client.websocket_connect(f"/ws/{table}") as bob:
                _hello(bob, created["invites"]["1"]["token"], "Bob")
            # Bob left: Ann sees him away; after the grace a stand-in plays his seat, and
            # the game goes on (Ann keeps playing her own seat)
            away = _until(ann, lambda m: m["type"] == "view" and m["seats"][1]["away"])
            assert away["seats"][1]["name"] == "Bob"
            # The view that shows Bob away may be the one that asks Ann (her turn came
            # before he left): it is answered like every view after it, or the table
            # would wait for her forever.
            deadline = time.monotonic() + 20
            m = away
            while True:
                if m["type"] == "view":
                    if m["legal"] and m["status"] == "playing":
                        ann.send_text(json.dumps({"type": "action", "seq": m["seq"],
                                                  "action": m["legal"][-1]}))
                    if any(h.startswith("1: ") for h in m["observation"]["history"]):
                        break  # a stand-in played Bob's seat
                assert time.monotonic() < deadline, "no stand-in played Bob's seat"
                m = receive_json(ann)
            # Bob comes back and has his seat again
            with client.websocket_connect(f"/ws/{table}") as bob:
                view = _hello(bob, created["invites"]["1"]["token"], None)
                assert view["you"] == {"role": "seat", "seat": 1}
                assert not view["seats"][1]["away"]


def test_the_games_and_bots_a_client_can_offer(tmp_path: Path) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        r = client.get("/api/games")
        assert r.status_code == 200
        body = r.json()
        games = {g["game"]: g for g in body["games"]}
        assert body["protocol"] == 1 and "rules" in {b["bot"] for b in body["bots"]}
        assert games["spades"]["player_seats"] == [0, 1, 2, 3]
        # 3B's table depends on its players option: said, not guessed
        threeb = games["3b-spades"]
        assert threeb["seats"] is None and "players" in threeb["needs"]
        assert any(o["name"] == "players" and o["choices"] for o in threeb["options"])
        for g in games.values():
            assert all(o["doc"] for o in g["options"])
        # the lobby seats each game's default opponent
        assert games["dummy-hand-spades"]["default_bot"] == "montecarlo"
        assert games["paperless-spades"]["default_bot"] == "montecarlo"
        assert {g["default_bot"] for g in games.values()} <= {b["bot"] for b in body["bots"]}


def test_serve_refuses_an_unusable_database_or_address_in_one_line(tmp_path: Path) -> None:
    import socket

    from test_cli_hardening import cli, one_line_refusal
    from web_process import free_port

    one_line_refusal(cli("serve", "--port", str(free_port()), "--db", "nonsense://x"),
                     "--db", "nonsense")
    one_line_refusal(cli("serve", "--db", f"sqlite:///{tmp_path}/no/such/{'x' * 5}/../../a",
                         "--port", "1", "--host", "256.1.1.1"), "cannot listen")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        one_line_refusal(cli("serve", "--port", str(port), "--db",
                             f"sqlite:///{tmp_path / 'a.db'}"), "cannot listen", str(port))
    one_line_refusal(cli("serve", "--port", "70000"), "--port")


class _BrokenBot:
    """A bot with a bug: it answers with a card its seat does not hold (a refusal of the
    engine names the seat's own cards) or raises, turn about."""

    searches = False
    calls = 0

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def choose(self, obs: Any, legal: Any) -> Any:
        _BrokenBot.calls += 1
        if _BrokenBot.calls % 2:
            raise RuntimeError("a bug in the bot")
        missing = next(c for c in range(52) if not obs.hand >> c & 1)
        return Play(self.seat, missing)

    def offer(self, obs: Any, legal: Any) -> Any:
        return None


def test_a_bot_that_fails_is_stood_in_for_and_the_table_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from tricktable.web import tables

    monkeypatch.setattr(_BrokenBot, "calls", 0)
    real_make_bot = tables.make_bot

    def make_bot(name: str, game: Any, seat: int, *args: Any) -> Any:
        return _BrokenBot(seat) if name == "random" else real_make_bot(name, game, seat, *args)

    monkeypatch.setattr(tables, "make_bot", make_bot)
    with client_for(sqlite_url(tmp_path)) as client:
        created = create(client, game="spades", options={"target": 100}, seed=5,
                         seats={"0": "person", "1": "random", "2": "random", "3": "random"})
        players = play_game(client, created)
    assert _BrokenBot.calls >= 20
    # every move the bots failed to make was made for them, and the game was played out
    last = players["0"].messages[-1]
    assert last["status"] == "over" and last["winner"] is not None
    # the people heard of each failure, but not what it said: a refusal of a bot's card
    # lists its seat's legal cards, and a seat's cards are its own
    for who in ("0", "spectator"):
        told = [m for m in players[who].messages if m["type"] == "error"]
        assert len(told) == _BrokenBot.calls
        for m in told:
            assert m["code"] == "bot" and "the rules bot makes this move" in m["message"]
            assert not re.search(r"\b(10|[2-9TJQKA])[SHDC]\b", m["message"]), m["message"]
    # the host finds the details in the server's log
    failures = [r for r in caplog.records if "bot failed" in r.getMessage()]
    assert len(failures) == _BrokenBot.calls
    assert any("a bug in the bot" in str(r.exc_info[1]) for r in failures if r.exc_info)
    assert any("does not hold" in str(r.exc_info[1]) for r in failures if r.exc_info)


def test_a_public_table_gives_links_to_watch_and_to_take_an_open_seat(tmp_path: Path) -> None:
    """The lobby's open tables: a new link to watch, or to take an open seat, for a public
    table only (a private one is answered as if there were none); a seat taken is taken."""
    with client_for(sqlite_url(tmp_path)) as client:
        seats = {"0": "person", "1": "person", "2": "rules", "3": "rules"}
        public = create(client, game="spades", seats=seats, public=True)
        private = create(client, game="spades", seats=seats)
        link = f"/api/tables/{public['table']}/public-link"
        assert client.post(f"/api/tables/{private['table']}/public-link", json={}
                           ).status_code == 404
        for bad in ([], {"seat": "0"}, {"seat": 0, "more": 1}):
            r = client.post(link, json=bad)
            assert r.status_code == 400 and r.json()["error"] == "bad-request"
        assert client.post(link, json={"seat": 2}).json()["error"] == "taken"  # a bot's
        watch = client.post(link, json={}).json()["url"]
        seat = client.post(link, json={"seat": 0}).json()["url"]
        assert watch.startswith(f"/play/{public['table']}#token=")
        with client.websocket_connect(f"/ws/{public['table']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": watch.split("#token=")[1]}))
            assert receive_json(ws)["role"] == "spectator"
        with client.websocket_connect(f"/ws/{public['table']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": seat.split("#token=")[1],
                                     "name": "Ann"}))
            welcome = receive_json(ws)
            assert welcome["role"] == "seat" and welcome["seat"] == 0
        r = client.post(link, json={"seat": 0})
        assert r.status_code == 409 and r.json()["error"] == "taken"
