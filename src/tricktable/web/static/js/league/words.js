// Words as the league's pages say them: games by their titles, days as dates, sessions by
// name, marks and events as sentences. Never an id, a seat number or a key.

const GAME_TITLES = {
  "3b-spades": "3B Spades",
  "dummy-hand-spades": "Dummy Hand Spades",
  "paperless-spades": "Paperless Spades",
  spades: "Partnership Spades",
  "dummy-whist": "Dummy Whist",
  "double-dummy-whist": "Double Dummy Whist",
};

export function gameTitle(game) {
  return GAME_TITLES[game] || String(game).replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase());
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function utcDate(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

// "2026-11-02" as "Mon 2 Nov 2026" (the day as written, whatever this device's time zone)
export function day(iso, { weekday = true, year = true } = {}) {
  if (!ISO_DAY.test(String(iso))) return String(iso);
  return new Intl.DateTimeFormat(undefined, {
    timeZone: "UTC", weekday: weekday ? "short" : undefined, day: "numeric", month: "short",
    year: year ? "numeric" : undefined,
  }).format(utcDate(iso));
}

// A session is named ("Friday night") or is the day it was played
export function session(name) {
  return ISO_DAY.test(String(name)) ? day(name) : String(name);
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function percent(x) {
  return `${Math.round(100 * x)}%`;
}

export function amount(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

export function list(names) {
  const n = names.length;
  if (n <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[n - 1]}`;
}

export const MARK_WORDS = {
  bonehead: "Bonehead",
  "zero-buddy": "Zero buddy",
  chit: "Tray chit spent",
  "forgot-trays": "Forgot the trays",
  "carried-trays": "Carried the trays owed",
  "brought-decks": "Brought the decks owed",
};

export const MARK_HELP = {
  bonehead: "a bonehead play the player owns up to",
  "zero-buddy": "the others give a zero-buddy mark for a very bad play in a zero hunt",
  chit: "the tray person spends a tray chit, naming who carries the trays instead",
  "forgot-trays": "the one due to carry this game's trays forgot them: he is the violator",
  "carried-trays": "the violator carried every tray he owed",
  "brought-decks": "the player brought the new decks he owed for imperfect days",
};

// What the score sheet wrote next to a name (league views' events), as a sentence.
export function eventSentence(e) {
  const p = e.person;
  switch (e.kind) {
    case "outside-star": return `${p} earns an outside star: three wins in one week.`;
    case "gold-star": return `${p} earns a gold outside star: four wins in a row.`;
    case "red-star": return `${p} earns a red outside star: five wins in a row.`;
    case "wire-to-wire": return `${p} is the tray person wire to wire.`;
    case "perfect-day": return `${p} has a perfect day.`;
    case "imperfect-day": return `${p} has an imperfect day.`;
    case "chit-earned": return `${p} earns a tray chit (${e.detail || "a chit"}).`;
    case "chit-spent": return `${p} spends a tray chit: ${e.detail} carries the trays.`;
    case "chit-lost": return `${p} loses a tray chit (not spent at the tray loss).`;
    case "trays-forgot": return `${p} forgets the trays and is the violator: ${plural(e.count, "tray")} owed.`;
    case "trays-carried": return `${p} carries the ${plural(e.count, "tray")} owed.`;
    case "trays-held": return `${p} owes ${plural(e.count, "more tray", "more trays")}.`;
    case "deck-owed": return e.detail && e.detail !== p
      ? `${p} owes a new deck for ${e.detail}'s imperfect day.`
      : `${p} owes a new deck of cards.`;
    case "decks-brought": return `${p} brings the ${plural(e.count, "deck")} owed.`;
    case "bonehead": return `${p} gets a bonehead mark${e.detail ? `: “${e.detail}”` : "."}`;
    case "zero-buddy": return `${p} gets a zero-buddy mark${e.detail ? `: “${e.detail}”` : "."}`;
    default: return `${p}: ${String(e.kind).replace(/-/g, " ")}.`;
  }
}
