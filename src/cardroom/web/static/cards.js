// Cardroom cards drawn as SVG, by hand: Baha's four colours with their horns, BAEBAE's
// character cards, and a card back. Every function returns a DOM node; nothing here talks
// to the server.

const SVG = "http://www.w3.org/2000/svg";

/** Baha's colours (docs/rules-baha.md): a colour-blind-friendly hue, a letter and a shape each. */
export const BAHA_COLOURS = {
  P: { name: "Purple", fill: "#6a3d9a", light: "#efe6f7", shape: "circle" },
  R: { name: "Red", fill: "#c0262d", light: "#fbe5e5", shape: "square" },
  T: { name: "Turquoise", fill: "#00857f", light: "#dcf3f1", shape: "triangle" },
  O: { name: "Orange", fill: "#e08a00", light: "#fdf0d9", shape: "hexagon" },
};

/** BAEBAE's suits, drawn four-colour so no two suits share a hue. */
export const SUITS = {
  C: { name: "Clubs", symbol: "\u2663", fill: "#1f7a3a" },
  D: { name: "Diamonds", symbol: "\u2666", fill: "#1d5fb4" },
  H: { name: "Hearts", symbol: "\u2665", fill: "#c0262d" },
  S: { name: "Spades", symbol: "\u2660", fill: "#222222" },
};

const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgRoot(w, h, cls) {
  const svg = el("svg", { viewBox: `0 0 ${w} ${h}`, class: `card-svg ${cls}`, "aria-hidden": "true", focusable: "false" });
  return svg;
}

/** `9P` -> {value: 9, colour: "P"}; null for anything else ("?"). */
export function parseBaha(text) {
  const m = /^(\d{1,2})([PRTO])$/.exec(String(text || "").toUpperCase());
  return m ? { value: Number(m[1]), colour: m[2] } : null;
}

/** Horns printed on a Baha card: 9..13 carry 1..5 (cardroom.cards.horns_of). */
export function hornsOf(value) {
  return Math.max(0, value - 8);
}

