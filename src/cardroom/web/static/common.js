// Helpers shared by the lobby, the table and the replay pages: HTTP, seat names, notices,
// and the public events in words.

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

/** The CSRF token of a signed-in session (its readable cookie), or "" for a guest. */
export function csrfToken() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("cardroom_csrf="));
  return found ? decodeURIComponent(found.slice("cardroom_csrf=".length)) : "";
}

/** The account this browser is signed in as ({signed_in, name}). */
export async function account() {
  try {
    return await api("/api/account");
  } catch {
    return { signed_in: false };
  }
}

/** fetch JSON; throws ApiError with the server's message on any failure. */
export async function api(path, options = {}) {
  const init = { headers: { Accept: "application/json" }, ...options };
  const csrf = csrfToken();
  const changes = options.json !== undefined || (init.method && init.method.toUpperCase() !== "GET");
  if (csrf && changes) {
    // a signed-in request that changes something proves it comes from this site's pages
    init.headers = { ...init.headers, "X-CSRF-Token": csrf };
  }
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

// ------------------------------------------------------------------ the games

/*
 * The games come from GET /api/catalog, each with the renderer module that draws it
 * (static/games/<game>.js, named by the game's spec); a page calls loadGames() before it
 * draws, and the common modules ask renderer(view.game) for everything a game decides.
 * A renderer is the module's default export, an object with:
 *
 *   cardSvg(text, designs)      the SVG of a card's face, or of its back for "?"
 *   cardLabel(text, designs)    a card in words for screen readers and tooltips
 *   cardWords(text, designs)    a card in a few words, for the log, moves and notes
 *   sortKey(text)               the order of a hand (smallest first)
 *   seatStats(view, seat)       the game's figures on a seat's plate (nodes)
 *   center(view, state, tv)     the table's middle (nodes); tv is the TableView (names,
 *                               cardFace, showDetail)
 *   isResult(event)             whether the event ends a deal: its result panel opens
 *   resultPanel(event, view, state, tv)   that panel: {title, note (a node or null), head
 *                               (column titles), rows (one per seat: [its name, ...cells])}
 *   scores(view, state, tv)     the score table: {unit (its first column's title), rows (<tr>
 *                               nodes, one per deal), target (how the game is won, in words)}
 *   winners(view)               the winning seats of a finished game ([] to rank by totals)
 *   eventWords(event, say)      an event in words, or null; say: {name, card, cards, list,
 *                               plural}
 * and, where the game has them:
 *   passing                     {key, need, to} of (view): cards passed together, chosen
 *                               one by one in the hand and sent with one button
 *   lastTrick(view, tv)         the side panel of the last trick (nodes or null)
 *   walkthrough                 a first game's steps, each a sentence (an array)
 *   hintWords(move, view, tv)   the heuristic's rule of thumb behind a suggested move (or null)
 *   takenBy(view)               the seat that took the cards just gone from the table (a
 *                               trick's), for their move toward it; or null
 *   logRun(event), runWords(events, say)   events told together: a run of events with one
 *                               logRun key makes one line of the log, in runWords's words
 * A card a seat put on the table (in `center`) carries data-seat (whose) and data-motion (a
 * key of its own): render.js moves it in from that seat's side when it appears; tv.position(i)
 * says where seat i sits ("bottom", "left", "top"...).
 *   detail(text, designs)       the card-detail panel of a card (nodes or null)
 *   button(move, make, view, tv)    the button for a move not made with a card (or null);
 *                               a move is data: {action, kind, card, suit, seat, option}
 *   actionWords(move, designs, seatName)   a move in words, where the game words it its own
 *                               way (or null for the common wording)
 */

const games = {};

/** The catalog, with every game's renderer loaded; the pages call it once before drawing. */
export async function loadGames() {
  const catalog = await api("/api/catalog");
  await Promise.all(Object.entries(catalog.games).map(async ([game, info]) => {
    games[game] = { ...info, renderer: info.renderer ? (await import(info.renderer)).default : null };
  }));
  return catalog;
}

/** What the catalog says of `game` (title, decks, options...), or null for a game it lacks. */
export function gameInfo(game) {
  return games[game] || null;
}

/** The renderer of `game`; an error that names the game if none was loaded. */
export function renderer(game) {
  const r = games[game]?.renderer;
  if (!r) throw new Error(`this server has no renderer for the game ${JSON.stringify(game)}`);
  return r;
}

export function gameTitle(game) {
  return games[game]?.title ?? String(game || "");
}

/** A seat's name for people, as the server names it for every front and record (its
 * summary's `title`: the player's name, a bot's kind and seat "Heuristic 2", or "Seat 2";
 * cardroom/seats.py). Seats keep the game's numbers, from 0. */
export function seatName(table, seat) {
  if (seat === null || seat === undefined) return "nobody";
  const s = table && Array.isArray(table.seats) ? table.seats.find((x) => x.seat === seat) || table.seats[seat] : null;
  if (s && s.title) return s.title;
  if (s && s.name) return s.name;
  return `Seat ${seat}`;
}

export function botTitle(spec) {
  const kind = String(spec || "bot").split(":")[0];
  return { random: "Random", heuristic: "Heuristic", learned: "Learned", ismcts: "ISMCTS" }[kind] || kind;
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
  return renderer(game).eventWords(e, { name, card, cards, list, plural }) ?? null;
}

/**
 * Events a game tells together (its renderer's `logRun` gives them one key: Baha's pass picks,
 * one line a pass round), in words: one line for all of `events`.
 */
export function describeRun(events, ctx) {
  const { game, designs } = ctx;
  const name = (p) => seatName(ctx.table, p);
  const card = (c) => cardWords(game, c, designs);
  return renderer(game).runWords(events, { name, card, list, plural }) ?? null;
}

/** The words for a card, for the log and labels ("?" is a card nobody here may see). */
export function cardWords(game, text, designs) {
  if (text === "?" || text == null) return "a hidden card";
  return renderer(game).cardWords(text, designs);
}

/** A rating as every page shows it (the lobby's levels, the leaderboard, a player's page): the
 * cautious figure (docs/web.md says how it is worked out), to one decimal. */
export function ratingText(rating) {
  return rating.ordinal.toFixed(1);
}

/** Where the bots' ratings come from, in words, from a ladder's `source` (leaderboard, player pages). */
export function botSource(game, source) {
  if (!source) return `${gameTitle(game)}'s bots have no ratings in this version of Cardroom.`;
  return `The bots are rated on games among themselves, not from games with people: every bot played every other ` +
    `on the same ${source.deals} deals (${source.games} games, ${source.made}). People and bots are rated the same way ` +
    `but never against each other, so compare the two lists only as a rough guide.`;
}
