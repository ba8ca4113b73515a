"""Issue 40's "Done when", tried in a real browser against a real ``tricktable serve``: three
friends, on two laptops (1366x768) and a phone (390x844, touch), finish a game of each seed
game by clicking, with bots in the other seats (at pace 0). In the middle of the first hand
the friend on the phone closes the page: the others see them away, a bot stands in after the
table's short away grace and plays their cards, and the friend comes back by their link
(the same phone: its device key and name are remembered) and has the seat back. Then:

- every page shows the game over with the same result, in people's names;
- every page showed every completed trick whole (each card of it in the middle) while it was
  open, before the trick went to its winner (a friend in a hurry then taps the table);
- no page had a script error; no page ever scrolled (a click on a card or a button out of
  sight would scroll the page to reach it: the page notes every scroll); the layout
  contract (tests/layout_driver.py) holds on every page at a few moments: the first bid
  and the first card, while the friend is away, on the friend's return, and at the end;
- no page's DOM, at any moment (a MutationObserver notes every card it draws under the view
  it draws), and no message a page received named a card its seat may not see then (the
  engine's own observation, replayed from the table's stored log, is the judge).

Every wait reads the state it waits for, with a deadline; the loop that plays for the three
friends polls their pages (each step a click or a tap, as a person would).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from browser import CHROMIUM, PageErrors, chromium_available, press, take_one_step
from layout_driver import LAYOUT

if os.environ.get("TRICKTABLE_REQUIRE_BROWSER") and not chromium_available():
    raise RuntimeError(f"the browser tests are required here but chromium ({CHROMIUM}) or "
                       "Playwright is missing")
pytestmark = pytest.mark.skipif(
    not chromium_available(), reason=f"needs Playwright and chromium at {CHROMIUM}")


@dataclass(frozen=True)
class Trial:
    """A game as the friends play it: options that keep it short, and a seed that makes
    it one hand (the stand-in's cards depend on how long the friend is away, so a game
    may still take another hand: the test plays on to the end whatever it takes)."""

    game: str
    options: dict[str, Any]
    seed: str

    @property
    def id(self) -> str:
        return self.game


TRIALS = [
    # a short game each: one hand (or little more) to the end
    Trial("spades", {"target": 1, "mercy": True, "mercy_score": 0}, "trial-1"),
    Trial("3b-spades", {"players": 4, "hands": 1}, "trial-1"),
    Trial("dummy-hand-spades", {"target": 1}, "trial-1"),
    Trial("dummy-whist", {"target": 1}, "trial-1"),
    Trial("paperless-spades", {"limit": 0, "overtime_limit": 0}, "trial-2"),
]

LAPTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                         "has_touch": True}
FRIENDS = [("Ann", LAPTOP), ("Bob", LAPTOP), ("Cleo", PHONE)]
"""Seats 0, 1 and 2, in that order; Cleo, on the phone, is the one who leaves."""
LEAVER = 2
AWAY_GRACE = 3.0
GAME_DEADLINE = 150.0
"""Seconds for a whole game: a generous bound on a busy machine, never a timing asserted."""

OBSERVER = r"""
(() => {
  // What this page ever drew, noted at every change of its DOM: the cards it named under
  // each view number, each completed trick shown whole (and with how many cards), the
  // cards seen in the middle, and the badges of the seats.
  const seen = { cards: {}, completed: {}, played: {}, badges: {}, scrolled: 0 };
  window.trialSeen = seen;
  // the page itself scrolled (to reach a card or a button for a click): how far, at most
  window.addEventListener('scroll', () => {
    seen.scrolled = Math.max(seen.scrolled, window.scrollX, window.scrollY);
  });
  const look = () => {
    const body = document.body;
    if (!body || !body.dataset.seq) return;
    const number = document.querySelector('#hand-number');
    const hand = number ? number.textContent : '';
    const cards = seen.cards[body.dataset.seq] || (seen.cards[body.dataset.seq] = {});
    for (const e of document.querySelectorAll('[data-card]')) cards[e.dataset.card] = 1;
    const trick = document.querySelector('.trick');
    if (trick) {
      const faces = [...trick.querySelectorAll('.card.in-trick[data-card]')];
      if (trick.dataset.shows === 'completed') {
        seen.completed[`${hand}/${trick.dataset.tricksDone}`] = faces.length;
      }
      for (const f of faces) seen.played[f.dataset.card] = hand;
    }
    for (const b of document.querySelectorAll('.felt .seat .badge')) {
      seen.badges[`${b.closest('.seat').dataset.seat}: ${b.textContent}`] = 1;
    }
  };
  new MutationObserver(look).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true });
})();
"""

STATE = """() => {
  const shown = (id) => { const e = document.getElementById(id); return Boolean(e && !e.hidden); };
  const trick = document.querySelector('.trick');
  return {
    status: document.body ? document.body.dataset.status || null : null,
    seq: document.body ? Number(document.body.dataset.seq || 0) : 0,
    pause: Boolean(document.body && document.body.dataset.pause),
    sent: Boolean(document.body && document.body.dataset.sent),
    sheet: shown('sheet-panel'),
    end: shown('end'),
    name_form: shown('name-form'),
    hand: (document.querySelector('#hand-number') || {}).textContent || '',
    tricks: trick ? Number(trick.dataset.tricksDone || 0) : 0,
    line: (document.querySelector('#status') || {}).textContent || '',
    asks: document.querySelectorAll('#controls .control:not(.optional)').length > 0,
  };
}"""
"""What a table page shows now, read in one go."""

LAYOUT_WHEN_STILL = (
    "() => document.getAnimations().some((a) => a.playState === 'running') ? null : "
    f"({LAYOUT})()")
"""The layout contract's problems, measured when no card is on its way (a card caught in
flight is not where it lies): null, to be asked again, while one is."""

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|BJ|LJ)(?![A-Za-z0-9])")


@dataclass
class Friend:
    """One person at the table: a browser profile (a laptop or the phone) and its page."""

    name: str
    seat: int
    context: Any
    link: str
    page: Any = None
    errors: list[PageErrors] = field(default_factory=list)
    frames: list[list[str]] = field(default_factory=list)
    """Per page opened: the text of every message it received on its socket."""
    seen: list[dict[str, Any]] = field(default_factory=list)
    """Per page opened and left or finished: what its observer noted."""
    measured: set[str] = field(default_factory=set)
    plays: int = 0
    """Cards this page's person played by a click (since the page was opened)."""

    def open(self) -> None:
        page = self.context.new_page()
        self.errors.append(PageErrors(page))
        texts: list[str] = []
        self.frames.append(texts)
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: texts.append(
            payload if isinstance(payload, str) else payload.decode())))
        page.goto(self.link)
        self.page = page
        self.plays = 0

    def state(self) -> dict[str, Any]:
        got: dict[str, Any] = self.page.evaluate(STATE)
        return got

    def close(self) -> None:
        self.seen.append(self.page.evaluate("window.trialSeen"))
        self.page.close()
        self.page = None


