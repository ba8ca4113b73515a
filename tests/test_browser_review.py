"""A finished game's hands reviewed double dummy from the table (issue 40): the game-over
panel links the review; the replay viewer opens the last hand and says, in sentences naming
the players, the par and each card that cost its side tricks, with a button that shows the
moment it was played (its "Review this hand" reviews any other)."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("numba", reason="the search extra is not installed")

from browser import PageErrors


def test_the_end_panel_links_the_hands_double_dummy_review(server: Any, browser: Any) -> None:
    created = server.post("/api/tables", {
        "game": "spades", "options": {"target": 100}, "bot_pace": 0,
        "seats": {str(s): "rules" for s in range(4)}})
    table = created["table"]
    deadline = time.monotonic() + 120
    while server.get(f"/api/tables/{table}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)  # a poll of the server's state
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    errors = PageErrors(page)
    try:
        page.goto(created["spectator"]["url"])
        link = page.locator("#end a.hand-review", has_text="Review the hands")
        link.wait_for(timeout=15000)
        hands = len(server.get(f"/api/tables/{table}/records/0",
                               created["spectator"]["token"])["hands"])
        page.goto(link.get_attribute("href") or "")
        review = page.locator("#review")
        review.locator("h2", has_text=f"Hand {hands}, double dummy").wait_for(timeout=60000)
        text = review.inner_text()
        assert "From the first lead, double dummy" in text
        assert "seat " not in text  # people's names (here the bots'), never seat numbers
        shows = review.locator("button", has_text="show")
        if shows.count():
            before = page.locator("#label").inner_text()
            shows.first.click()
            page.wait_for_function(
                "before => document.querySelector('#label').textContent !== before",
                arg=before)
        assert not errors.errors, errors.errors
    finally:
        context.close()
