"""``tricktable analyze``: the double-dummy review of a record."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tricktable import make_game, record_from_state, step
from tricktable.analysis import review_record
from tricktable.engine.actions import Bid, Play
from tricktable.engine.records import Record
from tricktable.engine.state import Phase


def one_hand_record(name: str, options: dict[str, object], seed: int, nil_seat: int) -> Record:
    """A record of one hand of random legal play in which ``nil_seat`` bids zero."""
    game = make_game(name, options)
    state = game.new_game()
    rng = random.Random(seed)
    step(state, game.random_deal(state, rng))
    while state.phase not in (Phase.SCORING, Phase.GAME_OVER):
        actions = game.legal_actions(state)
        zero = [a for a in actions if isinstance(a, Bid) and a.tricks == 0 and a.seat == nil_seat]
        plays = [a for a in actions if isinstance(a, Play)]
        step(state, zero[0] if zero else rng.choice(plays or actions))
    return record_from_state(state)


@pytest.fixture(scope="module")
def paperless(tmp_path_factory: pytest.TempPathFactory) -> tuple[Record, Path]:
    record = one_hand_record("paperless-spades", {}, 11, nil_seat=1)
    path = tmp_path_factory.mktemp("analysis") / "paperless.json"
    record.save(path)
    return record, path


def test_every_card_is_reviewed(paperless: tuple[Record, Path]) -> None:
    record, _ = paperless
    (review,) = review_record(record)
    assert len(review.cards) == 48
    tricks = 12
    assert sum(review.par.values()) == tricks  # two sides share the tricks
    for card in review.cards:
        assert card.before >= card.after >= 0  # a card never gains double-dummy
        assert (card.cost > 0) == bool(card.better)
        assert card.card not in card.better
    # a side's value after a card is its value before the next card of the same side
    # (when the trick goes on, nothing has been won in between)
    thrown = {str(s): sum(c.cost for c in review.cards if c.seat == s) for s in range(4)}
    assert {k: v for k, v in thrown.items() if v} == {k: v for k, v in review.thrown.items() if v}
    first = review.cards[0]
    assert first.before == review.par["+".join(map(str, first.side))]


def test_the_nil_is_followed(paperless: tuple[Record, Path]) -> None:
    record, _ = paperless
    (review,) = review_record(record)
    (nil,) = review.nils
    assert nil.seat == 1 and nil.side == [1, 3]
    if nil.made:
        assert nil.makeable and nil.lost_at is None
    if nil.makeable and not nil.made:
        assert nil.lost_at is not None


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tricktable", *args], capture_output=True, text=True, check=False
    )


def test_cli_json_and_table(paperless: tuple[Record, Path]) -> None:
    _, path = paperless
    done = cli("analyze", str(path), "--hand", "1", "--seat", "2", "--json")
    assert done.returncode == 0, done.stderr
    obj = json.loads(done.stdout)
    (hand,) = obj["hands"]
    assert {c["seat"] for c in hand["cards"]} == {2}
    assert all(c["cost"] == c["before"] - c["after"] for c in hand["cards"])
    table = cli("analyze", str(path), "--seat", "2")
    assert table.returncode == 0 and "par from the first lead" in table.stdout


@pytest.mark.parametrize("args", [("--hand", "3"), ("--seat", "7")])
def test_cli_refuses_bad_input(paperless: tuple[Record, Path], args: tuple[str, str]) -> None:
    _, path = paperless
    done = cli("analyze", str(path), *args)
    assert done.returncode == 2
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
