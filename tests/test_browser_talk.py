"""Talk at the browser table and a seat's other devices, in a real browser (Debian's chromium
through Playwright) against a real ``tricktable serve``: a chat line is shown as the text it
is (markup and all), a quick reaction in words, a seat's link opened in another browser waits
until the seat's person lets it in, and the seats bear the names the server gives them.

Each browser context is a browser of its own (its own storage, so its own device key).
Nothing here sleeps: each step waits for the page to show what it expects.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import CHROMIUM, PageErrors, chromium_available

pytestmark = pytest.mark.skipif(
    not chromium_available(), reason=f"needs Playwright and chromium at {CHROMIUM}")

SHOTS = Path("/tmp/shots")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def new_browser(browser: Any) -> Iterator[Any]:
    """Opens a browser of its own (a fresh profile) whose person is called ``name``."""
    contexts: list[Any] = []

    def make(name: str, viewport: dict[str, int] | None = None) -> Any:
        c = browser.new_context(viewport=viewport or {"width": 1100, "height": 900},
                                has_touch=viewport == PHONE)
        c.add_init_script(f"localStorage.setItem('tricktable.name', JSON.stringify('{name}'))")
        contexts.append(c)
        return c

    yield make
    for c in contexts:
        c.close()


def two_people(server: Any, people: tuple[str, ...] = ("0", "2")) -> dict[str, Any]:
    """A table of people (seats 0 and 2) and casual bots, slow enough to talk."""
    seats = {str(s): "person" if str(s) in people else "rules" for s in range(4)}
    created: dict[str, Any] = server.post("/api/tables", {
        "game": "spades", "options": {"target": 100}, "seats": seats, "bot_pace": 0.2,
    })
    return created


def open_seat(context: Any, link: str) -> Any:
    page = context.new_page()
    page.goto(link)
    page.wait_for_selector(".seat.me", timeout=15000)  # seated, the table drawn
    return page


def open_chat(page: Any) -> None:
    if page.locator("#talk").is_hidden():
        page.click("#chat-button")
    page.wait_for_selector("#talk", state="visible")


def test_a_chat_line_is_text_and_a_reaction_is_words(server: Any, new_browser: Any) -> None:
    created = two_people(server)
    ann = open_seat(new_browser("Ann"), created["invites"]["0"]["url"])
    bob = open_seat(new_browser("Bob"), created["invites"]["2"]["url"])
    errors = [PageErrors(ann), PageErrors(bob)]

    open_chat(ann)
    ann.fill("#talk input", "<b>x</b> & <img src=x onerror=alert(1)>")
    ann.press("#talk input", "Enter")
    # Bob's drawer is closed: the Chat button counts the line, which shows as its text
    bob.wait_for_selector("#chat-button .unread:has-text('1')", timeout=10000)
    open_chat(bob)
    line = bob.locator("#talk .talk-lines li").last
    assert line.text_content() == "Ann: <b>x</b> & <img src=x onerror=alert(1)>"
    assert line.locator("b, img").count() == 0
    assert bob.locator("#chat-button .unread").is_hidden()  # read now
    assert ann.input_value("#talk input") == ""  # sent, so cleared

    bob.click("#talk button[data-reaction='well-played']")
    ann.wait_for_function(
        "[...document.querySelectorAll('#talk .talk-lines li')]"
        ".some(li => li.textContent === 'Bob: Well played!')", timeout=10000)
    # one's own lines are not unread
    assert bob.locator("#chat-button .unread").is_hidden()

    # the drawer on a phone and on a laptop, for a person to look at
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("laptop", LAPTOP)):
        bob.set_viewport_size(size)
        bob.screenshot(path=str(SHOTS / f"talk-chat-{label}.png"))
    for e in errors:
        assert e.errors == []


def test_too_many_lines_at_once_are_a_short_notice(server: Any, new_browser: Any) -> None:
    created = two_people(server)
    ann = open_seat(new_browser("Ann"), created["invites"]["0"]["url"])
    open_chat(ann)
    # a burst of 5, then one every 2 s: the next lines are refused with a notice
    for n in range(8):
        ann.fill("#talk input", f"line {n}")
        ann.press("#talk input", "Enter")
    ann.wait_for_selector("#talk .talk-notice:has-text('at most a few chat messages')",
                          timeout=10000)
    assert ann.locator("#toast").is_hidden()  # not over the table


def test_a_second_device_waits_until_the_seat_lets_it_in(server: Any, new_browser: Any) -> None:
    created = two_people(server, people=("0",))  # the cards are dealt at once
    link = created["invites"]["0"]["url"]
    ann = open_seat(new_browser("Ann", PHONE), link)
    errors = PageErrors(ann)
    # the seats bear the server's names: the bots as people read them
    assert ann.locator(".seat[data-seat='1'] .seat-name").inner_text() == "Casual bot A"
    assert ann.locator(".seat[data-seat='0'] .seat-name").inner_text() == "Ann (you)"
    assert "bot, seat" not in ann.locator("body").inner_text()

    # the same link in another browser: it waits, saying why, and holds no hand
    other = new_browser("Ann", LAPTOP).new_page()
    other.goto(link)
    other.wait_for_selector("#status:has-text('held on another device')", timeout=15000)
    assert other.locator("#hand .card").count() == 0
    ann.wait_for_selector(".device-request button:has-text('Let them in')", timeout=10000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(SHOTS / "talk-device-request-phone.png"))
    ann.set_viewport_size(LAPTOP)
    ann.screenshot(path=str(SHOTS / "talk-device-request-laptop.png"))
    other.screenshot(path=str(SHOTS / "talk-device-waiting-laptop.png"))

    ann.click(".device-request button:has-text('Let them in')")
    assert ann.locator(".device-request").count() == 0
    other.wait_for_selector("#hand .card", timeout=15000)
    assert other.locator(".seat.me[data-seat='0']").count() == 1
    assert errors.errors == []


def test_a_device_the_seat_turns_away_stops_trying(server: Any, new_browser: Any) -> None:
    created = two_people(server)
    link = created["invites"]["2"]["url"]
    bob = open_seat(new_browser("Bob"), link)
    other = new_browser("Bob").new_page()
    other.goto(link)
    bob.click(".device-request button:has-text('No')", timeout=15000)
    other.wait_for_selector("#status:has-text('did not let this device in')", timeout=10000)
    assert "closed" in (other.locator("#connection").get_attribute("class") or "")
    # and once the seat's devices are all gone, another one is told so and does not wait
    bob.close()
    deadline = time.monotonic() + 15
    while not server.get(f"/api/tables/{created['table']}")["seats"][2]["away"]:
        assert time.monotonic() < deadline, "the server never saw Bob's page go"
        time.sleep(0.05)  # a poll of the server's state, not a wait for a moment
    third = new_browser("Bob").new_page()
    third.goto(link)
    third.wait_for_selector("#status:has-text('which is not connected')", timeout=15000)
    assert "closed" in (third.locator("#connection").get_attribute("class") or "")


def test_the_question_closes_when_the_other_device_leaves(server: Any, new_browser: Any
                                                          ) -> None:
    created = two_people(server, people=("0",))
    link = created["invites"]["0"]["url"]
    ann = open_seat(new_browser("Ann"), link)
    other = new_browser("Ann").new_page()
    other.goto(link)
    ann.wait_for_selector(".device-request button:has-text('Let them in')", timeout=15000)
    other.close()  # it leaves before anyone answered
    ann.wait_for_selector(".device-request", state="detached", timeout=15000)
