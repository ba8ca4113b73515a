"""The house rule, enforced: each wing of the package imports only the wings below it.

Ranks, low to high (a module may import its own wing and any lower rank):

    engine                        the rules machinery; imports nothing above it
    games, bots                   the games; the bots (never a game's private module)
    search, analysis              solver, world sampler, search bots; record review
    play                          table runner, terminal, simulation
    web                           the ASGI server, its protocol, store and client
    league, research              statistics across games; research adapters
    cli, __main__                 the command line

Two allowed exceptions: the engine's registry loads the built-in games lazily, inside
``_load_builtin_games``; and the web wing reaches the league through two doors only
(issue 41): ``web/league_link.py`` records a finished game of a group's table and reads who
is a member, ``web/league_routes.py`` serves the league's pages (docs/architecture.md).
Bots may name ``State`` only for type checking: a bot is never given a state.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tricktable"

RANKS = {
    "engine": 0,
    "games": 1,
    "bots": 1,
    "search": 2,
    "analysis": 2,
    "play": 3,
    "web": 4,
    "league": 5,
    "research": 5,
    "cli": 6,
    "__main__": 6,
    "__init__": 6,
}
WEB_DOORS_TO_THE_LEAGUE = {"tricktable.web.league_link", "tricktable.web.league_routes"}
"""The only web modules that may import the league."""

# Wings of one rank that must not import each other.
SEPARATE = {frozenset({"games", "bots"}), frozenset({"league", "research"})}


def wing_of(module: str) -> str:
    """'tricktable.engine.cards' -> 'engine'; 'tricktable.cli' -> 'cli'."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 2:
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[str, int, str | None, bool]]:
    """(imported module, line, enclosing function, under TYPE_CHECKING) for each
    import of a tricktable module in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    base = module_name(path).split(".")
    package = base if is_package else base[:-1]
    found: list[tuple[str, int, str | None, bool]] = []

    def visit(node: ast.AST, func: str | None, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            f, t = func, typing_only
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                f = child.name
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for inner in child.body:
                    visit_one(inner, f, True)
                for inner in child.orelse:
                    visit_one(inner, f, t)
                continue
            visit_one(child, f, t)

    def visit_one(child: ast.AST, func: str | None, typing_only: bool) -> None:
        if isinstance(child, ast.ImportFrom):
            if child.level:
                anchor = package[: len(package) - (child.level - 1)]
                target = ".".join(anchor + ([child.module] if child.module else []))
            else:
                target = child.module or ""
            if target.startswith("tricktable"):
                if child.module is None or target.count(".") == 0:
                    # "from . import games": each name is a module
                    for alias in child.names:
                        found.append((f"{target}.{alias.name}", child.lineno, func, typing_only))
                else:
                    found.append((target, child.lineno, func, typing_only))
        elif isinstance(child, ast.Import):
            for alias in child.names:
                if alias.name.startswith("tricktable"):
                    found.append((alias.name, child.lineno, func, typing_only))
        visit(child, func, typing_only)

    visit(tree, None, False)
    return found


MODULES = sorted(p for p in PACKAGE.rglob("*.py"))


def test_every_wing_has_a_rank() -> None:
    wings = {wing_of(module_name(p)) for p in MODULES}
    assert wings <= set(RANKS), f"give these wings a rank: {wings - set(RANKS)}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_only_look_down(path: Path) -> None:
    here = wing_of(module_name(path))
    for target, line, func, typing_only in imports_of(path):
        there = wing_of(target)
        if there == here or there not in RANKS:
            continue
        where = f"{path.relative_to(PACKAGE)}:{line} imports {target}"
        if here == "engine" and there == "games" and func == "_load_builtin_games":
            continue  # the registry's lazy load
        if typing_only:
            continue
        if there == "league" and module_name(path) in WEB_DOORS_TO_THE_LEAGUE:
            continue
        assert RANKS[there] <= RANKS[here], f"{where}: {there} is above {here}"
        assert frozenset({here, there}) not in SEPARATE, f"{where}: {here} may not use {there}"


@pytest.mark.parametrize(
    "path", sorted((PACKAGE / "bots").rglob("*.py")), ids=lambda p: p.name
)
def test_bots_use_state_only_as_a_type(path: Path) -> None:
    for target, line, _func, typing_only in imports_of(path):
        if target == "tricktable.engine.state":
            assert typing_only, f"bots/{path.name}:{line} imports the state module at run time"


def test_the_engine_loads_no_heavy_or_outer_module() -> None:
    """Importing the engine and every game pulls in no bot, screen, socket or database."""
    import subprocess
    import sys

    code = (
        "import sys, tricktable, tricktable.games;"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "{'rich','typer','sqlalchemy','starlette','fastapi','uvicorn','websockets','numba',"
        "'pettingzoo','pyspiel','ray','matplotlib','socket','sqlite3'} "
        "or m.startswith(('tricktable.bots','tricktable.play','tricktable.web',"
        "'tricktable.search','tricktable.league','tricktable.research'))];"
        "print(','.join(sorted(bad)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"the engine imported: {out}"


def test_old_top_level_names_still_import() -> None:
    """0.1's ``tricktable.cards`` and friends resolve to the moved modules for a release."""
    import importlib
    import warnings

    import tricktable
    from tricktable.engine import cards

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for old, new in tricktable.MOVED_MODULES.items():
            assert importlib.import_module(f"tricktable.{old}") is importlib.import_module(new)
        assert importlib.import_module("tricktable.cards") is cards
