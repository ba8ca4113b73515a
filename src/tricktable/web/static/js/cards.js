// Cards as the server writes them ("QS", "TD", "BJ", "LJ"), how a player arranges them, and
// how they are drawn: each face is an inline SVG made here (nothing fetched), coloured through
// CSS custom properties (css/cards.css) so the four-colour deck needs no redraw.

import { saveSettings, settings } from "./storage.js";

export const SUITS = ["S", "H", "D", "C"];
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANKS = "23456789TJQKA";
const JOKER_NAME = { BJ: "big joker", LJ: "little joker" };

export function isJoker(card) {
  return card === "BJ" || card === "LJ";
}

export function suitOf(card) {
  return isJoker(card) ? null : card[1];
}

export function rankOf(card) {
  return isJoker(card) ? null : card[0];
}

export function cardName(card) {
  if (isJoker(card)) return JOKER_NAME[card];
  const rank = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" }[card[0]] || card[0];
  return `${rank} of ${SUIT_NAME[card[1]]}`;
}

export function shortLabel(card) {
  if (card === "BJ") return "★";
  if (card === "LJ") return "☆";
  return (card[0] === "T" ? "10" : card[0]) + SUIT_SYMBOL[card[1]];
}

// The suits in the order a player lays them out: trumps first, then colours alternating
// so that two red or two black suits never sit side by side.
export function suitOrder(trump) {
  if (!trump) return ["S", "H", "C", "D"];
  const red = (s) => s === "H" || s === "D";
  const rest = SUITS.filter((s) => s !== trump);
  const other = rest.filter((s) => red(s) !== red(trump));
  const same = rest.filter((s) => red(s) === red(trump));
  return [trump, other[0], same[0], other[1]];
}

