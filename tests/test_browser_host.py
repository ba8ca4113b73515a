"""The host's controls and the engine's help on the browser table page (js/host.js,
js/help.js), in a real browser against a real ``tricktable serve``: the host of a table
(this browser made it: its storage holds the host token, as the lobby leaves it) puts a bot
in a seat, gives a seat a new link and ends the table; a person alone with bots asks for a
hint and takes a bid back.

Every wait reads a state of the page or the server, with a deadline; nothing sleeps.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from browser import CHROMIUM, PageErrors, chromium_available, take_one_step

pytestmark = pytest.mark.skipif(
    not chromium_available(), reason=f"needs Playwright and chromium at {CHROMIUM}")


def create(server: Any, seats: dict[str, str]) -> dict[str, Any]:
    body = {"game": "spades", "options": {"target": 100}, "seats": seats, "bot_pace": 0}
    created: dict[str, Any] = server.post("/api/tables", body)
    return created


def hosting(browser: Any, created: dict[str, Any], viewport: dict[str, int] | None = None
            ) -> Any:
    """A browser profile that made ``created`` (storage.js's entry, as the lobby writes it)
    and whose person is called Ann."""
    invites = {seat: i["url"] for seat, i in created["invites"].items()}
    entry = {"id": created["table"], "game": "spades", "title": "Spades", "created": "",
             "host": created["host_token"], "spectator": created["spectator"]["url"],
             "invites": invites, "mine": invites["0"], "mySeat": "0"}
    context = browser.new_context(viewport=viewport or {"width": 1100, "height": 900})
    context.add_init_script(
        "localStorage.setItem('tricktable.name', JSON.stringify('Ann'));"
        f"localStorage.setItem('tricktable.tables', {json.dumps(json.dumps([entry]))});")
    return context


def seat_row(page: Any, seat: int) -> Any:
    return page.locator(f"#host-panel .host-seat[data-seat='{seat}']")


def test_the_host_puts_a_bot_in_gives_a_new_link_and_ends_the_table(
        server: Any, browser: Any) -> None:
    created = create(server, {"0": "person", "1": "person", "2": "rules", "3": "rules"})
    context = hosting(browser, created)
    try:
        page = context.new_page()
        errors = PageErrors(page)
        page.goto(created["invites"]["0"]["url"])
        page.wait_for_function("document.body.dataset.status === 'waiting'", timeout=15000)
        page.click("#host-button")
        panel = page.locator("#host-panel")
        panel.wait_for(state="visible")
        row = seat_row(page, 1)
        row.locator(".host-seat-state").filter(has_text="open: nobody has taken it yet").wait_for()
        assert seat_row(page, 0).locator(".host-seat-name").inner_text() == "Ann (you)"
        assert seat_row(page, 2).locator(".host-seat-name").inner_text() == "Casual bot A"

        # a new link for the open seat: a different one, and the old one opens nothing now
        old = created["invites"]["1"]["url"]
        row.locator("button", has_text="New link").click()
        field = row.locator(".host-link input")
        field.wait_for()
        new = field.input_value()
        assert new != old and f"/play/{created['table']}#token=" in new
        # the page's invitations hand out the new link too
        page.wait_for_function(
            "document.querySelector('#invites input[aria-label=\"invite link for seat 1\"]')"
            f".value === {json.dumps(new)}")
        stale = context.new_page()
        stale.goto(old)
        stale.wait_for_function(
            "document.querySelector('#status').textContent.includes('does not open a seat')",
            timeout=15000)
        stale.close()

        # the strong bot takes seat 1: its row says so, and the game starts
        row.locator("select").select_option(label="Strong")
        row.locator("button", has_text="Put a bot in").click()
        row.locator(".host-seat-name", has_text="Strong bot").wait_for()
        assert row.locator("button", has_text="Give back").is_visible()
        page.wait_for_function("document.body.dataset.status === 'playing'", timeout=15000)

        # spectators may chat: the server's answer sets the toggle
        toggle = page.locator("#host-spectators")
        toggle.check()
        page.wait_for_function("document.querySelector('#host-spectators').checked")
        assert page.locator("#host-panel .host-error").count() == 0

        # the end, after a confirmation
        page.locator("#host-panel button", has_text="End the table").click()
        page.locator("#host-panel button", has_text="Yes, end it for good").click()
        page.wait_for_function(
            "document.querySelector('#status').textContent.startsWith('This table is closed')",
            timeout=15000)
        assert server.get(f"/api/tables/{created['table']}")["status"] == "ended"
        assert page.locator("#host-panel .host-error").count() == 0
        assert not errors.errors, errors.errors
    finally:
        context.close()


def test_a_table_made_elsewhere_has_no_host_button(server: Any, browser: Any) -> None:
    created = create(server, {"0": "person", "1": "rules", "2": "rules", "3": "rules"})
    context = browser.new_context()
    context.add_init_script("localStorage.setItem('tricktable.name', JSON.stringify('Ann'))")
    try:
        page = context.new_page()
        page.goto(created["invites"]["0"]["url"])
        page.wait_for_function("document.body.dataset.status === 'playing'", timeout=15000)
        assert page.locator("#host-button").count() == 0
    finally:
        context.close()


def test_a_person_alone_with_bots_gets_a_hint_and_takes_a_bid_back(
        server: Any, browser: Any) -> None:
    created = create(server, {"0": "person", "1": "rules", "2": "rules", "3": "rules"})
    context = hosting(browser, created)
    try:
        page = context.new_page()
        errors = PageErrors(page)
        page.goto(created["invites"]["0"]["url"])
        page.wait_for_function(
            "document.querySelector('#status').textContent === 'Your turn to bid.'",
            timeout=15000)
        hint = page.locator(".help-buttons button", has_text="Hint")
        assert hint.is_visible() and hint.is_enabled()
        hint.click()
        note = page.locator("#help-note")
        note.filter(has_text="The strong bot would bid").wait_for(timeout=30000)

        # one bid (by a click, once), then the bots' (at once: pace 0); undo brings it back
        seq_before = int(page.evaluate("document.body.dataset.seq"))
        deadline = time.monotonic() + 15
        while take_one_step(page) is None:
            assert time.monotonic() < deadline, "the bid could not be made"
            page.wait_for_timeout(30)  # a poll: the page changed under the click
        page.wait_for_function(
            f"Number(document.body.dataset.seq) > {seq_before} && !document.body.dataset.sent",
            timeout=15000)
        # the play has begun (the bots bid at once): claiming is offered
        page.locator(".help-buttons button", has_text="Claim the rest").wait_for(timeout=15000)
        page.locator(".help-buttons button", has_text="Undo").click()
        page.wait_for_function(
            "document.querySelector('#status').textContent === 'Your turn to bid.'"
            " && document.querySelectorAll('#controls button').length > 0", timeout=15000)
        assert not page.locator(".help-buttons button", has_text="Claim the rest").is_visible()
        assert not errors.errors, errors.errors
    finally:
        context.close()


def test_a_person_claims_some_of_the_tricks_left(server: Any, browser: Any) -> None:
    """"Claim some…" offers 1 to one fewer than the tricks left; the claim goes to the
    solver, whose answer (told, or refused in a sentence) shows over the buttons."""
    created = create(server, {"0": "person", "1": "rules", "2": "rules", "3": "rules"})
    context = hosting(browser, created)
    try:
        page = context.new_page()
        errors = PageErrors(page)
        page.goto(created["invites"]["0"]["url"])
        deadline = time.monotonic() + 30
        while not page.locator(".help-buttons button", has_text="Claim some").is_visible():
            assert time.monotonic() < deadline, "the play never began"
            take_one_step(page)  # the bid, then cards until the play is on
            page.wait_for_timeout(30)  # a poll: the page changes under the clicks
        page.locator(".help-buttons button", has_text="Claim some").click()
        choices = page.locator(".claim-some select option").all_inner_texts()
        assert choices and choices[-1].startswith("1 of the ")
        left = int(choices[0].split(" of the ")[1].split()[0])
        assert len(choices) == left - 1
        page.locator(".claim-some select").select_option("1")
        page.locator(".claim-some button", has_text="Claim them").click()
        page.locator("#help-note").wait_for(state="visible", timeout=30000)
        assert page.locator("#help-note").inner_text().strip()
        assert not errors.errors, errors.errors
    finally:
        context.close()
