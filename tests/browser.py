"""Driving the browser table in tests: Debian's chromium through Playwright, and a person
who plays by clicking only what the page offers (the first legal card, the first choice).

Used by tests/test_browser.py; skipped cleanly on a machine without chromium or Playwright.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("TRICKTABLE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"


def chromium_available() -> bool:
    if not Path(CHROMIUM).exists():
        return False
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return False
    return True


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True,
        args=["--no-sandbox", "--disable-background-networking", "--disable-dev-shm-usage"],
    )


class PageErrors:
    """Collects a page's script errors, so a test fails on any of them."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                and "404" not in m.text and "favicon" not in m.text else None)


def press(page: Any, locator: Any) -> None:
    """A tap on a touch screen (a phone), a click elsewhere."""
    if page.evaluate("navigator.maxTouchPoints > 0"):
        locator.tap(timeout=3000)
    else:
        locator.click(timeout=3000)


def take_one_step(page: Any) -> str | None:
    """Like ``choose_and_click``, first closing the score sheet a finished hand opened (it
    may open between two looks at the page, or a view arrive between a look and a click:
    then nothing is done, and the caller looks again)."""
    from playwright.sync_api import Error as PlaywrightError

    if page.locator("#sheet-panel").is_visible():
        page.click("#close-sheet")
    try:
        return choose_and_click(page)
    except (PlaywrightError, IndexError):
        # the page changed under the click (a new view arrived): look again next time
        return None


def choose_and_click(page: Any) -> str | None:
    """If it is this page's person's turn, make one choice by clicking, as a person would:
    a legal card (hand or a dummy it plays), else the choices the controls offer. Returns
    what it did, or None when there was nothing to do."""
    status = page.locator("#status").inner_text()
    if not status.startswith("Your turn"):
        # out-of-turn choices (a renege call, a rebid) are left alone
        return None
    chooser = page.locator("#chooser button")
    if page.locator("#chooser").is_visible() and chooser.count():
        # an ace that may be called low: high, say
        label = chooser.last.inner_text()
        press(page, chooser.last)
        return label
    cards = page.locator("#hand button.card.legal, .seat button.card.legal:not(.pick)")
    controls = page.locator("#controls .control:not(.optional)")
    if controls.count() == 0 and cards.count() > 0:
        card = cards.first
        text = card.get_attribute("data-card")
        press(page, card)
        return f"play {text}"
    if controls.count() == 0:
        return None
    first = controls.first
    picks = page.locator(".seat button.pick:not(.selected)")
    primary = first.locator("button.primary")
    if picks.count() and primary.count() and primary.first.is_disabled():
        press(page, picks.first)
        return "pick a position"
    selectable = page.locator("#hand button.card.legal:not(.selected), "
                              ".seat button.card.legal:not(.selected):not(.pick)")
    choosing_cards = "click them in your hand" in first.inner_text()
    if primary.count() and primary.first.is_disabled() and choosing_cards:
        press(page, selectable.first)
        return "pick a card"
    number_buttons = first.locator(".choices button:not(.primary)")
    if primary.count() and primary.first.is_disabled() and number_buttons.count():
        # Dummy Hand Spades: pick the team's tricks (a middling number), then bid
        buttons = number_buttons.all()
        press(page, buttons[min(len(buttons) - 1, 4)])
        return "pick a bid"
    if primary.count() and primary.first.is_enabled():
        label = primary.first.inner_text()
        press(page, primary.first)
        return label
    passes = first.locator("button:text-is('Pass')")
    if passes.count():
        # in an auction, leave the contract to the bots: the game ends sooner
        press(page, passes.first)
        return "Pass"
    buttons = first.locator("button:enabled")
    if buttons.count():
        all_buttons = buttons.all()
        # a bid: not always nil; the middle of the list is a sane bid
        choice = all_buttons[len(all_buttons) // 2] if len(all_buttons) > 2 else all_buttons[0]
        label = choice.inner_text()
        press(page, choice)
        return label
    return None

