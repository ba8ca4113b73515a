"""The web server: tables over HTTP and websockets for people and bots (docs/protocol.md).

Needs the ``web`` extra (starlette, uvicorn, websockets, sqlalchemy, alembic, psycopg);
importing this package without it raises ImportError, which ``tricktable serve`` turns
into one line saying what to install.
"""

from __future__ import annotations

from .server import ServeError, serve

__all__ = ["ServeError", "serve"]
