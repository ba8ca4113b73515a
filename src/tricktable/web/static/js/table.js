// The table page: connects with the token in the link's #fragment, draws each view the
// server sends, and sends the actions a person picks. Everything shown comes from the
// view, which holds only what this seat may see.

import { arrange, cardElement, cardName, fourColourToggle, suitOf } from "./cards.js";
import { Connection } from "./connection.js";
import { askAboutDevice, showWaiting, withdrawDeviceRequest } from "./device.js";
import { buildControls, cardsKey, parseAction } from "./controls.js";
import { drawFelt } from "./felt.js";
import { scoreSheet, summaryLines } from "./scoresheet.js";
import { leagueSection } from "./league-news.js";
import { setUpTalk } from "./talk.js";
import { setUpHost, updateHost } from "./host.js";
import { helpConnection, setUpHelp, updateHelp } from "./help.js";
import { hostTokenFor, invitesFor, rememberJoined, rememberName, savedName, settings, saveSettings } from "./storage.js";
import { asSentence } from "./text.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const tokenInLink = () => new URLSearchParams(location.hash.slice(1)).get("token");

// A completed trick stays whole in the middle this long, for everyone, then travels to its
// winner (a tap on the table skips it); "Last trick" shows the last one this long.
const TRICK_PAUSE_MS = 1200;
const GATHER_MS = 400;
const LAST_TRICK_MS = 2000;
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

const page = {
  token: tokenInLink(),
  view: null, // the view drawn now
  welcome: null,
  selection: new Set(),
  positions: new Set(),
  bidChoice: null,
  pause: null, // {trick, gathering, timer}: a completed trick on show; views wait meanwhile
  held: null, // the newest view that came during the pause, drawn after it
  heldTrick: null, // the newest of those that completed another trick, shown whole first
  arriving: null, // {key, cards}: cards played since the view drawn before, not yet drawn
  lastTrickShown: false, // "Last trick" is pressed: the last trick, for a moment
  lastTrickTimer: null,
  lastResults: 0,
  wasMyTurn: false,
  conn: null,
  decisionKey: "",
  stopped: null, // why the server will not let this link in again, once it said so
};

function seatMeta(seat) {
  return (page.view && page.view.seats.find((s) => s.seat === seat)) || { seat, kind: "person" };
}

// A seat as this page names it: the server's name for it (a person's, "Casual bot"), a
// dummy by whose it is; seatLabel adds "(you)" for the reader's own seat.
function seatName(seat) {
  const v = page.view;
  const meta = seatMeta(seat);
  if (meta.kind !== "dummy") return meta.name || `seat ${seat}`;
  const partners = (v && v.observation.info.partners) || {};
  const owner = Object.entries(partners).find(([, d]) => d === seat);
  if (!owner) return "the dummy";
  return v && v.you.seat === Number(owner[0]) ? "your dummy" : `dummy of ${seatName(Number(owner[0]))}`;
}

function seatLabel(seat) {
  const v = page.view;
  return seatName(seat) + (v && v.you.seat === seat ? " (you)" : "");
}

// A scoring side as the game names it ("Ann & Cy", "Bob").
function sideLabel(key) {
  return page.view.sides[key] || key;
}

// The game's words for this view (web/protocol.py's words_json): the line under each seat,
// the hand's facts, who is to act and how. Nothing here is worded per game.
function words() {
  return (page.view && page.view.words) || {};
}

function bidText(seat) {
  return (words().seats || {})[String(seat)] || "";
}

// --- views as they come, and the completed trick's pause ----------------------------------------

// The trick that ``next`` completed since ``prev`` was drawn (the hand's latest), if any: the
// view after a trick's last card already holds an empty trick in progress.
function completedSince(prev, next) {
  if (!prev || prev.game_number !== next.game_number) return null;
  const before = prev.observation, after = next.observation;
  if (before.hand_number !== after.hand_number || after.tricks.length <= before.tricks.length) return null;
  return after.tricks[after.tricks.length - 1];
}

