// The group's views, each drawn from the dict its API route answers (the same dict
// `tricktable league <view> --json` prints): standings, the 3B score sheet, the week,
// Paperless stakes, head-to-head, the games (with their marks), a person's card.

import { dataTable, el } from "./dom.js";
import { resultsChart } from "./chart.js";
import {
  amount, day, eventSentence, gameTitle, list, MARK_HELP, MARK_WORDS, percent, plural, session,
} from "./words.js";

// --- the 3B lines ---------------------------------------------------------------------------

const col = (label, title, num = true) => ({ label, title, num });

function owes(r) {
  const parts = [];
  if (r.trays_owed) parts.push(plural(r.trays_owed, "tray"));
  if (r.decks_owed) parts.push(plural(r.decks_owed, "deck"));
  return parts.join(", ");
}

// A line's first cell: its place (shared by equal lines) and the person
function named(r, ctx) {
  return r.rank === "" ? ctx.personLink(r.person) : [el("span", { class: "rank" }, String(r.rank)), ctx.personLink(r.person)];
}

// A person's tray chits in words: those earned in the period and what became of them,
// then how many he holds now ("2 earned, 1 spent; 1 held", "1 held", "none").
function chitWords(r) {
  const parts = [];
  if (r.chits_earned) parts.push(`${r.chits_earned} earned`);
  if (r.chits_spent) parts.push(`${r.chits_spent} spent`);
  if (r.chits_lost) parts.push(`${r.chits_lost} lost`);
  const held = r.chits_held || parts.length ? `${r.chits_held} held` : "";
  if (!parts.length) return held || "none";
  return `${parts.join(", ")}; ${held}`;
}

// The 3B score sheet's lines in two tables that fit a phone: the stars, then the tray.
export function threebTables(rows, ctx, title = "", first = "Player") {
  if (!rows.length) return [el("p", { class: "muted" }, "No 3B game in this period.")];
  const stars = dataTable(title ? `${title}: stars` : "Stars", [
    col(first, "", false), col("Games", "3B games played"), col("★", "stars: games won"),
    col("Outside", "outside stars: three wins in one calendar week"), col("Gold", "gold outside stars: four wins in a row"),
    col("Red", "red outside stars: five wins in a row"), col("Best", "longest winning streak"), col("Now", "current winning streak"),
  ], rows.map((r) => [named(r, ctx), r.games, r.stars, r.outside_stars, r.gold_stars, r.red_stars,
    r.longest_streak, r.current_streak]), { className: "threeb-stars" });
  const tray = dataTable(title ? `${title}: the tray` : "The tray", [
    col(first, "", false), col("Trays", "games lost: the tray person"), col("Wire", "wire to wire in the tray"),
    col("Tray hands", "hands on the tray sheet"), col("Perfect", "perfect days"), col("Imperfect", "imperfect days"),
    col("Chits", "tray chits earned / spent / lost / held"), col("Owes", "trays owed by the violator, decks owed", false),
    col("Bonehead", "bonehead marks"), col("Zero buddy", "zero-buddy marks"),
  ], rows.map((r) => [named(r, ctx), r.trays, r.wire_to_wire, r.tray_hands, r.perfect_days, r.imperfect_days,
    chitWords(r), owes(r), r.boneheads, r.zero_buddies]),
  { className: "threeb-tray" });
  return [stars, tray];
}

// --- every game's totals ---------------------------------------------------------------------

const COLUMNS = {
  games: [col("Games"), (r) => r.games],
  wins: [col("Wins"), (r) => r.wins],
  win_rate: [col("Won", "share of games won"), (r) => percent(r.win_rate)],
  avg: [col("Avg score", "average final score"), (r) => r.average_score.toFixed(1)],
  made: [col("Made/bid", "contracts made / bid (the team's in partnership games)"), (r) => `${r.made}/${r.contracts}`],
  sets: [col("Sets", "contracts set"), (r) => r.sets],
  bags: [col("Bags", "tricks over a made bid"), (r) => r.bags],
  nils: [col("Nils", "nils made / bid"), (r) => `${r.nils_made}/${r.nils_bid}`],
  zeros: [col("Zeros", "zeros made / bid"), (r) => `${r.nils_made}/${r.nils_bid}`],
  pots: [col("Pots", "zero pots won"), (r) => r.nil_points],
  declarer: [col("Declarer", "hands as declarer per hand played"), (r) => percent(r.declarer_rate)],
  declared: [col("Declarer made", "contracts made as declarer"), (r) => (r.declared ? percent(r.declarer_success) : "—")],
};
const BY_GAME = {
  "3b-spades": ["games", "wins", "win_rate", "avg", "made", "sets", "bags", "zeros", "pots"],
  "dummy-hand-spades": ["games", "wins", "win_rate", "avg", "made", "sets", "bags", "nils", "declarer", "declared"],
  "dummy-whist": ["games", "wins", "win_rate", "avg", "made", "sets", "declarer", "declared"],
  "double-dummy-whist": ["games", "wins", "win_rate", "avg", "made", "sets", "declarer", "declared"],
};
const PARTNERSHIP = ["games", "wins", "win_rate", "avg", "made", "sets", "bags", "nils"];

