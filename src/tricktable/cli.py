"""The ``tricktable`` command line.

Every command ends in one of three ways: its output and status 0; one line on standard
error naming what was wrong and status 2 (bad input of any kind, nothing changed); or,
for a fault of tricktable's own, one line and status 1 (``TRICKTABLE_DEBUG=1`` shows the
traceback). Ctrl-C ends any command with "tricktable: interrupted" and status 130.
Nothing read from a record or typed by another player is shown as markup or control
codes (see ``play.display``).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from . import __version__
from .bots import DEFAULT_THINK
from .engine.errors import OptionError, RecordError, TricktableError
from .engine.game import Game, game_class, game_names
from .engine.records import Record, load_record, replay, summary
from .play.display import plain, shown, words
from .search import search_installed

if TYPE_CHECKING:
    from .analysis import HandReview
    from .engine.state import State

app = typer.Typer(
    name="tricktable",
    help="Play, replay and study trick-taking card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help texts are plain text: brackets are not markup
    context_settings={"help_option_names": ["-h", "--help"]},
)

stdout = Console(highlight=False)
stderr = Console(stderr=True, highlight=False)

MAX_WORKERS = 64
MAX_THINK = 60.0
MAX_GAMES = 1_000_000
MAX_HANDS_LIMIT = 100_000
THINK_HELP = (
    "Seconds a search bot (montecarlo, pimc, ismcts) may think per decision (default "
    f"{DEFAULT_THINK}); "
    "0: a fixed amount of search, the same on every machine, so that its choices follow "
    "from the seed alone."
)


def _per_second(count: int, seconds: float) -> str:
    """A rate for people: whole numbers when fast, two figures when slow (search bots)."""
    rate = count / max(seconds, 1e-9)
    return f"{rate:.0f}/s" if rate >= 10 else f"{rate:.2g}/s"


class CommandFailed(Exception):
    """Bad input found by a command: reported as one line, status 2."""


def fail(message: str) -> NoReturn:
    raise CommandFailed(message)


def _version(value: bool) -> None:
    if value:
        print(f"tricktable {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True,
                     help="Print the version and exit."),
    ] = False,
) -> None:
    """Play, replay and study trick-taking card games."""


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A game record (tricktable-record/1 JSON).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of a table.")
    ] = False,
) -> None:
    """Check every action of a record against the rules and print the scores hand by hand.

    Exits with status 2 and a message naming the hand, the action and the rule when the
    record holds an illegal or malformed action; nothing is printed on standard output then.
    """
    record, state = _checked_record(file)
    result = summary(state)
    if as_json:
        sys.stdout.write(json.dumps(result, indent=1) + "\n")
        return
    game = state.game
    table = Table(title=f"{game.title} — {shown(file.name)}")
    table.add_column("hand", justify="right")
    labels = list(result["totals"])
    who = "team" if game.partnership else "seat"
    for label in labels:
        name = record.players.get(label, "") if not game.partnership else ""
        table.add_column(f"{who} {label}" + (f" {shown(name)}" if name else ""), justify="right")
    table.add_column("notes")
    noted = game.replay_notes
    for i, hand in enumerate(result["hands"], 1):
        cells = [f"{hand['scores'][k]:+d} → {hand['totals'][k]}" for k in labels]
        notes = ", ".join(
            f"{k} {shown(_short(v))}"
            for k, v in hand.items()
            if k not in ("scores", "totals") and (noted is None or k in noted)
            and v is not None and v != [] and v != {}
        )
        table.add_row(str(i), *cells, notes)
    stdout.print(table)
    for line in game.score_lines(state):
        stdout.print(shown(line))
    if result["finished"]:
        stdout.print(f"Game over: {who} {result['winner']} wins.")
    else:
        stdout.print("The game is not finished; scores so far are shown.")


def _checked_record(file: Path) -> tuple[Record, State]:
    """The record in ``file`` and the state it replays to. A record that cannot be read or
    does not replay is refused in one line naming the file (and the hand, the action and
    the rule)."""
    try:
        record = load_record(file)  # its refusals begin with the file's name
    except RecordError as e:
        fail(str(e))
    try:
        return record, replay(record)
    except RecordError as e:
        fail(f"{file}: {e}")


def _short(value: object) -> str:
    return words(value)


@app.command("games")
def games_command(
    name: Annotated[str | None, typer.Argument(help="Show one game's options.")] = None,
) -> None:
    """List the games and their table options (set with --option NAME=VALUE)."""
    names = [name] if name else game_names()
    for n in names:
        cls = _game_class(n)
        table = Table(title=f"{n} — {cls.title}", show_lines=False)
        table.add_column("option")
        table.add_column("default")
        table.add_column("meaning")
        for info in cls.options_type.describe():
            choices = f" ({', '.join(map(str, info.choices))})" if info.choices else ""
            table.add_row(info.name, _shown_value(info.new_game_default), info.doc + choices)
        stdout.print(table)


def _shown_value(value: object) -> str:
    """An option's value as a person writes it: true/false/none, not Python's spelling."""
    if isinstance(value, bool):
        return "true" if value else "false"  # as typed in -o NAME=VALUE
    if isinstance(value, tuple | list):
        return ",".join(_shown_value(v) for v in value) or "none"
    return words(value)


# --- play and simulate (bots) ---------------------------------------------------------------


def _game_class(name: str) -> type[Game]:
    try:
        return game_class(name)
    except OptionError as e:
        fail(str(e))


def _make_game(game_name: str, pairs: list[str]) -> Game:
    """A new game with ``--option NAME=VALUE`` pairs checked against its options (an
    option the game's text suggests a value for starts there)."""
    from .engine.game import make_game

    cls = _game_class(game_name)
    try:
        options = cls.options_type.for_new_game(cls.options_type.pairs(pairs)).to_mapping()
        return make_game(game_name, options)
    except OptionError as e:
        fail(f"--option: {e}")


@app.command("play")
def play_command(
    game_name: Annotated[
        str | None, typer.Argument(metavar="GAME", help="The game (see 'tricktable games').")
    ] = None,
    seat: Annotated[int | None, typer.Option("--seat", help="Your seat (default 0).")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots", help="The bots: one name for all (rules, random, montecarlo, pimc, "
            "ismcts), or one per other player in seat order, e.g. rules,random,rules "
            "(default: montecarlo, measured stronger than rules in every game).",
        ),
    ] = None,
    seed: Annotated[
        str | None, typer.Option("--seed", help="Seed of the deal and the bots (default: random).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A table option NAME=VALUE (repeatable)."),
    ] = None,
    resume_file: Annotated[
        str | None,
        typer.Option(
            "--resume", metavar="[FILE]",
            help="Carry on a saved game; with no FILE, the last game saved as you played.",
        ),
    ] = None,
    no_save: Annotated[
        bool,
        typer.Option("--no-save", help="Do not save the game as you play (it is saved after "
                     "every hand and when you leave, by default)."),
    ] = False,
    think: Annotated[
        float, typer.Option("--think", metavar="SECONDS", min=0.0, max=MAX_THINK,
                            help=THINK_HELP)
    ] = DEFAULT_THINK,
    group: Annotated[
        str | None, typer.Option("--group", help="Count the finished game in this league "
                                 "group (with --as).")
    ] = None,
    person: Annotated[
        str | None, typer.Option("--as", metavar="NAME", help="Who you are in the --group "
                                 "(a member's name): your seat's name in the game.")
    ] = None,
    db: Annotated[
        str | None, typer.Option("--db", help="The league's database URL, with --group "
                                 "(default: the one 'tricktable serve' uses).")
    ] = None,
) -> None:
    """Play one seat in the terminal against bots.

    Type a choice in the record notation without the seat ('play 4H', 'bid 4', 'give 2C 3D
    4S') or short ('4H', '4', 'nil'); 'help' lists the legal choices and explains them,
    'save [FILE]' writes a copy, 'quit' leaves. The game is saved as you play, in a file
    named when it starts; 'tricktable play --resume' carries on the last one.
    """
    from .play.opponents import default_opponent
    from .play.paths import saved_games_dir
    from .play.terminal import (
        QuitGame,
        last_saved_game,
        new_game,
        resumed_game,
        session_from_record,
    )

    console = Console(highlight=False)

    def read(prompt: str) -> str:
        return console.input(prompt)

    seed_value: int | str | None = None
    if seed is not None:
        seed_value = int(seed) if seed.isascii() and seed.lstrip("-").isdigit() else seed
    league = _league_player(group, person, db)
    try:
        if resume_file is not None:
            if game_name is not None or option:
                fail("a resumed game takes its game and options from the record; "
                     "give --resume FILE alone (or with --seat, --bots, --seed)")
            path = Path(resume_file) if resume_file else last_saved_game(saved_games_dir())
            if path is None:
                fail(f"no unfinished game is saved in {saved_games_dir()}; "
                     "start one with 'tricktable play GAME'")
            if not resume_file and not _confirm(console, read, path):
                return
            try:
                record = load_record(path)
                session_from_record(record)  # refuses malformed session fields up front
                session = resumed_game(
                    record, path, seat, bots, seed_value, console, read,
                    autosave=not no_save, think=think or None,
                )
            except (TricktableError, ValueError) as e:
                message = str(e)  # said of the file, as replay and analyze say it
                fail(message if message.startswith(str(path)) else f"{path}: {message}")
        else:
            if game_name is None:
                fail("name a game to play (see 'tricktable games'), or --resume [FILE]")
            game = _make_game(game_name, option or [])
            session = new_game(
                game, 0 if seat is None else seat, bots or default_opponent(game.name),
                seed_value, console, read,
                autosave_dir=None if no_save else saved_games_dir(), think=think or None,
            )
    except (TricktableError, ValueError) as e:
        fail(str(e))
    if league is not None:
        session.table.names[session.setup.seat] = league[1]
    try:
        session.play()
        if league is not None and session.table.over:
            _count_in_league(console, league, session.setup.seat, session.record())
    except QuitGame as e:
        session.leave(str(e))
        if e.interrupted:
            raise typer.Exit(130) from None
    except KeyboardInterrupt:
        session.leave("interrupted")
        raise typer.Exit(130) from None


def _league_player(group: str | None, person: str | None, db: str | None
                   ) -> tuple[str, str, str | None] | None:
    """(group, person, database) of a game to count in a league group, checked before the
    game starts; None without --group."""
    if group is None and person is None:
        return None
    if group is None or person is None:
        fail("a game counted in a league names both the group and you: --group NAME --as "
             "YOUR-NAME")
    from .league.live import check_player
    from .league.model import LeagueError
    from .league.store import LeagueStore

    try:
        store = LeagueStore(db)
    except Exception as e:
        fail(f"cannot open the league's database: {str(e).splitlines()[0][:200]}")
    try:
        check_player(store, group.strip(), person.strip())
    except LeagueError as e:
        fail(str(e))
    finally:
        store.close()
    return group.strip(), person.strip(), db


def _count_in_league(console: Console, league: tuple[str, str, str | None], seat: int,
                     record: Record) -> None:
    """Count the finished game in the group's league and say what it changed."""
    from datetime import UTC, datetime

    from .league.live import count_terminal_game
    from .league.store import LeagueStore

    group, person, db = league
    try:
        store = LeagueStore(db)
        try:
            news = count_terminal_game(store, group, person, seat, record, datetime.now(UTC))
        finally:
            store.close()
    except Exception as e:  # the game is saved: it can still be imported by hand
        console.print(f"The game could not be counted in {shown(group)}'s league: "
                      f"{shown(str(e).splitlines()[0][:200])}. Import its record with "
                      "'tricktable league import'.")
        return
    console.print(f"Counted in {shown(group)}'s league.")
    for line in news:
        console.print(f"  {shown(line)}")


def _confirm(console: Console, read: object, path: Path) -> bool:
    """Offer the last saved game; Enter or 'y' takes it."""
    from .play.terminal import describe_saved_game

    console.print(f"The last game: {shown(describe_saved_game(path))}")
    assert callable(read)
    try:
        answer = str(read("Carry on with it? [Y/n] ")).strip().lower()
    except EOFError:
        return False
    return answer in ("", "y", "yes")


@app.command("simulate")
def simulate_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game to simulate.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=MAX_GAMES,
                                       help="Games (deal sets in duplicate mode) to play.")
                     ] = 100,
    bots: Annotated[
        str, typer.Option("--bots", help="One bot name per player seat, comma-separated "
                          "(e.g. rules,random,rules,random), or a pattern repeated round the "
                          "table (rules,random), or one name for all.")
    ] = "rules",
    seed: Annotated[str, typer.Option("--seed", help="Seed of the simulation.")] = "0",
    workers: Annotated[int, typer.Option("--workers", "-j", min=1, max=MAX_WORKERS,
                                         help="Worker processes.")] = 1,
    duplicate: Annotated[
        bool, typer.Option("--duplicate", help="Replay every deal set with the bots rotated "
                           "round the seats, to cancel the luck of the cards.")
    ] = False,
    max_hands: Annotated[
        int, typer.Option("--max-hands", min=1, max=MAX_HANDS_LIMIT,
                          help="Stop a game after this many hands and count it unfinished.")
    ] = 200,
    records: Annotated[
        Path | None, typer.Option("--records", help="Save every game's record in this directory.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A table option NAME=VALUE (repeatable)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of a table.")
    ] = False,
    backend: Annotated[
        str, typer.Option("--backend", help="local (worker processes here) or ray (Ray "
                          "tasks; extra 'ray').")
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="With --backend ray: an existing Ray "
                                 "cluster (e.g. ray://head:10001); default: a local Ray.")
    ] = None,
) -> None:
    """Play many games between bots and summarise wins and scores.

    Same seed, same results, whatever the number of workers (search bots search a fixed
    amount here, never against the clock).
    """
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from .play.simulate import run, seat_pattern, summarize, summary_json

    if backend not in ("local", "ray"):
        fail(f"--backend is local or ray, not {plain(backend, 20)!r}")
    if address is not None and backend != "ray":
        fail("--address goes with --backend ray")
    if backend == "ray":
        try:
            from .research.ray import run as run_on_ray
        except ImportError:
            fail("--backend ray needs the ray extra: pip install 'tricktable[ray]'")
    game = _make_game(game_name, option or [])
    opts = game.options.to_mapping()
    try:
        names = seat_pattern(bots, len(game.player_seats), game.partnership)
    except ValueError as e:
        fail(f"--bots: {e}")
    if records is not None:
        _check_directory(records)
    seed_value: int | str = int(seed) if seed.isascii() and seed.lstrip("-").isdigit() else seed
    start = time.perf_counter()
    total = games * (len(names) if duplicate else 1)
    try:
        with Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=stderr, transient=True, disable=as_json,
        ) as progress:
            task = progress.add_task(f"{game_name}", total=total)
            if backend == "ray":
                outcomes = run_on_ray(
                    game_name, opts, names, games, seed_value, workers=workers,
                    duplicate=duplicate, max_hands=max_hands, records_dir=records,
                    progress=lambda n: progress.advance(task, n), address=address,
                )
            else:
                outcomes = run(
                    game_name, opts, names, games, seed_value, workers=workers,
                    duplicate=duplicate, max_hands=max_hands, records_dir=records,
                    progress=lambda n: progress.advance(task, n),
                )
    except OptionError as e:
        fail(str(e))
    except ConnectionError as e:  # Ray could not reach the cluster
        fail(f"--address: cannot reach the Ray cluster: {plain(str(e), 160)}")
    seconds = time.perf_counter() - start
    if as_json:
        sys.stdout.write(json.dumps(summary_json(game, outcomes, seconds), indent=1) + "\n")
        return
    unfinished = sum(1 for o in outcomes if not o.finished)
    hands = sum(o.hands for o in outcomes)
    title = f"{game.title}: {len(outcomes)} games" + (" in duplicate" if duplicate else "")
    table = Table(title=title)
    table.add_column("bot")
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate (95% CI)", justify="right")
    table.add_column("score per hand (95% CI)", justify="right")
    for s in summarize(outcomes):
        lo, hi = s.win_interval
        mlo, mhi = s.mean_interval
        table.add_row(
            s.bot, str(s.games), str(s.wins),
            f"{s.win_rate:.1%} ({lo:.1%} to {hi:.1%})",
            f"{s.mean_per_hand:.2f} ({mlo:.2f} to {mhi:.2f})",
        )
    stdout.print(table)
    stdout.print(
        f"seats: {', '.join(f'{p}={n}' for p, n in zip(game.player_seats, names, strict=True))}"
        if len(set(names)) > 1 else f"every seat: {names[0]}"
    )
    stdout.print(
        f"seed {shown(seed)}"
        f"; {hands} hands in {seconds:.1f} s ({_per_second(hands, seconds)})"
    )
    if unfinished:
        stdout.print(f"{unfinished} game(s) unfinished after {max_hands} hands (no winner).")
    if records is not None:
        stdout.print(f"records saved in {records}/")


