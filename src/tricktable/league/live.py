"""A game played at a tricktable table (in the browser or the terminal) as a league entry.

At such a table some seats are people and some are bots. The game counts for the people;
the bots are not people and never enter the league (docs/league.md, "Games played here"):

- only the people's lines are kept (their results, contracts, nils, declarer hands);
- 3B: a game a bot won gives no star (the people at it lost it, so their streaks end); a bot
  in the tray carries nothing (no tray person); bots leave the tray sheet and the perfect
  and imperfect days;
- Paperless: a game with a bot at the table carries no stake (nobody owes a bot, and a
  team's debt has no fair split when one partner is a bot).

The entry's key is its record's hash, as for an imported record, so a game both played
here and imported is counted once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date, datetime
from typing import TYPE_CHECKING

from ..engine.records import Record
from .facts import game_facts
from .importer import record_key
from .model import GameEntry, LeagueError, ThreeBFacts

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from .store import LeagueStore

_BOT = "\x00bot "
"""The name a bot's seat is given while the facts are read: no person can be called so
(names are checked text without control characters), so no fact about a bot can land on
a person."""


def live_entry(record: Record, people: Mapping[int, str], group: str, played: date,
               session: str = "", sequence: int = 0) -> GameEntry:
    """The league entry of a finished game whose seats in ``people`` were held by those
    people (seat -> name) and whose other player seats were bots. LeagueError if nobody
    in it is a person."""
    if not people:
        raise LeagueError("only bots played this game: a game counts for the people at it")
    names = {**{s: f"{_BOT}{s}" for s in _player_seats(record)}, **people}
    facts = game_facts(record, names)
    players = tuple(p for p in facts.players if p.seat in people)
    had_bots = len(players) < len(facts.players)
    threeb = None if facts.threeb is None else _people_only(facts.threeb)
    return GameEntry(
        key=record_key(record), game=facts.game, played=played, players=players,
        group=group, session=session, sequence=sequence, threeb=threeb,
        stakes=None if had_bots else facts.stakes,
    )


def _player_seats(record: Record) -> list[int]:
    return [int(seat) for seat in record.players]


def _person(name: str | None) -> str | None:
    return None if name is None or name.startswith(_BOT) else name


def _people_only(t: ThreeBFacts) -> ThreeBFacts:
    def people(names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(n for n in names if _person(n) is not None)

    return replace(
        t, winner=_person(t.winner), tray_person=_person(t.tray_person),
        tray_sheet=tuple(people(row) for row in t.tray_sheet),
        perfect_day=people(t.perfect_day), imperfect_day=people(t.imperfect_day),
    )


def record_live_game(store: LeagueStore, s: Session, group_id: int, record: Record,
                     text: str, people: Mapping[int, str], person_ids: Mapping[str, int],
                     when: datetime) -> GameEntry | None:
    """Count a finished game of a group's table in the group's league, in the transaction
    ``s`` somebody else owns (the web server's, with the table's last event): its day and
    session by the group's rule (the open session, else the date in the group's time zone),
    after the group's other games of that day. The entry, or None if it was counted
    already (the same record key) or only bots played it."""
    group = store.group_by_id(group_id, s)
    if group is None:
        raise LeagueError(f"there is no league group {group_id}")
    if not people:
        return None
    day = store.played_day(group_id, when, s)
    entry = live_entry(record, people, group.name, day, store.session_for(group_id, when, s))
    entry = replace(entry, sequence=store.next_sequence(group.name, day, s))
    return entry if store.add_game_in(s, entry, text, dict(person_ids) or None) else None


def check_player(store: LeagueStore, group: str, person: str) -> None:
    """LeagueError unless ``person`` is a member of the group named ``group`` (a game
    played in the terminal for a group is counted for its members only: a typo must not
    make a new person)."""
    groups = store.groups()
    if group not in groups:
        known = ", ".join(groups) or "none yet"
        raise LeagueError(f"there is no league group {group!r} in this database (its groups:"
                          f" {known}); make one on the web ('tricktable serve', then Groups)")
    members = store.members(group)
    if person not in members:
        raise LeagueError(f"{person!r} is not a member of {group} (its members: "
                          f"{', '.join(members) or 'none yet'}); join it with the group's link")


def count_terminal_game(store: LeagueStore, group: str, person: str, seat: int,
                        record: Record, when: datetime) -> list[str]:
    """Count a finished terminal game of ``person`` (at ``seat``, the other seats bots)
    in ``group``'s league, as a group's table counts its games; what it changed on the
    sheet, in sentences (nothing if it was counted already)."""
    from sqlalchemy import select

    from .store import GroupRow
    from .views import what_changed

    check_player(store, group, person)
    with store.session() as s:
        group_id = s.scalar(select(GroupRow.id).where(GroupRow.name == group))
        assert group_id is not None
        entry = record_live_game(store, s, group_id, record, record.dumps(), {seat: person},
                                 {}, when)
    if entry is None:
        return []
    return what_changed(store.entries(group), entry.key)
