"""Live tables: the table runner of ``play/table.py`` behind a lock, fed by people's
messages and by bots, every change written to the table's log before anyone hears of it.

A ``LiveTable`` is rebuilt from its stored rows and log alone (``TableData``): the
deals and actions go through ``step`` again, so after a crash a table is exactly where
its last committed event left it. Bots hold no state between choices: each choice is
made by a bot built for it, seeded from the game's seed and the table's sequence number,
so the choices a bot makes after a restart are the ones it would have made without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.orm import Session

from ..bots import DEFAULT_THINK, Bot, bot_class, make_bot
from ..engine.actions import Action, Play, parse_action
from ..engine.cards import card_str, cards_of
from ..engine.errors import IllegalAction, NotationError, OptionError
from ..engine.game import Game, make_game, step
from ..engine.observation import Observation
from ..engine.records import HandRecord, Record, deal_from_record, deal_to_record, loads_record
from ..engine.state import Phase, State
from ..engine.words import naming, table_words
from ..play.opponents import bot_levels, level_of
from ..play.table import Table
from ..search import search_installed
from ..search.agreed_claims import claim_is_sure, claim_size, line_giving
from ..search.solver import side_of
from . import protocol, shown_claims
from .league_link import LeagueLink, league_now
from .spec import PERSON, TableSpec, game_seed
from .store import (
    Append,
    LeaseLost,
    PlayerRow,
    SeatData,
    SeatRow,
    Snapshot,
    Store,
    TableData,
    TableHeld,
    TableRow,
    TokenRow,
    Writer,
    keep_alive,
    save_snapshot,
    token_hash,
)

if TYPE_CHECKING:
    from ..league.model import PersonInfo
    from ..search.claims import ClaimVerdict

BOT = "bot"
CHIT_MARK = "chit"
WAITING, PLAYING, OVER, ENDED = "waiting", "playing", "over", "ended"
"""A table's status; "ended": closed before its game was over (by its host, by the limit
on tables of bots alone, or because nobody came back to it), and it takes nothing more."""
HOST, SPECTATOR, SEAT = "host", "spectator", "seat"

NOT_STORED = ("the table cannot save moves right now; nothing was lost. It takes moves "
              "again as soon as it can save them: try again in a moment")
NOT_STORED_READ = ("the server cannot read its tables right now; nothing was lost: try "
                   "again in a moment")
RETRY_FIRST, RETRY_MOST = 0.25, 5.0
"""Seconds before the first and the longest wait between tries to read a table again
after its store failed (doubling in between)."""
BOT_ONLY_PACE = 0.2
"""Seconds a move at least, at a table of bots alone: nobody waits for it, and at pace 0
it would write to the database as fast as it can for as long as it lasts."""
BOT_ONLY_MOVES = 2000
CHAT_KEPT = 100
"""Chat lines a newcomer is shown (all are in the log)."""
HOUSEKEEPING_EVERY = 600.0
ABANDONED_AFTER = 14 * 24 * 3600.0
"""Seconds without a single event after which a table that is not over is ended."""
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{8,24}")


def valid_table_id(text: str) -> bool:
    """Could ``text`` be a table's id (``secrets.token_urlsafe``)? Anything else, NUL
    included, is answered "no such table" without a query."""
    return _TABLE_ID.fullmatch(text) is not None
"""Moves after which a table of bots alone is ended (a few games; research runs offline)."""

_log = logging.getLogger(__name__)
"""What the host should see and the players may not (a bot's failure, with the seat's
cards in it): the server's log, on its standard error."""


class Listener(Protocol):
    """A connected client as a table sees it: where it sits, and a way to reach it that
    never blocks (the web layer queues the text and sends it)."""

    role: str
    seat: int | None

    def send(self, text: str) -> None: ...

    def close(self, reason: str, code: int = 4000) -> None: ...


class StoreAway(Exception):
    """The database did not answer a read; nothing was changed (try again)."""


class TableElsewhere(Exception):
    """Another server process owns the table now; it has been asked to hand it over (try
    again in a moment: the proxy sends the table's requests to this process)."""


MOVING = ("this table is moving between the site's servers; it is back in a moment "
          "(your page reconnects by itself)")
MOVED_CODE = 4503
"""The close code of a socket whose table this process no longer owns: reconnect."""
RENEW_EVERY = 1.0
"""Seconds between renewals of this process's leases: also how soon it hands a table over
to the process the proxy now sends its requests to."""
ORPHANS_AT_ONCE = 50
"""Tables under way whose owner is gone that a process takes at each look (every few
seconds), so that a restart does not load thousands of tables at once."""
LEASE_SECONDS = 5.0
"""How long a lease lasts unless renewed (renewed every RENEW_EVERY): the time after which
the tables of a process that died are taken over by the others."""


class Refused(Exception):
    """An action or request the table turns down; told to its sender only."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def message_json(self) -> dict[str, Any]:
        return {"type": "refused", "code": self.code, "message": self.message, **self.extra}


class _NotAsked:
    """The table runner wants an agent per seat; here people and bots are driven from
    outside, so these are never asked."""

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        raise RuntimeError("the web table drives its seats itself")

    def offer(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        return None


@dataclass
class Seat:
    seat: int
    kind: str
    bot: str | None
    name: str | None
    token: str | None
    conns: int = 0
    away_since: float = 0.0
    person_id: int | None = None
    """At a league group's table: the person (league ``players``) who took the seat."""
    stood_in: list[str] = field(default_factory=list)
    """What the stand-in did for the person while away (phrases, ``TableWords.done``),
    told to them when they come back."""

    @property
    def away(self) -> bool:
        """A person's seat with nobody connected (an unclaimed seat is not 'away')."""
        return self.kind == PERSON and self.name is not None and self.conns == 0


@dataclass(frozen=True)
class FinishedGame:
    """A game of a group's table just over: its record, its number at the table, the
    members at its seats and their league ids."""

    record: Record
    number: int
    people: dict[int, str]
    ids: dict[str, int]


