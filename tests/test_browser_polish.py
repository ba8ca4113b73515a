"""The leftovers of issue 40 in a real browser (Debian's chromium through Playwright), against a
real ``tricktable serve``:

- a dummy's hand seen face up lies in suits, every card's corner readable, and on a phone a
  13-card dummy wraps into two tidy rows (a suit never split over them);
- Dummy Hand Spades' peeks are drawn where they were chosen: the face-down dummy by
  position, a card this person peeked at face up at its place, the positions others peeked
  at marked and face down; a spectator sees the marks and no card; once the dummy is shown
  the peeked card's title says it was peeked at before the bidding;
- the game's words on the page: a watcher reads who plays from the dummy ("Casual bot
  B plays from the dummy."), the auction's buttons and the facts say "no trump" one way;
- the lobby lists the public tables, to watch or to take an open seat.

Each test plays its table by clicks (tests/layout_driver.py's drive, rules bots at pace 0)
and waits for the page to change, never for a moment. The lobby's call for a link to a
public table comes from POST /api/tables/ID/public-link.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from browser import CHROMIUM, PageErrors, chromium_available
from layout_driver import GAMES, Drive, LayoutGame, layout_problems, name_the_browser

pytestmark = pytest.mark.skipif(
    not chromium_available(), reason=f"needs Playwright and chromium at {CHROMIUM}")

PHONE = {"width": 390, "height": 844}


class Reached(Exception):
    """The drive came to the phase wanted (raised from its ``on_phase``)."""


def make_table(server: Any, game: LayoutGame) -> dict[str, Any]:
    """``game``'s table with seat 0 for a person and rules bots at pace 0 elsewhere."""
    body = {"game": game.game, "options": game.options, "bot_pace": 0, "seed": game.seed}
    made: dict[str, Any] = server.post("/api/tables", body)
    return made


def drive_to(page: Any, url: str | None, wanted: Callable[[str], bool]) -> str:
    """The person at ``url`` (None: the table on the page) plays by clicks until the page
    asks for a phase ``wanted`` says yes to; the page is left there, the phase returned."""
    def on_phase(page: Any, phase: str) -> None:
        if wanted(phase):
            raise Reached(phase)

    try:
        Drive(page, on_phase).run(url)
    except Reached as reached:
        return str(reached.args[0])
    raise AssertionError("the game ended before the phase wanted")


def game_named(name: str) -> LayoutGame:
    return next(g for g in GAMES if g.game == name)


# --- 1: a dummy's hand in suits -----------------------------------------------------------

DUMMY_CARDS = """() => [...document.querySelectorAll('.felt .seat.dummy .card[data-card]')]
  .map((e) => { const b = e.getBoundingClientRect();
    return {card: e.dataset.card, left: b.left, right: b.right, top: b.top, bottom: b.bottom}; })"""


