"""What one client address may take of the server: new tables a minute, open sockets, and
how long a socket may wait before it says hello. The figures and why are in
docs/deployment.md ("What the server limits"); tests set them by environment variables."""

from __future__ import annotations

import os
from collections import OrderedDict

from .protocol import RateLimit

CREATE_RATE_VARIABLE = "TRICKTABLE_CREATE_RATE"
CREATE_PER_MINUTE, CREATE_BURST = 30.0, 20.0
"""New tables from one address: 30 a minute after a burst of 20 (a club night makes a
handful; a script making hundreds a second is refused)."""
SOCKETS_VARIABLE = "TRICKTABLE_SOCKETS_PER_ADDRESS"
SOCKETS_PER_ADDRESS = 64
"""Open sockets from one address (a household behind one router with a few tabs each)."""
HELLO_VARIABLE = "TRICKTABLE_HELLO_TIMEOUT"
HELLO_TIMEOUT = 10.0
"""Seconds a new socket has to say hello (the client says it at once)."""
ADDRESSES_KEPT = 10_000
"""Addresses whose creation bucket is remembered (the oldest forgotten first)."""


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, "") or default)
    except ValueError:
        return default


class CreationLimit:
    """A token bucket of new tables per client address."""

    def __init__(self, per_minute: float, burst: float) -> None:
        self.per_minute = per_minute
        self.burst = burst
        self._buckets: OrderedDict[str, RateLimit] = OrderedDict()

    @classmethod
    def from_environment(cls) -> CreationLimit:
        text = os.environ.get(CREATE_RATE_VARIABLE, "")
        per_minute, _, burst = text.partition("/")
        try:
            return cls(float(per_minute), float(burst or per_minute))
        except ValueError:
            return cls(CREATE_PER_MINUTE, CREATE_BURST)

    def allow(self, address: str) -> bool:
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            bucket = RateLimit(self.per_minute / 60.0, self.burst)
        self._buckets[address] = bucket  # the newest last
        while len(self._buckets) > ADDRESSES_KEPT:
            self._buckets.popitem(last=False)
        return bucket.allow()


class SocketCount:
    """Open sockets per client address."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    @classmethod
    def from_environment(cls) -> SocketCount:
        return cls(int(_env_float(SOCKETS_VARIABLE, SOCKETS_PER_ADDRESS)))

    def take(self, address: str) -> bool:
        count = self._open.get(address, 0)
        if count >= self.limit:
            return False
        self._open[address] = count + 1
        return True

    def give_back(self, address: str) -> None:
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)


def hello_timeout() -> float:
    return _env_float(HELLO_VARIABLE, HELLO_TIMEOUT)
