// The table page: connects with the token in the link's #fragment, draws each view the
// server sends, and sends the actions a person picks. Everything shown comes from the
// view, which holds only what this seat may see.

import { SUIT_NAME, SUIT_SYMBOL, arrange, cardElement, suitOf } from "./cards.js";
import { Connection } from "./connection.js";
import { buildControls, cardsKey, parseAction } from "./controls.js";
import { drawFelt, lowHand, trumpOf, whyNot } from "./felt.js";
import { scoreSheet, summaryLines } from "./scoresheet.js";
import { hostTokenFor, invitesFor, rememberName, savedName, settings, saveSettings } from "./storage.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const token = new URLSearchParams(location.hash.slice(1)).get("token");

const page = {
  view: null,
  welcome: null,
  selection: new Set(),
  positions: new Set(),
  bidChoice: null,
  showLastTrick: false,
  lastResults: 0,
  wasMyTurn: false,
  conn: null,
  decisionKey: "",
};

function seatMeta(seat) {
  return (page.view && page.view.seats.find((s) => s.seat === seat)) || { seat, kind: "person" };
}

function seatLabel(seat) {
  const v = page.view;
  const meta = seatMeta(seat);
  let name = meta.kind === "bot" ? `${meta.bot || "bot"} bot, seat ${seat}` : meta.name || `seat ${seat}`;
  if (meta.kind === "dummy") {
    const info = (v && v.observation.info) || {};
    const partners = info.partners || {};
    const owner = Object.entries(partners).find(([, d]) => d === seat);
    name = owner ? `dummy of ${seatLabel(Number(owner[0]))}` : "the dummy";
  }
  const you = v && v.you.seat === seat ? " (you)" : "";
  return `${name}${you}`;
}

function sideLabel(key) {
  const v = page.view;
  const name = v.sides[key] || key;
  const m = /^seat (\d+)$/.exec(name);
  if (m) return seatLabel(Number(m[1]));
  const team = /^team \S+ \(seats (\d+)\+(\d+)\)$/.exec(name);
  if (team) return `${seatLabel(Number(team[1]))} & ${seatLabel(Number(team[2]))}`;
  return name;
}

function bidText(seat) {
  const info = page.view.observation.info;
  const game = page.view.game;
  if (game === "dummy-hand-spades") {
    if (info.declarer === seat && info.team) return "declarer";
    const bid = (info.bids || [])[seat];
    if (bid && typeof bid === "object") {
      return `bid ${bid.tricks}` + (bid.nils && bid.nils.length ? ` nil ${bid.nils.map(seatLabel).join(", ")}` : "");
    }
    return "";
  }
  if (game === "dummy-whist" || game === "double-dummy-whist") {
    return info.declarer === seat && info.contract ? `contract ${info.contract}` : "";
  }
  const bids = info.bids;
  if (Array.isArray(bids) && bids[seat] !== null && bids[seat] !== undefined) {
    return `bid ${bids[seat] === 0 ? "nil" : bids[seat]}`;
  }
  return "";
}

function extraCardText(info, obs) {
  if (!("extra_thrown_out" in info) || obs.phase === "play" || obs.phase === "scoring") return "";
  if (info.extra_drawn_by >= 0) return `extra card: drawn by ${seatLabel(info.extra_drawn_by)}`;
  if (info.extra_thrown_out) return "extra card: thrown back, out of play";
  return "extra card: face down, for the high bidder";
}

function auctionText(info) {
  if (!Array.isArray(info.auction) || !info.auction.length) return "";
  return "auction: " + info.auction.map((t) => {
    const [seat, what] = t.split(": ");
    return `${seatLabel(Number(seat))} ${what.replace("notrump", "no trump")}`;
  }).join(", ");
}

