// Cards as the server writes them ("QS", "TD", "BJ", "LJ") and how a player arranges them.

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

// One card as an element: a button when it can be chosen, a plain face otherwise.
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
  el.textContent = shortLabel(card);
  el.setAttribute("aria-label", cardName(card));
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
