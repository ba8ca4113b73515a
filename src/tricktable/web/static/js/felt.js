// The table top: every seat in its place round the table (the viewer at the bottom), its
// cards as far as the viewer may see them, the trick in the middle. Used by the live table
// and the replay viewer alike; it draws what the observation holds and nothing else.

import { arrange, backElement, cardElement, suitOf } from "./cards.js";

// How a hand is laid out where no words of the game say it (the replay viewer): trumps
// first where the hand's facts name them (a game whose trumps are chosen has "trump",
// null in no trump), spades otherwise; low cards first where they win.
export function trumpOf(info) {
  return "trump" in info ? info.trump || null : "S";
}

export function lowHand(info) {
  return info.direction === "low";
}

// Where each seat sits: angles round an ellipse, the viewer at the bottom.
export function placements(around, viewer) {
  const n = around.length;
  const start = viewer === null || viewer === undefined || !around.includes(viewer) ? 0 : around.indexOf(viewer);
  const out = new Map();
  for (let i = 0; i < n; i++) {
    const seat = around[(start + i) % n];
    const angle = Math.PI / 2 + (2 * Math.PI * i) / n; // 90° is the bottom (y grows down)
    out.set(seat, { x: 50 + 42 * Math.cos(angle), y: 50 + 38 * Math.sin(angle), angle });
  }
  return out;
}

function el(tag, cls, ...children) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.append(...children);
  return e;
}