function receive(view) {
  if (page.pause) {
    // held till the pause is over: the newest only, and the newest that ends another trick
    if (completedSince(page.held || page.view, view)) page.heldTrick = view;
    page.held = view;
    return;
  }
  show(view);
}

function show(view) {
  delete document.body.dataset.sent;
  const trick = completedSince(page.view, view);
  const prev = page.view;
  page.view = view;
  page.arriving = null;
  if (!trick && prev && prev.game_number === view.game_number &&
      prev.observation.hand_number === view.observation.hand_number) {
    const before = new Set(prev.observation.trick.map(([, c]) => c));
    const cards = new Set(view.observation.trick.map(([, c]) => c).filter((c) => !before.has(c)));
    if (cards.size) page.arriving = { key: `${view.game_number}/${view.seq}`, cards };
  }
  if (trick) {
    page.pause = { trick, gathering: false, timer: setTimeout(gather, TRICK_PAUSE_MS) };
    document.body.dataset.pause = "trick";
  }
  render();
}

function gather() {
  if (!page.pause) return;
  if (reducedMotion.matches) {
    endPause();
    return;
  }
  page.pause.gathering = true;
  page.pause.timer = setTimeout(endPause, GATHER_MS);
  render();
}

function endPause() {
  if (!page.pause) return;
  clearTimeout(page.pause.timer);
  page.pause = null;
  delete document.body.dataset.pause;
  const trickView = page.heldTrick, next = page.held;
  page.heldTrick = page.held = null;
  if (trickView && trickView !== next) {
    // another trick was completed meanwhile: it is shown whole too, then the newest view
    show(trickView);
    if (page.pause) {
      page.held = next;
      return;
    }
  }
  if (next) show(next);
  else render();
}

// The badge of the seat to act: what the decision is, in the game's words.
function turnWord() {
  const turn = words().turn;
  return (turn && turn.doing) || "to play";
}

// --- drawing --------------------------------------------------------------------------------

function render() {
  const v = page.view;
  if (!v) return;
  const obs = v.observation;
  const info = obs.info || {};
  const me = v.you.seat;
  const paused = page.pause !== null;
  // nothing is asked while a completed trick is on show (the choices come after it), nor
  // once the server has shut this link out
  const actions = paused || page.stopped ? [] : v.legal.map(parseAction).filter(Boolean);
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
  $("facts").textContent = (words().facts || []).join(" · ");
  $("role").textContent = v.you.role === "spectator" ? "watching" : `you are ${seatName(me)}`;
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

  const toAct = v.status === "playing" && !paused ? v.to_act : -1;
  const arriving = page.arriving && page.arriving.key === key && !page.lastTrickShown ? page.arriving.cards : null;
  if (arriving) page.arriving = null; // they travel once, not again at each redrawing
  drawFelt($("felt"), {
    info, obs, around: v.around || v.seats.map((s) => s.seat), viewer: me,
    seatsMeta: Object.fromEntries(v.seats.map((s) => [s.seat, s])), seatLabel, bidText, toAct,
    turnWord,
    clickable, onPlay: playCard, showLastTrick: page.lastTrickShown && !paused,
    completedTrick: paused ? page.pause.trick : null, gathering: paused && page.pause.gathering,
    arriving,
    sittingOut: typeof info.sitting_out === "number" ? info.sitting_out : null,
    centerText: v.status === "waiting" ? "waiting for players" : "",
    extraCard: words().middle || "",
    trump: words().trumps ?? null, low: Boolean(words().low),
  });

  drawHand(obs, info, plays.get(me) || new Map(), selectingVerb ? selectable : null);
  // cards to choose may lie in a dummy this seat sees (the whist declarer's discards)
  const elsewhere = obs.visible.some((cards, seat) => seat !== me && cards.some((c) => selectable.has(c)));
  drawControls(actions, elsewhere);
  drawStatus(actions);
  drawInvites();
  updateHost(v);
  updateHelp(v);
  if (paused) return; // the score sheet and the end come after the trick
  drawSheet();
  drawEnd();
  turnSound(actions);
}