const FACTS = [
  ["contract", (v) => v], ["declarer", (v) => `declarer ${seatLabel(v)}`], ["trump", (v) => (v ? `trumps ${SUIT_SYMBOL[v]} ${SUIT_NAME[v]}` : "no trumps")],
  ["direction", (v) => (v === "low" ? "low cards win" : "high cards win")], ["need", (v) => `${v} books`],
  ["multiplier", (v) => `×${v}`], ["zero_value", (v) => `zero pot ${v}`], ["high_bidder", (v) => `high bidder ${seatLabel(v)}`],
  ["sitting_out", (v) => `${seatLabel(v)} sits out`], ["spades_broken", (v) => (v ? "spades broken" : "spades not broken")],
  ["target", (v) => `game to ${v}`], ["limit", (v) => `limit ${v}`], ["set", (v) => `set ${v}`],
  ["gave", (v) => `you gave ${v}`], ["received", (v) => `you received ${v}`],
];

function factsLine(info) {
  const out = [];
  for (const [key, show] of FACTS) {
    const v = info[key];
    if (v === undefined || v === null || v === -1 || (key !== "spades_broken" && v === false)) continue;
    out.push(show(v));
  }
  if (info.bags && typeof info.bags === "object") {
    out.push("bags " + Object.entries(info.bags).map(([k, n]) => `${sideLabel(k)} ${n}`).join(", "));
  }
  return out.join(" · ");
}

// --- drawing --------------------------------------------------------------------------------

function render() {
  const v = page.view;
  if (!v) return;
  const obs = v.observation;
  const info = obs.info || {};
  const me = v.you.seat;
  const actions = v.legal.map(parseAction).filter(Boolean);
  const key = `${v.game_number}/${v.seq}`;
  if (key !== page.decisionKey) {
    // a new position: choices half-made for the last one no longer apply
    const stillChoosing = actions.some((a) => ["give", "discard", "exchange", "peek", "flip", "bid"].includes(a.verb));
    if (!stillChoosing) {
      page.selection.clear();
      page.positions.clear();
      page.bidChoice = null;
    }
    page.decisionKey = key;
  }

  document.body.dataset.seq = String(v.seq);
  document.body.dataset.status = v.status;
  $("title").textContent = `${v.title || v.game} · table ${v.table}`;
  document.title = `${v.title || v.game} · tricktable`;
  $("facts").textContent = [obs.phase === "bidding" ? auctionText(info) : "", factsLine(info)]
    .filter(Boolean).join(" · ");
  $("role").textContent = v.you.role === "spectator" ? "watching" : `you are ${seatLabel(me)}`;
  $("hand-number").textContent = obs.hand_number >= 0 ? `hand ${obs.hand_number + 1}` : "";

  // plays by seat: card -> the legal texts (an ace may be played high or low)
  const plays = new Map();
  for (const a of actions) {
    if (a.verb !== "play") continue;
    const card = a.args.split(" ")[0];
    if (!plays.has(a.seat)) plays.set(a.seat, new Map());
    const m = plays.get(a.seat);
    if (!m.has(card)) m.set(card, []);
    m.get(card).push(a.text);
  }
  const selectingVerb = ["give", "discard", "exchange"].find((verb) => actions.some((a) => a.verb === verb));
  const selectable = new Set();
  if (selectingVerb) {
    actions.filter((a) => a.verb === selectingVerb).forEach((a) => a.args.split(" ").forEach((c) => selectable.add(c)));
  }
  const positionVerb = ["peek", "flip"].find((verb) => actions.some((a) => a.verb === verb));
  const clickable = new Map();
  for (const seat of obs.controls || []) {
    if (seat === me) continue;
    clickable.set(seat, { plays: plays.get(seat) || new Map(), selectable, selected: page.selection, onSelect: toggleCard });
  }
  if (selectingVerb) {
    // cards to pass, discard or throw back may lie in a dummy this seat sees (the whist
    // declarer's discards come from the dummy's 15 cards)
    obs.visible.forEach((cards, seat) => {
      if (seat !== me && !clickable.has(seat) && cards.some((c) => selectable.has(c))) {
        clickable.set(seat, { plays: new Map(), selectable, selected: page.selection, onSelect: toggleCard });
      }
    });
  }
  if (positionVerb && typeof info.dummy === "number") {
    const available = new Set();
    actions.filter((a) => a.verb === positionVerb).forEach((a) => a.args.split(" ").forEach((p) => available.add(Number(p))));
    const entry = clickable.get(info.dummy) || { plays: new Map() };
    entry.positions = {
      available: [...available].sort((x, y) => x - y),
      selected: page.positions,
      onToggle: (p) => {
        if (page.positions.has(p)) page.positions.delete(p);
        else page.positions.add(p);
        render();
      },
    };
    clickable.set(info.dummy, entry);
  }

  const toAct = v.status === "playing" ? v.to_act : -1;
  drawFelt($("felt"), {
    game: v.game, info, obs, around: v.around || v.seats.map((s) => s.seat), viewer: me,
    seatsMeta: Object.fromEntries(v.seats.map((s) => [s.seat, s])), seatLabel, bidText, toAct,
    clickable, onPlay: playCard, showLastTrick: page.showLastTrick,
    sittingOut: typeof info.sitting_out === "number" ? info.sitting_out : null,
    centerText: v.status === "waiting" ? "waiting for players" : "",
    extraCard: extraCardText(info, obs),
  });

  drawHand(obs, info, plays.get(me) || new Map(), selectingVerb ? selectable : null);
  drawControls(actions);
  drawStatus(actions);
  drawSheet();
  drawEnd();
  drawInvites();
  turnSound(actions);
}

