"""The browser table's client in a real browser (Debian's chromium through Playwright), against
a real ``tricktable serve``: a completed trick stays whole in the middle, for everyone, before
it goes to its winner (views that come meanwhile wait; a tap skips the wait; reduced motion
keeps the wait without the travel), "Last trick" shows the last trick for a moment only, a
link that will never open the table stops trying, a refusal to store a move is a gentle
notice, another link of the table opened in the same tab is followed, the badge says what
the decision is, and the lobby takes a pace of 0.3 s.

Time on the page is Playwright's fake clock where a test holds a moment (the trick's pause,
the "Last trick" moment, the reconnect back-off): the test moves it on by hand, so nothing
here waits for a real moment or depends on the machine's speed.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import CHROMIUM, PageErrors, chromium_available, take_one_step

pytestmark = pytest.mark.skipif(
    not chromium_available(), reason=f"needs Playwright and chromium at {CHROMIUM}")

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples"
NOT_STORED = ("the table cannot save moves right now; nothing was lost. It takes moves again "
              "as soon as it can save them: try again in a moment")


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile whose person is called Ann (the lobby remembers a name)."""
    c = browser.new_context(viewport={"width": 1100, "height": 900})
    c.add_init_script("localStorage.setItem('tricktable.name', JSON.stringify('Ann'))")
    yield c
    c.close()


# --- helpers ---------------------------------------------------------------------------------

def create(server: Any, game: str = "spades", seats: dict[str, str] | None = None,
           options: dict[str, Any] | None = None, pace: float = 0) -> dict[str, Any]:
    """A table made over HTTP: seat 0 a person, the others rules bots unless ``seats``."""
    body = {"game": game, "options": options or {"target": 100},
            "seats": seats or {"0": "person", "1": "rules", "2": "rules", "3": "rules"},
            "bot_pace": pace}
    created: dict[str, Any] = server.post("/api/tables", body)
    return created


def table_seq(server: Any, table: str) -> int:
    return int(server.get(f"/api/tables/{table}")["seq"])


SHOWN = """() => {
  const trick = document.querySelector('.trick');
  return {
    seq: Number(document.body.dataset.seq || 0),
    pause: document.body.dataset.pause || null,
    sent: document.body.dataset.sent || null,
    shows: trick ? trick.dataset.shows : null,
    trick: trick ? [...trick.querySelectorAll('[data-card]')].map(e => e.dataset.card) : [],
    winner: trick && trick.dataset.winner !== undefined ? Number(trick.dataset.winner) : null,
    legal: document.querySelectorAll('#hand button.card.legal, #controls button').length,
    status: document.querySelector('#status').textContent,
  };
}"""
"""What the table page shows now, read in one go (a view arriving between two reads would
mix two moments)."""


def shown(page: Any) -> dict[str, Any]:
    got: dict[str, Any] = page.evaluate(SHOWN)
    return got


def play_until_shown(page: Any, done: Callable[[dict[str, Any]], bool], timeout: float = 90.0
                     ) -> dict[str, Any]:
    """Take this page's turns by clicking until what it shows satisfies ``done`` (never
    while a choice made is on its way: the page shows the moment before it)."""
    deadline = time.monotonic() + timeout
    while True:
        now = shown(page)
        if now["sent"] is None and done(now):
            return now
        assert time.monotonic() < deadline, f"the page never showed that; it shows {now}"
        if not take_one_step(page):
            page.wait_for_timeout(30)  # a poll: the next view is the server's to send


def open_seat(context: Any, link: str, clock: bool = False) -> Any:
    page = context.new_page()
    if clock:
        page.clock.install()
    page.goto(link)
    page.wait_for_function("document.body.dataset.status === 'playing'", timeout=15000)
    return page


# --- 1: the completed trick ------------------------------------------------------------------

