// A seat's link opened on another device (docs/protocol.md, the socket): that device waits
// while the seat's person is asked, here, whether to let it in. The key that tells the
// devices apart is kept by storage.js and sent in every hello by connection.js.

import { asSentence } from "./text.js";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}


// This device waits to be let in: the server's sentence, where the table's status goes.
export function showWaiting(msg) {
  const status = document.getElementById("status");
  if (status) status.textContent = asSentence(msg.message);
  const connection = document.getElementById("connection");
  if (connection) {
    connection.textContent = "waiting to be let in…";
    connection.className = "connection connecting";
  }
}

// Another device asks for this seat: a small dialog, answered once, with
// send({type: "allow-device", request, allow}).
export function askAboutDevice(msg, send) {
  const box = el("section", "overlay device-request");
  box.setAttribute("role", "alertdialog");
  box.setAttribute("aria-modal", "true");
  box.dataset.request = String(msg.request);
  const panel = el("div", "panel");
  const title = el("h2", "", "Another device");
  title.id = `device-request-${msg.request}`;
  box.setAttribute("aria-labelledby", title.id);
  const text = el("p", "", msg.message || "Someone opened your seat's link on another device.");
  const buttons = el("div", "device-buttons");
  const yes = el("button", "primary", "Let them in");
  const no = el("button", "", "No");
  yes.type = no.type = "button";
  const answer = (allow) => {
    send({ type: "allow-device", request: msg.request, allow });
    box.remove();
  };
  yes.addEventListener("click", () => answer(true));
  no.addEventListener("click", () => answer(false));
  buttons.append(yes, no);
  panel.append(title, text, buttons);
  box.append(panel);
  document.body.append(box);
  no.focus(); // a stray Enter does not let anyone in
}

// The other device left before anyone answered: its question closes by itself.
export function withdrawDeviceRequest(msg) {
  for (const box of document.querySelectorAll(".device-request")) {
    if (box.dataset.request === String(msg.request)) box.remove();
  }
}
