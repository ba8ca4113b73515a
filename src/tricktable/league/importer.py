"""Existing v1 records into league entries (docs/league.md, "Importing records").

A record names its players by seat; a mapping turns those names into people (the same
person under several spellings, or "P0" into "Ann"). A record holds no date, so the date
is given (one for all, or per file). A game's key is the hash of its record, so importing
the same record again finds the game already there and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Protocol

from ..engine.errors import RecordError
from ..engine.records import Record, players_problem
from .facts import game_facts
from .model import GameEntry, LeagueError, check_text


def record_key(record: Record) -> str:
    """The record's hash: SHA-256 of its canonical JSON (keys sorted, no spaces), so the
    same game gives the same key however the file was laid out."""
    text = json.dumps(record.to_json(), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def people_of(record: Record, mapping: Mapping[str, str] | None) -> dict[int, str]:
    """Seat -> person. Without a mapping the record's names are the people; with one,
    every name in the record must be in it. RecordError if the record's ``players`` is not
    seat numbers to names."""
    problem = players_problem(record.players)
    if problem is not None:
        raise RecordError(problem)
    out: dict[int, str] = {}
    for seat, name in record.players.items():
        if mapping is None:
            person = name
        elif name in mapping:
            person = mapping[name]
        else:
            known = ", ".join(sorted(mapping)) or "none"
            raise LeagueError(
                f"the record's player {name!r} (seat {seat}) is not in the player mapping "
                f"(it maps: {known})"
            )
        if not person.strip():
            raise LeagueError(f"seat {seat} has an empty player name")
        out[int(seat)] = check_text(person, f"the person of seat {seat}")
    people = list(out.values())
    if len(set(people)) < len(people):
        raise LeagueError(
            f"one person sits in two seats of the same game: {', '.join(people)}"
        )
    return out


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise LeagueError(f"{text!r} is not a date: write YYYY-MM-DD") from None


def entry_from_record(
    record: Record,
    played: date,
    mapping: Mapping[str, str] | None = None,
    group: str = "",
    session: str = "",
    sequence: int = 0,
) -> GameEntry:
    """The league entry of a finished game's record."""
    names = people_of(record, mapping)
    facts = game_facts(record, names)
    return GameEntry(
        key=record_key(record),
        game=facts.game,
        played=played,
        players=facts.players,
        group=group,
        session=session,
        sequence=sequence,
        threeb=facts.threeb,
        stakes=facts.stakes,
    )


class GameSink(Protocol):
    """Where imported games go (``store.LeagueStore``)."""

    def has_game(self, key: str) -> bool: ...

    def next_sequence(self, group: str, day: date) -> int: ...

    def add_game(self, entry: GameEntry, record: str | None = None) -> bool: ...


@dataclass(frozen=True)
class ImportReport:
    added: tuple[str, ...]  # keys of the games added
    already: tuple[str, ...]  # keys of games that were already there


def import_records(
    sink: GameSink,
    records: Sequence[tuple[str, Record, date]],
    group: str,
    mapping: Mapping[str, str] | None = None,
    session: str = "",
) -> ImportReport:
    """Import (source, record, date) triples into ``group``, in the order given (which is
    the order of each day's games). Every record is read and checked first: if one is bad
    (unfinished, illegal, a player missing from the mapping) LeagueError names it and
    nothing is stored. A record already imported is skipped, so importing again changes
    nothing."""
    if not group.strip():
        raise LeagueError("name the group the games were played in (--group)")
    group = check_text(group, "the group's name")
    session = check_text(session, "the session's name") if session.strip() else ""
    entries: list[tuple[GameEntry, str]] = []
    for source, record, played in records:
        try:
            entry = entry_from_record(record, played, mapping, group, session)
        except (LeagueError, RecordError) as e:
            raise LeagueError(f"{source}: {e}") from None
        entries.append((entry, record.dumps()))
    added: list[str] = []
    already: list[str] = []
    seen: set[str] = set()
    for entry, text in entries:
        if entry.key in seen or sink.has_game(entry.key):
            already.append(entry.key)
            continue
        seen.add(entry.key)
        sequence = sink.next_sequence(entry.group, entry.played)
        sink.add_game(replace(entry, sequence=sequence), text)
        added.append(entry.key)
    return ImportReport(tuple(added), tuple(already))