def test_a_completed_trick_shows_whole_then_goes_to_its_winner_and_the_sheet_comes_after(
        server: Any, context: Any) -> None:
    created = create(server)
    page = open_seat(context, created["invites"]["0"]["url"])
    errors = PageErrors(page)
    # the page notes every moment it shows: a completed trick never with a choice on offer,
    # and each opening of the score sheet after the hand's last trick was shown whole
    page.evaluate("""() => {
      window.seen = {completed: [], clashes: [], sheetAfter: []};
      const look = () => {
        const trick = document.querySelector('.trick');
        if (!trick) return;
        if (trick.dataset.shows === 'completed') {
          const cards = trick.querySelectorAll('[data-card]').length;
          window.seen.completed.push([Number(trick.dataset.tricksDone), cards]);
          if (document.querySelectorAll('#hand button.card.legal, #controls button').length ||
              document.querySelector('#status').textContent.startsWith('Your turn'))
            window.seen.clashes.push(document.querySelector('#status').textContent);
        }
        const sheet = document.querySelector('#sheet-panel');
        if (!sheet.hidden && window.seen.sheetAfter.length === 0)
          window.seen.sheetAfter.push(window.seen.completed.map(c => c[0]));
      };
      new MutationObserver(look).observe(document.body, {subtree: true, childList: true,
                                                         attributes: true});
    }""")
    # a trick's end: its four cards in the middle, the winner's marked, for everyone
    now = play_until_shown(page, lambda s: s["shows"] == "completed")
    assert len(now["trick"]) == 4
    assert page.locator(".trick .card.winner").count() == 1
    assert "won by" in page.locator(".trick .trick-won").inner_text()
    assert now["status"].endswith("won the trick.")
    # then it goes, by itself, and play carries on
    page.wait_for_function("document.querySelector('.trick').dataset.shows === 'current'")
    # to the hand's end: its last trick is shown whole before the score sheet opens
    play_until_shown(page, lambda s: page.locator("#sheet-panel").is_visible(), timeout=150)
    seen = page.evaluate("window.seen")
    assert seen["clashes"] == []
    assert all(cards == 4 for _, cards in seen["completed"])
    assert 13 in seen["sheetAfter"][0], seen
    assert not errors.errors, errors.errors


def test_views_wait_behind_a_completed_trick_and_a_tap_skips_the_wait(
        server: Any, context: Any) -> None:
    created = create(server)
    table = created["table"]
    page = open_seat(context, created["invites"]["0"]["url"], clock=True)
    # the page's clock stands still: the pause lasts until the person taps the table
    page.clock.pause_at(int(time.time() * 1000) + 60_000)
    now = play_until_shown(page, lambda s: s["shows"] == "completed")
    assert now["pause"] == "trick" and now["legal"] == 0
    assert not now["status"].startswith("Your turn")
    # the table goes on to this person's turn (a bot that won leads, the others follow):
    # those views wait, the newest with this person's choice in it
    deadline = time.monotonic() + 30
    while True:
        view = server.get(f"/api/tables/{table}")
        waiting_on_me = view["seq"] > now["seq"] or now["winner"] == 0
        if waiting_on_me:
            break
        assert time.monotonic() < deadline, "the table did not move on"
        time.sleep(0.05)
    still = shown(page)
    assert still["shows"] == "completed" and still["seq"] == now["seq"]
    assert still["trick"] == now["trick"]
    # a tap on the table: the newest view at once, with the choice it asks
    page.click("#felt")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Your turn')"
                           " && document.querySelectorAll('#hand button.card.legal').length > 0")
    after = shown(page)
    assert after["shows"] == "current" and after["pause"] is None
    assert after["seq"] == table_seq(server, table)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_travel_unless_the_person_asks_for_less_motion(
        server: Any, browser: Any, motion: str) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, reduced_motion=motion)
    context.add_init_script("localStorage.setItem('tricktable.name', JSON.stringify('Ann'))")
    created = create(server)
    page = open_seat(context, created["invites"]["0"]["url"], clock=True)
    # a card played since the last view travels from its seat (none with reduced motion):
    # seen at this person's turn, when the table waits
    play_until_shown(page, lambda s: s["status"] == "Your turn to play." and
                     page.locator(".trick .card.arriving").count() > 0)
    arriving = page.eval_on_selector(".trick .card.arriving",
                                     "e => getComputedStyle(e).animationName")
    assert arriving == ("none" if motion == "reduce" else "trick-arrive")
    # the completed trick waits the same with either (the page's clock in hand from here)
    page.clock.pause_at(int(time.time() * 1000) + 60_000)
    play_until_shown(page, lambda s: s["shows"] == "completed")
    page.clock.run_for(1000)
    assert shown(page)["shows"] == "completed"
    page.clock.run_for(300)  # the pause is over: the trick travels to its winner
    if motion == "reduce":
        page.wait_for_function("document.querySelector('.trick').dataset.shows === 'current'")
    else:
        page.wait_for_selector(".trick .card.gathering")
        gathering = page.eval_on_selector(".trick .card.gathering",
                                          "e => getComputedStyle(e).animationName")
        assert gathering == "trick-gather"
        page.clock.run_for(500)
        page.wait_for_function("document.querySelector('.trick').dataset.shows === 'current'")
    context.close()