// opts: {info, obs, around, viewer, seatsMeta (array of {seat, kind, name, ...}),
//        seatLabel(seat), bidText(seat), toAct, trump and low (how hands are laid out: the
//        trump suit's letter or null, low cards first; from the hand's facts if not given),
//        turnWord(seat) (the badge of the seat to act:
//        "to play" unless given), clickable: Map seat -> {plays: Map card->texts,
//        positions: {available, selected:Set, onToggle}, selectable:Set, selected:Set,
//        onSelect(card)}, onPlay(texts, card), showLastTrick, allOpen, centerText,
//        completedTrick (a trick of obs.tricks, shown whole in the middle instead of the trick
//        in progress), gathering (that trick travels to its winner), arriving (a Set of the
//        trick's cards played since the last drawing: they travel from their seat)}
export function drawFelt(container, opts) {
  const { obs, info } = opts;
  container.replaceChildren();
  const felt = el("div", "felt");
  container.append(felt);
  const places = placements(opts.around, opts.viewer);
  const trump = opts.trump !== undefined ? opts.trump : trumpOf(info);
  const low = opts.low !== undefined ? opts.low : lowHand(info);
  const dummy = typeof info.dummy === "number" ? info.dummy : null;

  for (const [seat, place] of places) {
    const meta = opts.seatsMeta[seat] || { seat, kind: "person" };
    const panel = el("section", "seat");
    panel.dataset.seat = String(seat);
    // seats near an edge hang from it, so no panel is cut off on a narrow screen
    let tx = "-50%", ty = "-50%";
    if (place.x < 25) { panel.style.left = "0.3rem"; tx = "0"; }
    else if (place.x > 75) { panel.style.right = "0.3rem"; tx = "0"; }
    else panel.style.left = `${place.x}%`;
    if (place.y < 20) { panel.style.top = "0.3rem"; ty = "0"; }
    else if (place.y > 80) { panel.style.bottom = "0.3rem"; ty = "0"; }
    else panel.style.top = `${place.y}%`;
    panel.style.transform = `translate(${tx}, ${ty})`;
    if (seat === opts.viewer) panel.classList.add("me");
    if (seat === opts.toAct) panel.classList.add("to-act");
    if (meta.kind === "dummy") panel.classList.add("dummy");
    const title = el("h3", "seat-name", opts.seatLabel(seat));
    title.title = opts.seatLabel(seat); // the whole name, where the panel cuts it short
    const badges = el("div", "badges");
    const badge = (text, cls) => badges.append(el("span", `badge ${cls}`, text));
    if (seat === opts.toAct) badge(opts.turnWord ? opts.turnWord(seat) : "to play", "turn");
    if (meta.stand_in) badge("bot stands in", "bot");
    if (meta.away) badge("away", "away");
    if (meta.open) badge("seat open", "away");
    if (meta.kind === "dummy") badge("dummy", "dummy");
    if (opts.sittingOut === seat) badge("sits out", "away");
    const stats = el("div", "stats");
    const bid = opts.bidText(seat);
    stats.textContent = `${bid ? bid + " · " : ""}won ${obs.won[seat] ?? 0}`;
    panel.append(title, badges, stats);

    // the cards of this seat the viewer may see, then the rest face down
    if (seat !== opts.viewer || opts.allOpen) {
      const dummyClick = opts.clickable ? opts.clickable.get(seat) : null;
      const byPosition = seat === dummy && dealtOrder(info, obs.hand_sizes[seat] ?? 0, dummyClick);
      const cards = byPosition
        ? dummyByPosition(obs, info, seat, dummyClick, opts)
        : holdingBySuit(obs, info, seat, dummyClick, opts, trump, low);
      panel.append(cards);
    }
    felt.append(panel);
  }

  // the trick in the middle, each card pushed toward its player
  const middle = el("div", "trick");
  const lastTrick = opts.showLastTrick && obs.tricks.length ? obs.tricks[obs.tricks.length - 1] : null;
  const whole = lastTrick || opts.completedTrick || null;
  const pairs = whole ? whole.seats.map((s, i) => [s, whole.cards[i]]) : obs.trick;
  middle.dataset.shows = lastTrick ? "last" : whole ? "completed" : "current";
  middle.dataset.tricksDone = String(obs.tricks.length);
  const spot = (place) => ({ x: 50 + 11 * Math.cos(place.angle), y: 50 + 17 * Math.sin(place.angle) });
  // where a card comes from and goes to: its seat (the viewer's own card from the hand below)
  const seatSpot = (seat) => {
    const place = places.get(seat);
    if (!place) return { x: 50, y: 50 };
    return seat === opts.viewer ? { x: place.x, y: 104 } : { x: place.x, y: place.y };
  };
  const winnerSpot = whole ? seatSpot(whole.winner) : null;
  for (const [seat, card] of pairs) {
    const place = places.get(seat);
    const face = cardElement(card);
    face.classList.add("in-trick");
    if (place) {
      const at = spot(place);
      face.style.left = `${at.x}%`;
      face.style.top = `${at.y}%`;
    }
    face.dataset.seat = String(seat);
    face.title = `${opts.seatLabel(seat)} played this`;
    if (whole && seat === whole.winner) {
      face.classList.add("winner");
      face.title += ", and won the trick";
    }
    if (!whole && opts.arriving && opts.arriving.has(card)) {
      const from = seatSpot(seat);
      face.classList.add("arriving");
      face.style.setProperty("--from-x", `${from.x}%`);
      face.style.setProperty("--from-y", `${from.y}%`);
    }
    if (whole && opts.gathering && !lastTrick) {
      face.classList.add("gathering");
      face.style.setProperty("--to-x", `${winnerSpot.x}%`);
      face.style.setProperty("--to-y", `${winnerSpot.y}%`);
    }
    middle.append(face);
  }
  if (whole) {
    middle.dataset.winner = String(whole.winner);
    const caption = el("div", "trick-caption trick-won",
      `${lastTrick ? "last trick: " : ""}won by ${opts.seatLabel(whole.winner)}`);
    middle.append(caption);
  }
  if (!pairs.length && obs.led_suit < 0 && opts.centerText) middle.append(el("div", "trick-caption", opts.centerText));
  if (opts.extraCard) {
    // 3B's extra card: face down in the middle until the high bidder draws it
    const extra = el("div", "extra-card", backElement(), el("span", "", opts.extraCard));
    extra.title = opts.extraCard;
    middle.append(extra);
  }
  felt.append(middle);
  return felt;
}

// True while a dummy lies face down in the order dealt with positions (0 to 12) that
// matter: some are being picked, or were peeked at or turned up, until the dummy is shown.
function dealtOrder(info, size, click) {
  if (info.dummy_shown !== false || size === 0) return false;
  const chosen = (picks) => Object.keys(picks || {}).length > 0;
  return Boolean(click && click.positions) || chosen(info.peeks) || chosen(info.flips);
}

// A card of another seat's holding, as a button where the viewer may play or pick it.
function holdingCard(c, click, opts) {
  const playText = click && click.plays.get(c);
  const pickable = click && click.selectable && click.selectable.has(c);
  const face = cardElement(c, { button: Boolean(playText || pickable) });
  if (pickable) {
    face.classList.add("legal");
    if (click.selected.has(c)) face.classList.add("selected");
    face.addEventListener("click", () => click.onSelect(c));
  } else if (playText) {
    face.classList.add("legal");
    face.addEventListener("click", () => opts.onPlay(playText, c));
  }
  return face;
}

// Who chose each dummy position, and how: {position: [seats]} for the peeks and the flips.
function choosersOf(picks) {
  const out = new Map();
  for (const [seat, positions] of Object.entries(picks || {})) {
    for (const p of positions) {
      if (!out.has(Number(p))) out.set(Number(p), []);
      out.get(Number(p)).push(Number(seat));
    }
  }
  return out;
}

