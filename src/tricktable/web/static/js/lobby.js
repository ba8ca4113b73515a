// The lobby: start a table (the game's options with their help texts, seats as people or
// bots by strength), share the invite links (copy, the phone's share sheet, a QR code), see
// the tables started and joined in this browser, join by link.

import {
  forgetJoined, forgetTable, joinedTables, myTables, rememberJoined, rememberName, rememberTable, savedName,
} from "./storage.js";
import { asSentence } from "./text.js";
import { qrSvg } from "./qr.js";
import { copyButton } from "./copy.js";
import { personKey } from "./league/store.js";

const $ = (id) => document.getElementById(id);
let catalogue = null;

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k in e && typeof v !== "string") e[k] = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  setTimeout(() => { box.hidden = true; }, 6000);
}

function currentGame() {
  return catalogue.games.find((g) => g.game === $("game").value);
}

function optionField(o) {
  const id = `opt-${o.name}`;
  let input;
  if (o.type === "bool") {
    input = el("input", { type: "checkbox", id, name: o.name });
    input.checked = Boolean(o.default);
  } else if (o.choices) {
    input = el("select", { id, name: o.name });
    for (const c of o.choices) input.append(el("option", { value: String(c) }, String(c)));
    if (o.default !== null) input.value = String(o.default);
    else {
      input.prepend(el("option", { value: "" }, "choose…"));
      input.value = "";
    }
  } else if (o.type.startsWith("int")) {
    input = el("input", { type: "number", id, name: o.name, step: "1" });
    if (o.default !== null) input.value = String(o.default);
    else input.placeholder = "default";
  } else {
    input = el("input", { id, name: o.name, value: o.default === null ? "" : String(o.default) });
  }
  input.dataset.type = o.type;
  input.addEventListener("change", () => { if (o.name === "players") drawSeats(); });
  const label = el("label", { for: id, class: "option" }, el("span", { class: "option-name" }, o.name.replaceAll("_", " ")), input);
  return el("div", { class: "option-row" }, label, el("p", { class: "help" }, o.doc));
}

function optionValues() {
  const out = {};
  for (const input of $("options").querySelectorAll("input, select")) {
    const type = input.dataset.type;
    if (type === "bool") out[input.name] = input.checked;
    else if (input.value === "") continue;
    else if (type.startsWith("int")) out[input.name] = Number(input.value);
    else out[input.name] = input.value;
  }
  return out;
}

function playerSeats(game) {
  if (game.player_seats) return game.player_seats;
  const players = Number(($("opt-players") || {}).value || 0);
  return players ? [...Array(players).keys()] : [];
}

// A seat is a person or a bot by strength ("Casual bot", "Strong bot"); the bots' own names
// are behind the "More bots" fold, for those who want one in particular.
function levelsOf(game) {
  const known = (game.levels || []).filter((l) => catalogue.bots.some((b) => b.bot === l.bot));
  return known.length ? known : [{ level: "casual", label: "Casual", about: "", bot: catalogue.bots[0].bot }];
}

function botChoices(select, game) {
  for (const l of levelsOf(game)) {
    select.append(el("option", { value: l.bot, "data-level": l.level }, `${l.label} bot`));
  }
  // the bots by name, shown once "More bots" is open (there all along for scripts)
  const byName = el("optgroup", { label: "More bots", hidden: "" });
  for (const b of catalogue.bots) byName.append(el("option", { value: b.bot, hidden: "" }, `bot: ${b.bot}`));
  select.append(byName);
}

function strongest(game) {
  const levels = levelsOf(game);
  return levels[levels.length - 1];
}

// Opening "More bots" shows the bots by name in every seat's choices.
function showBotNames() {
  for (const item of $("seats").querySelectorAll("optgroup, optgroup option")) item.hidden = false;
}

