"""The ASGI app (Starlette): the HTTP API to create and run tables, the table socket, and
the browser client's pages. Routes and messages are described in docs/protocol.md."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..bots import DEFAULT_THINK, bot_class, bot_names
from ..engine.errors import OptionError
from ..engine.game import game_class, game_names
from ..engine.records import MAX_RECORD_BYTES
from ..play.opponents import bot_levels, default_opponent
from . import protocol
from .league_routes import league_routes
from .limits import CreationLimit, SocketCount
from .limits import hello_timeout as hello_seconds
from .protocol import ProtocolError, RateLimit, parse_client_message
from .replay import ReplayBusy, close_replays, run_replay
from .spec import parse_json_body, parse_mark_request, parse_seat_request, table_spec
from .store import Store
from .tables import (
    MOVED_CODE,
    NOT_STORED_READ,
    SPECTATOR,
    Hub,
    LiveTable,
    Refused,
    StoreAway,
    TableElsewhere,
)

if TYPE_CHECKING:
    from ..league.store import LeagueStore

MAX_BODY = 16 * 1024
OUTBOX_LIMIT = 512
"""Messages waiting for one socket; a client that reads slower than this is dropped (it
reconnects and gets the current view) so it holds no memory of the server's."""


_log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
"""The browser client: plain ES modules, CSS and pages, shipped in the package (no build)."""


def _page(name: str) -> Response:
    # pages are static; what a page shows comes over the API and the socket
    return FileResponse(STATIC / name, media_type="text/html",
                        headers={"cache-control": "no-cache"})


class BodyTooLarge(Exception):
    pass


async def _body(request: Request, limit: int) -> bytes:
    """The request's body, read no further than ``limit`` bytes (a larger one is refused
    before it is all in memory)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)
    return b"".join(chunks)


async def _json_of(request: Request, what: str) -> Any:
    """The request's body read as JSON (``what`` names it), or the answer that refuses it:
    413 over MAX_BODY, 400 when it is not JSON a table can take."""
    try:
        body = await _body(request, MAX_BODY)
    except BodyTooLarge:
        return _error(413, "too-large", f"{what} is at most {MAX_BODY} bytes")
    try:
        return parse_json_body(body, what)
    except ProtocolError as e:
        return _error(400, e.code, e.message)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _address(connection: Request | WebSocket) -> str:
    """The client's address (behind a proxy, uvicorn's --proxy-headers sets it from
    X-Forwarded-For for trusted proxies)."""
    return connection.client.host if connection.client else "unknown"


async def _store_away(request: Request, exc: Exception) -> Response:
    """The database being away is not a defect: 503, try again (nothing was changed)."""
    _log.warning("%s %s: the database did not answer (%s)", request.method,
                 request.url.path, type(exc).__name__)
    away = _error(503, "store-away", NOT_STORED_READ)
    away.headers["retry-after"] = "2"
    return away


async def _internal_error(request: Request, exc: Exception) -> Response:
    """A defect, never a traceback for the client: one line, the details in the log."""
    _log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return _error(500, "internal", "the server failed on this request; its log says why")


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.query_params.get("token")


class Connection:
    """One socket: a queue of texts to send, drained by its own task, so a slow client
    never holds up a table."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.role = SPECTATOR
        self.seat: int | None = None
        self.joined = False
        self.closing: str | None = None
        self.close_code = 4000
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._task = asyncio.get_running_loop().create_task(self._drain())

    def send(self, text: str) -> None:
        if self.closing is not None:
            return
        if self._queue.qsize() >= OUTBOX_LIMIT:
            self.close("this client reads too slowly; reconnect for the current view")
            return
        self._queue.put_nowait(text)

    def close(self, reason: str, code: int = 4000, tell: bool = True) -> None:
        """Close the socket after what is queued, saying why (``tell``: as an error
        message of code "closed"; else the caller has said it) with close ``code``."""
        if self.closing is not None:
            return
        if tell:
            said = "moved" if code == MOVED_CODE else "closed"  # moved: reconnect at once
            self._queue.put_nowait(protocol.dumps({"type": "error", "code": said,
                                                   "message": reason}))
        self.closing = reason
        self.close_code = code
        self._queue.put_nowait(None)

    async def _drain(self) -> None:
        ws = self.websocket
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    await ws.close(code=self.close_code)
                    return
                await ws.send_text(text)
        except Exception as e:
            # Never a socket that silently stops hearing: close it, saying why (if it is
            # still there to be told); the client reconnects for the current view.
            self.closing = self.closing or "a message could not be sent"
            _log.info("a socket's send failed (%s); closing it", type(e).__name__)
            with contextlib.suppress(Exception):
                await ws.close(code=1011, reason="a message could not be sent; reconnect")
            return

    async def finish(self) -> None:
        if self.closing is None:
            self._queue.put_nowait(None)
            self.closing = "done"
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(self._task, 2.0)


