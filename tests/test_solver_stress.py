"""The kernel against the plain-minimax reference on endings drawn to be risky (issue 45).

Endings of random hands seldom hold the few cards that tell a wrong bound from a right
one: in 3B with ace calls the issue's hunt found 9 wrong answers in 24,000 endings.
``risky_ending`` draws such endings on purpose: 3B with 4 or 5 players (the fifth
sitting out), aces that may be called low, a suit to be led whose ace is out with an
opponent of the seat asked about, that seat void in the suit and mostly holding the top
cards of the others (it must throw one of them), the ace's holder mostly playing after
it; now and then trumps or the joker left, a trick under way, other aces about. Each
ending is asked 3B's questions (the seat alone against the others, and its nil), and
the kernel's answer must be the reference's.

The CI run is sized to catch the issue's bug: with it in the kernel, the two-card run
below finds 37 wrong answers in its 1,000 endings (the first at its 50th). Run the same
comparison at any size with ``benchmarks/solver_stress.py``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tricktable.engine.cards import (
    ACE,
    BIG_JOKER,
    CLUBS,
    DIAMONDS,
    HEARTS,
    SUIT_MASKS,
    card,
    card_str,
    format_set,
)
from tricktable.engine.order import SPADES_TRUMP
from tricktable.search.position import PlayRules, Position, play, position_of
from tricktable.search.random_positions import random_play_state
from tricktable.search.reference import reference_tricks
from tricktable.search.solver import Solver

PLAIN_SUITS = (HEARTS, DIAMONDS, CLUBS)
CI_RUNS = ((2, 1000, 45), (3, 40, 45))
"""(cards a hand, endings, seed) of the CI runs: the reference takes milliseconds on a
two-card ending and a few tenths of a second on a three-card one."""


@functools.cache
def threeb_rules(players: int) -> PlayRules:
    """The play rules of 3B with ``players`` and ace calls on, as the engine's hooks tell
    them (read from a real hand, not restated here)."""
    state = random_play_state("3b-spades", {"players": players}, random.Random(0), 13, False)
    return position_of(state).rules


@dataclass(frozen=True)
class Ending:
    """A drawn ending, the seat whose tricks are asked about and the suit drawn to be
    led (whose ace an opponent of that seat held)."""

    pos: Position
    asked: int
    led: int


def risky_ending(rng: random.Random, sizes: tuple[int, ...] = (2, 2, 3)) -> Ending:
    """A 3B ending with the led suit's ace out (see the module docstring), of a size
    drawn from ``sizes`` (cards a hand at the trick's start)."""
    players = rng.choice((4, 5))
    out = rng.randrange(players) if players == 5 else -1  # the 5-player dealer sits out
    playing = [s for s in range(players) if s != out]
    per_hand = rng.choice(sizes)
    asked = rng.choice(playing)
    led = rng.choice(PLAIN_SUITS)
    ace_holder = rng.choice([s for s in playing if s != asked])
    hands = dict.fromkeys(playing, 0)
    hands[ace_holder] = 1 << card(ACE, led)
    pool = [card(r, s) for s in PLAIN_SUITS for r in range(13) if (r, s) != (ACE, led)]
    if rng.random() < 0.25:  # a few trumps left, the joker among them
        pool += rng.sample([*range(13), BIG_JOKER], rng.randint(1, 3))
    rng.shuffle(pool)
    # the asked seat: void in the led suit, mostly holding the top cards of the others
    mine = [c for c in pool if SPADES_TRUMP.suit_of[c] != led]
    if rng.random() < 0.75:
        mine = sorted(mine, key=SPADES_TRUMP.rank_key, reverse=True)[:per_hand + 2]
    for c in rng.sample(mine, per_hand):
        hands[asked] |= 1 << c
        pool.remove(c)
    for seat in playing:
        while hands[seat].bit_count() < per_hand:
            hands[seat] |= 1 << pool.pop()
    next_seat = []
    for s in range(players):
        after = (s + 1) % players
        next_seat.append(after if after != out else (after + 1) % players)

    def asked_before_ace(leader: int) -> bool:
        """Does the asked seat play before the ace's holder in a trick ``leader`` leads?"""
        seat = leader
        while seat not in (asked, ace_holder):
            seat = next_seat[seat]
        return seat == asked

    # the leader: a seat with a card of the led suit, mostly one that lets the ace's
    # holder see what the asked seat throws before calling the ace
    holders = [s for s in playing if s != asked and hands[s] & SUIT_MASKS[led]]
    seen = [s for s in holders if asked_before_ace(s)]
    leader = rng.choice(seen if seen and rng.random() < 0.8 else holders)  # (the ace's holder)
    pos = Position(
        tuple(hands.get(s, 0) for s in range(players)), tuple(next_seat), leader, (), 0, -1,
        len(playing), SPADES_TRUMP, rng.random() < 0.8, threeb_rules(players),
        (0,) * players,
    )
    if rng.random() < 0.3:  # a trick under way: the led suit led, then a card or two
        lead = [m for m in pos.legal_moves() if m.card // 13 == led] or pos.legal_moves()
        pos = play(pos, rng.choice(lead))[0]
        for _ in range(rng.randrange(pos.trick_size - 1)):
            pos = play(pos, rng.choice(pos.legal_moves()))[0]
    return Ending(pos, asked, led)


def questions(ending: Ending) -> Iterator[tuple[str, int, int]]:
    """3B's questions about the asked seat: (name, counted, maximizers)."""
    pos, seat = ending.pos, ending.asked
    yield "alone", 1 << seat, 1 << seat
    yield "nil", 1 << seat, ((1 << pos.num_seats) - 1) & ~(1 << seat)


@dataclass(frozen=True)
class Mismatch:
    """A question the kernel answered unlike the reference."""

    index: int  # the ending's place in its run, from 0
    ending: Ending
    question: str
    kernel: int
    reference: int

    def __str__(self) -> str:
        asked = self.ending.asked
        what = "alone" if self.question == "alone" else "when the others make it take tricks"
        return (f"ending {self.index}: seat {asked} takes {self.reference} of the "
                f"{self.ending.pos.tricks_left} tricks left {what} by the reference, "
                f"{self.kernel} by the kernel\n" + describe(self.ending.pos))


def describe(pos: Position) -> str:
    """An ending in words: the hands, the play order, the trick so far."""
    seated = {s for s, _ in pos.trick} | {s for s, h in enumerate(pos.hands) if h}
    lines = [f"  seat {seat}: {format_set(hand) or '-'}" if seat in seated
             else f"  seat {seat}: sits out" for seat, hand in enumerate(pos.hands)]
    seat = pos.trick[0][0] if pos.trick else pos.to_act
    order = []
    for _ in range(pos.trick_size):
        order.append(str(seat))
        seat = pos.next_seat[seat]
    trick = " ".join(card_str(c) + (" (called low)" if pos.trick_low_aces >> i & 1 else "")
                     for i, (_, c) in enumerate(pos.trick))
    lines.append(f"  play order {','.join(order)}; seat {pos.to_act} to play"
                 + (f"; the trick so far: {trick}" if trick else "")
                 + f"; spades {'broken' if pos.trump_broken else 'not broken'}"
                 + "; aces may be called low")
    return "\n".join(lines)


def compare(endings: int, seed: int, sizes: tuple[int, ...] = (2, 2, 3),
            solver: Solver | None = None) -> Iterator[Mismatch | None]:
    """Draw ``endings`` risky endings from ``seed`` and ask each its questions; yields a
    Mismatch per wrong answer and None after each ending (to count progress). One solver
    answers them all, its table kept from one to the next as in a review."""
    rng = random.Random(seed)
    solver = solver or Solver(table_bits=16)
    for index in range(endings):
        ending = risky_ending(rng, sizes)
        for name, counted, maximizers in questions(ending):
            expected = reference_tricks(ending.pos, counted, maximizers)
            got = solver.tricks(ending.pos, counted, maximizers)
            if got != expected:
                yield Mismatch(index, ending, name, got, expected)
        yield None


@pytest.mark.parametrize(("cards", "endings", "seed"), CI_RUNS)
def test_the_kernel_answers_risky_ace_call_endings_as_the_reference(
        cards: int, endings: int, seed: int) -> None:
    mismatches = [m for m in compare(endings, seed, (cards,)) if m is not None]
    assert not mismatches, f"{len(mismatches)} wrong answers; the first:\n{mismatches[0]}"


def test_the_endings_are_of_the_risky_kind() -> None:
    """The generator draws what it says: the asked seat void in the led suit, whose ace
    an opponent held, the hands of one size at the trick's start, and the trick under
    way led in that suit."""
    rng = random.Random(45)
    under_way = five_players = 0
    for _ in range(500):
        ending = risky_ending(rng)
        pos, led = ending.pos, ending.led
        assert not pos.hands[ending.asked] & SUIT_MASKS[led]
        ace = card(ACE, led)
        ace_holders = [s for s, h in enumerate(pos.hands) if h >> ace & 1]
        ace_holders += [s for s, c in pos.trick if c == ace]
        assert ace_holders and ace_holders[0] != ending.asked
        cards = [h.bit_count() + any(s == seat for s, _ in pos.trick)
                 for seat, h in enumerate(pos.hands) if h or any(s == seat for s, _ in pos.trick)]
        assert len(cards) == pos.trick_size and len(set(cards)) == 1
        if pos.trick:
            under_way += 1
            assert SPADES_TRUMP.suit_of[pos.trick[0][1]] == led
        five_players += pos.num_seats == 5
        assert pos.rules == threeb_rules(pos.num_seats) and pos.rules.ace_low
    assert 100 < under_way < 250 and 150 < five_players < 350
