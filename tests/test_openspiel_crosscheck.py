"""Standard Spades scores every hand exactly as OpenSpiel's ``spades`` does (rulings.md,
standard Spades, ruling 6).

Hands are played in OpenSpiel with random chance outcomes and random legal actions from a
seeded RNG; the same deal and actions become a tricktable record, which is replayed and
must give OpenSpiel's returns as the team scores and OpenSpiel's tricks per seat. While the
hand is played, every action OpenSpiel allows must be legal for us too.

How OpenSpiel's hand maps to ours:

- player p is seat p; its player 0 bids and leads first, so our dealer is seat 3;
- the deal is 52 chance actions, the i-th dealt card going to player i % 4;
- its card index is suit * 13 + rank with suits C D H S (0..3) and rank 0 the two; ours
  numbers the suits S H D C, so its suit s is our suit 3 - s and ranks are the same;
- a bid of N is action 52 + N; it caps a team's combined bid at 13, which we do not, so
  its bids are a subset of ours;
- it never marks spades broken, so its legal leads are a subset of ours (equal until a
  spade has been played on another suit); its legal follows equal ours.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tricktable import Phase, make_game, step
from tricktable.engine.actions import CHANCE, Action, Bid, Deal, Play
from tricktable.engine.cards import card_str
from tricktable.engine.records import HandRecord, Record, replay, summary

pyspiel = pytest.importorskip("pyspiel")

OS_BID_BASE = 52
OUR_DEALER = 3

# A policy picks one of OpenSpiel's legal actions for a player.
Policy = Callable[[random.Random, int, list[int]], int]


def our_card(os_card: int) -> int:
    """OpenSpiel's card index (suits C D H S) as ours (suits S H D C); ranks agree."""
    return (3 - os_card // 13) * 13 + os_card % 13


def our_action(player: int, os_action: int) -> Action:
    if os_action >= OS_BID_BASE:
        return Bid(player, os_action - OS_BID_BASE)
    return Play.of(player, our_card(os_action))


def uniform(rng: random.Random, player: int, legal: list[int]) -> int:
    return rng.choice(legal)


def low_bids(rng: random.Random, player: int, legal: list[int]) -> int:
    """Bids of 0, 1 or 2 (nil often); uniform play."""
    if legal[0] >= OS_BID_BASE:
        return rng.choice(legal[:3])
    return rng.choice(legal)


def lopsided(rng: random.Random, player: int, legal: list[int]) -> int:
    """Low bids; team 0 plays its best card and team 1 its worst, so team 0 takes most of
    the tricks: bag penalties, failed nils for team 0 and made nils for team 1."""
    if legal[0] >= OS_BID_BASE:
        return rng.choice(legal[:3])
    # OpenSpiel's indices grow with rank within a suit and spades are the highest suit
    return max(legal) if player % 2 == 0 else min(legal)


@dataclass
class OpenSpielHand:
    dealt: list[int]  # OpenSpiel card indices in the order dealt
    actions: list[tuple[int, int]]  # (player, OpenSpiel action) after the deal
    returns: list[float]
    tricks: list[int]  # tricks taken per player, read from OpenSpiel's final state

    @property
    def bids(self) -> list[int]:
        return [a - OS_BID_BASE for _, a in self.actions[:4]]

    def record(self) -> Record:
        """Our record of the same deal and actions."""
        deal = {
            str(p): " ".join(card_str(our_card(c)) for c in self.dealt[p::4]) for p in range(4)
        }
        actions = [str(our_action(p, a)) for p, a in self.actions]
        return Record("spades", {}, {str(p): f"P{p}" for p in range(4)},
                      [HandRecord(OUR_DEALER, deal, actions)])


_TRICKS_TAKEN = re.compile(r"Tricks taken:\s*\n\s*North East\s+South\s+West\s*\n([\d ]+)")


def tricks_taken(os_state: Any) -> list[int]:
    """Tricks per player, from the summary OpenSpiel prints for a finished hand."""
    match = _TRICKS_TAKEN.search(str(os_state))
    assert match, f"no trick count in OpenSpiel's state:\n{os_state}"
    tricks = [int(t) for t in match.group(1).split()]
    assert len(tricks) == 4 and sum(tricks) == 13
    return tricks


def play_openspiel_hand(os_game: Any, rng: random.Random, policy: Policy) -> OpenSpielHand:
    """One hand in OpenSpiel, stepping our engine alongside to compare legal actions."""
    game = make_game("spades")
    ours = game.new_game()
    os_state = os_game.new_initial_state()
    dealt: list[int] = []
    while os_state.is_chance_node():
        outcome = rng.choice(os_state.chance_outcomes())[0]
        dealt.append(outcome)
        os_state.apply_action(outcome)
    hands = tuple(tuple(our_card(c) for c in dealt[p::4]) for p in range(4))
    step(ours, Deal(CHANCE, OUR_DEALER, hands))
    actions: list[tuple[int, int]] = []
    while not os_state.is_terminal():
        player = os_state.current_player()
        assert ours.to_act == player
        os_legal = os_state.legal_actions()
        our_legal = set(game.legal_actions(ours))
        translated = {our_action(player, a) for a in os_legal}
        assert translated <= our_legal, "OpenSpiel allows an action we refuse"
        if ours.phase is Phase.PLAY and (ours.trick_cards or not ours.trump_broken):
            # following, or leading before spades are broken: the same cards
            assert translated == our_legal
        action = policy(rng, player, os_legal)
        actions.append((player, action))
        os_state.apply_action(action)
        step(ours, our_action(player, action))
    assert ours.phase is Phase.SCORING
    returns = list(os_state.returns())
    tricks = tricks_taken(os_state)
    assert ours.won == tricks
    assert [float(s) for s in ours.results[0].scores.values()] == returns[:2]
    return OpenSpielHand(dealt, actions, returns, tricks)


def check_replay(hand: OpenSpielHand) -> None:
    """Replaying our record of the hand scores it as OpenSpiel did."""
    state = replay(hand.record())
    assert state.phase is Phase.SCORING
    result = summary(state)
    assert result["hands"][0]["scores"] == {"0": hand.returns[0], "1": hand.returns[1]}
    assert result["totals"] == {"0": hand.returns[0], "1": hand.returns[1]}
    assert hand.returns[2:] == hand.returns[:2]  # partners share their team's return
    assert state.won == hand.tricks


def outcomes(hand: OpenSpielHand) -> set[str]:
    """Which scoring rules a hand exercised (to show the test reaches all of them)."""
    seen = set()
    for team in (0, 1):
        seats = (team, team + 2)
        bids = [hand.bids[s] for s in seats]
        taken = sum(hand.tricks[s] for s in seats)
        for s in seats:
            if hand.bids[s] == 0:
                seen.add("nil made" if hand.tricks[s] == 0 else "nil failed")
        if taken < sum(bids):
            seen.add("set")
        else:
            seen.add("made")
            if taken - sum(bids) >= 10:
                seen.add("bag penalty")
    return seen


def play_many(seed: int, count: int, policy: Policy) -> Iterator[OpenSpielHand]:
    os_game = pyspiel.load_game("spades")
    rng = random.Random(seed)
    for _ in range(count):
        yield play_openspiel_hand(os_game, rng, policy)


@pytest.mark.parametrize(
    ("policy", "count", "seed"),
    [(uniform, 1000, 2024), (low_bids, 300, 7), (lopsided, 300, 11)],
    ids=["uniform", "low-bids", "lopsided"],
)
def test_scores_and_tricks_equal_openspiel(policy: Policy, count: int, seed: int) -> None:
    seen: Counter[str] = Counter()
    for hand in play_many(seed, count, policy):
        check_replay(hand)
        seen.update(outcomes(hand))
    assert {"nil made", "nil failed", "set", "made"} <= set(seen), seen
    if policy is lopsided:
        assert seen["bag penalty"] > 0, seen


def _tricktable_command() -> list[str]:
    script = Path(sys.executable).with_name("tricktable")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "tricktable.cli"]


def test_cli_replay_scores_an_openspiel_hand_as_openspiel_does(tmp_path: Path) -> None:
    """End to end: ``tricktable replay FILE --json`` on a record of an OpenSpiel hand with a
    nil bid and a bag penalty prints OpenSpiel's returns as the hand's scores."""
    hand = next(
        h for h in play_many(11, 150, lopsided)
        if {"bag penalty", "nil failed"} <= outcomes(h)
    )
    path = tmp_path / "openspiel-hand.json"
    hand.record().save(path)
    done = subprocess.run(
        [*_tricktable_command(), "replay", str(path), "--json"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    expected = {"0": hand.returns[0], "1": hand.returns[1]}
    assert result["hands"][0]["scores"] == expected
    assert result["totals"] == expected
    assert result["finished"] is False
