"""On --host 0.0.0.0 the server prints addresses people can open, never 0.0.0.0."""

from __future__ import annotations

from typing import Any

from tricktable.web import addresses
from tricktable.web.addresses import addresses_to_open


def test_a_wildcard_host_is_shown_as_the_machines_addresses(monkeypatch: Any) -> None:
    monkeypatch.setattr(addresses, "_interface_addresses",
                        lambda: ["127.0.0.1", "192.168.1.5", "169.254.3.3", "192.168.1.5"])
    monkeypatch.setattr(addresses, "_host_addresses", lambda: ["10.0.0.7"])
    shown = addresses_to_open("0.0.0.0", 8002)
    assert shown == [
        ("http://localhost:8002/", "on this computer"),
        ("http://192.168.1.5:8002/", "people on your network"),
        ("http://10.0.0.7:8002/", "people on your network"),
    ]
    assert not any("0.0.0.0" in link for link, _ in addresses_to_open("0.0.0.0", 1))


def test_a_named_host_is_shown_as_it_is() -> None:
    assert addresses_to_open("127.0.0.1", 8000) == [("http://127.0.0.1:8000/", "open this")]
    assert addresses_to_open("::1", 8000) == [("http://[::1]:8000/", "open this")]


def test_the_icon_and_the_manifest_are_served(tmp_path: Any) -> None:
    import json

    from web_helpers import client_for, sqlite_url

    with client_for(sqlite_url(tmp_path)) as client:
        icon = client.get("/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/png"
        manifest = client.get("/manifest.webmanifest")
        assert manifest.status_code == 200
        facts = json.loads(manifest.text)
        assert facts["display"] == "standalone"
        for entry in facts["icons"]:
            assert client.get(entry["src"]).status_code == 200
