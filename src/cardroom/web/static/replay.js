// The replay page: GET /api/tables/{id}/replay?seat=K, then step back and forth through the
// views with the table page's renderer. Arrow keys step; Home/End jump to the ends.

import { TableView, actionWords, cardFace } from "./render.js";
import { api, h, notify, seatName, gameTitle, gameInfo, loadGames, describeEvent, tableIdFromLocation } from "./common.js";

const id = tableIdFromLocation();
const $ = (t) => document.querySelector(`[data-testid="${t}"]`);
const params = new URLSearchParams(location.search);

let table = null;
let steps = [];
let designs = null;
let index = 0;
let playTimer = null;

const tv = new TableView({
  seats: $("seats"), center: $("center"), turn: $("turn-indicator"), decision: $("decision"),
  hand: $("hand"), scores: $("scores"), standings: $("standings"), log: $("log"),
  detail: $("card-detail"), lastTrick: $("last-trick"), lastTrickPanel: $("last-trick-panel"),
}, {});

const seatSel = $("replay-seat");

/** The views of one step: one view, or one per seat when the replay is seen by every seat. */
function viewsOf(step) {
  const v = step.views ?? step.view;
  if (Array.isArray(v)) return v;
  if (v && typeof v === "object" && !v.game && Object.keys(v).every((k) => /^\d+$/.test(k))) {
    return Object.keys(v).sort((a, b) => a - b).map((k) => v[k]);
  }
  return [v];
}

function show(i) {
  if (!steps.length) return;
  index = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[index];
  const views = viewsOf(step);
  const all = seatSel.value === "all";
  let v = views[0];
  if (all && views.length > 1) {
    const cp = views[0] && views[0].current_player;
    v = views[cp ?? 0] || views[0];
  }
  const events = [];
  for (let k = 0; k <= index; k++) events.push(...(steps[k].events || []));
  const seat = all ? (views.length > 1 ? v.seat : null) : Number(seatSel.value);
  tv.render({
    view: v, table, moves: [], events, designs, deadline: null,
    seat: seat ?? null, spectator: seat === null || seat === undefined, replay: true,
  });
  drawOtherHands(views, v, all);
  $("replay-step").textContent = `Step ${index + 1} of ${steps.length}`;
  const who = step.seat !== null && step.seat !== undefined ? seatName(table, step.seat) : null;
  // A step's move is data (null for the deal, and for a choice this seat could not see: hidden).
  const words = step.move || step.hidden ? actionWords(v && v.game ? v.game : table.game, step.move, designs, (i) => seatName(table, i)) : null;
  $("replay-action").textContent = words ? `${who ? `${who}: ` : ""}${words}` : "The deal";
  const slider = $("replay-slider");
  slider.max = String(steps.length - 1);
  slider.value = String(index);
  document.body.dataset.step = String(index);
  $("replay-prev").disabled = index === 0;
  $("replay-first").disabled = index === 0;
  $("replay-next").disabled = index === steps.length - 1;
  $("replay-last").disabled = index === steps.length - 1;
  const ctx = { game: v && v.game, table, designs, seat };
  const said = (step.events || []).map((e) => describeEvent(e, ctx)).filter(Boolean).slice(-2).join(" ");
  $("live").textContent = said;
  const u = new URL(location.href);
  u.searchParams.set("seat", seatSel.value);
  u.searchParams.set("step", String(index));
  history.replaceState(null, "", u);
}

/** With every seat's point of view, every hand is shown, each under its seat's name. */
function drawOtherHands(views, shown, all) {
  const box = $("replay-hands");
  const rows = [];
  if (all && shown) {
    const game = shown.game;
    const hands = views.length > 1 ? views.map((x) => (x ? x.hand : [])) : Array.isArray(shown.hands) ? shown.hands : [];
    hands.forEach((hand, s) => {
      if (views.length > 1 && s === shown.seat) return;
      rows.push(h("div", { class: "other-hand", "data-testid": `replay-hand-${s}` },
        h("span", { class: "who", text: seatName(table, s) }),
        ...(hand || []).map((c) => cardFace(game, c, designs, "small"))));
    });
  }
  box.replaceChildren(...rows);
  box.hidden = rows.length === 0;
  // With every hand shown below, the empty "hand" of the public view says nothing.
  document.querySelector(".hand-wrap").hidden = rows.length > 0;
}

