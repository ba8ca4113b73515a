"""A game's words name the table's people while they are known, and seats otherwise: the
score lines and the end of the game in sentences, never raw data."""

from __future__ import annotations

import random

import pytest

from tricktable import Phase, make_game, step
from tricktable.bots import make_bot
from tricktable.engine.words import naming, seat_words, team_words

PEOPLE = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee", 4: "Eve"}


def played_out(name: str, options: dict[str, object], seed: int = 3) -> object:
    game = make_game(name, options)
    state = game.new_game()
    rng = random.Random(seed)
    bots = {s: make_bot("rules", game, s, f"words/{s}") for s in game.player_seats}
    with naming({s: PEOPLE[s] for s in game.player_seats}):
        while state.phase is not Phase.GAME_OVER:
            if state.phase in (Phase.DEAL, Phase.SCORING):
                step(state, game.random_deal(state, rng))
            else:
                chooser = game.controller(state, state.to_act)
                obs = game.observe(state, chooser)
                step(state, bots[chooser].choose(obs, list(obs.legal)))
    return state


@pytest.mark.parametrize(("name", "options"), [
    ("spades", {"target": 200}), ("3b-spades", {"players": 4, "hands": 3}),
    ("paperless-spades", {"stake": 5}), ("dummy-whist", {"target": 3}),
    ("dummy-hand-spades", {"target": 100}), ("double-dummy-whist", {"target": 3}),
])
def test_lines_and_the_end_of_the_game_name_people(name: str, options: dict[str, object]
                                                   ) -> None:
    state = played_out(name, options)
    game = state.game  # type: ignore[attr-defined]
    with naming({s: PEOPLE[s] for s in game.player_seats}):
        lines = [line for r in state.results for line in r.lines]  # type: ignore[attr-defined]
        summary = game.summary_lines(state)
    words = " ".join(lines + summary)
    assert "seat " not in words and "[" not in words and "{" not in words, words
    assert summary and any(PEOPLE[s] in words for s in game.player_seats)


def test_the_3b_sheet_and_the_paperless_stake_in_sentences() -> None:
    state = played_out("3b-spades", {"players": 4, "hands": 3})
    with naming(PEOPLE):
        summary = state.game.summary_lines(state)  # type: ignore[attr-defined]
    assert any(line.startswith("In the tray after each hand: hand 1: ") for line in summary)
    assert any("tray person" in line for line in summary), summary
    state = played_out("paperless-spades", {"stake": 5})
    with naming(PEOPLE):
        summary = state.game.summary_lines(state)  # type: ignore[attr-defined]
    assert any(" owe " in line and "points at 5 a point" in line for line in summary), summary
    assert any(" & " in line for line in summary)


def test_without_people_the_words_name_seats() -> None:
    assert seat_words(2) == "seat 2" and team_words(1) == "team 1"
    with naming({2: "Cy"}):
        assert seat_words(2) == "Cy" and seat_words(1) == "seat 1"
        assert team_words(0) == "team 0"  # one partner unnamed: the team as it is
    assert seat_words(2) == "seat 2"
