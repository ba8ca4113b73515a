// What this browser keeps for the league: the person key (a bearer secret: it lives here
// and travels only in the X-Person-Key header, or in a link's fragment, which no server
// sees) and the groups it has opened, to list them again.

import { read, write } from "../storage.js";

const PERSON = "tricktable.league.person";
const GROUPS = "tricktable.league.groups";
export const KEY_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

let pageKey = null;

export function personKey() {
  const kept = read(PERSON, null);
  if (kept && typeof kept.key === "string" && KEY_SHAPE.test(kept.key)) return kept.key;
  return pageKey;
}

export function rememberKey(key) {
  pageKey = key;
  write(PERSON, { key });
}

export function forgetKey() {
  pageKey = null;
  try { localStorage.removeItem(PERSON); } catch { /* nothing kept */ }
}

// [{token, name}], the last opened first
export function knownGroups() {
  const list = read(GROUPS, []);
  return Array.isArray(list) ? list.filter((g) => g && typeof g.token === "string" && typeof g.name === "string") : [];
}

export function rememberGroup(token, name) {
  const list = knownGroups().filter((g) => g.token !== token);
  list.unshift({ token, name });
  write(GROUPS, list.slice(0, 50));
}

export function forgetGroup(token) {
  write(GROUPS, knownGroups().filter((g) => g.token !== token));
}