def rows_of(cards: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The cards by the line they lie on, top to bottom, each line left to right."""
    rows: list[list[dict[str, Any]]] = []
    for c in sorted(cards, key=lambda c: (round(c["top"]), c["left"])):
        if rows and abs(rows[-1][0]["top"] - c["top"]) < 4:
            rows[-1].append(c)
        else:
            rows.append([c])
    return rows


def suit(card: str) -> str:
    return card[1] if card not in ("BJ", "LJ") else "joker"


@pytest.mark.parametrize("game", ["dummy-hand-spades", "dummy-whist"])
def test_the_dummy_lies_in_suits_and_wraps_into_two_tidy_rows_on_a_phone(
        server: Any, browser: Any, game: str) -> None:
    layout = replace(game_named(game), name="Ann")
    context = browser.new_context(reduced_motion="reduce")
    name_the_browser(context, layout.name)
    page = context.new_page()
    errors = PageErrors(page)
    url = make_table(server, layout)["invites"]["0"]["url"]
    drive_to(page, url, lambda phase: phase.startswith("play from the dummy"))
    page.set_viewport_size(PHONE)
    cards = page.evaluate(DUMMY_CARDS)
    assert len(cards) >= 10, cards
    rows = rows_of(cards)
    assert len(rows) <= 2, rows
    seen_suits: set[str] = set()
    for row in rows:
        for before, after in itertools.pairwise(row):
            if suit(before["card"]) == suit(after["card"]):
                continue
            # a new suit starts clear of the last one's cards
            assert after["left"] - before["right"] >= 4, (before, after)
        runs = [suit(c["card"]) for i, c in enumerate(row)
                if i == 0 or suit(row[i - 1]["card"]) != suit(c["card"])]
        # each suit in one run on one line: never split, never met twice
        assert len(runs) == len(set(runs)) and not seen_suits & set(runs), rows
        seen_suits |= set(runs)
    # as large as a hand's cards on a phone: the corner's rank is some 15 px tall
    assert min(c["bottom"] - c["top"] for c in cards) >= 44, cards
    # every card's corner in sight, the whole in the window (the layout contract)
    assert layout_problems(page) == []
    assert not errors.errors, errors.errors
    context.close()


# --- 2: Dummy Hand Spades' peeks where they were chosen ---------------------------------------

PEEK_GAME = LayoutGame("dummy-hand-spades", {"target": 100, "peek": "three-peeky"},
                       name="Ann", seed="layout-10")

POSITIONS = """() => [...document.querySelectorAll('.felt .seat.dummy [data-position]')]
  .map((e) => ({position: Number(e.dataset.position), card: e.dataset.card || null,
    peeked: e.classList.contains('peeked'), others: e.dataset.peekedBy || '',
    title: e.title}))"""


def test_peeked_positions_are_drawn_where_they_lie_and_their_titles_stay_right(
        server: Any, browser: Any) -> None:
    made = make_table(server, PEEK_GAME)
    context = browser.new_context(reduced_motion="reduce")
    name_the_browser(context, "Ann")
    page = context.new_page()
    errors = PageErrors(page)
    drive_to(page, made["invites"]["0"]["url"], lambda phase: "team's bid" in phase)

    # the dummy face down in the order dealt, the 13 positions in turn
    slots = page.evaluate(POSITIONS)
    assert [s["position"] for s in slots] == list(range(13)), slots
    mine = [s for s in slots if s["card"]]
    # three-peeky: the three cards this person looked at, face up where they lie
    assert len(mine) == 3 and all(s["peeked"] for s in mine), slots
    assert all("only you see it" in s["title"] for s in mine), mine
    # the others' peeks: public positions, marked and named, their cards unseen
    theirs = [s for s in slots if s["others"]]
    assert len(theirs) >= 3, slots
    assert all("0" not in s["others"].split() for s in theirs), theirs
    assert all("peeked at this card" in s["title"] for s in theirs), theirs
    assert all(s["card"] is None for s in theirs if s not in mine), theirs

    # a spectator sees who peeked where, and no card of the dummy
    watcher = browser.new_context()
    spectator = watcher.new_page()
    spectator.goto(made["spectator"]["url"])
    spectator.wait_for_function(
        "document.querySelectorAll('.felt .seat.dummy [data-position]').length === 13")
    seen = spectator.evaluate(POSITIONS)
    assert not any(s["card"] for s in seen), seen
    mine_positions = {s["position"] for s in mine}
    marked = {s["position"] for s in seen if "0" in s["others"].split()}
    assert marked == mine_positions, (marked, mine_positions)
    assert all("Ann" in s["title"] and "peeked at this card" in s["title"]
               for s in seen if s["position"] in mine_positions), seen
    watcher.close()

    # on to the play: the dummy face up in suits, the cards peeked at still marked, their
    # title now true of a dummy everyone sees
    drive_to(page, None, lambda phase: phase.startswith("play"))
    page.wait_for_function(
        "document.querySelectorAll('.felt .seat.dummy .by-suit .card[data-card]').length > 9")
    shown = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '.felt .seat.dummy .by-suit .card[data-card]')].map((e) => [e.dataset.card,
        {peeked: e.classList.contains('peeked'), title: e.title}]))""")
    still_there = [s["card"] for s in mine if s["card"] in shown]
    assert len(still_there) >= 2, (mine, shown)  # the dummy may have played one already
    for card in still_there:
        assert shown[card] == {"peeked": True,
                               "title": "you peeked at this card before the bidding"}, shown
    assert not any(v["peeked"] for c, v in shown.items() if c not in still_there), shown
    assert not errors.errors, errors.errors
    context.close()


# --- 3: the game's words on the page ------------------------------------------------------

