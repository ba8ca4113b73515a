"""Opening a database for a wing that keeps tables in it (the web server, the league):
SQLite by default, any SQLAlchemy URL; the wing's schema brought up to date by its own
Alembic migrations, each wing with its own version table, so they share one file.

Needs SQLAlchemy and Alembic (the ``web`` and ``league`` extras); only those wings
import this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine

MIGRATION_LOCK_KEY = 0x7472_6963_6B6D  # "trickm": one process migrates at a time


def open_database(url: str, migrations: Path) -> Engine:
    """An engine on ``url`` with its schema at the newest revision of ``migrations``."""
    path = url.removeprefix("sqlite:///")
    if path != url and not path.startswith(":memory:"):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    upgrade(engine, migrations)
    return engine


def upgrade(engine: Engine, migrations: Path) -> None:
    """Bring the database to the newest revision of the wing's migrations."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(migrations))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # several server processes starting at once on a new database: one migrates,
            # the others wait for it and then find nothing to do (the lock ends with the
            # transaction)
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": MIGRATION_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    # WAL: readers never wait for the writer. synchronous=NORMAL: a commit survives the
    # process being killed (the OS has the pages); only a power cut may lose the last ones.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()