/** `6C#2` -> {rank: "6", suit: "C", design: "6C#2"}. */
export function parseBaebae(text) {
  const m = /^(A|K|Q|J|10|[2-9])([CDHS])(#\d+)?$/i.exec(String(text || ""));
  return m ? { rank: m[1].toUpperCase(), suit: m[2].toUpperCase(), design: String(text).toUpperCase() } : null;
}

export function bahaLabel(text) {
  const c = parseBaha(text);
  if (!c) return "face-down card";
  const h = hornsOf(c.value);
  const horns = h ? `, ${h} horn${h > 1 ? "s" : ""}` : "";
  return `${c.value} of ${BAHA_COLOURS[c.colour].name}${horns}`;
}

export function rankName(rank) {
  return RANK_NAMES[rank] || rank;
}

/** The design of a BAEBAE card from the welcome message's `cards`, by its key. */
export function designOf(text, designs) {
  if (!designs) return null;
  const key = String(text).toUpperCase();
  return designs.get(key) || designs.get(key.replace(/#\d+$/, "")) || null;
}

export function baebaeLabel(text, designs) {
  const c = parseBaebae(text);
  if (!c) return "face-down card";
  const d = designOf(text, designs);
  let s = `${rankName(c.rank)} of ${SUITS[c.suit].name}`;
  if (d) {
    if (d.name) s += `, ${d.name}`;
    if (d.types && d.types.length) s += ` (${d.types.join(", ")})`;
    if (d.marks && d.marks.length) s += `, ${d.marks.join(", ")}`;
    if (d.text) s += `. Action: ${d.text}`;
  }
  return s;
}

/** The words for a card in either game, for the log and labels. */
export function cardWords(game, text, designs) {
  if (text === "?" || text == null) return "a hidden card";
  if (game === "baha") {
    const c = parseBaha(text);
    return c ? `${c.value} ${BAHA_COLOURS[c.colour].name}` : String(text);
  }
  const c = parseBaebae(text);
  if (!c) return String(text);
  const d = designOf(text, designs);
  const base = `${rankName(c.rank)}${SUITS[c.suit].symbol}`;
  return d && d.name ? `${base} ${d.name}` : base;
}

function shapePath(shape, cx, cy, r) {
  switch (shape) {
    case "circle":
      return el("circle", { cx, cy, r });
    case "square":
      return el("rect", { x: cx - r * 0.86, y: cy - r * 0.86, width: r * 1.72, height: r * 1.72, rx: r * 0.18 });
    case "triangle": {
      const h = r * 1.1;
      return el("polygon", { points: `${cx},${cy - h} ${cx + h * 1.05},${cy + h * 0.75} ${cx - h * 1.05},${cy + h * 0.75}` });
    }
    default: {
      const pts = [];
      for (let i = 0; i < 6; i++) {
        const a = (Math.PI / 3) * i + Math.PI / 6;
        pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
      }
      return el("polygon", { points: pts.join(" ") });
    }
  }
}

function horn(x, y, size, fill) {
  // One curved horn, its tip up: an outer curve and an inner one meeting at the tip.
  const s = size;
  const d = `M ${x - s * 0.45} ${y} Q ${x - s * 0.55} ${y - s * 0.75} ${x + s * 0.35} ${y - s * 1.25}`
    + ` Q ${x} ${y - s * 0.6} ${x + s * 0.4} ${y} Z`;
  return el("path", { d, fill, stroke: "#1b1b1b", "stroke-width": 0.8, "stroke-linejoin": "round" });
}

/** A Baha card face (`9P`), or a back for anything unknown. */
export function bahaSvg(text) {
  const c = parseBaha(text);
  if (!c) return backSvg();
  const col = BAHA_COLOURS[c.colour];
  const svg = svgRoot(100, 140, "baha");
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 9, fill: "#fffdf8", stroke: "#8a8a8a", "stroke-width": 1.2 }));
  svg.append(el("rect", { x: 6, y: 6, width: 88, height: 128, rx: 6, fill: col.light, stroke: col.fill, "stroke-width": 2 }));
  // Corners: value, colour letter and small shape, stacked in a narrow column.
  for (const flip of [false, true]) {
    const g = el("g", flip ? { transform: "rotate(180 50 70)" } : {});
    g.append(el("text", { x: 17, y: 25, "text-anchor": "middle", "font-size": c.value > 9 ? 17 : 20, "font-weight": 800, fill: col.fill, "font-family": "inherit" }, String(c.value)));
    g.append(el("text", { x: 17, y: 38, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: col.fill, "font-family": "inherit" }, c.colour));
    const sh = shapePath(col.shape, 17, 47, 4.5);
    sh.setAttribute("fill", col.fill);
    g.append(sh);
    svg.append(g);
  }
  // Centre: the colour's shape holding the value.
  const h = hornsOf(c.value);
  const cy = h ? 62 : 70;
  const big = shapePath(col.shape, 50, cy, 22);
  big.setAttribute("fill", col.fill);
  big.setAttribute("stroke", "#ffffff");
  big.setAttribute("stroke-width", 2);
  svg.append(big);
  svg.append(el("text", {
    x: 50, y: cy + (col.shape === "triangle" ? 12 : 8), "text-anchor": "middle", "font-size": c.value > 9 ? 20 : 23,
    "font-weight": 800, fill: "#ffffff", "font-family": "inherit",
  }, String(c.value)));
  if (h) {
    // The horns in a row under the centre, gold with a dark outline so they read on every colour.
    const gap = 11;
    const x0 = 50 - ((h - 1) * gap) / 2;
    for (let i = 0; i < h; i++) svg.append(horn(x0 + i * gap, 108, 11, "#f2c230"));
  }
  return svg;
}