/** A deck's card designs: from the replay if it carries them, else from a spectator's welcome. */
function designsFromWelcome() {
  return new Promise((resolve) => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    const done = (v) => {
      try { ws && ws.close(); } catch { /* closed already */ }
      resolve(v);
    };
    try {
      ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(id)}`);
    } catch {
      resolve(null);
      return;
    }
    const timer = setTimeout(() => done(null), 4000);
    ws.addEventListener("open", () => ws.send(JSON.stringify({ type: "hello", token: null })));
    ws.addEventListener("message", (ev) => {
      try {
        const msg = JSON.parse(ev.data);
        if (msg.type === "welcome") {
          clearTimeout(timer);
          done(Array.isArray(msg.cards) ? msg.cards : null);
        }
      } catch { /* not JSON: ignore */ }
    });
    ws.addEventListener("error", () => { clearTimeout(timer); done(null); });
  });
}

async function load(seat) {
  stop();
  try {
    const base = `/api/tables/${encodeURIComponent(id)}/replay?seat=${encodeURIComponent(seat)}`;
    const res = await api(base);
    steps = Array.isArray(res) ? res : res.steps || [];
    if (Array.isArray(res.cards)) designs = new Map(res.cards.map((c) => [String(c.key).toUpperCase(), c]));
    // the server answers a long game a window at a time: fetch the rest
    while (!Array.isArray(res) && res.total > steps.length) {
      const more = await api(`${base}&start=${steps.length}`);
      if (!more.steps || !more.steps.length) break;
      steps = steps.concat(more.steps);
    }
  } catch (e) {
    notify(e.status === 409 ? "This game is not over yet: its replay opens when it ends." : `Cannot load the replay: ${e.message}`, "error", 0);
    $("turn-indicator").textContent = "No replay";
    return false;
  }
  if (!steps.length) {
    $("turn-indicator").textContent = "This game has no steps.";
    return false;
  }
  return true;
}

function stop() {
  clearInterval(playTimer);
  playTimer = null;
  $("replay-play").setAttribute("aria-pressed", "false");
  $("replay-play").textContent = "Play";
}

async function main() {
  if (!id) {
    notify("No table in the address.", "error", 0);
    return;
  }
  $("record-link").href = `/api/tables/${encodeURIComponent(id)}/record`;
  try {
    await loadGames();
    table = await api(`/api/tables/${encodeURIComponent(id)}`);
  } catch (e) {
    notify(`Cannot load the table: ${e.message}`, "error", 0);
    return;
  }
  $("table-title").textContent = `${gameTitle(table.game)} replay \u00b7 table ${table.id}`;
  document.title = `${gameTitle(table.game)} replay \u00b7 Cardroom`;
  $("status").textContent = table.status;
  $("status").dataset.status = table.status;
  $("status").className = `chip status-${table.status}`;
  const options = [h("option", { value: "all", text: "every seat" })];
  for (let s = 0; s < table.players; s++) options.push(h("option", { value: String(s), text: `${seatName(table, s)} (seat ${s})` }));
  seatSel.replaceChildren(...options);
  const wanted = params.get("seat");
  seatSel.value = wanted && [...seatSel.options].some((o) => o.value === wanted) ? wanted : "all";
  if (gameInfo(table.game)?.decks) {
    const cards = await designsFromWelcome();
    if (cards) designs = new Map(cards.map((c) => [String(c.key).toUpperCase(), c]));
  }
  if (await load(seatSel.value)) show(Number(params.get("step")) || 0);
}

seatSel.addEventListener("change", async () => {
  const keep = index;
  if (await load(seatSel.value)) show(keep);
});
$("replay-first").addEventListener("click", () => { stop(); show(0); });
$("replay-prev").addEventListener("click", () => { stop(); show(index - 1); });
$("replay-next").addEventListener("click", () => { stop(); show(index + 1); });
$("replay-last").addEventListener("click", () => { stop(); show(steps.length - 1); });
$("replay-slider").addEventListener("input", (ev) => { stop(); show(Number(ev.target.value)); });
$("replay-play").addEventListener("click", () => {
  if (playTimer) {
    stop();
    return;
  }
  if (index >= steps.length - 1) show(0);
  $("replay-play").setAttribute("aria-pressed", "true");
  $("replay-play").textContent = "Pause";
  playTimer = setInterval(() => {
    if (index >= steps.length - 1) stop();
    else show(index + 1);
  }, 700);
});
document.addEventListener("keydown", (ev) => {
  if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
  if (ev.key === "ArrowRight") { stop(); show(index + 1); ev.preventDefault(); }
  else if (ev.key === "ArrowLeft") { stop(); show(index - 1); ev.preventDefault(); }
  else if (ev.key === "Home") { stop(); show(0); ev.preventDefault(); }
  else if (ev.key === "End") { stop(); show(steps.length - 1); ev.preventDefault(); }
});

main();