class Table:
    """The friends at one table, and what is wrong with what their pages showed."""

    def __init__(self, server: Any, table: str, friends: list[Friend]) -> None:
        self.server = server
        self.table = table
        self.friends = friends
        self.layout: dict[str, list[str]] = {}

    def at_table(self) -> list[Friend]:
        return [f for f in self.friends if f.page is not None]

    def measure(self, friend: Friend, moment: str) -> None:
        """The layout contract on ``friend``'s page as it is now (once per moment)."""
        if moment in friend.measured:
            return
        friend.measured.add(moment)
        problems = friend.page.wait_for_function(LAYOUT_WHEN_STILL, timeout=15000).json_value()
        if problems:
            self.layout[f"{friend.name}'s page, {moment}"] = problems

    def step(self, friend: Friend) -> bool:
        """One thing ``friend`` does at the page, as a person would: close the score sheet,
        tap a completed trick on (once it was shown whole: the observer noted it), or take
        their turn. False when there was nothing to do."""
        from playwright.sync_api import Error as PlaywrightError

        page = friend.page
        now = friend.state()
        if now["status"] not in ("playing", "over"):
            return False
        try:
            if now["sheet"]:
                press(page, page.locator("#close-sheet"))
                return True
            if now["end"]:
                return False
            if now["pause"]:
                press(page, page.locator("#felt"))
                return True
        except PlaywrightError:
            return False  # the page changed under the tap: look again
        if now["sent"] or not now["line"].startswith("Your turn"):
            return False
        self.measure(friend, "at the first decision" if now["asks"] else "at the first card")
        did = take_one_step(page)
        if did and did.startswith("play "):
            friend.plays += 1
        return did is not None

    def play_until(self, done: Callable[[], bool], deadline: float, what: str) -> None:
        """Everyone at the table takes their turns by clicking until ``done()``."""
        while not done():
            if time.monotonic() > deadline:
                said = " | ".join(
                    f"{f.name}: {f.state()} / {f.page.locator('#controls').inner_text()[:200]}"
                    for f in self.at_table())
                raise AssertionError(f"{what} never came; the pages said: {said}")
            moved = False
            for friend in self.at_table():
                moved = self.step(friend) or moved
            if not moved:
                # a poll: the next view is the server's (a bot's move, the stand-in's)
                self.at_table()[0].page.wait_for_timeout(40)

    def seats(self) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = self.server.get(f"/api/tables/{self.table}")["seats"]
        return seats


