"""The README and the docs keep their promises: every relative link leads to a file that
exists (and to a heading that exists, when it names one), and every ``tricktable`` command
shown in a code block of the README (and of the docs pages written as "run this") is one
the real command line accepts.

The commands are parsed by the typer app's own click commands (``make_context``), in this
process, without running them: an unknown sub-command, an unknown option, a missing value
or a value of the wrong type fails here, as it would fail a reader who typed it; so does
an unknown game or a table option (``-o NAME=VALUE``) the game refuses.
"""

from __future__ import annotations

import functools
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main

from tricktable import cli
from tricktable.engine.errors import TricktableError
from tricktable.engine.game import game_class

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
# The pages whose code blocks are checked as commands: the README (what a newcomer types)
# and the docs pages written as "run this" (the others show synopses with [brackets]).
COMMAND_PAGES = [README] + [
    ROOT / "docs" / name for name in ("bots.md", "solver.md", "benchmarks.md", "development.md")
]

GAME_COMMANDS = ("games", "play", "simulate")  # the commands whose argument is a game
FENCE = re.compile(r"^(```|~~~)")
INLINE_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
COMMAND_START = re.compile(r"^\s*(\S*/)?tricktable(\s|$)")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _outside_fences(text: str) -> str:
    """The text with fenced code blocks blanked (a link-like string in code is code)."""
    kept, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            kept.append("")
            continue
        kept.append("" if fenced else line)
    return "\n".join(kept)


