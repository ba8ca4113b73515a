"""The league's pages in a real browser (Debian's chromium through Playwright) against a real
``tricktable serve`` (issue 41): Ann starts a group on a laptop, Bob joins it by its link on
a phone, a month of finished games goes into the group's league (the store's ``add_game``
from records and hand-built sheets, as test_web_league does; live tables are the table's
tests), and the pages show the figures the API (the CLI's ``--json``) holds: standings,
the 3B score sheet, a person's card with an SVG chart, the week, Paperless stakes with the
settle-up, head-to-head and the Dummy Hand declarer rate. The key goes to another device by
a link's fragment, a person renames himself, names are text. Screenshots of each page on a
phone (390x844) and a laptop (1280x800) go to screenshots/league-*.png."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from browser import CHROMIUM, PageErrors, chromium_available
from test_web_league import fill
from tricktable.league.store import LeagueStore

if os.environ.get("TRICKTABLE_REQUIRE_BROWSER") and not chromium_available():
    raise RuntimeError(f"the browser tests are required here but chromium ({CHROMIUM}) or "
                       "Playwright is missing")
pytestmark = pytest.mark.skipif(
    not chromium_available(), reason=f"needs Playwright and chromium at {CHROMIUM}")

IMAGES = Path(__file__).resolve().parent.parent / "screenshots"
"""Where the pictures go for a person to look at (not docs/images: a test run never
changes the docs; scripts/league_screenshots.py makes those)."""
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
GROUP = "Lunch club"


@dataclass
class Person:
    """One browser of the test: its own storage (its person key), its page, what went wrong
    on it and every address it asked for."""

    context: Any
    page: Any
    errors: PageErrors
    urls: list[str] = field(default_factory=list)


def open_browser(browser: Any, viewport: dict[str, int]) -> Person:
    phone = viewport == PHONE
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone,
                                  locale="en-GB")
    page = context.new_page()
    person = Person(context, page, PageErrors(page))
    page.on("request", lambda r: person.urls.append(r.url))
    return person


def shown(page: Any, view: str) -> None:
    """Wait until ``view`` is drawn (its answer arrived and nothing more is asked)."""
    page.wait_for_selector(f'#view[data-view="{view}"]:not([aria-busy]) h2')


def visit(person: Person, base: str, token: str, query: str = "") -> None:
    person.page.goto(f"{base}/league/{token}{'?' + query if query else ''}")
    view = re.search(r"view=(\w+)", query)
    shown(person.page, view.group(1) if view else "standings")


def screenshot(person: Person, name: str) -> None:
    size = person.page.viewport_size
    IMAGES.mkdir(parents=True, exist_ok=True)
    person.page.evaluate("window.scrollTo(0, 0)")
    person.page.screenshot(path=str(IMAGES / f"league-{name}-{size['width']}x{size['height']}.png"))


def no_sideways_scroll(page: Any) -> None:
    """On a phone the page itself never scrolls sideways (wide tables scroll in their box)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def cells(page: Any, table: str) -> list[list[str]]:
    return [[c.strip() for c in row] for row in page.eval_on_selector_all(
        f"{table} tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")]


@dataclass
class Lunch:
    token: str
    ann: Person
    bob: Person
    others: list[Person] = field(default_factory=list)

    def api(self, server: Any, view: str, query: str = "") -> Any:
        return server.get(f"/api/groups/{self.token}/{view}{'?' + query if query else ''}")


@pytest.fixture(scope="module")
def lunch(browser: Any, server: Any) -> Iterator[Lunch]:
    """Ann starts the group on her laptop; Bob joins by its link on his phone; then a month
    of its finished games is in the league."""
    ann = open_browser(browser, LAPTOP)
    ann.page.goto(server.base + "/league")
    ann.page.fill("#group-name", GROUP)
    ann.page.select_option("#group-zone", "Europe/Paris")
    ann.page.fill("#founder-name", "Ann")
    ann.page.click("#create-button")
    ann.page.wait_for_url(re.compile(r"/league/[A-Za-z0-9_-]{32}$"))
    ann.page.wait_for_selector("#you-are")
    assert ann.page.inner_text("#you-are") == f"You are Ann in {GROUP}."
    token = ann.page.url.rsplit("/", 1)[1]

    bob = open_browser(browser, PHONE)
    bob.page.goto(f"{server.base}/league/{token}")
    bob.page.wait_for_selector("#join-form")
    bob.page.fill("#join-name", "Bob")
    bob.page.locator("#join-form button").tap()
    bob.page.wait_for_selector("#you-are")
    assert bob.page.inner_text("#you-are") == f"You are Bob in {GROUP}."
    assert server.get(f"/api/groups/{token}")["members"] == ["Ann", "Bob"]

    store = LeagueStore(server.db_url)
    try:
        fill(store, GROUP)  # Ann and Bob are the members of those names; Cy and Di join
    finally:
        store.close()
    lunch = Lunch(token, ann, bob)
    yield lunch
    for person in (ann, bob, *lunch.others):
        assert not person.errors.errors, person.errors.errors
        person.context.close()


