// The decisions other than playing a card, built from the actions the server says are
// legal now, each with its rule in one line. Every button sends one of those actions as it
// was listed; nothing here decides what is legal.

import { SUIT_NAME, SUIT_SYMBOL } from "./cards.js";

export function parseAction(text) {
  const m = /^(\d+): (\w+)(?: (.*))?$/.exec(text);
  if (!m) return null;
  return { text, seat: Number(m[1]), verb: m[2], args: m[3] || "" };
}

// Cards named by a give, discard or exchange, in a canonical order for comparison.
export function cardsKey(args) {
  return args.split(/\s+/).filter(Boolean).sort().join(" ");
}

// --- the one-line rules -------------------------------------------------------------------

function bidRule(view) {
  const game = view.game;
  const variant = view.options.variant || "standard";
  if (game === "dummy-hand-spades") {
    const base = "Your team's bid: the tricks your side will take (13 in all). Tick nil for a hand that will take no trick (+100 if it takes none, −100 if it does); a nil counts for whichever team that hand joins.";
    if (variant === "mirror") return "Mirror: the bid is the spades in the hands. " + base;
    if (variant === "suicide") return "Suicide: a nil must be declared. " + base;
    return base;
  }
  if (game === "3b-spades") return "Bid the tricks you alone will take, exactly: more or fewer costs you. A zero (0) wins the zero pot if you take no trick.";
  if (game === "dummy-whist" || game === "double-dummy-whist") return "Bid books over six and how the hand is played: uptown (high cards win, you name trumps), downtown (low cards win), or no trump. A higher bid or a better mode at the same height wins the auction.";
  if (game === "paperless-spades") return "Bid the tricks you will take yourself; an exact bid scores best (the cards you gave and received are yours to count on).";
  if (variant === "mirror") return "Mirror: you bid the number of spades you hold.";
  if (variant === "suicide") return "Suicide: one partner of each team bids nil, the other bids for the team.";
  if (variant === "whiz") return "Whiz: bid the number of spades you hold, or nil.";
  return "Bid the tricks you and your partner will take together; a nil (0) scores +100 if you take no trick, −100 if you do.";
}

const RULES = {
  rebid: "You may change your bid until the next player has bid.",
  exchange: "You have drawn the extra card: pick one card to throw back face down.",
  discard: "With jokers the dummy holds 15 cards: pick 2 to put out of play face down (only you see which).",
  trump: "You won the auction uptown: name trumps.",
  direction: "No trump: choose whether high or low cards win the tricks.",
  keep: "Keep the hand you were dealt (each keeper doubles the hand's score), or swap it for your dummy's.",
  renege: "Call a renege on a trick: a right call moves 3 books to your side, a wrong one 3 to the other side.",
  peek: "Pick the dummy's cards to look at privately, by position; everyone sees which positions you chose.",
  flip: "Pick the dummy's cards to turn face up for everyone, by position.",
};

function giveRule(view) {
  if (view.game === "paperless-spades") return "Pass cards to your partner, face down; your partner passes to you.";
  return "Blind nil: pass cards to your partner face down, and your partner passes back.";
}

// --- building the controls ------------------------------------------------------------------

function button(label, onClick, { primary = false, disabled = false, title = "" } = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (primary) b.classList.add("primary");
  b.disabled = disabled;
  if (title) b.title = title;
  b.addEventListener("click", onClick);
  return b;
}

function group(rule, ...children) {
  const box = document.createElement("div");
  box.className = "control";
  const p = document.createElement("p");
  p.className = "rule";
  p.textContent = rule;
  box.append(p, ...children);
  return box;
}

function row(...children) {
  const r = document.createElement("div");
  r.className = "choices";
  r.append(...children);
  return r;
}

function bidLabel(view, n) {
  if (n === 0 && view.game === "3b-spades") return "0 (zero)";
  if (n === 0 && view.game !== "dummy-hand-spades") return "Nil";
  return String(n);
}

