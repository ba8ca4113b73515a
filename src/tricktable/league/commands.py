"""``tricktable league``: the league in the terminal (docs/league.md).

Each command reads the store, asks ``views`` for the numbers and prints them as rich
tables, or as one JSON object with ``--json`` (the same dicts the web pages get). Bad input
(an unknown group or player, a bad date, a mark that breaks a rule, a bad record) is one
line on standard error and exit status 2; nothing is changed then.

Names, sessions, notes and groups come from records and from whoever can write to the
database: nothing of them reaches the terminal as rich markup or a control code. Every
line and table goes out through ``_show``, every text in it through ``_text`` (the
terminal's one sanitiser, ``play.display.plain``); JSON escapes what the terminal would
act on (``_print_json``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from ..play.display import plain
from .model import MARK_HELP, MARK_KINDS, LeagueError

if TYPE_CHECKING:
    from .model import GameEntry
    from .store import LeagueStore

league_app = typer.Typer(
    name="league",
    help="Players, sessions and standings across games: the 3B score sheet that lives for "
    "years (stars, streaks, trays, chits), every game's statistics, Paperless stakes.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_screen = Console(highlight=False)
MAX_LINE = 4000
"""A line or a table cell is cut there: its texts are bounded (a name is at most 100
characters), this only keeps a broken database from flooding the terminal."""

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Database URL (default: $TRICKTABLE_DATABASE_URL, else a SQLite "
                 "file in the user's data directory).", show_default=False),
]
GroupOption = Annotated[
    str | None,
    typer.Option("--group", "-g", help="The group (default: the only one there is)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
MAX_MAPPING_BYTES = 2**20
"""The largest --players or --dates file read: tens of thousands of entries."""


def _fail(message: str) -> typer.Exit:
    """One line on standard error (its texts made plain, like everything shown); status 2."""
    print(f"tricktable league: {' '.join(plain(message, MAX_LINE).split())}", file=sys.stderr)
    return typer.Exit(2)


@contextmanager
def _store(db: str | None) -> Iterator[LeagueStore]:
    try:
        from .store import LeagueStore
    except ImportError:
        raise _fail("the league needs SQLAlchemy and Alembic: pip install "
                    "'tricktable[league]'") from None
    try:
        store = LeagueStore(db)
    except Exception as e:  # a bad URL or an unreachable server: one line, not a traceback
        raise _fail(f"cannot open the database {db or ''}: {type(e).__name__}: {e}") from None
    try:
        yield store
    finally:
        store.close()


def _entries(store: LeagueStore, group: str | None) -> tuple[str, list[GameEntry]]:
    groups = store.groups()
    if group is None:
        if len(groups) != 1:
            raise _fail("name the group (--group): "
                        + (f"there are {', '.join(groups)}" if groups else
                           "there is none yet; 'tricktable league import' makes one"))
        group = groups[0]
    if group not in groups:
        raise _fail(f"no group {group!r}; groups: {', '.join(groups) or 'none yet'}")
    return group, store.entries(group)


def _day(text: str | None) -> date:
    if text is None:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise _fail(f"{text!r} is not a date: write YYYY-MM-DD") from None


def _run(action: Callable[[], None]) -> None:
    try:
        action()
    except LeagueError as e:
        raise _fail(str(e)) from None


def _print_json(obj: Any) -> None:
    """``obj`` as JSON, readable (names as written), with every character the terminal
    would act on or hide (those ``plain`` replaces: C1 codes, bidirectional overrides...)
    escaped as ``\\uXXXX``. JSON escapes ESC, BEL and the other C0 codes itself."""
    text = json.dumps(obj, indent=1, ensure_ascii=False)
    sys.stdout.write("\n".join(map(_json_line, text.split("\n"))) + "\n")


def _json_line(line: str) -> str:
    if line.isprintable():
        return line
    return "".join(json.dumps(ch)[1:-1] if ch != "?" and plain(ch) == "?" else ch
                   for ch in line)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


# --- rendering ----------------------------------------------------------------------------


THREEB_LEGEND = (
    "★ games won; outside: stars for 3 wins in a calendar week; gold/red: 4/5 wins in a row; "
    "best/now: longest and current streak; wire: wire-to-wire tray persons; perfect/imperfect:"
    " days; chits: earned/spent/lost/held; BH/ZB: bonehead and zero-buddy marks"
)


def _text(value: object) -> Text:
    """A text bound for the terminal as rich will show it: plain characters (no control
    codes, bidirectional overrides or lone surrogates) and never markup."""
    return Text(plain(value, MAX_LINE))


def _shown(value: RenderableType) -> RenderableType:
    return _text(value) if isinstance(value, str) else value


class _PlainTable(Table):
    """A table whose title, headers and cells, given as str, are shown as plain text."""

    def __init__(self, title: str) -> None:
        super().__init__(title=_text(title), box=box.SIMPLE_HEAD, pad_edge=False,
                         padding=(0, 1))

    def add_column(self, header: RenderableType = "", *args: Any, **kwargs: Any) -> None:
        super().add_column(_shown(header), *args, **kwargs)

    def add_row(self, *renderables: RenderableType | None, **kwargs: Any) -> None:
        super().add_row(*(None if r is None else _shown(r) for r in renderables), **kwargs)


def _show(item: str | _PlainTable, style: str | None = None) -> None:
    """Everything the league prints goes out here: a line as plain text, or a table."""
    _screen.print(_text(item) if isinstance(item, str) else item, style=style)


def _table(title: str) -> _PlainTable:
    return _PlainTable(title)


def threeb_tables(rows: Sequence[dict[str, Any]], title: str) -> list[_PlainTable]:
    """The 3B score sheet as two tables that fit a terminal: the stars, then the tray."""
    stars, tray = _table(f"{title}: stars"), _table(f"{title}: the tray")
    for t in (stars, tray):
        t.add_column("#", justify="right", no_wrap=True)
        t.add_column("player", no_wrap=True)
    for name in ("games", "★", "outside", "gold", "red", "best", "now"):
        stars.add_column(name, justify="right")
    for name in ("trays", "wire", "perfect", "imperfect", "chits", "owes", "BH", "ZB"):
        tray.add_column(name, justify="left" if name == "owes" else "right")
    for r in rows:
        owes = ", ".join(x for x in (
            f"{r['trays_owed']} trays" if r["trays_owed"] else "",
            f"{r['decks_owed']} decks" if r["decks_owed"] else "") if x)
        stars.add_row(
            str(r["rank"]), r["person"], str(r["games"]), str(r["stars"]),
            str(r["outside_stars"]), str(r["gold_stars"]), str(r["red_stars"]),
            str(r["longest_streak"]), str(r["current_streak"]),
        )
        tray.add_row(
            str(r["rank"]), r["person"], str(r["trays"]), str(r["wire_to_wire"]),
            str(r["perfect_days"]), str(r["imperfect_days"]),
            f"{r['chits_earned']}/{r['chits_spent']}/{r['chits_lost']}/{r['chits_held']}",
            owes, str(r["boneheads"]), str(r["zero_buddies"]),
        )
    return [stars, tray]


def _print_threeb(rows: Sequence[dict[str, Any]], title: str) -> None:
    for table in threeb_tables(rows, title):
        _show(table)
    _show(THREEB_LEGEND, style="dim")


# Columns of the per-game tables: (header, how to show a stats row); each game shows those
# its rules give a meaning.
_GAME_COLUMNS: dict[str, Callable[[dict[str, Any]], str]] = {
    "games": lambda r: str(r["games"]),
    "wins": lambda r: str(r["wins"]),
    "avg score": lambda r: f"{r['average_score']:.1f}",
    "made/bid": lambda r: f"{r['made']}/{r['contracts']}",
    "sets": lambda r: str(r["sets"]),
    "bags": lambda r: str(r["bags"]),
    "nils made/bid": lambda r: f"{r['nils_made']}/{r['nils_bid']}",
    "zeros made/bid": lambda r: f"{r['nils_made']}/{r['nils_bid']}",
    "pots won": lambda r: str(r["nil_points"]),
    "declarer": lambda r: _pct(r["declarer_rate"]),
    "declarer made": lambda r: _pct(r["declarer_success"]) if r["declared"] else "",
}
_BY_GAME = {
    "3b-spades": ("games", "wins", "avg score", "made/bid", "sets", "bags", "zeros made/bid",
                  "pots won"),
    "dummy-hand-spades": ("games", "wins", "avg score", "made/bid", "sets", "bags",
                          "nils made/bid", "declarer", "declarer made"),
    "dummy-whist": ("games", "wins", "avg score", "made/bid", "sets", "declarer",
                    "declarer made"),
}
_BY_GAME["double-dummy-whist"] = _BY_GAME["dummy-whist"]
_PARTNERSHIP = ("games", "wins", "avg score", "made/bid", "sets", "bags", "nils made/bid")


def games_tables(rows: Sequence[dict[str, Any]], title: str) -> list[_PlainTable]:
    """One table per game, with the columns that game's rules give a meaning (made/bid:
    contracts, the team's in partnership games; declarer: share of hands as declarer)."""
    tables = []
    for game in sorted({r["game"] for r in rows}):
        table = _table(f"{title}: {game}")
        table.add_column("player", no_wrap=True)
        columns = _BY_GAME.get(game, _PARTNERSHIP)
        for name in columns:
            table.add_column(name, justify="right")
        for r in rows:
            if r["game"] == game:
                table.add_row(r["person"], *(_GAME_COLUMNS[c](r) for c in columns))
        tables.append(table)
    return tables


