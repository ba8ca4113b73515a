"""The replay viewer's endpoint: a record's outline, then a hand's frames at a time, every
hand open or one seat's view; the trick a card completes shown in its frame; answers and
work that grow with the record, not its square; limits checked before any replay; a few
replays at once, off the event loop; and a clear refusal of a bad record."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("starlette")

from tricktable import Phase, make_game, step
from tricktable.engine.cards import parse_set
from tricktable.engine.records import game_for_record, load_record, record_from_state, replay
from tricktable.web import replay as replay_module
from tricktable.web.protocol import trick_json
from tricktable.web.replay import (
    MAX_HAND_ACTIONS,
    MAX_REPLAY_ACTIONS,
    MAX_REPLAY_HANDS,
    MAX_REPLAYS_AT_ONCE,
)
from web_helpers import client_for, sqlite_url

if TYPE_CHECKING:
    from starlette.testclient import TestClient

EXAMPLES = Path(__file__).parent / "data" / "examples"
NAMES = ["dummy-hand-spades-11-000.json", "dummy-whist-31-000.json", "3b-spades-21-000.json"]

BYTES_PER_MOMENT = 3_000
"""A frame with every hand open is some 1.7 KB in spades (the observation, with its hand's
history and tricks so far); this bound holds whatever the hand's place in the game."""
BYTES_PER_HAND = 1_000
"""The outline holds, per hand, its dealer, its number of moments and its result."""


