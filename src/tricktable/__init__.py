"""tricktable: play, host and study trick-taking card games.

The engine in a few names::

    import random
    from tricktable import make_game, step
    game = make_game("spades", {"target": 300})
    state = game.new_game()
    step(state, game.random_deal(state, random.Random(7)))
    step(state, game.legal_actions(state)[0])

The package is built in layers, each using only those below it: ``engine`` (the rules
machinery), ``games`` and ``bots``, ``search``, ``play`` (table, terminal, simulation),
``web``, ``league``, ``research`` and the ``cli``. See docs/architecture.md.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

from .engine.actions import Action, Bid, Deal, Play, parse_action
from .engine.errors import IllegalAction, NotationError, OptionError, RecordError, TricktableError
from .engine.game import Game, game_names, make_game, register, step
from .engine.observation import Observation
from .engine.records import (
    HandRecord,
    Record,
    load_record,
    loads_record,
    record_from_state,
    replay,
    summary,
)
from .engine.state import HandResult, Phase, State, Trick

__all__ = [
    "Action",
    "Bid",
    "Deal",
    "Game",
    "HandRecord",
    "HandResult",
    "IllegalAction",
    "NotationError",
    "Observation",
    "OptionError",
    "Phase",
    "Play",
    "Record",
    "RecordError",
    "State",
    "Trick",
    "TricktableError",
    "game_names",
    "load_record",
    "loads_record",
    "make_game",
    "parse_action",
    "record_from_state",
    "register",
    "replay",
    "step",
    "summary",
]

__version__ = "0.2.0"

# Modules that lived at the top level in 0.1 and moved into a wing in 0.2. Importing them by
# their old name still works for this release (with a DeprecationWarning) and gives the very
# same module object, so nothing is loaded twice.
MOVED_MODULES = {
    **{
        name: f"tricktable.engine.{name}"
        for name in (
            "actions", "cards", "dummy", "errors", "game", "observation", "options",
            "order", "records", "scoring", "state",
        )
    },
    "session": "tricktable.play.table",
    "simulate": "tricktable.play.simulate",
    "terminal": "tricktable.play.terminal",
}


class _MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves ``tricktable.<old name>`` to the module's new home."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        prefix, _, name = fullname.rpartition(".")
        if prefix != __name__ or name not in MOVED_MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # a placeholder module, replaced in exec_module

    def exec_module(self, module: ModuleType) -> None:
        new_name = MOVED_MODULES[module.__name__.rpartition(".")[2]]
        warnings.warn(
            f"{module.__name__} moved to {new_name}; the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        # the import system returns whatever sys.modules holds under the old name now
        sys.modules[module.__name__] = importlib.import_module(new_name)


if not any(isinstance(f, _MovedModuleFinder) for f in sys.meta_path):
    sys.meta_path.append(_MovedModuleFinder())
