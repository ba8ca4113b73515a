"""Words that come from the game, once, for the terminal and the browser alike (issue 40):
the rule of each decision, the words on its buttons, the line under each seat, the hand's
facts and who is to act are each game's (``TableWords`` in its module), sent in the view as
``words`` (``web.protocol.words_json``) and shown by the terminal (``play.display``). The
browser's scripts hold no per-game branch and parse no label back.

Each test plays games with rules bots and reads the words at every decision, for the seat
that decides, another seat and a spectator.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tricktable
from tricktable import Phase, make_game, step
from tricktable.bots import make_bot
from tricktable.engine.game import Game
from tricktable.engine.state import State
from tricktable.engine.words import naming
from tricktable.play.display import decision_rules, table_facts, turn_line
from tricktable.web.protocol import observation_json, public_json, words_json

PEOPLE = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee", 4: "Eve"}
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("spades", {"target": 200, "blind_nil": True}),
    ("spades", {"target": 200, "variant": "suicide"}),
    ("3b-spades", {"players": 4, "hands": 2}),
    ("3b-spades", {"players": 5, "hands": 2}),
    ("paperless-spades", {"limit": 2}),
    ("dummy-whist", {"target": 3, "jokers": True}),
    ("double-dummy-whist", {"target": 3}),
    ("dummy-hand-spades", {"target": 150, "peek": "three-peeky"}),
    ("dummy-hand-spades", {"target": 150, "peek": "flip-2", "variant": "mirror"}),
]
STATIC = Path(tricktable.__file__).resolve().parent / "web" / "static"


def moments(name: str, options: dict[str, Any], seed: int = 7,
            limit: int = 2000) -> Iterator[tuple[Game, State, int]]:
    """Every decision of a game played by rules bots: the game, the state and the seat
    that chooses now (the words are read before it chooses)."""
    game = make_game(name, options)
    state = game.new_game()
    rng = random.Random(seed)
    bots = {s: make_bot("rules", game, s, f"words/{s}") for s in game.player_seats}
    for _ in range(limit):
        if state.phase is Phase.GAME_OVER:
            return
        if state.phase in (Phase.DEAL, Phase.SCORING):
            step(state, game.random_deal(state, rng))
            continue
        chooser = game.controller(state, state.to_act)
        yield game, state, chooser
        obs = game.observe(state, chooser)
        step(state, bots[chooser].choose(obs, list(obs.legal)))


def words_for(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """The view's words for ``seat`` (None: a spectator), the table's people named."""
    with naming({s: PEOPLE[s] for s in game.player_seats}):
        if seat is None:
            obs = public_json([observation_json(game.observe(state, s))
                               for s in game.player_seats])
        else:
            obs = observation_json(game.observe(state, seat))
        return words_json(game, obs)


def texts(words: dict[str, Any]) -> list[str]:
    """Every text of a view's words."""
    out: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
    walk(words)
    return out


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[f"{g}-{i}" for i, (g, _) in
                                                          enumerate(GAMES)])
def test_every_decision_has_its_rule_and_every_button_its_words(
        name: str, options: dict[str, Any]) -> None:
    verbs_seen: set[str] = set()
    for game, state, chooser in moments(name, options):
        words = words_for(game, state, chooser)
        legal = [str(a) for a in game.observe(state, chooser).legal]
        for text in legal:
            verb = text.split(": ", 1)[1].split()[0]
            verbs_seen.add(verb)
            if verb != "play":
                assert words["rules"].get(verb), (verb, words["rules"])
            if verb in ("pass", "trump", "direction", "keep", "swap", "rebid", "renege") or (
                    verb == "bid" and "nil=" not in text):
                assert words["labels"].get(text), (text, words["labels"])
        # the badge of the seat to act, and for the others a sentence naming a person
        assert words["turn"]["seat"] == state.to_act and words["turn"]["doing"].startswith("to ")
        line = words["turn"]["line"]
        assert any(PEOPLE[s] in line for s in game.player_seats), line
        for said in texts(words):
            # words for people: no seat numbers, no notation, no data
            assert not re.search(r"\bseat \d|notrump|[\[\]{}]|\b[2-9TJQKA][SHDC]\b", said), said
    assert {"bid", "play"} <= verbs_seen, verbs_seen


def test_3b_says_zero_on_the_button_and_on_the_seat() -> None:
    seen_button = seen_seat = False
    for game, state, chooser in moments("3b-spades", {"players": 4, "hands": 2}, seed=11):
        words = words_for(game, state, chooser)
        for text, label in words["labels"].items():
            if text.endswith(": bid 0"):
                assert label == "Zero", label
                seen_button = True
            if text.endswith(": rebid 0"):
                assert label == "Change to zero", label
        for line in words["seats"].values():
            assert "nil" not in line and "bid 0" not in line, line
            seen_seat |= line == "bid zero"
        assert "nil" not in (words["rules"].get("bid") or "")
    assert seen_button and seen_seat


def test_spades_says_nil_and_dummy_hand_spades_counts_the_team_bid() -> None:
    for game, state, chooser in moments("spades", {"target": 200}):
        labels = words_for(game, state, chooser)["labels"]
        if f"{chooser}: bid 0" in labels:
            assert labels[f"{chooser}: bid 0"] == "Nil"
            break
    else:
        pytest.fail("no bid of nil was offered")