# --- commands -----------------------------------------------------------------------------


@league_app.command("import")
def import_command(
    files: Annotated[list[Path], typer.Argument(help="Finished games' records (v1 JSON), in "
                                                "the order they were played.")],
    group: Annotated[str, typer.Option("--group", "-g", help="The group that played them.")],
    day: Annotated[str | None, typer.Option("--date", help="The day they were played "
                                            "(YYYY-MM-DD).")] = None,
    dates: Annotated[Path | None, typer.Option("--dates", help="A JSON object: file name -> "
                                               "YYYY-MM-DD, a date per file.")] = None,
    players: Annotated[Path | None, typer.Option("--players", help="A JSON object: name in "
                                                 "the records -> person.")] = None,
    session: Annotated[str, typer.Option("--session", help="Name the session (default: "
                                         "the date).")] = "",
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Add finished games from records. Importing a record again changes nothing."""
    from ..engine.errors import RecordError
    from ..engine.records import load_record, read_text_file
    from .importer import import_records

    def read_json(path: Path, what: str) -> dict[str, str]:
        try:
            obj = json.loads(read_text_file(path, MAX_MAPPING_BYTES, f"the {what}"))
        except RecordError as e:  # not a regular file, too large, not UTF-8: names the file
            raise _fail(f"cannot read the {what}: {e}") from None
        except (ValueError, RecursionError) as e:
            raise _fail(f"{path}: cannot read the {what}: {type(e).__name__}: {e}") from None
        if not isinstance(obj, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in obj.items()
        ):
            raise _fail(f"{path}: the {what} must be a JSON object of strings")
        return obj

    per_file = read_json(dates, "dates") if dates else {}
    mapping = read_json(players, "player mapping") if players else None
    triples = []
    for f in files:
        text = per_file.get(f.name) or per_file.get(str(f)) or day
        if text is None:
            raise _fail(f"{f}: no date: give --date, or --dates with an entry for {f.name}")
        try:
            triples.append((str(f), load_record(f), _day(text)))
        except RecordError as e:
            raise _fail(str(e)) from None
    with _store(db) as store:
        def go() -> None:
            report = import_records(store, triples, group, mapping, session)
            if as_json:
                _print_json({"added": list(report.added), "already": list(report.already)})
            else:
                _show(f"{len(report.added)} games added to {group}, "
                      f"{len(report.already)} already there.")
        _run(go)


@league_app.command("link")
def link_command(
    group: Annotated[str, typer.Option("--group", "-g", help="The group.")],
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """A new private link to the group's page (its members join there); the old link, if
    any, stops working. Groups made by 'league import' have none until this makes one."""
    with _store(db) as store:
        def go() -> None:
            token = store.group_link(group)
            link = f"/league/{token}"
            if as_json:
                _print_json({"group": group, "token": token, "link": link})
            else:
                _show(f"The link to {group}'s page (after the server's address): {link}")
        _run(go)


@league_app.command("standings")
def standings_command(
    group: GroupOption = None,
    year: Annotated[int | None, typer.Option("--year", help="One calendar year.")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """The group's standings: the 3B score sheet and every game's totals."""
    from . import views

    with _store(db) as store:
        name, entries = _entries(store, group)
        out = views.standings(entries, year)
    if as_json:
        _print_json({"group": name, **out})
        return
    period = str(year) if year else "all time"
    if out["threeb"]:
        _print_threeb(out["threeb"], f"{name} — 3B/RTR, {period}")
    for table in games_tables(out["players"], f"{name}, {period}"):
        _show(table)
    _show(f"{out['games']} game(s) in {out['sessions']} session(s).")


@league_app.command("card")
def card_command(
    person: Annotated[str, typer.Argument(help="The player.")],
    group: GroupOption = None,
    chart: Annotated[Path | None, typer.Option("--chart", help="Also draw the results over "
                                               "time to this PNG file.")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """A player's card: totals, 3B lines by year, streaks, marks, head-to-head."""
    from . import views

    with _store(db) as store:
        name, entries = _entries(store, group)
        card: dict[str, Any] = {}

        def go() -> None:
            card.update(views.player_card(entries, person))
        _run(go)
    if chart is not None:
        try:
            from .chart import results_chart
        except ImportError:
            raise _fail("the chart needs matplotlib: pip install 'tricktable[chart]'") from None
        try:
            results_chart(card, chart)
        except ImportError:
            raise _fail("the chart needs matplotlib: pip install 'tricktable[chart]'") from None
        except OSError as e:
            raise _fail(f"cannot write {chart}: {e}") from None
    if as_json:
        _print_json({"group": name, **card})
        return
    for table in games_tables(card["games"], f"{person} in {name}"):
        _show(table)
    if card["threeb"]:
        rows = [{"rank": y, **line} for y, line in card["threeb_by_year"].items()]
        rows.append({"rank": "all", **card["threeb"]})
        _print_threeb(rows, f"{person}: 3B by year")
    if card["head_to_head"]:
        table = _table(f"{person}: head to head")
        for col in ("opponent", "games", "ahead", "behind"):
            table.add_column(col, justify="left" if col == "opponent" else "right")
        for h in card["head_to_head"]:
            table.add_row(h["opponent"], str(h["games"]), str(h["ahead"]), str(h["behind"]))
        _show(table)
    for m in card["marks"]:
        _show(f"{m['played']} {m['kind']}: {m['detail']}")
    if chart is not None:
        _show(f"Chart written to {chart}.")


@league_app.command("week")
def week_command(
    group: GroupOption = None,
    day: Annotated[str | None, typer.Option("--day", help="Any day of the week (default: "
                                            "today).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """The calendar week (Monday to Sunday): its games, stars, trays and chits."""
    from . import views

    when = _day(day)
    with _store(db) as store:
        name, entries = _entries(store, group)
        out = views.week(entries, when)
    if as_json:
        _print_json({"group": name, **out})
        return
    table = _table(f"{name} — week of {out['monday']} to {out['sunday']}")
    for col in ("day", "game", "session", "won", "tray", "key"):
        table.add_column(col)
    for g in out["games"]:
        table.add_row(g["played"], g["game"], g["session"], ", ".join(g["winners"]),
                      g["tray_person"] or "", g["key"][:12])
    _show(table)
    if out["threeb"]:
        _print_threeb(out["threeb"], "3B this week")
    for e in out["events"]:
        _show(f"{e['played']} {e['person']}: {e['kind']}"
              + (f" ({e['detail']})" if e["detail"] else "")
              + (f" x{e['count']}" if e["count"] > 1 else ""))


@league_app.command("streaks")
def streaks_command(
    group: GroupOption = None,
    minimum: Annotated[int, typer.Option("--min", min=1, help="Shortest run listed.")] = 2,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """The longest 3B winning streaks on record, ranked."""
    from . import views

    with _store(db) as store:
        name, entries = _entries(store, group)
        out = views.streaks(entries, minimum)
    if as_json:
        _print_json({"group": name, "streaks": out})
        return
    table = _table(f"{name} — longest winning streaks (3B)")
    for col in ("#", "player", "wins in a row", "from", "to", ""):
        table.add_column(col)
    for s in out:
        table.add_row(str(s["rank"]), s["person"], str(s["length"]), s["start"], s["end"],
                      "going on" if s["ongoing"] else "")
    _show(table)


@league_app.command("trays")
def trays_command(
    group: GroupOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """The tray log: every 3B tray person, chit and carrier; the violator; what is owed."""
    from . import views

    with _store(db) as store:
        name, entries = _entries(store, group)
        out = views.tray_log(entries)
    if as_json:
        _print_json({"group": name, **out})
        return
    table = _table(f"{name} — tray log")
    for col in ("day", "tray person", "wire", "chit", "carrier", "trays", "violator owes",
                "carried", "key"):
        table.add_column(col, no_wrap=col in ("day", "key"))
    for t in out["games"]:
        chit = f"spent: {t['named']}" if t["chit"] == "spent" else t["chit"]
        table.add_row(t["played"], t["tray_person"] or "(tie)", "yes" if t["wire_to_wire"]
                      else "", chit, t["carrier"] or "", str(t["trays"]),
                      f"{t['violator']}: {t['trays_owed']}" if t["violator"] else "",
                      str(t["carried"]) if t["carried"] else "", t["key"][:8])
    _show(table)
    if out["violator"]:
        _show(f"{out['violator']} (the violator) owes {out['trays_owed']} trays.")
    for person, n in out["decks_owed"].items():
        _show(f"{person} owes {n} new deck(s) of cards.")
    for person, chits in out["chits_held"].items():
        _show(f"{person} holds {len(chits)} tray chit(s): "
              + ", ".join(f"{c['source']} ({c['earned']})" for c in chits))


@league_app.command("stakes")
def stakes_command(
    group: GroupOption = None,
    session: Annotated[str | None, typer.Option("--session", help="One session (default: "
                                                "every game).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Paperless stakes: who owes whom, and the payments that settle up."""
    from . import views

    with _store(db) as store:
        name, entries = _entries(store, group)
        out = views.stakes_view(entries, session)
    if as_json:
        _print_json({"group": name, **out})
        return
    by_amount = any(d["amount"] for d in out["debts"])
    unit = "amount" if by_amount else "points"
    table = _table(f"{name} — Paperless stakes" + (f", session {session}" if session
                                                         else ""))
    for col in ("player", f"balance ({unit})"):
        table.add_column(col, justify="left" if col == "player" else "right")
    balance = out["balance"] if by_amount else out["points_balance"]
    for person, value in balance.items():
        table.add_row(person, f"{value:+.2f}")
    _show(table)
    for d in out["settle"]:
        _show(f"{d['debtor']} pays {d['creditor']} {d[unit]:.2f}")


@league_app.command("sessions")
def sessions_command(
    group: GroupOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """3B stars per session: a star next to the name for each game won."""
    from . import views

    with _store(db) as store:
        name, entries = _entries(store, group)
        out = views.session_stars(entries)
    if as_json:
        _print_json({"group": name, "sessions": out})
        return
    table = _table(f"{name} — stars per session (3B)")
    for col in ("session", "day", "games", "stars"):
        table.add_column(col, no_wrap=col != "stars")
    for s in out:
        table.add_row(s["session"], s["played"], str(s["games"]),
                      ", ".join(f"{p} {'★' * n}" for p, n in s["stars"].items()))
    _show(table)


@league_app.command("h2h")
def h2h_command(
    group: GroupOption = None,
    game: Annotated[str | None, typer.Option("--game", help="One game only.")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Head-to-head records: games on opposite sides and who finished ahead."""
    from . import views

    with _store(db) as store:
        name, entries = _entries(store, group)
        out = views.head_to_head_view(entries, game)
    if as_json:
        _print_json({"group": name, "game": game, "head_to_head": out})
        return
    table = _table(f"{name} — head to head" + (f", {game}" if game else ""))
    for col in ("player", "against", "games", "ahead", "behind"):
        table.add_column(col, justify="right" if col in ("games", "ahead", "behind")
                         else "left")
    for h in out:
        table.add_row(h["first"], h["second"], str(h["games"]), str(h["first_ahead"]),
                      str(h["second_ahead"]))
    _show(table)


@league_app.command("games")
def games_command(
    group: GroupOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """The group's games in order, with the keys that marks refer to."""
    with _store(db) as store:
        name, entries = _entries(store, group)
    rows: list[dict[str, Any]] = [
        {"key": e.key, "played": e.played.isoformat(), "session": e.session_name,
         "game": e.game, "players": list(e.people), "winners": list(e.winners),
         "marks": [vars(m) for m in e.marks]}
        for e in entries
    ]
    if as_json:
        _print_json({"group": name, "games": rows})
        return
    table = _table(f"{name} — games")
    for col in ("key", "day", "session", "game", "players", "won", "marks"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["key"][:12], r["played"], r["session"], r["game"],
                      ", ".join(r["players"]), ", ".join(r["winners"]),
                      "; ".join(f"{m['kind']} {m['person']}" for m in r["marks"]))
    _show(table)


@league_app.command("mark")
def mark_command(
    key: Annotated[str, typer.Argument(help="The game's key (its first characters will do; "
                                       "see 'tricktable league games').")],
    kind: Annotated[str, typer.Argument(help="; ".join(f"{k}: {v}" for k, v in
                                                       MARK_HELP.items()))],
    person: Annotated[str, typer.Argument(help="Who the mark is for.")],
    note: Annotated[str, typer.Option("--note", help="What happened.")] = "",
    named: Annotated[str | None, typer.Option("--named", help="chit: the player named to "
                                              "carry the trays.")] = None,
    db: DbOption = None,
) -> None:
    """Add a mark to a game after it was played (bonehead, zero-buddy, chit, trays, decks)."""
    from .model import MAX_NOTE, Mark, check_text

    if kind not in MARK_KINDS:
        raise _fail(f"unknown mark {kind!r}: a mark is one of {', '.join(MARK_KINDS)}")
    with _store(db) as store:
        def go() -> None:
            mark = Mark(
                kind, check_text(person, "the person"),
                check_text(note, "--note", MAX_NOTE) if note.strip() else "",
                None if named is None else check_text(named, "--named"),
            )
            store.add_mark(key, mark)
            _show(f"{kind} added for {mark.person}.")
        _run(go)
