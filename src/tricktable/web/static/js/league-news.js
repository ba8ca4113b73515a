// At a league group's table, the game-over panel's part about the group's score sheet:
// what the game changed there (sentences the server writes, naming people), its marks,
// a form to add a bonehead or zero-buddy mark, and the tray person's chance to spend a
// tray chit. Everything from the view's structured "league" field; every name is text.

const MARKS = [
  ["bonehead", "Bonehead play"],
  ["zero-buddy", "Zero buddy"],
];

function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

async function sendMark(view, token, mark, toast) {
  const r = await fetch(`/api/tables/${encodeURIComponent(view.table)}/marks`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(mark),
  });
  if (!r.ok) {
    let said = "the mark was not added";
    try { said = (await r.json()).message || said; } catch { /* not JSON */ }
    toast(said);
  }
}

function personChoice(people, label) {
  const select = el("select");
  select.setAttribute("aria-label", label);
  for (const name of people) {
    const o = el("option", name);
    o.value = name;
    select.append(o);
  }
  return select;
}

// The section for the game-over panel, or null at a table of no group.
export function leagueSection(view, token, toast) {
  const league = view.league;
  if (!league) return null;
  const box = el("section", undefined, "league-news");
  box.dataset.league = "";
  const group = league.group || "the group";
  if (league.counted === undefined) {
    box.append(el("p", `Counting this game in ${group}'s league…`));
    return box;
  }
  if (!league.counted) {
    box.append(el("p", `This game is not counted in ${group}'s league: only bots played it.`));
    return box;
  }
  box.append(el("h3", `In ${group}'s league`));
  const news = el("ul");
  for (const line of [...(league.news || []), ...(league.marks || [])]) news.append(el("li", line));
  if (!news.children.length) news.append(el("li", "Nothing changed on the sheet."));
  box.append(news);
  const me = view.you && view.you.seat !== null ? view.seats.find((s) => s.seat === view.you.seat) : null;
  const myName = me ? me.name : null;
  const people = league.people || [];
  if (!myName || !people.includes(myName)) return box;

  if (league.chit_due && league.chit_due === myName) {
    const others = people.filter((p) => p !== myName);
    const form = el("form", undefined, "league-chit");
    form.append(el("p", "You are the tray person and hold a tray chit: spend it to name who carries the trays instead?"));
    const named = personChoice(others, "who carries the trays");
    const go = el("button", "Spend the chit");
    go.type = "submit";
    form.append(named, " ", go);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      sendMark(view, token, { kind: "chit", person: myName, named: named.value, note: "" }, toast);
    });
    box.append(form);
  }

  const form = el("form", undefined, "league-mark");
  const kind = el("select");
  kind.setAttribute("aria-label", "the mark");
  for (const [value, label] of MARKS) {
    const o = el("option", label);
    o.value = value;
    kind.append(o);
  }
  const who = personChoice(people, "who gets it");
  const note = el("input");
  note.type = "text";
  note.maxLength = 300;
  note.placeholder = "What happened (a note)";
  note.setAttribute("aria-label", "a note");
  const add = el("button", "Add the mark");
  add.type = "submit";
  form.append(el("span", "Add a mark: "), kind, " ", who, " ", note, " ", add);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    sendMark(view, token, { kind: kind.value, person: who.value, note: note.value }, toast);
    note.value = "";
  });
  box.append(form);
  return box;
}
