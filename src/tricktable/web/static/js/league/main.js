// The league's page: /league (start a group, the groups this browser knows, a code from
// another device) and /league/TOKEN (a group: its views, joining it, oneself). The group's
// token is read from the page's own address; a person key arriving in the fragment
// (#key=..., from "Use on another device") is kept and wiped from the address at once.

import { api, ApiError, groupPath } from "./api.js";
import { $, el, toast } from "./dom.js";
import { invitePanel, joinPanel, mePanel, sessionPanel, startTablePanel, useCode } from "./person.js";
import { KEY_SHAPE, forgetGroup, knownGroups, personKey, rememberGroup, rememberKey } from "./store.js";
import {
  cardView, gamesView, h2hView, sheetView, stakesView, standingsView, weekView,
} from "./views.js";
import { plural } from "./words.js";
import { rememberName, savedName } from "../storage.js";

const TABS = [
  ["standings", "Standings"], ["sheet", "3B sheet"], ["week", "Week"], ["stakes", "Stakes"],
  ["h2h", "Head to head"], ["games", "Games"], ["people", "People"],
];
const DRAW = {
  standings: standingsView, sheet: sheetView, week: weekView, stakes: stakesView, h2h: h2hView,
  games: gamesView, card: cardView,
};
// the parameters each view takes from the page's address, passed on to its API route
const PARAMS = { standings: ["year"], sheet: ["year"], week: ["day"], stakes: ["session"], h2h: ["game"], card: ["person"] };

const state = { token: null, group: null, games: [], you: null, me: null };

// --- a key from another device ---------------------------------------------------------------

async function takeKeyFromFragment() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const key = hash.get("key");
  if (!key) return null;
  // out of the address bar and the history before anything else
  history.replaceState(null, "", location.pathname + location.search);
  if (!KEY_SHAPE.test(key)) return "That link holds no person key: copy it again from the other device.";
  try {
    const person = await useCode(key);
    return `This device now plays as ${person}.`;
  } catch (e) {
    return e.message;
  }
}

async function whoAmI() {
  if (!personKey()) return null;
  try {
    return (await api("/api/people/me")).person;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null; // a key this server does not know
    throw e;
  }
}

// --- the home page: start a group --------------------------------------------------------------

function timeZones() {
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  let zones = [];
  try { zones = Intl.supportedValuesOf("timeZone"); } catch { zones = []; }
  if (!zones.includes(here)) zones.unshift(here);
  if (!zones.includes("UTC")) zones.push("UTC");
  return { here, zones };
}

function drawHome(notice) {
  document.title = "The league · tricktable";
  $("title").textContent = "The league";
  $("tabs").hidden = true;
  const main = $("view");
  const { here, zones } = timeZones();
  const zone = el("select", { id: "group-zone", "aria-label": "time zone" }, zones.map((z) => el("option", { value: z }, z.replace(/_/g, " "))));
  zone.value = here;
  const groupName = el("input", { id: "group-name", maxlength: 100, placeholder: "Lunch at the office", required: true });
  const you = el("input", { id: "founder-name", autocomplete: "nickname", maxlength: 100 });
  you.value = savedName();
  const error = el("p", { class: "error", role: "alert", id: "create-error" });
  const form = el("form", { class: "panel", id: "create-group" }, el("h2", {}, "Start a group"),
    el("p", {}, "A group keeps score across games, sessions and years: stars, streaks, trays, stakes. Its page is reached only by its link: share it with the members."),
    el("label", { class: "field" }, "The group's name ", groupName),
    el("label", { class: "field" }, "Its time zone (a game's day is the date there) ", zone),
    state.me ? el("p", {}, `You join it as ${state.me}.`) : el("label", { class: "field" }, "Your name ", you),
    el("button", { type: "submit", class: "primary", id: "create-button" }, "Start the group"), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const made = await api("/api/groups", { method: "POST", body: { name: groupName.value.trim(), time_zone: zone.value } });
      rememberGroup(made.token, made.group);
      const joined = await api(groupPath(made.token, "/join"), { method: "POST", body: { name: state.me || you.value.trim() } });
      rememberKey(joined.key);
      rememberName(joined.person);
      location.href = made.link;
    } catch (e) {
      error.textContent = e.message;
    }
  });
  const groups = knownGroups();
  const list = el("section", { class: "panel", id: "known-groups" }, el("h2", {}, "Your groups"),
    groups.length ? el("ul", {}, groups.map((g) => el("li", {}, el("a", { href: `/league/${encodeURIComponent(g.token)}` }, g.name), " ",
      el("button", { type: "button", class: "forget", onclick: (event) => { forgetGroup(g.token); event.target.closest("li").remove(); } }, "Forget"))))
      : el("p", { class: "muted" }, "Groups you open in this browser are listed here."));
  const codeError = el("p", { class: "error", role: "alert" });
  const code = el("input", { id: "device-code", autocomplete: "off", spellcheck: "false", "aria-label": "code from your other device" });
  const codeForm = el("form", { class: "panel", id: "code-form" }, el("h2", {}, "Already a member on another device?"),
    el("p", { class: "help" }, "Type the code from that device's “Use on another device”, or open its link here."),
    el("div", { class: "inline-form" }, code, el("button", { type: "submit" }, "Use it")), codeError);
  codeForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    codeError.textContent = "";
    try {
      const person = await useCode(code.value);
      drawHome(`This device now plays as ${person}. Open your group's link to see its page.`);
    } catch (e) {
      codeError.textContent = e.message;
    }
  });
  // the groups first for someone who has some, starting one first for someone new
  main.replaceChildren(...(notice ? [el("p", { class: "notice", role: "status" }, notice)] : []),
    ...(groups.length ? [list, form] : [form, list]), codeForm);
  $("side").replaceChildren();
}