// Jokers first (they are top trumps where the game has them), then by suit, high to low
// (or low to high in a low hand, where the deuce is best).
export function arrange(cards, trump, lowHand = false) {
  const order = suitOrder(trump);
  const key = (c) => {
    if (c === "BJ") return [-2, 0];
    if (c === "LJ") return [-1, 0];
    const r = RANKS.indexOf(c[0]);
    return [order.indexOf(c[1]), lowHand ? r : -r];
  };
  return [...cards].sort((a, b) => {
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

// --- drawing ---------------------------------------------------------------------------------
// A face is drawn in a 100 x 140 box and scaled to the size CSS gives the card; the card's
// white rounded body is the element itself, so the marks other code puts on a card (.legal,
// .selected, .peeked, .flipped) keep working on its border and shadow.

const SVG_NS = "http://www.w3.org/2000/svg";
const FACE_W = 100;
const FACE_H = 140;
// a condensed bold face where the system has one (Android, Apple, Windows with Office, Linux)
const FONT = ["'Roboto Condensed'", "sans-serif-condensed", "'Arial Narrow'", "'Avenir Next Condensed'",
  "'DejaVu Sans Condensed'", "system-ui", "sans-serif"].join(", ");

// The suits' pips in a 100 x 100 box, drawn as paths so no font decides how they look (some
// show ♥ as a coloured emoji). Numbers and commands are always apart: the markup must never
// read like a card's name ("5C").
const PIP = {
  S: "M 50 2 C 56 16 72 28 84 40 C 94 50 98 58 98 66 C 98 80 88 88 76 88 C 66 88 58 84 53 77 " +
     "C 54 87 58 94 68 98 L 32 98 C 42 94 46 87 47 77 C 42 84 34 88 24 88 C 12 88 2 80 2 66 " +
     "C 2 58 6 50 16 40 C 28 28 44 16 50 2 Z",
  H: "M 50 94 C 45 85 35 75 23 63 C 9 49 2 39 2 27 C 2 13 13 3 27 3 C 38 3 46 10 50 20 " +
     "C 54 10 62 3 73 3 C 87 3 98 13 98 27 C 98 39 91 49 77 63 C 65 75 55 85 50 94 Z",
  D: "M 50 2 Q 66 30 88 50 Q 66 70 50 98 Q 34 70 12 50 Q 34 30 50 2 Z",
  // the club: three leaves (circles, below) on this stem and heart
  C: "M 50 50 L 58 60 L 42 60 Z M 47 62 C 46 78 42 90 31 98 L 69 98 C 58 90 54 78 53 62 Z",
};

function svgEl(tag, attrs = {}) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// a suit's pip, its 100 x 100 drawing scaled to `size` with its top-left corner at (x, y)
function pip(suit, x, y, size) {
  const g = svgEl("g", { class: "pip", transform: `translate(${x} ${y}) scale(${size / 100})` });
  g.append(svgEl("path", { d: PIP[suit] }));
  if (suit === "C") {
    for (const [cx, cy] of [[50, 26], [27, 60], [73, 60]]) g.append(svgEl("circle", { cx, cy, r: 23 }));
  }
  return g;
}

function star(cx, cy, outer, inner) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)} ${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return svgEl("path", { class: "star", d: `M ${points.join(" L ")} Z` });
}

function faceSvg() {
  // size and colours as attributes too: right even before cards.css has loaded
  return svgEl("svg", {
    class: "face", viewBox: `0 0 ${FACE_W} ${FACE_H}`, width: "100%", height: "100%",
    "aria-hidden": "true", focusable: "false", "font-family": FONT, fill: "currentColor",
  });
}

// The corner index (what a person reads of a card in a hand: large enough on a phone), a
// small pip under it, and a large pip; an ace's pip large in the middle, a court card's in
// a framed panel under a crown.
function drawSuited(card) {
  const svg = faceSvg();
  const rank = card[0] === "T" ? "10" : card[0];
  const index = svgEl("text", { class: "index", x: 6, y: 41, "font-size": 46, "font-weight": 700 });
  if (rank === "10") {
    // two digits in the width of one and a half
    index.setAttribute("textLength", "50");
    index.setAttribute("lengthAdjust", "spacingAndGlyphs");
    index.setAttribute("x", "3");
  }
  index.textContent = rank;
  svg.append(index, pip(card[1], 8, 48, 28));
  if (rank === "A") {
    svg.append(pip(card[1], 30, 52, 64));
  } else if ("KQJ".includes(rank)) {
    svg.append(svgEl("rect", {
      class: "court-frame", x: 47, y: 8, width: 47, height: 124, rx: 5,
      "fill-opacity": 0.08, stroke: "currentColor", "stroke-width": 2.5,
    }));
    svg.append(crown(rank), pip(card[1], 50, 70, 41));
  } else {
    svg.append(pip(card[1], 38, 66, 58));
  }
  return svg;
}

// A court card's emblem at the top of its frame: a king's crown, a queen's coronet, a jack's
// cap; simple shapes that still read on a small card.
function crown(rank) {
  const shapes = {
    K: "M 55 56 L 55 30 L 63 41 L 70.5 22 L 78 41 L 86 30 L 86 56 Z",
    Q: "M 57 56 L 53 32 L 63 42 L 70.5 28 L 78 42 L 88 32 L 84 56 Z",
    J: "M 55 56 L 55 48 C 55 36 62 30 70.5 30 C 79 30 86 36 86 48 L 86 56 Z",
  };
  const g = svgEl("g", { class: "crown" });
  g.append(svgEl("path", { d: shapes[rank] }));
  // the queen's pearls, the jack's plume
  const dots = { K: [], Q: [[53, 29], [70.5, 24], [88, 29]], J: [[70.5, 25]] }[rank];
  for (const [cx, cy] of dots) g.append(svgEl("circle", { cx, cy, r: 4 }));
  return g;
}

// A joker: a star in the corner, JOKER down the side, a large star; the big one in colour,
// the little one in black (their classes say which: joker-big, joker-little).
function drawJoker(card) {
  const svg = faceSvg();
  svg.append(star(19, 20, 16, 6.5));
  "JOKER".split("").forEach((letter, i) => {
    const t = svgEl("text", {
      class: "joker-letter", x: 19, y: 58 + i * 19, "font-size": 20, "font-weight": 700,
      "text-anchor": "middle",
    });
    t.textContent = letter;
    svg.append(t);
  });
  svg.append(star(64, 80, 32, 13));
  if (card === "LJ") {
    // a white star inside the little joker's black one: the two differ by shape too, for
    // whoever cannot tell their colours apart
    svg.append(star(64, 80, 14, 5.5));
  }
  return svg;
}

// One card as an element: a button when it can be chosen, a plain face otherwise. A card
// face down ("?") shows its back only: no data-card, nothing of a face.
export function cardElement(card, { button = false, title = "" } = {}) {
  const el = document.createElement(button ? "button" : "span");
  el.className = "card";
  if (card === "?") {
    el.classList.add("back");
    el.setAttribute("aria-label", "a face-down card");
    return el;
  }
  const suit = suitOf(card);
  el.classList.add(suit ? `suit-${suit}` : "joker");
  el.dataset.card = card;
  el.setAttribute("aria-label", cardName(card));
  if (isJoker(card)) {
    el.classList.add(card === "BJ" ? "joker-big" : "joker-little");
    el.append(drawJoker(card));
  } else if (SUITS.includes(suit) && RANKS.includes(card[0]) && card.length === 2) {
    el.append(drawSuited(card));
  } else {
    el.textContent = card; // not a card of the deck: shown as written
  }
  if (title) el.title = title;
  return el;
}

export function backElement(label = "") {
  const el = document.createElement("span");
  el.className = "card back";
  if (label !== "") {
    el.textContent = label;
    el.dataset.position = label;
  }
  el.setAttribute("aria-label", "a face-down card");
  return el;
}

// --- the person's card settings ----------------------------------------------------------------
// The four-colour deck (spades black, hearts red, diamonds blue, clubs green) is a class on
// <html> that cards.css follows; the choice is kept with the other settings (storage.js).

const FOUR_COLOUR = "four-colour";

export function applyCardSettings() {
  document.documentElement.classList.toggle(FOUR_COLOUR, settings().fourColour === true);
}

// A ready "four-colour deck" checkbox for a settings panel.
export function fourColourToggle() {
  const label = document.createElement("label");
  label.className = "card-setting four-colour-toggle";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = "four-colour";
  box.checked = settings().fourColour === true;
  box.addEventListener("change", () => {
    saveSettings({ ...settings(), fourColour: box.checked });
    applyCardSettings();
  });
  label.append(box, " Four-colour deck");
  label.title = "spades black, hearts red, diamonds blue, clubs green";
  return label;
}

// The faces' stylesheet, added once by whichever page draws cards (the pages' HTML stays as
// it is), and the setting applied before the first card is drawn.
function addStylesheet() {
  const href = "/static/css/cards.css";
  if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

if (typeof document !== "undefined") {
  addStylesheet();
  applyCardSettings();
  // a change made in another tab holds here too
  window.addEventListener("storage", applyCardSettings);
}
