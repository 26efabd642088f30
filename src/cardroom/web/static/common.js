// Helpers shared by the lobby, the table and the replay pages: HTTP, seat names, notices,
// and the public events in words.

import { cardWords, SUITS, BAHA_COLOURS } from "./cards.js";

export const TOKEN_KEY = (id) => `cardroom.token.${id}`;
/** The creator's token of a table (it closes the table; the seat's token when the creator sat). */
export const CREATOR_KEY = (id) => `cardroom.creator.${id}`;
export const NAME_KEY = "cardroom.name";

/** Shorthand for document.createElement with attributes and children. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** An error from the server, with its HTTP status and its message in words. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function messageOf(status, body) {
  if (body && typeof body === "object") {
    const d = body.detail ?? body.message ?? body.error;
    if (typeof d === "string") return d;
    if (Array.isArray(d)) {
      return d.map((x) => (x && x.msg ? `${(x.loc || []).filter((p) => p !== "body").join(".")}: ${x.msg}` : JSON.stringify(x))).join("; ");
    }
    if (d) return JSON.stringify(d);
  }
  if (typeof body === "string" && body.trim()) return body.trim().slice(0, 400);
  return `the server answered ${status}`;
}

/** fetch JSON; throws ApiError with the server's message on any failure. */
export async function api(path, options = {}) {
  const init = { headers: { Accept: "application/json" }, ...options };
  if (options.json !== undefined) {
    init.method = init.method || "POST";
    init.headers = { ...init.headers, "Content-Type": "application/json" };
    init.body = JSON.stringify(options.json);
    delete init.json;
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, `cannot reach the server (${e.message || e})`);
  }
  const type = res.headers.get("content-type") || "";
  const body = type.includes("json") ? await res.json().catch(() => null) : await res.text().catch(() => "");
  if (!res.ok) throw new ApiError(res.status, messageOf(res.status, body));
  return body;
}

/** A table's id from the page's address: /table/{id}, /replay/{id}, or ?id=. */
export function tableIdFromLocation() {
  const q = new URLSearchParams(location.search).get("id");
  if (q) return q;
  const m = /\/(?:table|replay|tables)\/([^/?#]+)/.exec(location.pathname);
  return m ? decodeURIComponent(m[1]) : null;
}

export function tableUrl(id) {
  return `/table/${encodeURIComponent(id)}`;
}

export function replayUrl(id) {
  return `/replay/${encodeURIComponent(id)}`;
}

export function gameTitle(game) {
  return game === "baha" ? "Baha" : game === "baebae" ? "BAEBAE" : String(game || "");
}

/** A seat's name for people: the player's name, the bot's kind, or "Seat N". */
export function seatName(table, seat) {
  if (seat === null || seat === undefined) return "nobody";
  const s = table && Array.isArray(table.seats) ? table.seats.find((x) => x.seat === seat) || table.seats[seat] : null;
  if (s && s.name) return s.name;
  if (s && s.kind === "bot") return `${botTitle(s.bot)} ${seat + 1}`;
  return `Seat ${seat + 1}`;
}

export function botTitle(spec) {
  const kind = String(spec || "bot").split(":")[0];
  return { random: "Random", heuristic: "Heuristic", ismcts: "ISMCTS" }[kind] || kind;
}

/** Non-blocking notices in the page's toast area (role=alert for errors). */
export function notify(text, kind = "error", ms = 6000) {
  let area = document.querySelector("[data-testid=toasts]");
  if (!area) {
    area = h("div", { class: "toasts", "data-testid": "toasts" });
    document.body.append(area);
  }
  const node = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status", "data-testid": `toast-${kind}` },
    h("span", { text }),
    h("button", { class: "toast-close", type: "button", "aria-label": "Dismiss", onclick: () => node.remove() }, "\u00d7"));
  area.append(node);
  if (ms) setTimeout(() => node.remove(), ms);
  while (area.children.length > 4) area.firstElementChild.remove();
  return node;
}

function list(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * One public event in words, or null for events that say nothing to people.
 * `ctx`: {game, table, designs, seat} (seat: the reader's own seat, or null).
 */
export function describeEvent(e, ctx) {
  const { game, designs } = ctx;
  const name = (p) => seatName(ctx.table, p);
  const card = (c) => cardWords(game, c, designs);
  const cards = (cs) => {
    const all = cs || [];
    if (all.length && all.every((c) => c === "?")) return plural(all.length, "hidden card");
    return list(all.map(card));
  };
  switch (e.t) {
    case "hand":
      return `Hand ${e.n}: ${name(e.dealer)} deals.${e.pass && e.pass !== "none" ? ` Pass 3 cards ${e.pass === "right" ? "right (to the next seat)" : "left (to the previous seat)"}.` : " No passing this hand."}`;
    case "pass_pick":
      return e.card && e.card !== "?" ? `${name(e.p)} picks ${card(e.card)} to pass.` : `${name(e.p)} picks a card to pass.`;
    case "pass":
      if (game !== "baha" || e.from === undefined) return `${name(e.p)} passes.`;
      return `${name(e.from)} passes ${cards(e.cards)} to ${name(e.to)}.`;
    case "play":
      if (game === "baha") return `${name(e.p)} plays ${card(e.card)}.`;
      return e.under ? `${name(e.p)} puts ${card(e.card)} under the action card.` : `${name(e.p)} plays ${card(e.card)}.`;
    case "trick": {
      const lo = e.leftover && e.leftover.length ? `, and the ${plural(e.leftover.length, "leftover")} face down` : "";
      return `${name(e.winner)} takes trick ${e.n} (${plural(e.horns ?? 0, "horn")})${lo}.`;
    }
    case "draw":
      if (game === "baebae" && e.forced) return `${name(e.p)} must draw ${e.card && e.card !== "?" ? card(e.card) : "a card"}.`;
      return `${name(e.p)} draws ${e.card && e.card !== "?" ? card(e.card) : "a card"}.`;
    case "take":
      return `${name(e.p)} takes the last ${plural((e.cards || []).length, "card")} of the draw pile face down.`;
    case "score": {
      const pts = (e.points || []).map((p, i) => `${name(i)} ${p}`).join(", ");
      const moon = e.moon !== null && e.moon !== undefined ? ` ${name(e.moon)} shot the moon!` : "";
      return `Hand ${e.hand} scored: ${pts}.${moon}`;
    }
    case "end": {
      if (game === "baha") return `Game over. ${name(e.winner)} wins with ${(e.totals || [])[e.winner]} points.`;
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
}

export { BAHA_COLOURS, SUITS };
