"""Worlds a seat cannot tell apart: the hidden cards dealt again, consistently with what
that seat's observation shows, uniformly over every such deal.

A search bot (and OpenSpiel's ``resample_from_infostate``) reasons about hidden cards by
sampling them. ``WorldSampler(game).sample(observation, rng)`` reads **only** the
observation (a bot is never given a state), so two states that look the same to the seat
give the same worlds for the same random stream.

What a world respects:

- the seat's own hand and every card it can see in another holding (a shown dummy,
  peeked or flipped cards, a card passed to it that it knows the place of), and the
  cards it passed to its partner (Paperless, a blind-nil exchange) in the partner's;
- cards already played are gone;
- each holding's size;
- suits a seat has shown out of: a seat that did not follow the suit led holds none of it
  (unless the table plays in honour mode, where any card may be played: ``trust_voids``);
- cards of the deck that are in no holding (3B's extra card, a whist declarer's
  discards) lie in an out-of-play pile that nobody sees.

Uniform means every consistent deal is equally likely: the number of completions is
counted suit by suit (how many unknown cards of each suit go to each holding, weighted by
the ways to choose them), a split is drawn in proportion to its count, and the cards of
each suit are then shuffled into it. Jokers are not tied to a suit here: a seat that shows
out of trumps may still be dealt a joker (a known approximation for the joker games).

The search bots weigh these worlds by the other seats' bids (``search.worlds``); this
module is the uniform part, and what OpenSpiel's ``resample_from_infostate`` is given.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from math import comb

from ..engine.cards import CardSet, cards_of, parse_card
from ..engine.game import Game
from ..engine.observation import Observation

OUT = -1
"""The out-of-play pile's key in a world."""


class InconsistentObservation(ValueError):
    """No deal fits what the observation shows (a bug upstream, or a hand-made
    observation that contradicts itself)."""


class WorldSampler:
    """Deals of the cards hidden from a seat, for one game."""

    def __init__(self, game: Game, trust_voids: bool | None = None) -> None:
        self.game = game
        self.deck: CardSet = game.deck
        self.trust_voids = (
            not bool(getattr(game.options, "honour", False)) if trust_voids is None
            else trust_voids
        )
        # A search bot samples many worlds from one observation: the counting behind
        # them (the plan) is worked out once for it. Observations are immutable, so the
        # very same object means the very same constraints.
        self._last: tuple[Observation, _Plan] | None = None

    def _plan(self, obs: Observation) -> _Plan:
        if self._last is not None and self._last[0] is obs:
            return self._last[1]
        plan = _Plan(*self.unknowns(obs))
        self._last = (obs, plan)
        return plan

    def unknowns(self, obs: Observation) -> tuple[list[int], dict[int, int], dict[int, set[int]]]:
        """(the cards hidden from the seat, each other holding's number of hidden cards,
        each holding's void suits)."""
        placed, in_transit = known_placements(obs)
        seen = obs.hand | obs.played | own_out_of_play(obs) | in_transit
        known = list(obs.visible)
        for s, cards in placed.items():
            known[s] |= cards
        for cards in known:
            seen |= cards
        for _, card in obs.trick:
            seen |= 1 << card
        hidden = [c for c in cards_of(self.deck & ~seen)]
        slots = {
            s: obs.hand_sizes[s] - (known[s] & ~obs.played).bit_count()
            for s in range(len(obs.hand_sizes))
            if s != obs.seat and obs.hand_sizes[s] > 0
        }
        voids: dict[int, set[int]] = {s: set() for s in slots}
        if self.trust_voids:
            for trick in obs.tricks:
                _shown_out(voids, trick.seats, trick.cards, trick.led_suit)
            if obs.trick:
                _shown_out(voids, tuple(s for s, _ in obs.trick),
                           tuple(c for _, c in obs.trick), obs.led_suit)
            if getattr(self.game.options, "spades_broken", False):
                _led_spades_unbroken(voids, obs)
        return hidden, slots, voids

    def count(self, obs: Observation) -> int:
        """How many deals fit the observation (for tests and for weighting)."""
        hidden, slots, voids = self.unknowns(obs)
        plan = _Plan(hidden, slots, voids)
        return plan.completions(0, plan.start)

    def sample(self, obs: Observation, rng: random.Random) -> dict[int, CardSet]:
        """One world: every other holding's full cards (the known ones included) by seat,
        and the out-of-play pile under ``OUT`` when the deck has one."""
        dealt = self._plan(obs).draw(rng)
        placed, _ = known_placements(obs)
        world: dict[int, CardSet] = {}
        for s in range(len(obs.hand_sizes)):
            if s == obs.seat:
                world[s] = obs.hand
            else:
                known = obs.visible[s] | placed.get(s, 0)
                world[s] = (known & ~obs.played) | _mask(dealt.get(s, ()))
        out = _mask(dealt.get(OUT, ())) | own_out_of_play(obs)
        if out:
            world[OUT] = out
        return world


