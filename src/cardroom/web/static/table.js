// The table page: one WebSocket to /ws/tables/{id} (docs/web.md), one seat or a spectator.
//
// Test hooks (data-testid; the full list is in TESTHOOKS.md):
//   body[data-seq]        seq of the last update drawn (-1 before any); also "seq" (hidden text)
//   status                the table's status: waiting | running | over (data-status too)
//   connection            data-state: connecting | open | closed
//   turn-indicator        whose turn ("Your turn", "Ada's turn", "Game over"); data-turn = seat
//   countdown             seconds left when the table has a timer (data-deadline, Unix seconds)
//   seats / seat-<i>      one plate per seat, data-turn="true" on the seat to act
//   hand                  your hand; each card button card-<TEXT> (card-9P, card-6C#2),
//                         data-card, data-legal="true|false", aria-pressed while chosen to pass
//   moves                 the move buttons: move-draw, move-pass, move-done, move-yes, move-no,
//                         move-declare-<C|D|H|S>, move-target-<seat>, move-option-<k>,
//                         pass-confirm (Baha: sends the chosen passes one after another)
//   pending               the decision asked of you (view.pending.text)
//   trick, trick-card-<TEXT>, led, last-trick, last-trick-<TEXT>         (Baha)
//   discard, discard-top (data-card), suit-in-play (data-suit, data-declared),
//   stock, direction, card-detail                                        (BAEBAE)
//   scores, standings, shame, log, live, toasts / toast-error
//   join-bar, join-form, join-name, join-button (a spectator taking a free seat; signed in,
//                         no name: the button says "Take a free seat as NAME")
//   share-bar, share-link, share-copy (while human seats wait: the link to send friends)

import { TableView, handKeys } from "./render.js";
import { api, account, h, notify, seatName, gameTitle, gameInfo, describeEvent, loadGames, renderer, tableIdFromLocation, TOKEN_KEY, NAME_KEY, CREATOR_KEY } from "./common.js";

const id = tableIdFromLocation();
const $ = (t) => document.querySelector(`[data-testid="${t}"]`);

const state = {
  view: null, table: null, moves: [], events: [], designs: null, deadline: null,
  seat: null, spectator: true, seq: -1, replay: false, result: null,
};
// How many hand (or round) results this browser has seen and closed with Continue, per table.
const SEEN_KEY = `cardroom.results.${id}`;
let seenResults = null;

let ws = null;
let welcomed = false;
let sentToken = null;
let retry = 0;
let retryTimer = null;
let pingTimer = null;
let busyTimer = null;
let passQueue = [];
let gone = false;
let closedWaiting = false;
let ready = false;

const view = new TableView({
  seats: $("seats"), center: $("center"), turn: $("turn-indicator"), decision: $("decision"),
  hand: $("hand"), scores: $("scores"), standings: $("standings"), log: $("log"),
  detail: $("card-detail"), lastTrick: $("last-trick"), lastTrickPanel: $("last-trick-panel"),
  lastTrickButton: $("last-trick-button"),
}, {
  onMove: (m) => send(m),
  onPass: (moves) => {
    passQueue = moves.slice(1).map((m) => m.action);
    send(moves[0]);
  },
  passInFlight: () => passQueue.length > 0,
  onSuggest: () => {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "hint", seq: state.seq }));
  },
  onContinue: () => {
    seenResults = resultEvents().length;
    if (!state.spectator) localStorage.setItem(SEEN_KEY, String(seenResults));
    draw();
    const first = document.querySelector("[data-testid=pass-confirm], [data-testid=hand] button.card.legal, [data-testid=moves] button");
    if (first) first.focus({ preventScroll: true });
  },
});

/** The events that end a deal (a hand, a round): each opens a result panel. */
function resultEvents() {
  const game = state.view?.game || state.table?.game;
  if (!game) return [];
  const { isResult } = renderer(game);
  return state.events.filter(isResult);
}

/** The latest result not yet closed with Continue; none once the game is over (the standings
 * say it all). A first visit to a table does not show the results of earlier hands. */
function pendingResult() {
  const results = resultEvents();
  if (seenResults === null) {
    // A player's count is kept across reloads; a spectator's page writes nothing to storage.
    const kept = localStorage.getItem(SEEN_KEY);
    seenResults = kept === null ? results.length : Number(kept) || 0;
  }
  const over = state.view?.phase === "over" || state.table?.status === "over";
  return results.length > seenResults && !over ? results[results.length - 1] : null;
}
handKeys($("hand"));

