"""The league's HTTP API and pages (issue 41; docs/league.md, "For the web pages").

A group's page is reached by its private link, ``/league/<token>``: the token is in the
path, like a table's invite link, and never listed anywhere. A person is known by the key
his browser holds; it travels only in the ``X-Person-Key`` header (URLs get logged), and
only its hash is stored. Each view answers the same dict ``tricktable league <view>
--group NAME --json`` prints, from the same function of ``league.views``; the page
(``static/league.html`` and ``static/js/league/``) draws it.

Every refusal is ``{"error": code, "message": one sentence}`` with 400 (bad input), 404
(no such group, person, game or view), 409 (it conflicts with what is stored: a name taken,
a mark the score sheet's rules refuse) or 429 (too many new groups or people from one
address); nothing is changed then.
"""

from __future__ import annotations

import asyncio
import re
import unicodedata
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..league import views
from ..league.model import (
    CHIT,
    MARK_KINDS,
    MAX_NAME,
    MAX_NOTE,
    GameEntry,
    GroupInfo,
    LeagueError,
    Mark,
    check_time_zone,
)
from ..league.store import LeagueStore
from ..league.threeb import threeb_history
from .limits import CreationLimit
from .names import check_name
from .protocol import ProtocolError
from .spec import parse_json_body

STATIC = Path(__file__).parent / "static"
MAX_BODY = 8192
"""A league request's body: a name, a note of at most MAX_NOTE characters (UTF-8)."""
KEY_HEADER = "x-person-key"
SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,128}")
"""A group token or a person key as the store makes them (``secrets.token_urlsafe``)."""
MAX_YEAR = 9999

# The views of a group, as ``tricktable league`` names them (``sheet`` is the page's 3B
# score sheet: the parts of standings, sessions, streaks and trays it shows).
VIEW_NAMES = ("standings", "sheet", "week", "streaks", "trays", "stakes", "sessions", "h2h",
              "card", "games")


class Refusal(Exception):
    """A request refused: its HTTP status, error code and one sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _no_group() -> Refusal:
    return Refusal(404, "no-group", "no group has this link: ask a member for the group's "
                   "link")


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def _json_body(request: Request, what: str) -> dict[str, Any]:
    """The request's body as a JSON object (read no further than MAX_BODY bytes)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise Refusal(413, "too-large", f"{what} is at most {MAX_BODY} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refusal(413, "too-large", f"{what} is at most {MAX_BODY} bytes")
        chunks.append(chunk)
    try:
        body = parse_json_body(b"".join(chunks), what)
    except ProtocolError as e:
        raise Refusal(400, e.code, e.message) from None
    if not isinstance(body, dict):
        raise Refusal(400, "bad-request", f"{what} is a JSON object")
    return body


def _fields(body: Mapping[str, Any], what: str, allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise Refusal(400, "bad-request", f"{what} has no field {unknown[0][:40]!r}; its "
                      f"fields: {', '.join(allowed)}")


def _person_name(value: object) -> str:
    """A person's name as the tables take it (``web.names``): he sits at tables with it."""
    try:
        return check_name(value)
    except ProtocolError as e:
        raise Refusal(400, e.code, e.message) from None


def _text(value: object, what: str, limit: int) -> str:
    """A group's name, a session's name or a note: one line of text of at most ``limit``
    characters, with no control or invisible formatting character."""
    if not isinstance(value, str):
        raise Refusal(400, "bad-request", f"{what} is text")
    text = " ".join(unicodedata.normalize("NFC", value).split())
    if not text:
        raise Refusal(400, "bad-request", f"{what} cannot be empty")
    if len(text) > limit:
        raise Refusal(400, "bad-request", f"{what} is at most {limit} characters; this one "
                      f"has {len(text)}")
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") or (
            unicodedata.category(ch) == "Cf" and ch not in ("\u200c", "\u200d")
        ):
            raise Refusal(400, "bad-request", f"{what} cannot hold U+{ord(ch):04X}: "
                          "letters, digits, punctuation, spaces and emoji are all fine")
    return text


def _time_zone(value: object) -> str:
    if value is None:
        return "UTC"
    if not isinstance(value, str):
        raise Refusal(400, "bad-time-zone", "a time zone is text: an IANA name such as "
                      "Europe/Paris, America/New_York or UTC")
    try:
        return check_time_zone(value[:100])
    except LeagueError as e:
        raise Refusal(400, "bad-time-zone", str(e)) from None


