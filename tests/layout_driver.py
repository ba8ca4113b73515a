"""Bringing a table page to every phase a person meets, and measuring its layout there: for
tests/test_layout.py (the layout contract) and scripts/screenshots.py (docs/images/).

A table is made over the API with seat 0 a person (the browser, under a long name) and
bots at pace 0 elsewhere, with a fixed seed, so each game runs the same way every time.
The browser plays by clicks (tests/browser.py's ``take_one_step``) and waits for the page
to change, never for a moment. At each phase not seen before, ``on_phase`` is called:
the layout is measured there at every size (``layout_problems``), or a picture taken.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from browser import take_one_step

SIZES: list[tuple[int, int]] = [(1366, 768), (1280, 800), (390, 844), (844, 390)]
"""Laptop, laptop, phone upright, phone on its side."""

DRIVING_SIZE = (1366, 768)

LONG_NAME = "Bartholomew-Alexandra Montgomery-Smythe!"
"""40 characters, the most a name may have, and no break but one space and two hyphens."""
EMOJI_NAME = "🂡🂱🃁🃑🃏" * 8
"""40 graphemes, each about as wide as a capital letter and a half."""


@dataclass(frozen=True)
class LayoutGame:
    """A game as the layout contract plays it: short options, a seed that keeps it short,
    and the person's name."""

    game: str
    options: dict[str, Any]
    name: str = LONG_NAME
    seed: str = "layout-1"
    phases_expected: tuple[str, ...] = ()
    """Words some phase seen must hold (e.g. "look at": the peek), to prove the drive got
    there."""

    @property
    def id(self) -> str:
        return self.game


GAMES: list[LayoutGame] = [
    LayoutGame("spades", {"target": 100}, seed="layout-3",
               phases_expected=("Bid the tricks", "play", "score sheet")),
    LayoutGame("3b-spades", {"players": 4, "hands": 1}, name=EMOJI_NAME, seed="layout-5",
               phases_expected=("Bid the tricks", "extra card", "play", "score sheet")),
    LayoutGame("dummy-whist", {"target": 3, "jokers": True}, seed="layout-4",
               phases_expected=("Bid books", "With jokers", "no trump", "uptown",
                                "play from the dummy")),
    LayoutGame("paperless-spades", {"limit": 1}, seed="layout-2",
               phases_expected=("Pass three cards", "Bid the tricks", "play")),
    LayoutGame("dummy-hand-spades", {"target": 100, "peek": "three-peeky"}, seed="layout-10",
               phases_expected=("look at", "team's bid", "play from the dummy")),
]