const names = (seats, label) => seats.map(label).join(" and ");

// A holding laid out as a player lays out a dummy: one group per suit (trumps first), each
// a short fan whose every card shows its corner; the groups wrap as wholes on a narrow
// screen. The cards this viewer may not see follow as one face-down stack.
function holdingBySuit(obs, info, seat, click, opts, trump, low) {
  const visible = arrange(obs.visible[seat] || [], trump, low);
  const size = obs.hand_sizes[seat] ?? 0;
  const box = el("div", "seat-cards by-suit");
  // after the dummy is turned up its cards lie by suit: a card peeked at or flipped before
  // the bidding keeps its mark, and its title says what it was
  const peekedCards = new Set(Object.values(info.peeked || {}));
  const flippedCards = new Set(Object.values(info.flipped || {}));
  const dummySeat = typeof info.dummy === "number" ? info.dummy : null;
  let group = null;
  let groupSuit;
  for (const c of visible) {
    const suit = suitOf(c) || "joker";
    if (group === null || suit !== groupSuit) {
      group = el("span", "suit-group");
      group.dataset.suit = suit;
      groupSuit = suit;
      box.append(group);
    }
    const face = holdingCard(c, click, opts);
    if (seat === dummySeat && flippedCards.has(c)) {
      face.classList.add("flipped");
      face.title = "turned face up for everyone before the bidding";
    } else if (seat === dummySeat && peekedCards.has(c)) {
      face.classList.add("peeked");
      face.title = info.dummy_shown ? "you peeked at this card before the bidding"
        : "you peeked at this card: only you see it";
    }
    group.append(face);
  }
  const hidden = size - visible.length;
  if (hidden > 0) {
    const back = backElement();
    back.classList.add("stack");
    back.textContent = `${hidden}`;
    back.title = `${hidden} card${hidden === 1 ? "" : "s"} you cannot see`;
    box.append(back);
  }
  return box;
}

// The face-down dummy in the order dealt: each position face up where the viewer may see
// it (a card it peeked at, a card turned up for everyone), a back with its number
// otherwise, marked with who peeked at it; a button where the viewer picks positions now.
function dummyByPosition(obs, info, seat, click, opts) {
  const size = obs.hand_sizes[seat] ?? 0;
  const box = el("div", "seat-cards positions");
  const peekedBy = choosersOf(info.peeks);
  const flippedBy = choosersOf(info.flips);
  const mine = info.peeked || {};
  const flipped = info.flipped || {};
  const pick = click && click.positions ? click.positions : null;
  const available = new Set(pick ? pick.available : []);
  for (let p = 0; p < size; p++) {
    const others = (peekedBy.get(p) || []).filter((s) => s !== opts.viewer);
    const card = flipped[p] || mine[p] || null;
    let slot;
    if (card) {
      slot = cardElement(card);
      if (flipped[p]) {
        slot.classList.add("flipped");
        slot.title = `position ${p}: turned face up for everyone by ${names(flippedBy.get(p) || [], opts.seatLabel)}`;
      } else {
        slot.classList.add("peeked");
        slot.title = `position ${p}: you peeked at this card; only you see it`;
      }
    } else if (available.has(p)) {
      slot = el("button", "card back pick", String(p));
      slot.type = "button";
      slot.setAttribute("aria-label", `dummy card at position ${p}`);
      if (pick.selected.has(p)) slot.classList.add("selected");
      slot.addEventListener("click", () => pick.onToggle(p));
    } else {
      slot = backElement(String(p));
    }
    slot.dataset.position = String(p);
    if (others.length) {
      // the positions others peeked at are public; their cards are not
      slot.classList.add("peeked-by-other");
      slot.dataset.peekedBy = others.join(" ");
      const who = `${names(others, opts.seatLabel)} peeked at this card`;
      slot.title = slot.title ? `${slot.title}; ${who}` : `position ${p}: ${who}`;
    } else if (!slot.title) {
      slot.title = `position ${p}: face down`;
    }
    box.append(slot);
  }
  // what the marks mean, for whoever has not hovered over a card
  const marks = [];
  if (Object.keys(mine).length) marks.push("dashed: you peeked");
  if (box.querySelector(".peeked-by-other")) marks.push("ringed: another player peeked");
  if (Object.keys(flipped).length) marks.push("face up: turned up for everyone");
  if (marks.length) box.append(el("p", "positions-note", marks.join(" · ")));
  return box;
}