def _led_spades_unbroken(voids: dict[int, set[int]], obs: Observation) -> None:
    """Where spades may not be led until broken, a seat that led a spade before they
    were broken held nothing else: it is void in the other suits from then on."""
    tricks = [(t.seats, t.cards, t.led_suit) for t in obs.tricks]
    if obs.trick:
        tricks.append((tuple(s for s, _ in obs.trick), tuple(c for _, c in obs.trick),
                       obs.led_suit))
    broken = False
    for seats, cards, led in tricks:
        if not broken and led == 0 and seats and seats[0] in voids:
            voids[seats[0]] |= {1, 2, 3}
        broken = broken or any(c < 13 for c in cards)  # a spade has been played


def known_placements(obs: Observation) -> tuple[dict[int, CardSet], CardSet]:
    """Cards of the seat's own it knows the holder of (passed to a partner, an extra
    card thrown back and drawn since), by holding; and cards between holdings."""
    placed, in_transit = known_from_own_passes(obs)
    for seat, cards in known_from_own_throws(obs).items():
        placed[seat] = placed.get(seat, 0) | cards
    return placed, in_transit


def pass_under_way(obs: Observation) -> bool:
    """Whether a Paperless pass is under way (its ``given`` info not complete): the cards
    given so far are in nobody's hand yet."""
    given = obs.info.get("given")
    return isinstance(given, tuple | list) and not all(given)


def known_from_own_passes(obs: Observation) -> tuple[dict[int, CardSet], CardSet]:
    """Where the cards the seat itself passed to its partner are (a Paperless pass, a
    blind-nil exchange): in the partner's holding unless played since or passed back, or,
    while a Paperless pass is not complete (its ``given`` info), in nobody's holding yet.
    Returns (known cards by holding, cards between holdings)."""
    complete = not pass_under_way(obs)
    passed = 0
    for text in obs.history:
        seat, _, rest = text.partition(": ")
        words = rest.split(" ")
        if words[0] == "give" and seat == str(obs.seat) and "?" not in words:
            for w in words[1:]:
                passed |= 1 << parse_card(w)
    if not passed:
        return {}, 0
    if not complete:
        return {}, passed
    partner = (obs.seat + 2) % len(obs.hand_sizes)
    return {partner: passed & ~obs.played & ~obs.hand}, 0


def known_from_own_throws(obs: Observation) -> dict[int, CardSet]:
    """Where the extra cards the seat itself threw back are when someone drew them since
    (3B: the next zero bidder or the high bidder draws the card thrown back): in the
    drawer's holding. (He may have thrown that very card on in turn; the worlds leave
    that out, a small bias where one zero follows another.)"""
    throws: list[tuple[int, str]] = []
    for text in obs.history:
        who, _, rest = text.partition(": ")
        words = rest.split(" ")
        if words[0] == "exchange" and who.isdigit():
            throws.append((int(who), words[1] if len(words) > 1 else "?"))
    drawer = obs.info.get("extra_drawn_by")
    placed: dict[int, CardSet] = {}
    for k, (thrower, card) in enumerate(throws):
        if thrower != obs.seat or card == "?":
            continue
        if k + 1 < len(throws):
            by = throws[k + 1][0]
        elif isinstance(drawer, int) and drawer >= 0:
            by = drawer
        else:
            continue  # still out of play (own_out_of_play)
        if by != obs.seat:
            placed[by] = placed.get(by, 0) | 1 << parse_card(card)
    return placed


def own_out_of_play(obs: Observation) -> CardSet:
    """Cards the seat itself put out of play this hand, face down (a 3B exchange thrown
    back, a whist declarer's discards): known to it, in nobody's holding. A card thrown
    back before another exchange is not counted: the next exchange may have drawn it."""
    out = 0
    for text in obs.history:
        seat, _, rest = text.partition(": ")
        words = rest.split(" ")
        if words[0] == "exchange":
            out = 0  # a card thrown back becomes the extra card the next exchange draws
        if seat == str(obs.seat) and words[0] in ("exchange", "discard") and "?" not in words:
            for w in words[1:]:
                out |= 1 << parse_card(w)
    if obs.info.get("extra_drawn_by", -1) not in (-1, obs.seat, None):
        out = 0  # someone has drawn the card thrown back, and holds it now
    return out