def test_no_key_ever_in_an_address(lunch: Lunch) -> None:
    """Run first and last: the key is in storage, and in no address any page asked for."""
    for person in (lunch.ann, lunch.bob):
        key = person.page.evaluate(
            "JSON.parse(localStorage.getItem('tricktable.league.person')).key")
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", key)
        assert person.urls and not [u for u in person.urls if key in u]


def test_standings_show_the_cli_figures(lunch: Lunch, server: Any) -> None:
    expected = lunch.api(server, "standings")
    for person in (lunch.ann, lunch.bob):
        visit(person, server.base, lunch.token)
        page = person.page
        assert page.inner_text("#standings-summary") == (
            f"{expected['games']} games in {expected['sessions']} sessions.")
        stars = [[f"{r['rank']}{r['person']}", *map(str, (
            r["games"], r["stars"], r["outside_stars"], r["gold_stars"], r["red_stars"],
            r["longest_streak"], r["current_streak"]))] for r in expected["threeb"]]
        assert cells(page, ".threeb-stars") == stars
        tray = [[f"{r['rank']}{r['person']}", *map(str, (
            r["trays"], r["wire_to_wire"], r["tray_hands"], r["perfect_days"],
            r["imperfect_days"])),
            chit_words(r)]
            for r in expected["threeb"]]
        assert [row[:7] for row in cells(page, ".threeb-tray")] == tray
        # Dummy Hand Spades: the declarer's rate and success, as the league counts them
        dummy = [r for r in expected["players"] if r["game"] == "dummy-hand-spades"]
        rows = cells(page, ".game-dummy-hand-spades")
        assert [(r[0], r[-2], r[-1]) for r in rows] == [
            (r["person"], f"{round(100 * r['declarer_rate'])}%",
             f"{round(100 * r['declarer_success'])}%" if r["declared"] else "—")
            for r in dummy]
        assert {r[0] for r in cells(page, ".game-paperless-spades")} == {"Ann", "Bob", "Cy",
                                                                         "Di"}
        if person is lunch.bob:
            no_sideways_scroll(page)
        screenshot(person, "standings")


def test_the_3b_sheet(lunch: Lunch, server: Any) -> None:
    sheet = lunch.api(server, "sheet")
    for person in (lunch.ann, lunch.bob):
        person.page.locator('#tabs a[data-view="sheet"]').click()
        shown(person.page, "sheet")
        page = person.page
        # stars per session, newest first: a star for each game won
        sessions = cells(page, "#session-stars")
        assert [int(r[1]) for r in sessions] == [s["games"] for s in reversed(sheet["sessions"])]
        assert [r[2].count("★") for r in sessions] == [
            sum(s["stars"].values()) for s in reversed(sheet["sessions"])]
        outside = page.inner_text("#outside-stars")
        for line in ("Ann earns an outside star: three wins in one week.",
                     "Ann earns a gold outside star: four wins in a row.",
                     "Bob earns an outside star: three wins in one week.",
                     "Bob earns a gold outside star: four wins in a row.",
                     "Bob earns a red outside star: five wins in a row."):
            assert line in outside
        streaks = page.locator("#streaks li").all_inner_texts()
        assert len(streaks) == len(sheet["streaks"]) and streaks[0].startswith(
            "Bob: 5 wins in a row")
        trays = page.inner_text("#trays")
        assert "Cy owes 1 new deck of cards." in trays
        assert "Bob holds 1 tray chit: outside star" in trays
        log = cells(page, "#trays")
        assert [r[1] for r in log] == [g["tray_person"] or "nobody (a tie)"
                                       for g in reversed(sheet["trays"]["games"])]
        chits = page.inner_text("#chits")
        assert "Ann spends a tray chit: Cy carries the trays." in chits
        assert "Cy loses a tray chit (not spent at the tray loss)." in chits
        assert "Cy earns a tray chit (perfect day)." in chits
        days = page.inner_text("#days")
        assert "Cy has a perfect day." in days and "Di has an imperfect day." in days
        assert "Di owes a new deck for Bob's imperfect day." in days
        marks = page.inner_text("#marks")
        assert "Bob gets a bonehead mark: “led the ace into a void”" in marks
        assert "Ann gets a zero-buddy mark: “let the zero sneak by”" in marks
        assert "Cy forgets the trays and is the violator: 4 trays owed." in marks
        if person is lunch.bob:
            no_sideways_scroll(page)
        screenshot(person, "sheet")


