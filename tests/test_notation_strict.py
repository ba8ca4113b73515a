"""The record notation is strict where looseness would change what was said: every word is
used ("play AH high" is not "play AH"), numbers have no leading zeros ("01:" is not seat 1),
no control characters; free where it cannot (case, spaces). Every action the engine lists
still writes as text that reads back as itself."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tricktable.engine.actions import parse_action
from tricktable.engine.errors import NotationError
from tricktable.engine.game import game_names, make_game, step
from tricktable.engine.state import Phase


@pytest.mark.parametrize(("text", "says"), [
    ("0: play AH high", "expected 'play CARD' or 'play AH low'"),
    ("0: play AH low now", "expected 'play CARD' or 'play AH low'"),
    ("01: play AH", "without leading zeros"),
    ("00: pass", "without leading zeros"),
    ("0: bid 04", "without leading zeros"),
    ("0: bid 4 nil=01", "without leading zeros"),
    ("0: rebid 03", "without leading zeros"),
    ("0: renege 01", "without leading zeros"),
    ("1: peek 0 4 07", "without leading zeros"),
    ("1: pass now", "expected 'pass' alone"),
    ("1: keep it", "expected 'keep' alone"),
    ("1: swap 2", "expected 'swap' alone"),
    ("1: trump H S", "expected 'trump S|H|D|C'"),
    ("1: direction high low", "expected 'direction high|low'"),
    ("1: exchange AS KS", "expected 'exchange CARD'"),
    ("1: renege", "expected 'renege T'"),
    ("1:\x1cplay AS", "plain ASCII letters, digits and spaces"),
    ("1: play\tAS", "plain ASCII letters, digits and spaces"),
])
def test_loose_forms_are_refused_saying_the_form(text: str, says: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_action(text)
    message = str(refused.value)
    assert says in message
    assert "\n" not in message and len(message) < 200


@pytest.mark.parametrize("text", ["0: play " + "X" * 5000, "x" * 5000, "0: " + "q" * 5000,
                                  "0: bid " + "9" * 5000, "0: trump " + "Z" * 5000])
def test_a_long_text_gets_a_short_refusal(text: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_action(text)
    assert len(str(refused.value)) < 200


@pytest.mark.parametrize(("text", "expected"), [
    ("0: play ah", "0: play AH"),  # the terminal lower-cases what a person types
    ("0: PLAY AH LOW", "0: play AH low"),
    ("  2:renege 5 ", "2: renege 5"),
    ("1 :  bid   3   uptown", "1: bid 3 uptown"),
    ("0: bid 0", "0: bid 0"),
    ("10: pass", "10: pass"),
    ("0: play 10h", "0: play TH"),
])
def test_case_and_spacing_stay_free(text: str, expected: str) -> None:
    assert str(parse_action(text)) == expected


def configurations() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = [
        (n, {}) for n in game_names() if n != "3b-spades"]
    out += [("3b-spades", {"players": k}) for k in (3, 4, 5)]
    out += [("dummy-whist", {"jokers": True, "honour": True}), ("spades", {"blind_nil": True}),
            ("dummy-hand-spades", {"peek": "three-peeky"}),
            ("dummy-hand-spades", {"peek": "flip-2"})]
    return out


@pytest.mark.parametrize(("name", "options"), configurations(),
                         ids=[f"{n}{o}" for n, o in configurations()])
def test_every_listed_action_writes_as_text_that_reads_back(
    name: str, options: dict[str, Any]
) -> None:
    game = make_game(name, options)
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_game()
        while not state.is_over and state.finished_hands < 2:
            if state.phase in (Phase.DEAL, Phase.SCORING):
                step(state, game.random_deal(state, rng))
                continue
            legal = game.legal_actions(state)
            for action in legal:
                assert parse_action(str(action)) == action, str(action)
            step(state, rng.choice(legal))
