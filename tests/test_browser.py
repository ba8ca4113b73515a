"""The browser table in a real browser (Debian's chromium through Playwright), against a
real ``tricktable serve`` process: three people finish a hand of Dummy Hand Spades with
flips, one person plays a whole game of every other game against bots by clicks alone, a
reload mid-trick and a server restart mid-hand change nothing, a phone fits, the replay
viewer steps through a finished game, and no page ever holds a card its seat may not see,
neither in its DOM nor in the messages it received.

Screenshots of each game at its key moments go to ``screenshots/`` (docs/development.md).
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from browser import (
    CHROMIUM,
    SCREENSHOTS,
    PageErrors,
    chromium_available,
    take_one_step,
)
from tricktable.play.opponents import default_opponent

if os.environ.get("TRICKTABLE_REQUIRE_BROWSER") and not chromium_available():
    raise RuntimeError(f"the browser tests are required here but chromium ({CHROMIUM}) or "
                       "Playwright is missing")
pytestmark = pytest.mark.skipif(
    not chromium_available(), reason=f"needs Playwright and chromium at {CHROMIUM}")

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|BJ|LJ)(?![A-Za-z0-9])")


SEQ = "document.body ? Number(document.body.dataset.seq || 0) : 0"
"""The view number a table page shows (0 while it loads)."""


def seq_of(page: Any) -> int:
    return int(page.evaluate(SEQ))


def wait_playing(page: Any) -> None:
    """Until the table page shows a game under way (null-safe while the page loads)."""
    page.wait_for_function(
        "document.body !== null && document.body.dataset.status === 'playing'", timeout=15000)


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


class Frames:
    """Every message a page receives on its table socket."""

    def __init__(self, page: Any) -> None:
        self.texts: list[str] = []
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: self.texts.append(
                payload if isinstance(payload, str) else payload.decode())))

    def views(self) -> list[dict[str, Any]]:
        out = []
        for t in self.texts:
            msg = json.loads(t)
            if msg.get("type") == "view":
                out.append(msg)
        return out


def allowed_cards(db_url: str, table_id: str, seat: int | None) -> dict[int, set[str]]:
    """For each view number, the cards the seat's own observation names then (the
    engine's truth, rebuilt from the stored log): all a page of that seat may ever show."""
    from web_helpers import moments

    key: str | int = "spectator" if seat is None else seat
    return {seq: cards_named(views[key], table_id)
            for seq, views in moments(db_url, table_id).items()}


def cards_named(view: Any, table_id: str) -> set[str]:
    """The cards a view names, its table's id left out (a random id such as
    ``lAq_6S_C2ykr`` reads as a card between its underscores)."""
    return set(CARD.findall(json.dumps(view).replace(table_id, " ")))


def check_no_hidden_cards(server: Any, table_id: str, seat: int | None,
                          frames: Frames, dom_cards: list[tuple[int, set[str]]]) -> int:
    """Every view the page received and every DOM snapshot names only cards its seat's
    observation held at that view. Returns the number of views checked."""
    allowed = allowed_cards(server.db_url, table_id, seat)
    views = frames.views()
    assert views, "the page received no view"
    for v in views:
        if v["game_number"] != 0:
            continue
        extra = cards_named(v, table_id) - allowed[v["seq"]]
        assert not extra, f"view {v['seq']} for seat {seat} names hidden cards {extra}"
    for seq, cards in dom_cards:
        extra = {c for c in cards if c not in table_id} - allowed[seq]
        assert not extra, (f"the page at view {seq} (seat {seat}) shows hidden cards {extra}; "
                           f"it may show {sorted(allowed[seq])}")
    return len(views)


def dom_snapshot(page: Any) -> tuple[int, set[str]]:
    """The view number the page shows and every card its DOM names, read in one go (a view
    arriving between two reads would mix two moments)."""
    got = page.evaluate("""() => ({
        seq: Number(document.body.dataset.seq || 0),
        cards: [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card),
        text: document.body.innerText.replaceAll(location.pathname.split('/').pop(), ''),
    })""")
    # the table's id is random text that may hold a card's letters: it is left out above
    return int(got["seq"]), set(got["cards"]) | set(CARD.findall(got["text"]))


