// BAEBAE at the web table: its character cards drawn as SVG from the deck's designs, the
// piles and the suit in play in the middle, the card detail, the decision buttons (name a
// suit, choose a seat or an option, carry out an action or not), the round's result.
// The object exported is the renderer the common pages call (common.js describes it).

import { el, svgRoot, backSvg } from "../cards.js";
import { h } from "../common.js";

/** BAEBAE's suits, drawn four-colour so no two suits share a hue. */
export const SUITS = {
  C: { name: "Clubs", symbol: "\u2663", fill: "#1f7a3a" },
  D: { name: "Diamonds", symbol: "\u2666", fill: "#1d5fb4" },
  H: { name: "Hearts", symbol: "\u2665", fill: "#c0262d" },
  S: { name: "Spades", symbol: "\u2660", fill: "#222222" },
};

const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };

/** A card's notes (its flags that its text does not already say) as sentences. */
const NOTE_WORDS = {
  "optional": "The action is optional.",
  "cannot win": "Cannot be used to win a round.",
  "on start": "Carried out if turned up to start the round.",
};

/** `6C#2` -> {rank: "6", suit: "C", design: "6C#2"}. */
export function parseBaebae(text) {
  const m = /^(A|K|Q|J|10|[2-9])([CDHS])(#\d+)?$/i.exec(String(text || ""));
  return m ? { rank: m[1].toUpperCase(), suit: m[2].toUpperCase(), design: String(text).toUpperCase() } : null;
}

export function rankName(rank) {
  return RANK_NAMES[rank] || rank;
}

/** The design of a card from the welcome message's `cards`, by its key. */
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

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

export default {
  // A hidden card shows the back at this game's card size.
  cardSvg: (text, designs) => (text === "?" || text == null ? backSvg(true) : baebaeSvg(text, designs)),
  cardLabel: (text, designs) => baebaeLabel(text, designs),
  cardWords(text, designs) {
    const c = parseBaebae(text);
    if (!c) return String(text);
    const d = designOf(text, designs);
    const base = `${c.rank}${SUITS[c.suit].symbol}`;  // as printed in its corner: "A♣", not "Ace♣"
    return d && d.name ? `${base} ${d.name}` : base;
  },
  sortKey(text) {
    const c = parseBaebae(text);
    if (!c) return 9999;
    return "CDHS".indexOf(c.suit) * 100 + RANKS.indexOf(c.rank) * 2 + (c.design.includes("#") ? 1 : 0);
  },

  seatStats(view, i) {
    const stats = [];
    const pen = (view.round_penalties || [])[i] ?? 0;
    // Actions add penalty points (+2) or take them off (a bonus: \u22121), this round.
    if (pen > 0) stats.push(h("span", { class: "stat", title: "penalty points from actions this round" }, `+${pen} this round`));
    else if (pen < 0) stats.push(h("span", { class: "stat", title: "penalty points taken off by actions this round (a bonus)" }, `\u2212${-pen} this round`));
    const sk = (view.skips || [])[i] ?? 0;
    if (sk) stats.push(h("span", { class: "stat chip-away", title: "turns to be skipped" }, `skip \u00d7${sk}`));
    return stats;
  },

  center(view, state, tv) {
    const designs = state.designs;
    const out = [];
    const info = [h("span", { text: `Round ${view.round ?? "?"} of ${(view.rules && view.rules.rounds) || "?"}` })];
    info.push(h("span", { class: "direction", "data-testid": "direction", title: "direction of play" },
      view.direction === -1 ? "\u21ba play goes to the previous seat" : "\u21bb play goes to the next seat"));
    out.push(h("div", { class: "center-info", "data-testid": "center-info" }, info));

    const stock = h("div", { class: "pile stock", "data-testid": "stock" },
      tv.cardFace("?", "small"),
      h("div", { class: "pile-caption", text: `Stockpile: ${view.stock_count ?? 0}` }));
    const topText = view.discard && view.discard.length ? view.discard[view.discard.length - 1] : view.top;
    const top = tv.cardFace(topText, "big", "discard-top");
    top.tabIndex = 0;
    top.addEventListener("focus", () => tv.showDetail(topText));
    top.addEventListener("mouseenter", () => tv.showDetail(topText));
    const discard = h("div", { class: "pile discard", "data-testid": "discard" }, top,
      h("div", { class: "pile-caption", text: `Discards: ${(view.discard || []).length}` }));
    const s = SUITS[view.suit];
    const suit = h("div", { class: "suit-in-play", "data-testid": "suit-in-play", "data-suit": view.suit, "data-declared": view.declared ? "true" : "false" },
      h("div", { class: "muted", text: "Suit in play" }),
      h("div", { class: "suit-big", style: s ? `color:${s.fill}` : "" }, s ? s.symbol : "?"),
      h("div", { class: "suit-name", text: s ? s.name : String(view.suit) }),
      view.declared ? h("div", { class: "chip chip-declared", text: "declared" }) : null);
    out.push(h("div", { class: "piles" }, stock, discard, suit));
    if (view.drawn) out.push(h("div", { class: "muted drawn-note", "data-testid": "drawn" }, `You drew ${this.cardWords(view.drawn, designs)}: play it or pass.`));
    if (view.pending && view.pending.seat !== state.seat) {
      out.push(h("div", { class: "muted" }, `${tv.names(view.pending.seat)} is deciding on ${this.cardWords(view.pending.card, designs)}\u2026`));
    }
    return out;
  },

  /** The card a player points at, with its design in full (the card-detail panel). */
  detail(text, designs) {
    const c = parseBaebae(text);
    if (!c) return null;
    const d = designOf(text, designs);
    const s = SUITS[c.suit];
    return [
      h("div", { class: "detail-head" },
        h("span", { class: "detail-rank", style: `color:${s.fill}` }, `${c.rank}${s.symbol}`),
        h("strong", { text: d && d.name ? d.name : `${rankName(c.rank)} of ${s.name}` }),
        ...(d && d.marks ? d.marks.map((m) => h("span", { class: `mark mark-${m}`, text: m })) : [])),
      d && d.types && d.types.length ? h("div", { class: "detail-types", text: d.types.join(" \u00b7 ") }) : null,
      d && d.text ? h("p", { class: "detail-text", text: d.text }) : h("p", { class: "detail-text muted", text: "No action." }),
      d && d.notes && d.notes.length ? h("div", { class: "detail-flags muted", text: d.notes.map((n) => NOTE_WORDS[n] || n).join(" ") }) : null,
    ].filter(Boolean);
  },

  /** The button for a move not made by clicking a card, or null for the common one. */
  button(m, mk, view, tv) {
    const { kind } = m;
    if (kind === "declare") {
      const s = SUITS[m.suit];
      // The suit's name beside its symbol (a phone shows the symbol alone: the button's label names it).
      const label = s ? [s.symbol, h("span", { class: "suit-word", text: ` ${s.name}` })] : `Name ${m.suit}`;
      return mk(m, label, `move-declare-${m.suit}`, { cls: "suit-button", style: s ? `--suit:${s.fill}` : null, aria: s ? `Name ${s.name}` : null });
    }
    if (kind === "target") return mk(m, tv.names(m.seat), `move-target-${m.seat}`, { aria: `Choose ${tv.names(m.seat)}` });
    if (kind === "option") {
      const labels = view.pending && view.pending.options ? view.pending.options : [];
      const label = labels[m.option - 1] ?? `Option ${m.option}`;
      return mk(m, `${m.option}. ${label}`, `move-option-${m.option}`);
    }
    if (kind === "yes" || kind === "no") return mk(m, kind === "yes" ? "Yes, carry it out" : "No", `move-${kind}`, { cls: kind === "yes" ? "primary" : "" });
    if (kind === "draw") return mk(m, "Draw a card", "move-draw", { cls: "primary" });
    if (kind === "pass") return mk(m, "Pass", "move-pass");
    if (kind === "done") return mk(m, "Done", "move-done", { cls: "primary" });
    return null;
  },

  /** A decision's text with its cards as the page writes them ("carry out 7H's action" is
   * "carry out 7\u2665's action"), as beside it in the hand and on the pile. */
  pendingWords(text) {
    return String(text).replace(/\b(A|K|Q|J|10|[2-9])([CDHS])(#\d+)?\b/g, (key, rank, suit) => `${rank}${SUITS[suit].symbol}`);
  },

  /** A first game's walkthrough, a step at a time (table.js shows it once per browser). */
  walkthrough: [
    "You sit at the bottom, your hand below you; the others sit around the table in the order of play, with the stockpile, the discard pile and the suit in play in the middle.",
    "On your turn play a card that matches the top of the discard pile, by suit or by rank; wild cards play on anything. Your playable cards are highlighted.",
    "Most cards are characters with an action, written on the card: point at a card to read it in full. When an action asks you something (yes or no, a player, a suit), its buttons appear above your hand.",
    "No card to play? Draw one. The first to empty their hand ends the round; the cards left in the others' hands are penalty points, and the lowest total wins.",
    "Stuck? Suggest a move shows what the heuristic bot would play in your place, and its rule of thumb.",
  ],

  /** The heuristic's rule of thumb behind a suggested move, in words (agents/baebae_heuristic.py
   * lists the rules), or null where no short rule says it. */
  hintWords(move) {
    return {
      play: "shed high-penalty cards early, keep wilds and suit-declaring cards for when nothing else plays, and aim actions at the player closest to going out",
      draw: "no card in your hand can be played: draw",
      pass: "the card drawn is better kept: pass",
      declare: "name the suit you hold most of, then the one with the fewest cards left unseen",
      yes: "this action is worth it: it costs the others more than you",
      no: "this action would hurt you more than it helps: decline it",
      target: "aim at the player the action is worth most against, usually the one with the fewest cards",
      option: "the option whose steps are best for you and worst for the others",
      select: "give away or discard cards that cannot win first, then the highest penalty",
      done: "nothing more is worth putting under the card",
    }[move.kind] ?? null;
  },

  /** A declaration in words ("declare ♥ Hearts"), or null for the common wording. */
  actionWords(move) {
    const s = move.kind === "declare" ? SUITS[move.suit] : null;
    return s ? `declare ${s.symbol} ${s.name}` : null;
  },

  /** A round ends with its `round_end` event: the result panel shows it. */
  isResult: (e) => e.t === "round_end",

  /** Cards that move for an event: a draw goes from the stockpile to the drawer's seat (the
   * card as the event tells it this seat: "?" for another seat's). */
  motion(e) {
    return e.t === "draw" ? { kind: "draw", from: "stock", to: e.p, cards: [e.card ?? "?"] } : null;
  },

  resultPanel(e, view, state, tv) {
    const you = (i) => (i === state.seat && !state.spectator ? "You" : tv.names(i));
    const n = (e.totals || []).length;
    const rows = Array.from({ length: n }, (_, i) => [you(i), e.penalties[i], e.totals[i]]);
    const note = h("p", { class: "muted" }, e.out !== null && e.out !== undefined ? `${you(e.out)} went out.` : "Nobody went out: the round was blocked.");
    return { title: `Round ${e.n} is over`, note, head: ["", "Penalty", "Total"], rows };
  },

  scores(view, state) {
    const rows = [];
    for (const e of state.events || []) {
      if (e.t !== "round_end") continue;
      rows.push(h("tr", {}, h("th", { scope: "row", text: `${e.n}` }), ...(e.penalties || []).map((p, i) => h("td", { class: e.out === i ? "went-out" : "", text: p }))));
    }
    if (view.phase !== "over" && (view.round_penalties || []).some((x) => x)) {
      rows.push(h("tr", { class: "current" }, h("th", { scope: "row", text: `${view.round} (actions)` }), ...(view.round_penalties || []).map((p) => h("td", { text: p }))));
    }
    const rounds = view.rules?.rounds ?? 3;
    return { unit: "Round", rows, target: `Lowest penalty after ${rounds} round${rounds === 1 ? "" : "s"} wins.` };
  },

  winners: (view) => (view.ranking || []).filter((r) => r.place === 1).map((r) => r.seat),

  eventWords(e, say) {
    const { name, card, cards, list, plural } = say;
    switch (e.t) {
      case "pass":
        return `${name(e.p)} passes.`;
      case "play":
        return e.under ? `${name(e.p)} puts ${card(e.card)} under the action card.` : `${name(e.p)} plays ${card(e.card)}.`;
      case "draw":
        if (e.forced) return `${name(e.p)} must draw ${e.card && e.card !== "?" ? card(e.card) : "a card"}.`;
        return `${name(e.p)} draws ${e.card && e.card !== "?" ? card(e.card) : "a card"}.`;
      case "end": {
        const first = (e.ranking || []).filter((r) => r.place === 1).map((r) => name(r.seat));
        const shame = (e.shame || []).map(name);
        return `Game over. ${list(first)} win${first.length === 1 ? "s" : ""}.${shame.length ? ` ${list(shame)} must bury ${shame.length === 1 ? "their head" : "their heads"} in shame.` : ""}`;
      }
      case "round":
        return `Round ${e.n}: ${name(e.dealer)} deals. The starter is ${card(e.starter)}; the suit is ${SUITS[e.suit] ? SUITS[e.suit].name : e.suit}.`;
      case "declare":
        return `${name(e.p)} names ${SUITS[e.suit] ? `${SUITS[e.suit].symbol} ${SUITS[e.suit].name}` : e.suit}.`;
      case "reshuffle":
        return `The discards are shuffled into a new stockpile (${plural((e.stock || []).length, "card")}).`;
      case "coin":
        return `${name(e.p)} flips a coin: ${e.result}.`;
      case "skip":
        return `${name(e.p)} is skipped.`;
      case "reverse":
        return `The direction of play reverses.`;
      case "move": {
        const to = e.to === "discard" ? "the discard pile" : name(e.to);
        switch (e.why) {
          case "give": return `${name(e.from)} gives ${cards(e.cards)} to ${to}.`;
          case "take": return `${to} takes ${cards(e.cards)} from ${name(e.from)}.`;
          case "swap": return `${name(e.from)}'s hand (${cards(e.cards)}) goes to ${to}.`;
          case "discard": return `${name(e.from)} discards ${cards(e.cards)}.`;
          default: return `${cards(e.cards)} move from ${name(e.from)} to ${to}.`;
        }
      }
      case "penalty":
        return e.points >= 0 ? `${name(e.p)} takes ${plural(e.points, "penalty point")}.` : `${name(e.p)} takes ${plural(-e.points, "point")} off their penalty.`;
      case "effect":
        switch (e.op) {
          case "on_start": return `The starter's action is carried out (${card(e.card)}).`;
          case "optional": return `${name(e.p)} ${e.carried_out ? "carries out" : "declines"} ${card(e.card)}'s action.`;
          case "target": return `${name(e.p)} chooses ${name(e.who)} for ${card(e.card)}'s action.`;
          case "choose": return `${name(e.p)} chooses: ${e.label ?? `option ${e.option}`}.`;
          case "skip": return `${name(e.who)} will be skipped.`;
          case "play_again": return `${name(e.p)} plays again.`;
          case "peek": return `${name(e.p)} looks at ${name(e.who)}'s cards${e.cards && e.cards.some((c) => c !== "?") ? `: ${cards(e.cards)}` : ""}.`;
          default: return `${name(e.p)}: ${e.op}.`;
        }
      case "round_end": {
        const how = e.out !== null && e.out !== undefined ? `${name(e.out)} went out` : e.guard ? "stopped by the turn limit" : "blocked";
        const pen = (e.penalties || []).map((p, i) => `${name(i)} ${p}`).join(", ");
        return `Round ${e.n} over (${how}). Penalties: ${pen}.`;
      }
      default:
        return null;
    }
  },
};