export function gamesTables(rows, ctx) {
  const out = [];
  for (const game of [...new Set(rows.map((r) => r.game))].sort()) {
    const cols = BY_GAME[game] || PARTNERSHIP;
    out.push(dataTable(gameTitle(game), [col("Player", "", false), ...cols.map((c) => COLUMNS[c][0])],
      rows.filter((r) => r.game === game).map((r) => [ctx.personLink(r.person), ...cols.map((c) => COLUMNS[c][1](r))]),
      { className: `game-table game-${game}` }));
  }
  return out;
}

// --- the views ------------------------------------------------------------------------------

function yearPicker(ctx, year) {
  const select = el("select", { id: "year", "aria-label": "period" }, el("option", { value: "" }, "All time"),
    ctx.years().map((y) => el("option", { value: String(y) }, String(y))));
  select.value = year ? String(year) : "";
  select.addEventListener("change", () => ctx.go({ year: select.value || null }));
  return el("label", { class: "picker" }, "Period ", select);
}

export function standingsView(data, ctx) {
  const period = data.year ? String(data.year) : "all time";
  const parts = [el("div", { class: "view-head" }, el("h2", {}, `Standings, ${period}`), yearPicker(ctx, data.year)),
    el("p", { class: "muted", id: "standings-summary" }, `${plural(data.games, "game")} in ${plural(data.sessions, "session")}.`)];
  if (data.threeb.length) parts.push(el("h3", {}, "3B Spades: the score sheet"), ...threebTables(data.threeb, ctx));
  if (data.players.length) parts.push(el("h3", {}, "Every game"), ...gamesTables(data.players, ctx));
  if (!data.games) parts.push(el("p", {}, "No game yet. Games played at the group's tables come here by themselves."));
  return parts;
}

function eventList(events, kinds, empty, className) {
  const chosen = events.filter((e) => kinds.includes(e.kind));
  if (!chosen.length) return el("p", { class: "muted" }, empty);
  return el("ul", { class: `events ${className}` }, chosen.map((e) => el("li", {},
    el("span", { class: "when" }, day(e.played)), " ", eventSentence(e))));
}

function starRow(stars, ctx) {
  const names = Object.entries(stars);
  if (!names.length) return "—";
  return el("span", { class: "stars" }, names.map(([p, n], i) => el("span", { class: "star-line" },
    i ? " " : "", ctx.personLink(p), " ", el("span", { class: "star-marks", "aria-label": plural(n, "star") }, "★".repeat(n)))));
}