def create_in_lobby(page: Any, server: Any, game: str, options: dict[str, str],
                    seats: dict[int, str], name: str = "Ann", bots: str | None = None,
                    expect_default_bot: str | None = None) -> str:
    """Create a table through the lobby's form; returns its id (the page is then at the
    lobby's 'ready' panel). ``bots``: the bot for every seat the lobby gives a bot and
    ``seats`` does not name; ``expect_default_bot``: what the lobby offers there first."""
    page.goto(server.base + "/")
    page.fill("#name", name)
    page.select_option("#game", game)
    for key, value in options.items():
        field = page.locator(f"#opt-{key}")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        elif field.get_attribute("type") == "checkbox":
            field.set_checked(value == "true")
        else:
            field.fill(value)
        field.dispatch_event("change")
    for select in page.locator("select[id^='seat-']").all():
        seat = int(select.get_attribute("id").split("-")[1])
        if seat in seats or select.input_value() == "person":
            continue
        if expect_default_bot is not None:
            assert select.input_value() == expect_default_bot, seat
        if bots is not None:
            select.select_option(bots)
    for seat, kind in seats.items():
        page.select_option(f"#seat-{seat}", kind)
    page.fill("#pace", "0")
    page.click("#create-button")
    page.wait_for_selector("#take-seat")
    heading = page.locator("#created h2").inner_text()
    return heading.split()[1]


def play_until(pages: list[Any], done: Any, timeout: float = 150.0,
               snapshots: dict[int, list[tuple[int, set[str]]]] | None = None,
               on_step: Any = None) -> int:
    """Every page takes its turns by clicking until ``done()``; returns the steps taken."""
    deadline = time.monotonic() + timeout
    steps = 0
    while not done():
        if time.monotonic() > deadline:
            for i, page in enumerate(pages):
                shot(page, f"stuck-{i}")
            raise AssertionError(
                "the game did not finish in time; the pages said: "
                + " | ".join(p.locator("#status").inner_text() + " / "
                             + p.locator("#controls").inner_text()[:300] for p in pages))
        moved = False
        for i, page in enumerate(pages):
            if page.locator("#sheet-panel").is_visible():
                page.click("#close-sheet")
            if page.locator("#end").is_visible():
                continue
            if page.locator("body[data-pause]").count():
                # a completed trick on show: a tap on the table goes on (a person in a hurry;
                # tests/test_browser_table.py lets the pause run out by itself)
                page.click("#felt")
                moved = True
                continue
            did = take_one_step(page)
            if did:
                moved = True
                steps += 1
                if on_step:
                    on_step(page, steps)
                if snapshots is not None and steps % 7 == 0:
                    snapshots.setdefault(i, []).append(dom_snapshot(page))
        if not moved:
            pages[0].wait_for_timeout(50)
    return steps


def test_three_people_finish_a_hand_of_dummy_hand_spades_with_flips(server: Any, browser: Any
                                                                  ) -> None:
    contexts = [browser.new_context(viewport={"width": 1100, "height": 900}),
                browser.new_context(viewport={"width": 1000, "height": 850}),
                browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True)]
    pages = [c.new_page() for c in contexts]
    errors = [PageErrors(p) for p in pages]
    frames = [Frames(p) for p in pages]
    host = pages[0]
    table = create_in_lobby(host, server, "dummy-hand-spades", {"peek": "flip-2", "target": "100"},
                            {1: "person", 2: "person"})
    links = {s: host.locator(f"#created input[aria-label='Seat {s}: link']").input_value()
             for s in (1, 2)}
    host.click("#take-seat")
    # a name with markup is shown as the text it is, on every page
    for seat, name in ((1, "<i>Bea</i>"), (2, "Cy")):
        page = pages[seat]
        page.goto(links[seat])
        page.wait_for_selector("#name-form:not([hidden])")
        page.fill("#name-input", name)
        page.click("#name-form button[type=submit]")
    for page in pages:
        wait_playing(page)
    for page in pages:
        page.wait_for_selector(".seat-name:has-text('<i>Bea</i>')")
        assert page.locator(".seat i, #facts i").count() == 0
    # the phone: the whole table fits 390 px without scrolling sideways
    assert pages[2].evaluate("document.documentElement.scrollWidth") <= 390

    snapshots: dict[int, list[tuple[int, set[str]]]] = {}
    shots = {"bidding": False, "play": False}

    def on_step(page: Any, steps: int) -> None:
        if not shots["bidding"] and page.locator("#controls .rule").count() and \
                "team's bid" in page.locator("#controls").inner_text():
            shot(page, "dummy-hand-spades-bidding")
            shots["bidding"] = True
        if not shots["play"] and page.locator(".seat.dummy .card:not(.back)").count() >= 8 \
                and page.locator(".trick .card").count() >= 2:
            shot(page, "dummy-hand-spades-play")
            shot(pages[2], "dummy-hand-spades-phone")
            shots["play"] = True

    def hand_scored() -> bool:
        return all(p.locator("#sheet-panel").is_visible() or p.locator("#end").is_visible()
                   or "hand 2" in p.locator("#hand-number").inner_text() for p in pages)

    play_until(pages, hand_scored, snapshots=snapshots, on_step=on_step)
    shot(host, "dummy-hand-spades-score-sheet")
    assert "how this hand scored" in host.locator("#sheet-panel").inner_text() or \
        host.locator("#end").is_visible()
    for seat, page in enumerate(pages):
        snapshots.setdefault(seat, []).append(dom_snapshot(page))
        assert check_no_hidden_cards(server, table, seat, frames[seat], snapshots[seat]) > 10
        assert not errors[seat].errors, errors[seat].errors
    for c in contexts:
        c.close()