@app.command("analyze")
def analyze_command(
    file: Annotated[Path, typer.Argument(help="A game record (tricktable-record/1 JSON).")],
    hand: Annotated[int | None, typer.Option("--hand", help="Only this hand (1-based).")] = None,
    seat: Annotated[int | None, typer.Option("--seat", help="Only this seat's cards.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of tables.")
    ] = False,
) -> None:
    """Double-dummy review: for every card played, the tricks the player's side could take
    before and after it, the cards that cost tricks and the better ones; nils; par.

    The whole record is checked first: one that does not replay is refused (status 2, one
    line naming the file, the hand, the action and the rule), whatever --hand says.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    if not search_installed():
        fail("analyze reviews hands with the double-dummy solver, which needs the search "
             "extra: pip install 'tricktable[search]'")
    from .analysis import review_record  # the solver is loaded only by this command

    record, state = _checked_record(file)
    game = state.game
    if seat is not None and not 0 <= seat < game.num_seats:
        fail(f"--seat {seat}: the seats of {game.name} are 0 to {game.num_seats - 1}")
    try:
        with Progress(
            TextColumn("hand {task.fields[hand]}"), BarColumn(), MofNCompleteColumn(),
            TimeElapsedColumn(), TextColumn("{task.fields[doing]}"), console=stderr,
            transient=True, disable=not stderr.is_terminal,
        ) as bar:
            task = bar.add_task("review", total=None, hand="", doing="")

            def tick(n: int, done: int, total: int, doing: str) -> None:
                bar.update(task, completed=done, total=total, hand=n, doing=doing)

            reviews = review_record(record, None if hand is None else [hand], tick)
    except RecordError as e:
        fail(f"{file}: {e}")
    if seat is not None:
        for r in reviews:
            r.cards = [c for c in r.cards if c.seat == seat]
            r.nils = [n for n in r.nils if n.seat == seat]
            r.thrown = {k: v for k, v in r.thrown.items() if k == str(seat)}
    if as_json:
        obj = {"game": record.game, "hands": [r.to_json() for r in reviews]}
        sys.stdout.write(json.dumps(obj, indent=1) + "\n")
        return
    for r in reviews:
        stdout.print(_review_table(game, file.name, r))
        par = ", ".join(f"seats {side} {tricks}" for side, tricks in r.par.items())
        stdout.print(f"par from the first lead: {par}")
        for n in r.nils:
            where = (
                f"; lost by {n.lost_at.card} (seat {n.lost_at.seat}, trick {n.lost_at.trick})"
                if n.lost_at else ""
            )
            verdict = "makeable" if n.makeable else "not makeable"
            stdout.print(f"nil of seat {n.seat}: {verdict}, {'made' if n.made else 'set'}{where}")
        thrown = ", ".join(
            f"seat {s}" + (f" {shown(record.players[s])}" if s in record.players else "")
            + f" {t}" for s, t in r.thrown.items()
        )
        stdout.print(f"tricks thrown away: {thrown}")


def _review_table(game: Game, file_name: str, review: HandReview) -> Table:
    """One hand's review, card by card; the cards that threw tricks away in red."""
    table = Table(title=f"{game.title} — {shown(file_name)} — hand {review.hand}")
    for column in ("trick", "seat", "card", "side", "before", "after", "cost"):
        table.add_column(column, justify="right" if column != "card" else "left")
    table.add_column("better")
    for c in review.cards:
        table.add_row(
            str(c.trick), str(c.seat), c.card, "+".join(map(str, c.side)), str(c.before),
            str(c.after), str(c.cost) if c.cost else "", " ".join(c.better),
            style="bold red" if c.cost > 0 else None,
        )
    return table


