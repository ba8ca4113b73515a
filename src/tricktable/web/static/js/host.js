// The host's controls on the table page, for a table this browser created (storage.js keeps
// its host token): each player seat with whether its person is here, and the host's say
// over it (a bot in, the seat given back, a new link, the chat muted); spectators' chat;
// the end of the table. Everything is asked of the server (docs/protocol.md, the host
// token's requests); what changes comes back in the next view, as for everyone.

import { hostTokenFor, myTables, rememberTable } from "./storage.js";
import { asSentence } from "./text.js";

const state = {
  tableId: null,
  token: null,
  view: null,
  drawnKey: "", // the seats and status last drawn: a view that changes neither is not redrawn
  levels: null, // [{level, label, about, bot}] of the table's game, from /api/games
  levelsAsked: false,
  levelChoice: {}, // seat: the bot picked in its level picker
  links: {}, // seat: the new link made this visit, shown until the page is left
  spectatorsChat: false, // the server's default; its answer to each toggle corrects it
  confirmingEnd: false,
  error: "",
  box: null, // the panel, in
  overlay: null, // the overlay that shows it (hidden: closed)
  close: null,
  redraw: null,
};

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}


// One request with the host token; the answer's JSON, or throws the server's sentence.
async function ask(path, body) {
  let r;
  try {
    r = await fetch(`/api/tables/${encodeURIComponent(state.tableId)}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${state.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Error("The server did not answer: nothing was changed; try again in a moment.");
  }
  let answer = {};
  try {
    answer = await r.json();
  } catch {
    /* no JSON: the status says enough */
  }
  if (!r.ok) throw new Error(asSentence(answer.message) || `The server refused it (${r.status}).`);
  return answer;
}

// Runs a host request; its error, if any, is shown in the panel until the next request.
async function act(request) {
  state.error = "";
  try {
    await request();
  } catch (e) {
    state.error = e.message;
  }
  draw(true);
}

async function loadLevels(game) {
  try {
    const r = await fetch("/api/games");
    const catalogue = await r.json();
    const entry = catalogue.games.find((g) => g.game === game);
    state.levels = entry && entry.levels.length ? entry.levels : [];
  } catch {
    state.levels = [];
  }
  draw(true);
}

function seatState(s) {
  if (s.kind === "bot") return "a bot plays this seat";
  if (s.open) return "open: nobody has taken it yet";
  if (s.stand_in) return "away: a bot plays for now";
  if (s.away || !s.devices) return "away";
  return `connected on ${s.devices} device${s.devices === 1 ? "" : "s"}`;
}

function seatName(s) {
  if (s.kind === "bot") return s.name || "Bot";
  return s.name || `Seat ${s.seat}`;
}

function newLinkRow(seat, url) {
  const input = el("input", { readonly: "", value: url, "aria-label": `new link for seat ${seat}` });
  input.addEventListener("focus", () => input.select());
  const copy = el("button", { type: "button" }, "Copy");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied";
    } catch {
      input.select();
      copy.textContent = "Select the link and copy it";
    }
  });
  return el("div", { class: "host-link" }, input, copy);
}

// Keeps the lobby's list and the page's invite panel on the seat's newest link (the view
// that told of the new link came before this answer: the page draws again).
function rememberLink(seat, url) {
  const entry = myTables().find((t) => t.id === state.tableId);
  if (!entry) return;
  rememberTable({ ...entry, invites: { ...(entry.invites || {}), [String(seat)]: url } });
  if (state.redraw) state.redraw();
}

function seatRow(s, v) {
  const you = v.you.seat === s.seat;
  const row = el("li", { class: "host-seat", "data-seat": String(s.seat) });
  const name = el("strong", { class: "host-seat-name" }, seatName(s) + (you ? " (you)" : ""));
  const facts = [seatState(s)];
  if (s.muted) facts.push("chat muted");
  row.append(name, " ", el("span", { class: "host-seat-state" }, facts.join(", ")));
  if (you || v.status === "ended") return row; // the host's own seat stays theirs here
  const buttons = el("div", { class: "host-actions" });
  if (s.kind === "person") {
    const levels = state.levels || [];
    if (levels.length) {
      const picker = el("select", { "aria-label": `bot for seat ${s.seat}` });
      const chosen = state.levelChoice[s.seat] || levels[0].bot;
      for (const level of levels) {
        const option = el("option", { value: level.bot, title: level.about }, level.label);
        option.selected = level.bot === chosen;
        picker.append(option);
      }
      picker.addEventListener("change", () => { state.levelChoice[s.seat] = picker.value; });
      const put = el("button", { type: "button" }, "Put a bot in");
      put.addEventListener("click", () => act(() => ask(`/seats/${s.seat}`, { do: "bot", bot: picker.value })));
      buttons.append(picker, put);
    }
  } else {
    const back = el("button", { type: "button" }, "Give back");
    back.title = "a person plays this seat again (a seat that was a bot from the start gets a new link)";
    back.addEventListener("click", () => act(async () => {
      const answer = await ask(`/seats/${s.seat}`, { do: "return" });
      if (answer.url) {
        state.links[s.seat] = answer.url;
        rememberLink(s.seat, answer.url);
      }
    }));
    buttons.append(back);
  }
  const link = el("button", { type: "button" }, "New link");
  link.title = "a new invite link for this seat; the old link stops working";
  link.addEventListener("click", () => act(async () => {
    const answer = await ask(`/seats/${s.seat}`, { do: "open" });
    state.links[s.seat] = answer.url;
    rememberLink(s.seat, answer.url);
  }));
  buttons.append(link);
  if (s.kind === "person" && !s.open) {
    const mute = el("button", { type: "button" }, s.muted ? "Unmute" : "Mute");
    mute.addEventListener("click", () => act(() => ask("/talk", s.muted ? { unmute: s.seat } : { mute: s.seat })));
    buttons.append(mute);
  }
  row.append(buttons);
  if (state.links[s.seat]) row.append(newLinkRow(s.seat, state.links[s.seat]));
  return row;
}

function tableRow(v) {
  const box = el("div", { class: "host-table" });
  if (v.status === "ended") {
    box.append(el("p", {}, "This table is closed: nobody can play at it any more."));
    return box;
  }
  const toggle = el("input", { type: "checkbox", id: "host-spectators" });
  toggle.checked = state.spectatorsChat;
  toggle.addEventListener("change", () => act(async () => {
    const answer = await ask("/talk", { spectators: toggle.checked });
    state.spectatorsChat = Boolean(answer.spectators);
  }));
  box.append(el("label", { class: "host-toggle" }, toggle, " Let spectators chat"));
  if (state.confirmingEnd) {
    const yes = el("button", { type: "button", class: "danger" }, "Yes, end it for good");
    yes.addEventListener("click", () => act(async () => {
      state.confirmingEnd = false;
      await ask("/end");
    }));
    const no = el("button", { type: "button" }, "Keep playing");
    no.addEventListener("click", () => { state.confirmingEnd = false; draw(true); });
    box.append(el("p", { class: "host-confirm" }, "End this table for everyone? Nobody can play at it after this. ", yes, " ", no));
  } else {
    const end = el("button", { type: "button", class: "danger" }, "End the table");
    end.addEventListener("click", () => { state.confirmingEnd = true; draw(true); });
    box.append(end);
  }
  return box;
}

function draw(force = false) {
  const v = state.view;
  const box = state.box;
  if (!v || !box || state.overlay.hidden) return;
  const players = v.seats.filter((s) => s.kind !== "dummy");
  const key = JSON.stringify([players, v.status]);
  if (!force && key === state.drawnKey) return; // a redraw would take the focus away
  state.drawnKey = key;
  const close = el("button", { type: "button", class: "primary host-close" }, "Close");
  close.addEventListener("click", state.close);
  box.replaceChildren(
    el("h2", {}, "Host: the seats and the table"),
    el("ul", { class: "host-seats" }, ...players.map((s) => seatRow(s, v))),
    tableRow(v),
  );
  if (state.error) box.append(el("p", { class: "host-error", role: "alert" }, state.error));
  box.append(close);
}

// Adds the "Host" button and its panel when this browser created table ``tableId``;
// ``redraw`` draws the page again (its invite panel shows the links storage.js keeps).
export function setUpHost(tableId, redraw) {
  const token = hostTokenFor(tableId);
  if (!token) return;
  Object.assign(state, { tableId, token, redraw });
  const tools = document.querySelector("nav.tools");
  const button = el("button", { type: "button", id: "host-button", "aria-expanded": "false" }, "Host");
  // an overlay like the score sheet's: the page's grid stays as it is under it
  const overlay = el("section", { id: "host-panel", class: "overlay", "aria-label": "the host's controls" });
  const box = el("div", { class: "panel host-panel" });
  overlay.append(box);
  overlay.hidden = true;
  state.box = box;
  state.overlay = overlay;
  const show = (open) => {
    overlay.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    draw(true);
  };
  state.close = () => show(false);
  button.addEventListener("click", () => show(overlay.hidden));
  overlay.addEventListener("click", (e) => { if (e.target === overlay) show(false); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !overlay.hidden) show(false); });
  tools.append(button);
  document.body.append(overlay);
}

// Each view drawn on the page: the panel follows the seats.
export function updateHost(view) {
  if (!state.token || view.table !== state.tableId) return;
  state.view = view;
  if (typeof view.spectators_chat === "boolean") state.spectatorsChat = view.spectators_chat;
  if (!state.levelsAsked) {
    state.levelsAsked = true;
    loadLevels(view.game);
  }
  draw();
}
