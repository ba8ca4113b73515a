// The table's socket (docs/protocol.md): say hello with the seat's token, hand every view
// to the page, and come back by itself after any drop or server restart, unless the server
// said that this link will never open the table again.

import { deviceKey } from "./storage.js";
import { personKey } from "./league/store.js";

// Refusals of a hello after which the server closes the socket: another try would be
// refused the same way. "other-device" without "waiting": nobody of the seat's is there to
// let this device in; "device-refused": they said no.
const REFUSED_FOR_GOOD = new Set(["bad-token", "bot-seat", "ended", "other-device", "device-refused"]);
// Errors the server sends before it closes a socket for a reason a new try does not mend.
const ERRORS_FOR_GOOD = new Set(["bad-token", "no-table", "set-aside", "too-many-sockets"]);
// The close code of a socket whose table moved to another of the site's servers.
const MOVED = 4503;

export class Connection {
  constructor(tableId, token, name, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.name = name;
    // {view, welcome, refused, error, status, stopped(msg): no more tries, and why,
    //  waiting(msg): this device waits to be let in, message(msg): chat and device requests}
    this.handlers = handlers;
    this.seq = null;
    this.gameNumber = null;
    this.delay = 500;
    this.socket = null;
    this.welcomed = false;
    this.stopped = false;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.socket = socket;
    this.welcomed = false;
    this.handlers.status("connecting");
    socket.addEventListener("open", () => {
      const hello = { type: "hello", token: this.token, protocol: 1, device: deviceKey() };
      if (this.name) hello.name = this.name;
      // at a league group's table the seat is taken by a member: the person key the
      // group's page keeps in this browser (a bearer secret: in a message, never a URL)
      const person = personKey();
      if (person) hello.person = person;
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => {
      if (this.socket === socket) this.receive(event.data);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      // 4503: the table moved to another of the site's servers: it is there in a moment
      if (event.code === MOVED) this.delay = 300;
      this.handlers.status("reconnecting");
      // wait a little longer each time, 0.5 s doubling to 5 s
      setTimeout(() => { if (!this.stopped) this.open(); }, this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    switch (msg.type) {
      case "welcome":
        this.delay = 500;
        this.welcomed = true;
        this.handlers.status("connected");
        this.handlers.welcome(msg);
        break;
      case "view":
        if (this.seq !== null && msg.seq < this.seq && msg.game_number === this.gameNumber) return;
        this.seq = msg.seq;
        this.gameNumber = msg.game_number;
        this.handlers.view(msg);
        break;
      case "refused":
        // the seat's person is asked to let this device in: the socket stays open meanwhile
        if (msg.code === "other-device" && msg.waiting) this.handlers.waiting(msg);
        else if (msg.code === "moving") break; // the socket closes; the page comes back
        else if (!this.welcomed && REFUSED_FOR_GOOD.has(msg.code)) this.stop(msg);
        else this.handlers.refused(msg);
        break;
      case "error":
        if (msg.code === "moving" || msg.code === "moved") break; // back by itself, unseen
        if (ERRORS_FOR_GOOD.has(msg.code)) this.stop(msg);
        else this.handlers.error(msg);
        break;
      default:
        if (this.handlers.message) this.handlers.message(msg);
        break;
    }
  }

  stop(msg) {
    this.stopped = true;
    // the server closes most such sockets itself; one refused "other-device" it would only
    // close after its hello timer
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
    this.handlers.status("closed");
    this.handlers.stopped(msg);
  }

  // Sends an action answering view ``seq`` (the view the person saw when choosing it).
  act(action, seq = this.seq) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN || seq === null) {
      this.handlers.error({ code: "offline", message: "not connected: your move was not sent; it will be offered again" });
      return false;
    }
    this.socket.send(JSON.stringify({ type: "action", seq, action }));
    return true;
  }

  // Sends a message other than an action (chat, a reaction, an answer to a device
  // request); false when the socket is not open.
  send(msg) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.stopped = true;
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
  }
}
