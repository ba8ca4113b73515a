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
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy.orm import Session

from ..bots import DEFAULT_THINK, Bot, bot_class, bot_names, make_bot
from ..engine.actions import Action, parse_action
from ..engine.errors import IllegalAction, NotationError, OptionError
from ..engine.game import Game, game_names, make_game, step
from ..engine.observation import Observation
from ..engine.records import HandRecord, Record, deal_from_record, deal_to_record
from ..engine.state import Phase, State
from ..play.table import Table
from . import protocol
from .protocol import ProtocolError
from .store import (
    Append,
    PlayerRow,
    SeatData,
    SeatRow,
    Store,
    TableData,
    TableRow,
    TokenRow,
    Writer,
    token_hash,
)

PERSON = "person"
BOT = "bot"
WAITING, PLAYING, OVER = "waiting", "playing", "over"
HOST, SPECTATOR, SEAT = "host", "spectator", "seat"
MAX_PACE = 30.0
MAX_GRACE = 24 * 3600.0

_log = logging.getLogger(__name__)
"""What the host should see and the players may not (a bot's failure, with the seat's
cards in it): the server's log, on its standard error."""


class Listener(Protocol):
    """A connected client as a table sees it: where it sits, and a way to reach it that
    never blocks (the web layer queues the text and sends it)."""

    role: str
    seat: int | None

    def send(self, text: str) -> None: ...

    def close(self, reason: str) -> None: ...


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

    @property
    def away(self) -> bool:
        """A person's seat with nobody connected (an unclaimed seat is not 'away')."""
        return self.kind == PERSON and self.name is not None and self.conns == 0


@dataclass(frozen=True)
class TableSpec:
    game: str
    options: dict[str, Any]
    seats: dict[int, str]
    """Per player seat: "person" or a bot's name."""
    bot_pace: float
    away_grace: float | None
    stand_in: str
    seed: str


def table_spec(body: object) -> TableSpec:
    """A request to create a table, checked: the game's own options class judges the
    options; bots by their registered names. Raises ProtocolError saying what is wrong."""
    if not isinstance(body, dict):
        raise ProtocolError("bad-table", "a table is described by a JSON object")
    known = {"game", "options", "seats", "bot_pace", "away_grace", "stand_in", "seed"}
    unknown = sorted(set(body) - known)
    if unknown:
        raise ProtocolError(
            "bad-table",
            f"unknown field {unknown[0][:40]!r}; the fields: {', '.join(sorted(known))}",
        )
    name = body.get("game")
    if not isinstance(name, str) or name not in game_names():
        raise ProtocolError(
            "bad-table", f"unknown game {str(name)[:40]!r}; the games: {', '.join(game_names())}"
        )
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ProtocolError("bad-table", "options is an object of NAME: VALUE")
    try:
        game = make_game(name, options)
    except (OptionError, TypeError, ValueError) as e:
        raise ProtocolError("bad-options", str(e)) from None
    raw_seats = body.get("seats")
    if raw_seats is None:
        raw_seats = {str(s): PERSON if i == 0 else "rules" for i, s in enumerate(game.player_seats)}
    if not isinstance(raw_seats, dict):
        raise ProtocolError("bad-seats", 'seats is an object: {"0": "person", "1": "rules", ...}')
    seats: dict[int, str] = {}
    for s in game.player_seats:
        who = raw_seats.get(str(s), PERSON)
        if not isinstance(who, str) or (who != PERSON and who not in bot_names()):
            raise ProtocolError(
                "bad-seats",
                f"seat {s}: {str(who)[:40]!r} is neither 'person' nor a bot "
                f"({', '.join(bot_names())})",
            )
        seats[s] = who
    extra = sorted(set(raw_seats) - {str(s) for s in game.player_seats})
    if extra:
        raise ProtocolError(
            "bad-seats",
            f"{name} has no player seat {extra[0][:10]!r}; its seats: "
            f"{', '.join(map(str, game.player_seats))}",
        )
    pace = _number(body.get("bot_pace", 1.0), "bot_pace", 0.0, MAX_PACE)
    grace_raw = body.get("away_grace")
    grace = None if grace_raw is None else _number(grace_raw, "away_grace", 0.0, MAX_GRACE)
    stand_in = body.get("stand_in", "rules")
    if not isinstance(stand_in, str) or stand_in not in bot_names():
        raise ProtocolError("bad-table", f"stand_in is a bot: {', '.join(bot_names())}")
    seed = body.get("seed")
    if seed is None:
        seed = secrets.token_hex(16)
    elif not isinstance(seed, str | int) or isinstance(seed, bool) or len(str(seed)) > 64:
        raise ProtocolError("bad-table", "seed is a string or a number (64 characters at most)")
    return TableSpec(name, game.options.to_mapping(), seats, pace, grace, stand_in, str(seed))


