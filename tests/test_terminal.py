"""The terminal program, driven like a person through a whole hand of every game.

Each test spawns ``tricktable play`` in a pseudo-terminal (pexpect), answers each prompt
with a legal choice read from ``help``, types wrong input and checks it is explained and
asked again, saves in the middle of the hand, finishes the hand, then resumes the saved
game in a new process and finishes that hand again. Unit tests cover the reading of
typed input.
"""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from tricktable import Phase, make_game
from tricktable.bots import make_bot
from tricktable.engine.actions import Bid, Give, Pass, Play, parse_action
from tricktable.engine.cards import card_str, cards_of
from tricktable.engine.records import load_record, replay
from tricktable.play.terminal import interpret, new_game

SCRIPT = Path(sys.executable).with_name("tricktable")
PROMPT = re.compile(r"\)> $|Press Enter for the next hand[^\n]*> $|Left the table|Game over")
ENV = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", "LINES": "50", "TERM": "xterm"}


def spawn(args: list[str]) -> pexpect.spawn:
    if SCRIPT.exists():
        command, argv = str(SCRIPT), args
    else:
        command, argv = sys.executable, ["-m", "tricktable.cli", *args]
    return pexpect.spawn(command, argv, env=ENV, encoding="utf-8", timeout=30,
                         dimensions=(50, 200))


def first_legal(child: pexpect.spawn) -> str:
    """Ask for help and pick the first legal choice it lists."""
    child.sendline("help")
    child.expect(r"Legal now: ([^\n]*)\r?\n")
    listed: str = child.match.group(1).strip()
    child.expect(PROMPT)  # the question is asked again
    first = listed.split("; ")[0].split(", ")[0]
    words = first.split()
    if words[0] == "play" and len(words) > 2 and words[2] != "low":  # "play AS KS 3H"
        return "play " + words[1]
    if words[0] == "bid" and ".." in words[1]:  # "bid 0..13"
        return "bid " + words[1].split("..")[0]
    return first


def play_to_hand_end(
    child: pexpect.spawn, save_at: int | None = None, save_to: Path | None = None,
    wrong: bool = False,
) -> tuple[int, bool]:
    """Answer prompts until the first hand is over; return how many choices were made and
    whether the game ended with that hand (a big whist contract can end it)."""
    choices = 0
    while True:
        child.expect(PROMPT)
        text = child.before + child.after
        if "Game over" in text:
            child.expect(pexpect.EOF)
            return choices, True
        if "Hand 1 is over" in text:
            return choices, False
        assert "Left the table" not in text
        if "Enter to let it pass" in text.splitlines()[-1]:
            child.sendline("")  # out-of-turn chances (a change of bid) are let pass
            continue
        if wrong and choices == 0:
            child.sendline("fly me to the moon")
            child.expect("No: ")
            child.expect(PROMPT)
            child.sendline("play ZZ")
            child.expect("No: ")
            child.expect(PROMPT)
        if save_at is not None and choices == save_at:
            assert save_to is not None
            child.sendline(f"save {save_to}")
            child.expect("Saved to")
            child.expect(PROMPT)
        child.sendline(first_legal(child))
        choices += 1


GAMES = [
    ("spades", []),
    ("dummy-hand-spades", ["--option", "peek=three-peeky"]),
    ("3b-spades", ["--option", "players=4"]),
    ("dummy-whist", ["--option", "jokers=true"]),
    ("double-dummy-whist", []),
    ("paperless-spades", []),
]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_whole_hand_with_wrong_input_save_and_resume(
    game: str, options: list[str], tmp_path: Path
) -> None:
    saved = tmp_path / "game.json"
    # the default opponents (search bots) with a short thinking time: the test is about
    # the terminal, and half a second a card would only make it slower
    child = spawn(["play", game, "--seed", "11", "--think", "0.02", *options])
    made, over = play_to_hand_end(child, save_at=2, save_to=saved, wrong=True)
    assert made >= 3
    if not over:
        child.sendline("quit")
        child.expect("Left the table")
        child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    record = load_record(saved)
    assert record.game == game
    state = replay(record)  # the saved game is a legal record
    assert state.hand_number == 0
    assert record.extra["session"]["seed"] == 11

    resumed = spawn(["play", "--resume", str(saved), "--think", "0.02"])
    resumed.expect("Resumed")
    _, over = play_to_hand_end(resumed)
    if not over:
        resumed.sendline("quit")
    resumed.expect(pexpect.EOF)
    resumed.close()
    assert resumed.exitstatus == 0


