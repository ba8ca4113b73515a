"""Where tricktable keeps a user's files: saved games (and, for the server, its database).

``TRICKTABLE_DATA_DIR`` overrides the place (tests use it; so can a person who wants the
files elsewhere); otherwise each system's usual place for an application's data.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DATA_DIR_VARIABLE = "TRICKTABLE_DATA_DIR"


def data_dir() -> Path:
    """The user's tricktable folder (not created here)."""
    chosen = os.environ.get(DATA_DIR_VARIABLE)
    if chosen:
        return Path(chosen).expanduser()
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "tricktable"


def saved_games_dir() -> Path:
    """Where games played at the terminal are saved as they are played."""
    return data_dir() / "games"


DATABASE_VARIABLE = "TRICKTABLE_DATABASE_URL"


def default_database_url() -> str:
    """The database of the web server and the league: ``$TRICKTABLE_DATABASE_URL``, else a
    SQLite file in the user's data folder (both keep their own tables and version table
    in it)."""
    url = os.environ.get(DATABASE_VARIABLE)
    if url:
        return url
    return f"sqlite:///{data_dir() / 'tricktable.db'}"