function wrapLines(text, width, fontSize, maxLines, charWidth = 0.54) {
  const perLine = Math.max(4, Math.floor(width / (fontSize * charWidth)));
  const words = String(text || "").split(/\s+/).filter(Boolean);
  const lines = [];
  let line = "";
  for (let w of words) {
    // A word longer than a line is cut, so no text runs off the card.
    while (w.length > perLine) {
      if (line) lines.push(line);
      lines.push(w.slice(0, perLine - 1) + "-");
      w = w.slice(perLine - 1);
      line = "";
    }
    if (!line) line = w;
    else if ((line + " " + w).length <= perLine) line += " " + w;
    else {
      lines.push(line);
      line = w;
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    let last = kept[maxLines - 1];
    if (last.length > perLine - 1) last = last.slice(0, perLine - 1);
    kept[maxLines - 1] = last.replace(/[\s,.;:]+$/, "") + "\u2026";
    return kept;
  }
  return lines;
}

function textBlock(svg, lines, x, y, size, attrs = {}) {
  const t = el("text", { x, y, "font-size": size, "font-family": "inherit", ...attrs });
  lines.forEach((ln, i) => {
    const span = el("tspan", { x, dy: i === 0 ? 0 : size * 1.18 }, ln);
    t.append(span);
  });
  svg.append(t);
  return y + size * 1.18 * lines.length;
}

const MARK_STYLE = {
  skip: { label: "SKIP", fill: "#b3261e" },
  wild: { label: "WILD", fill: "#6a3d9a" },
  reverse: { label: "REV", fill: "#0b6e99" },
};

/** A BAEBAE card face (`6C`, `6C#2`) with its design, or a back for anything unknown. */
export function baebaeSvg(text, designs) {
  const c = parseBaebae(text);
  if (!c) return backSvg();
  const suit = SUITS[c.suit];
  const d = designOf(text, designs);
  const svg = svgRoot(120, 168, "baebae");
  svg.append(el("rect", { x: 1, y: 1, width: 118, height: 166, rx: 9, fill: "#fffdf8", stroke: "#8a8a8a", "stroke-width": 1.2 }));
  svg.append(el("rect", { x: 1, y: 1, width: 118, height: 30, rx: 9, fill: suit.fill, opacity: 0.12 }));
  // Corner: rank and suit, both corners.
  svg.append(el("text", { x: 8, y: 20, "font-size": 18, "font-weight": 800, fill: suit.fill, "font-family": "inherit" }, c.rank));
  svg.append(el("text", { x: c.rank.length > 1 ? 30 : 21, y: 20, "font-size": 17, fill: suit.fill, "font-family": "inherit" }, suit.symbol));
  const br = el("g", { transform: "rotate(180 60 84)" });
  br.append(el("text", { x: 8, y: 20, "font-size": 14, "font-weight": 800, fill: suit.fill, "font-family": "inherit" }, c.rank + suit.symbol));
  svg.append(br);
  // Marks as badges in the top right.
  const marks = d && d.marks ? [...d.marks].sort() : [];
  let bx = 114;
  for (const m of marks.slice().reverse()) {
    const st = MARK_STYLE[m] || { label: String(m).toUpperCase().slice(0, 4), fill: "#555" };
    const w = st.label.length * 6.4 + 6;
    bx -= w;
    svg.append(el("rect", { x: bx, y: 7, width: w, height: 13, rx: 6.5, fill: st.fill }));
    svg.append(el("text", { x: bx + w / 2, y: 16.8, "text-anchor": "middle", "font-size": 8.5, "font-weight": 800, fill: "#fff", "font-family": "inherit", "letter-spacing": 0.3 }, st.label));
    bx -= 3;
  }
  if (!d || (!d.name && !d.text)) {
    svg.append(el("text", { x: 60, y: 104, "text-anchor": "middle", "font-size": 58, fill: suit.fill, "font-family": "inherit" }, suit.symbol));
    return svg;
  }
  let y = 44;
  if (d.name) y = textBlock(svg, wrapLines(d.name, 104, 10.5, 2, 0.62), 8, y, 10.5, { "font-weight": 700, fill: "#1b1b1b" });
  if (d.types && d.types.length) {
    y = textBlock(svg, wrapLines(d.types.join(" \u00b7 "), 104, 8.5, 1), 8, y + 1, 8.5, { "font-style": "italic", fill: "#555" });
  }
  if (d.text) {
    svg.append(el("line", { x1: 8, x2: 112, y1: y - 3, y2: y - 3, stroke: suit.fill, "stroke-width": 0.8, opacity: 0.6 }));
    const lines = Math.max(1, Math.floor((150 - y) / (8.2 * 1.18)));
    textBlock(svg, wrapLines(d.text, 104, 8.2, lines), 8, y + 7, 8.2, { fill: "#222" });
    const flags = d.notes || [];  // the flags the card's text does not already say
    if (flags.length) svg.append(el("text", { x: 8, y: 160, "font-size": 7.5, "font-weight": 700, fill: "#8a4b00", "font-family": "inherit" }, flags.join(" \u00b7 ")));
  } else {
    svg.append(el("text", { x: 60, y: 124, "text-anchor": "middle", "font-size": 44, fill: suit.fill, opacity: 0.85, "font-family": "inherit" }, suit.symbol));
  }
  return svg;
}

/** The back of a card: a calm diamond lattice. */
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

/** An SVG face for `text` in `game`. */
export function cardSvg(game, text, designs) {
  if (text === "?" || text == null) return backSvg(game === "baebae");
  return game === "baha" ? bahaSvg(text) : baebaeSvg(text, designs);
}

export function cardLabel(game, text, designs) {
  return game === "baha" ? bahaLabel(text) : baebaeLabel(text, designs);
}

/** A suit symbol for BAEBAE's suit in play, coloured. */
export function suitBadge(letter) {
  const s = SUITS[letter];
  const span = document.createElement("span");
  span.className = "suit-badge";
  if (!s) {
    span.textContent = String(letter || "?");
    return span;
  }
  span.style.color = s.fill;
  span.textContent = s.symbol;
  span.setAttribute("aria-hidden", "true");
  return span;
}

/** Sort order for a hand: by colour/suit, then value/rank. */
export function sortKey(game, text) {
  if (game === "baha") {
    const c = parseBaha(text);
    return c ? "PRTO".indexOf(c.colour) * 100 + c.value : 9999;
  }
  const c = parseBaebae(text);
  if (!c) return 9999;
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  return "CDHS".indexOf(c.suit) * 100 + ranks.indexOf(c.rank) * 2 + (c.design.includes("#") ? 1 : 0);
}
