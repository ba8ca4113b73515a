// The engine's help on the table page (docs/protocol.md): at a table of one person and
// bots, "Hint" (what the strong bot would do in your place, from your own view) and
// "Undo" (take back your last decision of the hand); during the play, "Claim the rest"
// (the solver checks it; everyone is told when it holds). On a server without the solver
// a claim is shown instead, as at a real table: the claimer's cards face up, and the
// other side agrees or says play on (the view's `claim`).

import { shortLabel, suitOf } from "./cards.js";
import { asSentence } from "./text.js";

const state = {
  conn: null, // the page's Connection: its socket takes the messages
  view: null,
  hint: null, // {seq, card, message}: the hint for view seq, shown until the view moves on
  // {text, seq, hand}: a refusal of hint, undo or claim, shown while view seq is on screen;
  // a claim told, shown for the rest of the hand (seq null), which plays itself out
  note: null,
  row: null,
  buttons: {},
  claimForm: null,
  line: null,
  shown: null, // the panel of a claim shown (the view's claim), above the controls
};

// Refusals that answer this module's messages: shown here, as a sentence.
const OURS = new Set(["claim-refused", "no-claim", "no-solver", "bad-claim", "not-alone",
  "not-your-turn", "nothing-to-undo", "claim-pending", "not-asked"]);


function button(label, title, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.title = title;
  b.hidden = true;
  b.addEventListener("click", onClick);
  return b;
}

function sendMessage(message) {
  const socket = state.conn && state.conn.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    say("Not connected: nothing was sent; try again in a moment.");
    return;
  }
  socket.send(JSON.stringify(message));
}

function handOf(v) {
  return v ? `${v.game_number}/${v.observation.hand_number}` : null;
}

function say(text, { forTheHand = false } = {}) {
  const v = state.view;
  state.note = { text, seq: forTheHand || !v ? null : v.seq, hand: handOf(v) };
  draw();
}

// A table of one person and bots, and the person is this page.
function alone(v) {
  const players = v.seats.filter((s) => s.kind !== "dummy");
  const people = players.filter((s) => s.kind === "person");
  return v.you.role === "seat" && people.length === 1 && people[0].seat === v.you.seat;
}

function draw() {
  const v = state.view;
  if (!v || !state.row) return;
  const playing = v.status === "playing";
  const helped = playing && alone(v);
  const { hint, undo, claim } = state.buttons;
  hint.hidden = undo.hidden = !helped;
  hint.disabled = !(v.legal && v.legal.length);
  const obs = v.observation;
  claim.hidden = !(playing && v.you.role === "seat" && obs.phase === "play" && (obs.hand || []).length > 0) || !!v.claim;
  const how = v.claims_checked_by === "agreement" ? "the others see your cards and agree" : "the solver checks it";
  claim.title = `claim every trick left: ${how}`;
  state.buttons.claimSome.title = `claim some of the tricks left: ${how}`;
  drawShownClaim(v.claim);
  const left = (obs.hand || []).length;
  state.buttons.claimSome.hidden = claim.hidden || left < 2;
  if (state.buttons.claimSome.hidden) state.claimForm.hidden = true;
  else fillClaimChoices(left);
  state.row.hidden = hint.hidden && claim.hidden;
  // the hinted card stands out in the hand while its view is on screen
  const shown = state.hint && state.hint.seq === v.seq ? state.hint : null;
  for (const face of document.querySelectorAll("#hand [data-card].hinted")) face.classList.remove("hinted");
  if (shown && shown.card) {
    const face = document.querySelector(`#hand [data-card="${shown.card}"]`);
    if (face) face.classList.add("hinted");
  }
  const text = shown ? shown.message : state.note ? state.note.text : "";
  state.line.textContent = text;
  state.line.hidden = !text;
}

// A claim shown (no solver on the server): who claims what, the cards face up, and this
// reader's answer: "Agree" / "Play on" for the other side, "Take it back" for the claimer.
function drawShownClaim(claim) {
  const panel = state.shown;
  if (!panel) return;
  const key = claim ? JSON.stringify(claim) : "";
  if (panel.dataset.key === key) return;
  panel.dataset.key = key;
  panel.hidden = !claim;
  panel.replaceChildren();
  if (!claim) return;
  const text = document.createElement("p");
  text.textContent = claim.text;
  const cards = document.createElement("p");
  cards.className = "claim-cards";
  cards.setAttribute("aria-label", `${claim.name}'s cards`);
  for (const card of claim.cards) {
    const chip = document.createElement("span");
    chip.className = `card-chip suit-${suitOf(card) || "joker"}`;
    chip.textContent = shortLabel(card);
    cards.append(chip, " ");
  }
  const answers = document.createElement("p");
  answers.className = "choices";
  const answer = (label, agree) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.addEventListener("click", () => sendMessage({ type: "claim-answer", agree }));
    answers.append(b);
  };
  if (claim.you_answer) {
    answer("Agree", true);
    answer("Play on", false);
  } else if (claim.yours) {
    answer("Take it back", false);
  }
  panel.append(text, cards);
  if (answers.childElementCount) panel.append(answers);
}