def test_last_trick_shows_for_a_moment_then_the_trick_in_progress(
        server: Any, context: Any) -> None:
    created = create(server)
    page = open_seat(context, created["invites"]["0"]["url"], clock=True)
    # past the first trick, at this person's turn with cards on the table
    play_until_shown(page, lambda s: s["shows"] == "current" and len(s["trick"]) > 0 and
                     s["status"].startswith("Your turn") and
                     page.locator(".seat .stats:has-text('won 1')").count() > 0)
    page.clock.pause_at(int(time.time() * 1000) + 60_000)
    in_progress = shown(page)["trick"]
    # a tap: the last trick, for a moment
    page.click("#last-trick")
    assert shown(page)["shows"] == "last"
    assert page.locator(".trick .trick-won").inner_text().startswith("last trick: won by")
    page.clock.run_for(2100)
    back = shown(page)
    assert back["shows"] == "current" and back["trick"] == in_progress
    # held down: as long as it is held, then the trick in progress again
    box = page.locator("#last-trick").bounding_box()
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    page.mouse.down()
    page.clock.run_for(5000)
    assert shown(page)["shows"] == "last"
    page.mouse.up()
    assert shown(page)["shows"] == "current"
    # the person can still play: nothing stuck
    assert take_one_step(page) is not None


# --- 3: links that will never open the table, and a move that could not be stored ----------

SOCKET_COUNTER = """() => {
  window.socketsOpened = 0;
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(...args) { super(...args); window.socketsOpened += 1; }
  };
}"""
"""Counts the sockets the page opens from now on."""


def stopped_page(context: Any, url: str) -> Any:
    """The page at ``url``, its clock in hand."""
    page = context.new_page()
    page.clock.install()
    page.goto(url)
    return page


def assert_stops_with(page: Any, sentence: str) -> None:
    page.wait_for_selector(f"#status:has-text({json.dumps(sentence)})", timeout=15000)
    assert "closed" in page.locator("#connection").get_attribute("class")
    # a minute of the page's time later it has not tried again (sockets counted from now)
    page.evaluate(SOCKET_COUNTER)
    page.clock.run_for(60_000)
    assert page.evaluate("window.socketsOpened") == 0


@pytest.mark.parametrize("case", ["bad-token", "bot-seat", "ended", "no-table"])
def test_a_link_that_will_never_open_the_table_stops_trying_and_says_what_to_do(
        server: Any, context: Any, case: str) -> None:
    seats = {"0": "person", "1": "person", "2": "rules", "3": "rules"}
    created = create(server, seats=seats)
    table, invite = created["table"], created["invites"]["1"]["url"]
    host = {"authorization": f"Bearer {created['host_token']}"}
    if case == "bad-token":
        url = re.sub(r"#token=.*", "#token=not-a-token-of-this-table", invite)
        sentence = ("This link does not open a seat at this table any more: "
                    "ask the host for a new link.")
    elif case == "bot-seat":
        status, _ = server.request("POST", f"/api/tables/{table}/seats/1",
                                   json.dumps({"do": "bot"}).encode(), host)
        assert status == 200
        url, sentence = invite, "A bot plays this seat now"
    elif case == "ended":
        status, _ = server.request("POST", f"/api/tables/{table}/end", b"{}", host)
        assert status == 200
        url, sentence = invite, "This table is closed"
    else:
        url = server.base + "/play/no-such-table#token=whatever"
        sentence = "There is no such table"
    page = stopped_page(context, url)
    assert_stops_with(page, sentence)