function drawSeats() {
  const game = currentGame();
  const box = $("seats");
  box.replaceChildren(el("legend", {}, "Seats"));
  const seats = playerSeats(game);
  if (!seats.length) {
    box.append(el("p", { class: "muted" }, game.needs || "choose the options first"));
    return;
  }
  for (const s of seats) {
    const select = el("select", { id: `seat-${s}`, "aria-label": `seat ${s}` });
    select.append(el("option", { value: "person" }, s === 0 ? "You" : "Person (invite link)"));
    botChoices(select, game);
    select.value = s === 0 ? "person" : strongest(game).bot;
    box.append(el("label", { class: "seat-choice" }, `Seat ${s} `, select));
  }
  box.append(el("p", { class: "help" }, levelsOf(game).map((l) => `${l.label} bot: ${l.about}`).join(" · ")));
  const more = el("details", { id: "more-bots" }, el("summary", {}, "More bots"),
    el("p", { class: "help" }, "Each seat can also take a bot by its name:"),
    el("ul", { class: "help" }, ...catalogue.bots.map((b) => el("li", {}, el("b", {}, b.bot), `: ${b.description}`))));
  more.addEventListener("toggle", () => { if (more.open) showBotNames(); });
  box.append(more);
  // the stand-in for a friend who left: by strength, like the seats
  const standIn = $("stand-in");
  const before = standIn.selectedOptions[0]?.dataset.level;
  standIn.replaceChildren();
  for (const l of levelsOf(game)) standIn.append(el("option", { value: l.bot, "data-level": l.level }, `${l.label.toLowerCase()} bot`));
  const again = levelsOf(game).find((l) => l.level === before);
  standIn.value = (again || strongest(game)).bot;
}

function drawOptions() {
  const game = currentGame();
  $("game-help").textContent = game.needs ? `Seats: ${game.needs}` : `${game.player_seats.length} players${game.seats > game.player_seats.length ? " and a dummy" : ""}.`;
  const box = $("options");
  box.replaceChildren(el("legend", {}, "Options"));
  for (const o of game.options) box.append(optionField(o));
  drawSeats();
}

// A name: any printable text, at most 40 characters as a reader counts them (an emoji with
// its joiners is one), no control or invisible formatting characters except the joiners and
// the tags of flag emoji. The server checks again (web/names.py); this says it in the form.
const MAX_NAME = 40;
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}]/u;
const ALLOWED_FORMAT = /[\u200c\u200d\u{e0020}-\u{e007f}]/gu;

function characters(text) {
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    return [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].length;
  }
  return [...text].length;
}

function nameProblem(name) {
  if (!name) return "Write your name first: the others see it at the table.";
  if (FORBIDDEN.test(name.replace(ALLOWED_FORMAT, ""))) {
    return "A name cannot hold control or invisible characters (a tab, a line break, a direction mark): letters, digits, punctuation and emoji are all fine.";
  }
  const count = characters(name);
  if (count > MAX_NAME) return `A name has at most ${MAX_NAME} characters (an emoji counts as one); this one has ${count}.`;
  return null;
}

function checkName() {
  const name = $("name").value.trim();
  const problem = name ? nameProblem(name) : null;
  $("name-error").textContent = problem || "";
  $("name").setAttribute("aria-invalid", problem ? "true" : "false");
  if (!problem && name) rememberName(name);
  return problem;
}

async function createTable(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const name = $("name").value.trim();
  const problem = nameProblem(name);
  if (problem) {
    $("create-error").textContent = problem;
    $("name-error").textContent = name ? problem : "";
    $("name").focus();
    return;
  }
  rememberName(name);
  const game = currentGame();
  const seats = {};
  for (const s of playerSeats(game)) seats[String(s)] = $(`seat-${s}`).value;
  const body = {
    game: game.game, options: optionValues(), seats, bot_pace: Number($("pace").value || 1),
    // a friend who leaves is played for by a bot after the grace, until they come back
    away_grace: $("away-on").checked ? Number($("away-grace").value || 60) : null,
    stand_in: $("stand-in").value || strongest(game).bot,
    public: $("public").checked,
  };
  if (group) body.group = group.token; // a table of the group: its games count in its league
  $("create-button").disabled = true;
  try {
    const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const answer = await r.json();
    if (!r.ok) {
      $("create-error").textContent = answer.message || "the table could not be created";
      return;
    }
    const invites = Object.fromEntries(Object.entries(answer.invites).map(([s, i]) => [s, i.url]));
    const mySeat = Object.keys(invites).find((s) => seats[s] === "person" && s === "0") || Object.keys(invites)[0];
    rememberTable({
      id: answer.table, game: game.game, title: game.title, created: new Date().toISOString(),
      host: answer.host_token, spectator: answer.spectator.url, invites, mine: mySeat !== undefined ? invites[mySeat] : answer.spectator.url,
      mySeat,
    });
    showCreated(answer.table, null);
    drawTables();
  } catch (e) {
    $("create-error").textContent = `the server did not answer: ${e}`;
  } finally {
    $("create-button").disabled = false;
  }
}


