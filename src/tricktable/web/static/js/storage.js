// What the browser remembers between visits (no account needed): the person's name, their
// settings, and the tables they created with the host's and seats' links.

const NAME = "tricktable.name";
const SETTINGS = "tricktable.settings";
const TABLES = "tricktable.tables";

export function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

export function write(key, value) {
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

// This browser's own key, sent in every hello: a seat's link opens the seat on the device
// that claimed it, and another device only when the seat's person lets it in. Made once,
// at random, and kept; without storage it lasts as long as the page.
const DEVICE = "tricktable.device";
const DEVICE_KEY_SHAPE = /^[A-Za-z0-9_-]{16,100}$/;
let pageDeviceKey = null;

export function deviceKey() {
  const kept = read(DEVICE, null);
  if (typeof kept === "string" && DEVICE_KEY_SHAPE.test(kept)) return kept;
  if (!pageDeviceKey) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    // base64url: 32 letters, digits, "-" and "_"
    pageDeviceKey = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  write(DEVICE, pageDeviceKey);
  return pageDeviceKey;
}

// tables this browser sat at by someone else's link: [{id, token, title, joined}], newest first
const JOINED = "tricktable.joined";

export function joinedTables() {
  const list = read(JOINED, []);
  return Array.isArray(list) ? list.filter((t) => t && typeof t.id === "string" && typeof t.token === "string") : [];
}

export function rememberJoined(tableId, token, title = "") {
  const list = joinedTables().filter((t) => t.id !== tableId);
  list.unshift({ id: tableId, token, title, joined: new Date().toISOString() });
  write(JOINED, list.slice(0, 50));
}

export function forgetJoined(tableId) {
  write(JOINED, joinedTables().filter((t) => t.id !== tableId));
}
