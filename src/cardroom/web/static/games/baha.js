// Baha at the web table: its cards drawn as SVG (four colours with their horns), the trick in
// the middle, the pass of three cards, the last trick, the hand's result and its scores.
// The object exported is the renderer the common pages call (common.js describes it).

import { el, svgRoot, backSvg } from "../cards.js";
import { h } from "../common.js";

/** Baha's colours (docs/rules-baha.md): a colour-blind-friendly hue, a letter and a shape each. */
export const BAHA_COLOURS = {
  P: { name: "Purple", fill: "#6a3d9a", light: "#efe6f7", shape: "circle" },
  R: { name: "Red", fill: "#c0262d", light: "#fbe5e5", shape: "square" },
  T: { name: "Turquoise", fill: "#00857f", light: "#dcf3f1", shape: "triangle" },
  O: { name: "Orange", fill: "#e08a00", light: "#fdf0d9", shape: "hexagon" },
};

/** `9P` -> {value: 9, colour: "P"}; null for anything else ("?"). */
export function parseBaha(text) {
  const m = /^(\d{1,2})([PRTO])$/.exec(String(text || "").toUpperCase());
  return m ? { value: Number(m[1]), colour: m[2] } : null;
}

/** Horns printed on a Baha card: 9..13 carry 1..5 (cardroom.cards.horns_of). */
export function hornsOf(value) {
  return Math.max(0, value - 8);
}

