// The replay viewer: a record (uploaded, or a finished game of a table) stepped through
// hand by hand, trick by trick, action by action, with every hand open or as one seat saw it.
// The server answers a record's outline (its hands and their results) first, then one hand's
// frames at a time, asked for when the person moves to that hand (docs/protocol.md).

import { arrange, cardElement } from "./cards.js";
import { drawFelt, lowHand, trumpOf } from "./felt.js";
import { scoreSheet } from "./scoresheet.js";

const $ = (id) => document.getElementById(id);
const KEEP_HANDS = 12; // hands' frames kept in memory; the others are asked for again
const BUSY_TRIES = 6; // a busy server is asked again this many times, a second or so apart

const state = {
  text: null, // the record
  outline: null, // the server's outline: the game's facts, hands, results
  starts: [], // per hand (from 0), the game-wide index of its first moment
  total: 0, // moments in the whole game
  frames: new Map(), // "view/hand" -> that hand's frames
  hand: 1, // the hand shown (from 1) and the moment in it
  at: 0,
  wanted: 0, // the latest move asked for: an answer to an earlier one is not shown
};

function seatLabel(seat) {
  const name = state.outline.players[String(seat)];
  return name ? `${name} (seat ${seat})` : `seat ${seat}`;
}

function sideLabel(key) {
  const name = state.outline.sides[key] || key;
  const m = /^seat (\d+)$/.exec(name);
  return m ? seatLabel(Number(m[1])) : name;
}

const pause = (seconds) => new Promise((done) => setTimeout(done, 1000 * seconds));

// the server's answer for ``query``; asks again while the server is busy replaying
async function ask(query) {
  for (let tries = 1; ; tries++) {
    const r = await fetch(`/api/replay?${query}`, { method: "POST", body: state.text });
    const answer = await r.json().catch(() => ({}));
    if (r.status === 503 && tries < BUSY_TRIES) {
      $("error").textContent = `${answer.message || "the server is busy"} (asking again)`;
      await pause(Number(r.headers.get("retry-after")) || 1);
      continue;
    }
    if (!r.ok) throw new Error(answer.message || "the record could not be read");
    $("error").textContent = "";
    return answer;
  }
}

async function framesOf(hand) {
  const view = $("seat").value;
  const key = `${view}/${hand}`;
  if (!state.frames.has(key)) {
    const answer = await ask(`seat=${encodeURIComponent(view)}&hand=${hand}`);
    state.frames.set(key, answer.frames);
    if (state.frames.size > KEEP_HANDS) state.frames.delete(state.frames.keys().next().value);
  }
  return state.frames.get(key);
}

async function open() {
  $("error").textContent = "";
  state.outline = null;
  state.frames.clear();
  let outline;
  try {
    outline = await ask("seat=all");
  } catch (e) {
    $("error").textContent = e.message;
    return;
  }
  state.outline = outline;
  state.starts = [];
  state.total = 0;
  for (const h of outline.hands) {
    state.starts.push(state.total);
    state.total += h.moments;
  }
  $("title").textContent = `Replay: ${outline.title}`;
  const select = $("seat");
  if (select.options.length === 1) {
    for (const s of outline.player_seats) select.append(new Option(`as ${seatLabel(s)} saw it`, String(s)));
  }
  $("slider").max = String(Math.max(0, state.total - 1));
  if (!outline.hands.length) {
    $("error").textContent = "the record holds no hand";
    return;
  }
  $("viewer").hidden = false;
  await go(1, 0);
}