export function sheetView(data, ctx) {
  const period = data.year ? String(data.year) : "all time";
  const t = data.trays;
  const parts = [el("div", { class: "view-head" }, el("h2", {}, `The 3B score sheet, ${period}`), yearPicker(ctx, data.year))];
  parts.push(...threebTables(data.threeb, ctx));
  parts.push(el("section", { class: "sheet-part", id: "session-stars" }, el("h3", {}, "Stars per session"),
    data.sessions.length ? dataTable("", [col("Session", "", false), col("Games"), col("Stars", "a star for each game won", false)],
      data.sessions.slice().reverse().map((s) => [session(s.session), s.games, starRow(s.stars, ctx)])) : el("p", { class: "muted" }, "No 3B game yet.")));
  parts.push(el("section", { class: "sheet-part", id: "outside-stars" }, el("h3", {}, "Outside stars"),
    el("p", { class: "help" }, "Three wins in one calendar week (Monday to Sunday); gold for four wins in a row, red for five. Held for the calendar year."),
    eventList(data.events, ["outside-star", "gold-star", "red-star"], "No outside star yet.", "outside")));
  parts.push(el("section", { class: "sheet-part", id: "streaks" }, el("h3", {}, "Longest winning streaks"),
    data.streaks.length ? el("ol", { class: "streaks" }, data.streaks.map((s) => el("li", { value: s.rank },
      ctx.personLink(s.person), `: ${plural(s.length, "win")} in a row, ${day(s.start)} to ${day(s.end)}`, s.ongoing ? " (going on)" : "")))
      : el("p", { class: "muted" }, "No run of two wins yet.")));
  const owing = [];
  if (t.violator) owing.push(el("p", { class: "violator" }, `${t.violator}, the violator, owes ${plural(t.trays_owed, "tray")}: nobody else carries any until they are carried.`));
  for (const [p, n] of Object.entries(t.decks_owed)) owing.push(el("p", {}, `${p} owes ${plural(n, "new deck")} of cards.`));
  for (const [p, chits] of Object.entries(t.chits_held)) {
    owing.push(el("p", {}, `${p} holds ${plural(chits.length, "tray chit")}: ${list(chits.map((c) => `${c.source}, ${day(c.earned)}`))}.`));
  }
  const log = t.games.slice().reverse().map((g) => [day(g.played), g.tray_person || "nobody (a tie)", g.wire_to_wire ? "yes" : "",
    g.chit === "spent" ? `spent, names ${g.named}` : g.chit === "lost" ? "lost" : "", g.carrier || "",
    g.violator ? `${g.violator}: ${g.trays_owed}` : "", g.carried ? String(g.carried) : ""]);
  parts.push(el("section", { class: "sheet-part", id: "trays" }, el("h3", {}, "The tray"), ...owing,
    log.length ? dataTable("The tray log, newest first", [col("Day", "", false), col("Tray person", "", false), col("Wire", "wire to wire", false),
      col("Chit", "", false), col("Carries", "who is due to carry the trays", false), col("Violator owes", "", false), col("Carried", "trays the violator carried")], log)
      : el("p", { class: "muted" }, "No 3B game yet.")));
  parts.push(el("section", { class: "sheet-part", id: "chits" }, el("h3", {}, "Tray chits"),
    el("p", { class: "help" }, "Earned by a perfect day and by an outside star; spent at the holder's next tray loss, naming another player, or lost."),
    eventList(data.events, ["chit-earned", "chit-spent", "chit-lost"], "No tray chit yet.", "chits")));
  parts.push(el("section", { class: "sheet-part", id: "days" }, el("h3", {}, "Perfect and imperfect days"),
    el("p", { class: "help" }, "A perfect day earns a tray chit; an imperfect day owes the table a new deck of cards."),
    eventList(data.events, ["perfect-day", "imperfect-day", "deck-owed", "decks-brought"], "No perfect or imperfect day yet.", "days")));
  parts.push(el("section", { class: "sheet-part", id: "marks" }, el("h3", {}, "Bonehead and zero-buddy marks"),
    eventList(data.events, ["bonehead", "zero-buddy"], "No mark yet.", "marks"),
    eventList(data.events, ["trays-forgot", "trays-carried"], "Nobody has forgotten the trays.", "trays-marks")));
  return parts;
}

function addDays(iso, n) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

export function weekView(data, ctx) {
  const nav = el("div", { class: "week-nav" },
    el("button", { type: "button", id: "week-before", "aria-label": "the week before", onclick: () => ctx.go({ day: addDays(data.monday, -7) }) }, "◀ Earlier"),
    el("button", { type: "button", id: "week-this", onclick: () => ctx.go({ day: null }) }, "This week"),
    el("button", { type: "button", id: "week-after", "aria-label": "the week after", onclick: () => ctx.go({ day: addDays(data.monday, 7) }) }, "Later ▶"));
  const parts = [el("h2", {}, `The week of ${day(data.monday)} to ${day(data.sunday)}`), nav];
  if (!data.games.length) {
    parts.push(el("p", { class: "muted" }, "No game this week."));
    return parts;
  }
  parts.push(el("h3", {}, "Games"), el("ul", { class: "week-games" }, data.games.map((g) => el("li", {},
    el("span", { class: "when" }, day(g.played)), ` ${gameTitle(g.game)}`,
    g.session !== g.played ? ` (${session(g.session)})` : "", `: won by ${list(g.winners)}`,
    g.tray_person ? `; ${g.tray_person} in the tray` : ""))));
  if (data.threeb.length) parts.push(el("h3", {}, "3B this week"), ...threebTables(data.threeb, ctx, "This week"));
  parts.push(el("h3", {}, "Stars, chits and trays"), eventList(data.events, data.events.map((e) => e.kind), "Nothing more this week.", "week-events"));
  return parts;
}