def _shown_out(voids: dict[int, set[int]], seats: Sequence[int], cards: Sequence[int],
               led_suit: int) -> None:
    if led_suit < 0:
        return
    for seat, card in zip(seats, cards, strict=False):
        if seat in voids and card < 52 and card // 13 != led_suit:
            voids[seat].add(led_suit)


def _mask(cards: Sequence[int]) -> CardSet:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


class _Plan:
    """The counting behind uniform sampling: unknown cards grouped by suit (jokers a
    group of their own that no void restricts), holdings with their free slots."""

    def __init__(self, hidden: list[int], slots: dict[int, int],
                 voids: dict[int, set[int]]) -> None:
        self.holders = sorted(slots)
        extra = len(hidden) - sum(slots.values())
        if extra < 0 or any(n < 0 for n in slots.values()):
            raise InconsistentObservation(
                f"{len(hidden)} hidden cards cannot fill {sum(slots.values())} places")
        if extra:
            self.holders.append(OUT)
        capacity = {**slots, OUT: extra}
        self.start = tuple(capacity[h] for h in self.holders)
        groups: dict[int, list[int]] = {}
        for c in hidden:
            groups.setdefault(c // 13 if c < 52 else 4, []).append(c)
        self.groups = [groups[g] for g in sorted(groups)]
        self.allowed = [
            tuple(i for i, h in enumerate(self.holders)
                  if h == OUT or g == 4 or g not in voids.get(h, ()))
            for g in sorted(groups)
        ]
        self.hidden = hidden
        # without voids every arrangement of the hidden cards into the places is a deal:
        # no counting needed (the common case, and the costly one to count)
        self.free = all(len(a) == len(self.holders) for a in self.allowed)
        self.completions = functools.lru_cache(maxsize=None)(self._completions)
        self._choices: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = {}

    def _splits(self, g: int, room: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Ways to share group ``g``'s cards among the holdings allowed it (counts)."""
        k = len(self.groups[g])
        allowed = self.allowed[g]
        out: list[tuple[int, ...]] = []

        def fill(i: int, left: int, parts: list[int]) -> None:
            if i == len(allowed) - 1:
                if left <= room[allowed[i]]:
                    out.append((*parts, left))
                return
            for take in range(min(left, room[allowed[i]]) + 1):
                fill(i + 1, left - take, [*parts, take])

        if not allowed:
            return [()] if k == 0 else []
        fill(0, k, [])
        return out

    def _ways(self, g: int, split: tuple[int, ...]) -> int:
        left, ways = len(self.groups[g]), 1
        for take in split:
            ways *= comb(left, take)
            left -= take
        return ways

    def _after(self, g: int, room: tuple[int, ...], split: tuple[int, ...]) -> tuple[int, ...]:
        new = list(room)
        for i, take in zip(self.allowed[g], split, strict=True):
            new[i] -= take
        return tuple(new)

    def _completions(self, g: int, room: tuple[int, ...]) -> int:
        if self.free and g == 0 and room == self.start:
            left, ways = sum(room), 1
            for n in room:
                ways *= comb(left, n)
                left -= n
            return ways
        if g == len(self.groups):
            return 1 if not any(room) else 0
        return sum(
            self._ways(g, split) * self.completions(g + 1, self._after(g, room, split))
            for split in self._splits(g, room)
        )

    def draw(self, rng: random.Random) -> dict[int, list[int]]:
        if self.completions(0, self.start) == 0:
            raise InconsistentObservation("no deal fits the observation")
        dealt: dict[int, list[int]] = {h: [] for h in self.holders}
        if self.free:
            shuffled = list(self.hidden)
            rng.shuffle(shuffled)
            at = 0
            for h, n in zip(self.holders, self.start, strict=True):
                dealt[h] = shuffled[at:at + n]
                at += n
            return dealt
        room = self.start
        for g, cards in enumerate(self.groups):
            choices = self._choices.get((g, room))
            if choices is None:
                choices = self._choices[g, room] = [
                    (split,
                     self._ways(g, split) * self.completions(g + 1, self._after(g, room, split)))
                    for split in self._splits(g, room)
                ]
            total = sum(weight for _, weight in choices)
            pick = rng.randrange(total)
            chosen = choices[-1][0]
            for split, weight in choices:
                if pick < weight:
                    chosen = split
                    break
                pick -= weight
            shuffled = list(cards)
            rng.shuffle(shuffled)
            at = 0
            for i, take in zip(self.allowed[g], chosen, strict=True):
                dealt[self.holders[i]].extend(shuffled[at:at + take])
                at += take
            room = self._after(g, room, chosen)
        return dealt