def badges(page: Any, seat: int) -> list[str]:
    return [str(t) for t in page.locator(f".felt .seat[data-seat='{seat}'] .badge")
            .all_inner_texts()]


def allowed_cards(db_url: str, table: str, seat: int) -> dict[int, set[str]]:
    """For each view number of the first game, the cards the seat's own observation names
    then (the engine's truth, replayed from the stored log): all its page may ever show."""
    from web_helpers import moments

    return {seq: set(CARD.findall(json.dumps(views[seat])))
            for seq, views in moments(db_url, table).items()}


def hidden_cards_shown(friend: Friend, table: str, allowed: dict[int, set[str]]) -> list[str]:
    """Every card one of ``friend``'s pages drew, or one of its messages named, that its
    seat could not see at that view."""
    out = []
    for seen in friend.seen:
        for seq, cards in seen["cards"].items():
            extra = set(cards) - allowed[int(seq)]
            if extra:
                out.append(f"the page drew {sorted(extra)} at view {seq}")
    views = 0
    for texts in friend.frames:
        for text in texts:
            message = json.loads(text)
            if message.get("type") != "view" or message.get("game_number") != 0:
                continue
            views += 1
            # the table's id is random text that may read as a card between underscores
            named = set(CARD.findall(json.dumps(message).replace(table, " ")))
            extra = named - allowed[int(message["seq"])]
            if extra:
                out.append(f"view {message['seq']} sent to it named {sorted(extra)}")
    assert views > 10, f"{friend.name}'s pages received only {views} views"
    return out