def create_app(
    db_url: str | None = None,
    store: Store | None = None,
    rate: tuple[float, float] = (protocol.RATE_PER_SECOND, protocol.RATE_BURST),
    think: float | None = DEFAULT_THINK,
    owner: str | None = None,
) -> Starlette:
    """The app over the database at ``db_url`` (or an open ``store``); ``rate`` is the
    messages a socket may send per second and in a burst; ``think`` the seconds a search
    bot thinks per decision (None: a fixed search); ``owner`` names this process among
    the servers of the database (the holder of its tables' leases)."""
    holder: dict[str, Hub] = {}
    creations = CreationLimit.from_environment()
    sockets = SocketCount.from_environment()
    hello_timeout = hello_seconds()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub = Hub(store if store is not None else await asyncio.to_thread(Store, db_url), think,
                  owner)
        holder["hub"] = hub
        app.state.hub = hub
        await asyncio.to_thread(hub.league.store)  # the league's tables, made or upgraded
        await hub.start()
        try:
            yield
        finally:
            await hub.close()
            close_replays()

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    async def table_of(request: Request) -> LiveTable | Response:
        hub, table_id = hub_of(request), request.path_params["table_id"]
        try:
            table = await hub.get(table_id)
        except StoreAway as e:
            away = _error(503, "store-away", str(e))
            away.headers["retry-after"] = "2"
            return away
        except TableElsewhere as e:
            moving = _error(503, "moving", str(e))
            moving.headers["retry-after"] = "1"
            return moving
        if table is None:
            reason = hub.set_aside.get(table_id)
            if reason is not None:
                return _error(409, "set-aside", f"this table cannot be served: {reason}")
            return _error(404, "no-table", "there is no such table")
        return table

    async def index(request: Request) -> Response:
        return _page("lobby.html")

    async def play_page(request: Request) -> Response:
        return _page("table.html")

    async def replay_page(request: Request) -> Response:
        return _page("replay.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "icons" / "icon-192.png", media_type="image/png",
                            headers={"cache-control": "max-age=86400"})

    async def manifest(request: Request) -> Response:
        # what a phone's "add to home screen" reads: the table opens like an app
        return FileResponse(STATIC / "manifest.webmanifest",
                            media_type="application/manifest+json",
                            headers={"cache-control": "no-cache"})

    async def replay_record(request: Request) -> Response:
        """A record (the body) for the replay viewer: without ``?hand=N`` the game's facts,
        its hands and their results; with it hand N's frames, or with ``&review=1`` hand N's
        double-dummy review in sentences. ``?seat=N`` for one seat's view, all hands open
        otherwise (docs/protocol.md)."""
        try:
            body = await _body(request, MAX_RECORD_BYTES)
        except BodyTooLarge:
            return _error(413, "too-large",
                          f"a record is at most {MAX_RECORD_BYTES // 2**20} MiB")
        seat_text = request.query_params.get("seat", "all")
        try:
            seat = None if seat_text in ("", "all") else int(seat_text)
        except ValueError:
            return _error(400, "bad-seat", "seat is a seat number or 'all'")
        hand_text = request.query_params.get("hand", "")
        try:
            hand = int(hand_text) if hand_text else None
        except ValueError:
            return _error(400, "bad-hand", "hand is a hand's number in the record, from 1")

        review = request.query_params.get("review", "") in ("1", "true")
        if review and hand is None:
            return _error(400, "bad-hand", "a review is of one hand: say which (?hand=N)")
        try:
            outcome, content = await run_replay(body, seat, hand, review)
        except ReplayBusy as e:
            busy = _error(503, "busy", str(e))
            busy.headers["retry-after"] = "1"
            return busy
        if outcome == "too-large":
            return _error(413, "too-large", content.decode())
        if outcome != "ok":
            return _error(400, outcome, content.decode())
        return Response(content, media_type="application/json")

    async def games(request: Request) -> Response:
        out = []
        for name in game_names():
            cls = game_class(name)
            try:
                game: Any = cls()
                seats: Any = game.num_seats
                player_seats: Any = list(game.player_seats)
                needs = None
            except OptionError as e:  # the table depends on an option with no default
                seats = player_seats = None
                needs = str(e)
            out.append({
                "game": name, "title": cls.title, "seats": seats,
                "default_bot": default_opponent(name),
                "levels": [asdict(level) for level in bot_levels(name)],
                "player_seats": player_seats, "needs": needs,
                "options": [
                    # what a new table gets when the option is not given
                    {"name": o.name, "type": o.type, "default": o.new_game_default,
                     "doc": o.doc,
                     "choices": list(o.choices) if o.choices else None,
                     "minimum": o.minimum, "maximum": o.maximum}
                    for o in cls.options_type.describe()
                ],
            })
        bots = [{"bot": b, "description": bot_class(b).description} for b in bot_names()]
        return JSONResponse({"protocol": protocol.PROTOCOL, "games": out, "bots": bots})

    async def list_tables(request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(hub_of(request).store.listing, 200))

    async def create_table(request: Request) -> Response:
        if not creations.allow(_address(request)):
            return _error(429, "rate", "too many new tables from this address: at most "
                          f"{creations.per_minute:g} a minute; try again in a minute")
        asked = await _json_of(request, "a table request")
        if isinstance(asked, Response):
            return asked
        try:
            spec = table_spec(asked)
        except ProtocolError as e:
            return _error(400, e.code, e.message)
        group_id = None
        if spec.group is not None:
            group = await asyncio.to_thread(hub_of(request).league.group_by_token, spec.group)
            if group is None:
                return _error(404, "no-group", "there is no league group with this link: "
                              "ask one of its members for the group's link")
            group_id = group.id
        table, tokens = await hub_of(request).create(spec, group_id)
        base = str(request.base_url).rstrip("/")
        return JSONResponse({
            **table.summary_json(),
            "host_token": tokens["host"],
            "spectator": {"token": tokens["spectator"],
                          "url": f"{base}/play/{table.id}#token={tokens['spectator']}"},
            "invites": {
                seat: {"token": t, "url": f"{base}/play/{table.id}#token={t}"}
                for seat, t in tokens["seats"].items()
            },
            "socket": f"/ws/{table.id}",
        }, status_code=201)

    async def get_table(request: Request) -> Response:
        table = await table_of(request)
        if not isinstance(table, LiveTable):
            return table
        return JSONResponse(table.summary_json())

    async def get_record(request: Request) -> Response:
        table = await table_of(request)
        if not isinstance(table, LiveTable):
            return table
        if not hub_of(request).any_token(table, _bearer(request)):
            return _error(403, "bad-token", "a record is given to a token of its table")
        try:
            number = int(request.path_params["number"])
            async with table.lock:  # never a game whose last action is still being stored
                record = table.record(number)
        except ValueError:
            return _error(404, "no-record", "a game is named by its number from 0")
        except Refused as r:
            return _error(404, r.code, r.message)
        return Response(
            record.dumps(), media_type="application/json",
            headers={"content-disposition":
                     f'attachment; filename="{table.id}-{number}.json"'},
        )

    async def hosted(request: Request, what: str | None
                     ) -> tuple[LiveTable, Any] | Response:
        """The table of a host's request and its body read as JSON (``what`` names it; None:
        no body), or the answer that refuses it: no such table, not the host, too large,
        not JSON."""
        table = await table_of(request)
        if not isinstance(table, LiveTable):
            return table
        if not hub_of(request).host_allowed(table, _bearer(request)):
            return _error(403, "not-host", "only the table's host (its host token) may do that")
        if what is None:
            return table, None
        asked = await _json_of(request, what)
        return asked if isinstance(asked, Response) else (table, asked)

    async def host_seat(request: Request) -> Response:
        asked = await hosted(request, "a seat request")
        if isinstance(asked, Response):
            return asked
        table, obj = asked
        seat_text = request.path_params["seat"]
        if not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) < 3):
            return _error(404, "bad-seat", "a seat is named by its number")
        try:
            do, bot = parse_seat_request(obj)
            result = await asyncio.shield(table.host_seat(int(seat_text), do, bot))
        except ProtocolError as e:
            return _error(400, e.code, e.message)
        except Refused as r:
            return _error(409, r.code, r.message)
        if "token" in result:
            base = str(request.base_url).rstrip("/")
            result["url"] = f"{base}/play/{table.id}#token={result['token']}"
        return JSONResponse(result)

    async def host_talk(request: Request) -> Response:
        asked = await hosted(request, "a talk request")
        if isinstance(asked, Response):
            return asked
        table, obj = asked
        spectators, mute, unmute = (obj.get(k) if isinstance(obj, dict) else None
                                    for k in ("spectators", "mute", "unmute"))
        if (not isinstance(obj, dict) or (spectators is not None and
                                          not isinstance(spectators, bool))
                or any(v is not None and (type(v) is not int) for v in (mute, unmute))):
            return _error(400, "bad-request", 'the body is {"spectators": true|false} or '
                          '{"mute": SEAT} or {"unmute": SEAT}')
        try:
            result = await asyncio.shield(table.host_talk(spectators, mute, unmute))
        except Refused as r:
            return _error(409, r.code, r.message)
        return JSONResponse(result)

    async def mark_game(request: Request) -> Response:
        """A member at a group's table marks its finished game (bonehead, zero buddy, the
        tray person's chit): the seat's token as bearer."""
        table = await table_of(request)
        if not isinstance(table, LiveTable):
            return table
        token = _bearer(request)
        if not token or not hub_of(request).any_token(table, token):
            return _error(403, "not-member", "only the group's members at this table mark its "
                          "games: open your seat's link")
        asked = await _json_of(request, "a mark")
        if isinstance(asked, Response):
            return asked
        try:
            mark = parse_mark_request(asked)
        except ProtocolError as e:
            return _error(400, e.code, e.message)
        try:
            await asyncio.shield(table.add_mark(token, *mark))
        except Refused as r:
            return _error(409, r.code, r.message)
        return JSONResponse({"league": table.view("spectator", None)["league"]})

    async def public_link(request: Request) -> Response:
        """A link to watch a public table, or to take one of its open seats (the lobby's
        list of open tables): ``{}`` or ``{"seat": N}``."""
        if not creations.allow(_address(request)):
            return _error(429, "rate", "too many new links from this address: try again in "
                          "a minute")
        table = await table_of(request)
        if not isinstance(table, LiveTable):
            return table
        asked = await _json_of(request, "a link request")
        if isinstance(asked, Response):
            return asked
        seat = asked.get("seat") if isinstance(asked, dict) else None
        if not isinstance(asked, dict) or set(asked) - {"seat"} or (
                seat is not None and type(seat) is not int):
            return _error(400, "bad-request", 'the body is {} (to watch) or {"seat": N}')
        try:
            token = await asyncio.shield(table.public_link(seat))
        except Refused as r:
            return _error(404 if r.code == "no-table" else 409, r.code, r.message)
        return JSONResponse({"url": f"/play/{table.id}#token={token}"})

    async def end_table(request: Request) -> Response:
        return await host_does(request, lambda table: table.end("the host ended the table"))

    async def rematch(request: Request) -> Response:
        return await host_does(request, lambda table: table.rematch())

    async def host_does(request: Request,
                        change: Callable[[LiveTable], Awaitable[None]]) -> Response:
        """A host's change with no body (end, rematch): the table's summary after it."""
        asked = await hosted(request, None)
        if isinstance(asked, Response):
            return asked
        table = asked[0]
        try:
            await asyncio.shield(change(table))
        except Refused as r:
            return _error(409, r.code, r.message)
        return JSONResponse(table.summary_json())

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        address = _address(websocket)
        if not sockets.take(address):
            await websocket.send_text(protocol.dumps({
                "type": "error", "code": "too-many-sockets",
                "message": f"at most {sockets.limit} open sockets from one address",
            }))
            await websocket.close(code=4429)
            return
        try:
            hub, table_id = hub_of(websocket), websocket.path_params["table_id"]
            try:
                table = await hub.get(table_id)
            except StoreAway as e:  # the client reconnects by itself, and finds it then
                await websocket.send_text(protocol.dumps(
                    {"type": "error", "code": "store-away", "message": str(e)}))
                await websocket.close(code=1013)
                return
            except TableElsewhere as e:  # handed over in a moment: the client comes back
                await websocket.send_text(protocol.dumps(
                    {"type": "error", "code": "moving", "message": str(e)}))
                await websocket.close(code=MOVED_CODE)
                return
            if table is None:
                reason = hub.set_aside.get(table_id)
                message = (f"this table cannot be served: {reason}" if reason
                           else "there is no such table")
                await websocket.send_text(protocol.dumps(
                    {"type": "error", "code": "set-aside" if reason else "no-table",
                     "message": message}))
                await websocket.close(code=4404)
                return
            conn = Connection(websocket)
            try:
                await _serve_socket(table, conn, websocket, RateLimit(*rate), hello_timeout)
            finally:
                table.forget_requests(conn)
                table.leave(conn)
                await conn.finish()
        finally:
            sockets.give_back(address)

    return Starlette(
        routes=[
            Route("/", index),
            Route("/play/{table_id}", play_page),
            Route("/replay", replay_page),
            Route("/favicon.ico", favicon),
            Route("/manifest.webmanifest", manifest),
            Route("/api/replay", replay_record, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
            Route("/api/games", games),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table_id}", get_table),
            Route("/api/tables/{table_id}/records/{number}", get_record),
            Route("/api/tables/{table_id}/seats/{seat}", host_seat, methods=["POST"]),
            Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
            Route("/api/tables/{table_id}/end", end_table, methods=["POST"]),
            Route("/api/tables/{table_id}/marks", mark_game, methods=["POST"]),
            Route("/api/tables/{table_id}/public-link", public_link, methods=["POST"]),
            Route("/api/tables/{table_id}/talk", host_talk, methods=["POST"]),
            WebSocketRoute("/ws/{table_id}", socket),
            *league_routes(cast("LeagueStore", _HubLeague(holder))),
        ],
        lifespan=lifespan,
        exception_handlers={SQLAlchemyError: _store_away, Exception: _internal_error},
    )


