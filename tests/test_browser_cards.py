"""The cards' faces in a real browser (Debian's chromium through Playwright; issue 40): every
card of the deck is drawn by cards.js as an SVG that keeps its ``data-card`` and
``aria-label``, a face-down card shows nothing of a face, the corner index of a card in a hand
reads at a phone's size, the four-colour deck is one setting that holds on every page and
needs no redraw, cards do not move for who asks for no motion, and nothing is fetched from
another site.

The package's static files are served as they are by a small server on loopback, with a
bare page that imports cards.js. Screenshots of a hand and of the four-colour deck, at a
phone's and a laptop's size, go to ``screenshots/cards-*.png``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import tricktable
from browser import (
    CHROMIUM,
    SCREENSHOTS,
    PageErrors,
    chromium_available,
)

pytestmark = pytest.mark.skipif(
    not chromium_available(), reason=f"needs Playwright and chromium at {CHROMIUM}")

WEB = Path(tricktable.__file__).resolve().parent / "web"
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][SHDC]|BJ|LJ)(?![A-Za-z0-9])")
DECK = [rank + suit for suit in "SHDC" for rank in "AKQJT98765432"] + ["BJ", "LJ"]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cards</title>
<link rel="stylesheet" href="/static/css/tricktable.css">
<style>
  :root, body.felt-look { background: #1d6b43; }
  .felt-look h2 { color: #fff; font-size: 0.9rem; margin: 0.6rem 0 0.2rem; }
  .row { display: flex; flex-wrap: wrap; gap: 0.2rem; align-items: center; }
  .deck { display: flex; flex-wrap: wrap; justify-content: center; }
</style></head>
<body class="felt-look"><main id="root"></main>
<script type="module">
import * as cards from "/static/js/cards.js";
window.cards = cards;
document.body.dataset.ready = "1";
</script>
</body></html>
"""

READY = """() => {
  if (document.body === null || document.body.dataset.ready !== '1') return false;
  const link = document.querySelector('link[href="/static/css/cards.css"]');
  return link !== null && link.sheet !== null;
}"""
"""cards.js has run and the stylesheet it adds has loaded."""


class _Handler(SimpleHTTPRequestHandler):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(WEB), **kwargs)

    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/cards":
            body = PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if not self.path.startswith("/static/"):
            self.send_error(404)
            return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


class CardsPage:
    """The bare page in a fresh context; every request it makes is kept."""

    def __init__(self, browser: Any, base: str, **context_options: Any) -> None:
        self.base = base
        self.context = browser.new_context(**context_options)
        self.page = self.context.new_page()
        self.errors = PageErrors(self.page)
        self.requests: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))

    def open(self) -> Any:
        self.page.goto(self.base + "/cards")
        self.page.wait_for_function(READY, timeout=10000)
        return self.page

    def close(self) -> None:
        """Checks nothing went wrong and nothing was asked of another site."""
        assert not self.errors.errors, self.errors.errors
        elsewhere = [u for u in self.requests
                     if not u.startswith(self.base + "/") and not u.startswith("data:")]
        assert not elsewhere, f"requests that left the test server: {elsewhere}"
        assert any(u.endswith("/static/css/cards.css") for u in self.requests)
        self.context.close()


@pytest.fixture
def cards_page(browser: Any, base: str) -> Iterator[CardsPage]:
    p = CardsPage(browser, base, viewport=PHONE)
    yield p
    p.close()


DRAW_HAND = """(hand) => {
  const root = document.getElementById('root');
  const box = document.createElement('div');
  box.id = 'hand';
  box.className = 'hand';
  let last = null;
  for (const c of window.cards.arrange(hand, null)) {
    const face = window.cards.cardElement(c, { button: true });
    const suit = window.cards.suitOf(c);
    if (last !== null && suit !== last) face.classList.add('suit-break');
    last = suit;
    face.classList.add('legal');
    box.append(face);
  }
  root.append(box);
}"""

HAND = ["AS", "KS", "TS", "5S", "QH", "JH", "9H", "2H", "AD", "7D", "KC", "8C", "3C"]