function drawHand(obs, info, myPlays, selectable) {
  const hand = $("hand");
  hand.replaceChildren();
  if (page.view.you.role !== "seat") {
    hand.append(Object.assign(document.createElement("p"), { className: "muted", textContent: "Spectators see what every player sees alike: no hands." }));
    return;
  }
  const cards = arrange(obs.hand, words().trumps ?? null, Boolean(words().low));
  const peekable = new Set(Object.values(info.flipped || {}));
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
      // the game's own reason, from the server (the engine's refusal in a sentence)
      const reason = (words().why_not || {})[c] || "Not a card you may play now.";
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
  p.textContent = (words().questions || {})[card] || `Play ${cardName(card)} as:`;
  box.append(p);
  for (const t of texts) {
    const b = document.createElement("button");
    b.textContent = (words().labels || {})[t] || t.split(": ")[1];
    b.addEventListener("click", () => { box.hidden = true; send(t); });
    box.append(b);
  }
  box.hidden = false;
}

function drawControls(actions, cardsElsewhere) {
  const box = $("controls");
  box.replaceChildren();
  const v = page.view;
  const mine = actions.filter((a) => a.verb !== "play");
  if (!mine.length) return;
  const ctx = {
    send, seatLabel, selection: page.selection, positions: page.positions,
    bidChoice: page.bidChoice, refresh: render, cardsElsewhere,
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
  if (page.stopped) {
    line.textContent = page.stopped;
  } else if (page.pause) {
    const winner = page.pause.trick.winner;
    line.textContent = winner === v.you.seat ? "You won the trick." : `${seatName(winner)} won the trick.`;
  } else if (v.status === "ended") {
    line.textContent = `This table is closed${v.ended ? `: ${v.ended}` : ""}.`;
  } else if (v.status === "waiting") {
    const open = v.seats.filter((s) => s.open).map((s) => seatLabel(s.seat));
    line.textContent = `Waiting for ${open.join(", ") || "players"} to take their seat${open.length === 1 ? "" : "s"}.`;
  } else if (v.status === "over") {
    line.textContent = "The game is over.";
  } else if (mineNow || actions.some((a) => a.seat === v.to_act)) {
    const dummyTurn = v.to_act !== v.you.seat && v.to_act >= 0;
    line.textContent = dummyTurn ? `Your turn ${turnWord()} from ${seatLabel(v.to_act)}.`
      : `Your turn ${turnWord()}.`;
  } else if (v.to_act >= 0) {
    // who is to act and how, as the game says it ("Ann plays from the dummy.")
    const turn = words().turn;
    line.textContent = (turn && turn.line) || `Waiting for ${seatLabel(v.to_act)}.`;
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
    delete box.dataset.drawn;
    return;
  }
  box.hidden = false;
  // drawn again only when what it shows changed: a view that only says who is connected
  // must not wipe a mark being typed, nor move a button from under a finger
  const drawn = JSON.stringify([v.table, v.game_number, v.winner, v.totals, v.summary,
    v.results.length, v.league, page.token]);
  if (box.dataset.drawn === drawn) return;
  box.dataset.drawn = drawn;
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
  link.href = `/api/tables/${encodeURIComponent(v.table)}/records/${v.game_number}?token=${encodeURIComponent(page.token)}`;
  link.textContent = "Download the record";
  link.setAttribute("download", `${v.table}-${v.game_number}.json`);
  link.className = "button";
  const replay = document.createElement("a");
  replay.href = `/replay#table=${encodeURIComponent(v.table)}&game=${v.game_number}&token=${encodeURIComponent(page.token)}`;
  replay.textContent = "Replay it";
  replay.className = "button";
  box.append(link, " ", replay);
  if (v.results.length) {
    // the hands' double-dummy review: the replay viewer opens at the last hand with its
    // review (its "Review this hand" reviews any other)
    const review = document.createElement("a");
    review.href = `${replay.href}&hand=${v.results.length}&review=1`;
    review.textContent = "Review the hands";
    review.title = "the tricks each card cost, double dummy";
    review.className = "button hand-review";
    box.append(" ", review);
  }
  const league = leagueSection(v, page.token, toast);
  if (league) box.append(league);
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

// The turn's beep. A browser lets a page sound only after a tap or a key on it, so a tab
// reopened on your turn cannot beep: the sound is readied at the first tap or key, and the
// tab's title always says when it is your turn (seen from another tab too).
let audio = null;
const pageTitle = document.title;

function readySound() {
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
  } catch {
    /* no sound on this device */
  }
}
for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, readySound, { once: true });