def test_a_table_ended_under_the_person_says_so_and_offers_nothing(
        server: Any, context: Any) -> None:
    created = create(server, pace=0.2)
    page = open_seat(context, created["invites"]["0"]["url"])
    status, _ = server.request("POST", f"/api/tables/{created['table']}/end", b"{}",
                               {"authorization": f"Bearer {created['host_token']}"})
    assert status == 200
    page.wait_for_selector("#status:has-text('This table is closed: the host ended the table.')")
    assert shown(page)["legal"] == 0


@pytest.mark.parametrize("code", ["set-aside", "too-many-sockets"])
def test_a_server_that_turns_the_socket_away_for_good_is_not_asked_again(
        server: Any, context: Any, code: str) -> None:
    created = create(server)
    page = context.new_page()
    page.clock.install()

    def turn_away(ws: Any) -> None:
        ws.send(json.dumps({"type": "error", "code": code, "message": "not now"}))
        ws.close(code=4404)

    page.route_web_socket(re.compile(r".*/ws/.*"), turn_away)
    page.goto(created["invites"]["0"]["url"])
    assert_stops_with(page, {"set-aside": "This table cannot be opened just now",
                             "too-many-sockets": "Too many table pages are open"}[code])


def test_a_move_the_table_could_not_store_is_a_gentle_notice_and_can_be_made_again(
        server: Any, context: Any) -> None:
    created = create(server)
    page = context.new_page()
    refused: list[str] = []

    def through(ws: Any) -> None:
        real = ws.connect_to_server()

        def from_page(message: Any) -> None:
            msg = json.loads(message)
            if msg.get("type") == "action" and not refused:
                # the first move is refused as the server does while its database is away
                refused.append(msg["action"])
                ws.send(json.dumps({"type": "refused", "code": "not-stored",
                                    "message": NOT_STORED, "action": msg["action"]}))
                return
            real.send(message)

        ws.on_message(from_page)
        real.on_message(lambda message: ws.send(message))

    page.route_web_socket(re.compile(r".*/ws/.*"), through)
    page.goto(created["invites"]["0"]["url"])
    page.wait_for_function("document.body.dataset.status === 'playing'", timeout=15000)
    play_until_shown(page, lambda s: bool(refused))
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert "nothing was lost" in toast.inner_text()
    assert toast.get_attribute("role") == "status"  # a notice, not an alarm
    assert page.locator("#connection.connected").count() == 1
    # the same choice is on offer again, and taken this time
    seq = shown(page)["seq"]
    assert take_one_step(page) is not None
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")


# --- 10: another link of the table in the same tab -------------------------------------------

def test_another_link_of_the_table_in_the_same_tab_is_followed(server: Any, context: Any) -> None:
    seats = {"0": "person", "1": "rules", "2": "person", "3": "rules"}
    created = create(server, seats=seats, pace=0.2)
    table = created["table"]
    page = context.new_page()
    page.goto(created["invites"]["0"]["url"])
    page.wait_for_selector(".seat.me[data-seat='0']")
    assert page.locator("#role").inner_text() == "you are Ann"
    # the person opens seat 2's link in this tab: only the #token changes
    token = created["invites"]["2"]["token"]
    page.evaluate(f"location.hash = 'token={token}'")
    page.wait_for_selector(".seat.me[data-seat='2']", timeout=15000)
    page.wait_for_function("document.body.dataset.status === 'playing'")
    # the first link's socket is closed: seat 0 is away now
    deadline = time.monotonic() + 15
    while not server.get(f"/api/tables/{table}")["seats"][0]["away"]:
        assert time.monotonic() < deadline, "seat 0's socket was left open"
        time.sleep(0.05)
    # and the spectators' link too
    page.evaluate(f"location.hash = 'token={created['spectator']['token']}'")
    page.wait_for_function("document.querySelector('#role').textContent === 'watching'")