// One link to pass on: the text (selectable), Share (the phone's share sheet), Copy, a QR code.
function linkRow(label, url) {
  const input = el("input", { readonly: "", value: url, "aria-label": `${label}: link` });
  input.addEventListener("focus", () => input.select());
  const said = el("span", { class: "copy-said", role: "status" });
  const buttons = [];
  if (navigator.share) {
    const share = el("button", { type: "button", class: "share" }, "Share");
    share.addEventListener("click", () => {
      navigator.share({ title: "A seat at a tricktable", text: `${label} at tricktable`, url }).catch(() => {});
    });
    buttons.push(share);
  }
  buttons.push(copyButton(url, input, said));
  const qr = el("details", { class: "qr-box" }, el("summary", {}, "QR code"), qrSvg(url));
  return el("div", { class: "invite" }, el("span", { class: "invite-label" }, label), input, ...buttons, said, qr);
}

// The links of a table the host started: a seat's link only while that seat is open (nobody
// has taken it yet; `open` in the table's summary). openSeats null: just created, all open.
function inviteLinks(t, openSeats) {
  const rows = [];
  for (const [seat, url] of Object.entries(t.invites)) {
    if (seat === t.mySeat) continue;
    if (openSeats && !openSeats.has(Number(seat))) continue;
    rows.push(linkRow(`Seat ${seat}`, url));
  }
  rows.push(linkRow("Spectators", t.spectator));
  return rows;
}

function showCreated(id, openSeats) {
  const t = myTables().find((x) => x.id === id);
  const box = $("created");
  box.hidden = false;
  box.replaceChildren(el("h2", {}, `Table ${id} is ready`));
  box.append(el("p", {}, "Send each friend their own link: whoever opens a link takes that seat. The game starts when every person's seat is taken."));
  box.append(...inviteLinks(t, openSeats));
  if (t.mySeat !== undefined) box.append(el("p", {}, el("a", { href: t.mine, class: "button primary", id: "take-seat" }, `Take your seat (seat ${t.mySeat})`)));
}

function summaryOf(id) {
  return fetch(`/api/tables/${encodeURIComponent(id)}`).then((r) => (r.ok ? r.json() : null));
}

async function drawTables() {
  const list = myTables();
  const box = $("tables");
  if (!list.length) return;
  box.replaceChildren();
  for (const t of list) {
    const row = el("div", { class: "table-row", "data-table": t.id });
    row.append(el("a", { href: t.mine || t.spectator }, `${t.title || t.game} · ${t.id}`), " ");
    const status = el("span", { class: "muted" }, "…");
    row.append(status, " ");
    const forget = el("button", { type: "button" }, "Forget");
    forget.addEventListener("click", () => { forgetTable(t.id); row.remove(); });
    row.append(forget);
    box.append(row);
    summaryOf(t.id).then((s) => {
      if (!s) {
        status.textContent = "gone from this server";
        return;
      }
      const finished = (s.records || []).filter((n) => n < s.game_number || s.status === "over");
      status.textContent = `${s.status}${finished.length ? `, ${finished.length} finished game${finished.length === 1 ? "" : "s"}` : ""}`;
      const token = new URLSearchParams((t.mine || t.spectator).split("#")[1] || "").get("token");
      for (const n of finished) {
        row.append(" ", el("a", { href: `/replay#table=${encodeURIComponent(t.id)}&game=${n}&token=${encodeURIComponent(token)}` }, `replay game ${n + 1}`));
      }
      // links only for the seats nobody has taken yet (and the spectators')
      const open = new Set((s.seats || []).filter((x) => x.open).map((x) => x.seat));
      const waiting = Object.keys(t.invites).filter((seat) => seat !== t.mySeat && open.has(Number(seat)));
      const links = el("details", { class: "links" },
        el("summary", {}, waiting.length ? `Invite links (${waiting.length} seat${waiting.length === 1 ? "" : "s"} open)` : "Spectator link"),
        ...inviteLinks(t, open));
      row.append(links);
    }).catch(() => { status.textContent = "the server did not answer"; });
  }
}

