"""Undo at the terminal: the person's last decision of the hand is taken back, the bots
choose as before from the same positions, and the record counts the undos."""

from __future__ import annotations

from pathlib import Path

from test_resume_keeps_everything import cli
from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.records import load_record
from tricktable.play.table import Table


def test_take_back_returns_to_before_the_seats_last_decision() -> None:
    game = make_game("dummy-hand-spades", {"peek": "flip-2"})
    table = Table(game, {s: make_bot("rules", game, s, "u") for s in game.player_seats}, "u")
    table.deal()
    for _ in range(25):
        table.advance()
    before = [str(a) for a in table.state.actions]
    taken = table.take_back(1)
    assert taken is not None and game.controller(table.state, taken.seat) == 1
    after = [str(a) for a in table.state.actions]
    assert before[: len(after)] == after and before[len(after)] == str(taken)
    # the same positions, the same bot choices: the hand comes back the same way
    for _ in range(len(before) - len(after)):
        table.advance()
    assert [str(a) for a in table.state.actions] == before
    assert table.record().extra["undos"] == 1


def test_nothing_to_take_back_before_deciding() -> None:
    game = make_game("spades")
    table = Table(game, {s: make_bot("rules", game, s, "u") for s in range(4)}, "u")
    assert table.take_back(0) is None  # not dealt yet
    table.deal()
    assert all(table.take_back(s) is None for s in range(4))  # nobody has decided yet
    assert table.undos == 0


def test_undo_at_the_terminal_and_the_record_counts_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    done = cli("play", "spades", "--seed", "5", data=data,
               stdin="4\nundo\nundo\n3\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Took back 0: bid 4" in done.stdout
    assert "Nothing of yours to take back" in done.stdout
    saved = list((data / "games").glob("*.json"))
    record = load_record(saved[0])
    assert record.extra["undos"] == 1
    assert any(a == "0: bid 3" for a in record.hands[0].actions)
    assert "0: bid 4" not in record.hands[0].actions


def test_hint_says_what_the_rules_bot_would_do(tmp_path: Path) -> None:
    done = cli("play", "spades", "--seed", "5", data=tmp_path, stdin="hint\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Hint: the rules bot would bid" in done.stdout


def test_hint_for_a_card_gives_each_cards_worth(tmp_path: Path) -> None:
    done = cli("play", "spades", "--seed", "1", data=tmp_path,
               stdin="bid 3\nhint\nquit\n")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())  # the terminal wraps long lines
    assert "Hint: the montecarlo bot would play" in text
    assert "Mean margin of this hand for your side" in text


def test_think_zero_gives_the_fixed_search(tmp_path: Path) -> None:
    """``--think 0``: the search bots search a fixed amount (their choices follow from the
    seed alone); the hint says over how many deals it looked."""
    done = cli("play", "spades", "--seed", "1", "--think", "0", data=tmp_path,
               stdin="bid 3\nhint\nquit\n")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "over 12 deals of the cards you cannot see, drawn as likely as the others' bids" in text


def test_a_negative_think_is_refused(tmp_path: Path) -> None:
    done = cli("play", "spades", "--think", "-1", data=tmp_path, stdin="quit\n")
    assert done.returncode == 2
    assert "--think" in done.stderr and len(done.stderr.strip().splitlines()) == 1