GAMES = [
    ("spades", {"target": "100"}),
    ("3b-spades", {"players": "3", "hands": "1"}),
    ("3b-spades", {"players": "5", "hands": "1"}),
    ("dummy-whist", {"target": "3", "jokers": "true", "honour": "true"}),
    ("double-dummy-whist", {"target": "3"}),
    ("paperless-spades", {"limit": "1"}),
    ("dummy-hand-spades", {"target": "100", "peek": "three-peeky"}),
]


@pytest.mark.parametrize("game,options", GAMES,
                         ids=[f"{g}-{'-'.join(o.values())}" for g, o in GAMES])
def test_a_person_plays_a_whole_game_against_bots_by_clicks(
        server: Any, browser: Any, game: str, options: dict[str, str]) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors = PageErrors(page)
    frames = Frames(page)
    # rules bots, whatever the lobby offers first: the test is about the table, and the
    # search bots' thinking would only make it slower
    default = default_opponent(game)
    table = create_in_lobby(page, server, game, options, {}, bots="rules",
                            expect_default_bot=default)
    page.click("#take-seat")
    wait_playing(page)
    name = "-".join([game] + [options[k] for k in ("players", "peek") if k in options])
    snapshots: dict[int, list[tuple[int, set[str]]]] = {}
    shot_taken = {"play": False}

    def on_step(p: Any, steps: int) -> None:
        if not shot_taken["play"] and p.locator(".trick .card").count() >= 2:
            shot(p, f"{name}-play")
            shot_taken["play"] = True

    play_until([page], lambda: page.locator("#end").is_visible(), timeout=240,
               snapshots=snapshots, on_step=on_step)
    if page.locator("#sheet-panel").is_visible():
        shot(page, f"{name}-score-sheet")
        page.click("#close-sheet")
    shot(page, f"{name}-game-over")
    end = page.locator("#end").inner_text()
    assert "won" in end or "over" in end
    if game == "3b-spades":
        assert "Tray person" in end or "tray person" in end.lower()
    # the record downloads from the end panel, and the replay viewer steps through it
    href = page.locator("#end a[download]").get_attribute("href")
    record = page.request.get(server.base + href)
    assert record.ok and json.loads(record.text())["game"] == game
    snapshots.setdefault(0, []).append(dom_snapshot(page))
    assert check_no_hidden_cards(server, table, 0, frames, snapshots[0]) > 5
    page.click("#end a:has-text('Replay it')")
    page.wait_for_selector("#viewer:not([hidden])")
    label_is_not = "text => document.querySelector('#label').textContent !== text"
    page.wait_for_function("document.querySelector('#label').textContent.includes(' of ')")
    first = page.locator("#label").inner_text()
    # the end of the first trick: its cards stay on the felt, with who won it
    page.click("#trick-on")
    page.wait_for_function(label_is_not, arg=first)
    page.wait_for_selector(".trick .trick-caption:has-text('won by')")
    assert page.locator(".trick [data-card]").count() >= 2
    assert page.locator("#felt [data-card]").count() > 0
    # the next hand's frames are asked for when the viewer moves to it
    before = page.locator("#label").inner_text()
    page.click("#hand-on")
    page.wait_for_function(label_is_not, arg=before)
    page.select_option("#seat", "0")
    page.wait_for_function("document.querySelector('#label').textContent.includes('of')")
    assert not errors.errors, errors.errors
    context.close()