function turnSound(actions) {
  const v = page.view;
  const myTurn = v.status === "playing" && actions.length > 0 && (v.observation.controls || []).includes(v.to_act);
  document.title = myTurn ? `Your turn · ${pageTitle}` : pageTitle;
  if (myTurn && !page.wasMyTurn && settings().sound && audio && audio.state === "running") {
    try {
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
  // the answer to the view on screen (a newer one may be waiting behind a completed trick)
  const seq = page.view ? page.view.seq : null;
  // until the server answers (a new view, or a refusal), what is on screen is the moment
  // before this choice: marked, so that a program driving the page can tell
  if (page.conn.act(text, seq)) document.body.dataset.sent = String(seq);
}

let toastTimer = null;
// A message for a moment; ``gentle``: a notice that needs no alarm (nothing went wrong
// that the person must mend).
function toast(text, { gentle = false } = {}) {
  const box = $("toast");
  box.textContent = text;
  box.setAttribute("role", gentle ? "status" : "alert");
  box.classList.toggle("gentle", gentle);
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
}


// What to do when the server will not let this link in again.
function stoppedText(msg) {
  switch (msg.code) {
    case "bad-token":
      return "This link does not open a seat at this table any more: ask the host for a new link.";
    case "bot-seat":
      return "A bot plays this seat now: ask the host to give it back to you, or for a new link.";
    case "ended": {
      const why = /closed: (.+)$/.exec(msg.message || "");
      return `This table is closed${why ? ` (${why[1].replace(/\.$/, "")})` : ""}: start a new table from the lobby.`;
    }
    case "no-table":
      return "There is no such table: check the link, or start a new table from the lobby.";
    case "set-aside":
      return "This table cannot be opened just now: ask the host, or start a new table from the lobby.";
    case "too-many-sockets":
      return "Too many table pages are open from this address: close some of them, then reload this page.";
    default:
      return asSentence(msg.message) || "This link does not open this table.";
  }
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
  const conn = new Connection(tableId, page.token, name, {
    welcome: (msg) => {
      page.welcome = msg;
      // the lobby lists the tables this browser sat at
      if (msg.role === "seat") rememberJoined(tableId, page.token, "");
    },
    view: receive,
    waiting: showWaiting,
    message: (msg) => {
      if (msg.type === "device-request") askAboutDevice(msg, (m) => conn.send(m));
      else if (msg.type === "device-request-gone") withdrawDeviceRequest(msg);
      else talk.message(msg);
    },
    refused: (msg) => {
      delete document.body.dataset.sent;
      if (talk.refused(msg)) return;
      if (msg.code === "need-name") {
        conn.close();
        askName((n) => { if (page.conn === conn) connect(n); });
        return;
      }
      if (msg.code === "stale") return; // the current view follows at once
      if (msg.code === "not-stored") {
        // nothing was lost: the choices stay on screen to make again in a moment
        toast(asSentence(msg.message), { gentle: true });
        return;
      }
      toast(msg.message + (msg.allowed ? ` Allowed: ${msg.allowed}` : ""));
    },
    error: (msg) => {
      if (msg.code === "closed" && conn.stopped) return;
      toast(msg.message);
    },
    stopped: (msg) => {
      page.stopped = stoppedText(msg);
      $("status").textContent = page.stopped;
      render(); // the last view drawn stays, with nothing more to choose
    },
    status: setConnection,
  });
  page.conn = conn;
  helpConnection(conn);
  conn.open();
}

// A new view flow: another link of this table opened in this tab (only the #token changed).
function forgetTable() {
  talk.clear();
  if (page.pause) clearTimeout(page.pause.timer);
  Object.assign(page, {
    view: null, welcome: null, pause: null, held: null, heldTrick: null, arriving: null,
    bidChoice: null, decisionKey: "", stopped: null, lastResults: -1, wasMyTurn: false,
  });
  page.selection.clear();
  page.positions.clear();
  delete document.body.dataset.pause;
  delete document.body.dataset.sent;
  delete document.body.dataset.seq;
  delete document.body.dataset.status;
  for (const id of ["sheet-panel", "name-form", "end", "invites", "chooser", "toast"]) $(id).hidden = true;
  for (const id of ["felt", "hand", "controls"]) $(id).replaceChildren();
  for (const id of ["status", "facts", "role", "hand-number"]) $(id).textContent = "";
}

function followLink() {
  const token = tokenInLink();
  if (token === page.token) return;
  if (page.conn) page.conn.close();
  page.conn = null;
  forgetTable();
  page.token = token;
  if (!token) {
    $("status").textContent = NO_TOKEN;
    setConnection("closed");
    return;
  }
  connect(savedName());
}

// "Last trick": shown while pressed, or for a moment after a tap; then the trick in progress.
function showLastTrick(ms) {
  clearTimeout(page.lastTrickTimer);
  page.lastTrickTimer = null;
  const on = ms !== 0;
  if (on && page.view && !page.view.observation.tricks.length) {
    toast("No trick has been completed in this hand yet.", { gentle: true });
    return;
  }
  if (on && ms !== null) page.lastTrickTimer = setTimeout(() => showLastTrick(0), ms);
  page.lastTrickShown = on;
  $("last-trick").setAttribute("aria-pressed", String(on));
  $("last-trick").classList.toggle("selected", on);
  render();
}

function setUpLastTrick() {
  const button = $("last-trick");
  let pressedAt = null;
  button.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    pressedAt = performance.now();
    showLastTrick(null); // as long as it is held
  });
  const release = () => {
    if (pressedAt === null) return;
    const held = performance.now() - pressedAt;
    pressedAt = null;
    if (page.lastTrickShown) showLastTrick(Math.max(0, LAST_TRICK_MS - held) || 0);
  };
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) button.addEventListener(type, release);
  button.addEventListener("contextmenu", (e) => e.preventDefault()); // a long press on a phone
  button.addEventListener("click", (e) => {
    if (e.detail === 0) showLastTrick(LAST_TRICK_MS); // Enter or Space
  });
}

const NO_TOKEN = "This link holds no seat: ask the table's host for your invite link, or start a table from the lobby.";

function setUp() {
  window.addEventListener("hashchange", followLink);
  const sound = $("sound");
  const paint = () => { sound.textContent = settings().sound ? "Sound: on" : "Sound: off"; };
  paint();
  sound.addEventListener("click", () => { saveSettings({ ...settings(), sound: !settings().sound }); paint(); });
  setUpLastTrick();
  setUpHost(tableId, render);
  setUpHelp();
  document.querySelector(".tools").append(fourColourToggle());
  // a tap on the table skips the completed trick's pause
  $("felt").addEventListener("click", () => { if (page.pause) endPause(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && page.pause) endPause(); });
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
  if (!page.token) {
    $("status").textContent = NO_TOKEN;
    return;
  }
  connect(savedName());
}

const talk = setUpTalk({ send: (msg) => Boolean(page.conn && page.conn.send(msg)),
  mySeat: () => (page.welcome && page.welcome.role === "seat" ? page.welcome.seat : null) });
setUp();
