// Talk at the table (docs/protocol.md, the socket): a drawer that lists the chat, a line to
// write in and quick reactions. Everything said is shown as text, never as markup: a chat
// line is whatever a person typed.

import { asSentence } from "./text.js";

// The quick reactions the server knows, and the words on their buttons (the server tells
// them to everyone in the same words).
const REACTIONS = [
  ["well-played", "Well played!"], ["oops", "Oops!"], ["thinking", "Thinking…"],
  ["thanks", "Thanks!"], ["good-luck", "Good luck!"],
];
// Refusals that are about talk: shown in the drawer, not over the table.
const TALK_REFUSALS = new Set(["muted", "chat-rate", "no-chat", "bad-chat", "bad-reaction"]);
const MAX_SAY = 200;
const NOTICE_MS = 6000;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}


// Builds the Chat button (in the tools row) and its drawer. ``send(msg)`` sends over the
// socket (false when it is not open); ``mySeat()`` is this page's seat, or null.
export function setUpTalk({ send, mySeat }) {
  let unread = 0;

  const button = el("button", "talk-button");
  button.type = "button";
  button.id = "chat-button";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "talk");
  const word = el("span", "", "Chat");
  const count = el("span", "unread");
  count.hidden = true;
  button.append(word, count);
  const tools = document.querySelector(".tools");
  if (tools) tools.append(button);

  const drawer = el("aside", "talk-drawer");
  drawer.id = "talk";
  drawer.hidden = true;
  drawer.setAttribute("aria-label", "chat at this table");
  const head = el("div", "talk-head");
  const close = el("button", "talk-close", "Close");
  close.type = "button";
  head.append(el("h2", "", "Chat"), close);
  const lines = el("ol", "talk-lines");
  lines.setAttribute("aria-live", "polite");
  const notice = el("p", "talk-notice");
  notice.setAttribute("role", "status");
  notice.hidden = true;
  const reactions = el("div", "talk-reactions");
  for (const [reaction, words] of REACTIONS) {
    const b = el("button", "", words);
    b.type = "button";
    b.dataset.reaction = reaction;
    b.addEventListener("click", () => say({ type: "react", reaction }));
    reactions.append(b);
  }
  const form = el("form", "talk-form");
  const input = el("input");
  input.type = "text";
  input.maxLength = MAX_SAY;
  input.autocomplete = "off";
  input.placeholder = "Say something…";
  input.setAttribute("aria-label", "a chat message");
  const sendButton = el("button", "primary", "Send");
  sendButton.type = "submit";
  form.append(input, sendButton);
  drawer.append(head, lines, notice, reactions, form);
  document.body.append(drawer);

  let noticeTimer = null;
  function showNotice(text) {
    clearTimeout(noticeTimer);
    notice.textContent = text;
    notice.hidden = false;
    noticeTimer = setTimeout(() => { notice.hidden = true; }, NOTICE_MS);
  }

  function paintUnread() {
    count.textContent = unread ? String(unread) : "";
    count.hidden = unread === 0;
    button.setAttribute("aria-label", unread ? `Chat, ${unread} unread` : "Chat");
  }

  function setOpen(open) {
    drawer.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    button.classList.toggle("selected", open);
    if (open) {
      unread = 0;
      paintUnread();
      lines.scrollTop = lines.scrollHeight;
      // on a touch screen the keyboard would hide the table: the person taps the line
      if (!window.matchMedia("(pointer: coarse)").matches) input.focus();
    }
  }

  function say(msg) {
    if (!send(msg)) {
      showNotice("Not connected: your message was not sent.");
      return false;
    }
    notice.hidden = true;
    return true;
  }

  button.addEventListener("click", () => setOpen(drawer.hidden));
  close.addEventListener("click", () => { setOpen(false); button.focus(); });
  drawer.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { setOpen(false); button.focus(); }
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault(); // Enter sends
    const text = input.value.trim();
    if (text && say({ type: "say", text })) input.value = "";
  });

  // "Name: text", as text only
  function lineElement(line) {
    const item = el("li", line.reaction ? "reaction" : "");
    if (typeof line.seat === "number") item.dataset.seat = String(line.seat);
    item.append(el("span", "who", String(line.name || "someone")), `: ${String(line.text || "")}`);
    if (line.at) item.title = String(line.at);
    return item;
  }

  function add(line) {
    const atEnd = lines.scrollHeight - lines.scrollTop - lines.clientHeight < 40;
    lines.append(lineElement(line));
    if (atEnd) lines.scrollTop = lines.scrollHeight;
    const mine = typeof line.seat === "number" && line.seat === mySeat();
    if (drawer.hidden && !mine) {
      unread += 1;
      paintUnread();
    }
  }

  return {
    // A chat or chat-log message from the server; false for any other message.
    message(msg) {
      if (msg.type === "chat-log") {
        // sent after every welcome: the last lines, which replace what was shown
        lines.replaceChildren(...(Array.isArray(msg.lines) ? msg.lines : []).map(lineElement));
        lines.scrollTop = lines.scrollHeight;
        return true;
      }
      if (msg.type === "chat") {
        add(msg);
        return true;
      }
      return false;
    },
    // A refusal about talk, shown as a short notice in the drawer; false for any other.
    refused(msg) {
      if (!TALK_REFUSALS.has(msg.code)) return false;
      showNotice(asSentence(msg.message));
      if (drawer.hidden) setOpen(true);
      return true;
    },
    // Another table's link was opened in this tab: nothing of this table's talk stays.
    clear() {
      lines.replaceChildren();
      unread = 0;
      paintUnread();
      setOpen(false);
      notice.hidden = true;
    },
  };
}
