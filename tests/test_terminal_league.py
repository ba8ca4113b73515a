"""A game played in the terminal for a league group (``tricktable play ... --group Lunch
--as Ann``) is counted as a group's web table counts its games: for the person, never for
the bots, once; and a group or person that is not there is refused before the game starts,
in one line."""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest

from test_cli_hardening import cli, one_line_refusal
from test_terminal import PROMPT, first_legal, spawn

pytest.importorskip("sqlalchemy", reason="the league extra is not installed")

from tricktable.league.store import LeagueStore


def a_group(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'league.db'}"
    league = LeagueStore(url)
    _, token = league.create_group("Lunch")
    league.join_group(token, "Ann")
    league.close()
    return url


def test_a_terminal_game_counts_for_its_person_only(tmp_path: Path) -> None:
    url = a_group(tmp_path)
    child = spawn(["play", "3b-spades", "-o", "players=4", "-o", "hands=1", "--bots", "rules",
                   "--seed", "5", "--no-save", "--group", "Lunch", "--as", "Ann", "--db", url])
    while True:
        child.expect(PROMPT)
        text = child.before + child.after
        if "Game over" in text:
            break
        if "Press Enter" in text.splitlines()[-1] or "Enter to let it pass" in text:
            child.sendline("")
            continue
        child.sendline(first_legal(child))
    child.expect(pexpect.EOF)
    said = child.before
    child.close()
    assert child.exitstatus == 0
    assert "Counted in Lunch's league." in said
    league = LeagueStore(url)
    entries = league.entries("Lunch")
    league.close()
    assert len(entries) == 1 and entries[0].people == ("Ann",)
    assert entries[0].game == "3b-spades"


@pytest.mark.parametrize(("args", "said"), [
    (["--group", "Lunch"], "--group NAME --as YOUR-NAME"),
    (["--group", "Dinner", "--as", "Ann"], "there is no league group 'Dinner'"),
    (["--group", "Lunch", "--as", "Anne"], "'Anne' is not a member of Lunch (its members: Ann)"),
])
def test_a_group_or_person_that_is_not_there_is_refused_first(
        tmp_path: Path, args: list[str], said: str) -> None:
    url = a_group(tmp_path)
    one_line_refusal(cli("play", "spades", "--no-save", "--db", url, *args), said)
