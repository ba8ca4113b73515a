"""The lobby in a real browser (Debian's chromium through Playwright) against a real
``tricktable serve``: seats by strength (Casual bot, Strong bot), a friend who leaves is
played for after a grace by default, names counted as a reader counts them, invite links
only for seats nobody has taken, sharing a link (copy, share, a QR code drawn here, nothing
fetched from elsewhere), the tables joined in this browser, and the add-to-home-screen lines
in every page's head."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
from websockets.sync.client import connect

from browser import CHROMIUM, PageErrors, chromium_available

if os.environ.get("TRICKTABLE_REQUIRE_BROWSER") and not chromium_available():
    raise RuntimeError(f"the browser tests are required here but chromium ({CHROMIUM}) or "
                       "Playwright is missing")
pytestmark = pytest.mark.skipif(
    not chromium_available(), reason=f"needs Playwright and chromium at {CHROMIUM}")

GAME = "dummy-hand-spades"
HEAD_LINES = (
    '<link rel="manifest" href="/manifest.webmanifest">',
    '<link rel="icon" href="/favicon.ico">',
    '<link rel="apple-touch-icon" href="/static/icons/icon-192.png">',
    '<meta name="theme-color" content="#1f5e3b">',
)


@pytest.fixture
def page(browser: Any, server: Any) -> Iterator[Any]:
    """A fresh lobby (its own storage), its script errors and every request it made."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    p = context.new_page()
    errors = PageErrors(p)
    p.requests = []  # type: ignore[attr-defined]
    p.on("request", lambda r: p.requests.append(r))  # type: ignore[attr-defined]
    p.goto(server.base + "/")
    p.wait_for_selector("#seat-1")
    yield p
    assert not errors.errors, errors.errors
    context.close()


def levels(server: Any) -> dict[str, str]:
    game = next(g for g in server.get("/api/games")["games"] if g["game"] == GAME)
    return {level["level"]: level["bot"] for level in game["levels"]}


def create(page: Any, name: str = "Ann") -> dict[str, Any]:
    """Fills the name, submits the form; returns the body the page sent."""
    page.fill("#name", name)
    with page.expect_response(
            lambda r: r.url.endswith("/api/tables") and r.request.method == "POST") as answer:
        page.click("#create-button")
    # the page shows this table (an earlier one's panel may still be on screen)
    made = answer.value.json().get("table")
    if made is not None:
        page.wait_for_function(
            "id => (document.querySelector('#created:not([hidden]) h2')?.textContent || '').trim()"
            ".split(/\\s+/)[1] === id", arg=made)
    body: dict[str, Any] = json.loads(answer.value.request.post_data)
    return body


def created_table(page: Any) -> str:
    return str(page.locator("#created h2").inner_text().split()[1])


def test_seats_by_strength_and_the_strong_bot_sits(page: Any, server: Any) -> None:
    strong = levels(server)["strong"]
    labels = page.locator("#seat-1 option").all_inner_texts()
    assert "Casual bot" in labels and "Strong bot" in labels, labels
    # the strongest is the default; the bots by name only behind "More bots"
    assert page.eval_on_selector("#seat-2", "s => s.selectedOptions[0].textContent") == "Strong bot"
    shown = "s => [...s.options].filter(o => !o.hidden && !o.parentElement.hidden).length"
    assert page.eval_on_selector("#seat-1", shown) == 3  # person, casual, strong
    page.click("#more-bots summary")
    bots = len(server.get("/api/games")["bots"])
    page.wait_for_function(f"({shown})(document.getElementById('seat-1')) === {3 + bots}")
    assert page.locator("#more-bots li").count() == len(server.get("/api/games")["bots"])
    page.select_option("#seat-1", label="Person (invite link)")
    body = create(page)
    assert body["seats"] == {"0": "person", "1": "person", "2": strong}
    summary = server.get(f"/api/tables/{created_table(page)}")
    assert summary["seats"][2]["kind"] == "bot" and summary["seats"][2]["bot"] == strong


def test_away_grace_is_on_by_default_and_tables_are_private(page: Any, server: Any) -> None:
    assert page.is_checked("#away-on") and not page.is_checked("#public")
    body = create(page)
    assert body["away_grace"] == 60 and body["stand_in"] == levels(server)["strong"]
    assert body["public"] is False
    summary = server.get(f"/api/tables/{created_table(page)}")
    assert summary["away_grace"] == 60 and summary["public"] is False
    # off: never; a public table is listed
    page.uncheck("#away-on")
    page.check("#public")
    body = create(page)
    assert body["away_grace"] is None and body["public"] is True
    listed = json.dumps(server.get("/api/tables"))
    assert created_table(page) in listed


