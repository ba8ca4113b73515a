// What the browser remembers between visits (no account needed): the person's name, their
// settings, and the tables they created with the host's and seats' links.

const NAME = "tricktable.name";
const SETTINGS = "tricktable.settings";
const TABLES = "tricktable.tables";

function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode or full: nothing is remembered, the page still works */
  }
}

export function savedName() {
  const name = read(NAME, "");
  return typeof name === "string" ? name : "";
}

export function rememberName(name) {
  write(NAME, name);
}

export function settings() {
  return { sound: true, ...read(SETTINGS, {}) };
}

export function saveSettings(value) {
  write(SETTINGS, value);
}

// tables: [{id, game, title, created, host, spectator, invites: {seat: url}, mine: url}]
export function myTables() {
  const list = read(TABLES, []);
  return Array.isArray(list) ? list : [];
}

export function rememberTable(entry) {
  const list = myTables().filter((t) => t.id !== entry.id);
  list.unshift(entry);
  write(TABLES, list.slice(0, 50));
}

export function forgetTable(id) {
  write(TABLES, myTables().filter((t) => t.id !== id));
}

export function hostTokenFor(id) {
  const t = myTables().find((x) => x.id === id);
  return t ? t.host : null;
}

export function invitesFor(id) {
  const t = myTables().find((x) => x.id === id);
  return t ? t.invites : null;
}
