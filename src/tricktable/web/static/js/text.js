// Words as the page shows them.

// A message as a sentence: a capital first and a full stop last (the server's refusals
// and notices come as lower-case clauses).
export function asSentence(text) {
  const t = String(text || "").trim();
  return t ? t[0].toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".") : "";
}
