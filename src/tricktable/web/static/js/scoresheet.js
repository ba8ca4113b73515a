// The score sheet: each hand's score explained line by line, the running totals, and a chart
// of the totals over the hands.

const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// results: [{scores, totals, lines}], sides: {key: name}
export function scoreSheet(results, sides, sideLabel) {
  const keys = Object.keys(sides);
  const box = el("div", { class: "scoresheet" });
  if (!results.length) {
    box.append(el("p", { class: "muted" }, "No hand has been scored yet."));
    return box;
  }
  const table = el("table", { class: "scores" });
  const head = el("tr", {}, el("th", {}, "Hand"), ...keys.map((k) => el("th", {}, sideLabel(k))));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  results.forEach((r, i) => {
    const tr = el("tr", {}, el("td", {}, String(i + 1)),
      ...keys.map((k) => el("td", {}, el("span", { class: "delta" }, signed(r.scores[k] ?? 0)),
        " → ", el("strong", {}, String(r.totals[k] ?? 0)))));
    body.append(tr);
    if (r.lines && r.lines.length) {
      const details = el("details", {}, el("summary", {}, "how this hand scored"),
        el("ul", {}, ...r.lines.map((line) => el("li", {}, line))));
      body.append(el("tr", { class: "lines" }, el("td", { colspan: String(keys.length + 1) }, details)));
    }
  });
  table.append(body);
  box.append(table, chart(results, keys, sideLabel));
  return box;
}

// A line per side of its total after each hand (SVG, no library).
export function chart(results, keys, sideLabel) {
  const W = 320, H = 160, P = 28;
  const values = results.flatMap((r) => keys.map((k) => r.totals[k] ?? 0)).concat([0]);
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi === lo) hi = lo + 1;
  const x = (i) => P + (results.length > 0 ? (i * (W - 2 * P)) / Math.max(results.length, 1) : 0);
  const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "totals after each hand");
  const line = (x1, y1, x2, y2, cls) => {
    const l = document.createElementNS(ns, "line");
    Object.entries({ x1, y1, x2, y2 }).forEach(([k, v]) => l.setAttribute(k, v));
    l.setAttribute("class", cls);
    svg.append(l);
  };
  const text = (tx, ty, t, cls = "axis-label") => {
    const e = document.createElementNS(ns, "text");
    e.setAttribute("x", tx);
    e.setAttribute("y", ty);
    e.setAttribute("class", cls);
    e.textContent = t;
    svg.append(e);
  };
  line(P, y(0), W - P, y(0), "zero");
  text(2, y(hi) + 4, String(hi));
  text(2, y(lo) + 4, String(lo));
  text(W - P - 30, H - 6, `hand ${results.length}`);
  keys.forEach((k, i) => {
    const pts = [[x(0), y(0)], ...results.map((r, h) => [x(h + 1), y(r.totals[k] ?? 0)])];
    const path = document.createElementNS(ns, "polyline");
    path.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", COLOURS[i % COLOURS.length]);
    path.setAttribute("stroke-width", "2");
    svg.append(path);
  });
  const legend = el("ul", { class: "legend" }, ...keys.map((k, i) => {
    const swatch = el("span", { class: "swatch" });
    swatch.style.background = COLOURS[i % COLOURS.length];
    return el("li", {}, swatch, sideLabel(k));
  }));
  return el("figure", { class: "chart-box" }, svg, legend);
}

// What the game says at its end (tray person, stake owed, the day's statistics): the
// game's own sentences, with people's names, written by the server (Game.summary_lines).
export function summaryLines(summary) {
  return Array.isArray(summary) ? summary.map(String) : [];
}
