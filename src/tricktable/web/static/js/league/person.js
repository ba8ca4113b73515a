// Who this browser is in the league: joining a group (or re-linking a name whose key was
// lost), renaming oneself, carrying the person key to another device (a link whose
// fragment holds the key, which no server sees, a QR code of it, or the key as a code to
// type), and the group's session (the date, or a named one a member opened).

import { api, groupPath } from "./api.js";
import { el } from "./dom.js";
import { KEY_SHAPE, forgetKey, personKey, rememberKey } from "./store.js";
import { savedName, rememberName } from "../storage.js";
import { qrSvg } from "../qr.js";
import { copyButton } from "../copy.js";


function copyRow(label, text, id) {
  const input = el("input", { readonly: true, value: text, id, "aria-label": label });
  input.addEventListener("focus", () => input.select());
  const said = el("span", { class: "copy-said", role: "status" });
  return el("div", { class: "copy-row" }, el("span", { class: "copy-label" }, label), input,
    copyButton(text, input, said, ""), said);
}

// A code typed (or pasted: a whole link will do) from another device: checked with the
// server, then kept. Returns the person's name.
export async function useCode(text) {
  const raw = String(text || "").trim();
  const fromLink = /[#&]key=([A-Za-z0-9_-]+)/.exec(raw);
  const key = fromLink ? fromLink[1] : raw;
  if (!KEY_SHAPE.test(key)) throw new Error("That is not a code from the other device: it is a line of letters, digits, - and _ (or the whole link).");
  const me = await api("/api/people/me", { key });
  rememberKey(key);
  return me.person;
}

function codeForm(onDone) {
  const input = el("input", { id: "device-code", autocomplete: "off", spellcheck: "false", placeholder: "the code or link from your other device", "aria-label": "code from your other device" });
  const error = el("p", { class: "error", role: "alert" });
  const form = el("form", { class: "inline-form", id: "code-form" }, input, el("button", { type: "submit" }, "Use it"), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      onDone(await useCode(input.value));
    } catch (e) {
      error.textContent = e.message;
    }
  });
  return form;
}

export function joinPanel(group, token, me, ctx) {
  const panel = el("section", { class: "panel", id: "join-panel" }, el("h2", {}, `Join ${group.name}`));
  const error = el("p", { class: "error", role: "alert", id: "join-error" });
  const join = async (name) => {
    error.textContent = "";
    try {
      const answer = await api(groupPath(token, "/join"), { method: "POST", body: { name } });
      rememberKey(answer.key);
      rememberName(answer.person);
      ctx.reload(`Welcome to ${group.name}, ${answer.person}.`);
    } catch (e) {
      error.textContent = e.message;
    }
  };
  if (me) {
    panel.append(el("p", {}, `This device plays as ${me}.`),
      el("button", { type: "button", class: "primary", id: "join-as", onclick: () => join(me) }, `Join as ${me}`), error);
  } else {
    const name = el("input", { id: "join-name", autocomplete: "nickname", maxlength: 100, "aria-label": "your name" });
    name.value = savedName();
    const form = el("form", { class: "inline-form", id: "join-form" }, el("label", {}, "Your name ", name),
      el("button", { type: "submit", class: "primary" }, "Join"), error);
    form.addEventListener("submit", (event) => { event.preventDefault(); join(name.value.trim()); });
    panel.append(el("p", {}, "Members' games at the group's tables count here. Join with the name the others know you by."), form);
  }
  panel.append(el("details", { class: "other-device" }, el("summary", {}, "Already a member on another device?"),
    el("p", { class: "help" }, "On that device, open this group's page and “Use on another device”; type its code here, or open its link."),
    codeForm((person) => ctx.reload(`This device now plays as ${person}.`))));
  if (group.members.length) {
    const who = el("select", { id: "relink-name", "aria-label": "your name in the group" }, group.members.map((m) => el("option", { value: m }, m)));
    const relinkError = el("p", { class: "error", role: "alert" });
    const form = el("form", { class: "inline-form", id: "relink-form" }, el("label", {}, "I am ", who),
      el("button", { type: "submit" }, "Re-link me"), relinkError);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      relinkError.textContent = "";
      try {
        const answer = await api(groupPath(token, "/relink"), { method: "POST", body: { name: who.value } });
        rememberKey(answer.key);
        ctx.reload(`This device plays as ${answer.person} again; the old key no longer works.`);
      } catch (e) {
        relinkError.textContent = e.message;
      }
    });
    panel.append(el("details", { class: "relink" }, el("summary", {}, "Lost your key (a new phone, a cleared browser)?"),
      el("p", { class: "help" }, "Take your name back with the group's link. Your games stay yours; the key on any other device stops working."),
      form));
  }
  return panel;
}