def _key_of(request: Request) -> str | None:
    """The person key of the request's X-Person-Key header (never a URL's), if it has one."""
    key = request.headers.get(KEY_HEADER, "").strip()
    if not key:
        return None
    if not SECRET_SHAPE.fullmatch(key):
        raise Refusal(400, "bad-key", "the X-Person-Key header holds no person key (the "
                      "key is letters, digits, '-' and '_')")
    return key


def _needed_key(request: Request) -> str:
    key = _key_of(request)
    if key is None:
        raise Refusal(400, "no-key", "this needs your person key in the X-Person-Key header:"
                      " join the group first")
    return key


def _int_param(request: Request, name: str, low: int, high: int) -> int | None:
    text = request.query_params.get(name, "")
    if not text:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 6) or not (
        low <= int(text) <= high
    ):
        raise Refusal(400, f"bad-{name}", f"{name} is a whole number from {low} to {high}")
    return int(text)


def _text_param(request: Request, name: str) -> str | None:
    text = request.query_params.get(name)
    if text is None or not text.strip():
        return None
    return _text(text, name, MAX_NAME)


def _group_json(group: GroupInfo, games: int, you: str | None) -> dict[str, Any]:
    return {"name": group.name, "time_zone": group.time_zone,
            "open_session": group.open_session, "members": list(group.members),
            "games": games, "you": you}


def _games_rows(entries: list[GameEntry]) -> list[dict[str, Any]]:
    """The games in order, as ``tricktable league games --json`` lists them."""
    return [
        {"key": e.key, "played": e.played.isoformat(), "session": e.session_name,
         "game": e.game, "players": list(e.people), "winners": list(e.winners),
         "marks": [vars(m) for m in e.marks]}
        for e in entries
    ]


SHEET_EVENTS = ("outside-star", "gold-star", "red-star", "wire-to-wire", "perfect-day",
                "imperfect-day", "chit-earned", "chit-spent", "chit-lost", "trays-forgot",
                "trays-carried", "deck-owed", "decks-brought", "bonehead", "zero-buddy")
"""What the 3B score sheet writes next to a name besides stars and trays, in the order
they happened (a week's share of the awards is ``week --json``'s ``events``)."""


def _sheet(entries: list[GameEntry], year: int | None) -> dict[str, Any]:
    """The 3B score sheet as the page shows it, each part the dict of its own command:
    ``threeb`` as ``standings --json`` (for ``year``), ``sessions``, ``streaks`` (every run
    of two or more) and ``trays`` as their own ``--json``; ``events``: every star beyond a
    game's, chit, perfect and imperfect day, tray debt and mark, dated, as the week's."""
    start, end = (None, None) if year is None else (date(year, 1, 1), date(year, 12, 31))
    history = threeb_history(entries)
    return {
        "year": year,
        "threeb": views.standings(entries, year)["threeb"],
        "sessions": views.session_stars(entries),
        "streaks": views.streaks(entries, 2),
        "trays": views.tray_log(entries),
        "events": [views._event(e) for e in history.between(start, end)
                   if e.kind in SHEET_EVENTS],
    }