export function stakesView(data, ctx) {
  const picker = el("select", { id: "stakes-session", "aria-label": "session" }, el("option", { value: "" }, "Every game"),
    ctx.sessions("paperless-spades").map((s) => el("option", { value: s }, session(s))));
  picker.value = data.session || "";
  picker.addEventListener("change", () => ctx.go({ session: picker.value || null }));
  const parts = [el("div", { class: "view-head" }, el("h2", {}, "Paperless stakes"), el("label", { class: "picker" }, "Session ", picker))];
  if (!data.debts.length) {
    parts.push(el("p", { class: "muted" }, "No Paperless Spades game here yet."));
    return parts;
  }
  const byAmount = data.debts.some((d) => d.amount);
  const unit = byAmount ? "amount" : "points";
  const balance = byAmount ? data.balance : data.points_balance;
  if (!byAmount) parts.push(el("p", { class: "help" }, "No game had a stake: the points are settled instead."));
  parts.push(dataTable("Balance (positive: is owed)", [col("Player", "", false), col(byAmount ? "Balance" : "Points")],
    Object.entries(balance).map(([p, v]) => [ctx.personLink(p), `${v > 0 ? "+" : ""}${amount(v)}`]), { className: "balance" }));
  parts.push(el("h3", {}, "Settle up"), data.settle.length
    ? el("ul", { class: "settle" }, data.settle.map((d) => el("li", {}, `${d.debtor} pays ${d.creditor} ${amount(d[unit])}${byAmount ? "" : " points"}.`)))
    : el("p", {}, "Everyone is square."));
  const games = new Map();
  for (const d of data.debts) {
    if (!games.has(d.key)) games.set(d.key, []);
    games.get(d.key).push(d);
  }
  const when = ctx.gameDay();
  parts.push(el("details", { class: "debts" }, el("summary", {}, `Who owed whom, game by game (${plural(games.size, "game")})`),
    el("ul", {}, [...games.values()].map((ds) => el("li", {}, when(ds[0].key) ? `${day(when(ds[0].key))}: ` : "",
      ds.map((d) => `${d.debtor} owes ${d.creditor} ${amount(d[unit])}`).join("; "), ".")))));
  return parts;
}

export function h2hView(data, ctx) {
  const picker = el("select", { id: "h2h-game", "aria-label": "game" }, el("option", { value: "" }, "Every game"),
    ctx.gameKinds().map((g) => el("option", { value: g }, gameTitle(g))));
  picker.value = data.game || "";
  picker.addEventListener("change", () => ctx.go({ game: picker.value || null }));
  const parts = [el("div", { class: "view-head" }, el("h2", {}, "Head to head"), el("label", { class: "picker" }, "Game ", picker)),
    el("p", { class: "help" }, "Games on opposite sides (partners do not count), and who finished ahead.")];
  if (!data.head_to_head.length) {
    parts.push(el("p", { class: "muted" }, "No two people have met yet."));
    return parts;
  }
  parts.push(dataTable("", [col("Player", "", false), col("Against", "", false), col("Games"), col("Ahead", "games the player finished ahead"), col("Behind")],
    data.head_to_head.map((h) => [ctx.personLink(h.first), ctx.personLink(h.second), h.games, h.first_ahead, h.second_ahead]), { className: "h2h" }));
  return parts;
}

function markForm(g, ctx, done) {
  const kind = el("select", { name: "kind", "aria-label": "mark" }, Object.entries(MARK_WORDS).map(([k, w]) => el("option", { value: k }, w)));
  const person = el("select", { name: "person", "aria-label": "for" }, g.players.map((p) => el("option", { value: p }, p)));
  if (g.players.includes(ctx.you)) person.value = ctx.you;
  const named = el("select", { name: "named", "aria-label": "names" }, g.players.map((p) => el("option", { value: p }, p)));
  const namedLabel = el("label", { hidden: true }, "who carries the trays ", named);
  const help = el("p", { class: "help" });
  const note = el("input", { name: "note", maxlength: 1000, placeholder: "what happened (optional)", "aria-label": "note" });
  const error = el("p", { class: "error", role: "alert" });
  const shown = () => {
    help.textContent = MARK_HELP[kind.value];
    namedLabel.hidden = kind.value !== "chit";
  };
  kind.addEventListener("change", shown);
  shown();
  const form = el("form", { class: "mark-form" }, el("label", {}, "Mark ", kind), el("label", {}, "for ", person), namedLabel, help,
    el("label", { class: "note" }, "Note ", note), el("button", { type: "submit", class: "primary" }, "Add the mark"), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const body = { kind: kind.value, person: person.value, note: note.value.trim() };
    if (kind.value === "chit") body.named = named.value;
    try {
      await ctx.addMark(g.key, body);
      done();
    } catch (e) {
      error.textContent = e.message;
    }
  });
  return form;
}