// --- a group's page ----------------------------------------------------------------------------

function params() {
  return new URLSearchParams(location.search);
}

function go(change, { view } = {}) {
  const p = params();
  if (view) {
    for (const k of [...p.keys()]) p.delete(k);
    p.set("view", view);
  }
  for (const [k, v] of Object.entries(change)) {
    if (v === null || v === undefined || v === "") p.delete(k);
    else p.set(k, v);
  }
  const query = p.toString();
  history.pushState(null, "", location.pathname + (query ? `?${query}` : ""));
  drawView();
}

function personLink(name) {
  const a = el("a", { href: `?view=card&person=${encodeURIComponent(name)}`, class: "person" }, name);
  a.addEventListener("click", (event) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    go({ person: name }, { view: "card" });
    window.scrollTo(0, 0);
  });
  return a;
}

const ctx = {
  personLink,
  go: (change) => go(change),
  years: () => [...new Set(state.games.map((g) => Number(g.played.slice(0, 4))))].sort((a, b) => b - a),
  sessions: (game) => [...new Set(state.games.filter((g) => !game || g.game === game).map((g) => g.session))].reverse(),
  gameKinds: () => [...new Set(state.games.map((g) => g.game))].sort(),
  gameDay: () => {
    const days = new Map(state.games.map((g) => [g.key, g.played]));
    return (key) => days.get(key);
  },
  addMark: async (key, body) => {
    await api(groupPath(state.token, `/games/${encodeURIComponent(key)}/marks`), { method: "POST", body });
  },
  width: () => $("view").clientWidth - 12,
  refresh: () => loadGroup(),
  reload: (notice) => loadGroup(notice),
  get you() { return state.you; },
};

function drawTabs(current) {
  const nav = $("tabs");
  nav.hidden = false;
  const tabs = TABS.map(([view, label]) => {
    const a = el("a", { href: `?view=${view}`, "data-view": view, "aria-current": view === current ? "page" : null }, label);
    a.addEventListener("click", (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      go({}, { view });
    });
    return a;
  });
  nav.replaceChildren(...tabs);
  // on a phone the tabs scroll sideways: the current one in view
  const here = tabs.find((a) => a.dataset.view === current);
  if (here && nav.scrollWidth > nav.clientWidth) nav.scrollLeft = here.offsetLeft - (nav.clientWidth - here.offsetWidth) / 2;
}

function peopleView() {
  const g = state.group;
  const played = new Set(state.games.flatMap((x) => x.players));
  return [el("h2", {}, "People"),
    el("p", { class: "muted" }, `${plural(g.members.length, "member")}. Each name opens that person's card.`),
    el("ul", { class: "people" }, g.members.map((m) => el("li", {}, played.has(m) ? personLink(m) : el("span", {}, m),
      m === state.you ? " (you)" : "", played.has(m) ? "" : el("span", { class: "muted" }, " (no game yet)"))))];
}

let drawing = 0;

async function drawView() {
  const p = params();
  let view = p.get("view") || "standings";
  if (!(view in DRAW) && view !== "people") view = "standings";
  drawTabs(view === "card" ? "people" : view);
  const main = $("view");
  main.setAttribute("data-view", view);
  if (view === "people") {
    main.replaceChildren(...peopleView());
    return;
  }
  const ticket = ++drawing;
  main.setAttribute("aria-busy", "true");
  const query = new URLSearchParams();
  for (const k of PARAMS[view] || []) if (p.get(k)) query.set(k, p.get(k));
  try {
    const data = await api(groupPath(state.token, `/${view}${query.toString() ? `?${query}` : ""}`));
    if (ticket !== drawing) return; // another view was asked for meanwhile
    main.replaceChildren(...DRAW[view](data, ctx));
  } catch (e) {
    if (ticket !== drawing) return;
    main.replaceChildren(el("p", { class: "error", role: "alert" }, e.message));
  } finally {
    if (ticket === drawing) main.removeAttribute("aria-busy");
  }
}

async function loadGroup(notice) {
  let group;
  try {
    [group, state.me] = await Promise.all([api(groupPath(state.token)), whoAmI()]);
    state.games = (await api(groupPath(state.token, "/games"))).games;
  } catch (e) {
    $("title").textContent = "The league";
    $("tabs").hidden = true;
    $("view").replaceChildren(el("p", { class: "error", role: "alert" }, e.message),
      el("p", {}, el("a", { href: "/league" }, "Your groups")));
    if (e instanceof ApiError && e.status === 404) forgetGroup(state.token);
    return;
  }
  state.group = group;
  state.you = group.you;
  rememberGroup(state.token, group.name);
  document.title = `${group.name} · tricktable league`;
  $("title").textContent = group.name;
  const side = [];
  if (group.you) side.push(startTablePanel(group, state.token), mePanel(group, state.token, group.you, ctx), sessionPanel(group, state.token, ctx));
  else side.push(joinPanel(group, state.token, state.me, ctx));
  side.push(invitePanel(group));
  $("side").replaceChildren(...side);
  $("summary").textContent = `${plural(group.members.length, "member")} · ${plural(group.games, "game")}`
    + (group.open_session ? ` · session “${group.open_session}”` : "");
  if (notice) toast(notice);
  await drawView();
}

async function start() {
  const match = /^\/league\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
  const notice = await takeKeyFromFragment();
  addEventListener("popstate", () => { if (state.group) drawView(); });
  if (!match) {
    try { state.me = await whoAmI(); } catch { state.me = null; }
    drawHome(notice);
    return;
  }
  state.token = match[1];
  await loadGroup(notice);
}

start();
