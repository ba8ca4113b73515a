"""The ``tricktable`` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from .engine.errors import RecordError
from .engine.game import game_class, game_names
from .engine.records import load_record, replay, summary

app = typer.Typer(
    name="tricktable",
    help="Play, replay and study trick-taking card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

stdout = Console()
stderr = Console(stderr=True)


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
    try:
        record = load_record(file)
        state = replay(record)
    except RecordError as e:
        print(f"tricktable replay: {file}: {e}", file=sys.stderr)
        raise typer.Exit(2) from None
    result = summary(state)
    if as_json:
        sys.stdout.write(json.dumps(result, indent=1) + "\n")
        return
    game = state.game
    table = Table(title=f"{game.title} — {file.name}")
    table.add_column("hand", justify="right")
    labels = list(result["totals"])
    who = "team" if game.partnership else "seat"
    for label in labels:
        name = record.players.get(label, "") if not game.partnership else ""
        table.add_column(f"{who} {label}" + (f" {name}" if name else ""), justify="right")
    table.add_column("notes")
    shown = game.replay_notes
    for i, hand in enumerate(result["hands"], 1):
        cells = [f"{hand['scores'][k]:+d} → {hand['totals'][k]}" for k in labels]
        notes = ", ".join(
            f"{k} {_short(v)}"
            for k, v in hand.items()
            if k not in ("scores", "totals") and (shown is None or k in shown)
            and v is not None and v != [] and v != {}
        )
        table.add_row(str(i), *cells, notes)
    stdout.print(table)
    for line in game.score_lines(state):
        stdout.print(line)
    if result["finished"]:
        stdout.print(f"Game over: {who} {result['winner']} wins.")
    else:
        stdout.print("The game is not finished; scores so far are shown.")


def _short(value: object) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}:{v}" for k, v in value.items())
    return str(value)


@app.command("games")
def games_command(
    name: Annotated[str | None, typer.Argument(help="Show one game's options.")] = None,
) -> None:
    """List the games and their table options (set with --option NAME=VALUE)."""
    names = [name] if name else game_names()
    for n in names:
        try:
            cls = game_class(n)
        except Exception as e:  # unknown name: say which exist
            stderr.print(str(e))
            raise typer.Exit(2) from None
        table = Table(title=f"{n} — {cls.title}", show_lines=False)
        table.add_column("option")
        table.add_column("default")
        table.add_column("meaning")
        for info in cls.options_type.describe():
            choices = f" ({', '.join(map(str, info.choices))})" if info.choices else ""
            table.add_row(info.name, repr(info.default), info.doc + choices)
        stdout.print(table)


# --- play and simulate (bots) ---------------------------------------------------------------


def _options(game_name: str, pairs: list[str]) -> dict[str, object]:
    """``--option NAME=VALUE`` pairs checked against the game's options."""
    from .engine.errors import OptionError

    cls = game_class(game_name)
    try:
        return cls.options_type.parse_pairs(pairs).to_mapping()
    except OptionError as e:
        raise typer.BadParameter(str(e), param_hint="--option") from None


@app.command("play")
def play_command(
    game_name: Annotated[
        str | None, typer.Argument(metavar="GAME", help="The game (see 'tricktable games').")
    ] = None,
    seat: Annotated[int | None, typer.Option("--seat", help="Your seat (default 0).")] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots", help="The bots: one name for all (rules, random), or one per other "
            "player in seat order, e.g. rules,random,rules.",
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
        Path | None,
        typer.Option("--resume", help="Carry on a game saved with 'save' (a record)."),
    ] = None,
) -> None:
    """Play one seat in the terminal against bots.

    Type a choice in the record notation without the seat ('play 4H', 'bid 4', 'give 2C 3D
    4S') or short ('4H', '4', 'nil'); 'help' lists the legal choices, 'save [FILE]' writes a
    record to resume later with --resume, 'quit' leaves.
    """
    from .engine.errors import OptionError, TricktableError
    from .engine.game import make_game
    from .engine.records import load_record
    from .play.terminal import QuitGame, new_game, resumed_game

    console = Console(highlight=False)

    def read(prompt: str) -> str:
        return console.input(prompt)

    seed_value: int | str | None = None
    if seed is not None:
        seed_value = int(seed) if seed.lstrip("-").isdigit() else seed
    try:
        if resume_file is not None:
            if game_name is not None or option:
                raise typer.BadParameter(
                    "a resumed game takes its game and options from the record",
                    param_hint="GAME/--option",
                )
            record = load_record(resume_file)
            session = resumed_game(record, resume_file, seat, bots, seed_value, console, read)
        else:
            if game_name is None:
                raise typer.BadParameter("name a game to play (or --resume FILE)",
                                         param_hint="GAME")
            game = make_game(game_name, _options(game_name, option or []))
            session = new_game(
                game, 0 if seat is None else seat, bots or "rules", seed_value, console, read
            )
    except (TricktableError, ValueError) as e:
        stderr.print(f"tricktable play: {e}")
        raise typer.Exit(2) from None
    try:
        session.play()
    except QuitGame:
        console.print("\nLeft the table. (A game saved with 'save' can be resumed.)")
    except OptionError as e:  # a bot name that does not exist, found late
        stderr.print(f"tricktable play: {e}")
        raise typer.Exit(2) from None