class _HubLeague:
    """The league of the app's hub, for the league's routes, which are made before the hub
    (it opens in the app's lifespan)."""

    def __init__(self, holder: dict[str, Hub]) -> None:
        self._holder = holder

    def __getattr__(self, name: str) -> Any:
        return getattr(self._holder["hub"].league.store(), name)


async def _serve_socket(
    table: LiveTable, conn: Connection, websocket: WebSocket, limiter: RateLimit,
    hello_timeout: float,
) -> None:
    opened = time.monotonic()
    talk = RateLimit(protocol.CHAT_PER_SECOND, protocol.CHAT_BURST)
    while conn.closing is None:
        try:
            if conn.joined:
                message = await websocket.receive()
            else:
                # a socket that never says hello holds a place for nothing: it has a few
                # seconds to say it, then it is closed
                left = hello_timeout - (time.monotonic() - opened)
                message = await asyncio.wait_for(websocket.receive(), max(left, 0.0))
        except TimeoutError:
            conn.send(protocol.dumps({
                "type": "error", "code": "hello-timeout",
                "message": f"say hello within {hello_timeout:g} seconds of connecting",
            }))
            conn.close("no hello", code=4408, tell=False)
            return
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        raw: Any = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        if not limiter.allow():
            if limiter.refused_in_a_row >= protocol.FLOOD_CLOSE:
                conn.close("too many messages: this socket is closed")
                return
            if limiter.refused_in_a_row == 1 or limiter.refused_in_a_row % 10 == 0:
                conn.send(protocol.dumps({
                    "type": "error", "code": "rate",
                    "message": f"too many messages: at most {limiter.rate:g} a "
                    "second; messages past the limit are dropped",
                }))
            continue
        try:
            msg = parse_client_message(raw)
        except ProtocolError as e:
            conn.send(protocol.dumps({"type": "error", "code": e.code, "message": e.message}))
            continue
        kind = msg["type"]
        try:
            if kind == "ping":
                conn.send(protocol.dumps({"type": "pong", "seq": table.seq}))
            elif kind == "hello":
                if conn.joined:
                    raise Refused("already", "this socket has said hello already")
                try:
                    await asyncio.shield(table.hello(conn, msg["token"], msg.get("name"),
                                                     msg.get("device"), msg.get("person")))
                except Refused as r:
                    if r.code in ("bad-token", "bot-seat", "ended", "moving"):
                        conn.send(protocol.dumps(r.message_json()))
                        conn.close(r.message, MOVED_CODE if r.code == "moving" else 4000)
                        return
                    raise
                conn.joined = True  # seated, or waiting to be let in: no hello timer
            elif conn not in table.listeners:  # every other message needs a seat (or a
                # spectator's place): a device waiting to be let in may not act yet
                raise Refused("hello-first", "say hello with a token first (a device "
                              "waiting to be let in cannot act yet)")
            elif kind == "action":
                await asyncio.shield(table.act(conn, msg["seq"], msg["action"]))
            elif kind in ("say", "react"):
                if not talk.allow():
                    raise Refused("chat-rate", "a moment, please: at most a few chat "
                                  "messages in a row, then one every two seconds")
                await asyncio.shield(table.say(conn, msg.get("text"), msg.get("reaction")))
            elif kind == "claim":
                await asyncio.shield(table.claim(conn, msg.get("tricks")))
            elif kind == "claim-answer":
                await asyncio.shield(table.answer_claim(conn, msg["agree"]))
            elif kind in ("hint", "undo"):
                await asyncio.shield(table.hint(conn) if kind == "hint" else table.undo(conn))
            elif kind == "allow-device":
                await asyncio.shield(table.allow_device(conn, msg["request"], msg["allow"]))
        except Refused as r:
            out = r.message_json()
            if kind == "action":
                out["action"] = str(msg.get("action"))[:100]
            conn.send(protocol.dumps(out))
            if r.code == "stale" and conn.joined:
                await table.resend_view(conn)
        if websocket.application_state == WebSocketState.DISCONNECTED:
            return
