"""rulings.md, "Common to all games": tests for the parts of the rulings that the
per-game test files do not already guard (see docs/rulings-coverage.md).

Common ruling 2: the deal and every random choice (the first-dealer draw, bots) come from
one seed, so a game is reproducible from its seed and its actions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tricktable import make_game
from tricktable.bots import bot_names, make_bot
from tricktable.engine.game import Game
from tricktable.play.table import Table

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("spades", {}),
    ("dummy-hand-spades", {}),
    ("3b-spades", {"players": 3}),
    ("3b-spades", {"players": 4}),
    ("3b-spades", {"players": 5}),
    ("dummy-whist", {}),
    ("dummy-whist", {"jokers": True}),
    ("double-dummy-whist", {}),
    ("paperless-spades", {}),
]
IDS = [name + "".join(f"-{k}={v}" for k, v in opts.items()) for name, opts in GAMES]


def first_deals(game: Game, seed: int) -> tuple[Any, ...]:
    """The first hand's deal (dealer drawn, cards dealt) drawn from ``seed``."""
    deal = game.random_deal(game.new_game(), random.Random(seed))
    return deal.dealer, deal.hands, deal.extra


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_ruling_common_2_the_first_dealer_and_the_deal_come_from_the_seed(
    name: str, options: dict[str, Any]
) -> None:
    game = make_game(name, options)
    seeds = range(12)
    once = [first_deals(game, s) for s in seeds]
    again = [first_deals(make_game(name, options), s) for s in seeds]
    assert once == again  # the same seed: the same dealer and the same cards
    # and the seed matters: different seeds give different deals and dealers
    assert len({hands for _, hands, _ in once}) == len(once)
    assert len({dealer for dealer, _, _ in once}) > 1


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
@pytest.mark.parametrize("bot", ["random", "rules"])
def test_ruling_common_2_a_game_with_bots_is_reproducible_from_its_seed(
    name: str, options: dict[str, Any], bot: str
) -> None:
    assert bot in bot_names()

    def play(seed: int) -> str:
        game = make_game(name, options)
        agents = {s: make_bot(bot, game, s, seed) for s in game.player_seats}
        table = Table(game, agents, seed)
        table.run(max_hands=2)
        return table.record().dumps()

    assert play(42) == play(42)
    assert play(42) != play(43)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_every_seat_can_be_observed_at_an_empty_table(name: str, options: dict[str, Any]
                                                      ) -> None:
    """Before the first deal a seat sees an empty table (a web client sits down before
    the cards are dealt): no cards, nothing to choose."""
    game = make_game(name, options)
    state = game.new_game()
    for seat in game.player_seats:
        obs = game.observe(state, seat)
        assert obs.hand == 0 and not any(obs.visible) and not obs.trick