def test_names_are_counted_as_a_reader_counts_them(page: Any, server: Any) -> None:
    family = "\U0001f469\u200d\U0001f4bb\U0001f468\u200d\U0001f469\u200d\U0001f467"
    create(page, family)
    assert page.locator("#create-error").inner_text() == ""
    assert page.evaluate("JSON.parse(localStorage.getItem('tricktable.name'))") == family
    # 20 families: 20 characters to a reader, 160 UTF-16 units (a maxlength of 40 cut it)
    create(page, "\U0001f468\u200d\U0001f469\u200d\U0001f467" * 20)
    assert page.input_value("#name") == "\U0001f468\u200d\U0001f469\u200d\U0001f467" * 20
    posts = len([r for r in page.requests if r.method == "POST"])
    refused = (("Ann\u0007", "control"), ("Ann\u202eB", "control"), ("x" * 41, "at most 40"))
    for bad, rule in refused:
        page.fill("#name", bad)
        page.wait_for_function(
            "rule => document.getElementById('name-error').textContent.includes(rule)", arg=rule)
        page.click("#create-button")
        page.wait_for_function(
            "rule => document.getElementById('create-error').textContent.includes(rule)", arg=rule)
        assert page.is_visible("#create-button")
        assert page.input_value("#name") == bad  # the form keeps what was typed
    assert len([r for r in page.requests if r.method == "POST"]) == posts


def test_a_claimed_seat_loses_its_link_in_the_hosts_list(page: Any, server: Any) -> None:
    page.select_option("#seat-1", label="Person (invite link)")
    page.select_option("#seat-2", label="Person (invite link)")
    create(page)
    table = created_table(page)
    invites = page.evaluate(
        "id => JSON.parse(localStorage.getItem('tricktable.tables'))"
        ".find(t => t.id === id).invites", table)

    def links_shown() -> list[str]:
        page.goto(server.base + "/")
        row = f".table-row[data-table='{table}'] details.links"
        page.wait_for_selector(row, state="attached")
        values = page.eval_on_selector_all(f"{row} input", "xs => xs.map(x => x.value)")
        return [str(v) for v in values]

    shown = links_shown()
    assert invites["1"] in shown and invites["2"] in shown
    token = invites["1"].split("token=")[1]
    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "name": "Bea", "protocol": 1}))
        deadline = time.monotonic() + 15
        while json.loads(ws.recv(timeout=15)).get("type") != "welcome":
            assert time.monotonic() < deadline
    shown = links_shown()
    assert invites["1"] not in shown and invites["2"] in shown


def test_sharing_a_link_with_a_qr_code_made_here(page: Any, server: Any) -> None:
    page.select_option("#seat-1", label="Person (invite link)")
    create(page)
    row = page.locator("#created .invite").first
    assert row.locator("input[readonly]").input_value().startswith(server.base + "/play/")
    row.locator(".qr-box summary").click()
    qr = row.locator("svg.qr")
    qr.wait_for(state="visible")
    assert len(qr.locator("path").get_attribute("d") or "") > 100
    # without the clipboard API (a phone on http://192.168...), the link is selected to copy
    page.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    row.locator("button.copy").click()
    page.wait_for_function(
        "document.querySelector('#created .copy-said').textContent.includes('Press and hold')")
    assert page.evaluate("document.activeElement.readOnly && document.activeElement.value") \
        == row.locator("input[readonly]").input_value()
    hosts = {urlparse(r.url).hostname for r in page.requests if not r.url.startswith("data:")}
    assert hosts == {"127.0.0.1"}, hosts


def test_tables_joined_are_listed(page: Any, server: Any) -> None:
    answer = server.post("/api/tables", {"game": GAME, "seats": {"0": "person", "1": "rules",
                                                                 "2": "rules"}})
    token = answer["invites"]["0"]["token"]
    page.evaluate("""([id, token]) => import('/static/js/storage.js')
        .then(s => s.rememberJoined(id, token, ''))""", [answer["table"], token])
    page.goto(server.base + "/")
    link = page.locator(f"#joined .table-row[data-table='{answer['table']}'] a")
    link.wait_for()
    assert link.get_attribute("href") == f"/play/{answer['table']}#token={token}"
    page.wait_for_function(f"document.querySelector('#joined a').textContent.includes("
                           f"{json.dumps(answer['title'])})")


def test_every_page_can_go_on_a_home_screen(server: Any) -> None:
    table = server.post("/api/tables", {"game": GAME, "seats": {"0": "person", "1": "rules",
                                                                "2": "rules"}})["table"]
    for path in ("/", f"/play/{table}", "/replay"):
        status, html = fetch_text(server, path)
        assert status == 200
        head = html.split("</head>")[0]
        for line in HEAD_LINES:
            assert line in head, (path, line)
    assert fetch_text(server, "/manifest.webmanifest")[0] == 200
    assert fetch_text(server, "/static/vendor/qrcode-generator.js")[0] == 200


def fetch_text(server: Any, path: str) -> tuple[int, str]:
    import urllib.request

    with urllib.request.urlopen(server.base + path) as r:
        return int(r.status), r.read().decode()