def test_the_replay_viewer_follows_another_record_link_in_the_same_tab(
        server: Any, context: Any) -> None:
    records = {"one": EXAMPLES / "dummy-whist-31-000.json",
               "two": EXAMPLES / "3b-spades-21-000.json"}
    page = context.new_page()
    page.route(re.compile(r".*/api/tables/(one|two)/records/0$"), lambda route: route.fulfill(
        status=200, content_type="application/json",
        body=records[route.request.url.split("/")[-3]].read_text()))
    page.goto(server.base + "/replay#table=one&game=0&token=t")
    page.wait_for_function("document.querySelector('#title').textContent.includes('Whist')")
    page.evaluate("location.hash = 'table=two&game=0&token=t'")
    page.wait_for_function("document.querySelector('#title').textContent.includes('3B')")
    page.wait_for_function("document.querySelector('#label').textContent.includes(' of ')")


# --- 13: words -------------------------------------------------------------------------------

BADGES_SEEN = """
window.badgesSeen = new Set();
new MutationObserver(() => {
  for (const badge of document.querySelectorAll('.seat .badge.turn'))
    window.badgesSeen.add((badge.closest('.seat.me') ? 'me: ' : 'other: ') + badge.textContent);
}).observe(document, {subtree: true, childList: true});
"""
"""Notes every "to act" badge the page ever shows, on this person's seat and the others'."""


def test_the_badge_and_the_status_say_what_the_decision_is(server: Any, context: Any) -> None:
    created = create(server, pace=0.2)
    context.add_init_script(BADGES_SEEN)
    page = open_seat(context, created["invites"]["0"]["url"])
    page.wait_for_selector("#controls .rule", timeout=15000)
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Your turn')")
    assert page.locator("#status").inner_text() == "Your turn to bid."
    assert page.locator(".seat.me .badge.turn").inner_text() == "to bid"
    assert page.locator("#role").inner_text() == "you are Ann"
    # on to the play: the others bid before or after this person, and their badges said so
    play_until_shown(page, lambda s: s["status"] == "Your turn to play.")
    assert page.locator(".seat.me .badge.turn").inner_text() == "to play"
    seen = set(page.evaluate("[...window.badgesSeen]"))
    assert {"me: to bid", "other: to bid", "me: to play"} <= seen, seen


def test_the_lobby_takes_a_pace_in_tenths_and_the_replay_buttons_need_no_special_font(
        server: Any, context: Any) -> None:
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_function("document.querySelectorAll('#game option').length > 0")
    page.fill("#pace", "0.3")
    assert page.eval_on_selector("#pace", "e => e.checkValidity()")
    page.click("#create-button")
    page.wait_for_selector("#take-seat")
    table = page.locator("#created h2").inner_text().split()[1]
    assert server.get(f"/api/tables/{table}")["bot_pace"] == pytest.approx(0.3)
    page.goto(server.base + "/replay")
    buttons = page.locator(".replay-bar button").all_inner_texts()
    assert buttons and not any(re.search("[\u23e9-\u23ef]", b) for b in buttons), buttons


def test_a_reopened_tab_says_your_turn_in_its_title(server: Any, context: Any) -> None:
    """A tab opened on the person's turn cannot beep before a tap (the browser's rule): its
    title says "Your turn" instead, and stops saying it once the turn has passed."""
    created = create(server, pace=0)
    page = context.new_page()
    page.goto(created["invites"]["0"]["url"])
    page.wait_for_function("document.title.startsWith('Your turn · ')", timeout=30000)
    # every title the tab takes from now on (with bots at pace 0 the turn may come back
    # to the person before a look at the title would see it pass)
    page.evaluate("""() => { window.titles = [];
      new MutationObserver(() => window.titles.push(document.title)).observe(
        document.querySelector('title'), {childList: true, characterData: true, subtree: true});
    }""")
    # one decision made (a step may find the page changing under it: then look again)
    deadline = time.monotonic() + 60
    while take_one_step(page) is None:
        assert time.monotonic() < deadline, "no decision could be made on the page"
        page.wait_for_timeout(100)
    page.wait_for_function("window.titles.some((t) => !t.startsWith('Your turn'))",
                           timeout=30000)
