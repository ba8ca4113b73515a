"""``tricktable analyze``: the double-dummy review of a record."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tricktable import make_game, record_from_state, step
from tricktable.analysis import review_record
from tricktable.engine.actions import Bid, Play
from tricktable.engine.cards import card_str, parse_card, parse_set
from tricktable.engine.order import CardOrder
from tricktable.engine.records import Record
from tricktable.engine.state import Phase
from tricktable.search.position import PlayRules, Position, move_classes, position_of
from tricktable.search.random_positions import GAME_SETTINGS, random_play_state
from tricktable.search.reference import reference_move_values
from tricktable.search.solver import Solver, side_of


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


def test_progress_counts_the_cards_from_the_start(
    paperless: tuple[Record, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the bar shows the hand and its cards before the first (slowest) searches, then
    # counts up card by card to all of them
    record, _ = paperless
    events: list[tuple[int, ...]] = []
    tricks = Solver.tricks

    def noted(self: Solver, *args: Any, **kwargs: Any) -> int:
        events.append(())  # a search
        return tricks(self, *args, **kwargs)

    monkeypatch.setattr(Solver, "tricks", noted)
    review_record(record, progress=lambda *call: events.append(call))
    calls = [e for e in events if e]
    assert events[0] == (1, 0, 48, "the par") and calls[-1] == (1, 48, 48, "done")
    done = [d for _, d, _, _ in calls]
    assert done == sorted(done) and set(done) == set(range(49))


def test_progress_says_which_card_is_searched(paperless: tuple[Record, Path]) -> None:
    # each card's searches are announced with its trick, seat and card, and while the
    # other cards of a card that lost tricks are tried, which of them
    record, _ = paperless
    events: list[tuple[int, int, int, str]] = []
    (review,) = review_record(record, progress=lambda *call: events.append(call))
    for i, card in enumerate(review.cards):
        doing = f"trick {card.trick}, seat {card.seat}'s {card.card}"
        said = [e[3] for e in events if e[1] == i and e[3].startswith(doing)]
        assert said[0] == doing
        others = [x for x in said if x != doing]
        if card.cost:  # the other cards were tried, one question each, in order
            asked = [int(x.split("other cards ")[1].split(" of ")[0]) for x in others]
            assert asked == list(range(1, len(asked) + 1)) and asked
            assert all(x.endswith(f" of {len(asked)}") for x in others)
        else:
            assert not others


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


# --- equivalent cards: one question answers for a class --------------------------------


NO_TRUMP = CardOrder()


def position(hands: tuple[str, ...], trick: tuple[tuple[int, str], ...] = (),
             order: CardOrder = NO_TRUMP, rules: PlayRules | None = None) -> Position:
    """Four hands (seat 0 leads, or the seat after the trick's last card follows)."""
    cards = tuple((seat, parse_card(c)) for seat, c in trick)
    led = order.suit_of[cards[0][1]] if cards else -1
    to_act = (cards[-1][0] + 1) % 4 if cards else 0
    return Position(tuple(parse_set(h) for h in hands), (1, 2, 3, 0), to_act, cards, 0, led,
                    4, order, False, rules or PlayRules(), (0,) * 4)


def classes_of(pos: Position) -> set[str]:
    return {" ".join(card_str(m.card) + (" low" if m.low else "") for m in moves)
            for moves in move_classes(pos)}


def test_cards_with_nothing_between_them_in_other_hands_are_one_class() -> None:
    # seat 0: K Q 9 of hearts and the 2 of clubs; the jack of hearts is with seat 1, the
    # ten was played (in no hand): K Q are one class, and 9 stands apart from them
    pos = position(("KH QH 9H 2C", "JH 3C 4C 5C", "6C 7C 8C 2D", "3D 4D 5D 6D"))
    assert classes_of(pos) == {"2C", "9H", "QH KH"}
    # with the jack played too, the 9 joins them
    pos = position(("KH QH 9H 2C", "3S 3C 4C 5C", "6C 7C 8C 2D", "3D 4D 5D 6D"))
    assert classes_of(pos) == {"2C", "9H QH KH"}


def test_a_card_in_the_trick_tells_cards_apart() -> None:
    # seat 1 to follow the queen of hearts with K J: the king wins, the jack does not
    pos = position(("2C 3C", "KH JH 4C", "5C 6C 7C", "8C 9C TC"), trick=((0, "QH"),))
    assert classes_of(pos) == {"JH", "KH"}


def test_a_card_a_rule_treats_apart_stands_alone() -> None:
    # the queen of spades must be thrown when void (a rule as a joker has in whist): the
    # queen and the jack of spades are one class only when no rule tells them apart
    hands = ("QS JS 2C", "3C 4C 5C", "6C 7C 8C", "9C TC 2D")
    rules = PlayRules(must_throw_when_void=parse_set("QS"))
    assert classes_of(position(hands, rules=rules)) == {"2C", "JS", "QS"}
    assert classes_of(position(hands)) == {"2C", "JS QS"}


def test_low_order_ranks_the_ace_above_the_two() -> None:
    # low (ace, two, three, ... king): the two and the king are not neighbours
    low = CardOrder(low=True)
    assert classes_of(position(("2H KH", "3H 4C", "5C 6C", "7C 8C"), order=low)) == {
        "2H", "KH"}
    # every other heart gone from the other hands: the ace and the two touch
    assert classes_of(position(("AH 2H", "3C 4C", "5C 6C", "7C 8C"), order=low)) == {"2H AH"}


@pytest.mark.parametrize(("name", "options"), GAME_SETTINGS,
                         ids=[f"{n}{''.join(f'-{k}={v}' for k, v in o.items())}"
                              for n, o in GAME_SETTINGS])
@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_equivalent_moves_have_equal_values(name: str, options: dict[str, object],
                                            seed: int) -> None:
    """Every move of a class leads to the same value, for the mover's side, the mover
    alone and a nil of the mover (the reference solver: plain minimax); and the classes
    hold every legal move once, in order."""
    rng = random.Random(seed)
    state = random_play_state(name, options, rng, rng.choice((2, 3)))
    pos = position_of(state)
    classes = move_classes(pos)
    assert [m for moves in classes for m in moves] == pos.legal_moves()
    if all(len(moves) == 1 for moves in classes):
        return
    seat = pos.to_act
    side = side_of(state, seat)
    everyone = (1 << pos.num_seats) - 1
    for counted, maximizers in ((side, side), (1 << seat, 1 << seat),
                                (1 << seat, everyone & ~side)):
        values = dict(reference_move_values(pos, counted, maximizers))
        for moves in classes:
            assert len({values[m] for m in moves}) == 1, (moves, values)


def test_long_hands_get_the_larger_table() -> None:
    """A 13-card hand's questions keep 2**20 table entries (128 MB of address space);
    a 17-card 3B hand, which fills that table again and again, gets 2**22."""
    from tricktable.analysis import LONG_HAND_TABLE_BITS, TABLE_BITS, _table_bits

    assert _table_bits(13) == TABLE_BITS == 20
    assert _table_bits(17) == LONG_HAND_TABLE_BITS == 22
