// The league's API: JSON both ways, the person key in its header (never in an address).

import { asSentence } from "../text.js";
import { personKey } from "./store.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(path, { method = "GET", body, key = personKey() } = {}) {
  const headers = { accept: "application/json" };
  if (key) headers["x-person-key"] = key;
  if (body !== undefined) headers["content-type"] = "application/json";
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  } catch {
    throw new ApiError(0, "offline", "The server did not answer: check the connection and try again.");
  }
  let data = null;
  try {
    data = await r.json();
  } catch {
    /* no JSON: said below */
  }
  if (!r.ok) {
    const message = data && typeof data.message === "string" ? data.message : `the server answered ${r.status}`;
    throw new ApiError(r.status, data && data.error, asSentence(message));
  }
  return data;
}

export function groupPath(token, rest = "") {
  return `/api/groups/${encodeURIComponent(token)}${rest}`;
}