@app.command("simulate")
def simulate_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game to simulate.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games (deal sets in "
                                       "duplicate mode) to play.")] = 100,
    bots: Annotated[
        str, typer.Option("--bots", help="One bot name per player seat, comma-separated "
                          "(e.g. rules,random,rules,random), or a pattern repeated round the "
                          "table (rules,random), or one name for all.")
    ] = "rules",
    seed: Annotated[str, typer.Option("--seed", help="Seed of the simulation.")] = "0",
    workers: Annotated[int, typer.Option("--workers", "-j", min=1,
                                         help="Worker processes.")] = 1,
    duplicate: Annotated[
        bool, typer.Option("--duplicate", help="Replay every deal set with the bots rotated "
                           "round the seats, to cancel the luck of the cards.")
    ] = False,
    max_hands: Annotated[
        int, typer.Option("--max-hands", min=1, help="Stop a game after this many hands and "
                          "count it unfinished.")
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
) -> None:
    """Play many games between bots and summarise wins and scores.

    Same seed, same results, whatever the number of workers.
    """
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from .engine.errors import OptionError
    from .engine.game import make_game
    from .play.simulate import run, summarize, summary_json

    opts = _options(game_name, option or [])
    game = make_game(game_name, opts)
    names = [n.strip() for n in bots.split(",") if n.strip()]
    if names and len(game.player_seats) % len(names) == 0:
        names = names * (len(game.player_seats) // len(names))  # a pattern round the table
    if len(names) != len(game.player_seats):
        stderr.print(
            f"tricktable simulate: {game_name} has {len(game.player_seats)} players (seats "
            f"{', '.join(map(str, game.player_seats))}); --bots names {len(names)}"
        )
        raise typer.Exit(2)
    seed_value: int | str = int(seed) if seed.lstrip("-").isdigit() else seed
    start = time.perf_counter()
    total = games * (len(names) if duplicate else 1)
    try:
        with Progress(
            "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=stderr, transient=True, disable=as_json,
        ) as progress:
            task = progress.add_task(f"{game_name}", total=total)
            outcomes = run(
                game_name, opts, names, games, seed_value, workers=workers,
                duplicate=duplicate, max_hands=max_hands, records_dir=records,
                progress=lambda n: progress.advance(task, n),
            )
    except OptionError as e:
        stderr.print(f"tricktable simulate: {e}")
        raise typer.Exit(2) from None
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
        f"; seed {seed}; {hands} hands in {seconds:.1f} s ({hands / max(seconds, 1e-9):.0f}/s)"
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
    before and after it, the cards that cost tricks and the better ones; nils; par."""
    from .analysis import analyze_to_console  # the solver is loaded only by this command

    try:
        record = load_record(file)
        analyze_to_console(record, file.name, hand, seat, as_json, stdout, stderr)
    except RecordError as e:
        print(f"tricktable analyze: {file}: {e}", file=sys.stderr)
        raise typer.Exit(2) from None


# --- league (players, sessions, standings across games) -----------------------------------

from .league.commands import league_app  # noqa: E402  (the sub-app lives with the league)

app.add_typer(league_app, name="league")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