def test_unknown_game_and_bad_option_are_explained() -> None:
    child = spawn(["play", "chess"])
    child.expect("unknown game 'chess'")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    child = spawn(["play", "spades", "--option", "target=banana"])
    child.expect("whole number")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


# --- reading typed input -------------------------------------------------------------------


def test_short_forms_are_read_when_unambiguous() -> None:
    plays = [parse_action("0: play 4H"), parse_action("0: play AS")]
    assert interpret("4h", plays).action == plays[0]
    assert interpret("play AS", plays).action == plays[1]
    assert interpret("0: play AS", plays).action == plays[1]
    bids = [Bid(2, n) for n in range(14)]
    assert interpret("4", bids).action == Bid(2, 4)
    assert interpret("nil", bids).action == Bid(2, 0)
    assert interpret("bid 13", bids).action == Bid(2, 13)


def test_whist_bids_need_a_mode_and_take_short_words() -> None:
    legal = [Pass(1)] + [Bid(1, n, mode=m) for n in range(1, 8)
                         for m in ("uptown", "downtown", "notrump")]
    reading = interpret("4", legal)
    assert reading.action is None and "bid 4 uptown" in reading.problem
    assert interpret("4 nt", legal).action == Bid(1, 4, mode="notrump")
    assert interpret("bid 2 up", legal).action == Bid(1, 2, mode="uptown")
    assert interpret("pass", legal).action == Pass(1)


def test_cards_of_a_give_may_come_in_any_order() -> None:
    legal = [Give(0, (1, 2, 3)), Give(0, (1, 2, 4))]
    got = interpret("give 5S 3S 4S", legal).action
    assert got == Give(0, (1, 2, 3))


def test_wrong_input_says_what_is_wrong() -> None:
    plays = [Play.of(0, 5)]
    assert "not a card" in interpret("play QQ", plays).problem
    illegal = interpret("AS", plays)  # parsed, but not legal: the rules will say why
    assert illegal.action is None and illegal.candidates


def test_explanations_never_show_another_seat_s_cards() -> None:
    """The engine's error lists what the seat to act may do; out of turn that is somebody
    else's hand, so the terminal replaces it with the person's own choices."""
    game = make_game("spades")
    session = new_game(game, 0, "rules", 4, Console(file=io.StringIO()), input)
    table = session.table
    table.agents[0] = make_bot("rules", game, 0, 0)  # a bot moves the person's seat on
    table.deal()
    while not (table.state.phase is Phase.PLAY and table.state.to_act != 0):
        table.advance()
    theirs = {card_str(c) for c in cards_of(table.state.hands[table.state.to_act])}
    mine = card_str(next(iter(cards_of(table.state.hands[0]))))
    why = session.explain(parse_action(f"0: play {mine}"), [])
    assert "turn" in why
    assert not any(word.strip(",;.()") in theirs for word in why.split())


def test_a_verb_of_another_moment_and_dummy_hand_nil_are_explained() -> None:
    flips = [parse_action("0: flip 0 1"), parse_action("0: flip 0 2")]
    assert "'play' is not a choice now" in interpret("play AS", flips).problem
    assert "not a choice here; the choices are: flip" in interpret("fly away", flips).problem
    team_bids = [Bid(0, n, nils) for n in range(14) for nils in ((), (0,), (3,))]
    assert "nil=0" in interpret("nil", team_bids).problem
    assert interpret("4 nil=0", team_bids).action == Bid(0, 4, (0,))


def test_a_search_bot_says_it_is_thinking() -> None:
    """Half a second a card looks like a hang: a passing line says which seat thinks."""
    child = spawn(["play", "spades", "--seed", "4", "--no-save", "--think", "0.2"])
    child.expect("is thinking")
    child.expect("bid")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
