"""The replay viewer's endpoint: a record as frames, every hand open or one seat's view,
and a clear refusal of a bad record."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")

from tricktable.engine.cards import parse_set
from tricktable.engine.records import load_record, replay
from web_helpers import client_for, sqlite_url

EXAMPLES = Path(__file__).parent / "data" / "examples"


@pytest.mark.parametrize("name", ["dummy-hand-spades-11-000.json", "dummy-whist-31-000.json",
                                  "3b-spades-21-000.json"])
def test_a_record_becomes_one_frame_per_moment(tmp_path: Path, name: str) -> None:
    text = (EXAMPLES / name).read_text()
    record = load_record(EXAMPLES / name)
    moments = sum(1 + len(h.actions) for h in record.hands)
    with client_for(sqlite_url(tmp_path)) as client:
        every = client.post("/api/replay", content=text).json()
        assert len(every["frames"]) == moments
        assert every["winner"] == replay(record).winner
        last = every["frames"][-1]
        assert last["results"][-1]["totals"] == dict(replay(record).results[-1].totals)
        seat = every["player_seats"][0]
        mine = client.post(f"/api/replay?seat={seat}", content=text).json()
        assert len(mine["frames"]) == moments
        for frame_all, frame_seat in zip(every["frames"], mine["frames"], strict=True):
            obs = frame_seat["observation"]
            # a seat's frame shows of the others only what that seat saw: never more than
            # the open view's holdings, and its own hand in full
            for s, cards in enumerate(obs["visible"]):
                shown = parse_set(" ".join(cards))
                held = parse_set(" ".join(frame_all["observation"]["visible"][s]))
                assert shown & ~held == 0
            assert obs["seat"] == seat


def test_bad_records_are_refused_in_one_line(tmp_path: Path) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        r = client.post("/api/replay", content=b"{not json")
        assert r.status_code == 400 and r.json()["error"] == "bad-record"
        assert "\n" not in r.json()["message"]
        text = (EXAMPLES / "dummy-whist-31-000.json").read_text()
        r = client.post("/api/replay?seat=9", content=text)
        assert r.status_code == 400 and "no player seat 9" in r.json()["message"]
        r = client.post("/api/replay?seat=x", content=text)
        assert r.status_code == 400
        r = client.post("/api/replay", content=b"x" * (8 * 1024 * 1024 + 1))
        assert r.status_code == 413
        broken = text.replace(': play ', ': plya ', 1)
        r = client.post("/api/replay", content=broken)
        assert r.status_code == 400 and "hand" in r.json()["message"]
