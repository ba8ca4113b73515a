"""A claim in the browser on a server without the solver (the ``search`` extra): the
claimer's cards are shown to the other side's person, who agrees from the page, and the
hand is played out; everyone reads it in sentences. A card that may not be played says
the game's reason. (The server is started as one
without numba: a ``sitecustomize`` of the test's hides it.)"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from browser import PageErrors, chromium_available, take_one_step

pytestmark = pytest.mark.skipif(not chromium_available(), reason="no chromium here")

from tricktable.search.agreed_claims import claim_is_sure  # noqa: E402
from tricktable.search.position import position_of  # noqa: E402
from web_helpers import replayed  # noqa: E402

ANN, BOB = 0, 1
DEADLINE = 240.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``tricktable serve`` as installed without the search extra."""
    from web_process import Server

    hide = tmp_path_factory.mktemp("no-numba")
    (hide / "sitecustomize.py").write_text(
        "import sys\nsys.modules['numba'] = None  # find_spec then says: not installed\n")
    path = os.pathsep.join(p for p in (str(hide), os.environ.get("PYTHONPATH", "")) if p)
    db = tmp_path_factory.mktemp("claims") / "tables.db"
    s = Server(f"sqlite:///{db}", env={"PYTHONPATH": path})
    s.start()
    yield s
    s.stop()


def sure_for_ann(server: Any, table: str) -> tuple[int, int] | None:
    """At Ann's turn in the play with at most three cards each: the most tricks she is
    sure of and the tricks left, from the stored log (the test may see every card)."""
    *_, (_seq, game, state) = replayed(server.db_url, table)
    if state.phase.name != "PLAY" or state.to_act < 0 or state.hand_size[ANN] > 3 \
            or game.controller(state, state.to_act) != ANN:
        return None
    left = position_of(state).tricks_left
    sure = max((n for n in range(1, left + 1) if claim_is_sure(state.copy(), ANN, n)),
               default=0)
    return (sure, left) if sure else None


def test_a_claim_shown_is_agreed_from_the_other_side_s_page(server: Any, browser: Any) -> None:
    created = server.post("/api/tables", {
        "game": "spades", "options": {"target": 200}, "bot_pace": 0, "seed": "shown-claim",
        "seats": {"0": "person", "1": "person", "2": "rules", "3": "rules"}})
    table = created["table"]
    contexts, pages = [], {}
    for seat, name in ((ANN, "Ann"), (BOB, "Bob")):
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        context.add_init_script(f"localStorage.setItem('tricktable.name', '\"{name}\"')")
        contexts.append(context)
        page = context.new_page()
        page.goto(created["invites"][str(seat)]["url"])
        page.wait_for_selector(".seat.me", timeout=15000)
        pages[seat] = page
    ann, bob = pages[ANN], pages[BOB]
    errors = [PageErrors(ann), PageErrors(bob)]
    try:
        deadline = time.monotonic() + DEADLINE
        found = None
        reasons: set[str] = set()
        while found is None:
            assert time.monotonic() < deadline, "never a claim Ann was sure of"
            if ann.locator("#status").inner_text().startswith("Your turn"):
                # a card she may not play says the game's reason when touched
                reasons.update(ann.locator("#hand .card.dim").evaluate_all(
                    "els => els.map((e) => e.title)"))
                found = sure_for_ann(server, table)
                if found is not None:
                    break
            take_one_step(ann)
            take_one_step(bob)
        sure, left = found
        assert reasons <= {"Follow suit: you hold a card of the suit led.",
                           "Spades may not be led until one has been played on another suit, "
                           "unless you hold only spades."}, reasons
        claim_button = ann.locator("nav.tools button", has_text="Claim the rest")
        assert "others see your cards" in claim_button.get_attribute("title")
        if sure == left:
            ann.click("nav.tools button:has-text('Claim the rest')")
        else:
            ann.click("nav.tools button:has-text('Claim some')")
            ann.select_option(".claim-some select", str(sure))
            ann.click(".claim-some button[type=submit]")
        hand = [c for c in ann.locator("#hand [data-card]").evaluate_all(
            "els => els.map((e) => e.dataset.card)")]
        panel = bob.locator("#claim-shown")
        panel.wait_for(state="visible", timeout=15000)
        assert panel.locator("p").first.inner_text() == (
            f"Ann claims {sure} of the {left} tricks left, cards face up. "
            "Do you agree, or play on?")
        assert panel.locator(".card-chip").count() == len(hand)
        ann.locator("#claim-shown button", has_text="Take it back").wait_for(timeout=15000)
        bob.click("#claim-shown button:has-text('Agree')")
        for page in (ann, bob):
            page.locator("#help-note", has_text="Everyone agrees: Ann takes").wait_for(
                timeout=15000)
            page.locator("#claim-shown").wait_for(state="hidden", timeout=15000)
        assert not errors[0].errors and not errors[1].errors, errors[0].errors + errors[1].errors
    finally:
        for context in contexts:
            context.close()
