// A person's results over time, drawn here as SVG (the same picture as `tricktable league
// card --chart`): top, every game's final score in the order played, one line per game
// kind, a star on each win; below, the wins so far. The x axis counts games; a few of
// them are labelled with their day.

import { el, svg } from "./dom.js";
import { day, gameTitle } from "./words.js";

const COLOURS = ["#1d6b43", "#2b4c8c", "#c0392b", "#8e44ad", "#d35400", "#16a085"];
const TOP_H = 220;
const LOW_H = 110;
const GAP = 26;
const LEFT = 44;
const RIGHT = 12;
const PAD = 10;
const HEAD = 14; // room for the top axis's title

// A step of 1, 2 or 5 times a power of ten that cuts low..high in about `count` parts
function niceStep(low, high, count = 4) {
  const raw = Math.max(high - low, 1) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
}

function ticks(low, high, step) {
  const out = [];
  for (let v = low; v <= high + step / 1e6; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

function star(cx, cy, r, fill) {
  const points = [];
  for (let i = 0; i < 10; i += 1) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? r * 0.45 : r;
    points.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
  }
  return svg("polygon", { points: points.join(" "), fill, stroke: "#333", "stroke-width": 0.6, class: "win" });
}

// width: the figure's width on the screen in CSS pixels; the drawing is made that wide, so
// its words keep their size on a phone
export function resultsChart(card, width = 640) {
  const W = Math.round(Math.max(300, Math.min(900, width)));
  const results = card.results || [];
  const n = results.length;
  const games = [...new Set(results.map((r) => r.game))].sort();
  const colour = Object.fromEntries(games.map((g, i) => [g, COLOURS[i % COLOURS.length]]));
  const scores = results.map((r) => r.score);
  const scoreStep = niceStep(Math.min(0, ...scores), Math.max(1, ...scores));
  const lowScore = Math.floor(Math.min(0, ...scores) / scoreStep) * scoreStep;
  const highScore = Math.ceil(Math.max(1, ...scores) / scoreStep) * scoreStep;
  const plotW = W - LEFT - RIGHT;
  const x = (i) => LEFT + (n <= 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const yTop = (v) => HEAD + PAD + (TOP_H - 2 * PAD) * (1 - (v - lowScore) / (highScore - lowScore));
  const lowTop = HEAD + TOP_H + GAP;
  const most = Math.max(1, ...games.map((g) => results.filter((r) => r.game === g && r.won).length));
  const winStep = Math.max(1, niceStep(0, most, 3));
  const mostWins = Math.ceil(most / winStep) * winStep;
  const yLow = (v) => lowTop + PAD + (LOW_H - 2 * PAD) * (1 - v / mostWins);
  const height = lowTop + LOW_H + 40;

  const title = `${card.person}: every game's final score (a star: a win), and the wins so far`;
  const chart = svg("svg", {
    viewBox: `0 0 ${W} ${height}`, class: "league-chart", role: "img", "aria-label": title,
  }, svg("title", {}, title));
  // the axes and their figures
  for (const v of ticks(lowScore, highScore, scoreStep)) {
    chart.append(svg("line", { x1: LEFT, x2: W - RIGHT, y1: yTop(v), y2: yTop(v), class: v === 0 ? "zero" : "grid" }),
      svg("text", { x: LEFT - 4, y: yTop(v) + 3, "text-anchor": "end" }, String(v)));
  }
  for (const v of ticks(0, mostWins, winStep)) {
    chart.append(svg("line", { x1: LEFT, x2: W - RIGHT, y1: yLow(v), y2: yLow(v), class: v === 0 ? "zero" : "grid" }),
      svg("text", { x: LEFT - 4, y: yLow(v) + 3, "text-anchor": "end" }, String(v)));
  }
  chart.append(svg("text", { x: 4, y: 11, class: "axis-title" }, "score"),
    svg("text", { x: 4, y: lowTop + PAD - 12, class: "axis-title" }, "wins so far"));
  const every = Math.max(1, Math.ceil(n / Math.max(2, Math.floor(W / 110))));
  for (let i = 0; i < n; i += every) {
    chart.append(svg("text", { x: x(i), y: lowTop + LOW_H + 14, "text-anchor": "middle" }, day(results[i].played, { weekday: false })));
  }
  chart.append(svg("text", { x: LEFT + plotW / 2, y: lowTop + LOW_H + 32, "text-anchor": "middle", class: "axis-title" }, "games in the order played"));
  // one line per game kind, a star on each win; the wins so far as steps
  for (const g of games) {
    const at = results.map((r, i) => [r, i]).filter(([r]) => r.game === g);
    const line = at.map(([r, i], k) => `${k ? "L" : "M"}${x(i).toFixed(1)} ${yTop(r.score).toFixed(1)}`).join(" ");
    chart.append(svg("path", { d: line, fill: "none", stroke: colour[g], "stroke-width": 1.6, class: "scores" }));
    for (const [r, i] of at) {
      chart.append(r.won ? star(x(i), yTop(r.score), 6, colour[g])
        : svg("circle", { cx: x(i), cy: yTop(r.score), r: 2.4, fill: colour[g] }));
    }
    let wins = 0;
    let steps = "";
    for (const [k, [r, i]] of at.entries()) {
      const before = wins;
      wins += r.won ? 1 : 0;
      steps += k ? `H${x(i).toFixed(1)}V${yLow(wins).toFixed(1)}` : `M${x(i).toFixed(1)} ${yLow(before).toFixed(1)}V${yLow(wins).toFixed(1)}`;
    }
    if (at.length) steps += `H${(W - RIGHT).toFixed(1)}`;
    chart.append(svg("path", { d: steps, fill: "none", stroke: colour[g], "stroke-width": 1.6, class: "wins" }));
  }
  const legend = el("ul", { class: "legend" }, games.map((g) => el("li", {},
    el("span", { class: "swatch", style: `background:${colour[g]}` }), gameTitle(g))));
  return el("figure", { class: "chart-figure" }, chart, el("figcaption", {}, legend));
}
