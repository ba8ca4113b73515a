"""The ismcts bot: one tree over sampled worlds. It cannot peek (the hidden cards dealt
again give the same card), it plays the card tried most, every card in its tree is scored
for the side that chose it, a thinking time bounds it, and it plays whole hands."""

from __future__ import annotations

import random

import pytest

from test_montecarlo import (
    GAMES,
    PASSING,
    play_positions,
    plays_a_whole_hand,
    same_choice_when_redealt,
)
from tricktable import make_game
from tricktable.bots import make_bot
from tricktable.search.ismcts import IsmctsBot

CUTTHROAT = [GAMES[2], GAMES[4], GAMES[5]]
"""Dummy Hand Spades (two defenders each for himself) and 3B with 3 and 4 players."""


@pytest.mark.parametrize("name,options", [GAMES[0], *CUTTHROAT])
def test_the_bot_cannot_peek(name: str, options: dict[str, object],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(IsmctsBot, "iterations", 24)
    game = make_game(name, options)
    positions = (p for seed in (4, 5, 6) for p in play_positions(game, seed, limit=160))
    assert same_choice_when_redealt(game, positions, random.Random(9), every=5, most=4,
                                    bot_class=IsmctsBot) >= 2


def test_it_plays_the_card_tried_most_and_scores_each_side_for_itself(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(IsmctsBot, "iterations", 60)
    game = make_game("3b-spades", {"players": 3})
    for state, seat in play_positions(game, 3):
        obs = game.observe(state, seat)
        if len(obs.legal) < 3:
            continue
        bot = IsmctsBot(game, seat, 1)
        root = bot.search(obs)
        assert root is not None and bot.last_iterations == 60
        assert sum(n.visits for n in root.children.values()) == 60
        assert {n.label for n in root.children.values()} == {
            game.entity_label(game.entity_of_seat(seat))}
        # the next card in the tree is another player's: scored for that player
        deeper = {c.label for n in root.children.values() for c in n.children.values()}
        assert deeper and game.entity_label(game.entity_of_seat(seat)) not in deeper
        choice = IsmctsBot(game, seat, 1).choose(obs, list(obs.legal))
        most = max(n.visits for n in root.children.values())
        assert root.children[choice].visits == most
        return
    pytest.fail("no position with three choices")


def test_a_thinking_time_bounds_the_iterations() -> None:
    game = make_game("3b-spades", {"players": 3})
    state, seat = next((s, seat) for s, seat in play_positions(game, 2)
                       if len(game.observe(s, seat).legal) >= 3)
    hurried = make_bot("ismcts", game, seat, 1, think=1e-9)
    assert isinstance(hurried, IsmctsBot)
    obs = game.observe(state, seat)
    assert hurried.choose(obs, list(obs.legal)) in obs.legal
    assert hurried.last_iterations == 1 and hurried.last_values


@pytest.mark.parametrize("name,options", [GAMES[0], *CUTTHROAT, GAMES[7], GAMES[8],
                                          *PASSING])
def test_the_bot_plays_whole_hands(name: str, options: dict[str, object],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(IsmctsBot, "iterations", 12)
    monkeypatch.setattr(IsmctsBot, "worlds", 2)  # for its bids, weighed as montecarlo's
    assert plays_a_whole_hand(make_game(name, options), "ismcts")
