"""Generic invariant checks run on every game with random legal play.

``check_random_game(game, rng)`` plays one game (up to a number of hands) choosing
uniformly among the legal actions, and at every step checks that:

- cards are conserved: the hands, the cards played and the cards set aside are disjoint
  and together make the deck;
- only legal actions are accepted: a few illegal actions (a card not allowed, a seat out
  of turn, a random action of another phase) are refused with IllegalAction and leave the
  state exactly as it was;
- what the state remembers between steps (legal plays, redacted histories) equals what
  is worked out afresh;
- every seat's observation holds only what that seat may see: its own hand is its own,
  the cards it sees of other holdings are really there, and re-dealing the cards hidden
  from it (consistently with everything it has seen) leaves its observation unchanged;
- totals equal the sum of the hand scores (counted from zero again where a game resets
  them, as Paperless does before an overtime set);
- a record of the game replays to the same results.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from typing import Any

from hypothesis import strategies as st

from tricktable import IllegalAction, Phase, State, step
from tricktable.engine.actions import Action, Bid, Deal, Play
from tricktable.engine.cards import cards_of, parse_card
from tricktable.engine.errors import RecordError
from tricktable.engine.game import Game
from tricktable.engine.records import HandRecord, Record, record_from_state, replay, summary

_BETWEEN = (Phase.DEAL, Phase.SCORING)

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
"""Hypothesis draws a seed; the game's random play is reproducible from it."""


def snapshot(state: State) -> dict[str, Any]:
    """Every field of a state, as comparable values. Private fields are left out: they
    only remember answers worked out from the others (legal plays, histories), and
    ``check_remembered`` proves those answers right."""
    out: dict[str, Any] = {}
    for klass in type(state).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if hasattr(state, name) and not name.startswith("_"):
                value = getattr(state, name)
                if isinstance(value, list):
                    value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
                elif isinstance(value, dict):
                    value = tuple(sorted(value.items(), key=repr))
                elif isinstance(value, set):
                    value = frozenset(value)
                out[name] = value
    return out


def check_conservation(game: Game, state: State) -> None:
    if state.phase in _BETWEEN or state.phase is Phase.GAME_OVER:
        return
    parts = [*state.hands, state.played, game.out_of_play(state)]
    union = 0
    for p in parts:
        assert union & p == 0, f"a card is in two places: {parts}"
        union |= p
    assert union == game.deck, "cards are not conserved"


def check_totals(game: Game, state: State) -> None:
    """Totals are the sum of the hand scores, counted again from zero after any hand
    after which the game resets them (``Game.totals_reset_after``)."""
    labels = [game.entity_label(e) for e in range(game.num_entities)]
    running = dict.fromkeys(labels, 0)
    for i, result in enumerate(state.results):
        for label in labels:
            running[label] += result.scores[label]
        assert dict(result.totals) == running, f"hand {i + 1}'s totals are not the sum"
        if game.totals_reset_after(state, i):
            running = dict.fromkeys(labels, 0)
    assert game.totals_mapping(state) == running


def check_illegal_refused(game: Game, state: State, rng: random.Random) -> None:
    """Try a few actions that must be refused and check nothing changes."""
    legal = game.legal_actions(state)
    before = snapshot(state)
    candidates: list[Action] = []
    if state.phase is Phase.PLAY:
        seat = state.to_act
        legal_cards = {a.card for a in legal if isinstance(a, Play)}
        others = [c for c in cards_of(game.deck) if c not in legal_cards]
        if others:
            candidates.append(Play.of(seat, rng.choice(others)))
    if legal:
        a = rng.choice(legal)
        wrong_seat = (a.seat + 1 + rng.randrange(game.num_seats - 1)) % game.num_seats
        if wrong_seat != a.seat:
            candidates.append(type(a)(**{**_fields(a), "seat": wrong_seat}))
    candidates.append(Deal(-1, 0, (), ()))  # a deal in the middle of a hand
    for bad in candidates:
        if bad in legal:
            continue
        try:
            step(state, bad)
        except IllegalAction as e:
            assert e.rule and str(e), "an illegal action must name the rule"
            check_error_hides_cards(game, state, bad, e)
        else:
            # a seat out of turn may be legal in a game with calls (reneges): then undo
            # is impossible, so such candidates must have been in ``legal``
            raise AssertionError(f"illegal action {bad} was accepted in {state}")
        assert snapshot(state) == before, f"refusing {bad} changed the state"


def check_error_hides_cards(
    game: Game, state: State, action: Action, error: IllegalAction
) -> None:
    """An error goes to the seat that sent the action: it may name no card that seat
    cannot see in another holding (besides the cards the action itself named)."""
    seat = action.seat
    if not 0 <= seat < game.num_seats:
        return
    chooser = game.controller(state, seat)
    if chooser < 0:
        return
    obs = game.observe(state, chooser)
    hidden = 0
    for s, held in enumerate(state.hands):
        if game.controller(state, s) != chooser:
            hidden |= held & ~obs.visible[s]
    for word in str(action).split()[1:]:
        with contextlib.suppress(ValueError):
            hidden &= ~(1 << parse_card(word))
    for word in f"{error.detail} {error.allowed}".replace(",", " ").split():
        with contextlib.suppress(ValueError):
            c = parse_card(word)
            assert not hidden >> c & 1, f"the error to seat {seat} names hidden {word}: {error}"