def test_whist_says_no_trump_one_way_on_buttons_seats_facts_and_the_score() -> None:
    seen: set[str] = set()
    for game, state, chooser in moments("dummy-whist", {"target": 3}, seed=5):
        words = words_for(game, state, chooser)
        for text, label in words["labels"].items():
            if text.endswith(" notrump"):
                assert re.fullmatch(r"\d no trump", label), label
                seen.add("button")
        if any("no trump" in line for line in words["seats"].values()):
            seen.add("seat")
        if any("no trump" in fact for fact in words["facts"]):
            seen.add("facts")
    with naming(PEOPLE):
        lines = [line for r in state.results for line in r.lines]
    assert {"button", "seat", "facts"} <= seen, seen
    assert not any("notrump" in line for line in lines), lines


def test_while_the_declarer_plays_the_dummy_the_others_read_who_plays_it() -> None:
    for name, options in [("dummy-hand-spades", {"target": 150}),
                          ("dummy-whist", {"target": 3}), ("double-dummy-whist", {"target": 3})]:
        for game, state, chooser in moments(name, options):
            if state.phase is not Phase.PLAY or chooser == state.to_act:
                continue
            other = next(s for s in game.player_seats if s != chooser)
            for seat in (other, None):
                turn = words_for(game, state, seat)["turn"]
                assert turn["line"] == f"{PEOPLE[chooser]} plays from the dummy.", turn
                assert turn["player"] == chooser and turn["seat"] == state.to_act
            break
        else:
            pytest.fail(f"{name}: the dummy never played")


def test_an_ace_played_high_or_low_is_asked_in_words() -> None:
    for game, state, chooser in moments("3b-spades", {"players": 4, "hands": 2}, seed=3):
        words = words_for(game, state, chooser)
        if words["questions"]:
            card, question = next(iter(words["questions"].items()))
            names = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
            assert question == f"Play the ace of {names[card[1]]} as:", question
            assert words["labels"][f"{chooser}: play {card}"] == "ace high"
            assert words["labels"][f"{chooser}: play {card} low"] == "ace low (below the 2)"
            return
    pytest.fail("no ace was ever playable low")


def test_private_facts_reach_their_seat_only() -> None:
    private = ("you passed", "you received", "you put out")
    for name, options in [("paperless-spades", {"limit": 2}),
                          ("dummy-whist", {"target": 3, "jokers": True})]:
        mine = False
        for game, state, _ in moments(name, options):
            if state.phase is not Phase.PLAY:
                continue
            for seat in [*game.player_seats, None]:
                facts = words_for(game, state, seat)["facts"]
                if seat is None:
                    assert not any(f.startswith(private) for f in facts), facts
                else:
                    mine |= any(f.startswith(private) for f in facts)
        assert mine, name


def test_the_terminal_shows_the_browsers_texts() -> None:
    for game, state, chooser in moments("dummy-hand-spades", {"target": 150, "peek": "four-peeky"}):
        with naming({s: PEOPLE[s] for s in game.player_seats}):
            obs = game.observe(state, chooser)
            rules, facts = decision_rules(game, obs), table_facts(game, obs)
            line = turn_line(game, obs)
        words = words_for(game, state, chooser)
        assert facts == words["facts"] and line == words["turn"]["line"]
        assert rules == list(dict.fromkeys(words["rules"].values()))
        if state.phase is Phase.PLAY:
            return


def test_the_browser_scripts_word_nothing_per_game() -> None:
    names = {n for n, _ in GAMES if "-" in n}
    for path in sorted((STATIC / "js").glob("*.js")):
        source = path.read_text(encoding="utf-8")
        # no branch on the game (the lobby's default choice of game is no wording)
        assert not re.search(r"\bgame\s*[!=]==?\s*[\"']", source), path.name
        if path.name != "lobby.js":
            assert not [n for n in names if f'"{n}"' in source], path.name
        # nor the notation's spelling of a way of play put into words
        assert "notrump" not in source, path.name


def test_every_card_refused_in_play_has_its_reason_in_a_sentence() -> None:
    """Each rule the engine refuses a card of the hand to play by (follow suit, spades not
    broken, the jokers' rules) has its sentence in the game's words, not the fallback."""
    from tricktable.engine.actions import Play
    from tricktable.engine.cards import cards_of
    from tricktable.engine.errors import IllegalAction
    from tricktable.engine.words import table_words
    from tricktable.play.table import Table
    from tricktable.search.random_positions import GAME_SETTINGS

    rules: set[str] = set()
    for name, options in GAME_SETTINGS:
        game = make_game(name, options)
        words = table_words(game)
        table = Table(game, {s: make_bot("random", game, s, 7) for s in game.player_seats}, 7)
        for _ in range(300):
            if table.over:
                break
            state = table.state
            if state.phase is Phase.PLAY:
                for c in cards_of(state.hands[state.to_act]):
                    try:
                        game.check(state, Play(state.to_act, c))
                    except IllegalAction as e:
                        rules.add(e.rule)
                        assert words.why_not(e.rule) != words.why_not("no such rule"), e.rule
            table.advance()
    assert {"follow suit", "spades not broken", "joker lead"} <= rules