function drawJoined() {
  const mine = new Set(myTables().map((t) => t.id));
  const list = joinedTables().filter((t) => !mine.has(t.id));
  const box = $("joined");
  if (!list.length) return;
  box.replaceChildren();
  for (const t of list) {
    const row = el("div", { class: "table-row", "data-table": t.id });
    const link = el("a", { href: `/play/${encodeURIComponent(t.id)}#token=${encodeURIComponent(t.token)}` }, `${t.title || "table"} · ${t.id}`);
    const status = el("span", { class: "muted" }, "…");
    const forget = el("button", { type: "button" }, "Forget");
    forget.addEventListener("click", () => { forgetJoined(t.id); row.remove(); });
    row.append(link, " ", status, " ", forget);
    box.append(row);
    summaryOf(t.id).then((s) => {
      if (!s) {
        status.textContent = "gone from this server";
        return;
      }
      link.textContent = `${s.title} · ${t.id}`;
      status.textContent = s.status;
    }).catch(() => { status.textContent = "the server did not answer"; });
  }
}

// --- open tables: the public ones, to watch or to sit at -------------------------------------
// GET /api/tables lists the tables their hosts made public; each one's summary says which
// seats are open. A seat or a place among the spectators is asked of the server
// (POST /api/tables/ID/public-link), which answers with a link of the table's own.

const OPEN_TABLES_SHOWN = 20;

async function drawOpenTables() {
  const box = $("open-tables");
  let listed;
  try {
    const r = await fetch("/api/tables");
    listed = r.ok ? await r.json() : [];
  } catch {
    box.replaceChildren(el("p", { class: "muted" }, "The server did not answer; reload the page to look again."));
    return;
  }
  const live = (Array.isArray(listed) ? listed : []).filter((t) => t.status === "waiting" || t.status === "playing");
  const summaries = await Promise.all(live.slice(0, OPEN_TABLES_SHOWN).map((t) => summaryOf(t.table).catch(() => null)));
  const rows = [];
  summaries.forEach((s, i) => {
    if (s && !s.ended && (s.status === "waiting" || s.status === "playing")) rows.push(openTableRow(live[i].table, s));
  });
  box.replaceChildren(...(rows.length ? rows : [el("p", { class: "muted" }, "No open tables just now: start one, and tick “List this table in the lobby”.")]));
}

function openTableRow(id, s) {
  const open = (s.seats || []).filter((x) => x.open);
  const seated = (s.seats || []).filter((x) => !x.open && x.kind !== "dummy").map((x) => x.name).filter(Boolean);
  const row = el("div", { class: "table-row open-table", "data-table": id });
  const what = s.status === "waiting" ? `waiting for ${open.length} player${open.length === 1 ? "" : "s"}` : "playing";
  row.append(el("b", {}, s.title || s.game), " ", el("span", { class: "muted" }, `· ${what}${seated.length ? ` · with ${seated.join(", ")}` : ""}`));
  const said = el("span", { class: "copy-said", role: "status" });
  const buttons = el("div", { class: "choices" });
  const watch = el("button", { type: "button", class: "watch" }, "Watch");
  watch.addEventListener("click", () => takePlace(id, null, said, s));
  buttons.append(watch);
  for (const seat of open) {
    const b = el("button", { type: "button", class: "take-seat primary", "data-seat": String(seat.seat) }, `Take seat ${seat.seat}`);
    b.addEventListener("click", () => takePlace(id, seat.seat, said, s));
    buttons.append(b);
  }
  row.append(buttons, said);
  return row;
}

