// Building the page: elements from names and text only. Every name, session and note from
// the server goes in as text (textContent, attributes), never as markup.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

let toastTimer = null;

export function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

// A table that scrolls sideways on a narrow screen, its first column (the names) kept in view.
export function dataTable(caption, headers, rows, { className = "" } = {}) {
  const head = el("tr", {}, headers.map((h) => el("th", { scope: "col", title: h.title || null, class: h.num ? "num" : null }, h.label)));
  const body = rows.map((cells) => el("tr", {}, cells.map((c, i) => el(i === 0 ? "th" : "td", {
    scope: i === 0 ? "row" : null, class: headers[i] && headers[i].num ? "num" : null,
  }, c))));
  const table = el("table", { class: `league-table ${className}` }, caption ? el("caption", {}, caption) : null,
    el("thead", {}, head), el("tbody", {}, body));
  return el("div", { class: "table-scroll" }, table);
}