def _check_directory(path: Path) -> None:
    """``--records DIR`` must be a directory that exists or can be made, and writable."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"--records: cannot make the directory {path}: {e.strerror or e}")
    if not path.is_dir():
        fail(f"--records: {path} is not a directory")
    if not os.access(path, os.W_OK | os.X_OK):
        fail(f"--records: cannot write in {path}")



@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port.")] = 8000,
    db: Annotated[
        str | None, typer.Option("--db", help="Database URL (default: a SQLite file in the "
                                 "user's data directory; postgresql+psycopg://... works).")
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the browser.")] = False,
    think: Annotated[
        float, typer.Option("--think", metavar="SECONDS", min=0.0, max=MAX_THINK,
                            help=THINK_HELP)
    ] = DEFAULT_THINK,
    workers: Annotated[
        int, typer.Option("--workers", metavar="N", min=1, max=64,
                          help="Server processes, on ports PORT to PORT+N-1 (PostgreSQL "
                          "only; put nginx in front: docs/deployment.md).")
    ] = 1,
) -> None:
    """Serve tables over the web: friends at one table, bots in empty seats."""
    try:
        from .web import ServeError, serve
        from .web.workers import serve_workers
    except ImportError:
        fail("serve needs the web extra: pip install 'tricktable[web]'")
    try:
        if workers == 1:
            serve(host, port, db, open_browser, think or None)
        else:
            raise typer.Exit(serve_workers(host, port, workers, db, open_browser,
                                           think or None))
    except ServeError as e:
        fail(str(e))

# --- league (players, sessions, standings across games) -----------------------------------

from .league.commands import league_app  # noqa: E402  (the sub-app lives with the league)

app.add_typer(league_app, name="league")


def _tolerant_streams() -> None:
    """On a terminal that cannot show every character (PYTHONIOENCODING=ascii, an old
    console), show '?' for what it cannot show rather than crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="replace")


