"""The table page's layout contract (issue 40): for every game and every phase a person
meets (bidding or the auction, peeking, passing, declaring, play from the own hand and from
a dummy, a completed trick, the last trick held up, the score sheet between hands and at
the end, the end of the game), at 1366x768, 1280x800, 390x844 and 844x390, without scrolling:

- every card of the own hand, and of the hand played from (a declarer's dummy), and every
  control of the decision lie inside the window, nothing lying on them (the auction's grid
  may scroll inside its own box, which is in view);
- the page itself neither scrolls down nor sideways;
- no two seat panels overlap, nor a played card or a caption (the won trick's, 3B's extra
  card's) a panel, nor two played cards, nor two cards of the hand;
- a name of 40 characters (or 40 emoji) fits its panel or ends in an ellipsis with the whole
  name in the panel's title; the header's title takes one line.

One server and one browser serve every game; each game is one table with the test's
browser at seat 0 and rules bots at pace 0, played by clicks (tests/layout_driver.py). The
page is measured at each size at the first moment of each phase; the drive waits for the
page to change, never for a moment.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from browser import CHROMIUM, PageErrors, chromium_available
from layout_driver import (
    GAMES,
    LAST_TRICK,
    Drive,
    LayoutGame,
    at_each_size,
    create_table,
    layout_problems,
    name_the_browser,
)

if os.environ.get("TRICKTABLE_REQUIRE_BROWSER") and not chromium_available():
    raise RuntimeError(f"the browser tests are required here but chromium ({CHROMIUM}) or "
                       "Playwright is missing")
pytestmark = pytest.mark.skipif(
    not chromium_available(), reason=f"needs Playwright and chromium at {CHROMIUM}")


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_the_hand_and_the_decision_are_on_screen_in_every_phase_at_every_size(
        server: Any, browser: Any, game: LayoutGame) -> None:
    # no motion: a card caught halfway to the middle is not where it lies
    context = browser.new_context(reduced_motion="reduce")
    name_the_browser(context, game.name)
    page = context.new_page()
    errors = PageErrors(page)
    broken: dict[str, list[str]] = {}

    def measure(page: Any, phase: str) -> None:
        def check(size: tuple[int, int]) -> None:
            problems = layout_problems(page)
            if problems:
                broken[f"{phase}, at {size[0]}x{size[1]}"] = problems
        at_each_size(page, check)

    drive = Drive(page, measure)
    drive.run(create_table(server.base, game))
    assert not broken, "\n".join(
        f"{where}:\n  " + "\n  ".join(problems[:8]) for where, problems in broken.items())
    # the drive met what the game asks of a person, and the end
    for words in game.phases_expected:
        assert any(words in phase for phase in drive.seen), (words, drive.seen)
    assert any(phase.startswith("play") for phase in drive.seen), drive.seen
    assert "game over" in drive.seen and any("score sheet" in p for p in drive.seen), drive.seen
    assert LAST_TRICK in drive.seen, drive.seen
    assert not errors.errors, errors.errors
    context.close()
