"""A league group's table in a real browser (issue 41, items 2 and 4): Ann, a member, opens
her group's page, starts a table for the group from it (the lobby learns the group from the
link's fragment and says the table belongs to it), takes her seat under her own name, plays
the game out against bots, and the game-over panel says what changed on the group's sheet;
she adds a bonehead mark there and it shows on the panel and in the league."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from browser import PageErrors, take_one_step

PERSON_KEY = "tricktable.league.person"


def test_a_member_starts_a_group_table_and_its_game_counts(server: Any, browser: Any) -> None:
    made = server.post("/api/groups", {"name": "Lunch", "time_zone": "Europe/Paris"})
    token = made["token"]
    joined = server.post(f"/api/groups/{token}/join", {"name": "Ann"})
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(
        f"localStorage.setItem({json.dumps(PERSON_KEY)}, "
        f"{json.dumps(json.dumps({'key': joined['key']}))});"
        "localStorage.setItem('tricktable.name', JSON.stringify('Ann'));")
    page = context.new_page()
    errors = PageErrors(page)
    try:
        page.goto(f"{server.base}/league/{token}")
        page.click("#start-group-table")
        page.locator("#group-note", has_text="This table belongs to Lunch").wait_for()
        assert page.is_disabled("#public")  # a group's table is not listed for anyone
        page.select_option("#game", "3b-spades")
        page.select_option("#opt-players", "4")
        page.fill("#opt-hands", "1")
        page.fill("#pace", "0")
        page.select_option("#seat-0", "person")
        for s in (1, 2, 3):
            page.select_option(f"#seat-{s}", index=1)  # a bot
        with page.expect_response("**/api/tables") as answered:
            page.click("#create-button")
        created = answered.value.json()
        assert answered.value.status == 201, created
        page.goto(created["invites"]["0"]["url"])
        page.locator("#role", has_text="you are Ann").wait_for(timeout=15000)

        deadline = time.monotonic() + 120
        while page.locator("#end").is_hidden():
            assert time.monotonic() < deadline, "the game did not end"
            if take_one_step(page) is None:
                page.wait_for_timeout(30)  # a poll: the bots' moves arrive by themselves
        news = page.locator("#end .league-news")
        news.locator("h3", has_text="In Lunch's league").wait_for(timeout=30000)
        if page.locator("#sheet-panel").is_visible():  # the last hand's score sheet first
            page.click("#close-sheet")
        assert news.locator("li").count() >= 1
        page.select_option("#end .league-mark select[aria-label='the mark']", "bonehead")
        page.fill("#end .league-mark input", "led the king into the ace")
        page.click("#end .league-mark button")
        news.locator("li", has_text="Ann made a bonehead play: led the king into the ace"
                     ).wait_for(timeout=15000)
        games = server.get(f"/api/groups/{token}/games")["games"]
        assert len(games) == 1
        assert not errors.errors, errors.errors
    finally:
        context.close()
