"""A person picks bots by how well they play, in words; the bot behind each level is the
measured one, and a bot's seat reads as its level ("Strong bot"), never a technical name."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from tricktable.play.opponents import bot_levels, default_opponent
from web_helpers import client_for, create, sqlite_url


def test_the_lobby_offers_levels_mapped_to_measured_bots(tmp_path: Path) -> None:
    with client_for(sqlite_url(tmp_path)) as client:
        games = client.get("/api/games").json()["games"]
        for game in games:
            levels = {level["level"]: level for level in game["levels"]}
            assert levels["casual"]["bot"] == "rules"
            assert levels["strong"]["bot"] == default_opponent(game["game"])
            assert all(level["about"].endswith(("once", "bot")) or level["about"]
                       for level in game["levels"])
        made = create(client, game="spades",
                      seats={"0": "person", "1": "montecarlo", "2": "rules", "3": "random"})
        names = [seat["name"] for seat in made["seats"]]
        assert names[1:] == ["Strong bot", "Casual bot", "random bot"]


def test_levels_go_from_weakest_to_strongest() -> None:
    assert [level.level for level in bot_levels("spades")] == ["casual", "strong"]
    assert [level.level for level in bot_levels("no-such-game")] == ["casual"]


def test_two_bots_of_one_strength_read_apart(tmp_path: Path) -> None:
    """Two bots of one strength at a table read as two: "Casual bot A" and "Casual bot B",
    in the seats' order, in the seats, the record and the words of the game; a lone bot of
    a strength keeps the plain label. No person may take such a name (test_web_input)."""
    with client_for(sqlite_url(tmp_path)) as client:
        made = create(client, game="spades",
                      seats={"0": "person", "1": "rules", "2": "montecarlo", "3": "rules"})
        names = [seat["name"] for seat in made["seats"]]
        assert names[1:] == ["Casual bot A", "Strong bot", "Casual bot B"]
