"""``tricktable serve``: the app under uvicorn, on one process."""

from __future__ import annotations

import sys
import threading
import webbrowser

import uvicorn

from .app import create_app
from .store import Store, default_url

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


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None,
          open_browser: bool = False) -> None:
    """Run the server until interrupted. The database is migrated before the first
    request; its location is printed."""
    url = db_url or default_url()
    store = Store(url)
    shown_host = f"[{host}]" if ":" in host else host
    address = f"http://{shown_host}:{port}/"
    print(f"tricktable: database {_shown(url)}", file=sys.stderr)
    print(f"tricktable: serving on {address} (Ctrl-C stops)", file=sys.stderr, flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, [address]).start()
    uvicorn.run(
        create_app(store=store), host=host, port=port, log_level="warning",
        ws_max_size=MAX_SOCKET_MESSAGE, ws_ping_interval=20.0, ws_ping_timeout=20.0,
        lifespan="on",
    )