def ask(client: TestClient, text: str, seat: object = "all", hand: int | None = None
        ) -> dict[str, Any]:
    query = f"seat={seat}" + ("" if hand is None else f"&hand={hand}")
    r = client.post(f"/api/replay?{query}", content=text)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def every_frame(client: TestClient, text: str, seat: object = "all"
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The outline and every hand's frames, in order."""
    outline = ask(client, text, seat)
    frames: list[dict[str, Any]] = []
    for h in outline["hands"]:
        answer = ask(client, text, seat, h["hand"])
        assert answer["hand"] == h["hand"] and len(answer["frames"]) == h["moments"]
        frames.extend(answer["frames"])
    return outline, frames


def long_record(hands: int, seed: int = 4) -> str:
    """A game of spades of ``hands`` hands, played at random to a target never reached."""
    game = make_game("spades", {"target": 10_000})
    state = game.new_game()
    rng = random.Random(seed)
    while state.finished_hands < hands:
        assert state.phase is not Phase.GAME_OVER
        if state.phase in (Phase.DEAL, Phase.SCORING):
            step(state, game.random_deal(state, rng))
        else:
            step(state, rng.choice(game.legal_actions(state)))
    return record_from_state(state).dumps()


@pytest.mark.parametrize("name", NAMES)
def test_a_record_becomes_an_outline_and_a_frame_per_moment(tmp_path: Path, name: str) -> None:
    text = (EXAMPLES / name).read_text()
    record = load_record(EXAMPLES / name)
    end = replay(record)
    moments = sum(1 + len(h.actions) for h in record.hands)
    with client_for(sqlite_url(tmp_path)) as client:
        outline, every = every_frame(client, text)
        assert len(every) == moments
        assert outline["winner"] == end.winner
        assert [h["moments"] for h in outline["hands"]] == [1 + len(h.actions)
                                                            for h in record.hands]
        # each hand's result is in the outline, once; a frame says how many are scored
        assert [r["totals"] for r in outline["results"]] == [dict(r.totals) for r in end.results]
        assert every[-1]["scored"] == len(end.results)
        assert every[0]["scored"] == 0 and "results" not in every[0]
        seat = outline["player_seats"][0]
        _, mine = every_frame(client, text, seat)
        assert len(mine) == moments
        for frame_all, frame_seat in zip(every, mine, strict=True):
            obs = frame_seat["observation"]
            # a seat's frame shows of the others only what that seat saw: never more than
            # the open view's holdings, and its own hand in full
            for s, cards in enumerate(obs["visible"]):
                shown = parse_set(" ".join(cards))
                held = parse_set(" ".join(frame_all["observation"]["visible"][s]))
                assert shown & ~held == 0
            assert obs["seat"] == seat
            assert obs["hand"] == frame_all["observation"]["visible"][seat]
        # each frame says what the game says of that moment, naming the record's players
        for frame in every:
            words = frame["words"]
            assert set(words) >= {"facts", "seats", "turn"}
            assert all(isinstance(line, str) for line in words["facts"])


@pytest.mark.parametrize("name", NAMES)
def test_the_frame_after_a_tricks_last_card_shows_the_trick_and_its_winner(
        tmp_path: Path, name: str) -> None:
    text = (EXAMPLES / name).read_text()
    record = load_record(EXAMPLES / name)
    # the engine's completed tricks at each moment
    tricks_then: list[list[Any]] = []
    replay(record, lambda state, hand, action: tricks_then.append(list(state.tricks)))
    with client_for(sqlite_url(tmp_path)) as client:
        for seat in ("all", game_for_record(record).player_seats[-1]):
            _, frames = every_frame(client, text, seat)
            completed = 0
            for before, frame, tricks in zip(frames[:-1], frames[1:], tricks_then[1:],
                                             strict=True):
                if frame["hand"] == before["hand"] and frame["tricks_done"] > before[
                        "tricks_done"]:
                    completed += 1
                    last = frame["last_trick"]
                    assert last == trick_json(tricks[-1])
                    assert frame["observation"]["trick"] == []
                    # the card just played is the trick's last, and it names the winner
                    assert frame["label"].endswith(f"play {last['cards'][-1]}")
                    assert last["winner"] in last["seats"]
                    assert len(last["cards"]) == before["trick_size"] + 1
                else:
                    assert "last_trick" not in frame
            assert completed == sum(len(t) for t in _per_hand_last(tricks_then, frames))


def _per_hand_last(tricks_then: list[list[Any]], frames: list[dict[str, Any]]
                   ) -> list[list[Any]]:
    """Each hand's completed tricks at its last moment."""
    last: dict[int, list[Any]] = {}
    for tricks, frame in zip(tricks_then, frames, strict=True):
        last[frame["hand"]] = tricks
    return list(last.values())


def test_answers_grow_with_the_record_not_its_square(tmp_path: Path) -> None:
    long = long_record(300)
    with client_for(sqlite_url(tmp_path)) as client:
        outline = ask(client, long)
        assert len(outline["hands"]) == 300
        assert len(json.dumps(outline)) < BYTES_PER_HAND * 300
        # a late hand's answer is the size of an early one: no frame carries the hands
        # before it (they were a frame's results, every frame's, before)
        sizes = {}
        for hand in (1, 2, 299, 300):
            answer = ask(client, long, hand=hand)
            sizes[hand] = len(json.dumps(answer))
            assert sizes[hand] < BYTES_PER_MOMENT * len(answer["frames"])
        assert sizes[300] < 1.2 * sizes[1] and sizes[299] < 1.2 * sizes[2]
        # and the whole of a shorter game, every hand fetched, is bounded by its moments
        short = long_record(30, seed=5)
        outline, frames = every_frame(client, short)
        whole = len(json.dumps(outline)) + len(json.dumps(frames))
        assert whole < BYTES_PER_MOMENT * len(frames)


@pytest.fixture
def replays_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replays on a thread of this process, so that a test sees what they call."""
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(MAX_REPLAYS_AT_ONCE)
    monkeypatch.setattr(replay_module, "_pool", lambda: pool)


@pytest.mark.usefixtures("replays_in_this_process")
def test_a_hand_is_replayed_no_further_and_framed_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = long_record(20)
    framed: list[int] = []
    replayed: list[int] = []
    real_frame, real_replay = replay_module._frame, replay_module.replay

    def counting_frame(*args: Any) -> dict[str, Any]:
        framed.append(1)
        return real_frame(*args)

    def counting_replay(record: Any, on_step: Any = None) -> Any:
        replayed.append(len(record.hands))
        return real_replay(record, on_step)

    monkeypatch.setattr(replay_module, "_frame", counting_frame)
    monkeypatch.setattr(replay_module, "replay", counting_replay)
    with client_for(sqlite_url(tmp_path)) as client:
        outline = ask(client, text)
        assert framed == [] and replayed == [20]
        replayed.clear()
        answer = ask(client, text, hand=7)
        # the hands before the seventh replayed without frames, none after it
        assert replayed == [7]
        assert len(framed) == len(answer["frames"]) == outline["hands"][6]["moments"]


def _synthetic(hands: int, actions: int) -> str:
    """A record of the right form whose size alone is over a limit (never replayed)."""
    hand = {"dealer": 0, "deal": {}, "actions": ["0: bid 3"] * actions}
    return json.dumps({"format": "tricktable-record/1", "game": "spades", "options": {},
                       "players": {}, "hands": [hand] * hands})


@pytest.mark.parametrize(("hands", "actions", "says"), [
    (MAX_REPLAY_HANDS + 1, 0, f"at most {MAX_REPLAY_HANDS:,}"),
    (MAX_REPLAY_ACTIONS // MAX_HAND_ACTIONS + 1, MAX_HAND_ACTIONS,
     f"at most {MAX_REPLAY_ACTIONS:,}"),
    (1, MAX_HAND_ACTIONS + 1, f"at most {MAX_HAND_ACTIONS}"),
], ids=["hands", "actions", "actions-in-a-hand"])
@pytest.mark.usefixtures("replays_in_this_process")
def test_a_record_over_a_limit_is_refused_before_any_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hands: int, actions: int,
        says: str) -> None:
    def no_replay(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a record over the limits was replayed")

    monkeypatch.setattr(replay_module, "replay", no_replay)
    monkeypatch.setattr(replay_module, "game_for_record", no_replay)
    text = _synthetic(hands, actions)
    with client_for(sqlite_url(tmp_path)) as client:
        for query in ("", "?hand=1", "?seat=0&hand=1"):
            r = client.post(f"/api/replay{query}", content=text)
            assert r.status_code == 413, r.text
            message = r.json()["message"]
            assert r.json()["error"] == "too-large" and says in message
            assert "\n" not in message and message.count(";") == 1


def test_only_a_few_replays_run_at_once_and_each_gives_its_slot_back(tmp_path: Path) -> None:
    text = (EXAMPLES / "dummy-whist-31-000.json").read_text()
    slots = replay_module._replay_slots
    with client_for(sqlite_url(tmp_path)) as client:
        # every slot taken (as by replays running): the next one is refused, not queued
        for _ in range(MAX_REPLAYS_AT_ONCE):
            assert slots.acquire(blocking=False)
        try:
            r = client.post("/api/replay", content=text)
            assert r.status_code == 503 and r.json() == {
                "error": "busy", "message": "the server is busy replaying; try again in a moment"}
            assert r.headers["retry-after"] == "1"
        finally:
            for _ in range(MAX_REPLAYS_AT_ONCE):
                slots.release()
        # answers, refusals and failures alike give their slot back
        for _ in range(2 * MAX_REPLAYS_AT_ONCE):
            assert client.post("/api/replay?hand=1", content=text).status_code == 200
            assert client.post("/api/replay", content=b"{not json").status_code == 400
            assert client.post("/api/replay?hand=99", content=text).status_code == 400
        taken = [slots.acquire(blocking=False) for _ in range(MAX_REPLAYS_AT_ONCE)]
        for _ in taken:
            slots.release()
        assert all(taken)


def test_parsing_and_replaying_run_in_a_worker_process(tmp_path: Path) -> None:
    """Not on the event loop, nor in a thread of the server's process: a replay is Python
    work, and a thread would hold the interpreter's lock while the tables wait."""
    from concurrent.futures import ProcessPoolExecutor

    text = (EXAMPLES / "dummy-whist-31-000.json").read_text()
    with client_for(sqlite_url(tmp_path)) as client:
        ask(client, text)
        pool = replay_module._pool()
        assert isinstance(pool, ProcessPoolExecutor)
        assert pool._mp_context.get_start_method() == "spawn"  # the server has threads
        workers = set(pool._processes)
        assert workers and os.getpid() not in workers
        ask(client, text, hand=2)
    assert replay_module._workers is None  # stopped with the server


def test_bad_records_are_refused_in_one_line(tmp_path: Path) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        r = client.post("/api/replay", content=b"{not json")
        assert r.status_code == 400 and r.json()["error"] == "bad-record"
        assert "\n" not in r.json()["message"]
        text = (EXAMPLES / "dummy-whist-31-000.json").read_text()
        for query in ("seat=9", "seat=9&hand=1"):
            r = client.post(f"/api/replay?{query}", content=text)
            assert r.status_code == 400 and "no player seat 9" in r.json()["message"]
        r = client.post("/api/replay?seat=x", content=text)
        assert r.status_code == 400
        r = client.post("/api/replay?hand=x", content=text)
        assert r.status_code == 400 and r.json()["error"] == "bad-hand"
        for hand in (0, 9):
            r = client.post(f"/api/replay?hand={hand}", content=text)
            assert r.status_code == 400
            assert r.json()["message"] == f"the record has 8 hands; there is no hand {hand}"
        r = client.post("/api/replay", content=b"\xff\xfe{}")
        assert r.status_code == 400 and "UTF-8" in r.json()["message"]
        r = client.post("/api/replay", content=b"x" * (8 * 1024 * 1024 + 1))
        assert r.status_code == 413
        broken = text.replace(': play ', ': plya ', 1)
        for query in ("", "?hand=1"):
            r = client.post(f"/api/replay{query}", content=broken)
            assert r.status_code == 400 and "hand 1, action" in r.json()["message"]


def test_the_viewer_page_and_its_script_load(tmp_path: Path) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        page = client.get("/replay")
        assert page.status_code == 200 and "/static/js/replay.js" in page.text
        script = client.get("/static/js/replay.js")
        assert script.status_code == 200 and "hand=${hand}" in script.text


def test_a_hand_is_reviewed_double_dummy_in_sentences(tmp_path: Path) -> None:
    """?hand=N&review=1: the par, each card that cost tricks (with the moment it was played
    and the cards that would have kept them) and the nils, in sentences naming the record's
    players, never seat numbers; a review without a hand, or of a hand the record does not
    have, is refused in a sentence."""
    pytest.importorskip("numba", reason="the search extra is not installed")
    name = NAMES[0]
    text = (EXAMPLES / name).read_text()
    record = load_record(EXAMPLES / name)
    with client_for(sqlite_url(tmp_path)) as client:
        r = client.post("/api/replay?hand=1&review=1", content=text)
        assert r.status_code == 200, r.text
        review = r.json()
        assert review["hand"] == 1 and review["par"].startswith("From the first lead")
        said = " ".join([review["par"], review["summary"], *review["nils"],
                         *(c["line"] for c in review["cards"])])
        assert not re.search(r"\bseat \d", said), said
        for c in review["cards"]:
            assert c["line"].startswith(f"Trick {c['trick']}: ") and c["cost"] > 0
            assert record.hands[0].actions[c["at"] - 1].split()[2] == c["card"]
        assert client.post("/api/replay?review=1", content=text).json()["error"] == "bad-hand"
        far = client.post(f"/api/replay?hand={len(record.hands) + 1}&review=1", content=text)
        assert far.status_code == 400 and "there is no hand" in far.json()["message"]