// ctx: {send(text), seatLabel(seat), selection: Set of cards, positions: Set of positions,
//       refresh()}
export function buildControls(view, actions, ctx) {
  const out = [];
  const byVerb = new Map();
  for (const a of actions) {
    if (a.verb === "play") continue;
    if (!byVerb.has(a.verb)) byVerb.set(a.verb, []);
    byVerb.get(a.verb).push(a);
  }
  const send = (a) => ctx.send(a.text);

  const bids = byVerb.get("bid") || [];
  if (bids.length) out.push(bidControl(view, bids, byVerb.get("pass") || [], ctx));
  else if (byVerb.has("pass") && !byVerb.has("keep")) {
    out.push(group("Pass.", row(...byVerb.get("pass").map((a) => button("Pass", () => send(a))))));
  }
  for (const verb of ["exchange", "discard", "give"]) {
    if (byVerb.has(verb)) out.push(cardChoice(view, verb, byVerb.get(verb), ctx));
  }
  for (const verb of ["peek", "flip"]) {
    if (byVerb.has(verb)) out.push(positionChoice(view, verb, byVerb.get(verb), ctx));
  }
  if (byVerb.has("trump")) {
    out.push(group(RULES.trump, row(...byVerb.get("trump").map((a) =>
      button(`${SUIT_SYMBOL[a.args]} ${SUIT_NAME[a.args]}`, () => send(a), { primary: true })))));
  }
  if (byVerb.has("direction")) {
    out.push(group(RULES.direction, row(...byVerb.get("direction").map((a) =>
      button(a.args === "high" ? "High cards win" : "Low cards win", () => send(a), { primary: true })))));
  }
  if (byVerb.has("keep") || byVerb.has("swap")) {
    const choices = [...(byVerb.get("keep") || []), ...(byVerb.get("swap") || [])];
    out.push(group(RULES.keep, row(...choices.map((a) =>
      button(a.verb === "keep" ? "Keep my hand" : "Swap for my dummy's", () => send(a), { primary: a.verb === "keep" })))));
  }
  if (byVerb.has("renege")) out.push(renegeControl(byVerb.get("renege"), ctx));
  if (byVerb.has("rebid")) {
    // optional and out of turn: after the decision that is due
    const opts = byVerb.get("rebid").sort((x, y) => Number(x.args) - Number(y.args));
    const box = group(RULES.rebid, row(...opts.map((a) => button(`Change to ${bidLabel(view, Number(a.args))}`, () => send(a)))));
    box.classList.add("optional");
    out.push(box);
  }
  const known = new Set(["bid", "pass", "rebid", "exchange", "discard", "give", "peek", "flip",
    "trump", "direction", "keep", "swap", "renege"]);
  const others = actions.filter((a) => a.verb !== "play" && !known.has(a.verb));
  if (others.length) {
    out.push(group("Other choices.", row(...others.map((a) => button(a.text.split(": ")[1], () => send(a))))));
  }
  return out;
}

function bidControl(view, bids, passes, ctx) {
  const send = (a) => ctx.send(a.text);
  const seat = bids[0].seat;
  const children = [];
  const modes = new Set();
  const numbers = new Set();
  const nilSeats = new Set();
  let blind = null;
  const legal = new Set(bids.map((a) => a.text));
  for (const a of bids) {
    const words = a.args.split(" ");
    if (words[1] === "blind") {
      blind = a;
      continue;
    }
    numbers.add(Number(words[0]));
    for (const w of words.slice(1)) {
      if (w.startsWith("nil=")) w.slice(4).split(",").forEach((s) => nilSeats.add(Number(s)));
      else modes.add(w);
    }
  }
  const sorted = [...numbers].sort((x, y) => x - y);
  if (blind) {
    children.push(row(
      button("Blind nil (±200)", () => send(blind), { primary: true }),
      ...passes.map((p) => button("Look at my cards", () => send(p))),
    ));
    return group("Blind nil: bid nil before you look at your cards (+200 if you take no trick, −200 if you do), or look and bid as usual.", ...children);
  }
  if (modes.size) {
    // the whist auction: a grid of heights and modes
    const grid = document.createElement("div");
    grid.className = "bid-grid";
    const modeList = ["uptown", "downtown", "notrump"].filter((m) => modes.has(m));
    for (const n of sorted) {
      for (const m of modeList) {
        const text = `${seat}: bid ${n} ${m}`;
        if (legal.has(text)) grid.append(button(`${n} ${m === "notrump" ? "no trump" : m}`, () => ctx.send(text)));
      }
    }
    children.push(grid);
    if (passes.length) children.push(row(...passes.map((p) => button("Pass", () => send(p)))));
    return group(bidRule(view) + (passes.length ? "" : " The dealer may not pass now."), ...children);
  }
  if (nilSeats.size) {
    // Dummy Hand Spades: a team bid plus nils on hands
    const chosen = ctx.bidChoice || (ctx.bidChoice = { tricks: null, nils: new Set() });
    const numbersRow = row(...sorted.map((n) => {
      const b = button(String(n), () => {
        chosen.tricks = n;
        ctx.refresh();
      });
      if (chosen.tricks === n) b.classList.add("selected");
      return b;
    }));
    const nilRow = row(...[...nilSeats].sort().map((s) => {
      const label = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.checked = chosen.nils.has(s);
      box.addEventListener("change", () => {
        if (box.checked) chosen.nils.add(s);
        else chosen.nils.delete(s);
        ctx.refresh();
      });
      label.append(box, ` nil on ${ctx.seatLabel(s)}`);
      return label;
    }));
    const nils = [...chosen.nils].sort((x, y) => x - y);
    const text = chosen.tricks === null ? null
      : `${seat}: bid ${chosen.tricks}` + (nils.length ? ` nil=${nils.join(",")}` : "");
    const ok = text !== null && legal.has(text);
    const why = chosen.tricks === null ? "pick the team's tricks first" : ok ? "" : "these nils may not be declared with this bid";
    children.push(numbersRow, nilRow, row(button(
      text === null ? "Bid" : `Bid ${chosen.tricks}` + (nils.length ? ` with nil on ${nils.map(ctx.seatLabel).join(", ")}` : ""),
      () => { if (ok) { ctx.bidChoice = null; ctx.send(text); } },
      { primary: true, disabled: !ok, title: why },
    )));
    return group(bidRule(view), ...children);
  }
  children.push(row(...sorted.map((n) => button(bidLabel(view, n), () => ctx.send(`${seat}: bid ${n}`)))));
  if (passes.length) children.push(row(...passes.map((p) => button("Pass", () => send(p)))));
  return group(bidRule(view), children[0], ...children.slice(1));
}