def _number(raw: object, what: str, low: float, high: float) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not low <= raw <= high:
        raise ProtocolError("bad-table", f"{what} is a number of seconds from {low:g} to {high:g}")
    return float(raw)


def game_seed(seed: str, number: int) -> str:
    """The seed of a table's game ``number``. A finished game's record shows its seed;
    the next game's cannot be worked out from it without the table's own seed."""
    return hashlib.sha256(f"{seed}/game/{number}".encode()).hexdigest()[:32]


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
        self._rebuild(data)

    # --- rebuilding from the store --------------------------------------------------------

    def _rebuild(self, data: TableData) -> None:
        self.game: Game = make_game(data.game, data.options)
        self.seed = data.seed
        self.bot_pace = data.bot_pace
        self.away_grace = data.away_grace
        self.stand_in = data.stand_in
        self.stored_status = data.status
        now = time.monotonic()
        old = getattr(self, "seats", {})
        self.seats: dict[int, Seat] = {}
        for sd in data.seats:
            conns = old[sd.seat].conns if sd.seat in old and old[sd.seat].token == sd.token else 0
            self.seats[sd.seat] = Seat(sd.seat, sd.kind, sd.bot, sd.name, sd.token, conns, now)
        self.tokens: dict[str, tuple[str, int | None]] = dict(data.tokens)
        self.game_number = 0
        self.records: list[Record] = []
        self.runner = self._new_runner()
        self.seq = 0
        self.next_n = 0
        self._declined: set[tuple[int, int]] = set()
        for n, kind, text, _actor in data.events:
            self.next_n = n + 1
            if kind == "deal":
                obj = json.loads(text)
                deal = deal_from_record(
                    self.game, HandRecord(obj["dealer"], obj["deal"], []), "log"
                )
                step(self.runner.state, deal)
            elif kind == "action":
                step(self.runner.state, parse_action(text))
            elif kind == "rematch":
                self.records.append(self._record())
                self.game_number += 1
                self.runner = self._new_runner()
            else:
                continue  # seat changes are kept in the seat rows; the log is their history
            self.seq += 1

    def _new_runner(self) -> Table:
        agents = {s: _NotAsked() for s in self.game.player_seats}
        return Table(self.game, agents, game_seed(self.seed, self.game_number))

    async def reload(self) -> None:
        """Throw the memory away and read the table again (after a failed commit)."""
        data = await asyncio.to_thread(self.hub.store.load, self.id)
        if data is None:
            return
        self._rebuild(data)
        self.broadcast()
        self.schedule()

    # --- what the table is ------------------------------------------------------------------

    @property
    def state_phase(self) -> Phase:
        return self.runner.state.phase

    @property
    def status(self) -> str:
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
            return f"{s.bot} (bot)"
        return s.name or f"seat {seat} (open)"

    def _record(self) -> Record:
        self.runner.names = {s: self.seat_label(s) for s in self.game.player_seats}
        return self.runner.record({"table": self.id, "game_number": self.game_number})

    def record(self, number: int) -> Record:
        """Finished game ``number``'s record; Refused if there is none (yet)."""
        if 0 <= number < len(self.records):
            return self.records[number]
        if number == self.game_number and self.status == OVER:
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
                else seat.bot, "bot": seat.bot, "away": seat.away,
                "open": seat.kind == PERSON and seat.name is None,
                "stand_in": self._stand_in_now(seat),
            })
        return out

    def _stand_in_now(self, seat: Seat) -> bool:
        return (
            seat.kind == PERSON and self.away_grace is not None and seat.conns == 0
            and time.monotonic() - seat.away_since >= self.away_grace
        )

    def summary_json(self) -> dict[str, Any]:
        return {
            "protocol": protocol.PROTOCOL, "table": self.id, "game": self.game.name,
            "title": self.game.title,
            "options": self.game.options.to_mapping(include_defaults=True),
            "status": self.status, "seq": self.seq, "game_number": self.game_number,
            "seats": self.seats_json(), "bot_pace": self.bot_pace,
            "away_grace": self.away_grace, "stand_in": self.stand_in,
            "records": list(range(len(self.records) + (self.status == OVER))),
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

    def view(self, role: str, seat: int | None) -> dict[str, Any]:
        obs = self.observation_for(seat if role == SEAT else None)
        state = self.runner.state
        return {
            "type": "view",
            "protocol": protocol.PROTOCOL,
            "table": self.id,
            "seq": self.seq,
            "game_number": self.game_number,
            "status": self.status,
            "game": self.game.name,
            "title": self.game.title,
            "options": self.game.options.to_mapping(include_defaults=True),
            "you": {"role": role, "seat": seat if role == SEAT else None},
            "seats": self.seats_json(),
            "to_act": state.to_act,
            "legal": obs["legal"],
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
            "summary": (protocol.jsonable(self.game.game_summary(state))
                        if state.phase == Phase.GAME_OVER else None),
            "observation": obs,
        }

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
        it is committed. On failure the table is reloaded from the store and Refused."""
        n = self.next_n
        status = self.status
        append = Append(self.id, n, kind, text, actor,
                        status if status != self.stored_status else None, extra)
        try:
            await asyncio.shield(self.hub.writer.submit(append))
        except Exception:
            await self.reload()
            raise Refused(
                "not-stored", "the server could not store this; the table was reloaded, "
                "try again from the current view"
            ) from None
        self.next_n = n + 1
        self.stored_status = status

    # --- people ---------------------------------------------------------------------------------

    async def hello(self, listener: Listener, token: str, name: str | None) -> None:
        """Seat ``listener`` by its token (a seat's, the spectators' or the host's)."""
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
                return
            s = self.seats[seat]
            if s.name is None:
                if not name:
                    raise Refused(
                        "need-name", f"seat {seat} is yours: send hello again with a name"
                    )
                await self._claim(s, name)
            listener.role, listener.seat = SEAT, seat
            self.listeners.add(listener)
            s.conns += 1
            listener.send(protocol.dumps({
                "type": "welcome", "protocol": protocol.PROTOCOL, "table": self.id,
                "role": SEAT, "seat": seat, "name": s.name,
            }))
            if s.conns == 1:
                self.broadcast()  # no longer away: everyone sees it
            else:
                self.send_view(listener)
            self.schedule()

    async def _claim(self, s: Seat, name: str) -> None:
        table_id, seat = self.id, s.seat

        def claim(session: Session) -> None:
            player = PlayerRow(name=name)
            session.add(player)
            session.flush()
            row = session.get(SeatRow, (table_id, seat))
            if row is not None:
                row.player_id = player.id

        await self._commit("seat", json.dumps({"seat": seat, "name": name}),
                           f"seat {seat}", claim)
        s.name = name

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
                    self.broadcast()
                    self.schedule()

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
            if self.status == WAITING:
                raise Refused("waiting", "the game has not started: seats are still open")
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
                step(state, action)
            except IllegalAction as e:
                raise Refused("illegal", str(e), rule=e.rule, allowed=e.allowed) from None
            self.seq += 1
            await self._commit("action", str(action), f"seat {seat.seat} ({seat.name})")
            self.broadcast()
            self.schedule()

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
            table_id = self.id
            out: dict[str, Any] = {"seat": seat}
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

                await self._commit("seat", json.dumps({"seat": seat, "open": True}), "host",
                                   reopen)
                if old_hash is not None:
                    self.tokens.pop(old_hash, None)
                self.tokens[new_hash] = (SEAT, seat)
                s.kind, s.bot, s.name, s.token, s.conns = PERSON, None, None, new_hash, 0
                s.away_since = time.monotonic()
                for listener in list(self.listeners):
                    if listener.role == SEAT and listener.seat == seat:
                        self.listeners.discard(listener)
                        listener.close("the host opened this seat to someone else")
                out["token"] = token
            else:
                raise Refused("bad-request", "do is one of: open, bot, return")
            self.broadcast()
            self.schedule()
            return out

    async def rematch(self) -> None:
        async with self.lock:
            if self.status != OVER:
                raise Refused("not-over", "a rematch follows a finished game")
            self.records.append(self._record())
            self.game_number += 1
            self.runner = self._new_runner()
            self.seq += 1
            await self._commit("rematch", "", "host")
            self.broadcast()
            self.schedule()

    # --- bots and the dealer ----------------------------------------------------------------------

    def schedule(self) -> None:
        """Set the timer for the table's next move of its own (a deal, a bot's choice, a
        stand-in for a person away past the grace period), if any."""
        if self._closed:
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
            self._task = asyncio.get_running_loop().create_task(self._auto())
            self.hub.tasks.add(self._task)
            self._task.add_done_callback(self.hub.tasks.discard)

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
        if state.phase in (Phase.DEAL, Phase.SCORING):
            if state.hand_number < 0 and not self.filled():
                return None
            return (0.0 if state.hand_number < 0 else pace, "deal", -1)
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
        if self.away_grace is not None and s.conns == 0:
            due = s.away_since + self.away_grace - time.monotonic()
            return (max(due, pace), "stand-in", chooser)
        return None

    async def _auto(self) -> None:
        async with self.lock:
            if self._closed:
                return
            move = self._next_move()
            if move is None:
                return
            delay, what, seat = move
            if delay > 0.001 and what == "stand-in":
                self.schedule()  # the person came back, or the grace is not over yet
                return
            try:
                if what == "deal":
                    await self._deal()
                else:
                    await self._bot_move(what, seat)
            except Refused:
                pass  # not stored: the table reloaded itself and will try again
            self.broadcast()
            self.schedule()

    async def _deal(self) -> None:
        deal = self.runner.deal()
        self.seq += 1
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
                step(state, action)
            name = "rules"
        if action is None:  # an out-of-turn chance let pass
            self._declined.add((self.seq, seat))
            return
        self.seq += 1
        who = f"bot {name}" if s.kind == BOT else f"stand-in {name} for {s.name}"
        await self._commit("action", str(action), f"seat {seat} ({who})")

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

    def __init__(self, store: Store, think: float | None = DEFAULT_THINK) -> None:
        self.store = store
        self.think = think
        """Seconds a search bot at these tables thinks per decision (see ``Bot.think``)."""
        self.writer = Writer(store)
        self.tables: dict[str, LiveTable] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self._loading: dict[str, asyncio.Lock] = {}

    async def start(self) -> None:
        """Rebuild every table that is not over, so their bots carry on."""
        ids = await asyncio.to_thread(self.store.table_ids, (WAITING, PLAYING))
        for table_id in ids:
            await self.get(table_id)

    async def get(self, table_id: str) -> LiveTable | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is None:
                data = await asyncio.to_thread(self.store.load, table_id)
                if data is None:
                    return None
                table = LiveTable(self, data)
                self.tables[table_id] = table
                table.schedule()
        self._loading.pop(table_id, None)
        return table

    async def create(self, spec: TableSpec) -> tuple[LiveTable, dict[str, Any]]:
        """A new table; returns it and its tokens (host, spectator, one per person seat),
        which exist nowhere else: only their hashes are stored."""
        table_id = secrets.token_urlsafe(9)
        host = secrets.token_urlsafe(24)
        spectator = secrets.token_urlsafe(24)
        seat_tokens = {s: secrets.token_urlsafe(24) for s in spec.seats}

        def job(s: Session) -> None:
            s.add(TableRow(
                id=table_id, game=spec.game, options=spec.options, seed=spec.seed,
                bot_pace=spec.bot_pace, away_grace=spec.away_grace, stand_in=spec.stand_in,
                status=WAITING,
            ))
            s.flush()
            s.add(TokenRow(hash=token_hash(host), table_id=table_id, role=HOST))
            s.add(TokenRow(hash=token_hash(spectator), table_id=table_id, role=SPECTATOR))
            for seat, token in seat_tokens.items():
                s.add(TokenRow(hash=token_hash(token), table_id=table_id, role=SEAT, seat=seat))
            s.flush()
            for seat, who in spec.seats.items():
                s.add(SeatRow(
                    table_id=table_id, seat=seat, kind=PERSON if who == PERSON else BOT,
                    bot=None if who == PERSON else who, token=token_hash(seat_tokens[seat]),
                ))

        await self.writer.submit(job)
        data = TableData(
            table_id, spec.game, spec.options, spec.seed, spec.bot_pace, spec.away_grace,
            spec.stand_in, WAITING,
            [
                SeatData(seat, PERSON if who == PERSON else BOT, None if who == PERSON else who,
                         None, token_hash(seat_tokens[seat]))
                for seat, who in spec.seats.items()
            ],
            {token_hash(host): (HOST, None), token_hash(spectator): (SPECTATOR, None),
             **{token_hash(t): (SEAT, s) for s, t in seat_tokens.items()}},
        )
        table = LiveTable(self, data)
        self.tables[table_id] = table
        table.schedule()
        tokens = {
            "host": host, "spectator": spectator,
            "seats": {str(s): t for s, t in seat_tokens.items() if spec.seats[s] == PERSON},
            "bot_seats": {str(s): t for s, t in seat_tokens.items() if spec.seats[s] != PERSON},
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

