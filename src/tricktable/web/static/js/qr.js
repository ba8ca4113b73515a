// A link as a QR code, drawn as SVG (one path of dark squares) for a friend's camera, with
// the vendored qrcode-generator 2.0.4 (MIT, vendor/qrcode-generator.LICENSE): served from
// this server, nothing fetched elsewhere.

import qrcode from "/static/vendor/qrcode-generator.js";

export function qrSvg(url) {
  const code = qrcode(0, "M");
  code.addData(url);
  code.make();
  const n = code.getModuleCount();
  const quiet = 4;
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${n + 2 * quiet} ${n + 2 * quiet}`);
  svg.setAttribute("class", "qr");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "QR code of the link");
  svg.setAttribute("shape-rendering", "crispEdges");
  const back = document.createElementNS(NS, "rect");
  back.setAttribute("width", "100%");
  back.setAttribute("height", "100%");
  back.setAttribute("fill", "#fff");
  const path = document.createElementNS(NS, "path");
  let d = "";
  for (let r = 0; r < n; r += 1) {
    for (let c = 0; c < n; c += 1) if (code.isDark(r, c)) d += `M${c + quiet} ${r + quiet}h1v1h-1z`;
  }
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.append(back, path);
  return svg;
}