// Card motion is a setting of this browser (on unless turned off; prefers-reduced-motion
// turns it off whatever it says: render.js motionAllowed).
const MOTION_KEY = "cardroom.motion";
function setMotion(on) {
  document.documentElement.dataset.motion = on ? "on" : "off";
  $("motion-toggle").setAttribute("aria-pressed", on ? "true" : "false");
}
setMotion(localStorage.getItem(MOTION_KEY) !== "off");
$("motion-toggle").addEventListener("click", () => {
  const on = document.documentElement.dataset.motion === "off";
  localStorage.setItem(MOTION_KEY, on ? "on" : "off");
  setMotion(on);
});

function setConn(s, text) {
  const c = $("connection");
  c.dataset.state = s;
  c.textContent = text;
}

function setBusy(b) {
  view.busy = b;
  clearTimeout(busyTimer);
  // Never stay stuck: if no answer comes, let the player try again.
  if (b) busyTimer = setTimeout(() => { view.busy = false; draw(); }, 8000);
}

function send(move) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    notify("Not connected: reconnecting, try again in a moment.");
    return;
  }
  setBusy(true);
  ws.send(JSON.stringify({ type: "act", action: move.action, seq: state.seq }));
  draw();
}

function draw() {
  if (!state.view) {
    view.state = state;
    view.renderEmpty();
    if (closedWaiting) view.renderClosed();
    else if (state.table && state.table.status === "waiting") view.renderWaiting(state.table, state);
    drawHeader();
    return;
  }
  state.result = pendingResult();
  view.render(state);
  walkthrough();
  drawHeader();
}

function drawHeader() {
  const t = state.table;
  const status = $("status");
  // A waiting table its creator closed is gone ("closed"); a closed game is "over" and closed.
  const st = gone && closedWaiting ? "closed" : t ? t.status : "connecting";
  status.textContent = t && t.closed ? "closed" : st;
  status.dataset.status = st;
  status.className = `chip status-${st === "closed" ? "over" : st}`;
  if (t) {
    $("table-title").textContent = `${gameTitle(t.game)} \u00b7 table ${t.id}`;
    document.title = `${gameTitle(t.game)} \u00b7 Cardroom`;
    const rules = gameInfo(t.game)?.rules;
    $("rules-link").hidden = !rules;
    if (rules) $("rules-link").href = rules;
  }
  const closed = (gone && closedWaiting) || !!(t && t.closed);
  $("closed-bar").hidden = !closed;
  if (closed) {
    $("closed-text").textContent = t && t.closed && !closedWaiting
      ? "This game was closed by its creator before it ended. Its record is kept with the finished games."
      : "This table was closed by its creator before its game began.";
  }
  const behind = state.spectator && state.behind ? ` ${state.behind} action${state.behind === 1 ? "" : "s"} behind` : "";
  $("who").textContent = state.spectator ? `Watching${behind}` : `Seat ${state.seat}: ${seatName(t, state.seat)}`;
  const free = t && !gone && state.spectator && t.status !== "over" && (t.seats || []).some((s) => s.kind === "human" && !s.name);
  $("join-bar").hidden = !free;
  // While seats wait for people, the link to send them (the page's own address, no token).
  const waiting = t && !gone && t.status === "waiting" && (t.seats || []).some((s) => s.kind === "human" && !s.name);
  $("share-bar").hidden = !waiting;
  if (waiting) {
    $("share-link").value = `${location.origin}/table/${encodeURIComponent(t.id)}`;
    $("share-text").textContent = t.private
      ? "Invite friends: send them this link (a private table: the lobby does not list it)"
      : "Invite friends: send them this link";
  }
  drawTableActions(t);
}

/** Leave (a seated player), Close (the creator), Rematch (a finished game's players). */
function drawTableActions(t) {
  const open = t && !gone && t.status !== "over";
  $("leave-button").hidden = !(open && !state.spectator);
  $("close-button").hidden = !(open && localStorage.getItem(CREATOR_KEY(id)));
  const mine = localStorage.getItem(TOKEN_KEY(id)) || localStorage.getItem(CREATOR_KEY(id));
  const over = t && t.status === "over";
  $("rematch-bar").hidden = !(over && (t.rematch || mine));
  $("rematch-button").hidden = !!(t && t.rematch) || !mine;
  $("rematch-link").hidden = !(t && t.rematch);
  if (over) {
    $("rematch-text").textContent = t.rematch ? "A rematch is set up at the same seats." : "Play again with the same seats and rules?";
    if (t.rematch) $("rematch-link").href = `/table/${encodeURIComponent(t.rematch)}`;
  }
}