def test_a_persons_card_draws_results_over_time(lunch: Lunch, server: Any) -> None:
    card = lunch.api(server, "card", "person=Ann")
    wins = sum(r["won"] for r in card["results"])
    for person in (lunch.ann, lunch.bob):
        page = person.page
        page.locator('#tabs a[data-view="standings"]').click()
        shown(page, "standings")
        page.locator(".threeb-stars a.person", has_text="Ann").click()
        shown(page, "card")
        assert page.inner_text("#view h2") == "Ann"
        assert "view=card&person=Ann" in page.url
        chart = page.locator("svg.league-chart")
        assert chart.count() == 1
        # a star on each win, a dot on each other game; one line per game kind
        assert chart.locator("polygon.win").count() == wins
        assert chart.locator("circle").count() == len(card["results"]) - wins
        assert chart.locator("path.scores").count() == len({r["game"] for r in card["results"]})
        assert page.locator(".chart-figure .legend li").all_inner_texts() == [
            "3B Spades", "Dummy Hand Spades", "Paperless Spades"]
        h2h = cells(page, ".card-h2h")
        assert [(r[0], int(r[1]), int(r[2]), int(r[3])) for r in h2h] == [
            (h["opponent"], h["games"], h["ahead"], h["behind"]) for h in card["head_to_head"]]
        box = chart.bounding_box()
        assert box["width"] <= page.viewport_size["width"]
        if person is lunch.bob:
            no_sideways_scroll(page)
        screenshot(person, "card")


def test_the_week(lunch: Lunch, server: Any) -> None:
    week = lunch.api(server, "week", "day=2026-11-11")
    for person in (lunch.ann, lunch.bob):
        visit(person, server.base, lunch.token, "view=week&day=2026-11-11")
        page = person.page
        assert len(page.locator(".week-games li").all()) == len(week["games"])
        events = page.locator(".week-events li").all_inner_texts()
        assert len(events) == len(week["events"])
        assert any("Bob earns an outside star" in e for e in events)
        page.click("#week-before")
        page.wait_for_function("() => document.querySelector('#view h2').textContent"
                               ".includes('2 Nov')")
        shown(page, "week")
        assert "Ann earns an outside star: three wins in one week." in page.inner_text(
            ".week-events")
        screenshot(person, "week")


def test_stakes_settle_up(lunch: Lunch, server: Any) -> None:
    stakes = lunch.api(server, "stakes", "session=" + quote("Friday night"))
    for person in (lunch.ann, lunch.bob):
        visit(person, server.base, lunch.token, "view=stakes")
        page = person.page
        page.select_option("#stakes-session", "Friday night")
        page.wait_for_url(re.compile(r"session=Friday"))
        shown(page, "stakes")
        page.wait_for_function("() => document.querySelector('#stakes-session')?.value"
                               " === 'Friday night'")
        settle = page.locator(".settle li").all_inner_texts()
        assert settle == [f"{d['debtor']} pays {d['creditor']} {d['amount']:g}."
                          for d in stakes["settle"]]
        balance = {r[0]: float(r[1]) for r in cells(page, ".balance")}
        assert balance == stakes["balance"]
        screenshot(person, "stakes")


def test_head_to_head(lunch: Lunch, server: Any) -> None:
    h2h = lunch.api(server, "h2h", "game=3b-spades")["head_to_head"]
    page = lunch.ann.page
    visit(lunch.ann, server.base, lunch.token, "view=h2h")
    page.select_option("#h2h-game", "3b-spades")
    page.wait_for_url(re.compile(r"game=3b-spades"))
    shown(page, "h2h")
    page.wait_for_function("() => document.querySelector('#h2h-game')?.value === '3b-spades'")
    assert [(r[0], r[1], int(r[2]), int(r[3]), int(r[4])) for r in cells(page, ".h2h")] == [
        (h["first"], h["second"], h["games"], h["first_ahead"], h["second_ahead"]) for h in h2h]