const GAMES_AT_ONCE = 50;

export function gamesView(data, ctx) {
  const parts = [el("h2", {}, "Games"), el("p", { class: "muted" }, `${plural(data.games.length, "game")}, newest first.`)];
  const gameItem = (g) => {
    const marks = g.marks.map((m) => el("li", {}, `${MARK_WORDS[m.kind] || m.kind}: ${m.person}`,
      m.named ? `, names ${m.named}` : "", m.note ? ` — “${m.note}”` : ""));
    const item = el("li", { class: "game" },
      el("div", { class: "game-line" }, el("span", { class: "when" }, day(g.played)), " ", el("b", {}, gameTitle(g.game)),
        g.session !== g.played ? ` · ${session(g.session)}` : ""),
      el("div", {}, `${list(g.players)}; won by ${list(g.winners)}.`),
      marks.length ? el("ul", { class: "marks" }, marks) : null);
    if (ctx.you) {
      const open = el("details", { class: "add-mark" }, el("summary", {}, "Add a mark"));
      open.addEventListener("toggle", () => {
        if (open.open && open.children.length === 1) open.append(markForm(g, ctx, () => ctx.refresh()));
      });
      item.append(open);
    }
    return item;
  };
  if (!data.games.length) {
    parts.push(el("p", {}, "No game yet."));
    return parts;
  }
  // a club's years of games: the newest first, more on asking
  const newest = data.games.slice().reverse();
  const listed = el("ol", { class: "games-list", reversed: true });
  const more = el("button", { type: "button", id: "more-games" });
  const show = () => {
    const shown = listed.children.length;
    listed.append(...newest.slice(shown, shown + GAMES_AT_ONCE).map(gameItem));
    const left = newest.length - listed.children.length;
    more.hidden = left <= 0;
    more.textContent = `Show ${plural(Math.min(left, GAMES_AT_ONCE), "older game")}`;
  };
  more.addEventListener("click", show);
  show();
  parts.push(listed, more);
  return parts;
}

export function cardView(data, ctx) {
  const parts = [el("h2", {}, data.person)];
  const played = data.results.length;
  const won = data.results.filter((r) => r.won).length;
  parts.push(el("p", { class: "muted" }, `${plural(played, "game")} played, ${won} won, since ${day(data.results[0].played)}.`));
  parts.push(el("section", { class: "sheet-part" }, el("h3", {}, "Results over time"), resultsChart(data, ctx.width())));
  if (data.threeb) {
    const rows = [...Object.entries(data.threeb_by_year).map(([y, line]) => ({ ...line, rank: "", person: y })), { ...data.threeb, rank: "", person: "All time" }];
    parts.push(el("h3", {}, "3B Spades, year by year"), ...threebTables(rows, { personLink: (p) => p }, "", "Year"));
  }
  parts.push(el("h3", {}, "Every game"), ...gamesTables(data.games, { personLink: () => data.person }));
  if (data.streaks.length) {
    parts.push(el("h3", {}, "Winning streaks (3B)"), el("ul", {}, data.streaks.map((s) => el("li", {},
      `${plural(s.length, "win")} in a row, ${day(s.start)} to ${day(s.end)}`, s.ongoing ? " (going on)" : ""))));
  }
  if (data.marks.length) {
    parts.push(el("h3", {}, "Marks"), el("ul", { class: "events" }, data.marks.map((m) => el("li", {}, el("span", { class: "when" }, day(m.played)), " ", eventSentence(m)))));
  }
  if (data.head_to_head.length) {
    parts.push(el("h3", {}, "Head to head"), dataTable("", [col("Against", "", false), col("Games"), col("Ahead"), col("Behind")],
      data.head_to_head.map((h) => [ctx.personLink(h.opponent), h.games, h.ahead, h.behind]), { className: "card-h2h" }));
  }
  return parts;
}
