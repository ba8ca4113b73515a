"""The ``tricktable`` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from .errors import RecordError
from .game import game_class, game_names
from .records import load_record, replay, summary

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
    for i, hand in enumerate(result["hands"], 1):
        cells = [f"{hand['scores'][k]:+d} → {hand['totals'][k]}" for k in labels]
        notes = ", ".join(
            f"{k} {_short(v)}" for k, v in hand.items() if k not in ("scores", "totals")
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


def main() -> None:
    app()


if __name__ == "__main__":
    main()