class LiveTable:
    """One table in memory. Every change happens under ``lock``: checked by the engine,
    committed to the log, then told to every listener."""

    def __init__(self, hub: Hub, data: TableData) -> None:
        self.hub = hub
        self.id = data.id
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.recovering = False
        """A commit failed: what is stored may differ from memory (the commit may have
        landed after all), so the table takes nothing until it has read its log again."""
        self._recovery: asyncio.Task[None] | None = None
        self.device_requests: dict[str, tuple[Listener, int, str]] = {}
        """Devices waiting for a seat's person to let them in: request id -> (the waiting
        socket, the seat, the device's hash). Not stored: a request lasts as its socket."""
        self._rebuild(data)

    # --- rebuilding from the store --------------------------------------------------------

    def _rebuild(self, data: TableData) -> None:
        self.game: Game = make_game(data.game, data.options)
        self.seed = data.seed
        self.seed_chosen = data.seed_chosen
        self.public = data.public
        self.bot_pace = data.bot_pace
        self.away_grace = data.away_grace
        self.stand_in = data.stand_in
        self.stored_status = data.status
        now = time.monotonic()
        old = getattr(self, "seats", {})
        self.seats: dict[int, Seat] = {}
        for sd in data.seats:
            conns = old[sd.seat].conns if sd.seat in old and old[sd.seat].token == sd.token else 0
            self.seats[sd.seat] = Seat(sd.seat, sd.kind, sd.bot, sd.name, sd.token, conns, now,
                                       sd.person_id)
        self.tokens: dict[str, tuple[str, int | None]] = dict(data.tokens)
        self.group_id = data.group_id
        self.epoch: int = getattr(self, "epoch", 0)
        """The epoch of this process's lease on the table (``Hub.get`` sets it)."""
        self.group_name: str | None = getattr(self, "group_name", None)
        """The league group's name, once read (``settle_league``)."""
        self.snapshot: Snapshot | None = data.snapshot
        self.snapshot_records: list[str] = list(data.records)
        self._replay(data.events, ended=data.status == ENDED)

    def _replay(self, events: list[tuple[int, str, str, str]], ended: bool = False) -> None:
        """The game part of the table from its snapshot (where it stood after its last
        rematch, if any) and the log after it: every deal and action of the current game
        through ``step`` again. ``events`` becomes the table's memory of what is committed
        since the snapshot, from which a change whose commit failed is undone without the
        database."""
        snapshot = self.snapshot
        self.events = events
        self.ended = ended
        self.end_reason = "the table was ended" if ended else ""
        self.game_number = 0 if snapshot is None else snapshot.game_number
        self.records: list[str] = list(self.snapshot_records)
        """The finished games' records, as JSON (read when someone asks for one)."""
        self.runner = self._new_runner()
        self.seq = 0 if snapshot is None else snapshot.seq
        self.next_n = 0 if snapshot is None else snapshot.n + 1
        self._declined: set[tuple[int, int]] = set()
        self.shown_claim: shown_claims.ShownClaim | None = None
        """A claim shown and waiting for the others' answers (a server without the
        solver: ``web/shown_claims.py``); the play waits meanwhile."""
        self.league_news: dict[str, Any] | None = None
        """At a group's table with its game over: what the game changed on the group's
        sheet (``_tell_league_news``)."""
        self.devices: dict[int, set[str]] = {}
        """Per seat, the hashes of the devices its person plays it from (none: any)."""
        self.muted: set[int] = set()
        self.spectators_chat = False
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        if snapshot is not None:
            self._restore_talk(snapshot.talk)
        for n, kind, text, _actor in events:
            self.next_n = n + 1
            if kind in ("seat", "device", "chat", "talk"):
                self._replay_table_talk(kind, json.loads(text))
                continue
            if kind == "claim":
                self.shown_claim = shown_claims.apply(self.shown_claim, json.loads(text))
                continue
            if kind in ("deal", "action", "rematch", "undo"):
                self.shown_claim = None  # the game moved: a claim agreed is played out
            if kind == "deal":
                obj = json.loads(text)
                deal = deal_from_record(
                    self.game, HandRecord(obj["dealer"], obj["deal"], []), "log"
                )
                with naming(self.people()):
                    step(self.runner.state, deal)
            elif kind == "action":
                with naming(self.people()):
                    step(self.runner.state, parse_action(text))
            elif kind == "rematch":
                self.records.append(self._record().dumps())
                self.game_number += 1
                self.runner = self._new_runner()
            elif kind == "undo":
                with naming(self.people()):
                    self.runner.take_back(int(json.loads(text)["seat"]))
            elif kind == "end":
                self.ended = True
                self.end_reason = text or "the table was ended"
                continue
            else:
                continue  # seat changes are kept in the seat rows; the log is their history
            self.seq += 1
        self.shown_status = self.status

    def _talk_json(self) -> dict[str, Any]:
        """What the table says of devices, muting and chat, for a snapshot."""
        return {
            "devices": {str(seat): sorted(found) for seat, found in self.devices.items()},
            "muted": sorted(self.muted), "spectators_chat": self.spectators_chat,
            "chat": list(self.chat),
        }

    def _restore_talk(self, talk: dict[str, Any]) -> None:
        self.devices = {int(seat): set(found) for seat, found in talk.get("devices", {}).items()}
        self.muted = set(talk.get("muted", []))
        self.spectators_chat = bool(talk.get("spectators_chat", False))
        self.chat.extend(talk.get("chat", []))

    def _replay_table_talk(self, kind: str, fact: dict[str, Any]) -> None:
        """What the log says of devices, chat and its settings (the seats themselves are
        in the seat rows)."""
        seat = fact.get("seat")
        if kind == "seat" and isinstance(seat, int):
            if fact.get("open"):
                self.devices.pop(seat, None)  # a new link: a new person, new devices
            elif fact.get("device"):
                self.devices.setdefault(seat, set()).add(str(fact["device"]))
        elif kind == "device" and isinstance(seat, int):
            self.devices.setdefault(seat, set()).add(str(fact["device"]))
        elif kind == "chat":
            self.chat.append(fact)
        elif kind == "talk":
            if "spectators" in fact:
                self.spectators_chat = bool(fact["spectators"])
            if isinstance(seat, int):
                if fact.get("muted"):
                    self.muted.add(seat)
                else:
                    self.muted.discard(seat)

    def _new_runner(self) -> Table:
        agents = {s: _NotAsked() for s in self.game.player_seats}
        return Table(self.game, agents, game_seed(self.seed, self.game_number))

    # --- what the table is ------------------------------------------------------------------

    @property
    def state_phase(self) -> Phase:
        return self.runner.state.phase

    @property
    def status(self) -> str:
        """The status of the table in memory, which may be ahead of what is committed
        while a commit is under way: what is reported uses ``shown_status``."""
        if self.ended:
            return ENDED
        state = self.runner.state
        if state.phase is Phase.GAME_OVER:
            return OVER
        if state.hand_number < 0:
            return WAITING
        return PLAYING

    def filled(self) -> bool:
        return all(s.kind == BOT or s.name is not None for s in self.seats.values())

    def seat_label(self, seat: int) -> str:
        s = self.seats.get(seat)
        if s is None:
            return self.game.seat_name(seat)
        if s.kind == BOT:
            return self.bot_label(seat)
        return s.name or f"seat {seat} (open)"

    def bot_label(self, seat: int) -> str:
        """The bot in ``seat`` as people read it: its strength ("Strong bot"), or its name
        for a bot picked by name ("random bot"); where two bots would read alike, a letter
        in seat order tells them apart ("Casual bot A", "Casual bot B"). No person's name
        can read so (web/names.py refuses the word "bot")."""
        label = self.bot_words(self.seats[seat].bot or "rules")
        alike = [n for n, s in sorted(self.seats.items())
                 if s.kind == BOT and self.bot_words(s.bot or "rules") == label]
        return label if len(alike) < 2 else f"{label} {chr(ord('A') + alike.index(seat))}"

    def bot_words(self, bot: str) -> str:
        """A bot by its strength ("Casual bot"), or by name ("random bot")."""
        level = level_of(self.game.name, bot)
        return f"{level.label} bot" if level is not None else f"{bot} bot"

    def _record(self) -> Record:
        self.runner.names = {s: self.seat_label(s) for s in self.game.player_seats}
        return self.runner.record({"table": self.id, "game_number": self.game_number})

    def record(self, number: int) -> Record:
        """Finished game ``number``'s record; Refused if there is none (yet). Read under
        the table's lock (``record_now``) so that a game is not given out as finished
        while its last action is still being committed."""
        if 0 <= number < len(self.records):
            return loads_record(self.records[number], f"table {self.id}'s game {number}")
        if number == self.game_number and self.shown_status == OVER:
            return self._record()
        raise Refused("no-record", f"table {self.id} has no finished game {number}")

    def seats_json(self) -> list[dict[str, Any]]:
        out = []
        for s in range(self.game.num_seats):
            seat = self.seats.get(s)
            if seat is None:
                out.append({"seat": s, "kind": "dummy", "name": self.game.seat_name(s),
                            "bot": None, "away": False, "open": False, "stand_in": False})
                continue
            out.append({
                "seat": s, "kind": seat.kind, "name": seat.name if seat.kind == PERSON
                else self.bot_label(s), "bot": seat.bot, "away": seat.away,
                "open": seat.kind == PERSON and seat.name is None,
                "stand_in": self._stand_in_now(seat),
                "devices": seat.conns if seat.kind == PERSON else 0,
                "muted": s in self.muted,
            })
        return out

    def _stand_in_now(self, seat: Seat) -> bool:
        due = self._stand_in_due(seat) if seat.kind == PERSON else None
        return due is not None and due <= 0

    def summary_json(self) -> dict[str, Any]:
        return {
            "protocol": protocol.PROTOCOL, "table": self.id, "game": self.game.name,
            "title": self.game.title,
            "options": self.game.options.to_mapping(include_defaults=True),
            "status": self.shown_status, "seq": self.seq, "game_number": self.game_number,
            "seats": self.seats_json(), "bot_pace": self.bot_pace,
            "away_grace": self.away_grace, "stand_in": self.stand_in,
            "seed": self.seed if self.seed_chosen else None,
            "public": self.public,
            "spectators_chat": self.spectators_chat,
            "ended": self.end_reason or None,
            "records": list(range(len(self.records) + (self.shown_status == OVER))),
        }

    def observation_for(self, seat: int | None) -> dict[str, Any]:
        """The engine's observation for ``seat`` as JSON; for a spectator (None) what every
        player seat sees alike."""
        game, state = self.game, self.runner.state
        if state.hand_number < 0:
            # nothing is dealt yet: every seat sees the same empty table (and some games'
            # observe expects a hand to have begun)
            out = protocol.observation_json(_empty_observation(game, state, seat))
            out["seat"] = seat
            return out
        if seat is not None:
            return protocol.observation_json(game.observe(state, seat))
        return protocol.public_json(
            [protocol.observation_json(game.observe(state, s)) for s in game.player_seats]
        )

    def people(self) -> dict[int, str]:
        """Who sits where, as the game's words name them (``engine.words``)."""
        return {s: self.seat_label(s) for s in self.game.player_seats}

    def view(self, role: str, seat: int | None) -> dict[str, Any]:
        with naming(self.people()):  # score lines written on first showing name people
            return self._view(role, seat)

    def _view(self, role: str, seat: int | None) -> dict[str, Any]:
        obs = self.observation_for(seat if role == SEAT else None)
        state = self.runner.state
        return {
            "type": "view",
            "protocol": protocol.PROTOCOL,
            "table": self.id,
            "seq": self.seq,
            "game_number": self.game_number,
            "status": self.status,
            "seed": self.seed if self.seed_chosen else None,
            "ended": self.end_reason or None,
            "spectators_chat": self.spectators_chat,
            "game": self.game.name,
            "title": self.game.title,
            "options": self.game.options.to_mapping(include_defaults=True),
            "you": {"role": role, "seat": seat if role == SEAT else None},
            "seats": self.seats_json(),
            "to_act": state.to_act,
            "legal": [] if self.ended else obs["legal"],  # an ended table takes nothing
            "totals": obs["totals"],
            "results": [
                {"scores": dict(r.scores), "totals": dict(r.totals), "lines": list(r.lines)}
                for r in state.results
            ],
            "winner": state.winner,
            "sides": {
                self.game.entity_label(e): self.game.entity_name(e)
                for e in range(len(state.totals))
            },
            "around": protocol.around_the_table(state),
            # the end of the game in the game's own sentences, naming people; the facts
            # behind them for programs
            "summary": (self.game.summary_lines(state)
                        if state.phase == Phase.GAME_OVER else None),
            "facts": (protocol.jsonable(self.game.game_summary(state))
                      if state.phase == Phase.GAME_OVER else None),
            "observation": obs,
            # what the game says to this reader, made from this observation alone, and why
            # each card of the hand to play may not be played (the engine's refusal)
            "words": {**protocol.words_json(self.game, obs),
                      "why_not": self._why_not(seat if role == SEAT else None)},
            # a claim shown (no solver here): the claimer's cards face up for everyone
            "claim": None if self.shown_claim is None else self.shown_claim.view_json(
                self.seat_label, seat if role == SEAT else None),
            "claims_checked_by": "solver" if search_installed() else "agreement",
            "league": None if self.group_id is None else self._league_view(),
        }

    def _why_not(self, reader: int | None) -> dict[str, str]:
        """At the reader's turn to play: for each card of the hand to play that may not be
        played, the engine's refusal in a sentence; and while the reader plays from another
        hand (a dummy), why their own cards wait. The refusal's rule reads only what the
        reader sees (their hand to play, the trick)."""
        state, game = self.runner.state, self.game
        if reader is None or state.phase is not Phase.PLAY or state.to_act < 0 \
                or game.controller(state, state.to_act) != reader:
            return {}
        words = table_words(game)
        out: dict[str, str] = {}
        playing = state.to_act
        with naming(self.people()):
            for c in cards_of(state.hands[playing]):
                try:
                    game.check(state, Play(playing, c))
                except IllegalAction as e:
                    out[card_str(c)] = words.why_not(e.rule)
            if playing != reader:
                waiting = words.not_this_hand(playing)
                out.update({card_str(c): waiting for c in cards_of(state.hands[reader])})
        return out

    def _league_view(self) -> dict[str, Any]:
        """What the table says of its league group: its name and, once the game is over,
        whether it counted and what it changed on the sheet (sentences naming people)."""
        news = self.league_news if self.status == OVER else None
        return {"group": self.group_name, **(news or {})}

    # --- telling the listeners ----------------------------------------------------------------

    def broadcast(self) -> None:
        cache: dict[tuple[str, int | None], str] = {}
        for listener in list(self.listeners):
            key = (listener.role, listener.seat) if listener.role == SEAT else (SPECTATOR, None)
            text = cache.get(key)
            if text is None:
                text = cache[key] = protocol.dumps(self.view(*key))
            listener.send(text)

    def send_view(self, listener: Listener) -> None:
        role = listener.role if listener.role == SEAT else SPECTATOR
        listener.send(protocol.dumps(self.view(role, listener.seat)))

    # --- the log ------------------------------------------------------------------------------

    async def _commit(
        self, kind: str, text: str, actor: str, extra: Callable[[Session], None] | None = None
    ) -> None:
        """Append one event (and run ``extra`` in the same transaction); return only when
        it is committed. The caller has made the change in memory already (that is how the
        new status is known) and tells nobody before this returns: on failure the game is
        put back as its committed log left it, without the database (``_undo``), the
        table goes into recovery, and Refused("not-stored") says so."""
        if self.recovering:
            self._undo()
            raise Refused("not-stored", NOT_STORED)
        n = self.next_n
        status = self.status
        finished = status == OVER and self.stored_status != OVER
        if finished and self.group_id is not None:
            extra = self._counted_with(extra)
        append = Append(self.id, n, kind, text, actor,
                        status if status != self.stored_status else None, extra,
                        (self.hub.owner, self.epoch))
        try:
            await asyncio.shield(self.hub.writer.submit(append))
        except LeaseLost:
            _log.warning("table %s: another server process owns it now; event %d (%s) "
                         "not written, the table is let go", self.id, n, kind)
            self._undo()
            self.hub.let_go(self.id)
            raise Refused("moved", MOVING) from None
        except Exception as e:
            _log.warning("table %s: event %d (%s) not stored: %s", self.id, n, kind,
                         str(e).splitlines()[0][:200] if str(e) else type(e).__name__)
            self._undo()
            self._recover()
            raise Refused("not-stored", NOT_STORED) from None
        self.events.append((n, kind, text, actor))
        self.next_n = n + 1
        self.stored_status = status
        if kind in ("deal", "action", "rematch", "undo"):
            self.seq += 1
        self.shown_status = status
        if finished and self.group_id is not None:
            self.hub.spawn(self._tell_league_news(self._finished_game(), counted_now=False))

    # --- the group's league ---------------------------------------------------------------

    def _people_at_seats(self) -> tuple[dict[int, str], dict[str, int]]:
        """The members who hold the seats at the end of the game (a bot standing in for
        one who stepped away plays for them), and their league ids. A seat a bot holds by
        the host's choice, or held from the start, is a bot's: it is not counted."""
        people = {s.seat: s.name for s in self.seats.values()
                  if s.kind == PERSON and s.person_id is not None and s.name is not None}
        ids = {s.name: s.person_id for s in self.seats.values()
               if s.kind == PERSON and s.person_id is not None and s.name is not None}
        return people, ids

    def _counted_with(self, extra: Callable[[Session], None] | None
                      ) -> Callable[[Session], None]:
        """``extra`` and the counting of the game just finished in the group's league,
        in one transaction with the table's last event."""
        assert self.group_id is not None
        people, ids = self._people_at_seats()
        count = self.hub.league.count_job(self.group_id, self._record(), people, ids,
                                          league_now())

        def both(session: Session) -> None:
            if extra is not None:
                extra(session)
            count(session)

        return both

    async def add_mark(self, token: str, kind: str, person: str, note: str = "",
                       named: str | None = None) -> None:
        """A member at the table marks the finished game on the group's sheet (a bonehead
        play, a zero buddy; the tray person spends a tray chit naming who carries the
        trays). Refused in a sentence if the game is not over or not counted, the token is
        not a member's seat, or the league's rules refuse the mark."""
        async with self.lock:
            role, number = self.tokens.get(token_hash(token), (None, None))
            seat = self.seats.get(number) if role == SEAT and number is not None else None
            if seat is None or seat.person_id is None or seat.name is None:
                raise Refused("not-member", "only the group's members at this table mark its "
                              "games: open your seat's link")
            if self.status != OVER or not (self.league_news or {}).get("counted"):
                raise Refused("not-counted", "a mark goes on a game of the group's sheet: "
                              "this one is not over or not counted (yet)")
            if kind == CHIT_MARK and person != seat.name:
                raise Refused("not-yours", "only the tray person spends his own tray chit")
            game = self._finished_game()
        try:
            await asyncio.to_thread(self.hub.league.add_mark, game.record, kind, person, note,
                                    named)
        except ValueError as e:  # LeagueError: a rule refuses the mark; nothing stored
            raise Refused("refused", str(e)) from None
        await self._tell_league_news(game, counted_now=False)

    async def settle_league(self) -> None:
        """A group's table loaded with its game over: count the game if it was not
        counted (the server died, or the league's part failed), then say what it
        changed."""
        if self.group_id is None:
            return
        async with self.lock:  # what is committed: never a game whose end is being stored
            game = self._finished_game() if self.shown_status == OVER else None
        if game is not None:
            await self._tell_league_news(game, counted_now=True)
            return
        try:
            group = await asyncio.to_thread(self.hub.league.group_by_id, self.group_id)
        except Exception as e:
            _log.warning("table %s: its league group is unknown for now (%s)", self.id, e)
            return
        async with self.lock:
            self.group_name = None if group is None else group.name
            self.broadcast()

    def _finished_game(self) -> FinishedGame:
        """The game just over, as the league counts it (read under the lock)."""
        people, ids = self._people_at_seats()
        return FinishedGame(self._record(), self.game_number, people, ids)

    async def _tell_league_news(self, game: FinishedGame, counted_now: bool) -> None:
        """Work out (in a thread) what ``game`` changed on the group's sheet, keep it for
        the game-over panel and show it to everyone (``counted_now``: count it first if it
        is not counted yet)."""
        group_id, record, people, ids = self.group_id, game.record, game.people, game.ids
        assert group_id is not None
        link = self.hub.league

        def work() -> dict[str, Any]:
            if counted_now and not link.counted(record):
                link.count_now(group_id, record, people, ids, league_now())
            group = link.group_by_id(group_id)
            counted = link.counted(record)
            return {
                "group": None if group is None else group.name,
                "counted": counted,
                **(link.news(group_id, record) if counted
                   else {"news": [], "marks": [], "chit_due": None}),
                "game": link.key_of(record),
                "people": sorted(people.values()),
            }

        try:
            found = await asyncio.to_thread(work)
        except Exception:
            _log.exception("table %s: what the game changed in its league is unknown", self.id)
            return
        async with self.lock:
            self.group_name = found["group"]
            if game.number == self.game_number:  # no rematch meanwhile
                self.league_news = found
                self.broadcast()

    def _undo(self) -> None:
        """Put the game back where the committed log left it (from memory)."""
        self._replay(self.events, self.ended and self.stored_status == ENDED)

    def _recover(self) -> None:
        """Read the table again from the store, retrying with back-off while the store is
        away; then tell everyone and let the bots carry on. Until then the table refuses
        every change in a sentence (a commit that failed may have landed after all: only
        the log can say)."""
        self.recovering = True
        if self._recovery is None or self._recovery.done():
            self._recovery = self.hub.spawn(self._read_again())

    async def _read_again(self) -> None:
        delay = RETRY_FIRST
        while not self._closed:
            await asyncio.sleep(delay)
            try:
                data = await asyncio.to_thread(self.hub.store.load, self.id)
            except Exception as e:
                _log.info("table %s: the store is still away (%s); next try in %.1f s",
                          self.id, type(e).__name__, min(delay * 2, RETRY_MOST))
                delay = min(delay * 2, RETRY_MOST)
                continue
            async with self.lock:
                if data is not None:
                    try:
                        self._rebuild(data)
                    except Exception:
                        _log.exception("table %s: its log no longer replays; set aside",
                                       self.id)
                        self.hub.set_aside_table(self.id, "its log does not replay")
                        return
                self.recovering = False
                self.broadcast()
                self.schedule()
            _log.info("table %s: read again from the store; it takes moves again", self.id)
            return

    async def resend_view(self, listener: Listener) -> None:
        """The current view again (after a stale action), under the lock: never a state
        whose commit is still under way."""
        async with self.lock:
            self.send_view(listener)

    # --- people ---------------------------------------------------------------------------------

    async def hello(self, listener: Listener, token: str, name: str | None,
                    device: str | None = None, person_key: str | None = None) -> None:
        """Seat ``listener`` by its token (a seat's, the spectators' or the host's). A
        claimed seat is bound to the device that claimed it (``device``, a key the browser
        keeps): its link seats another device only when the seat's person allows it. At a
        league group's table a seat is taken by a member of the group (``person_key``, the
        key the group's page gave them), under the member's own name."""
        if not self.hub.leases_fresh():
            # stopped, starved or cut off longer than a lease: the table may be another's
            # by now; ask the database before seating anyone
            await self.hub.renew_leases()
            if self.hub.tables.get(self.id) is not self or not self.hub.leases_fresh():
                raise Refused("moving", MOVING)
        async with self.lock:
            found = self.tokens.get(token_hash(token))
            if found is None:
                raise Refused("bad-token", "this token opens no seat at this table")
            role, seat = found
            if role != SEAT or seat is None:
                listener.role, listener.seat = SPECTATOR, None
                self.listeners.add(listener)
                listener.send(protocol.dumps({
                    "type": "welcome", "protocol": protocol.PROTOCOL, "table": self.id,
                    "role": SPECTATOR, "seat": None, "name": None,
                }))
                self.send_view(listener)
                if self.spectators_chat:
                    self._send_chat_log(listener)
                return
            s = self.seats[seat]
            if s.kind == BOT:
                # a bot's seat shows its hand to nobody: its token opens it again only
                # once the host gives the seat back to a person
                raise Refused("bot-seat", "a bot plays this seat now: ask the host to give "
                              "it back to you, or for a new link")
            if self.ended:
                raise Refused("ended", f"this table is closed: {self.end_reason}")
            device_hash = None if device is None else token_hash(device)
            if s.name is None and self.group_id is not None:
                member = await self._member(person_key)
                await self._claim(s, member.name, device_hash, member.id)
            elif s.name is None:
                if not name:
                    raise Refused(
                        "need-name", f"seat {seat} is yours: send hello again with a name"
                    )
                await self._claim(s, name, device_hash)
            elif self.devices.get(seat) and device_hash not in self.devices[seat]:
                self._ask_for_device(listener, s, device_hash)
                return
            self._seat(listener, s)

    def _seat(self, listener: Listener, s: Seat) -> None:
        listener.role, listener.seat = SEAT, s.seat
        self.listeners.add(listener)
        s.conns += 1
        listener.send(protocol.dumps({
            "type": "welcome", "protocol": protocol.PROTOCOL, "table": self.id,
            "role": SEAT, "seat": s.seat, "name": s.name,
        }))
        if s.conns == 1:
            self.broadcast()  # no longer away: everyone sees it (the view after the welcome)
            if s.away_since and self.status == PLAYING:  # back after leaving: the others
                back = protocol.dumps({"type": "presence", "message": f"{s.name} is back."})
                for other in list(self.listeners):
                    if other is not listener:
                        other.send(back)
            if s.stood_in:
                listener.send(protocol.dumps({"type": "presence", "message": table_words(
                    self.game).stood_in(self.bot_words(self.stand_in), s.stood_in)}))
                s.stood_in.clear()
        else:
            self.send_view(listener)
        self._send_chat_log(listener)
        self.schedule()

    def _ask_for_device(self, listener: Listener, s: Seat, device_hash: str | None) -> None:
        """Another device opened a claimed seat's link: it waits, and the seat's person is
        asked on the devices they play from. Nobody else is seated silently."""
        if device_hash is None:
            raise Refused("other-device", "this seat is held on another device; this browser "
                          "did not say which device it is: reload the page")
        if s.conns == 0:
            raise Refused("other-device", "this seat is held on another device, which is not "
                          "connected: open the link there, or ask the host for a new link")
        request = secrets.token_urlsafe(8)
        self.device_requests[request] = (listener, s.seat, device_hash)
        for other in self.listeners:
            if other.role == SEAT and other.seat == s.seat:
                other.send(protocol.dumps({
                    "type": "device-request", "request": request,
                    "message": "Someone opened your seat's link on another device. Let them "
                               "play your seat from there too?",
                }))
        listener.send(protocol.dumps({
            "type": "refused", "code": "other-device", "waiting": True,
            "message": "This seat is held on another device: its player has been asked to "
                       "let this one in. Keep this page open.",
        }))

    async def allow_device(self, listener: Listener, request: str, allow: bool) -> None:
        """The seat's person answers another device's request (from a device of theirs)."""
        async with self.lock:
            waiting = self.device_requests.get(request)
            if waiting is None or listener.role != SEAT or listener.seat != waiting[1]:
                raise Refused("no-request", "there is no such request for your seat")
            other, seat, device_hash = self.device_requests.pop(request)
            if not allow:
                other.send(protocol.dumps({
                    "type": "refused", "code": "device-refused",
                    "message": "The seat's player did not let this device in.",
                }))
                other.close("the seat's player did not let this device in")
                return
            self._can_store()
            await self._commit("device", json.dumps({"seat": seat, "device": device_hash}),
                               f"seat {seat}")
            self.devices.setdefault(seat, set()).add(device_hash)
            self._seat(other, self.seats[seat])

    def forget_requests(self, listener: Listener) -> None:
        """A socket left: its requests to be let in are withdrawn, and the seat's devices
        that were asked are told (their question closes by itself)."""
        for request, (waiting, seat, _) in list(self.device_requests.items()):
            if waiting is listener:
                del self.device_requests[request]
                gone = protocol.dumps({
                    "type": "device-request-gone", "request": request,
                    "message": "The other device left before you answered.",
                })
                for other in self.listeners:
                    if other.role == SEAT and other.seat == seat:
                        other.send(gone)

    # --- talk at the table --------------------------------------------------------------------

    async def say(self, listener: Listener, text: str | None, reaction: str | None) -> None:
        """A chat line or a quick reaction from a seat (or a spectator, if the host lets
        them): stored in the table's log (never in the game's record), then told to the
        seats, and to the spectators if the host allows."""
        async with self.lock:
            self._can_store()
            seat = listener.seat if listener.role == SEAT else None
            if seat is None and not self.spectators_chat:
                raise Refused("no-chat", "spectators watch quietly at this table")
            if seat is not None and seat in self.muted:
                raise Refused("muted", "the host has muted your chat at this table")
            name = self.seat_label(seat) if seat is not None else "a spectator"
            fact: dict[str, Any] = {"seat": seat, "name": name,
                                    "at": datetime.now(UTC).isoformat(timespec="seconds")}
            if reaction is not None:
                fact.update(reaction=reaction, text=protocol.REACTIONS[reaction])
            else:
                fact["text"] = text
            await self._commit("chat", json.dumps(fact), f"seat {seat}" if seat is not None
                               else "spectator")
            self.chat.append(fact)
            message = protocol.dumps({"type": "chat", **fact})
            for other in list(self.listeners):
                if other.role == SEAT or self.spectators_chat:
                    other.send(message)

    def _send_chat_log(self, listener: Listener) -> None:
        if self.chat:
            listener.send(protocol.dumps({"type": "chat-log", "lines": list(self.chat)}))

    async def host_talk(self, spectators: bool | None, mute: int | None,
                        unmute: int | None) -> dict[str, Any]:
        """The host's say over talk: whether spectators read and write the chat, and who
        is muted."""
        async with self.lock:
            self._can_store()
            for seat in (mute, unmute):
                if seat is not None and seat not in self.seats:
                    raise Refused("bad-seat", f"seat {seat} is not a player seat here")
            fact: dict[str, Any] = {}
            if spectators is not None:
                fact["spectators"] = spectators
            if mute is not None:
                fact.update(seat=mute, muted=True)
            elif unmute is not None:
                fact.update(seat=unmute, muted=False)
            if not fact:
                raise Refused("bad-request", 'say "spectators", "mute" or "unmute"')
            await self._commit("talk", json.dumps(fact), "host")
            self._replay_table_talk("talk", fact)
            self.broadcast()
            return {"spectators": self.spectators_chat, "muted": sorted(self.muted)}

    async def _member(self, person_key: str | None) -> PersonInfo:
        """The member of this table's group whose key ``person_key`` is; Refused in a
        sentence if there is none."""
        group = await asyncio.to_thread(self.hub.league.group_by_id, self.group_id)
        where = "its group" if group is None else f"the group {group.name}"
        if person_key is None:
            raise Refused("need-member", f"this table belongs to {where}: open the group's "
                          "page and join it, then come back to this link")
        person = await asyncio.to_thread(self.hub.league.person_by_key, person_key)
        if person is None or group is None or group.name not in person.groups:
            raise Refused("not-member", f"this table belongs to {where}, and you are not "
                          "one of its members: join it from the group's page first")
        return person

    async def _claim(self, s: Seat, name: str, device_hash: str | None = None,
                     person_id: int | None = None) -> None:
        self._can_store()
        table_id, seat = self.id, s.seat

        def claim(session: Session) -> None:
            player = PlayerRow(name=name)
            session.add(player)
            session.flush()
            row = session.get(SeatRow, (table_id, seat))
            if row is not None:
                row.player_id = player.id
                row.person_id = person_id

        fact: dict[str, Any] = {"seat": seat, "name": name}
        if device_hash is not None:
            fact["device"] = device_hash
        await self._commit("seat", json.dumps(fact), f"seat {seat}", claim)
        s.name, s.person_id = name, person_id
        if device_hash is not None:
            self.devices[seat] = {device_hash}

    def leave(self, listener: Listener) -> None:
        if listener not in self.listeners:
            return
        self.listeners.discard(listener)
        if listener.role == SEAT and listener.seat is not None:
            s = self.seats.get(listener.seat)
            if s is not None and s.conns > 0:
                s.conns -= 1
                if s.conns == 0:
                    s.away_since = time.monotonic()
                    # told under the lock: a change whose commit is under way is not
                    # shown before it is stored
                    self.hub.spawn(self._announce(self._left_words(s)))

    async def _announce(self, presence: str | None = None) -> None:
        async with self.lock:
            if presence is not None:
                self._tell_everyone({"type": "presence", "message": presence})
            self.broadcast()
            self.schedule()

    def _left_words(self, s: Seat) -> str | None:
        """What everyone is told when a person's last device leaves during a game."""
        if self.status != PLAYING or s.name is None:
            return None
        if self.away_grace is None:
            return (f"{s.name} has left the table; it waits for {s.name} to come back (the "
                    "host can put a bot in the seat).")
        after = "now" if self.away_grace < 1 else f"after {_duration(self.away_grace)}"
        return (f"{s.name} has left the table: {self.bot_words(self.stand_in)} plays for "
                f"{s.name} {after}, until {s.name} is back.")

    def _can_store(self) -> None:
        """Refuse a change now, before anything is made, while the table is recovering
        or closed."""
        if self.recovering:
            raise Refused("not-stored", NOT_STORED)
        if self.ended:
            raise Refused("ended", f"this table is closed: {self.end_reason}")

    async def act(self, listener: Listener, seq: int, text: str) -> None:
        """A person's action: refused (to this listener only) unless it is for the view the
        table is at, for a seat the listener chooses for, and the engine's step takes it."""
        async with self.lock:
            if listener.role != SEAT or listener.seat is None:
                raise Refused("spectator", "spectators watch; they do not act")
            seat = self.seats[listener.seat]
            if seat.kind != PERSON:
                raise Refused(
                    "bot-seat", f"a bot plays seat {seat.seat} now; the host can give it back"
                )
            self._can_store()
            if self.status == WAITING:
                raise Refused("waiting", "the game has not started: seats are still open")
            if self.shown_claim is not None:
                raise Refused("claim-pending", self._claim_pending())
            if seq != self.seq:
                raise Refused(
                    "stale", f"this action answers view {seq}, but the table is at view "
                    f"{self.seq}: look again and resend", seq=self.seq,
                )
            try:
                action = parse_action(text.strip())
            except NotationError as e:
                raise Refused("notation", str(e)) from None
            game, state = self.game, self.runner.state
            try:
                if not 0 <= action.seat < game.num_seats:
                    game.check(state, action)  # the engine's own refusal of the seat
                if game.controller(state, action.seat) != seat.seat:
                    raise Refused(
                        "not-yours",
                        f"seat {seat.seat} does not choose for seat {action.seat} now",
                    )
                with naming(self.people()):  # a hand's last card writes its score lines
                    step(state, action)  # in memory only; undone if the commit fails
            except IllegalAction as e:
                raise Refused("illegal", str(e), rule=e.rule, allowed=e.allowed) from None
            await self._commit("action", str(action), f"seat {seat.seat} ({seat.name})")
            self.broadcast()
            self.schedule()

    # --- help for one person playing bots -----------------------------------------------------

    def _only_person(self, listener: Listener, what: str) -> Seat:
        """The listener's seat, if it is the only person's at this table (hints and undo
        would tell one person of another's cards, or take back another's choice)."""
        if listener.role != SEAT or listener.seat is None:
            raise Refused("spectator", "spectators watch; they do not act")
        people = [s for s in self.seats.values() if s.kind == PERSON]
        if len(people) != 1:
            raise Refused("not-alone", f"{what} is for a table of one person and bots")
        return self.seats[listener.seat]

    async def hint(self, listener: Listener) -> None:
        """What the strongest bot would do in the person's place, from the person's own
        observation (it sees nothing the person does not); told to that person only."""
        async with self.lock:
            seat = self._only_person(listener, "a hint")
            game, state = self.game, self.runner.state
            chooser = game.controller(state, state.to_act) if state.to_act >= 0 else -1
            if self.status != PLAYING or chooser != seat.seat:
                raise Refused("not-your-turn", "a hint is for when it is your turn")
            obs = game.observe(state, seat.seat)
            legal, seq = list(obs.legal), self.seq
            levels = bot_levels(game.name)
            level = levels[-1]
            bot = make_bot(level.bot, game, seat.seat, f"{self.runner.seed}/{seq}/hint",
                           self.hub.think)
        # thought outside the lock: the table is not held up while the bot thinks
        action = await self._decision(bot, "choose", obs, legal)
        # the action as the person would type it, without the seat: "play QS", "bid 4"
        words = str(action).split(": ", 1)[-1] if action is not None else "let it pass"
        listener.send(protocol.dumps({
            "type": "hint", "seq": seq, "action": None if action is None else str(action),
            # the card to mark in the hand, as the hand's cards are named (a field, not
            # something the page reads back out of the action's text)
            "card": card_str(action.card) if isinstance(action, Play) else None,
            "message": f"The {level.label.lower()} bot would {words} here.",
        }))

    async def undo(self, listener: Listener) -> None:
        """Take back the person's last decision of this hand, and everything after it
        (the bots choose again): stored in the log like any change."""
        async with self.lock:
            seat = self._only_person(listener, "undo")
            self._can_store()
            if self.status != PLAYING:
                raise Refused("nothing-to-undo", "undo takes back a decision of the hand in play")
            with naming(self.people()):
                taken = self.runner.take_back(seat.seat)
            if taken is None:
                raise Refused("nothing-to-undo", "you have made no decision in this hand yet")
            self._declined.clear()
            await self._commit("undo", json.dumps({"seat": seat.seat, "action": str(taken)}),
                               f"seat {seat.seat} ({seat.name})")
            self.broadcast()
            self.schedule()

    async def claim(self, listener: Listener, tricks: int | None) -> None:
        """A person claims the tricks left (or ``tricks`` of them): the solver checks it
        with every card known and the others defending their best; if proven, the rest of
        the hand is played out along its line, every card stored as an action. A claim
        that is not proven is told to its claimer only, without what the solver found
        (that would tell of cards the claimer cannot see)."""
        async with self.lock:
            if listener.role != SEAT or listener.seat is None:
                raise Refused("spectator", "spectators watch; they do not act")
            self._can_store()
            seat = self.seats[listener.seat]
            state = self.runner.state
            if state.phase is not Phase.PLAY or seat.kind != PERSON:
                raise Refused("no-claim", "a claim is made during the play of the cards")
            if self.shown_claim is not None:
                raise Refused("claim-pending", self._claim_pending())
            if not search_installed():
                await self._show_claim(seat, tricks)
                return
            verdict, plays = await asyncio.to_thread(_judge_claim, state.copy(), seat.seat,
                                                     tricks)
            if not verdict.proven:
                raise Refused("claim-refused", "the claim is not proven: the others can "
                              "still stop it. Play on.")
            self._tell_everyone({
                "type": "claim", "seat": seat.seat, "name": seat.name,
                "message": f"{seat.name} claims {verdict.claimed} of the tricks left, and the "
                           "solver proves it whatever the others play: the hand is played out.",
            })
            for play_action in plays:
                with naming(self.people()):
                    step(self.runner.state, play_action)
                await self._commit("action", str(play_action),
                                   f"seat {seat.seat} ({seat.name}), claim")
            self.broadcast()
            self.schedule()

    # --- a claim shown, where there is no solver (web/shown_claims.py) ------------------------

    def _claim_pending(self) -> str:
        assert self.shown_claim is not None
        return (f"{self.seat_label(self.shown_claim.seat)} has claimed: the play waits for "
                "the answers")

    async def _show_claim(self, seat: Seat, tricks: int | None) -> None:
        """The claim goes to the others with the claimer's cards face up. The bots on the
        other side answer at once (they agree only to a claim that is sure): one "play
        on" and the claim is refused before anyone sees a card; no person to ask, and
        it is played out."""
        state = self.runner.state
        try:
            claimed, left = claim_size(state, tricks)
        except ValueError as e:
            raise Refused("bad-claim", str(e)) from None
        side = side_of(state, seat.seat)
        asked = [s for s in sorted(self.seats) if not side >> s & 1]
        by_rules = [s for s in asked if self._answers_by_rules(s)]
        if by_rules and not await self._sure(seat.seat, claimed):
            raise Refused("claim-refused", f"{self.seat_label(by_rules[0])} plays on: the "
                          "claim is not sure whatever the others play. Play on.")
        claim = shown_claims.ShownClaim(
            seat.seat, claimed, left, protocol.cards_json(state.hands[seat.seat]), asked,
            set(by_rules))
        self.shown_claim = claim
        await self._commit("claim", json.dumps(claim.fact()), f"seat {seat.seat} ({seat.name})")
        self.broadcast()
        self.schedule()  # played out at once if nobody is left to ask

    def _answers_by_rules(self, seat: int) -> bool:
        """Whether the rules check answers for ``seat``: a bot's, or a person's away past
        the grace while a stand-in plays for them."""
        s = self.seats[seat]
        return s.kind == BOT or self._stand_in_now(s)

    async def _sure(self, seat: int, tricks: int) -> bool:
        """Whether the claim is sure (a plain-Python search, off the event loop)."""
        state = self.runner.state.copy()
        return await asyncio.to_thread(claim_is_sure, state, seat, tricks) is True

    async def answer_claim(self, listener: Listener, agree: bool) -> None:
        """A person answers the claim shown: agree, or play on (the claimer's "play on"
        takes it back)."""
        async with self.lock:
            claim = self.shown_claim
            if listener.role != SEAT or listener.seat is None:
                raise Refused("spectator", "spectators watch; they do not act")
            if claim is None:
                raise Refused("no-claim", "there is no claim to answer now")
            self._can_store()
            seat = listener.seat
            if seat == claim.seat and not agree:
                fact: dict[str, Any] = {"withdrawn": seat}
                said = f"{self.seat_label(seat)} takes the claim back: play on."
            elif seat in claim.waiting:
                fact = {"answer": seat, "agree": agree}
                said = (f"{self.seat_label(seat)} agrees to the claim." if agree else
                        f"{self.seat_label(seat)} says play on: the claim is off.")
            else:
                raise Refused("not-asked", "the claim is answered by the players of the "
                              "other side")
            self.shown_claim = shown_claims.apply(claim, fact)
            await self._commit("claim", json.dumps(fact), f"seat {seat} ({self.seat_label(seat)})")
            if self.shown_claim is None or self.shown_claim.waiting:
                self._tell_everyone({"type": "claim", "seat": claim.seat, "message": said})
            self.broadcast()
            self.schedule()

    async def _play_out_claim(self) -> None:
        """Every answer is yes: the hand is played out along a line giving the tricks
        agreed, every card stored as an action."""
        claim = self.shown_claim
        assert claim is not None
        state = self.runner.state
        plays = await asyncio.to_thread(line_giving, state.copy(), claim.seat, claim.tricks)
        self._tell_everyone({
            "type": "claim", "seat": claim.seat,
            "message": f"Everyone agrees: {self.seat_label(claim.seat)} takes {claim.tricks} "
                       f"of the {claim.left} tricks left, and the hand is played out.",
        })
        self.shown_claim = None
        for play_action in plays:
            with naming(self.people()):
                step(self.runner.state, play_action)
            await self._commit("action", str(play_action),
                               f"seat {claim.seat} ({self.seat_label(claim.seat)}), claim agreed")

    async def _rules_answer(self, seat: int) -> None:
        """A stand-in (or a bot put in the seat) answers the claim for ``seat``."""
        claim = self.shown_claim
        assert claim is not None
        agree = await self._sure(claim.seat, claim.tricks)
        fact = {"answer": seat, "agree": agree}
        self.shown_claim = shown_claims.apply(claim, fact)
        await self._commit("claim", json.dumps(fact), f"seat {seat} (stand-in)")
        if not agree:
            self._tell_everyone({
                "type": "claim", "seat": claim.seat,
                "message": f"{self.seat_label(seat)} plays on: the claim is not sure.",
            })

    # --- the host -------------------------------------------------------------------------------

    async def host_seat(self, seat: int, do: str, bot: str | None) -> dict[str, Any]:
        """Open a seat to a new person (a new invite token), fill it with a bot, or give it
        back to its person. Returns the seat and, when opened, its new token."""
        async with self.lock:
            s = self.seats.get(seat)
            if s is None:
                raise Refused(
                    "bad-seat", f"seat {seat} is not a player seat at this table "
                    f"({', '.join(map(str, self.game.player_seats))})"
                )
            self._can_store()
            table_id = self.id
            out: dict[str, Any] = {"seat": seat}
            if do == "return" and s.kind == BOT and s.token is None:
                do = "open"  # a bot's seat from the start: a person takes it by a new link
            if do == "bot":
                name = bot or "rules"
                try:
                    bot_class(name)
                except OptionError as e:
                    raise Refused("bad-bot", str(e)) from None

                def to_bot(session: Session) -> None:
                    row = session.get(SeatRow, (table_id, seat))
                    if row is not None:
                        row.kind, row.bot = BOT, name

                await self._commit("seat", json.dumps({"seat": seat, "bot": name}), "host", to_bot)
                s.kind, s.bot = BOT, name
                self._drop_seat_listeners(seat, "the host gave your seat to a bot; "
                                          "ask the host to give it back")
            elif do == "return":
                if s.kind == PERSON:
                    raise Refused("not-bot", f"seat {seat} is a person's seat already")

                def to_person(session: Session) -> None:
                    row = session.get(SeatRow, (table_id, seat))
                    if row is not None:
                        row.kind, row.bot = PERSON, None

                await self._commit("seat", json.dumps({"seat": seat, "person": True}), "host",
                                   to_person)
                s.kind, s.bot = PERSON, None
                s.away_since = time.monotonic()
            elif do == "open":
                token = secrets.token_urlsafe(24)
                new_hash = token_hash(token)
                old_hash = s.token

                def reopen(session: Session) -> None:
                    session.add(TokenRow(hash=new_hash, table_id=table_id, role=SEAT, seat=seat))
                    session.flush()
                    if old_hash is not None:
                        old = session.get(TokenRow, old_hash)
                        if old is not None:
                            old.revoked = True
                    row = session.get(SeatRow, (table_id, seat))
                    if row is not None:
                        row.kind, row.bot, row.player_id, row.token = (
                            PERSON, None, None, new_hash)
                        row.person_id = None

                await self._commit("seat", json.dumps({"seat": seat, "open": True}), "host",
                                   reopen)
                if old_hash is not None:
                    self.tokens.pop(old_hash, None)
                self.tokens[new_hash] = (SEAT, seat)
                s.kind, s.bot, s.name, s.token, s.conns = PERSON, None, None, new_hash, 0
                s.person_id = None
                s.away_since = time.monotonic()
                self.devices.pop(seat, None)
                self._drop_seat_listeners(seat, "the host opened this seat to someone else")
                out["token"] = token
            else:
                raise Refused("bad-request", "do is one of: open, bot, return")
            self.broadcast()
            self.schedule()
            return out

    def _drop_seat_listeners(self, seat: int, reason: str) -> None:
        """Close every socket on ``seat`` (it no longer sees that seat's hand)."""
        for listener in list(self.listeners):
            if listener.role == SEAT and listener.seat == seat:
                self.listeners.discard(listener)
                listener.close(reason)
        self.seats[seat].conns = 0

    async def public_link(self, seat: int | None) -> str:
        """A new link to a public table from the lobby: to watch (``seat`` None) or to take
        an open person's seat. Refused("no-table") for a table that is not public (as if
        there were none: a private table is not revealed) or ended; Refused("taken") when
        the seat is not open. The token is stored (its hash) before it is handed out."""
        async with self.lock:
            if not self.public or self.ended:
                raise Refused("no-table", "there is no such table")
            if seat is not None:
                s = self.seats.get(seat)
                if s is None or s.kind != PERSON or s.name is not None:
                    raise Refused("taken", "that seat is not open any more: pick another, or "
                                  "watch")
            self._can_store()
            token = secrets.token_urlsafe(24)
            hashed, table_id = token_hash(token), self.id
            role = SEAT if seat is not None else SPECTATOR

            def job(session: Session) -> None:
                session.add(TokenRow(hash=hashed, table_id=table_id, role=role, seat=seat))

            await self._commit("seat", json.dumps({"seat": seat, "link": role}), "lobby", job)
            self.tokens[hashed] = (role, seat)
            return token

    async def rematch(self) -> None:
        async with self.lock:
            self._can_store()
            if self.status != OVER:
                raise Refused("not-over", "a rematch follows a finished game")
            number, record = self.game_number, self._record().dumps()
            self.records.append(record)
            self.game_number += 1
            self.runner = self._new_runner()
            # The snapshot after the rematch: from here on, loading the table replays
            # only the new game's log.
            snapshot = Snapshot(self.next_n, self.game_number, self.seq + 1, self._talk_json())
            await self._commit("rematch", "", "host", lambda s: save_snapshot(
                s, self.id, snapshot, number, record))
            self.snapshot, self.snapshot_records, self.events = snapshot, list(self.records), []
            self.league_news = None
            self.broadcast()
            self.schedule()

    async def end(self, reason: str, actor: str = "host") -> None:
        """Close the table for good (its host's choice, or the server's limits): it takes
        nothing more, and says why to everyone."""
        async with self.lock:
            await self._end(reason, actor)

    async def _end(self, reason: str, actor: str) -> None:
        self._can_store()
        self.ended, self.end_reason = True, reason
        await self._commit("end", reason, actor)
        self.broadcast()
        self.schedule()

    # --- bots and the dealer ----------------------------------------------------------------------

    def schedule(self) -> None:
        """Set the timer for the table's next move of its own (a deal, a bot's choice, a
        stand-in for a person away past the grace period), if any."""
        if self._closed or self.recovering or self.ended:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        delay = self._next_delay()
        if delay is None:
            return
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(max(delay, 0.0), self._fire)

    def _fire(self) -> None:
        self._timer = None
        if self._task is None or self._task.done():
            self._task = self.hub.spawn(self._auto())

    def _next_delay(self) -> float | None:
        move = self._next_move()
        if move is None:
            return None
        return move[0]

    def _next_move(self) -> tuple[float, str, int] | None:
        """(seconds from now, what, seat): what is "deal", "offer", "choose" or "stand-in"."""
        state, game = self.runner.state, self.game
        if state.phase is Phase.GAME_OVER:
            return None
        pace = self.bot_pace
        if self.bots_only():
            pace = max(pace, BOT_ONLY_PACE)
        if state.phase in (Phase.DEAL, Phase.SCORING):
            if state.hand_number < 0 and not self.filled():
                return None
            return (0.0 if state.hand_number < 0 else pace, "deal", -1)
        if self.shown_claim is not None:
            return self._claim_move()
        chooser = game.controller(state, state.to_act)
        for a in game.legal_actions(state):
            owner = game.controller(state, a.seat)
            s = self.seats.get(owner)
            if (
                owner != chooser and s is not None and s.kind == BOT
                and (self.seq, owner) not in self._declined
            ):
                return (pace, "offer", owner)
        s = self.seats.get(chooser)
        if s is None:
            return None
        if s.kind == BOT:
            return (pace, "choose", chooser)
        due = self._stand_in_due(s)
        return None if due is None else (max(due, pace), "stand-in", chooser)

    def _stand_in_due(self, s: Seat) -> float | None:
        """Seconds from now until a stand-in plays for the person of ``s`` (none connected;
        at most 0: already), or None while they are here or the table has no grace."""
        if self.away_grace is None or s.conns != 0:
            return None
        return s.away_since + self.away_grace - time.monotonic()

    def _claim_move(self) -> tuple[float, str, int] | None:
        """While a claim is shown: its play-out once all agree; else a stand-in's answer
        for a person away past the grace (or a bot the host put in a seat asked)."""
        claim = self.shown_claim
        assert claim is not None
        if not claim.waiting:
            return (0.0, "claim", claim.seat)
        for seat in claim.waiting:
            s = self.seats[seat]
            if s.kind == BOT:
                return (0.0, "claim-answer", seat)
            due = self._stand_in_due(s)
            if due is not None:
                return (max(due, 0.0), "claim-answer", seat)
        return None

    def bots_only(self) -> bool:
        return all(s.kind == BOT for s in self.seats.values())

    async def _auto(self) -> None:
        async with self.lock:
            if self._closed or self.recovering or self.ended:
                return
            move = self._next_move()
            if move is None:
                return
            delay, what, seat = move
            if delay > 0.001 and what in ("stand-in", "claim-answer"):
                self.schedule()  # the person came back, or the grace is not over yet
                return
            try:
                if self.bots_only() and self.seq >= BOT_ONLY_MOVES:
                    await self._end(f"a table of bots alone ends after {BOT_ONLY_MOVES} "
                                    "moves", "server")
                    return
                if what == "deal":
                    await self._deal()
                elif what == "claim":
                    await self._play_out_claim()
                elif what == "claim-answer":
                    await self._rules_answer(seat)
                else:
                    await self._bot_move(what, seat)
            except Refused:
                return  # not stored: the table is recovering and carries on after it
            except Exception:
                # never a task that dies unseen: whatever failed, the table is read again
                # from its log and its bots carry on from there
                _log.exception("table %s: its own move failed at view %d", self.id, self.seq)
                self._undo()
                self._recover()
                return
            self.broadcast()
            self.schedule()

    async def _deal(self) -> None:
        deal = self.runner.deal()  # in memory only; undone if the commit fails
        dealer, cards = deal_to_record(deal)
        await self._commit("deal", json.dumps({"dealer": dealer, "deal": cards}), "dealer")

    async def _bot_move(self, what: str, seat: int) -> None:
        game, state = self.game, self.runner.state
        s = self.seats[seat]
        name = (s.bot if s.kind == BOT else self.stand_in) or "rules"
        bot = make_bot(name, game, seat, f"{self.runner.seed}/{self.seq}/{what}", self.hub.think)
        obs = game.observe(state, seat)
        legal = list(obs.legal)
        if not legal:
            return
        try:
            action = await self._decision(bot, what, obs, legal)
            if self._closed:
                return  # the table was closed (server stopping) while the bot thought
            if action is not None:
                with naming(self.people()):
                    step(state, action)  # a bot's choice is checked as a person's is
        except Exception:  # a bot's bug, whatever it is, must not stop the table
            # The details go to the server's log only: a refusal names the seat's cards
            # (its legal plays, a card it does not hold), hidden from everyone else.
            _log.exception("table %s: the %s bot failed on seat %d at view %d",
                           self.id, name, seat, self.seq)
            self._tell_everyone({
                "type": "error", "code": "bot",
                "message": f"the {name} bot failed on seat {seat}; the rules bot makes "
                           "this move for it (the server's log has the details)",
            })
            rules = make_bot("rules", game, seat, f"{self.runner.seed}/{self.seq}/{what}/rules")
            action = await self._decision(rules, what, obs, legal)
            if action is not None:
                with naming(self.people()):
                    step(state, action)
            name = "rules"
        if action is None:  # an out-of-turn chance let pass
            self._declined.add((self.seq, seat))
            return
        who = f"bot {name}" if s.kind == BOT else f"stand-in {name} for {s.name}"
        await self._commit("action", str(action), f"seat {seat} ({who})")
        if s.kind != BOT:
            s.stood_in.append(table_words(game).done(action, obs))

    @staticmethod
    async def _decision(bot: Bot, what: str, obs: Observation, legal: Sequence[Action]
                        ) -> Action | None:
        """What ``bot`` does: its choice, or for an out-of-turn chance its offer (None:
        it lets the chance pass)."""
        if what == "offer":
            return bot.offer(obs, legal)
        if bot.searches:
            # A search bot thinks for a while: off the event loop, so that the other
            # tables (and this one's seats and messages) are served meanwhile. The table's
            # lock is held, so the state it was asked about is the state it answers.
            return await asyncio.to_thread(bot.choose, obs, legal)
        return bot.choose(obs, legal)

    def _tell_everyone(self, message: dict[str, Any]) -> None:
        text = protocol.dumps(message)
        for listener in list(self.listeners):
            listener.send(text)

    def close(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def _judge_claim(state: State, seat: int, tricks: int | None
                 ) -> tuple[ClaimVerdict, list[Action]]:
    """The solver's verdict on a claim, and if proven the plays that finish the hand (on
    ``state``, a copy)."""
    from ..search.claims import judge_claim, play_out  # the solver: the search extra

    verdict = judge_claim(state, seat, tricks)
    return verdict, list(play_out(state, seat)) if verdict.proven else []


def _hash_of(token: str | None) -> str | None:
    return None if token is None else token_hash(token)


def _empty_observation(game: Game, state: State, seat: int | None) -> Observation:
    n = game.num_seats
    return Observation(
        game=game.name, seat=-1 if seat is None else seat, phase=Phase.DEAL, hand_number=-1,
        dealer=-1, to_act=-1, controls=(), hand=0, visible=(0,) * n, hand_sizes=(0,) * n,
        trick=(), led_suit=-1, tricks=(), won=(0,) * n, played=0,
        totals=game.totals_mapping(state), history=(),
    )


class Hub:
    """Every table this process holds, the store and its writer."""

    def __init__(self, store: Store, think: float | None = DEFAULT_THINK,
                 owner: str | None = None) -> None:
        self.store = store
        self.think = think
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}"
        """This process among those serving the database: the holder of its tables'
        leases (a server names itself by host and port, so that a process restarted on
        the same port takes its own tables back at once)."""
        self.fresh_until = time.monotonic() + LEASE_SECONDS
        """Until when the leases are surely this process's (their last renewal plus their
        length, on this process's clock): past it, a process that was stopped or cut off
        shows nothing more until it has renewed them."""
        self.renewing = False
        """Seconds a search bot at these tables thinks per decision (see ``Bot.think``)."""
        self.writer = Writer(store)
        self.league = LeagueLink(store.url)
        """The league of the same database, for the tables of a league group."""
        self.tables: dict[str, LiveTable] = {}
        self.set_aside: dict[str, str] = {}
        """Tables whose log cannot be replayed, and why: never served, never fatal."""
        self.tasks: set[asyncio.Task[None]] = set()
        self._loading: dict[str, asyncio.Lock] = {}

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """A task of the hub's: kept until done, cancelled at close, and its failure
        logged (never a task exception that nobody retrieves)."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            _log.error("a table task failed", exc_info=task.exception())

    async def start(self) -> None:
        """Start serving at once; the tables under way whose owner is gone are read again
        in the background (so that their bots carry on), waiting tables when someone asks
        for them. A table whose log does not replay is set aside, never fatal."""
        self.renewing = True
        self.spawn(self._keep_leases())
        self.spawn(self._housekeeping())

    async def _keep_leases(self) -> None:
        """Every RENEW_EVERY seconds: renew the leases of the tables held here (letting go of
        those another process took, handing over those the proxy now sends elsewhere),
        then take the tables under way that nobody owns (their process died)."""
        while True:
            await self.renew_leases()
            await self.adopt_orphans()
            await asyncio.sleep(RENEW_EVERY)

    def leases_fresh(self) -> bool:
        """Are this process's leases surely still its own (renewed within a lease's
        length)? Always, until the renewals start (``start``)."""
        return not self.renewing or time.monotonic() < self.fresh_until

    async def renew_leases(self) -> None:
        held = {table_id: t.epoch for table_id, t in self.tables.items()}
        asked = time.monotonic()
        try:
            lost, wanted = await asyncio.to_thread(self.store.renew_leases, self.owner, held,
                                                   LEASE_SECONDS)
        except Exception as e:
            _log.warning("the leases could not be renewed now (%s)", type(e).__name__)
            return
        self.fresh_until = asked + LEASE_SECONDS
        for table_id in lost:
            if held.get(table_id) == getattr(self.tables.get(table_id), "epoch", None):
                _log.warning("table %s: another server process took it; let go", table_id)
                self.let_go(table_id)
        for table_id in wanted:
            await self.hand_over(table_id)

    async def hand_over(self, table_id: str) -> None:
        """Give a table to the process that asked for it (between two of its changes)."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if self.tables.get(table_id) is not table:
                return
            try:
                await asyncio.to_thread(self.store.release_lease, table_id, self.owner,
                                        table.epoch)
            except Exception as e:
                _log.warning("table %s: not handed over now (%s)", table_id, type(e).__name__)
                return
            _log.info("table %s: handed over to the process the proxy chose", table_id)
            self.let_go(table_id)

    async def adopt_orphans(self) -> None:
        try:
            ids = await asyncio.to_thread(self.store.orphans, ORPHANS_AT_ONCE)
        except Exception as e:
            _log.warning("the tables under way could not be listed now (%s)", type(e).__name__)
            return
        for table_id in ids:
            if table_id not in self.tables:
                with contextlib.suppress(TableElsewhere, StoreAway):
                    await self.get(table_id)

    def let_go(self, table_id: str) -> None:
        """This process no longer owns the table: drop it; its sockets close and their
        clients reconnect (through the proxy, to the owner)."""
        self._drop(table_id, MOVING, MOVED_CODE)

    async def _housekeeping(self) -> None:
        """Every so often: end the tables nobody has touched for ABANDONED_AFTER."""
        while True:
            await asyncio.sleep(HOUSEKEEPING_EVERY)
            try:
                ended = await asyncio.to_thread(self.store.expire, ABANDONED_AFTER)
            except Exception as e:
                _log.warning("housekeeping: the store did not answer (%s)", e)
                continue
            for table_id in ended:
                self._drop(table_id, "this table was closed: nobody played at it for a "
                           "long time")

    def set_aside_table(self, table_id: str, reason: str) -> None:
        self.set_aside[table_id] = reason
        self._drop(table_id, f"this table cannot be served: {reason}")

    def _drop(self, table_id: str, reason: str, code: int = 4000) -> None:
        """Let go of a table held in memory: its timers stop and its sockets close, saying
        ``reason`` (with close ``code``)."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.close()
            for listener in list(table.listeners):
                listener.close(reason, code)

    async def get(self, table_id: str) -> LiveTable | None:
        """The table, loaded on first use; None if there is none, it is set aside, or the
        id cannot be one (nothing else reaches the database)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not valid_table_id(table_id) or table_id in self.set_aside:
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is None and table_id not in self.set_aside:
                try:
                    epoch = await asyncio.to_thread(self.store.take_lease, table_id,
                                                    self.owner, LEASE_SECONDS)
                    data = None if epoch is None else await asyncio.to_thread(
                        self.store.load, table_id)
                except TableHeld:
                    raise TableElsewhere(MOVING) from None
                except Exception as e:
                    raise StoreAway(NOT_STORED_READ) from e
                if data is None or epoch is None:
                    return None
                try:
                    table = await asyncio.to_thread(LiveTable, self, data)
                except Exception as e:
                    _log.exception("table %s: its log does not replay; set aside", table_id)
                    self.set_aside[table_id] = (
                        f"its log does not replay ({type(e).__name__}); the server's log "
                        "has the details")
                    return None
                table.epoch = epoch
                self.tables[table_id] = table
                table.schedule()
                if table.group_id is not None:
                    self.spawn(table.settle_league())
        self._loading.pop(table_id, None)
        return table

    async def create(self, spec: TableSpec, group_id: int | None = None
                     ) -> tuple[LiveTable, dict[str, Any]]:
        """A new table (of the league group ``group_id``, if given); returns it and its
        tokens (host, spectator, one per person seat), which exist nowhere else: only
        their hashes are stored. A bot's seat has no token: nobody sees its hand (the host
        gives it to a person by a new link)."""
        table_id = secrets.token_urlsafe(9)
        host = secrets.token_urlsafe(24)
        spectator = secrets.token_urlsafe(24)
        seat_tokens = {s: secrets.token_urlsafe(24) for s, who in spec.seats.items()
                       if who == PERSON}

        def job(s: Session) -> None:
            s.add(TableRow(
                id=table_id, game=spec.game, options=spec.options, seed=spec.seed,
                bot_pace=spec.bot_pace, away_grace=spec.away_grace, stand_in=spec.stand_in,
                status=WAITING, seed_chosen=spec.seed_chosen, public=spec.public,
                group_id=group_id, lease_owner=self.owner, lease_epoch=1,
            ))
            keep_alive(s, self.owner, datetime.now(UTC) + timedelta(seconds=LEASE_SECONDS))
            s.flush()
            s.add(TokenRow(hash=token_hash(host), table_id=table_id, role=HOST))
            s.add(TokenRow(hash=token_hash(spectator), table_id=table_id, role=SPECTATOR))
            for seat, token in seat_tokens.items():
                s.add(TokenRow(hash=token_hash(token), table_id=table_id, role=SEAT, seat=seat))
            s.flush()
            for seat, who in spec.seats.items():
                s.add(SeatRow(
                    table_id=table_id, seat=seat, kind=PERSON if who == PERSON else BOT,
                    bot=None if who == PERSON else who, token=_hash_of(seat_tokens.get(seat)),
                ))

        await self.writer.submit(job)
        data = TableData(
            table_id, spec.game, spec.options, spec.seed, spec.bot_pace, spec.away_grace,
            spec.stand_in, WAITING,
            [
                SeatData(seat, PERSON if who == PERSON else BOT, None if who == PERSON else who,
                         None, _hash_of(seat_tokens.get(seat)))
                for seat, who in spec.seats.items()
            ],
            {token_hash(host): (HOST, None), token_hash(spectator): (SPECTATOR, None),
             **{token_hash(t): (SEAT, s) for s, t in seat_tokens.items()}},
            seed_chosen=spec.seed_chosen, public=spec.public, group_id=group_id,
        )
        table = LiveTable(self, data)
        table.epoch = 1
        self.tables[table_id] = table
        table.schedule()
        if group_id is not None:
            self.spawn(table.settle_league())
        tokens = {
            "host": host, "spectator": spectator,
            "seats": {str(s): t for s, t in seat_tokens.items()},
        }
        return table, tokens

    def host_allowed(self, table: LiveTable, token: str | None) -> bool:
        if not token:
            return False
        found = table.tokens.get(token_hash(token))
        return found is not None and found[0] == HOST

    def any_token(self, table: LiveTable, token: str | None) -> bool:
        return bool(token) and token_hash(token or "") in table.tokens

    async def close(self) -> None:
        for table in self.tables.values():
            table.close()
        for task in list(self.tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        await asyncio.to_thread(self.writer.close)
        self.store.close()
        self.league.close()


def _duration(seconds: float) -> str:
    """A wait in words: "30 seconds", "2 minutes", "1 minute 30 seconds"."""
    whole = round(seconds)
    minutes, secs = divmod(whole, 60)
    parts = []
    if minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    if secs or not minutes:
        parts.append(f"{secs} second{'s' if secs != 1 else ''}")
    return " ".join(parts)
