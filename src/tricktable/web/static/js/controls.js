// The decisions other than playing a card, built from the actions the server says are
// legal now, each with its rule in one line. Every button sends one of those actions as it
// was listed; nothing here decides what is legal.

import { shortLabel } from "./cards.js";

export function parseAction(text) {
  const m = /^(\d+): (\w+)(?: (.*))?$/.exec(text);
  if (!m) return null;
  return { text, seat: Number(m[1]), verb: m[2], args: m[3] || "" };
}

// Cards named by a give, discard or exchange, in a canonical order for comparison.
export function cardsKey(args) {
  return args.split(/\s+/).filter(Boolean).sort().join(" ");
}

// --- the game's words ---------------------------------------------------------------------
// Every rule line and every button's words come from the game, in the view's ``words``
// (web/protocol.py's words_json): the terminal shows the same texts. Where a view has none
// for an action (a server that says less), the action's own notation stands in.

function wordsOf(view) {
  return view.words || {};
}

function ruleOf(view, verb) {
  return (wordsOf(view).rules || {})[verb] || "";
}

function labelOf(view, a) {
  const label = (wordsOf(view).labels || {})[a.text];
  return label === undefined ? (a.args || a.verb) : label;
}

function bidWords(view, n) {
  return (wordsOf(view).bids || {})[String(n)] || String(n);
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

// ctx: {send(text), seatLabel(seat), selection: Set of cards, positions: Set of positions,
//       refresh(), cardsElsewhere (cards to choose lie in a dummy too)}
export function buildControls(view, actions, ctx) {
  const out = [];
  const byVerb = new Map();
  for (const a of actions) {
    if (a.verb === "play") continue;
    if (!byVerb.has(a.verb)) byVerb.set(a.verb, []);
    byVerb.get(a.verb).push(a);
  }
  const send = (a) => ctx.send(a.text);
  const buttons = (list, opts = {}) => list.map((a) => button(labelOf(view, a), () => send(a), opts));

  const bids = byVerb.get("bid") || [];
  if (bids.length) out.push(bidControl(view, bids, byVerb.get("pass") || [], ctx));
  else if (byVerb.has("pass") && !byVerb.has("keep")) {
    out.push(group(ruleOf(view, "pass") || "Pass.", row(...buttons(byVerb.get("pass")))));
  }
  for (const verb of ["exchange", "discard", "give"]) {
    if (byVerb.has(verb)) out.push(cardChoice(view, verb, byVerb.get(verb), ctx));
  }
  for (const verb of ["peek", "flip"]) {
    if (byVerb.has(verb)) out.push(positionChoice(view, verb, byVerb.get(verb), ctx));
  }
  for (const verb of ["trump", "direction"]) {
    if (byVerb.has(verb)) out.push(group(ruleOf(view, verb), row(...buttons(byVerb.get(verb), { primary: true }))));
  }
  if (byVerb.has("keep") || byVerb.has("swap")) {
    const choices = [...(byVerb.get("keep") || []), ...(byVerb.get("swap") || [])];
    out.push(group(ruleOf(view, "keep") || ruleOf(view, "swap"), row(...choices.map((a) =>
      button(labelOf(view, a), () => send(a), { primary: a.verb === "keep" })))));
  }
  if (byVerb.has("renege")) out.push(renegeControl(view, byVerb.get("renege"), ctx));
  if (byVerb.has("rebid")) {
    // optional and out of turn: after the decision that is due
    const opts = byVerb.get("rebid").sort((x, y) => Number(x.args) - Number(y.args));
    const box = group(ruleOf(view, "rebid"), row(...buttons(opts)));
    box.classList.add("optional");
    out.push(box);
  }
  const known = new Set(["bid", "pass", "rebid", "exchange", "discard", "give", "peek", "flip",
    "trump", "direction", "keep", "swap", "renege"]);
  const others = actions.filter((a) => a.verb !== "play" && !known.has(a.verb));
  if (others.length) {
    out.push(group(ruleOf(view, others[0].verb) || "Other choices.", row(...buttons(others))));
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
  const passButtons = () => passes.map((p) => button(labelOf(view, p), () => send(p)));
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
  const rule = ruleOf(view, "bid");
  if (blind) {
    children.push(row(button(labelOf(view, blind), () => send(blind), { primary: true }), ...passButtons()));
    return group(rule, ...children);
  }
  if (modes.size) {
    // an auction of heights and ways of play (whist): a grid, a row a height and a column a
    // way, in the order the fullest height lists them (a way out of reach leaves its cell empty)
    const grid = document.createElement("div");
    grid.className = "bid-grid";
    const heights = new Map();
    for (const a of bids) {
      const [n, way] = a.args.split(" ");
      if (!heights.has(n)) heights.set(n, new Map());
      heights.get(n).set(way, a);
    }
    const ways = [...[...heights.values()].reduce((most, h) => (h.size > most.size ? h : most)).keys()];
    grid.style.setProperty("--ways", String(ways.length));
    for (const row of heights.values()) {
      for (const way of ways) {
        const a = row.get(way);
        grid.append(a ? button(labelOf(view, a), () => send(a)) : Object.assign(document.createElement("span"), { className: "bid-gap" }));
      }
    }
    children.push(grid);
    if (passes.length) children.push(row(...passButtons()));
    return group(rule, ...children);
  }
  if (nilSeats.size) {
    // a team bid plus nils on hands (Dummy Hand Spades): the tricks, then the nils
    const chosen = ctx.bidChoice || (ctx.bidChoice = { tricks: null, nils: new Set() });
    const numbersRow = row(...sorted.map((n) => {
      const b = button(bidWords(view, n), () => {
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
      text === null ? "Bid" : `Bid ${bidWords(view, chosen.tricks)}` + (nils.length ? ` with nil on ${nils.map(ctx.seatLabel).join(", ")}` : ""),
      () => { if (ok) { ctx.bidChoice = null; ctx.send(text); } },
      { primary: true, disabled: !ok, title: why },
    )));
    return group(rule, ...children);
  }
  children.push(row(...bids.slice().sort((x, y) => Number(x.args) - Number(y.args))
    .map((a) => button(labelOf(view, a), () => send(a)))));
  if (passes.length) children.push(row(...passButtons()));
  return group(rule, ...children);
}

function cardChoice(view, verb, actions, ctx) {
  const count = actions[0].args.split(" ").length;
  const legal = new Map(actions.map((a) => [cardsKey(a.args), a]));
  ctx.selecting = { verb, count, seat: actions[0].seat };
  const chosen = [...ctx.selection];
  const match = chosen.length === count ? legal.get(cardsKey(chosen.join(" "))) : null;
  const verbWord = (wordsOf(view).verbs || {})[verb] || verb;
  const label = chosen.length < count
    ? `Pick ${count - chosen.length} more card${count - chosen.length === 1 ? "" : "s"}`
    : match ? `${verbWord}: ${chosen.map(shortLabel).join(" ")}` : "These cards may not be chosen together";
  const where = ctx.cardsElsewhere ? "click them in your hand or the dummy's" : "click them in your hand";
  return group(`${ruleOf(view, verb)} (${count} card${count === 1 ? "" : "s"}; ${where}.)`, row(
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
  const word = (wordsOf(view).verbs || {})[verb] || verb;
  const label = chosen.length < count
    ? `Pick ${count - chosen.length} more of the dummy's cards`
    : match ? `${word} positions ${chosen.join(", ")}` : "These positions may not be chosen";
  return group(`${ruleOf(view, verb)} (Click them on the dummy.)`, row(
    button(label, () => { if (match) { ctx.positions.clear(); ctx.send(match.text); } }, { primary: true, disabled: !match }),
    button("Clear", () => { ctx.positions.clear(); ctx.refresh(); }, { disabled: !chosen.length }),
  ));
}

function renegeControl(view, actions, ctx) {
  const select = document.createElement("select");
  select.setAttribute("aria-label", "trick to call a renege on");
  for (const a of actions.sort((x, y) => Number(x.args) - Number(y.args))) {
    const o = document.createElement("option");
    o.value = a.text;
    o.textContent = labelOf(view, a);
    select.append(o);
  }
  const box = group(ruleOf(view, "renege"), row(select, button("Call renege", () => ctx.send(select.value))));
  box.classList.add("optional");
  return box;
}