function drawHand(obs, info, myPlays, selectable) {
  const hand = $("hand");
  hand.replaceChildren();
  if (page.view.you.role !== "seat") {
    hand.append(Object.assign(document.createElement("p"), { className: "muted", textContent: "Spectators see what every player sees alike: no hands." }));
    return;
  }
  const cards = arrange(obs.hand, trumpOf(page.view.game, info), lowHand(page.view.game, info));
  const peekable = new Set(Object.values(info.flipped || {}));
  const legalCards = new Set(myPlays.keys());
  let lastSuit = null;
  for (const c of cards) {
    const texts = myPlays.get(c);
    const pick = selectable && selectable.has(c);
    const face = cardElement(c, { button: true });
    if (suitOf(c) !== lastSuit && lastSuit !== null) face.classList.add("suit-break");
    lastSuit = suitOf(c);
    if (peekable.has(c)) face.classList.add("flipped");
    if (pick) {
      face.classList.add("legal");
      if (page.selection.has(c)) face.classList.add("selected");
      face.addEventListener("click", () => toggleCard(c));
    } else if (texts) {
      face.classList.add("legal");
      face.addEventListener("click", () => playCard(texts, c));
    } else if (myPlays.size) {
      // a card that may not be played now: dimmed, with the reason on hover or tap
      face.classList.add("dim");
      const reason = whyNot(c, obs, legalCards);
      face.setAttribute("aria-disabled", "true");
      face.title = reason;
      face.addEventListener("click", () => toast(reason));
    } else {
      face.classList.add("idle");
      face.tabIndex = -1;
    }
    hand.append(face);
  }
}

function toggleCard(c) {
  if (page.selection.has(c)) page.selection.delete(c);
  else page.selection.add(c);
  render();
}

function playCard(texts, card) {
  if (texts.length === 1) {
    send(texts[0]);
    return;
  }
  // an ace that may be called low: ask which
  const box = $("chooser");
  box.replaceChildren();
  const p = document.createElement("p");
  p.textContent = `Play ${card} as:`;
  box.append(p);
  for (const t of texts) {
    const b = document.createElement("button");
    b.textContent = t.endsWith(" low") ? "ace low (below the 2)" : "ace high";
    b.addEventListener("click", () => { box.hidden = true; send(t); });
    box.append(b);
  }
  box.hidden = false;
}

