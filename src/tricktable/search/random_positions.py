"""Random card-play positions of any game, for the solver's tests and benchmark.

A game is played from its first deal with random legal actions (bids, exchanges,
declarations as the game allows) until the seats hold at most ``cards_left`` cards each,
possibly in the middle of a trick. Every action goes through ``step``.
"""

from __future__ import annotations

import random
from typing import Any

from ..bots.base import make_bot
from ..engine.actions import Play
from ..engine.cards import RANK_LETTERS, SUITED, cards_of, shuffled
from ..engine.game import Game, make_game, step
from ..engine.order import CardOrder
from ..engine.state import Phase, State
from .playout import play_on
from .position import PlayRules, Position

GAME_SETTINGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("spades", {}),
    ("spades", {"spades_broken": False}),
    ("dummy-hand-spades", {}),
    ("3b-spades", {"players": 3}),
    ("3b-spades", {"players": 4}),
    ("3b-spades", {"players": 4, "ace_calls": False}),
    ("3b-spades", {"players": 5}),
    ("dummy-whist", {}),
    ("dummy-whist", {"jokers": True}),
    ("dummy-whist", {"jokers": True, "joker_must_throw": False}),
    ("dummy-whist", {"honour": True}),
    ("double-dummy-whist", {}),
    ("paperless-spades", {}),
)
"""Every game, and the options that change the card play."""


def random_play_state(
    name: str, options: dict[str, Any], rng: random.Random, cards_left: int,
    mid_trick: bool = True,
) -> State:
    """A state of game ``name`` in its play phase with at most ``cards_left`` cards in any
    hand; with ``mid_trick`` it may stop inside a trick, otherwise at a trick's start."""
    game = make_game(name, options)
    state = game.new_game()
    stop_in_trick = mid_trick and rng.random() < 0.6
    for _ in range(100_000):
        phase = state.phase
        if phase in (Phase.DEAL, Phase.SCORING):
            step(state, game.random_deal(state, rng))
            continue
        if phase is Phase.GAME_OVER:
            state = game.new_game()
            continue
        actions = game.legal_actions(state)
        if phase is Phase.PLAY:
            if max(state.hand_size) <= cards_left and (
                not state.trick_cards or (stop_in_trick and rng.random() < 0.5)
            ):
                return state
            actions = [a for a in actions if isinstance(a, Play)]
            if name == "dummy-whist" and options.get("honour"):
                # keep to the strict rules: a renege is not a double-dummy line
                strict = game.strict_plays(state)  # type: ignore[attr-defined]
                actions = [a for a in actions if isinstance(a, Play) and strict >> a.card & 1]
        step(state, rng.choice(actions))
    raise RuntimeError(f"no play position reached in {name}")


def random_bridge_position(rng: random.Random, per_hand: int, strain: int) -> Position:
    """A bridge-like position: four seats (0 North, then East, South, West) dealt
    ``per_hand`` cards each from one deck, a random leader, ``strain`` a trump suit or
    NO_SUIT, no leading restriction."""
    cards = shuffled(SUITED, rng)
    hands = tuple(
        sum(1 << c for c in cards[s * per_hand : (s + 1) * per_hand]) for s in range(4)
    )
    return Position(
        hands, (1, 2, 3, 0), rng.randrange(4), (), 0, -1, 4, CardOrder(trump=strain), False,
        PlayRules(), (0, 0, 0, 0),
    )


def pbn(hands: tuple[int, ...]) -> str:
    """Four hands in PBN (the notation DDS reads), seat 0 as North."""
    parts = []
    for hand in hands:
        suits = []
        for suit in range(4):
            ranks = sorted((c % 13 for c in cards_of(hand) if c // 13 == suit), reverse=True)
            suits.append("".join(RANK_LETTERS[r] for r in ranks))
        parts.append(".".join(suits))
    return "N:" + " ".join(parts)


def first_card_by_rules(game: Game, seed: int) -> State:
    """A hand dealt from ``seed`` and bid by rules bots (exchanges and declarations too),
    at its first card: where the search bots' worlds are tested and measured."""
    rng = random.Random(seed)
    state = game.new_game()
    step(state, game.random_deal(state, rng))
    bots = {s: make_bot("rules", game, s, seed) for s in game.player_seats}
    play_on(game, state, bots, lambda s: s.phase is Phase.PLAY)
    return state