def test_a_member_adds_a_mark_and_opens_a_session(lunch: Lunch, server: Any) -> None:
    page = lunch.ann.page
    visit(lunch.ann, server.base, lunch.token, "view=games")
    newest = page.locator(".games-list > li").first
    newest.locator(".add-mark summary").click()
    newest.locator("select[name=kind]").select_option("bonehead")
    newest.locator("select[name=person]").select_option("Ann")
    newest.locator("input[name=note]").fill("trumped my partner's ace")
    newest.locator("button[type=submit]").click()
    page.wait_for_selector(".games-list > li:first-child .marks li")
    assert page.locator(".games-list > li").first.locator(".marks").inner_text() == (
        "Bonehead: Ann — “trumped my partner's ace”")
    games = lunch.api(server, "games")["games"]
    assert {"kind": "bonehead", "person": "Ann", "note": "trumped my partner's ace",
            "named": None} in games[-1]["marks"]
    # a mark the rules refuse says why, and changes nothing
    newest = page.locator(".games-list > li").first
    newest.locator(".add-mark summary").click()
    newest.locator("select[name=kind]").select_option("carried-trays")
    newest.locator("button[type=submit]").click()
    page.wait_for_selector(".mark-form .error:not(:empty)")
    assert "owes no trays" in newest.locator(".mark-form .error").inner_text()
    # (the browser logs the refusal's 409 as a failed load: that one is expected)
    errors = lunch.ann.errors.errors
    errors[:] = [e for e in errors if "status of 409" not in e]
    assert lunch.api(server, "games")["games"] == games

    page.fill("#session-name", "Late lunch")
    page.locator("#session-form button").click()
    page.wait_for_selector("#close-session")
    assert "“Late lunch”" in page.inner_text("#session-now")
    assert server.get(f"/api/groups/{lunch.token}")["open_session"] == "Late lunch"
    page.click("#close-session")
    page.wait_for_selector("#session-form")
    assert server.get(f"/api/groups/{lunch.token}")["open_session"] is None


def test_the_key_goes_to_another_device_by_a_link(lunch: Lunch, browser: Any,
                                                  server: Any) -> None:
    page = lunch.ann.page
    visit(lunch.ann, server.base, lunch.token)
    page.click("#device-panel summary")
    link = page.input_value("#device-link")
    key = page.evaluate("JSON.parse(localStorage.getItem('tricktable.league.person')).key")
    assert link == f"{server.base}/league/{lunch.token}#key={key}"
    assert page.locator("#device-panel svg.qr").count() == 1
    tablet = open_browser(browser, PHONE)
    lunch.others.append(tablet)
    tablet.page.goto(link)
    tablet.page.wait_for_selector("#you-are")
    assert tablet.page.inner_text("#you-are") == f"You are Ann in {GROUP}."
    assert "key" not in tablet.page.url  # wiped from the address at once
    assert not [u for u in tablet.urls if key in u]  # the fragment never left the browser
    # the same key typed as a code on a third device
    laptop = open_browser(browser, LAPTOP)
    lunch.others.append(laptop)
    laptop.page.goto(server.base + "/league")
    laptop.page.wait_for_selector("#code-form")
    laptop.page.fill("#device-code", key)
    laptop.page.locator("#code-form button").click()
    laptop.page.wait_for_selector(".notice")
    assert "This device now plays as Ann." in laptop.page.inner_text(".notice")


def test_names_are_text_and_a_rename_carries_the_games(lunch: Lunch, browser: Any,
                                                       server: Any) -> None:
    """Run last (it renames Di): Di, who has no key (the games brought her in), takes one
    with the group's link on a new phone and renames herself; a visitor whose name is
    markup joins, and his name is shown as the text it is."""
    di = open_browser(browser, PHONE)
    lunch.others.append(di)
    visit(di, server.base, lunch.token)
    di.page.locator("#join-panel .relink summary").tap()
    di.page.select_option("#relink-name", "Di")
    di.page.locator("#relink-form button").tap()
    di.page.wait_for_selector("#you-are")
    before = lunch.api(server, "card", "person=Di")
    di.page.fill("#rename-name", "Diane")
    di.page.locator("#rename-form button").tap()
    di.page.wait_for_function("() => document.querySelector('#you-are')?.textContent"
                              f" === 'You are Diane in {GROUP}.'")
    after = lunch.api(server, "card", "person=Diane")
    assert after["results"] == before["results"]
    visit(lunch.ann, server.base, lunch.token)
    assert "Diane" in [r[0].lstrip("0123456789") for r in cells(lunch.ann.page, ".threeb-stars")]

    markup = '<img src=x onerror="window.hacked=1">'
    visitor = open_browser(browser, LAPTOP)
    lunch.others.append(visitor)
    visit(visitor, server.base, lunch.token)
    visitor.page.fill("#join-name", markup)
    visitor.page.locator("#join-form button").click()
    visitor.page.wait_for_selector("#you-are")
    assert visitor.page.inner_text("#you-are") == f"You are {markup} in {GROUP}."
    page = lunch.ann.page
    visit(lunch.ann, server.base, lunch.token, "view=people")
    assert markup in page.locator(".people").inner_text()
    assert page.locator("#view img").count() == 0
    assert page.evaluate("window.hacked") is None
    test_no_key_ever_in_an_address(lunch)


def chit_words(r: dict[str, int]) -> str:
    """A person's tray chits as the sheet says them."""
    parts = [f"{r[k]} {w}" for k, w in (("chits_earned", "earned"), ("chits_spent", "spent"),
                                         ("chits_lost", "lost")) if r[k]]
    held = f"{r['chits_held']} held"
    if not parts:
        return held if r["chits_held"] else "none"
    return f"{', '.join(parts)}; {held}"
