"""``tricktable serve``: the app under uvicorn, on one process."""

from __future__ import annotations

import gc
import socket
import sys
import threading
import webbrowser

import uvicorn
from sqlalchemy.exc import SQLAlchemyError

from ..bots import DEFAULT_THINK
from .addresses import addresses_to_open
from .app import create_app
from .store import ServingTaken, Store, default_url

MAX_SOCKET_MESSAGE = 64 * 1024
"""uvicorn closes a socket whose message exceeds this; the app refuses anything over
protocol.MAX_MESSAGE_BYTES with a message before that."""


def _shown(url: str) -> str:
    """The database URL as printed: any password hidden."""
    head, at, tail = url.rpartition("@")
    if not at or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, creds = head.partition("//")
    user = creds.split(":", 1)[0]
    return f"{scheme}//{user}:***@{tail}"


class ServeError(Exception):
    """The server cannot start: the database or the address is unusable (one line)."""


def _check_address(host: str, port: int) -> None:
    """Fail now, in words, if the address cannot be listened on (uvicorn would log it
    after the start-up lines)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as e:
        reason = e.strerror or str(e)
        raise ServeError(f"cannot listen on {host} port {port}: {reason.lower()} "
                         "(another server there? try --port)") from None


def open_store(url: str) -> Store:
    """The store at ``url``, migrated; ServeError in one line if it cannot be used."""
    try:
        return Store(url)
    except SQLAlchemyError as e:
        detail = str(getattr(e, "orig", None) or e).splitlines()[0][:200]
        raise ServeError(f"--db: cannot use the database {_shown(url)}: {detail}") from None
    except OSError as e:
        raise ServeError(f"--db: cannot use the database {_shown(url)}: {e}") from None


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None,
          open_browser: bool = False, think: float | None = DEFAULT_THINK) -> None:
    """Run the server until interrupted. The database is migrated before the first
    request; its location is printed. Raises ServeError if it cannot start."""
    url = db_url or default_url()
    _check_address(host, port)
    # Python's full collections scan every live object of every table: measured with 1,000
    # tables (benchmarks/web_load.py), each paused the server for 150-190 ms and set the
    # p99 round trip near 100 ms. Collecting the young generations less often keeps full
    # collections to a few an hour (still made: cyclic garbage is reclaimed) and the
    # measured p99 under 20 ms; reference counting frees everything else at once.
    gc.set_threshold(10_000, 20, 1_000)
    store = open_store(url)
    try:
        store.claim_serving()
    except ServingTaken as e:
        store.close()
        raise ServeError(f"--db {_shown(url)}: {e} (stop it first, or use another --db)") \
            from None
    except SQLAlchemyError as e:
        store.close()
        detail = str(getattr(e, "orig", None) or e).splitlines()[0][:200]
        raise ServeError(f"--db: cannot use the database {_shown(url)}: {detail}") from None
    addresses = addresses_to_open(host, port)
    print(f"tricktable: database {_shown(url)}", file=sys.stderr)
    for link, who in addresses:
        print(f"tricktable: serving on {link} ({who})", file=sys.stderr)
    print("tricktable: Ctrl-C stops the server", file=sys.stderr, flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, [addresses[0][0]]).start()
    uvicorn.run(
        create_app(store=store, think=think, owner=f"{socket.gethostname()}:{port}"),
        host=host, port=port, log_level="warning",
        ws_max_size=MAX_SOCKET_MESSAGE, ws_ping_interval=20.0, ws_ping_timeout=20.0,
        lifespan="on",
    )