def test_every_card_of_the_deck_has_a_drawn_face_with_its_name(cards_page: CardsPage) -> None:
    page = cards_page.open()
    faces = page.evaluate("""(deck) => deck.map((c) => {
      const span = window.cards.cardElement(c);
      const button = window.cards.cardElement(c, { button: true, title: 'play it' });
      document.getElementById('root').append(span, button);
      const svg = span.querySelector(':scope > svg');
      const box = span.getBoundingClientRect(), inner = svg && svg.getBoundingClientRect();
      return {
        card: c, tag: span.tagName, buttonTag: button.tagName, classes: [...span.classList],
        dataCard: span.dataset.card, label: span.getAttribute('aria-label'),
        buttonCard: button.dataset.card, buttonLabel: button.getAttribute('aria-label'),
        title: button.title, name: window.cards.cardName(c), svg: svg !== null,
        viewBox: svg && svg.getAttribute('viewBox'), hidden: svg && svg.getAttribute('aria-hidden'),
        // the face fills the card (the card's edge aside)
        fills: inner !== null && inner.width >= box.width - 4 && inner.height >= box.height - 4
          && box.width > 20,
        text: span.innerText,
        markup: span.outerHTML.replace(/ data-card="[^"]*"/, ''),
      };
    })""", DECK)
    for f in faces:
        card = f["card"]
        assert f["svg"], f"{card} has no drawn face"
        assert f["viewBox"] == "0 0 100 140" and f["hidden"] == "true", f
        assert f["fills"], f"{card}'s face does not fill the card"
        assert (f["tag"], f["buttonTag"]) == ("SPAN", "BUTTON"), f
        assert f["dataCard"] == f["buttonCard"] == card, f
        assert f["label"] == f["buttonLabel"] == f["name"], f
        assert f["title"] == "play it"
        assert "card" in f["classes"]
        assert ("joker" if card in ("BJ", "LJ") else f"suit-{card[1]}") in f["classes"], f
        # the page's text and markup name no card but through data-card: the table's test of
        # hidden cards reads both
        assert not CARD.findall(f["text"]), f
        assert not CARD.findall(f["markup"]), (card, CARD.findall(f["markup"]))
    by_card = {f["card"]: f for f in faces}
    assert "joker-big" in by_card["BJ"]["classes"] and "joker-little" in by_card["LJ"]["classes"]
    assert by_card["TS"]["text"].replace("\n", "") == "10"


def test_a_face_down_card_shows_nothing_of_a_face(cards_page: CardsPage) -> None:
    page = cards_page.open()
    backs = page.evaluate("""() => [
      window.cards.cardElement('?'), window.cards.cardElement('?', { button: true }),
      window.cards.backElement(), window.cards.backElement('3'),
    ].map((e) => {
      document.getElementById('root').append(e);
      return { classes: [...e.classList], card: e.dataset.card ?? null,
               label: e.getAttribute('aria-label'), svg: e.querySelector('svg') !== null,
               text: e.textContent, image: getComputedStyle(e).backgroundImage };
    })""")
    for b in backs:
        assert "back" in b["classes"] and b["card"] is None and not b["svg"], b
        assert b["label"] == "a face-down card"
        assert "gradient" in b["image"], b  # the patterned back
    assert [b["text"] for b in backs] == ["", "", "", "3"]


CORNERS = """() => [...document.querySelectorAll('#hand .card')].map((card) => {
  const svg = card.querySelector('svg.face');
  const index = svg.querySelector('text');
  const scale = svg.getScreenCTM().a;  // CSS px per unit of the face's drawing
  const fontPx = parseFloat(index.getAttribute('font-size')) * scale;
  const c = card.getBoundingClientRect(), i = index.getBoundingClientRect();
  return { card: card.dataset.card, fontPx, cardH: c.height,
           inCorner: i.left >= c.left - 1 && i.top >= c.top - 1
             && i.right <= c.left + c.width * 0.62 && i.bottom <= c.top + c.height * 0.45 };
})"""


def test_the_corner_index_of_a_card_in_a_hand_reads_on_a_phone(cards_page: CardsPage) -> None:
    page = cards_page.open()
    page.evaluate(DRAW_HAND, HAND)
    corners = page.evaluate(CORNERS)
    assert len(corners) == 13
    for c in corners:
        # a bold sans-serif's capitals and figures stand about 0.7 of its size: at least 10
        # CSS px on a phone
        assert c["fontPx"] * 0.7 >= 10, c
        assert c["inCorner"], c