// The double-dummy review of the hand shown, in the server's sentences: the par, each card
// that cost its side tricks (a button goes to the moment it was played), the nils.
async function review() {
  const box = $("review");
  const hand = state.hand;
  box.hidden = false;
  box.replaceChildren(Object.assign(document.createElement("p"), {
    className: "muted", textContent: `Reviewing hand ${hand} double dummy…` }));
  let answer;
  try {
    answer = await ask(`hand=${hand}&review=1`);
  } catch (e) {
    box.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: e.message }));
    return;
  }
  if (hand !== state.hand) return; // the person moved on meanwhile
  const h = document.createElement("h2");
  h.textContent = `Hand ${answer.hand}, double dummy`;
  const lines = [answer.par, answer.summary].filter(Boolean).map((text) =>
    Object.assign(document.createElement("p"), { textContent: text }));
  const list = document.createElement("ul");
  for (const c of answer.cards) {
    const li = document.createElement("li");
    li.textContent = `${c.line} `;
    if (c.at !== null) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = "show";
      b.addEventListener("click", () => go(answer.hand, c.at));
      li.append(b);
    }
    list.append(li);
  }
  for (const line of answer.nils) list.append(Object.assign(document.createElement("li"), { textContent: line }));
  box.replaceChildren(h, ...lines, list);
}

// show moment ``at`` of hand ``hand`` (``at`` -1: its last), once its frames are here
async function go(hand, at) {
  if (!state.outline) return;
  const ticket = ++state.wanted;
  hand = Math.max(1, Math.min(hand, state.outline.hands.length));
  let frames;
  try {
    frames = await framesOf(hand);
  } catch (e) {
    $("error").textContent = e.message;
    return;
  }
  if (ticket !== state.wanted) return; // the person has moved on meanwhile
  if (hand !== state.hand) $("review").hidden = true; // a review is of the hand it was asked for
  state.hand = hand;
  state.at = at < 0 ? frames.length - 1 : Math.max(0, Math.min(at, frames.length - 1));
  draw(frames[state.at]);
}

function draw(f) {
  const obs = f.observation;
  const info = obs.info || {};
  const view = $("seat").value;
  const moment = state.starts[state.hand - 1] + state.at;
  $("slider").value = String(moment);
  $("label").textContent = `${f.label} (${moment + 1} of ${state.total})`;
  // the game's words for the moment where the frame carries them (the facts, the line
  // under each seat), else a few facts as they stand
  const said = f.words || null;
  $("facts").textContent = said ? (said.facts || []).join(" · ") : [info.contract && `contract ${info.contract}`, info.declarer !== undefined && info.declarer !== null && `declarer ${seatLabel(info.declarer)}`,
    Array.isArray(info.bids) && `bids ${info.bids.map((b) => (b && typeof b === "object" ? b.tricks : b ?? "–")).join(", ")}`].filter(Boolean).join(" · ");
  const viewer = view === "all" ? null : Number(view);
  // after a trick's last card the engine's table is already clear for the next trick: the
  // frame carries the trick just completed, drawn as the felt draws a last trick
  const shown = f.last_trick ? { ...obs, tricks: [f.last_trick] } : obs;
  drawFelt($("felt"), {
    info, obs: shown, around: f.around, viewer: viewer ?? f.around[0],
    seatsMeta: {}, seatLabel, bidText: (seat) => (said && said.seats && said.seats[String(seat)]) || "",
    toAct: obs.to_act, clickable: new Map(),
    trump: said ? said.trumps ?? null : undefined, low: said ? Boolean(said.low) : undefined,
    onPlay: () => {}, showLastTrick: Boolean(f.last_trick), allOpen: viewer === null,
  });
  const hand = $("hand");
  hand.replaceChildren();
  if (viewer !== null) {
    const trump = said ? said.trumps ?? null : trumpOf(info);
    for (const c of arrange(obs.hand, trump, said ? Boolean(said.low) : lowHand(info))) hand.append(cardElement(c));
  }
  $("sheet").replaceChildren(scoreSheet(state.outline.results.slice(0, f.scored), state.outline.sides, sideLabel));
}

// the frames of the hand shown, in the view chosen (null while they are on their way)
function here() {
  return state.frames.get(`${$("seat").value}/${state.hand}`) || null;
}