// Asks the server for a link to a public table's seat (or its spectators' place) and opens it.
async function takePlace(id, seat, said, summary) {
  if (seat !== null) {
    const problem = nameProblem($("name").value.trim());
    if (problem) {
      said.textContent = problem;
      $("name").focus();
      return;
    }
    rememberName($("name").value.trim());
  }
  said.textContent = "…";
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(id)}/public-link`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(seat === null ? {} : { seat }),
    });
    const answer = await r.json().catch(() => ({}));
    if (!r.ok || typeof answer.url !== "string") {
      said.textContent = r.status === 404 || r.status === 405
        ? "This table cannot be joined from the lobby now: ask its host for a link."
        : asSentence(answer.message) || "The server would not open this table: try again in a moment.";
      if (r.status === 409) drawOpenTables(); // the seat was taken meanwhile
      return;
    }
    const url = new URL(answer.url, location.href);
    const token = new URLSearchParams(url.hash.slice(1)).get("token");
    if (seat !== null && token) rememberJoined(id, token, summary.title || "");
    location.href = url.pathname + url.hash;
  } catch (e) {
    said.textContent = `The server did not answer: ${e}`;
  }
}

function join(event) {
  event.preventDefault();
  const text = $("join-link").value.trim();
  try {
    const url = new URL(text, location.href);
    if (!url.pathname.startsWith("/play/") || !url.hash.includes("token=")) throw new Error("not an invite");
    location.href = url.pathname + url.hash;
  } catch {
    toast("That is not an invite link: it looks like http://…/play/TABLE#token=…");
  }
}

// A table started from a league group's page (/#group=TOKEN: a fragment, which no server
// sees): {token, name}, once the group is known; null for an ordinary table.
let group = null;

async function readGroup() {
  const token = new URLSearchParams(location.hash.slice(1)).get("group");
  if (!token || !/^[A-Za-z0-9_-]{16,100}$/.test(token)) return;
  const box = $("group-note");
  try {
    const r = await fetch(`/api/groups/${encodeURIComponent(token)}`, {
      headers: personKey() ? { "x-person-key": personKey() } : {},
    });
    const answer = await r.json();
    if (!r.ok) {
      box.textContent = answer.message || "This group's link does not open a group.";
      box.hidden = false;
      return;
    }
    group = { token, name: answer.name };
    box.replaceChildren(
      `This table belongs to ${answer.name}: its seats are for the group's members, and every finished game counts in its league. `,
      el("a", { href: `/league/${encodeURIComponent(token)}` }, `Back to ${answer.name}'s page`));
    box.hidden = false;
    $("public").checked = false;
    $("public").disabled = true; // a group's table is the group's, not the lobby's
  } catch {
    box.textContent = "The server did not answer about the group; reload the page.";
    box.hidden = false;
  }
}

async function setUp() {
  readGroup();
  $("name").value = savedName();
  $("name").addEventListener("input", checkName);
  $("create").addEventListener("submit", createTable);
  $("join").addEventListener("submit", join);
  try {
    const r = await fetch("/api/games");
    catalogue = await r.json();
  } catch {
    $("create-error").textContent = "The server did not answer; reload the page.";
    return;
  }
  for (const g of catalogue.games) $("game").append(el("option", { value: g.game }, g.title));
  const wanted = new URLSearchParams(location.search).get("game");
  $("game").value = catalogue.games.some((g) => g.game === wanted) ? wanted : "dummy-hand-spades";
  $("game").addEventListener("change", drawOptions);
  drawOptions();
  drawTables();
  drawJoined();
  drawOpenTables();
}

setUp();