def test_the_four_colour_deck_is_a_setting_that_holds_and_needs_no_redraw(
        cards_page: CardsPage) -> None:
    page = cards_page.open()
    page.evaluate(DRAW_HAND, HAND)
    page.evaluate("() => document.getElementById('root').prepend(window.cards.fourColourToggle())")
    fills = """() => Object.fromEntries(['AS', 'QH', 'AD', 'KC'].map((c) => [c,
      getComputedStyle(document.querySelector(`#hand [data-card="${c}"] .pip`)).fill]))"""

    def rgb(text: str) -> tuple[int, int, int]:
        r, g, b = (int(x) for x in re.findall(r"\d+", text)[:3])
        return r, g, b

    two = {c: rgb(f) for c, f in page.evaluate(fills).items()}
    assert two["AD"] == two["QH"] and two["KC"] == two["AS"], two
    assert two["AD"][0] > 150 > two["AD"][2], two  # red diamonds
    page.evaluate("() => { document.querySelector('#hand [data-card=\"AD\"]').id = 'same'; }")
    page.check("#four-colour")
    four = {c: rgb(f) for c, f in page.evaluate(fills).items()}
    assert four["AS"] == two["AS"] and four["QH"] == two["QH"], four
    r, g, b = four["AD"]
    assert b > 150 and b > r + 60 and b > g + 40, four  # blue diamonds
    r, g, b = four["KC"]
    assert g > 100 and g > r + 60 and g > b + 40, four  # green clubs
    # no redraw: the very same element
    assert page.evaluate("() => document.querySelector('#hand [data-card=\"AD\"]').id") == "same"
    # kept: a page opened later (any page importing cards.js) draws four colours
    page.reload()
    page.wait_for_function(READY)
    assert page.evaluate("() => document.documentElement.classList.contains('four-colour')")
    page.evaluate("() => document.getElementById('root').prepend(window.cards.fourColourToggle())")
    assert page.is_checked("#four-colour")
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('tricktable.settings'))")
    assert stored["fourColour"] is True, stored
    page.uncheck("#four-colour")
    assert not page.evaluate("() => document.documentElement.classList.contains('four-colour')")


def test_cards_do_not_move_for_who_asks_for_no_motion(browser: Any, base: str) -> None:
    durations = {}
    for motion in ("no-preference", "reduce"):
        p = CardsPage(browser, base, viewport=PHONE, reduced_motion=motion)
        page = p.open()
        page.evaluate(DRAW_HAND, HAND)
        durations[motion] = page.evaluate("() => getComputedStyle("
                                          "document.querySelector('#hand button.card'))"
                                          ".transitionDuration")
        p.close()
    assert durations["no-preference"] != "0s", durations
    assert set(durations["reduce"].split(", ")) == {"0s"}, durations


SHOW = """(hand) => {
  const c = window.cards;
  const root = document.getElementById('root');
  const title = (text) => Object.assign(document.createElement('h2'), { textContent: text });
  const row = (cls, items) => {
    const r = document.createElement('div');
    r.className = cls;
    r.append(...items);
    return r;
  };
  root.append(title('your hand'));
  const box = document.createElement('div');
  box.id = 'hand'; box.className = 'hand';
  let last = null;
  for (const card of c.arrange(hand, null)) {
    const face = c.cardElement(card, { button: true });
    if (last !== null && c.suitOf(card) !== last) face.classList.add('suit-break');
    last = c.suitOf(card);
    face.classList.add('legal');
    box.append(face);
  }
  root.append(box);
  const stack = c.backElement();
  stack.classList.add('stack');
  stack.textContent = '12';
  root.append(title('the dummy, the jokers, face-down cards'));
  const dummy = row('seat-cards',
    c.arrange(['AH', 'TH', '4H', 'KS', 'JS', '9C', '6C', '2C', 'QD', '8D'], null)
      .map((x) => c.cardElement(x)));
  root.append(dummy);
  root.append(row('row', [c.cardElement('BJ'), c.cardElement('LJ'), c.cardElement('?'), stack,
    c.backElement('1'), c.backElement('2')]));
}"""


def test_screenshots_of_a_hand_and_of_the_four_colour_deck(browser: Any, base: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, size in (("390x844", PHONE), ("1366x768", LAPTOP)):
        p = CardsPage(browser, base, viewport=size, device_scale_factor=2)
        page = p.open()
        page.evaluate(SHOW, HAND)
        # every card of the hand is whole on screen and no two lie on each other
        boxes = page.evaluate("""() => [...document.querySelectorAll('#hand .card')]
          .map((e) => { const b = e.getBoundingClientRect();
                        return [b.left, b.top, b.right, b.bottom]; })""")
        assert len(boxes) == 13
        for i, (left, top, right, bottom) in enumerate(boxes):
            assert left >= 0 and top >= 0 and right <= size["width"], boxes
            for other in boxes[i + 1:]:
                apart = (right <= other[0] or other[2] <= left
                         or bottom <= other[1] or other[3] <= top)
                assert apart, (boxes[i], other)
        page.screenshot(path=str(SCREENSHOTS / f"cards-hand-{name}.png"))
        page.evaluate("() => document.getElementById('root').replaceChildren()")
        page.evaluate("""(deck) => {
          const root = document.getElementById('root');
          root.prepend(window.cards.fourColourToggle());
          const box = document.createElement('div');
          box.className = 'deck';
          for (const c of deck) box.append(window.cards.cardElement(c));
          root.append(box);
        }""", DECK)
        page.check("#four-colour")
        page.screenshot(path=str(SCREENSHOTS / f"cards-four-colour-{name}.png"))
        p.close()
