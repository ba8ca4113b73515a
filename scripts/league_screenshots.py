"""Pictures of the league's pages for the docs, at a laptop's size (1366x768) and a phone's
(390x844): a group's page (its standings), its 3B score sheet and a person's card, into
docs/images/league-{group,sheet,card}-<width>x<height>.png.

    python scripts/league_screenshots.py

It starts its own ``tricktable serve`` on a scratch database and plays there the month of
lunch-time 3B games of tests/test_league_month.py (four people, 21 games in November 2026,
the same seeds, days and marks, without the kill), so the pictures show the same sheet
every time: the one that test checks figure by figure. The pages are seen by Ann, a
member. Needs Playwright and chromium (as the browser tests do); Pillow, where installed,
makes the files smaller.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import shrink  # noqa: E402

from browser import CHROMIUM, chromium_available, launch  # noqa: E402
from test_league_month import MONTH, PERSON_KEY, play_month  # noqa: E402
from tricktable.web.league_link import CLOCK_FILE_ENV  # noqa: E402
from web_process import Server  # noqa: E402

IMAGES = ROOT / "docs" / "images"
SIZES = [(1366, 768), (390, 844)]
PAGES = [
    # picture name, the page's query, what shows it is drawn
    ("group", "", "table.threeb-stars tbody tr"),
    ("sheet", "?view=sheet", "#session-stars tbody tr"),
    ("card", "?view=card&person=Ann", "#view svg"),
]


def picture_pages(browser: Any, base: str, key: str) -> list[Path]:
    taken = []
    for width, height in SIZES:
        phone = width < 600
        context = browser.new_context(
            viewport={"width": width, "height": height}, locale="en-GB",
            is_mobile=phone, has_touch=phone, reduced_motion="reduce")
        context.add_init_script(
            f"localStorage.setItem({json.dumps(PERSON_KEY)}, "
            f"{json.dumps(json.dumps({'key': key}))});")
        page = context.new_page()
        for name, query, drawn in PAGES:
            page.goto(base + query)
            page.wait_for_selector(drawn)
            page.wait_for_selector("#view:not([aria-busy])")
            page.evaluate("document.fonts.ready")
            path = IMAGES / f"league-{name}-{width}x{height}.png"
            page.screenshot(path=str(path))
            taken.append(path)
        context.close()
    return taken


def main(argv: list[str]) -> int:
    if argv:
        print("league_screenshots.py takes no arguments", file=sys.stderr)
        return 2
    if not chromium_available():
        print(f"needs Playwright and chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tricktable-league-shots-") as scratch:
        folder = Path(scratch)
        clock = folder / "clock"
        clock.write_text(MONTH[0].clock(), encoding="utf-8")
        server = Server(f"sqlite:///{folder / 'league.db'}",
                        env={CLOCK_FILE_ENV: str(clock), "TRICKTABLE_CREATE_RATE": "600/100"},
                        log=folder / "server.log")
        server.start()
        try:
            token, keys, _ = play_month(server, clock, kill=False)
            with sync_playwright() as p:
                browser = launch(p)
                for path in picture_pages(browser, f"{server.base}/league/{token}",
                                          keys["Ann"]):
                    shrink(path)
                    print(f"{path.relative_to(ROOT)}  {path.stat().st_size // 1024} KiB")
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