def create_table(base: str, game: LayoutGame) -> str:
    """A table of ``game`` with seat 0 for a person and bots that move at once; the
    person's invite link."""
    # no seats named: seat 0 is a person, the others rules bots
    body = {"game": game.game, "options": game.options, "bot_pace": 0, "seed": game.seed}
    request = urllib.request.Request(
        base + "/api/tables", data=json.dumps(body).encode(), method="POST",
        headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        made = json.loads(r.read().decode())
    return str(made["invites"]["0"]["url"])


def name_the_browser(context: Any, name: str) -> None:
    """The name the table page sends with its first hello, as if typed at an earlier
    visit (the name form's maxlength counts UTF-16 units, not graphemes)."""
    context.add_init_script(
        f"try {{ localStorage.setItem('tricktable.name', {json.dumps(json.dumps(name))}); }}"
        " catch (e) {}")


PHASE = r"""() => {
  const shown = (sel) => {
    const e = document.querySelector(sel);
    return Boolean(e && !e.hidden && e.getClientRects().length);
  };
  if (document.body.dataset.status !== 'playing' && document.body.dataset.status !== 'over')
    return null;
  if (shown('#sheet-panel')) return shown('#end') ? 'score sheet at the end' : 'score sheet';
  if (shown('#end')) return 'game over';
  const status = document.querySelector('#status').textContent;
  const extra = document.querySelector('.extra-card');
  if (!status.startsWith('Your turn')) {
    // not this person's decision: worth a look only with cards or a caption in the middle
    const trick = document.querySelectorAll('.trick .card.in-trick').length;
    const seats = document.querySelectorAll('.felt .seat').length;
    if (trick >= seats - 1 && trick > 0) return `waiting, ${trick} cards on the trick`;
    return extra ? 'waiting, the extra card shown' : null;
  }
  const rule = document.querySelector('#controls .control:not(.optional) .rule');
  if (rule) return 'decide: ' + rule.textContent.split(/[.:(;]/)[0];
  const trick = document.querySelectorAll('.trick .card.in-trick').length;
  const from = status.includes('play from') ? 'play from the dummy' : 'play';
  return `${from}, ${trick} card${trick === 1 ? '' : 's'} on the trick`;
}"""
"""What the page asks of its person now, in a few words (None: nothing worth a look)."""

LAYOUT = r"""() => {
  window.scrollTo(0, 0);
  const W = window.innerWidth, H = window.innerHeight;
  const out = [];
  const box = (e) => e.getBoundingClientRect();
  const shown = (e) => {
    if (!e || e.closest('[hidden]')) return false;
    const b = box(e);
    return b.width > 0 && b.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  };
  const all = (sel, root = document) => [...root.querySelectorAll(sel)].filter(shown);
  const name = (e) => {
    let s = e.id ? '#' + e.id
      : e.tagName.toLowerCase() + [...e.classList].map((c) => '.' + c).join('');
    if (e.dataset.card) s += `[${e.dataset.card}]`;
    const seat = e.closest('.seat');
    if (seat && seat !== e) s = `seat ${seat.dataset.seat} ` + s;
    else if (seat) s += `(${seat.dataset.seat})`;
    const text = (e.textContent || '').trim().replace(/\s+/g, ' ');
    return text ? `${s} "${text.slice(0, 24)}"` : s;
  };
  const at = (b) => [b.left, b.top, b.right, b.bottom].map(Math.round).join(',');
  const inView = (b) => b.left >= -0.5 && b.top >= -0.5 && b.right <= W + 0.5
    && b.bottom <= H + 0.5;
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const pairsOf = (list) => list.flatMap((a, i) => list.slice(i + 1).map((b) => [a, b]));
  const overlay = all('#sheet-panel, #name-form')[0] || null;
  const mustSee = (e, why) => {
    // the auction's grid may scroll in its own box on a short window: a bid in it is in
    // reach when that box is in view
    const grid = e.closest('.bid-grid');
    const b = box(grid || e);
    if (!inView(b)) {
      out.push(`${why} ${name(grid || e)} is at ${at(b)}, outside the ${W}x${H} window`);
      return;
    }
    if (grid) return;
    // nor cut off by a box round it that clips or scrolls (the controls' box, the felt)
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const c = box(p);
      if (b.top < c.top - 0.5 || b.bottom > c.bottom + 0.5 || b.left < c.left - 0.5
          || b.right > c.right + 0.5) {
        out.push(`${why} ${name(e)} at ${at(b)} is cut off by ${name(p)} at ${at(c)}`);
        return;
      }
    }
    if (overlay && !overlay.contains(e)) return; // under the score sheet, by design
    const x = Math.min(Math.max((b.left + b.right) / 2, 0), W - 1);
    const y = Math.min(Math.max((b.top + b.bottom) / 2, 0), H - 1);
    const top = document.elementFromPoint(x, y);
    if (top && top !== e && !e.contains(top)) {
      out.push(`${why} ${name(e)} is covered by ${name(top)}`);
    }
  };
  const doc = document.documentElement;
  if (doc.scrollWidth > W + 1) out.push(`the page is ${doc.scrollWidth} px wide in ${W}`);
  if (doc.scrollHeight > H + 1) out.push(`the page is ${doc.scrollHeight} px tall in ${H}`);

  // the hand, the hand played from, and the decision: all on screen without scrolling
  for (const c of all('#hand .card')) mustSee(c, "the hand's card");
  for (const seat of all('.felt .seat')) {
    if (seat.querySelector('button.card.legal, button.pick')) {
      for (const c of all('.card', seat)) mustSee(c, "the played-from hand's card");
    }
  }
  const status = document.querySelector('#status');
  if (shown(status) && !overlay) mustSee(status, 'the turn line');
  const controls = '#controls .control:not(.optional) :is(button, input, select), '
    + '#chooser button, #end a, #end button, #close-sheet';
  for (const e of all(controls)) mustSee(e, 'the control');
  // a choice out of turn (a rebid, a renege call) may be scrolled to in the controls' box
  for (const e of all('#controls .control.optional')) {
    if (box(e).top >= H) out.push(`${name(e)} starts below the window`);
  }
  // each group of choices holds all of itself (only the auction's grid scrolls, inside)
  for (const c of all('#controls .control')) {
    if (c.scrollHeight > c.clientHeight + 1) {
      out.push(`${name(c)} is ${c.scrollHeight} px tall inside its ${c.clientHeight} px box`);
    }
  }
  const panels = all('.felt .seat');
  for (const p of panels) {
    if (!inView(box(p))) out.push(`${name(p)} is at ${at(box(p))}, outside the window`);
  }
  // a holding seen face up (a dummy, an exposed hand): every card's corner, its rank and
  // suit, in sight; the cards may lie over each other only to the right of it
  for (const c of all('.felt .seat-cards .card[data-card]')) {
    const b = box(c);
    if (!inView(b)) {
      out.push(`${name(c)} is at ${at(b)}, outside the ${W}x${H} window`);
      continue;
    }
    if (overlay) continue;
    for (const [fx, fy] of [[0.12, 0.12], [0.45, 0.2], [0.2, 0.45]]) {
      const top = document.elementFromPoint(b.left + fx * b.width, b.top + fy * b.height);
      if (top && top !== c && !c.contains(top)) {
        out.push(`the corner of ${name(c)} is covered by ${name(top)}`);
        break;
      }
    }
  }

  // nothing on the felt lies on anything else, nor a card of the hand on another, nor one
  // group of choices on another
  const captions = all('.trick-caption, .extra-card');
  const played = all('.trick .card.in-trick');
  const pairs = [...pairsOf(panels), ...pairsOf(played), ...pairsOf(all('#hand .card')),
    ...pairsOf(all('#controls .control'))];
  for (const c of [...captions, ...played]) for (const p of panels) pairs.push([c, p]);
  for (const c of captions) for (const p of played) if (!c.contains(p)) pairs.push([c, p]);
  for (const [a, b] of pairs) {
    if (overlap(box(a), box(b))) {
      out.push(`${name(a)} at ${at(box(a))} overlaps ${name(b)} at ${at(box(b))}`);
    }
  }

  // the end of the game over the felt covers a seat whole or not at all: no sliver of a
  // seat's panel beside it
  const end = document.querySelector('#end');
  if (shown(end)) {
    const e = box(end);
    for (const p of panels) {
      const b = box(p);
      const under = b.left >= e.left - 0.5 && b.right <= e.right + 0.5
        && b.top >= e.top - 0.5 && b.bottom <= e.bottom + 0.5;
      if (overlap(b, e) && !under) {
        out.push(`${name(p)} at ${at(b)} shows beside the end of the game at ${at(e)}`);
      }
    }
  }

  // names fit their panels, or end in an ellipsis (after a line, or after a few lines) with
  // the whole name a tap or hover away
  const fits = (e) => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1;
  const ellipsis = (e) => {
    const s = getComputedStyle(e);
    const oneLine = s.textOverflow === 'ellipsis' && s.whiteSpace === 'nowrap';
    const clamped = s.webkitLineClamp !== 'none' && s.webkitLineClamp !== '';
    return s.overflowX === 'hidden' && (oneLine || clamped);
  };
  for (const e of all('.seat-name, .seat .stats, #role, #title, #facts')) {
    if (fits(e)) continue;
    if (!ellipsis(e)) {
      out.push(`${name(e)} spills out (${e.scrollWidth} px of text in ${e.clientWidth})`);
    } else if (e.classList.contains('seat-name') && e.title !== e.textContent) {
      out.push(`${name(e)} is cut short with no title holding it whole`);
    }
  }
  for (const p of panels) {
    if (p.scrollWidth > p.clientWidth + 1) out.push(`${name(p)} is wider inside than out`);
  }
  const title = document.querySelector('#title');
  const line = title ? parseFloat(getComputedStyle(title).lineHeight) || 20 : 0;
  if (title && box(title).height > 1.5 * line) {
    out.push(`the title takes ${Math.round(box(title).height)} px: more than a line`);
  }
  return out;
}"""
"""Every way the page breaks the layout contract at its present size, in words."""

LAST_TRICK = "the last trick, held up"

TRICK_WON = r"""() => [...document.querySelectorAll('.felt .seat .stats')]
  .some((e) => /won [1-9]/.test(e.textContent))"""
"""A trick of this hand has been won: "Last trick" has one to show."""

SIGNATURE = r"""() => [document.body.dataset.seq, document.querySelector('#sheet-panel').hidden,
  document.querySelector('#end').hidden, document.querySelector('#chooser').hidden,
  document.querySelector('#controls').innerHTML, document.querySelector('#hand').innerHTML,
  document.querySelector('#felt').innerHTML].join('|')"""
"""All a step by the person or a new view can change."""


def layout_problems(page: Any) -> list[str]:
    """What breaks the layout contract on the page as it is now (nothing: all is well)."""
    return [str(problem) for problem in page.evaluate(LAYOUT)]


def phase_of(page: Any) -> str | None:
    """What the page asks of its person now, in a few words."""
    phase = page.evaluate(PHASE)
    return None if phase is None else str(phase)


@dataclass
class Drive:
    """One game played through by the browser at seat 0, with each new phase handed to
    ``on_phase`` (the page is left at DRIVING_SIZE afterwards)."""

    page: Any
    on_phase: Callable[[Any, str], None]
    seen: list[str] = field(default_factory=list)
    steps: int = 0

    def run(self, url: str | None, timeout_ms: int = 30000, max_steps: int = 400) -> None:
        """Plays the table at ``url`` (None: the table the page shows already, from where
        it is) to the end of the game."""
        page = self.page
        page.set_viewport_size({"width": DRIVING_SIZE[0], "height": DRIVING_SIZE[1]})
        if url is not None:
            page.goto(url)
        page.wait_for_function(
            "document.body !== null && ['playing', 'over'].includes(document.body.dataset.status)",
            timeout=timeout_ms)
        while self.steps < max_steps:
            # what the page shows is read after the signature, so that any change after
            # the reading ends the wait below at once
            before = page.evaluate(SIGNATURE)
            phase = phase_of(page)
            if phase is not None and phase not in self.seen:
                self.seen.append(phase)
                self.on_phase(page, phase)
                page.set_viewport_size({"width": DRIVING_SIZE[0], "height": DRIVING_SIZE[1]})
                continue
            if phase == "game over":
                return
            if phase is not None and phase.startswith("play") and self.hold_up_last_trick():
                continue
            if phase is not None and phase.startswith("score sheet"):
                page.click("#close-sheet")
                continue
            if page.evaluate("document.body.dataset.pause === 'trick'"):
                # a completed trick on show: seen once, then skipped as a person may
                page.keyboard.press("Escape")
            elif phase is not None and not phase.startswith("waiting") and self.step():
                # only a decision seen above is taken: one that came after the reading
                # is seen first, at the next round
                self.steps += 1
            # whatever was done (a card sent, or picked to pass), the page moves on: a new
            # view, a card marked, the sheet or the end shown
            page.wait_for_function(f"before => ({SIGNATURE})() !== before", arg=before,
                                   timeout=timeout_ms)
        raise AssertionError(f"the game did not end in {max_steps} steps; seen {self.seen}")

    def hold_up_last_trick(self) -> bool:
        """Once a trick has been won in the hand, "Last trick" held down (as long as it is
        held, so no moment matters), the page handed to ``on_phase``, and let go."""
        page = self.page
        if LAST_TRICK in self.seen or not page.evaluate(TRICK_WON):
            return False
        self.seen.append(LAST_TRICK)
        press = "type => document.querySelector('#last-trick').dispatchEvent(" \
                "new PointerEvent(type, {button: 0, bubbles: true}))"
        page.evaluate(press, "pointerdown")
        page.wait_for_selector(".trick[data-shows='last'] .trick-caption")
        self.on_phase(page, LAST_TRICK)
        page.set_viewport_size({"width": DRIVING_SIZE[0], "height": DRIVING_SIZE[1]})
        page.evaluate(press, "pointerup")
        # let go early, it stays a moment more; the trick in progress comes back by itself
        page.wait_for_selector(".trick:not([data-shows='last'])")
        return True

    def step(self) -> str | None:
        """One click of the person's. In an auction the lowest bid (tests/browser.py's
        person passes there), so that the person wins some and declares: names trumps,
        puts cards out of play, plays from the dummy."""
        page = self.page
        lowest = page.locator("#controls .bid-grid button")
        if page.locator("#status").inner_text().startswith("Your turn") and lowest.count():
            from playwright.sync_api import Error as PlaywrightError

            try:
                label = str(lowest.first.inner_text())
                lowest.first.click(timeout=3000)
            except PlaywrightError:
                return None  # a new view came between the look and the click
            return label
        return take_one_step(page)


def at_each_size(page: Any, check: Callable[[tuple[int, int]], None]) -> None:
    """``check`` with the window at each of SIZES in turn (one page, resized)."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        check((width, height))
