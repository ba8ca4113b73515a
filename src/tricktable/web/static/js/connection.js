// The table's socket (docs/protocol.md): say hello with the seat's token, hand every view
// to the page, and come back by itself after any drop or server restart.

export class Connection {
  constructor(tableId, token, name, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.name = name;
    this.handlers = handlers; // {view, welcome, refused, error, status}
    this.seq = null;
    this.delay = 500;
    this.socket = null;
    this.stopped = false;
    this.named = false;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.socket = socket;
    this.handlers.status("connecting");
    socket.addEventListener("open", () => {
      const hello = { type: "hello", token: this.token, protocol: 1 };
      if (this.name) hello.name = this.name;
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      this.handlers.status("reconnecting");
      // wait a little longer each time, 0.5 s doubling to 5 s
      setTimeout(() => this.open(), this.delay);
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
        this.handlers.refused(msg);
        break;
      case "error":
        if (msg.code === "bad-token" || msg.code === "no-table") this.stopped = true;
        this.handlers.error(msg);
        break;
      default:
        break;
    }
  }

  act(action) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN || this.seq === null) {
      this.handlers.error({ code: "offline", message: "not connected: your move was not sent; it will be offered again" });
      return false;
    }
    this.socket.send(JSON.stringify({ type: "action", seq: this.seq, action }));
    return true;
  }

  close() {
    this.stopped = true;
    if (this.socket) this.socket.close();
  }
}