def league_routes(league: LeagueStore) -> list[BaseRoute]:
    """The league's API and pages over ``league``; the app mounts them."""
    newcomers = CreationLimit.from_environment()  # new groups and new people per address

    async def run(call: Callable[..., Any], *args: Any) -> Any:
        """A store call off the event loop; its LeagueError is a refusal (409: the input
        was checked here first, so what the store refuses conflicts with what it holds)."""
        try:
            return await asyncio.to_thread(call, *args)
        except LeagueError as e:
            raise Refusal(409, "refused", str(e)) from None

    async def group_of(request: Request) -> GroupInfo:
        token = request.path_params["token"]
        if not SECRET_SHAPE.fullmatch(token):
            raise _no_group()
        group: GroupInfo | None = await asyncio.to_thread(league.group_by_token, token)
        if group is None:
            raise _no_group()
        return group

    async def you_in(request: Request, group: GroupInfo, needed: bool) -> str | None:
        """The name of the request's person if he is a member of ``group``."""
        key = _needed_key(request) if needed else _key_of(request)
        person = None if key is None else await asyncio.to_thread(league.person_by_key, key)
        if person is not None and group.name in person.groups:
            return str(person.name)
        if not needed:
            return None
        if person is None:
            raise Refusal(404, "no-person", "no person has this key: join the group, or "
                          "re-link your name on the group's page")
        raise Refusal(400, "not-a-member", f"{person.name} is not a member of {group.name}:"
                      " join it first")

    def refusing(handler: Callable[[Request], Awaitable[Response]]
                 ) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            try:
                return await handler(request)
            except Refusal as r:
                return _error(r.status, r.code, r.message)
        return answer

    def allow_newcomer(request: Request, what: str) -> None:
        if not newcomers.allow(_address(request)):
            raise Refusal(429, "rate", f"too many new {what} from this address: at most "
                          f"{newcomers.per_minute:g} a minute; try again in a minute")

    async def page(request: Request) -> Response:
        # the page holds no data; the token in its address must not leave in a Referer
        return FileResponse(STATIC / "league.html", media_type="text/html", headers={
            "cache-control": "no-cache", "referrer-policy": "no-referrer"})

    async def create_group(request: Request) -> Response:
        body = await _json_body(request, "a group request")
        _fields(body, "a group request", ("name", "time_zone"))
        name = _text(body.get("name"), "a group's name", MAX_NAME)
        zone = _time_zone(body.get("time_zone"))
        allow_newcomer(request, "groups")
        group, token = await run(league.create_group, name, zone)
        return JSONResponse({"group": group.name, "token": token, "link": f"/league/{token}"},
                            status_code=201)

    async def get_group(request: Request) -> Response:
        group = await group_of(request)
        you = await you_in(request, group, needed=False)
        entries = await asyncio.to_thread(league.entries_of, group.id)
        return JSONResponse(_group_json(group, len(entries), you))

    async def join(request: Request) -> Response:
        await group_of(request)  # no such group: 404 before the body is looked at
        body = await _json_body(request, "a join request")
        _fields(body, "a join request", ("name",))
        key = _key_of(request)
        known = None if key is None else await asyncio.to_thread(league.person_by_key, key)
        # a known person keeps his name (the name sent is not looked at); a new one needs one
        name = known.name if known is not None else _person_name(body.get("name"))
        if known is None:
            allow_newcomer(request, "people")
        person, new_key = await run(league.join_group, request.path_params["token"], name, key)
        return JSONResponse({"person": person.name, "key": new_key})

    async def relink(request: Request) -> Response:
        group = await group_of(request)
        body = await _json_body(request, "a re-link request")
        _fields(body, "a re-link request", ("name",))
        name = _text(body.get("name"), "the name", MAX_NAME)  # a member's, as stored
        if not any(m.casefold() == name.casefold() for m in group.members):
            raise Refusal(404, "no-person", f"{group.name} has no member {name}: its members"
                          f" are {', '.join(group.members) or 'none yet'}")
        person, key = await run(league.relink_person, request.path_params["token"], name)
        return JSONResponse({"person": person.name, "key": key})

    async def me(request: Request) -> Response:
        key = _needed_key(request)
        person = await asyncio.to_thread(league.person_by_key, key)
        if person is None:
            raise Refusal(404, "no-person", "no person has this key: open your group's link"
                          " and join it, or re-link your name there")
        return JSONResponse({"person": person.name, "groups": list(person.groups)})

    async def rename(request: Request) -> Response:
        key = _needed_key(request)
        body = await _json_body(request, "a rename request")
        _fields(body, "a rename request", ("name",))
        name = _person_name(body.get("name"))
        if await asyncio.to_thread(league.person_by_key, key) is None:
            raise Refusal(404, "no-person", "no person has this key: open your group's link"
                          " and join it, or re-link your name there")
        person = await run(league.rename_person, key, name)
        return JSONResponse({"person": person.name})

    async def open_session(request: Request) -> Response:
        group = await group_of(request)
        you = await you_in(request, group, needed=True)
        body = await _json_body(request, "a session request")
        _fields(body, "a session request", ("name",))
        raw = body.get("name")
        name = None if raw is None else _text(raw, "a session's name", MAX_NAME)
        group = await run(league.set_open_session, request.path_params["token"], name)
        entries = await asyncio.to_thread(league.entries_of, group.id)
        return JSONResponse(_group_json(group, len(entries), you))

    async def add_mark(request: Request) -> Response:
        group = await group_of(request)
        you = await you_in(request, group, needed=True)
        body = await _json_body(request, "a mark")
        _fields(body, "a mark", ("kind", "person", "note", "named"))
        kind = body.get("kind")
        if kind not in MARK_KINDS:
            raise Refusal(400, "bad-mark", f"a mark is one of {', '.join(MARK_KINDS)}")
        person = _text(body.get("person"), "the person of a mark", MAX_NAME)
        note_raw = body.get("note")
        note = "" if note_raw is None or note_raw == "" else _text(note_raw, "a mark's note",
                                                                   MAX_NOTE)
        named_raw = body.get("named")
        named = None if named_raw is None else _text(named_raw, "the player named",
                                                      MAX_NAME)
        try:
            mark = Mark(str(kind), person, note, named)
        except LeagueError as e:
            raise Refusal(400, "bad-mark", str(e)) from None
        if kind == CHIT and you is not None and person.casefold() != you.casefold():
            # any member marks a bonehead or the trays; a chit is spent by its holder
            raise Refusal(400, "not-yours", f"only {person} may spend {person}'s tray chit:"
                          " the holder names who carries the trays")
        key = request.path_params["key"]
        entries = await asyncio.to_thread(league.entries_of, group.id)
        if not any(e.key == key for e in entries):  # only this group's games, by full key
            raise Refusal(404, "no-game", f"{group.name} has no such game")
        await run(league.add_mark, key, mark)
        return JSONResponse({"key": key, **vars(mark)}, status_code=201)

    async def view(request: Request) -> Response:
        group = await group_of(request)
        name = request.path_params["view"]
        if name not in VIEW_NAMES:
            raise Refusal(404, "no-view", f"there is no view {name[:40]!r}; the views: "
                          f"{', '.join(VIEW_NAMES)}")
        entries = await asyncio.to_thread(league.entries_of, group.id)
        today = None
        if name == "week" and not request.query_params.get("day"):
            # this week where the group plays
            today = await asyncio.to_thread(league.played_day, group.id, datetime.now(UTC))
        try:
            out = await asyncio.to_thread(_view, name, request, entries, today)
        except LeagueError as e:  # games the score sheet's rules cannot read: say which
            raise Refusal(409, "refused", str(e)) from None
        return JSONResponse({"group": group.name, **out})

    def _view(name: str, request: Request, entries: list[GameEntry], today: date | None
              ) -> dict[str, Any]:
        """The dict ``tricktable league <name> --json`` prints, without its "group"."""
        if name == "standings":
            return views.standings(entries, _int_param(request, "year", 1, MAX_YEAR))
        if name == "sheet":
            return _sheet(entries, _int_param(request, "year", 1, MAX_YEAR))
        if name == "week":
            text = request.query_params.get("day", "")
            try:
                day = date.fromisoformat(text) if text else today
            except ValueError:
                raise Refusal(400, "bad-day", "day is a date: write YYYY-MM-DD") from None
            assert day is not None
            return views.week(entries, day)
        if name == "streaks":
            minimum = _int_param(request, "min", 1, 10_000)
            return {"streaks": views.streaks(entries, 2 if minimum is None else minimum)}
        if name == "trays":
            return views.tray_log(entries)
        if name == "stakes":
            return views.stakes_view(entries, _text_param(request, "session"))
        if name == "sessions":
            return {"sessions": views.session_stars(entries)}
        if name == "h2h":
            game = _text_param(request, "game")
            return {"game": game, "head_to_head": views.head_to_head_view(entries, game)}
        if name == "card":
            person = _text_param(request, "person")
            if person is None:
                raise Refusal(400, "no-person", "name the person: card?person=NAME")
            try:
                return views.player_card(entries, person)
            except LeagueError as e:
                raise Refusal(404, "no-person", str(e)) from None
        return {"games": _games_rows(entries)}

    return [
        Route("/league", page),
        Route("/league/{token}", page),
        Route("/api/groups", refusing(create_group), methods=["POST"]),
        Route("/api/people/me", refusing(me), methods=["GET"]),
        Route("/api/people/me/rename", refusing(rename), methods=["POST"]),
        Route("/api/groups/{token}", refusing(get_group), methods=["GET"]),
        Route("/api/groups/{token}/join", refusing(join), methods=["POST"]),
        Route("/api/groups/{token}/relink", refusing(relink), methods=["POST"]),
        Route("/api/groups/{token}/session", refusing(open_session), methods=["POST"]),
        Route("/api/groups/{token}/games/{key}/marks", refusing(add_mark), methods=["POST"]),
        Route("/api/groups/{token}/{view}", refusing(view), methods=["GET"]),
    ]

