"""The addresses people can open to reach this server: on ``--host 0.0.0.0`` the server
listens everywhere, and "http://0.0.0.0:8000/" opens nothing on a friend's phone."""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import socket
import struct

_SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def _interface_addresses() -> list[str]:
    """Each network interface's IPv4 address, read from the kernel (no packet is sent)."""
    found = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(s.fileno(), _SIOCGIFADDR, request)
            except OSError:
                continue  # no IPv4 address on this interface
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def _host_addresses() -> list[str]:
    with contextlib.suppress(OSError):
        return [str(info[4][0]) for info in socket.getaddrinfo(
            socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)]
    return []


def addresses_to_open(host: str, port: int) -> list[tuple[str, str]]:
    """(URL, who can open it) for the address the server listens on: this computer, and
    for a wildcard host every address of this machine on a network, private ones first."""
    if host not in ("0.0.0.0", "::", ""):
        shown = f"[{host}]" if ":" in host else host
        return [(f"http://{shown}:{port}/", "open this")]
    out = [(f"http://localhost:{port}/", "on this computer")]
    seen = set()
    candidates = _interface_addresses() + _host_addresses()
    for text in candidates:
        address = ipaddress.ip_address(text)
        if address.is_loopback or address.is_link_local or text in seen:
            continue
        seen.add(text)
        who = "people on your network" if address.is_private else "anyone who can reach it"
        out.append((f"http://{text}:{port}/", who))
    return out
