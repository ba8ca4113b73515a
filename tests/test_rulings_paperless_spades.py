"""rulings.md, Paperless Spades: tests for the parts of the rulings that
tests/test_paperless_spades.py does not already guard (see docs/rulings-coverage.md)."""

from __future__ import annotations

from tricktable import make_game
from tricktable.engine.cards import HEARTS, parse_cards
from tricktable.engine.state import Trick
from tricktable.games.paperless_spades import PaperlessSpades, PaperlessState


def trick(leader: int, cards: str, winner: int) -> Trick:
    seats = tuple((leader + i) % 4 for i in range(4))
    return Trick(leader, seats, tuple(parse_cards(cards)), winner, HEARTS)


def test_ruling_paperless_5_only_all_four_heart_honours_score() -> None:
    game = make_game("paperless-spades")
    assert isinstance(game, PaperlessSpades)
    state = game.new_game()
    assert isinstance(state, PaperlessState)
    # team 0 (seats 0 and 2) wins the A, K and Q of hearts; team 1 wins the jack
    state.tricks = [
        trick(0, "AH KH 4H 5H", 0),
        trick(0, "6H QH 7H 8H", 2),
        trick(2, "9H TH JH 4D", 3),
    ]
    assert game.honours_team(state) is None
    # bids 1 each (team bids 2). Team 0 took 2, exactly: +2; team 1 took 1, fewer: +2 to
    # team 0; no honours bonus for three of the four
    state.bids = [1, 1, 1, 1]
    state.won = [1, 0, 1, 1]
    assert game.score_hand(state)[0] == [2 + 2, 0]
    # when team 0 takes the jack too, it has all four: +2 more
    state.tricks[2] = trick(2, "9H TH JH 4D", 2)
    state.won = [1, 0, 2, 0]
    assert game.honours_team(state) == 0
    # team 0 bid 2, took 3: +1; honours +2; team 1 bid 2, took 0: +2 to team 0
    assert game.score_hand(state)[0] == [1 + 2 + 2, 0]