@pytest.mark.parametrize("trial", TRIALS, ids=[t.id for t in TRIALS])
def test_three_friends_finish_a_game_while_one_leaves_and_comes_back(
        server: Any, browser: Any, trial: Trial) -> None:
    deadline = time.monotonic() + GAME_DEADLINE
    from tricktable.engine.game import make_game

    game = make_game(trial.game, trial.options)
    player_seats = game.player_seats
    trick_size = game.num_seats  # every seat plays to each trick, a dummy too
    seats = {str(s): "person" if s < len(FRIENDS) else "rules" for s in player_seats}
    created = server.post("/api/tables", {
        "game": trial.game, "options": trial.options, "seats": seats, "bot_pace": 0,
        "away_grace": AWAY_GRACE, "stand_in": "rules", "seed": trial.seed})
    table_id = created["table"]
    friends = []
    for seat, (name, device) in enumerate(FRIENDS):
        context = browser.new_context(**device)
        context.add_init_script(OBSERVER)
        friends.append(Friend(name, seat, context, created["invites"][str(seat)]["url"]))
    table = Table(server, table_id, friends)
    try:
        # each friend opens the link they were sent and types their name
        for friend in friends:
            friend.open()
            friend.page.locator("#name-form").wait_for(state="visible", timeout=15000)
            friend.page.fill("#name-input", friend.name)
            press(friend.page, friend.page.locator("#name-form button[type=submit]"))
        for friend in friends:
            friend.page.wait_for_function(
                "document.body.dataset.status === 'playing'", timeout=20000)

        # the game until the middle of the first hand: two tricks played, and the friend's
        # page at rest (no choice on its way, no trick on show)
        leaver = friends[LEAVER]
        stay = [f for f in friends if f is not leaver]

        def mid_hand() -> bool:
            now = leaver.state()
            return (now["status"] == "playing" and now["hand"] == "hand 1"
                    and now["tricks"] >= 2 and not now["pause"] and not now["sent"]
                    and not now["sheet"])

        table.play_until(mid_hand, deadline, "the middle of the first hand")
        held = set(leaver.page.locator("#hand .card[data-card]").evaluate_all(
            "cards => cards.map((c) => c.dataset.card)"))
        tricks_before = leaver.state()["tricks"]
        assert held, "the friend leaves with cards in hand"
        leaver.close()

        # the others see the friend away, then a bot standing in after the grace, which
        # plays one of the cards the friend held (the table does not wait for ever)
        def stood_in() -> bool:
            return all(
                "away" in badges(f.page, LEAVER) and "bot stands in" in badges(f.page, LEAVER)
                and held & set(f.page.evaluate("Object.keys(window.trialSeen.played)"))
                for f in stay)

        table.play_until(stood_in, deadline, "a bot standing in for the friend")
        away = table.seats()[LEAVER]
        assert away["away"] and away["stand_in"] and away["name"] == leaver.name, away
        for friend in stay:
            table.measure(friend, "while a friend is away")

        # the friend comes back by the same link on the same phone: the seat is theirs again
        # (the name remembered), the others see them back, and they play on by tapping
        leaver.open()
        leaver.page.wait_for_function(
            "document.body.dataset.status === 'playing' && document.querySelector("
            f"\".seat.me[data-seat='{LEAVER}']\") !== null", timeout=20000)
        back = leaver.state()
        assert not back["name_form"], "the friend is asked their name again on coming back"
        assert leaver.page.locator("#role").inner_text() == f"you are {leaver.name}"
        assert back["hand"] != "hand 1" or back["tricks"] >= tricks_before
        table.measure(leaver, "on coming back")

        def returned() -> bool:
            return leaver.plays > 0 and all(
                not {"away", "bot stands in"} & set(badges(f.page, LEAVER)) for f in stay)

        table.play_until(returned, deadline, "the friend back at the seat, playing")
        assert not table.seats()[LEAVER]["away"]

        # to the end of the game, on every page
        def game_over() -> bool:
            return all(now["end"] and not now["sheet"] for now in map(Friend.state, friends))

        table.play_until(game_over, deadline, "the end of the game, the score sheet read")
        results = []
        for friend in friends:
            table.measure(friend, "at the end")
            result = friend.page.locator("#end h2, #end ol").all_inner_texts()
            results.append([line.replace(" (you)", "") for line in result])
        assert results[0] == results[1] == results[2], results
        assert not re.search(r"\bseat \d", " ".join(results[0])), results[0]
        assert server.get(f"/api/tables/{table_id}")["status"] == "over"
        for friend in friends:
            friend.close()

        # every completed trick shown whole on every page open when it was completed
        record = server.get(f"/api/tables/{table_id}/records/0?token="
                            f"{created['invites']['0']['token']}")
        tricks = {f"hand {n + 1}": sum(": play " in a for a in hand["actions"]) // trick_size
                  for n, hand in enumerate(record["hands"])}
        everyone = {f"{hand}/{t}" for hand, count in tricks.items() for t in range(1, count + 1)}
        for friend in stay:
            completed = friend.seen[0]["completed"]
            assert everyone <= set(completed), (friend.name, sorted(everyone - set(completed)))
        shown_whole = {**leaver.seen[0]["completed"], **leaver.seen[1]["completed"]}
        before = {f"hand 1/{t}" for t in range(1, tricks_before + 1)}

        def after_return(trick: str) -> bool:
            hand, number = trick.split("/")
            return (int(hand.split()[1]), int(number)) > (int(back["hand"].split()[1]),
                                                          back["tricks"])

        after = {k for k in everyone if after_return(k)}
        assert before | after <= set(shown_whole), sorted((before | after) - set(shown_whole))
        for friend in friends:
            for seen in friend.seen:
                short = {k: n for k, n in seen["completed"].items() if n != trick_size}
                assert not short, f"{friend.name}'s page showed a trick not whole: {short}"

        # nothing a seat may not see, ever, on any page
        for friend in friends:
            allowed = allowed_cards(server.db_url, table_id, friend.seat)
            leaks = hidden_cards_shown(friend, table_id, allowed)
            assert not leaks, (friend.name, leaks[:8])

        # the layout held, and no page had a script error
        assert not table.layout, "\n".join(
            f"{where}:\n  " + "\n  ".join(problems[:8]) for where, problems in table.layout.items())
        for friend in friends:
            scrolled = [seen["scrolled"] for seen in friend.seen]
            assert not any(scrolled), f"{friend.name}'s page had to scroll {scrolled} px"
            for errors in friend.errors:
                assert not errors.errors, (friend.name, errors.errors)
    finally:
        for friend in friends:
            friend.context.close()