export function bahaLabel(text) {
  const c = parseBaha(text);
  if (!c) return "face-down card";
  const h = hornsOf(c.value);
  const horns = h ? `, ${h} horn${h > 1 ? "s" : ""}` : "";
  return `${c.value} of ${BAHA_COLOURS[c.colour].name}${horns}`;
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

/** The seat `seat` passes to in a hand passing `direction` among `n` players. */
function passTarget(direction, seat, n) {
  return direction === "left" ? (seat - 1 + n) % n : (seat + 1) % n;
}

export default {
  cardSvg: (text) => (text === "?" || text == null ? backSvg() : bahaSvg(text)),
  cardLabel: (text) => bahaLabel(text),
  cardWords(text) {
    const c = parseBaha(text);
    return c ? `${c.value} ${BAHA_COLOURS[c.colour].name}` : String(text);
  },
  sortKey(text) {
    const c = parseBaha(text);
    return c ? "PRTO".indexOf(c.colour) * 100 + c.value : 9999;
  },

  // Three cards are passed together: chosen one by one in the hand, sent with one button.
  passing: {
    /** A fresh choice begins with each hand and each card already sent. */
    key: (view) => `${view.hand_number}:${(view.my_picks || []).join(",")}`,
    need: (view) => Math.max(0, (view.pass_count ?? 3) - (view.my_picks || []).length),
    to: (view) => passTarget(view.pass_direction, view.seat, view.players),
  },

  seatStats(view, i) {
    const stats = [];
    const horns = (view.horns_shown || [])[i] ?? 0;
    const fd = (view.face_down_counts || [])[i] ?? 0;
    stats.push(h("span", { class: "stat", title: "horns taken this hand (face-up cards)" }, `\u2648 ${horns}`));
    if (fd) stats.push(h("span", { class: "stat", title: "face-down cards taken" }, `+${fd} face down`));
    if (view.phase === "pass") {
      const made = (view.picks_made || [])[i] ?? 0;
      stats.push(h("span", { class: "stat", title: "cards chosen to pass" }, `picked ${made}/${view.pass_count ?? 3}`));
    }
    return stats;
  },

  center(view, state, tv) {
    const out = [];
    const info = [h("span", { text: `Hand ${view.hand_number ?? "?"}` })];
    if (view.phase === "pass") {
      const dir = view.pass_direction;
      const to = state.seat !== null && state.seat !== undefined && !state.spectator
        ? ` to ${tv.names(passTarget(dir, state.seat, view.players))}` : "";
      info.push(h("span", { text: `Passing ${view.pass_count ?? 3} cards ${dir}${to}` }));
    } else {
      if (view.phase !== "over") info.push(h("span", { text: `Trick ${(view.tricks_done ?? 0) + 1}` }));
      if (view.pass_direction && view.pass_direction !== "none") info.push(h("span", { class: "muted", text: `passed ${view.pass_direction}` }));
    }
    if (view.leftover_count) info.push(h("span", { class: "muted", text: `${view.leftover_count} leftover face down` }));
    if (view.draw_pile_count) info.push(h("span", { text: `draw pile: ${view.draw_pile_count}` }));
    out.push(h("div", { class: "center-info", "data-testid": "center-info" }, info));
    // What this seat passed and received, at the top of the middle: lower down, the hand and the
    // decision (stuck to the window's bottom, style.css .turn-area) would cover it.
    if (view.passed || view.received) {
      const bits = [];
      const you = state.replay ? tv.names(view.seat) : "You";
      const words = (cards) => cards.map((x) => this.cardWords(x)).join(", ");
      if (view.passed) bits.push(h("span", { text: `${you} passed ${words(view.passed.cards)} to ${tv.names(view.passed.to)}.` }));
      if (view.received) bits.push(h("span", { text: ` ${you} received ${words(view.received.cards)} from ${tv.names(view.received.from)}.` }));
      out.push(h("div", { class: "pass-info muted", "data-testid": "pass-info" }, bits));
    }

    const led = view.led;
    const ledBox = h("div", { class: "led", "data-testid": "led" });
    if (led && BAHA_COLOURS[led]) {
      const col = BAHA_COLOURS[led];
      ledBox.append(h("span", { class: "muted", text: "Led colour: " }),
        h("span", { class: `colour-chip colour-${led}`, text: `${col.name} (${led})` }));
    } else if (view.phase === "play") {
      ledBox.append(h("span", { class: "muted", text: view.current_player !== null ? `${tv.names(view.current_player)} leads` : "" }));
    }
    out.push(ledBox);

    // Each seat's card lies in front of it: the trick is laid out as the seats are.
    const trick = h("div", { class: "trick around", "data-testid": "trick" });
    for (const t of view.trick || []) {
      trick.append(h("figure", { class: `trick-card at-${tv.position(t.p)}`, "data-seat": t.p, "data-motion": `${view.hand_number}:${t.card}` },
        tv.cardFace(t.card, "", `trick-card-${t.card}`),
        h("figcaption", { text: tv.names(t.p) })));
    }
    if (!(view.trick || []).length) trick.append(h("div", { class: "trick-empty", text: view.phase === "pass" ? "Choose your cards to pass" : view.phase === "over" ? "" : "No card on the table yet" }));
    out.push(trick);

    return out;
  },

  /** A first game's walkthrough, a step at a time (table.js shows it once per browser). */
  walkthrough: [
    "You sit at the bottom, your hand below you; the others sit around the table in the order of play, and each card of a trick lies in front of whoever played it.",
    "A hand may begin with a pass: click three cards to choose them, then press the Pass button. High cards and horned cards are the dangerous ones to keep.",
    "Follow the colour that was led if you can: your playable cards are highlighted. The highest card of the led colour takes the trick.",
    "Cards 9 to 13 carry horns, and every horn you take costs you a point: the lowest total wins. Take every horned card of a hand and you shoot the moon. The Rules link at the top has the whole rule sheet.",
    "Stuck? Suggest a move shows what the heuristic bot would play in your place, and its rule of thumb.",
  ],

  /** The heuristic's rule of thumb behind a suggested move, in words, from this seat's view
   * (agents/baha_heuristic.py lists the rules). */
  hintWords(move, view, tv) {
    const c = parseBaha(move.card);
    if (!c) return null;
    if (move.kind === "pass") return "pass your most dangerous cards: high values, horns, and the last cards of a short colour (a void lets you throw horns later)";
    const trick = view.trick || [];
    if (!trick.length) return "lead low, in the colour where the others hold the most higher cards: somebody else should take the trick";
    const led = parseBaha(trick[0].card).colour;
    const ledName = BAHA_COLOURS[led].name;
    if (c.colour !== led) return `you cannot follow ${ledName}: throw your most dangerous card (most horns, then highest)`;
    const top = trick.filter((t) => parseBaha(t.card).colour === led).reduce((a, t) => (parseBaha(t.card).value > parseBaha(a.card).value ? t : a));
    if (c.value < parseBaha(top.card).value) return `stay under ${this.cardWords(top.card)}: ${tv.names(top.p)} takes the trick`;
    if (trick.length === view.players - 1) return "the trick is yours anyway: take it with your highest card";
    return "no card stays under the winning one: play your lowest";
  },

  /** The seat that took the cards just gone from the table: the last trick's winner. */
  takenBy(view) {
    return !(view.trick || []).length && view.last_trick ? view.last_trick.winner : null;
  },

  lastTrick(view, tv) {
    const lt = view.last_trick;
    if (!lt || !lt.cards || !lt.cards.length) return null;
    const n = view.players;
    return [...lt.cards.map((c, i) => {
      const p = (lt.leader + i) % n;
      return h("figure", { class: `trick-card small ${p === lt.winner ? "winner" : ""}` },
        tv.cardFace(c, "small", `last-trick-${c}`),
        h("figcaption", { text: tv.names(p) + (p === lt.winner ? " \u2714" : "") }));
    }), h("p", { class: "muted small", text: `${tv.names(lt.winner)} took it.` })];
  },

  /** A hand ends with its `score` event: the result panel shows it. */
  isResult: (e) => e.t === "score",

  /** Cards that move for an event: a pass goes from the passer's seat to the receiver's (the
   * cards as the event tells them this seat: "?" for a pass between two others). */
  motion(e) {
    return e.t === "pass" ? { kind: "pass", from: e.from, to: e.to, cards: e.cards || [] } : null;
  },

  resultPanel(e, view, state, tv) {
    const you = (i) => (i === state.seat && !state.spectator ? "You" : tv.names(i));
    const n = (e.totals || []).length;
    const rows = Array.from({ length: n }, (_, i) => [you(i), e.horns[i], e.points[i], e.totals[i]]);
    let note = null;
    if (e.moon !== null && e.moon !== undefined) {
      const each = Math.max(...(e.points || [0]));
      note = h("p", { class: "moon", "data-testid": "hand-result-moon" },
        `☾ ${you(e.moon)} shot the moon: ${you(e.moon) === "You" ? "you score" : "scores"} 0 and everyone else ${each}.`);
    }
    return { title: `Hand ${e.hand} is over`, note, head: ["", "Horns taken", "Points", "Total"], rows };
  },

  scores(view, state, tv) {
    const rows = [];
    for (const e of state.events || []) {
      if (e.t !== "score") continue;
      rows.push(h("tr", {}, h("th", { scope: "row" }, `${e.hand}`, e.moon !== null && e.moon !== undefined ? h("span", { class: "moon", title: `${tv.names(e.moon)} shot the moon` }, " \u263e") : null),
        ...(e.points || []).map((p) => h("td", { text: p }))));
    }
    if (view.phase !== "over") {
      rows.push(h("tr", { class: "current" }, h("th", { scope: "row", text: `${view.hand_number} (so far)` }),
        ...(view.horns_shown || []).map((p, i) => h("td", { text: `${p}${(view.face_down_counts || [])[i] ? "+?" : ""}` }))));
    }
    return { unit: "Hand", rows, target: `Lowest total wins; the game ends when someone reaches ${view.rules?.target ?? 100}.` };
  },

  winners: (view) => (view.winner !== null && view.winner !== undefined ? [view.winner] : []),

  /** A pass round's picks make one line of the log (not one a card): see runWords. */
  logRun: (e) => (e.t === "pass_pick" ? "pass_pick" : null),

  /** "Ada picks 2 Red, 9 Red and 13 Orange to pass; Heuristic 1 and Heuristic 2 pick 3 cards
   * each to pass." The cards a reader may see are named, the others counted. */
  runWords(events, say) {
    const { name, card, list, plural } = say;
    const seats = [];
    const picks = new Map();
    for (const e of events) {
      if (!picks.has(e.p)) {
        seats.push(e.p);
        picks.set(e.p, []);
      }
      picks.get(e.p).push(e.card);
    }
    const parts = [];
    const hidden = new Map();  // a count of hidden picks -> the seats that made that many
    for (const p of seats) {
      const cards = picks.get(p);
      if (cards.every((c) => c && c !== "?")) parts.push(`${name(p)} picks ${list(cards.map(card))} to pass`);
      else hidden.set(cards.length, [...(hidden.get(cards.length) || []), p]);
    }
    for (const [count, who] of hidden) {
      parts.push(`${list(who.map(name))} pick${who.length === 1 ? "s" : ""} ${plural(count, "card")}${who.length > 1 ? " each" : ""} to pass`);
    }
    return parts.length ? `${parts.join("; ")}.` : null;
  },

  eventWords(e, say) {
    const { name, card, cards, plural } = say;
    switch (e.t) {
      case "hand":
        return `Hand ${e.n}: ${name(e.dealer)} deals.${e.pass && e.pass !== "none" ? ` Pass 3 cards ${e.pass === "right" ? "right (to the next seat)" : "left (to the previous seat)"}.` : " No passing this hand."}`;
      case "pass_pick":
        return e.card && e.card !== "?" ? `${name(e.p)} picks ${card(e.card)} to pass.` : `${name(e.p)} picks a card to pass.`;
      case "pass":
        if (e.from === undefined) return `${name(e.p)} passes.`;
        return `${name(e.from)} passes ${cards(e.cards)} to ${name(e.to)}.`;
      case "play":
        return `${name(e.p)} plays ${card(e.card)}.`;
      case "trick": {
        const lo = e.leftover && e.leftover.length ? `, and the ${plural(e.leftover.length, "leftover")} face down` : "";
        return `${name(e.winner)} takes trick ${e.n} (${plural(e.horns ?? 0, "horn")})${lo}.`;
      }
      case "draw":
        return `${name(e.p)} draws ${e.card && e.card !== "?" ? card(e.card) : "a card"}.`;
      case "take":
        return `${name(e.p)} takes the last ${plural((e.cards || []).length, "card")} of the draw pile face down.`;
      case "score": {
        const pts = (e.points || []).map((p, i) => `${name(i)} ${p}`).join(", ");
        const moon = e.moon !== null && e.moon !== undefined ? ` ${name(e.moon)} shot the moon!` : "";
        return `Hand ${e.hand} scored: ${pts}.${moon}`;
      }
      case "end":
        return `Game over. ${name(e.winner)} wins with ${(e.totals || [])[e.winner]} points.`;
      default:
        return null;
    }
  },
};