def test_a_watcher_reads_who_plays_from_the_dummy(server: Any, browser: Any) -> None:
    # bots in every seat: the declarer is a bot, and its dummy's turns are on show
    made = server.post("/api/tables", {
        "game": "dummy-hand-spades", "options": {"target": 100}, "bot_pace": 0.3,
        "seats": {"0": "rules", "1": "rules", "2": "rules"}, "seed": "words-1"})
    context = browser.new_context()
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(made["spectator"]["url"])
    page.wait_for_function(
        "/ plays from the dummy\\.$/.test(document.querySelector('#status').textContent)",
        timeout=60000)
    said = page.evaluate("""() => ({status: document.querySelector('#status').textContent,
        badge: document.querySelector('.seat.dummy .badge.turn')?.textContent || null,
        declarer: [...document.querySelectorAll('.seat .stats')].map((e) => e.textContent)
          .filter((t) => t.startsWith('declarer')).length})""")
    # three casual bots read apart: "Casual bot B plays from the dummy."
    assert re.search(r"Casual bot [ABC] plays from the dummy\.$", said["status"]), said
    assert said["declarer"] == 1, said
    assert not errors.errors, errors.errors
    context.close()


def test_the_auction_and_the_facts_are_in_the_games_words(server: Any, browser: Any) -> None:
    layout = replace(game_named("dummy-whist"), name="Ann")
    context = browser.new_context(reduced_motion="reduce")
    name_the_browser(context, layout.name)
    page = context.new_page()
    errors = PageErrors(page)
    drive_to(page, make_table(server, layout)["invites"]["0"]["url"],
             lambda phase: phase.startswith("decide: Bid books"))
    grid = page.locator("#controls .bid-grid button").all_inner_texts()
    assert any(re.fullmatch(r"\d no trump", b) for b in grid), grid
    assert any(re.fullmatch(r"\d (uptown|downtown)", b) for b in grid), grid
    assert "notrump" not in page.locator("body").inner_text()
    drive_to(page, None, lambda phase: phase.startswith("play"))
    facts = page.locator("#facts").inner_text()
    assert " declared " in facts and "game to 3" in facts, facts
    assert "notrump" not in page.locator("body").inner_text()
    assert not errors.errors, errors.errors
    context.close()


# --- 4: public tables in the lobby --------------------------------------------------------

def test_the_lobby_lists_public_tables_to_watch_or_to_sit_at(server: Any, browser: Any) -> None:
    seats = {"0": "person", "1": "rules", "2": "rules", "3": "rules"}
    public = server.post("/api/tables", {"game": "spades", "options": {"target": 100},
                                         "seats": seats, "public": True})
    private = server.post("/api/tables", {"game": "spades", "options": {"target": 100},
                                          "seats": seats})
    context = browser.new_context()
    context.add_init_script("localStorage.setItem('tricktable.name', JSON.stringify('Ann'))")
    page = context.new_page()
    errors = PageErrors(page)
    asked: list[dict[str, Any]] = []
    page.on("request", lambda r: asked.append({"url": r.url, "body": r.post_data_json})
            if r.url.endswith("/public-link") else None)
    page.goto(server.base + "/")
    row = page.locator(f".open-table[data-table='{public['table']}']")
    row.wait_for()
    assert page.locator(f".open-table[data-table='{private['table']}']").count() == 0
    assert "Partnership Spades" in row.inner_text() and "waiting for 1 player" in row.inner_text()
    assert row.locator("button.take-seat").all_inner_texts() == ["Take seat 0"]
    # watching first, then back, then taking the open seat
    row.locator("button.watch").click()
    page.wait_for_url("**/play/**")
    page.wait_for_function("document.querySelector('#role').textContent === 'watching'")
    page.goto(server.base + "/")
    page.locator(f".open-table[data-table='{public['table']}'] button.take-seat").click()
    page.wait_for_url("**/play/**")
    page.wait_for_function("document.querySelector('#role').textContent === 'you are Ann'")
    assert [a["body"] for a in asked] == [{}, {"seat": 0}], asked
    assert all(f"/api/tables/{public['table']}/public-link" in a["url"] for a in asked)
    # the seat taken is one of this browser's joined tables, and no longer open
    page.goto(server.base + "/")
    page.locator(f"#joined .table-row[data-table='{public['table']}']").wait_for()
    page.wait_for_function(
        "id => !document.querySelector(`.open-table[data-table='${id}'] button.take-seat`)",
        arg=public["table"])
    assert not errors.errors, errors.errors
    context.close()