export function mePanel(group, token, you, ctx) {
  const key = personKey();
  const panel = el("section", { class: "panel", id: "me-panel" }, el("h2", {}, "You"),
    el("p", { id: "you-are" }, `You are ${you} in ${group.name}.`));
  const name = el("input", { id: "rename-name", maxlength: 100, "aria-label": "new name" });
  name.value = you;
  const error = el("p", { class: "error", role: "alert" });
  const rename = el("form", { class: "inline-form", id: "rename-form" }, el("label", {}, "Your name ", name),
    el("button", { type: "submit" }, "Rename"), error);
  rename.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const answer = await api("/api/people/me/rename", { method: "POST", body: { name: name.value.trim() } });
      rememberName(answer.person);
      ctx.reload(`You are ${answer.person} now; your past games follow you.`);
    } catch (e) {
      error.textContent = e.message;
    }
  });
  panel.append(rename);
  const link = `${location.origin}/league/${encodeURIComponent(token)}#key=${key}`;
  const device = el("details", { class: "other-device", id: "device-panel" }, el("summary", {}, "Use on another device"));
  device.addEventListener("toggle", () => {
    if (!device.open || device.children.length > 1) return;
    device.append(
      el("p", { class: "help" }, "Open this link on your other device (or scan the code), and it plays as you. The link is your key: keep it to yourself."),
      copyRow("Link", link, "device-link"), qrSvg(link),
      el("p", { class: "help" }, "Or type this code on the other device's league page:"),
      copyRow("Code", key, "device-code-shown"),
      el("button", { type: "button", class: "forget", onclick: () => {
        forgetKey();
        ctx.reload("This device no longer plays as you; your other devices still do.");
      } }, "Forget me on this device"));
  });
  panel.append(device);
  return panel;
}

export function sessionPanel(group, token, ctx) {
  const panel = el("section", { class: "panel", id: "session-panel" }, el("h2", {}, "Session"));
  const error = el("p", { class: "error", role: "alert" });
  const send = async (name) => {
    error.textContent = "";
    try {
      await api(groupPath(token, "/session"), { method: "POST", body: { name } });
      ctx.reload(name ? `Games now count in the session “${name}”.` : "The session is closed: games count by their day.");
    } catch (e) {
      error.textContent = e.message;
    }
  };
  if (group.open_session) {
    panel.append(el("p", { id: "session-now" }, `Games count in the session “${group.open_session}”. Stars are counted per session.`),
      el("button", { type: "button", id: "close-session", onclick: () => send(null) }, "Close the session"), error);
    return panel;
  }
  const name = el("input", { id: "session-name", maxlength: 100, placeholder: "Friday night", "aria-label": "session name" });
  const form = el("form", { class: "inline-form", id: "session-form" }, name, el("button", { type: "submit" }, "Open a session"), error);
  form.addEventListener("submit", (event) => { event.preventDefault(); send(name.value.trim()); });
  panel.append(el("p", { id: "session-now" }, `Each game counts in the session of its day (in ${group.time_zone.replace(/_/g, " ")}). Stars are counted per session; name one to run past midnight.`), form);
  return panel;
}

// The group's link, to send to its members (whoever has it can see the page and join).
export function invitePanel(group) {
  const link = `${location.origin}${location.pathname}`;
  const qr = el("details", { class: "qr-box" }, el("summary", {}, "QR code"));
  qr.addEventListener("toggle", () => { if (qr.open && qr.children.length === 1) qr.append(qrSvg(link)); });
  const share = navigator.share ? el("button", { type: "button", onclick: () => {
    navigator.share({ title: group.name, text: `${group.name}: our league at tricktable`, url: link }).catch(() => {});
  } }, "Share") : null;
  return el("section", { class: "panel", id: "invite-panel" }, el("h2", {}, "Invite"),
    el("p", { class: "help" }, "Whoever has the group's link can see its page and join: send it to the members only."),
    copyRow("Link", link, "group-link"), share, qr);
}

// Where a member starts a table of the group: the lobby, told the group in the link's
// fragment (never sent to a server, never in a log); the games there count in the league.
export function startTablePanel(group, token) {
  const link = `/#group=${encodeURIComponent(token)}`;
  return el("section", { class: "panel", id: "start-table-panel" }, el("h2", {}, "Play"),
    el("p", { class: "help" }, `A table started here belongs to ${group.name}: its seats are for the members, and every finished game counts in the league by itself.`),
    el("p", {}, el("a", { class: "button primary", href: link, id: "start-group-table" }, "Start a table for the group")));
}