def links(text: str) -> list[str]:
    """Every link target of a markdown text (inline, image and reference-style)."""
    body = _outside_fences(text)
    return INLINE_LINK.findall(body) + REFERENCE_LINK.findall(body)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces
    as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors a markdown page offers (a repeated heading gets -1, -2, ... as on
    GitHub)."""
    seen: dict[str, int] = {}
    out = set()
    for line in _outside_fences(text).splitlines():
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def broken_links(page: Path, text: str) -> list[str]:
    """The relative links of ``page`` (whose text is ``text``) that lead nowhere."""
    problems = []
    for target in links(text):
        if SCHEME.match(target):
            continue  # http:, https:, mailto: ... are not checked here
        path_part, _, anchor = target.partition("#")
        destination = (page.parent / path_part).resolve() if path_part else page
        if not destination.exists():
            problems.append(f"{target}: no such file {destination}")
            continue
        if (
            anchor
            and destination.suffix == ".md"
            and anchor not in anchors(destination.read_text(encoding="utf-8"))
        ):
            problems.append(f"{target}: no heading #{anchor} in {destination.name}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    assert broken_links(page, page.read_text(encoding="utf-8")) == []


def code_lines(text: str) -> list[str]:
    """The lines of a markdown text's code blocks: fenced, or indented by four spaces
    after a blank line (continuation lines of a list are not code)."""
    out, fenced, indented, previous_blank = [], False, False, True
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if fenced:
            out.append(line)
            continue
        if line.startswith("    ") and (indented or previous_blank):
            indented = True
            out.append(line)
        elif line.strip():
            indented = False
        previous_blank = not line.strip()
    return out


def tricktable_commands(text: str) -> list[list[str]]:
    """The arguments of every ``tricktable`` command in a text's code blocks (a line may
    chain commands with && or ;)."""
    commands = []
    # a line ending in a backslash goes on in the next
    joined = "\n".join(code_lines(text)).replace("\\\n", " ")
    for line in joined.splitlines():
        for part in re.split(r"&&|;", line):
            if COMMAND_START.match(part):
                commands.append(shlex.split(part, comments=True)[1:])
    return commands


@functools.cache
def _root_command() -> Any:
    """The click command typer builds from the app (built once: it takes a while)."""
    return typer.main.get_command(cli.app)


def command_problem(args: list[str]) -> str | None:
    """Why the real command line would refuse ``tricktable ARGS``, or None."""
    args = cli._bare_resume(args)  # 'play --resume' with no file, as the command reads it
    # typer carries its own click: commands are told apart by what they have, and errors
    # caught by typer's public base class.
    command: Any = _root_command()
    path = ["tricktable"]
    while getattr(command, "commands", None) is not None:  # a group of sub-commands
        if not args or args[0].startswith("-"):
            known = {o for p in command.params for o in p.opts}
            unknown = [a for a in args if a.startswith("-") and a not in known]
            return f"{' '.join(path)}: unknown option {unknown[0]}" if unknown else None
        name, args = args[0], args[1:]
        if name not in command.commands:
            return f"{' '.join(path)}: no sub-command {name!r}"
        command = command.commands[name]
        path.append(name)
    try:
        # Parses and converts every argument (types, counts, required options) without
        # running the command.
        context = command.make_context(" ".join(path), list(args))
    except typer.Exit:  # -h: a real option, which prints help and stops
        return None
    except typer.TyperException as e:
        format_message = getattr(e, "format_message", None)
        return f"{' '.join(path)}: {format_message() if callable(format_message) else e}"
    return game_problem(path[-1], context.params)


def game_problem(command: str, params: dict[str, Any]) -> str | None:
    """For the commands that take a game: why its name or its -o options would be refused,
    or None (read as the command reads them)."""
    name = params.get("game_name", params.get("name")) if command in GAME_COMMANDS else None
    if not isinstance(name, str):
        return None
    try:
        if params.get("option"):
            cli._make_game(name, list(params["option"]))
        else:
            game_class(name)
    except (cli.CommandFailed, TricktableError) as e:
        return f"tricktable {command}: {e}"
    return None


def test_the_readme_shows_commands() -> None:
    # The check below is only worth something if it finds the README's commands.
    assert len(tricktable_commands(README.read_text(encoding="utf-8"))) >= 10


@pytest.mark.parametrize("page", COMMAND_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_shown_is_accepted(page: Path) -> None:
    problems = [
        f"tricktable {shlex.join(args)} -> {problem}"
        for args in tricktable_commands(page.read_text(encoding="utf-8"))
        if (problem := command_problem(args)) is not None
    ]
    assert problems == []


# The checkers themselves: each catches what it is there to catch.


def test_a_missing_file_or_heading_is_caught(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# A heading, with `code`\n\ntext\n", encoding="utf-8")
    page = tmp_path / "page.md"
    text = (
        "[ok](there.md) [ok too](there.md#a-heading-with-code) [web](https://example.org/x)\n"
        "![gone](images/none.png) [no such](there.md#elsewhere)\n"
        "```\n[in code](nowhere.md)\n```\n"
        "[ref]: missing.md\n"
    )
    problems = broken_links(page, text)
    assert len(problems) == 3
    assert any("none.png" in p for p in problems)
    assert any("#elsewhere" in p for p in problems)
    assert any("missing.md" in p for p in problems)


def test_a_wrong_command_is_caught() -> None:
    assert command_problem(["play", "spades", "--seat", "1", "--think", "0"]) is None
    assert command_problem(["play", "--resume"]) is None
    assert command_problem(["league", "standings"]) is None
    assert "no sub-command" in (command_problem(["plya", "spades"]) or "")
    assert "no sub-command" in (command_problem(["league", "tables"]) or "")
    assert "--sead" in (command_problem(["play", "spades", "--sead", "7"]) or "")
    assert command_problem(["simulate", "spades", "--games", "many"]) is not None
    assert command_problem(["league", "import", "a.json"]) is not None  # --group required
    assert "unknown game" in (command_problem(["play", "spadez"]) or "")
    assert command_problem(["play", "dummy-hand-spades", "-o", "peek=flip-9"]) is not None
    assert command_problem(["simulate", "3b-spades", "-o", "players=4"]) is None


def test_code_blocks_are_found_and_prose_is_not() -> None:
    text = (
        "Run `tricktable play spades` in prose: not a block.\n"
        "- a list item\n    tricktable continuation line of the item\n\n"
        "    tricktable games            # an indented block\n\n"
        "```sh\n.venv/bin/pip install x && .venv/bin/tricktable serve --port 9000\n```\n"
    )
    assert tricktable_commands(text) == [["games"], ["serve", "--port", "9000"]]