function step(dir) {
  const frames = here();
  if (!frames) return null;
  const at = state.at + dir;
  if (at >= 0 && at < frames.length) go(state.hand, at);
  else if (dir > 0 && state.hand < state.outline.hands.length) go(state.hand + 1, 0);
  else if (dir < 0 && state.hand > 1) go(state.hand - 1, -1);
}

// the next trick's end (its last card played), or the next hand's deal
function trickOn() {
  const frames = here();
  if (!frames) return null;
  for (let i = state.at + 1; i < frames.length; i++) {
    if (frames[i].tricks_done !== frames[i - 1].tricks_done) return go(state.hand, i);
  }
  if (state.hand < state.outline.hands.length) return go(state.hand + 1, 0);
  return go(state.hand, -1);
}

// the previous trick's end, or this hand's deal, or the previous hand's end
function trickBack() {
  const frames = here();
  if (!frames) return null;
  for (let i = state.at - 1; i > 0; i--) {
    if (frames[i].tricks_done !== frames[i - 1].tricks_done) return go(state.hand, i);
  }
  if (state.at > 0) return go(state.hand, 0);
  if (state.hand > 1) return go(state.hand - 1, -1);
  return null;
}

function handOn() {
  if (state.hand < state.outline.hands.length) go(state.hand + 1, 0);
  else go(state.hand, -1);
}

function handBack() {
  if (state.at > 0 || state.hand === 1) go(state.hand, 0);
  else go(state.hand - 1, 0);
}

// a moment of the whole game (the slider) as a hand and a moment in it
function goToMoment(moment) {
  let hand = 1;
  while (hand < state.starts.length && state.starts[hand] <= moment) hand++;
  go(hand, moment - state.starts[hand - 1]);
}

function setUp() {
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    if (!file) return;
    if (file.size > 8 * 1024 * 1024) {
      $("error").textContent = "a record is at most 8 MiB";
      return;
    }
    state.text = await file.text();
    await open();
  });
  $("seat").addEventListener("change", () => go(state.hand, state.at));
  $("step-on").addEventListener("click", () => step(1));
  $("step-back").addEventListener("click", () => step(-1));
  $("trick-on").addEventListener("click", trickOn);
  $("trick-back").addEventListener("click", trickBack);
  $("hand-on").addEventListener("click", handOn);
  $("hand-back").addEventListener("click", handBack);
  $("review-hand").addEventListener("click", review);
  $("slider").addEventListener("input", () => goToMoment(Number($("slider").value)));
  document.addEventListener("keydown", (e) => {
    if (!state.outline || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const keys = { ArrowRight: () => step(1), ArrowLeft: () => step(-1),
      PageDown: trickOn, PageUp: trickBack, End: handOn, Home: handBack };
    if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
  });
  window.addEventListener("hashchange", openLinkedRecord);
  openLinkedRecord();
}

// A table's finished game named in the link's #fragment (table, game, token); another such
// link opened in this tab (only the fragment changes) opens its record in place.
async function openLinkedRecord() {
  const from = new URLSearchParams(location.hash.slice(1));
  if (!from.get("table")) return;
  const url = `/api/tables/${encodeURIComponent(from.get("table"))}/records/${encodeURIComponent(from.get("game") || "0")}`;
  const ticket = ++state.wanted;
  const r = await fetch(url, { headers: { authorization: `Bearer ${from.get("token") || ""}` } });
  if (ticket !== state.wanted) return; // a newer link was opened meanwhile
  if (!r.ok) {
    $("error").textContent = (await r.json().catch(() => ({}))).message || "the record could not be fetched";
    return;
  }
  state.text = await r.text();
  if (ticket !== state.wanted) return;
  $("open-record").hidden = true;
  const select = $("seat");
  while (select.options.length > 1) select.remove(1); // another record may have other seats
  select.value = "all";
  await open();
  // a link to one hand, and its review (the table's "review" links)
  const hand = Number(from.get("hand") || 0);
  if (hand > 1) await go(hand, 0);
  if (from.get("review") === "1") await review();
}

setUp();