function drawControls(actions) {
  const box = $("controls");
  box.replaceChildren();
  const v = page.view;
  const mine = actions.filter((a) => a.verb !== "play");
  if (!mine.length) return;
  const ctx = {
    send, seatLabel, selection: page.selection, positions: page.positions,
    bidChoice: page.bidChoice, refresh: render,
  };
  for (const c of buildControls(v, mine, ctx)) box.append(c);
  page.bidChoice = ctx.bidChoice;
}

function drawStatus(actions) {
  const v = page.view;
  const line = $("status");
  const obs = v.observation;
  const mineNow = actions.some((a) => obs.controls.includes(a.seat) && v.to_act === a.seat) ||
    (actions.length && v.to_act === -1);
  if (v.status === "waiting") {
    const open = v.seats.filter((s) => s.open).map((s) => seatLabel(s.seat));
    line.textContent = `Waiting for ${open.join(", ") || "players"} to take their seat${open.length === 1 ? "" : "s"}.`;
  } else if (v.status === "over") {
    line.textContent = "The game is over.";
  } else if (mineNow || actions.some((a) => a.seat === v.to_act)) {
    const dummyTurn = v.to_act !== v.you.seat && v.to_act >= 0;
    line.textContent = dummyTurn ? `Your turn to play from ${seatLabel(v.to_act)}.` : "Your turn.";
  } else if (v.to_act >= 0) {
    line.textContent = `Waiting for ${seatLabel(v.to_act)}.`;
  } else {
    line.textContent = "The cards are being dealt.";
  }
  line.classList.toggle("my-turn", line.textContent.startsWith("Your turn"));
}

function drawSheet() {
  const v = page.view;
  const sheet = $("sheet");
  sheet.replaceChildren(scoreSheet(v.results, v.sides, sideLabel));
  if (v.results.length > page.lastResults && page.lastResults >= 0) {
    $("sheet-panel").hidden = false;
    $("sheet-title").textContent = `Hand ${v.results.length} is over` +
      (v.status === "over" ? ", and with it the game" : "");
  }
  page.lastResults = v.results.length;
}

function drawEnd() {
  const v = page.view;
  const box = $("end");
  if (v.status !== "over") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.replaceChildren();
  const h = document.createElement("h2");
  h.textContent = v.winner === null || v.winner === undefined ? "The game is over" : `${sideLabel(String(v.winner))} won`;
  box.append(h);
  const standings = Object.entries(v.totals).sort((a, b) => b[1] - a[1]);
  const ol = document.createElement("ol");
  for (const [k, t] of standings) {
    const li = document.createElement("li");
    li.textContent = `${sideLabel(k)}: ${t}`;
    ol.append(li);
  }
  box.append(ol);
  for (const line of summaryLines(v.summary, seatLabel)) {
    const p = document.createElement("p");
    p.textContent = line;
    box.append(p);
  }
  const link = document.createElement("a");
  link.href = `/api/tables/${encodeURIComponent(v.table)}/records/${v.game_number}?token=${encodeURIComponent(token)}`;
  link.textContent = "Download the record";
  link.setAttribute("download", `${v.table}-${v.game_number}.json`);
  link.className = "button";
  const replay = document.createElement("a");
  replay.href = `/replay#table=${encodeURIComponent(v.table)}&game=${v.game_number}&token=${encodeURIComponent(token)}`;
  replay.textContent = "Replay it";
  replay.className = "button";
  box.append(link, " ", replay);
  const host = hostTokenFor(v.table);
  if (host) {
    const b = document.createElement("button");
    b.textContent = "Rematch";
    b.className = "primary";
    b.addEventListener("click", async () => {
      const r = await fetch(`/api/tables/${encodeURIComponent(v.table)}/rematch`, { method: "POST", headers: { authorization: `Bearer ${host}` } });
      if (!r.ok) toast((await r.json()).message || "the rematch was refused");
    });
    box.append(" ", b);
  }
}

