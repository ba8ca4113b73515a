"""Pictures of the browser table for the docs: every game at the sizes of the layout
contract (laptops of 1366x768 and 1280x800, a phone of 390x844 upright and 844x390 on its
side), at the moment its person plays a card with the trick under way (from the
dummy where the game has one), into docs/images/table-<game>-<width>x<height>.png.

    python scripts/screenshots.py [GAME ...]

It starts its own ``tricktable serve`` on a scratch database and drives each game as the
layout test does (tests/layout_driver.py: the person at seat 0 under a 40-character name,
rules bots at pace 0, a fixed seed), so the pictures show the same deals every time. Needs
Playwright and chromium (as the browser tests do); Pillow, where installed, makes the files
smaller (a palette of 256 colours).
"""

from __future__ import annotations

import re
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import CHROMIUM, chromium_available, launch  # noqa: E402
from layout_driver import GAMES, LONG_NAME, Drive, create_table, name_the_browser  # noqa: E402
from web_process import Server  # noqa: E402

IMAGES = ROOT / "docs" / "images"
SIZES = [(1366, 768), (1280, 800), (390, 844), (844, 390)]
MOMENTS = [re.compile(r"^play from the dummy, [23] cards"), re.compile(r"^play, [23] cards")]
"""The moments worth a picture, best first: the first of them a game reaches is taken."""


def shrink(path: Path) -> None:
    """The picture in 256 colours, where Pillow is installed (the page has few of them)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def picture_game(browser: Any, server: Server, index: int) -> list[Path]:
    # the long name in letters everywhere (the test's emoji name shows as boxes where the
    # machine has no colour emoji font)
    game = replace(GAMES[index], name=LONG_NAME)
    context = browser.new_context(reduced_motion="reduce")
    name_the_browser(context, game.name)
    page = context.new_page()
    taken: list[Path] = []
    # a moment of the best kind, else of the next kind, once the game is over
    best: dict[str, int] = {}

    def on_phase(page: Any, phase: str) -> None:
        rank = next((i for i, moment in enumerate(MOMENTS) if moment.match(phase)), None)
        if rank is None or best.get("rank", len(MOMENTS)) <= rank:
            return
        best["rank"] = rank
        taken.clear()
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            path = IMAGES / f"table-{game.game}-{width}x{height}.png"
            page.screenshot(path=str(path))
            taken.append(path)

    Drive(page, on_phase).run(create_table(server.base, game))
    context.close()
    if not taken:
        raise SystemExit(f"{game.game}: no moment of play with cards on the trick was met")
    return taken


def main(argv: list[str]) -> int:
    if not chromium_available():
        print(f"needs Playwright and chromium at {CHROMIUM}", file=sys.stderr)
        return 2
    known = [g.game for g in GAMES]
    wanted = argv or known
    unknown = [g for g in wanted if g not in known]
    if unknown:
        print(f"no game {unknown[0]!r} here; the games: {', '.join(known)}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tricktable-shots-") as scratch:
        server = Server(f"sqlite:///{Path(scratch) / 'tables.db'}")
        server.start()
        try:
            with sync_playwright() as p:
                browser = launch(p)
                for name in wanted:
                    for path in picture_game(browser, server, known.index(name)):
                        shrink(path)
                        size = path.stat().st_size // 1024
                        print(f"{path.relative_to(ROOT)}  {size} KiB")
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
