// What every game's cards share when drawn as SVG: the element helper, the card's root and
// the card back. Each game draws its faces in its renderer (games/*.js); nothing here talks
// to the server.

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and, optionally, text. */
export function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A card's SVG root, `w` by `h`, classed `cls` (the game's name, or `back`). */
export function svgRoot(w, h, cls) {
  const svg = el("svg", { viewBox: `0 0 ${w} ${h}`, class: `card-svg ${cls}`, "aria-hidden": "true", focusable: "false" });
  return svg;
}

/** The back of a card: a calm diamond lattice (`wide`: 120 by 168 rather than 100 by 140). */
export function backSvg(wide = false) {
  const w = wide ? 120 : 100;
  const h = wide ? 168 : 140;
  const svg = svgRoot(w, h, "back");
  const id = `lat${Math.random().toString(36).slice(2, 8)}`;
  const defs = el("defs");
  const pat = el("pattern", { id, width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  pat.append(el("rect", { width: 10, height: 10, fill: "#23466e" }));
  pat.append(el("rect", { width: 5, height: 10, fill: "#2b5584" }));
  defs.append(pat);
  svg.append(defs);
  svg.append(el("rect", { x: 1, y: 1, width: w - 2, height: h - 2, rx: 9, fill: "#fff", stroke: "#8a8a8a", "stroke-width": 1.2 }));
  svg.append(el("rect", { x: 6, y: 6, width: w - 12, height: h - 12, rx: 6, fill: `url(#${id})` }));
  svg.append(el("circle", { cx: w / 2, cy: h / 2, r: 15, fill: "#fffdf8", stroke: "#c9a646", "stroke-width": 2 }));
  svg.append(el("text", { x: w / 2, y: h / 2 + 5.5, "text-anchor": "middle", "font-size": 15, "font-weight": 800, fill: "#23466e", "font-family": "inherit" }, "CR"));
  return svg;
}