// "Claim some…": how many of the tricks left, then the claim (the solver checks it).
function claimSomeForm() {
  const form = document.createElement("form");
  form.className = "claim-some";
  form.hidden = true;
  const label = document.createElement("label");
  label.textContent = "Tricks you will take: ";
  const count = document.createElement("select");
  count.name = "tricks";
  label.append(count);
  const go = document.createElement("button");
  go.type = "submit";
  go.textContent = "Claim them";
  form.append(label, " ", go);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    form.hidden = true;
    sendMessage({ type: "claim", tricks: Number(count.value) });
  });
  return form;
}

// The choices of "Claim some…": 1 to one fewer than the tricks left (all: "Claim the rest").
function fillClaimChoices(left) {
  const count = state.claimForm.querySelector("select");
  if (Number(count.dataset.left) === left) return;
  count.dataset.left = String(left);
  count.replaceChildren();
  for (let n = left - 1; n >= 1; n--) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = `${n} of the ${left} left`;
    count.append(o);
  }
}

// Puts the buttons in the tools row, and over them the line that tells their answers.
export function setUpHelp() {
  const tools = document.querySelector("nav.tools");
  const row = document.createElement("span");
  row.className = "help-buttons";
  row.hidden = true;
  state.buttons = {
    hint: button("Hint", "what the strong bot would do in your place", () => sendMessage({ type: "hint" })),
    undo: button("Undo", "take back your last decision of this hand", () => sendMessage({ type: "undo" })),
    claim: button("Claim the rest", "claim every trick left: the solver checks it", () => sendMessage({ type: "claim" })),
    claimSome: button("Claim some…", "claim some of the tricks left: the solver checks it", () => {
      state.claimForm.hidden = !state.claimForm.hidden;
    }),
  };
  state.claimForm = claimSomeForm();
  row.append(state.buttons.hint, state.buttons.undo, state.buttons.claim, state.buttons.claimSome,
    state.claimForm);
  tools.prepend(row);
  const line = document.createElement("p");
  line.id = "help-note";
  line.className = "help-note";
  line.setAttribute("role", "status");
  line.hidden = true;
  tools.prepend(line);
  state.row = row;
  state.line = line;
  const shown = document.createElement("section");
  shown.id = "claim-shown";
  shown.className = "control claim-shown";
  shown.setAttribute("role", "status");
  shown.hidden = true;
  document.querySelector("#controls").before(shown);
  state.shown = shown;
}

// The page's connection (a new one after another link is opened in the tab): this module
// reads the messages that answer it (hint, claim, their refusals) and the table's news of
// who left or came back ("presence") before the page does.
export function helpConnection(conn) {
  const receive = conn.receive.bind(conn);
  conn.receive = (text) => {
    let msg = null;
    try {
      msg = JSON.parse(text);
    } catch {
      /* the page's own reading says what it is */
    }
    if (!msg || !helpMessage(msg)) receive(text);
  };
  state.conn = conn;
  state.hint = null;
  state.note = null;
}

// Each view drawn (after the hand): the buttons follow it; a note from an older moment goes.
export function updateHelp(view) {
  const note = state.note;
  if (note && (note.seq === null ? note.hand !== handOf(view) : note.seq !== view.seq)) state.note = null;
  state.view = view;
  draw();
}

// A message of the socket's: true when it was this module's to show.
export function helpMessage(msg) {
  if (msg.type === "hint") {
    state.hint = { seq: msg.seq, card: msg.card || null, message: asSentence(msg.message) };
    draw();
    return true;
  }
  if (msg.type === "claim") {
    // told to everyone, and it stays for the rest of the hand, which plays itself out
    say(asSentence(msg.message), { forTheHand: true });
    return true;
  }
  if (msg.type === "presence") {
    // a friend left or came back; what a stand-in played for you while you were away
    say(asSentence(msg.message), { forTheHand: true });
    return true;
  }
  if (msg.type === "refused" && OURS.has(msg.code)) {
    say(asSentence(msg.message));
    return true;
  }
  return false;
}
