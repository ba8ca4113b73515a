// The replay viewer: a record (uploaded, or a finished game of a table) stepped through
// hand by hand, trick by trick, action by action, with every hand open or as one seat saw it.

import { arrange, cardElement } from "./cards.js";
import { drawFelt, lowHand, trumpOf } from "./felt.js";
import { scoreSheet } from "./scoresheet.js";

const $ = (id) => document.getElementById(id);
const state = { text: null, data: null, at: 0 };

function seatLabel(seat) {
  const name = state.data.players[String(seat)];
  return name ? `${name} (seat ${seat})` : `seat ${seat}`;
}

function sideLabel(key) {
  const name = state.data.sides[key] || key;
  const m = /^seat (\d+)$/.exec(name);
  return m ? seatLabel(Number(m[1])) : name;
}

async function load(seat) {
  $("error").textContent = "";
  const r = await fetch(`/api/replay?seat=${encodeURIComponent(seat)}`, { method: "POST", body: state.text });
  const answer = await r.json();
  if (!r.ok) {
    $("error").textContent = answer.message || "the record could not be read";
    return;
  }
  const keepAt = state.data ? state.at : 0;
  state.data = answer;
  $("title").textContent = `Replay: ${answer.title}`;
  const select = $("seat");
  if (select.options.length === 1) {
    for (const s of answer.player_seats) select.append(new Option(`as ${seatLabel(s)} saw it`, String(s)));
  }
  $("slider").max = String(answer.frames.length - 1);
  $("viewer").hidden = false;
  show(Math.min(keepAt, answer.frames.length - 1));
}

function show(at) {
  const frames = state.data.frames;
  state.at = Math.max(0, Math.min(at, frames.length - 1));
  const f = frames[state.at];
  const obs = f.observation;
  const info = obs.info || {};
  const view = state.data.view;
  $("slider").value = String(state.at);
  $("label").textContent = `${f.label} (${state.at + 1} of ${frames.length})`;
  $("facts").textContent = [info.contract && `contract ${info.contract}`, info.declarer !== undefined && info.declarer !== null && `declarer ${seatLabel(info.declarer)}`,
    Array.isArray(info.bids) && `bids ${info.bids.map((b) => (b && typeof b === "object" ? b.tricks : b ?? "–")).join(", ")}`].filter(Boolean).join(" · ");
  const viewer = view === "all" ? null : view;
  drawFelt($("felt"), {
    game: state.data.game, info, obs, around: f.around, viewer: viewer ?? f.around[0],
    seatsMeta: {}, seatLabel, bidText: () => "", toAct: obs.to_act, clickable: new Map(),
    onPlay: () => {}, showLastTrick: false, allOpen: view === "all",
  });
  const hand = $("hand");
  hand.replaceChildren();
  if (viewer !== null) {
    for (const c of arrange(obs.hand, trumpOf(state.data.game, info), lowHand(state.data.game, info))) hand.append(cardElement(c));
  }
  $("sheet").replaceChildren(scoreSheet(f.results, state.data.sides, sideLabel));
}

// the next moment at which ``test`` holds, going ``dir`` (+1 or -1)
function seek(dir, test) {
  const frames = state.data.frames;
  let i = state.at + dir;
  while (i > 0 && i < frames.length - 1 && !test(frames[i], frames[i - dir])) i += dir;
  show(i);
}

const trickEnds = (f, before) => f.tricks_done !== before.tricks_done || f.hand !== before.hand;
const handStarts = (f, before) => f.hand !== before.hand;

function setUp() {
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    if (!file) return;
    if (file.size > 8 * 1024 * 1024) {
      $("error").textContent = "a record is at most 8 MiB";
      return;
    }
    state.text = await file.text();
    state.data = null;
    await load($("seat").value);
  });
  $("seat").addEventListener("change", () => load($("seat").value));
  $("step-on").addEventListener("click", () => show(state.at + 1));
  $("step-back").addEventListener("click", () => show(state.at - 1));
  $("trick-on").addEventListener("click", () => seek(1, trickEnds));
  $("trick-back").addEventListener("click", () => seek(-1, trickEnds));
  $("hand-on").addEventListener("click", () => seek(1, handStarts));
  $("hand-back").addEventListener("click", () => seek(-1, handStarts));
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  document.addEventListener("keydown", (e) => {
    if (!state.data || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const keys = { ArrowRight: () => show(state.at + 1), ArrowLeft: () => show(state.at - 1),
      PageDown: () => seek(1, trickEnds), PageUp: () => seek(-1, trickEnds),
      End: () => seek(1, handStarts), Home: () => seek(-1, handStarts) };
    if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
  });
  const from = new URLSearchParams(location.hash.slice(1));
  if (from.get("table")) {
    const url = `/api/tables/${encodeURIComponent(from.get("table"))}/records/${encodeURIComponent(from.get("game") || "0")}`;
    fetch(url, { headers: { authorization: `Bearer ${from.get("token") || ""}` } }).then(async (r) => {
      if (!r.ok) {
        $("error").textContent = (await r.json()).message || "the record could not be fetched";
        return;
      }
      state.text = await r.text();
      $("open-record").hidden = true;
      await load("all");
    });
  }
}

setUp();
