"""What a player must understand: hand results in words, the game-over standings and
tray person, every seat's tricks, the special moves, and a random bot that does not
flood 3B with rebids."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.engine.actions import Bid, parse_action
from tricktable.play.table import Agent, Table
from tricktable.play.terminal import (
    PlaySetup,
    TerminalGame,
    interpret,
    move_explanations,
)

GAMES = [("spades", {}), ("dummy-hand-spades", {}), ("3b-spades", {"players": 3}),
         ("3b-spades", {"players": 5}), ("dummy-whist", {"honour": True}),
         ("double-dummy-whist", {}), ("paperless-spades", {})]


def bot_table(name: str, options: dict[str, object], seed: int, bot: str = "random") -> Table:
    game = make_game(name, options)
    agents: dict[int, Agent] = {s: make_bot(bot, game, s, seed) for s in game.player_seats}
    return Table(game, agents, seed)


@pytest.mark.parametrize("name,options", GAMES)
def test_every_hand_result_is_explained_and_adds_up(name: str, options: dict[str, object]
                                                    ) -> None:
    table = bot_table(name, options, 2)
    table.run(max_hands=4)
    for result in table.state.results:
        assert result.lines
        text = " ".join(result.lines)
        for label, score in result.scores.items():
            if score and name not in ("dummy-whist", "double-dummy-whist"):
                assert f"{score:+d}" in text, (label, score, result.lines)


def test_spades_lines_name_the_nil_and_the_bag_penalty() -> None:
    seen_nil = seen_bags = False
    for seed in range(60):
        table = bot_table("spades", {}, seed, "rules")
        table.run(max_hands=8)
        for result in table.state.results:
            text = " ".join(result.lines)
            seen_nil |= bool(re.search(r"seat \d's nil (made: \+100|failed .*: -100)", text))
            seen_bags |= "reached 10 bags: -100" in text
        if seen_nil and seen_bags:
            break
    assert seen_nil and seen_bags


def finished_terminal_game(name: str, options: dict[str, object], seed: int
                           ) -> tuple[TerminalGame, io.StringIO]:
    table = bot_table(name, options, seed)
    table.run(max_hands=60)
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    setup = PlaySetup(0, {s: "random" for s in table.game.player_seats if s != 0})
    return TerminalGame(table, setup, console, input), out


def test_the_3b_game_over_names_a_tray_person_in_seat_0_and_all_standings() -> None:
    for seed in range(200):
        table = bot_table("3b-spades", {"players": 3}, seed)
        table.run()
        if table.game.game_summary(table.state)["tray_person"] == 0:
            break
    else:
        pytest.fail("no game with seat 0 in the tray")
    game, out = finished_terminal_game("3b-spades", {"players": 3}, seed)
    game.game_over()
    text = out.getvalue()
    assert "Tray person: you" in text
    assert "Final standings" in text and all(f"{p}." in text for p in (1, 2, 3))


def test_tricks_won_shows_every_seat_with_zeros() -> None:
    table = bot_table("spades", {}, 1)
    table.deal()
    while table.state.phase.value != "play":
        table.advance()
    for _ in range(4):
        table.advance()
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    game = TerminalGame(table, PlaySetup(0, {1: "random", 2: "random", 3: "random"}),
                        console, input)
    game.person.show_table(table.observe(0))
    line = next(x for x in out.getvalue().splitlines() if x.startswith("Tricks won"))
    assert line.split(":", 1)[1].count("·") == 3  # four seats
    assert re.search(r"(you|seat \d) 0\b", line)


def test_special_moves_are_explained() -> None:
    dh = make_game("dummy-hand-spades", {})
    bids = [Bid(1, n, nils) for n in range(14) for nils in ((), (1,), (3,), (1, 3))]
    assert any("nil=me,dummy" in x for x in move_explanations(dh, bids, 1, 3))
    assert interpret("bid 7 nil=me,dummy", bids, me=1, dummy=3).action == Bid(1, 7, (1, 3))
    assert interpret("bid 7 nil=me", bids, me=1, dummy=3).action == Bid(1, 7, (1,))
    whist = make_game("dummy-whist", {"honour": True})
    plays = [parse_action("0: play 4H"), parse_action("0: renege 2")]
    text = " ".join(move_explanations(whist, plays, 0, None))
    assert "renege" in text and "Honour mode" in text
    for verb, words in (("0: keep", "keep"), ("0: exchange 4H", "extra card"),
                        ("0: discard 2C 3C", "discard"), ("0: peek 0 1 2", "peek")):
        assert words in " ".join(move_explanations(whist, [parse_action(verb)], 0, None))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_random_bot_rebids_at_most_once_per_window(players: int) -> None:
    for seed in range(25):
        table = bot_table("3b-spades", {"players": players}, seed)
        table.play_hand()
        since_bid: dict[str, int] = {}
        for action in table.state.past_hands[-1].actions:
            seat, text = str(action).split(": ", 1)
            if text.startswith("bid "):
                since_bid[seat] = 0
            elif text.startswith("rebid "):
                since_bid[seat] = since_bid.get(seat, 0) + 1
                assert since_bid[seat] == 1, (seed, seat)