def _fields(a: Action) -> dict[str, Any]:
    return {f.name: getattr(a, f.name) for f in dataclasses.fields(a)}


def check_observations(game: Game, state: State, rng: random.Random, deep: bool) -> None:
    deep_seat = rng.randrange(game.num_seats)
    for seat in range(game.num_seats):
        obs = game.observe(state, seat)
        assert obs == dataclasses.replace(obs), "an observation is built with every field"
        assert obs.hand == obs.visible[seat]
        assert obs.hand in (state.hands[seat], 0), "a seat sees its whole hand or (not yet) none"
        for s, cards in enumerate(obs.visible):
            assert cards & ~state.hands[s] == 0, f"seat {seat} sees cards seat {s} does not hold"
        own = [a for a in game.legal_actions(state) if game.controller(state, a.seat) == seat]
        assert list(obs.legal) == own, "a seat's legal actions are its own, all of them"
        in_hand = state.phase not in _BETWEEN and state.phase is not Phase.GAME_OVER
        if deep and seat == deep_seat and in_hand:
            check_redeal_invariance(game, state, seat, rng)


def check_remembered(game: Game, state: State) -> None:
    """What the state remembers (legal plays and actions, each seat's redacted history)
    equals what a copy that remembers nothing works out afresh."""
    fresh = state.copy()
    fresh.changed()
    assert game.legal_actions(fresh) == game.legal_actions(state), "stale legal actions"
    for seat in range(game.num_seats):
        assert game.observe(fresh, seat) == game.observe(state, seat), "stale observation"


def redeal(game: Game, state: State, viewer: int, rng: random.Random) -> State | None:
    """The same game with the cards hidden from ``viewer`` (in no holding it sees, never
    played, never named in an action) shuffled among the holdings that hide them, replayed
    through the rules: None when there is nothing to shuffle or the shuffle made a past
    play illegal (a revoke)."""
    obs = game.observe(state, viewer)
    record = record_from_state(state)
    current = record.hands[-1]
    mentioned = set()
    for text in current.actions:
        for word in text.split(":", 1)[1].split():
            with contextlib.suppress(ValueError):
                mentioned.add(parse_card(word))
    seen = state.played
    for cards in obs.visible:
        seen |= cards
    piles = {k: v.split() for k, v in current.deal.items()}
    positions = [
        (k, i)
        for k, cards in piles.items()
        if k != str(viewer)
        for i, text in enumerate(cards)
        if not seen >> parse_card(text) & 1 and parse_card(text) not in mentioned
    ]
    if len(positions) < 2:
        return None
    hidden = [piles[k][i] for k, i in positions]
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    if shuffled == hidden:
        return None
    for (k, i), text in zip(positions, shuffled, strict=True):
        piles[k][i] = text
    new_deal = {k: " ".join(v) for k, v in piles.items()}
    hand = HandRecord(current.dealer, new_deal, current.actions)
    try:
        return replay(Record(record.game, record.options, record.players,
                             [*record.hands[:-1], hand]))
    except RecordError:
        return None


def check_redeal_invariance(
    game: Game, state: State, viewer: int, rng: random.Random
) -> None:
    """Re-deal the cards hidden from ``viewer``; when the same actions are still legal,
    ``viewer``'s observation must not change."""
    alt = redeal(game, state, viewer, rng)
    if alt is not None:
        assert game.observe(alt, viewer) == game.observe(state, viewer), (
            f"seat {viewer}'s observation depends on cards hidden from it"
        )


def check_random_game(
    game: Game,
    rng: random.Random,
    max_hands: int = 3,
    deep_every: int = 5,
) -> State:
    """Play one game with random legal actions, checking every invariant as it goes."""
    state = game.new_game()
    steps = 0
    while state.phase is not Phase.GAME_OVER:
        if state.phase in _BETWEEN:
            if state.finished_hands >= max_hands:
                break
            step(state, game.random_deal(state, rng))
            continue
        legal = game.legal_actions(state)
        assert legal, f"no legal action in {state}"
        check_illegal_refused(game, state, rng)
        check_observations(game, state, rng, deep=steps % deep_every == 0)
        step(state, rng.choice(legal))
        check_remembered(game, state)
        check_conservation(game, state)
        steps += 1
    check_totals(game, state)
    for seat in range(game.num_seats):
        assert game.observe(state, seat).legal == ()
    replayed = replay(record_from_state(state))
    assert summary(replayed) == summary(state)
    return state


def after_a_blind_nil(game: Game, seed: int) -> tuple[State, int]:
    """A Spades hand (``blind_nil`` on) dealt from ``seed`` where team 1 trails by 100
    and the first of its seats to decide has bid blind nil: (the state, that seat)."""
    state = game.new_game()
    state.totals = [100, 0]  # team 1 trails by 100: its seats may bid blind nil
    step(state, game.random_deal(state, random.Random(seed)))
    blind = state.to_act
    step(state, Bid(blind, 0, blind=True))
    return state, blind