function cardChoice(view, verb, actions, ctx) {
  const count = actions[0].args.split(" ").length;
  const legal = new Map(actions.map((a) => [cardsKey(a.args), a]));
  ctx.selecting = { verb, count, seat: actions[0].seat };
  const chosen = [...ctx.selection];
  const match = chosen.length === count ? legal.get(cardsKey(chosen.join(" "))) : null;
  const verbWord = { give: "Pass", discard: "Put out of play", exchange: "Throw back" }[verb];
  const rule = verb === "give" ? giveRule(view) : RULES[verb];
  const label = chosen.length < count
    ? `Pick ${count - chosen.length} more card${count - chosen.length === 1 ? "" : "s"} in your hand`
    : match ? `${verbWord}: ${chosen.join(" ")}` : "These cards may not be chosen together";
  return group(`${rule} (${count} card${count === 1 ? "" : "s"}; click them in your hand${verb === "discard" ? " or the dummy's" : ""}.)`, row(
    button(label, () => { if (match) { ctx.selection.clear(); ctx.send(match.text); } }, { primary: true, disabled: !match }),
    button("Clear", () => { ctx.selection.clear(); ctx.refresh(); }, { disabled: !chosen.length }),
  ));
}

function positionChoice(view, verb, actions, ctx) {
  const count = actions[0].args.split(" ").length;
  const legal = new Map(actions.map((a) => [a.args.split(" ").map(Number).sort((x, y) => x - y).join(" "), a]));
  ctx.positionsFor = { verb, count };
  const chosen = [...ctx.positions].sort((x, y) => x - y);
  const match = chosen.length === count ? legal.get(chosen.join(" ")) : null;
  const word = verb === "peek" ? "Peek at" : "Flip";
  const label = chosen.length < count
    ? `Pick ${count - chosen.length} more of the dummy's cards`
    : match ? `${word} positions ${chosen.join(", ")}` : "These positions may not be chosen";
  return group(`${RULES[verb]} (${count} card${count === 1 ? "" : "s"}; click them on the dummy.)`, row(
    button(label, () => { if (match) { ctx.positions.clear(); ctx.send(match.text); } }, { primary: true, disabled: !match }),
    button("Clear", () => { ctx.positions.clear(); ctx.refresh(); }, { disabled: !chosen.length }),
  ));
}

function renegeControl(actions, ctx) {
  const select = document.createElement("select");
  select.setAttribute("aria-label", "trick to call a renege on");
  for (const a of actions.sort((x, y) => Number(x.args) - Number(y.args))) {
    const o = document.createElement("option");
    o.value = a.text;
    o.textContent = `trick ${a.args}`;
    select.append(o);
  }
  const box = group(RULES.renege, row(select, button("Call renege", () => ctx.send(select.value))));
  box.classList.add("optional");
  return box;
}
