"""The bot a person plays against by default: the strongest measured for the game."""

from __future__ import annotations

from pathlib import Path

from test_resume_keeps_everything import cli
from tricktable.bots import bot_names
from tricktable.engine.game import game_names
from tricktable.engine.records import load_record
from tricktable.play.opponents import DEFAULT_OPPONENTS, default_opponent


def test_every_default_is_a_bot_of_a_game() -> None:
    assert set(DEFAULT_OPPONENTS) <= set(game_names())
    for name in game_names():
        assert default_opponent(name) in bot_names()
    assert default_opponent("spades") == "montecarlo"
    assert default_opponent("a-game-nobody-measured") == "rules"
    assert default_opponent("dummy-hand-spades") == "montecarlo"


def test_play_seats_the_default_opponent_unless_told(tmp_path: Path) -> None:
    def players(*args: str) -> dict[str, str]:
        data = tmp_path / "-".join(args)
        result = cli("play", *args, "--seed", "3", data=data, stdin="quit\n")
        assert result.returncode == 0, result.stderr
        (saved,) = (data / "games").glob("*.json")
        return dict(load_record(saved).players)

    assert players("dummy-hand-spades") == {
        "0": "you", "1": "montecarlo (seat 1)", "2": "montecarlo (seat 2)",
    }
    assert players("dummy-hand-spades", "--bots", "rules")["1"] == "rules (seat 1)"
    assert players("spades")["1"] == "montecarlo (seat 1)"
    assert players("spades", "--bots", "rules")["1"] == "rules (seat 1)"