/** Take this table's tokens to the rematch: the same tokens hold the same seats there. */
function followRematch(newId) {
  for (const key of [TOKEN_KEY, CREATOR_KEY]) {
    const token = localStorage.getItem(key(id));
    if (token) localStorage.setItem(key(newId), token);
  }
  location.href = `/table/${encodeURIComponent(newId)}`;
}

async function leaveTable() {
  const token = localStorage.getItem(TOKEN_KEY(id));
  if (!token) return;
  const running = state.table && state.table.status === "running";
  if (!confirm(running ? "Leave this game? A bot plays your seat to the end, and you cannot come back to it." : "Leave your seat? It becomes free for someone else.")) return;
  try {
    await api(`/api/tables/${encodeURIComponent(id)}/leave`, { json: { token } });
    localStorage.removeItem(TOKEN_KEY(id));
    notify(running ? "You left the game: a bot plays your seat. You are watching." : "You left your seat.", "info", 4000);
  } catch (e) {
    notify(e.message);
  }
}

async function closeTable() {
  const token = localStorage.getItem(CREATOR_KEY(id));
  if (!token) return;
  const running = state.table && state.table.status === "running";
  if (!confirm(running ? "Close this table? The game ends unfinished for everyone (its record is kept)." : "Close this table? Nobody can join it any more.")) return;
  try {
    await api(`/api/tables/${encodeURIComponent(id)}/close`, { json: { token } });
    localStorage.removeItem(CREATOR_KEY(id));
    if (!running) tableClosed();
  } catch (e) {
    notify(e.message);
  }
}

async function askRematch() {
  const token = localStorage.getItem(TOKEN_KEY(id)) || localStorage.getItem(CREATOR_KEY(id));
  if (!token) return;
  try {
    const res = await api(`/api/tables/${encodeURIComponent(id)}/rematch`, { json: { token } });
    followRematch(res.id);
  } catch (e) {
    notify(e.message);
  }
}

/** A waiting table its creator closed: it is gone; stop calling the server. Said once, though
 * both the close's answer and the server's `closed` message tell it. */
function tableClosed() {
  if (gone && closedWaiting) return;
  gone = true;
  closedWaiting = true;
  localStorage.removeItem(TOKEN_KEY(id));
  setConn("closed", "table closed");
  notify("This table was closed by its creator. Back to the lobby to find another.", "error", 0);
  draw();
}

async function copyShareLink() {
  const input = $("share-link");
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    notify("Link copied.");
  } catch {
    // No clipboard here (a page not on https or localhost): the link stays selected to copy.
    notify("Copy the selected link with Ctrl+C (or long-press on a phone).");
  }
}

function announce(events) {
  const ctx = { game: state.view?.game || state.table?.game, table: state.table, designs: state.designs, seat: state.seat };
  const lines = events.map((e) => describeEvent(e, ctx)).filter(Boolean).slice(-3);
  const v = state.view;
  if (v && !state.spectator && v.current_player === state.seat && state.moves.length) lines.push("Your turn.");
  if (lines.length) $("live").textContent = lines.join(" ");
}

// -- the chat: every message shown as text (textContent), never as HTML --
const chatLog = document.querySelector('[data-testid="chat-log"]');
const chatForm = document.querySelector('[data-testid="chat-form"]');
const chatInput = document.querySelector('[data-testid="chat-input"]');
const chatError = document.querySelector('[data-testid="chat-error"]');

function onChat(msg) {
  const who = msg.seat === state.seat ? "You" : String(msg.name ?? `Seat ${msg.seat}`);
  chatLog.append(h("li", { "data-testid": "chat-line" }, h("strong", { text: `${who}: ` }), h("span", { text: String(msg.text ?? "") })));
  while (chatLog.children.length > 60) chatLog.firstElementChild.remove();
  chatLog.scrollTop = chatLog.scrollHeight;
}

function chatProblem(text) {
  chatError.textContent = text;
}

chatForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = chatInput.value.trim();
  if (!text || !ws || ws.readyState !== WebSocket.OPEN) return;
  chatError.textContent = "";
  ws.send(JSON.stringify({ type: "chat", text }));
  chatInput.value = "";
});

function onWelcome(msg) {
  welcomed = true;
  chatLog.replaceChildren();  // the history follows the welcome again
  chatForm.hidden = msg.seat === null || msg.seat === undefined;
  retry = 0;
  state.seat = msg.seat ?? null;
  state.spectator = state.seat === null;
  state.table = msg.table || state.table;
  if (Array.isArray(msg.cards)) {
    state.designs = new Map(msg.cards.map((c) => [String(c.key).toUpperCase(), c]));
  }
  // The first update after a (re)connect carries every event again.
  state.events = [];
  setConn("open", state.spectator ? "watching" : "connected");
  draw();
}