function drawInvites() {
  const v = page.view;
  const box = $("invites");
  const invites = invitesFor(v.table);
  const open = v.seats.filter((s) => s.open);
  if (!invites || !open.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.replaceChildren();
  const h = document.createElement("h2");
  h.textContent = "Invite your friends";
  box.append(h);
  for (const s of open) {
    const url = invites[String(s.seat)];
    if (!url) continue;
    const row = document.createElement("div");
    row.className = "invite";
    const input = document.createElement("input");
    input.readOnly = true;
    input.value = url;
    input.setAttribute("aria-label", `invite link for seat ${s.seat}`);
    const b = document.createElement("button");
    b.textContent = `Copy link for seat ${s.seat}`;
    b.addEventListener("click", () => copy(url, b));
    row.append(input, b);
    box.append(row);
  }
}

async function copy(text, buttonEl) {
  try {
    await navigator.clipboard.writeText(text);
    buttonEl.textContent = "Copied";
  } catch {
    buttonEl.textContent = "Select the link and copy it";
  }
}

let audio = null;
function turnSound(actions) {
  const v = page.view;
  const myTurn = v.status === "playing" && actions.length > 0 && (v.observation.controls || []).includes(v.to_act);
  if (myTurn && !page.wasMyTurn && settings().sound) {
    try {
      audio = audio || new AudioContext();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.value = 0.05;
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.12);
    } catch {
      /* no sound on this device */
    }
  }
  page.wasMyTurn = myTurn;
}

// --- sending and messages --------------------------------------------------------------------

function send(text) {
  $("chooser").hidden = true;
  page.conn.act(text);
}

let toastTimer = null;
function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

function setConnection(state) {
  const el = $("connection");
  el.textContent = { connecting: "connecting…", reconnecting: "reconnecting…", connected: "connected" }[state] || state;
  el.className = `connection ${state}`;
}

function askName(then) {
  const form = $("name-form");
  form.hidden = false;
  const input = $("name-input");
  input.value = savedName() || "";
  input.focus();
  form.onsubmit = (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    rememberName(name);
    form.hidden = true;
    then(name);
  };
}

function connect(name) {
  page.conn = new Connection(tableId, token, name, {
    welcome: (msg) => { page.welcome = msg; },
    view: (msg) => {
      page.view = msg;
      render();
    },
    refused: (msg) => {
      if (msg.code === "need-name") {
        page.conn.close();
        askName((n) => connect(n));
        return;
      }
      if (msg.code === "stale") return; // the current view follows at once
      toast(msg.message + (msg.allowed ? ` Allowed: ${msg.allowed}` : ""));
    },
    error: (msg) => {
      if (msg.code === "closed" && page.conn.stopped) return;
      toast(msg.message);
      if (msg.code === "bad-token" || msg.code === "no-table") setConnection("closed");
    },
    status: setConnection,
  });
  page.conn.open();
}

function setUp() {
  if (!token) {
    $("status").textContent = "This link holds no seat: ask the table's host for your invite link, or start a table from the lobby.";
    return;
  }
  const sound = $("sound");
  const paint = () => { sound.textContent = settings().sound ? "Sound: on" : "Sound: off"; };
  paint();
  sound.addEventListener("click", () => { saveSettings({ ...settings(), sound: !settings().sound }); paint(); });
  $("last-trick").addEventListener("click", () => { page.showLastTrick = !page.showLastTrick; $("last-trick").classList.toggle("selected", page.showLastTrick); render(); });
  $("show-sheet").addEventListener("click", () => { $("sheet-panel").hidden = !$("sheet-panel").hidden; $("sheet-title").textContent = "Score sheet"; });
  $("close-sheet").addEventListener("click", () => { $("sheet-panel").hidden = true; });
  $("hand").addEventListener("keydown", (e) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const buttons = [...$("hand").querySelectorAll("button.legal")];
    const i = buttons.indexOf(document.activeElement);
    const next = buttons[(i + (e.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
    if (next) { next.focus(); e.preventDefault(); }
  });
  page.lastResults = -1; // the sheet opens for hands scored from now on, not on arrival
  connect(savedName());
}

setUp();
