"""Who a game's words name: while a table's people are known (the web table, the terminal,
a replay of a record with its players), every line a game writes names them ("Ann took
4 of her 5"), everywhere else the seats ("seat 2").

A game writes a seat only through ``Game.seat_name`` and a scoring side only through
``Game.entity_name``, which read the names set here; so the words come from the game,
once, for the terminal and the browser alike, and nobody parses labels back. The names are
a context variable, set around the code that scores and shows a table's hands: lines a
hand's result writes later (``HandResult.lines_later``) are written the first time they
are shown, in that code too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from contextvars import ContextVar

_PEOPLE: ContextVar[Mapping[int, str] | None] = ContextVar("tricktable_people", default=None)


@contextlib.contextmanager
def naming(people: Mapping[int, str] | None) -> Iterator[None]:
    """Within the block, a seat in ``people`` is written as its person's name."""
    token = _PEOPLE.set(dict(people) if people else None)
    try:
        yield
    finally:
        _PEOPLE.reset(token)


def person(seat: int) -> str | None:
    """The name of the person at ``seat`` while naming is on, else None."""
    people = _PEOPLE.get()
    if people is None:
        return None
    return people.get(seat)


def seat_words(seat: int) -> str:
    """A seat as people read it: its person's name, or "seat N"."""
    return person(seat) or f"seat {seat}"


def team_words(team: int, start: bool = False) -> str:
    """A partnership (seats ``team`` and ``team + 2``) in short words: "Ann & Cy" while its
    people are named, else "team 0" ("Team 0" at the ``start`` of a sentence)."""
    first, second = person(team), person(team + 2)
    if first and second:
        return f"{first} & {second}"
    return f"{'Team' if start else 'team'} {team}"