function onUpdate(msg) {
  state.seq = msg.seq;
  state.view = msg.view;
  state.moves = msg.moves || [];
  state.behind = msg.behind || 0;
  state.table = msg.table || state.table;
  state.now = msg.now ?? Date.now() / 1000;  // the server's time (Play now's wait counts in it)
  // The deadline in this browser's clock: the server sends its own time beside it.
  state.deadline = msg.deadline ? msg.deadline - (msg.now ?? Date.now() / 1000) + Date.now() / 1000 : null;
  const fresh = msg.events || [];
  state.events.push(...fresh);
  setBusy(false);
  document.body.dataset.seq = String(msg.seq);
  $("seq").textContent = String(msg.seq);
  // Cards passed together: the next chosen card, with this update's seq.
  if (passQueue.length) {
    const next = passQueue.shift();
    const m = state.moves.find((x) => x.action === next);  // a game's action numbers are fixed
    if (m) {
      draw();
      send(m);
      announce(fresh);
      return;
    }
    passQueue = [];
  }
  draw();
  announce(fresh);
}

// A first game's walkthrough, once per game in this browser (the game's renderer has the
// steps); a spectator is not walked through.
const WALK_KEY = (game) => `cardroom.walkthrough.${game}`;
let walkStep = null;

function walkthrough() {
  const box = $("walkthrough");
  const game = state.view?.game;
  const steps = game ? renderer(game).walkthrough || [] : [];
  if (walkStep === null && game && !state.spectator && steps.length && !localStorage.getItem(WALK_KEY(game))) walkStep = 0;
  if (walkStep === null || walkStep >= steps.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("walkthrough-step").textContent = `(${walkStep + 1} of ${steps.length})`;
  $("walkthrough-text").textContent = steps[walkStep];
  $("walkthrough-next").textContent = walkStep === steps.length - 1 ? "Got it" : "Next";
}

function endWalkthrough() {
  if (state.view?.game) localStorage.setItem(WALK_KEY(state.view.game), "done");
  walkStep = Infinity;
  walkthrough();
}

$("walkthrough-next").addEventListener("click", () => {
  const steps = renderer(state.view.game).walkthrough || [];
  if (walkStep + 1 >= steps.length) endWalkthrough();
  else {
    walkStep += 1;
    walkthrough();
  }
});
$("walkthrough-skip").addEventListener("click", endWalkthrough);

/** The heuristic's suggestion for this seat's turn: marked on its card or button, and said. */
function onHint(msg) {
  if (msg.seq !== state.seq) return;
  state.suggestion = msg.move;
  state.suggestionSeq = msg.seq;
  draw();
  const said = document.querySelector("[data-testid=suggestion]");
  if (said) $("live").textContent = said.textContent;
}

function onError(msg) {
  setBusy(false);
  passQueue = [];
  if (msg.code === "closed") {
    tableClosed();
    return;
  }
  if (msg.code === "left") {
    // This seat was given up (here or in another tab): watch from now on.
    localStorage.removeItem(TOKEN_KEY(id));
    state.seat = null;
    state.spectator = true;
    chatForm.hidden = true;
    setConn("open", "watching");
    draw();
    return;
  }
  if (!welcomed && sentToken && (msg.code === "not_seated" || msg.code === "bad_message")) {
    // The token we kept does not hold a seat here: forget it and watch instead.
    localStorage.removeItem(TOKEN_KEY(id));
    notify(`Your seat could not be taken back (${msg.message}); you are watching.`);
    if (ws) ws.close();
    return;
  }
  notify(msg.message ? `${msg.message}` : `Error: ${msg.code}`);
  draw();
}

function connect() {
  if (!id) {
    notify("No table in the address.", "error", 0);
    return;
  }
  clearTimeout(retryTimer);
  welcomed = false;
  setConn("connecting", retry ? "reconnecting\u2026" : "connecting\u2026");
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let sock;
  try {
    sock = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(id)}`);
  } catch (e) {
    scheduleReconnect();
    return;
  }
  ws = sock;
  sock.addEventListener("open", () => {
    sentToken = localStorage.getItem(TOKEN_KEY(id));
    // A spectator may watch a few actions behind the game (the address's ?delay=N, 0 to 20).
    const delay = sentToken ? 0 : Math.max(0, Math.min(20, Number(new URLSearchParams(location.search).get("delay")) || 0));
    sock.send(JSON.stringify({ type: "hello", token: sentToken || null, ...(delay ? { delay } : {}) }));
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ type: "ping" }));
    }, 25000);
  });
  sock.addEventListener("message", (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (sock !== ws) return;
    if (msg.type === "chat") onChat(msg);
    else if (msg.type === "error" && (msg.code === "bad_chat" || msg.code === "slow_down")) chatProblem(msg.message);
    else if (msg.type === "welcome") onWelcome(msg);
    else if (msg.type === "update") onUpdate(msg);
    else if (msg.type === "hint") onHint(msg);
    else if (msg.type === "error") onError(msg);
  });
  sock.addEventListener("close", (ev) => {
    if (sock !== ws || gone) return;
    clearInterval(pingTimer);
    setBusy(false);
    passQueue = [];
    setConn("closed", "disconnected");
    scheduleReconnect(ev);
  });
}

async function scheduleReconnect() {
  if (gone) return;
  retry += 1;
  // Is the table still there? A table that does not exist is not worth calling again.
  if (retry >= 2) {
    try {
      state.table = await api(`/api/tables/${encodeURIComponent(id)}`);
      drawHeader();
    } catch (e) {
      if (e.status === 404) {
        gone = true;
        setConn("closed", "no such table");
        notify(`There is no table ${id}. Back to the lobby to start one.`, "error", 0);
        return;
      }
    }
  }
  const wait = Math.min(10000, 500 * 2 ** Math.min(retry, 5));
  setConn("closed", `reconnecting in ${Math.round(wait / 1000)}s\u2026`);
  retryTimer = setTimeout(connect, wait);
}

$("share-copy").addEventListener("click", copyShareLink);
$("leave-button").addEventListener("click", leaveTable);
$("close-button").addEventListener("click", closeTable);
$("rematch-button").addEventListener("click", askRematch);
$("rematch-link").addEventListener("click", (ev) => {
  ev.preventDefault();
  if (state.table && state.table.rematch) followRematch(state.table.rematch);
});

// A signed-in person sits as the account: no name to type (the server seats the account).
let me = { signed_in: false };
account().then((found) => {
  me = found;
  const named = !!me.signed_in;
  const input = $("join-name");
  input.closest("label").hidden = named;
  input.required = !named;
  $("join-button").textContent = named ? `Take a free seat as ${me.name}` : "Take a free seat";
});

$("join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = $("join-name").value.trim();
  if (!me.signed_in && !name) return;
  const btn = $("join-button");
  btn.disabled = true;
  try {
    const res = await api(`/api/tables/${encodeURIComponent(id)}/join`, { json: me.signed_in ? {} : { name } });
    localStorage.setItem(TOKEN_KEY(id), res.token);
    if (!me.signed_in) localStorage.setItem(NAME_KEY, name);
    notify(`You sit at seat ${res.seat}.`, "info", 3000);
    retry = 0;
    if (ws) {
      const old = ws;
      ws = null;
      old.close();
    }
    connect();
  } catch (e) {
    notify(e.status === 409 ? `No free seat: ${e.message}` : e.message);
  } finally {
    btn.disabled = false;
  }
});
$("join-name").value = localStorage.getItem(NAME_KEY) || "";

// Deadline countdown, once a second (cheap: one text node).
setInterval(() => view.tickCountdown(), 1000);
document.addEventListener("visibilitychange", () => {
  if (ready && document.visibilityState === "visible" && (!ws || ws.readyState === WebSocket.CLOSED) && !gone) {
    retry = 0;
    connect();
  }
});

// Keyboard shortcuts for buttons: d draw, p pass (BAEBAE), Enter on a focused card plays it (native).
document.addEventListener("keydown", (ev) => {
  if (ev.target && /INPUT|TEXTAREA|SELECT/.test(ev.target.tagName)) return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const map = { d: "move-draw", p: "move-pass" };
  const t = map[ev.key];
  if (t) {
    const b = $(t);
    if (b && !b.disabled) {
      ev.preventDefault();
      b.click();
    }
  } else if (ev.key === "h") {
    const first = document.querySelector("[data-testid=hand] button.card[tabindex='0']");
    if (first) first.focus();
  }
});

// Every update is drawn by its game's renderer: the games are loaded before the first one.
loadGames().then(() => {
  ready = true;
  connect();
}, (e) => notify(`Cannot load the games of this server: ${e.message}`, "error", 0));
export { state, h };
