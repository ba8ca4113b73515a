"""The web's door to the league for live tables (docs/architecture.md, "The web's two
doors to the league"): who is a member of a table's group, and the counting of a group
table's finished game in the group's league.

A finished game is counted **in the same transaction as the table's last event**: the
table's writer runs ``count_job``'s job with that event, so a server killed at that moment
leaves the game either counted once or not yet counted. "Not yet" happens too when the
league's part fails for a reason of its own (a bug, a group removed): the game still ends,
the failure is logged, and ``count_now`` counts it when the table is loaded again. A
database that goes away fails the whole transaction, as for any event: the table takes
the last move back and tries again when the database returns.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from ..engine.records import Record
from ..league.importer import record_key
from ..league.live import record_live_game
from ..league.model import (
    BONEHEAD,
    BROUGHT_DECKS,
    CARRIED_TRAYS,
    CHIT,
    FORGOT_TRAYS,
    THREEB,
    ZERO_BUDDY,
    GroupInfo,
    Mark,
    PersonInfo,
)
from ..league.store import LeagueStore
from ..league.views import chit_due, what_changed

_log = logging.getLogger("tricktable.web")

CLOCK_FILE_ENV = "TRICKTABLE_CLOCK_FILE"
"""For tests that play a month in a minute: a file holding the date and time (ISO 8601)
the server takes as "now" when it writes down the day of a finished game."""


def league_now() -> datetime:
    """Now, for the day a game is counted on (``TRICKTABLE_CLOCK_FILE`` in tests)."""
    import os

    path = os.environ.get(CLOCK_FILE_ENV)
    if path:
        when = datetime.fromisoformat(Path(path).read_text(encoding="utf-8").strip())
        return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    return datetime.now(UTC)


class LeagueLink:
    """The league of the server's database, opened on first use (its tables are made or
    brought up to date then). Every method blocks: call it from a thread."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._store: LeagueStore | None = None
        self._opening = threading.Lock()

    def store(self) -> LeagueStore:
        with self._opening:
            if self._store is None:
                self._store = LeagueStore(self.url)
            return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def group_by_id(self, group_id: int | None) -> GroupInfo | None:
        return None if group_id is None else self.store().group_by_id(group_id)

    def group_by_token(self, token: str) -> GroupInfo | None:
        return self.store().group_by_token(token)

    def person_by_key(self, key: str) -> PersonInfo | None:
        return self.store().person_by_key(key)

    def count_job(self, group_id: int, record: Record, people: Mapping[int, str],
                  person_ids: Mapping[str, int], when: datetime) -> Callable[[Session], None]:
        """The job that counts the finished game ``record`` in the writer's transaction."""
        text = record.dumps()

        def count(s: Session) -> None:  # in the writer's thread
            try:
                store = self.store()
                with s.begin_nested():  # the league's failure is not the table's
                    record_live_game(store, s, group_id, record, text, people, person_ids,
                                     when)
            except DBAPIError:
                raise  # the database: the whole event fails, the table retries
            except Exception:
                _log.exception("table game %s: not counted in league group %d now; it is "
                               "counted when the table loads again", record_key(record)[:12],
                               group_id)

        return count

    @staticmethod
    def key_of(record: Record) -> str:
        """The game's key in the league: its record's hash (as for an import)."""
        return record_key(record)

    def counted(self, record: Record) -> bool:
        return self.store().has_game(record_key(record))

    def count_now(self, group_id: int, record: Record, people: Mapping[int, str],
                  person_ids: Mapping[str, int], when: datetime) -> bool:
        """Count a finished game that is not counted yet, in a transaction of its own (a
        table loaded after a failure); True if it was counted now."""
        store = self.store()
        with store.session() as s:
            return record_live_game(store, s, group_id, record, record.dumps(), people,
                                    person_ids, when) is not None

    def news(self, group_id: int, record: Record) -> dict[str, Any]:
        """What the game changed on its group's sheet, in sentences (``news``), its marks
        (``marks``: sentences) and, in 3B, the tray person who may spend a tray chit now
        (``chit_due``: a name, or None)."""
        entries = self.store().entries_of(group_id)
        key = record_key(record)
        game = next((e for e in entries if e.key == key), None)
        if game is None:
            return {"news": [], "marks": [], "chit_due": None}
        return {
            "news": what_changed(entries, key),
            "marks": [_mark_said(m) for m in game.marks],
            "chit_due": chit_due(entries, key) if game.game == THREEB else None,
        }

    def add_mark(self, record: Record, kind: str, person: str, note: str,
                 named: str | None) -> None:
        """Add a mark to the finished game ``record`` (LeagueError if a rule refuses it)."""
        self.store().add_mark(record_key(record), Mark(kind, person, note, named))


MARK_SAID = {
    BONEHEAD: "{person} made a bonehead play",
    ZERO_BUDDY: "{person} gets a zero-buddy mark",
    CHIT: "{person} spent a tray chit: {named} carries the trays",
    FORGOT_TRAYS: "{person} forgot the trays",
    CARRIED_TRAYS: "{person} carried the trays owed",
    BROUGHT_DECKS: "{person} brought the new decks",
}


def _mark_said(m: Mark) -> str:
    said = MARK_SAID[m.kind].format(person=m.person, named=m.named)
    return f"{said}: {m.note}" if m.note else f"{said}."
