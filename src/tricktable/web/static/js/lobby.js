// The lobby: start a table (the game's options with their help texts, seats as people or
// bots), copy the invite links, see the tables started in this browser, join by link.

import { forgetTable, myTables, rememberName, rememberTable, savedName } from "./storage.js";

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
    select.append(el("option", { value: "person" }, s === 0 ? "you" : "a person (invite link)"));
    for (const b of catalogue.bots) select.append(el("option", { value: b.bot }, `bot: ${b.bot}`));
    // the game's default opponent (the strongest bot measured for it), else rules
    const preferred = [game.default_bot, "rules"].find((name) => catalogue.bots.some((b) => b.bot === name));
    select.value = s === 0 ? "person" : (preferred || catalogue.bots[0].bot);
    box.append(el("label", { class: "seat-choice" }, `Seat ${s} `, select));
  }
  box.append(el("p", { class: "help" }, catalogue.bots.map((b) => `${b.bot}: ${b.description}`).join(" · ")));
}

function drawOptions() {
  const game = currentGame();
  $("game-help").textContent = game.needs ? `Seats: ${game.needs}` : `${game.player_seats.length} players${game.seats > game.player_seats.length ? " and a dummy" : ""}.`;
  const box = $("options");
  box.replaceChildren(el("legend", {}, "Options"));
  for (const o of game.options) box.append(optionField(o));
  drawSeats();
}

async function createTable(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const name = $("name").value.trim();
  if (!name) {
    $("create-error").textContent = "Write your name first: the others see it at the table.";
    $("name").focus();
    return;
  }
  rememberName(name);
  const game = currentGame();
  const seats = {};
  for (const s of playerSeats(game)) seats[String(s)] = $(`seat-${s}`).value;
  const body = { game: game.game, options: optionValues(), seats, bot_pace: Number($("pace").value || 1) };
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
    showCreated(answer.table);
    drawTables();
  } catch (e) {
    $("create-error").textContent = `the server did not answer: ${e}`;
  } finally {
    $("create-button").disabled = false;
  }
}

function linkRow(label, url) {
  const input = el("input", { readonly: "", value: url, "aria-label": label });
  const copy = el("button", { type: "button" }, "Copy");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied";
    } catch {
      input.select();
      copy.textContent = "Press Ctrl+C";
    }
  });
  return el("div", { class: "invite" }, el("span", { class: "invite-label" }, label), input, copy);
}

function showCreated(id) {
  const t = myTables().find((x) => x.id === id);
  const box = $("created");
  box.hidden = false;
  box.replaceChildren(el("h2", {}, `Table ${id} is ready`));
  box.append(el("p", {}, "Send each friend their own link: whoever opens a link takes that seat. The game starts when every person's seat is taken."));
  for (const [seat, url] of Object.entries(t.invites)) {
    if (seat === t.mySeat) continue;
    box.append(linkRow(`Seat ${seat}`, url));
  }
  box.append(linkRow("Spectators", t.spectator));
  if (t.mySeat !== undefined) box.append(el("p", {}, el("a", { href: t.mine, class: "button primary", id: "take-seat" }, `Take your seat (seat ${t.mySeat})`)));
}

async function drawTables() {
  const list = myTables();
  const box = $("tables");
  if (!list.length) return;
  box.replaceChildren();
  for (const t of list) {
    const row = el("div", { class: "table-row" });
    row.append(el("a", { href: t.mine || t.spectator }, `${t.title || t.game} · ${t.id}`), " ");
    const status = el("span", { class: "muted" }, "…");
    row.append(status, " ");
    const show = el("button", { type: "button" }, "Links");
    show.addEventListener("click", () => showCreated(t.id));
    const forget = el("button", { type: "button" }, "Forget");
    forget.addEventListener("click", () => { forgetTable(t.id); row.remove(); });
    row.append(show, " ", forget);
    box.append(row);
    fetch(`/api/tables/${encodeURIComponent(t.id)}`).then((r) => (r.ok ? r.json() : null)).then((s) => {
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
    }).catch(() => { status.textContent = "the server did not answer"; });
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

async function setUp() {
  $("name").value = savedName();
  $("name").addEventListener("change", () => rememberName($("name").value.trim()));
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
}

setUp();