def _bare_resume(args: list[str]) -> list[str]:
    """``--resume`` with no FILE after it means the last saved game (spelled ``--resume=``
    for the parser, which wants a value)."""
    out = list(args)
    for i, arg in enumerate(out):
        if arg == "--":
            break
        if arg == "--resume" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = "--resume="
    return out


def _say(command: str, message: str) -> None:
    """One line on standard error: the command and what went wrong."""
    text = " ".join(plain(message, limit=4000).split())
    print(f"{command}: {text}", file=sys.stderr)


def run(args: list[str]) -> int:
    """Run the command line ``args``; return the exit status (see the module docstring)."""
    command = "tricktable" + (f" {args[0]}" if args and not args[0].startswith("-") else "")
    try:
        result = app(args=_bare_resume(args), prog_name="tricktable", standalone_mode=False)
    except CommandFailed as e:
        _say(command, str(e))
        return 2
    except typer.Exit as e:
        return int(e.exit_code or 0)
    except (typer.Abort, KeyboardInterrupt):
        _say("tricktable", "interrupted")
        return 130
    except typer.TyperException as e:
        format_message = getattr(e, "format_message", None)
        text = format_message() if callable(format_message) else str(e)
        ctx = getattr(e, "ctx", None)
        where = getattr(ctx, "command_path", None) or command
        _say(where, f"{text} (see '{where} -h')")
        return int(getattr(e, "exit_code", 2) or 2)
    except TricktableError as e:
        _say(command, str(e))
        return 2
    except BrokenPipeError:
        return 0  # the reader went away (tricktable ... | head): nothing is wrong
    except OSError as e:
        _say(command, f"{e.strerror or e}" + (f": {e.filename}" if e.filename else ""))
        return 2
    except Exception as e:
        if os.environ.get("TRICKTABLE_DEBUG"):
            raise
        _say(command, f"internal error ({type(e).__name__}: {e}); please report it "
             "(TRICKTABLE_DEBUG=1 shows where)")
        return 1
    status = result if isinstance(result, int) else 0
    if status == 130:  # typer turns Ctrl-C into this status, silently
        _say("tricktable", "interrupted")
    return status


def main() -> None:
    _tolerant_streams()
    status = run(sys.argv[1:])
    with contextlib.suppress(BrokenPipeError, ValueError):
        sys.stdout.flush()
    sys.exit(status)


if __name__ == "__main__":
    main()