MY_TURN_MID_TRICK = """() => {
  const trick = document.querySelector('.trick');
  return trick !== null && trick.dataset.shows === 'current' && !document.body.dataset.sent &&
    trick.querySelectorAll('[data-card]').length > 0 &&
    document.querySelector('#status').textContent.startsWith('Your turn') &&
    document.querySelectorAll('#hand button.card.legal').length > 0;
}"""
"""This person's turn with cards on the trick in progress (not a completed trick on show,
nor a choice already sent whose answer is on its way), read in one go: a view arriving
between two reads would mix two moments."""

TRICK_AND_HAND = """() => ({
  trick: [...document.querySelectorAll('.trick [data-card]')].map(e => e.dataset.card).sort(),
  hand: [...document.querySelectorAll('#hand [data-card]')].map(e => e.dataset.card).sort(),
})"""


def test_a_reload_mid_trick_carries_on(server: Any, browser: Any) -> None:
    context = browser.new_context()
    page = context.new_page()
    errors = PageErrors(page)
    create_in_lobby(page, server, "spades", {"target": "100"}, {})
    page.click("#take-seat")
    wait_playing(page)
    # play until it is our turn with cards already on the trick: the table waits for us
    play_until([page], lambda: page.evaluate(MY_TURN_MID_TRICK), timeout=60)
    before = page.evaluate(TRICK_AND_HAND)
    page.reload()
    page.wait_for_function(MY_TURN_MID_TRICK, timeout=15000)
    assert page.evaluate(TRICK_AND_HAND) == before
    assert take_one_step(page) is not None
    page.wait_for_function("document.querySelectorAll('#hand [data-card]').length === "
                           f"{len(before['hand']) - 1}")
    assert not errors.errors, errors.errors
    context.close()


def test_every_page_recovers_by_itself_after_a_server_restart(tmp_path: Path, browser: Any) -> None:
    from web_process import Server

    server = Server(f"sqlite:///{tmp_path / 'restart.db'}")
    server.start()
    try:
        pages = [browser.new_context().new_page() for _ in range(2)]
        frames = [Frames(p) for p in pages]
        host = pages[0]
        table = create_in_lobby(host, server, "spades", {"target": "100"}, {2: "person"})
        link = host.locator("#created input[aria-label='Seat 2: link']").input_value()
        host.click("#take-seat")
        pages[1].goto(link)
        pages[1].wait_for_selector("#name-form:not([hidden])")
        pages[1].fill("#name-input", "Bea")
        pages[1].click("#name-form button[type=submit]")
        for p in pages:
            wait_playing(p)
        play_until(pages, lambda: seq_of(host) >= 12, timeout=60)
        seq_before = seq_of(host)
        server.kill()
        for p in pages:
            p.wait_for_selector("#connection.reconnecting", timeout=10000)
        server.start()
        for p in pages:
            p.wait_for_selector("#connection.connected", timeout=20000)
            assert seq_of(p) >= seq_before
        play_until(pages, lambda: seq_of(host)
                   >= seq_before + 12, timeout=60)
        for seat, p in zip((0, 2), pages, strict=True):
            check_no_hidden_cards(server, table, seat, frames[pages.index(p)], [dom_snapshot(p)])
    finally:
        server.stop()


def test_a_spectator_sees_no_hand(server: Any, browser: Any) -> None:
    page = browser.new_context().new_page()
    frames = Frames(page)
    table = create_in_lobby(page, server, "paperless-spades", {"limit": "1"}, {})
    spectator = page.locator("#created input[aria-label='Spectators: link']").input_value()
    page.click("#take-seat")
    wait_playing(page)
    watcher = browser.new_context().new_page()
    watch_frames = Frames(watcher)
    watcher.goto(spectator)
    watcher.wait_for_function(f"({SEQ}) > 0", timeout=15000)
    play_until([page], lambda: seq_of(page) >= 20, timeout=60)
    watcher.wait_for_selector("#hand:has-text('Spectators see')")
    check_no_hidden_cards(server, table, None, watch_frames, [dom_snapshot(watcher)])
    check_no_hidden_cards(server, table, 0, frames, [dom_snapshot(page)])
