// The lobby: quick play, the create-table form built from GET /api/catalog, and the list of
// tables (GET /api/tables, asked again every 3 seconds while the page is in view); TESTHOOKS.md
// lists the data-testids.

import { api, h, notify, gameTitle, gameInfo, loadGames, botTitle, ratingText, tableUrl, replayUrl, TOKEN_KEY, NAME_KEY, CREATOR_KEY } from "./common.js";

const $ = (id) => document.getElementById(id);
let catalog = null;
let refreshTimer = null;
/** How often the list of tables is asked again while the page is in view: tables appear,
 * fill and finish in it without a reload. */
const LIST_MS = 3000;

const nameInput = $("name-input");
nameInput.value = localStorage.getItem(NAME_KEY) || "";
nameInput.addEventListener("change", () => localStorage.setItem(NAME_KEY, nameInput.value.trim()));

function myName() {
  return nameInput.value.trim();
}

// ------------------------------------------------------------------ the form

function optionKind(opt) {
  const k = String(opt.kind || "").toLowerCase();
  if (opt.choices && opt.choices.length) return "choice";
  if (["bool", "boolean", "flag"].includes(k) || typeof opt.default === "boolean") return "bool";
  if (["int", "integer", "number", "float"].includes(k) || typeof opt.default === "number") return "int";
  return "text";
}

function ruleField(opt) {
  const kind = optionKind(opt);
  const id = `rule-${opt.name}`;
  const helpId = `${id}-help`;
  const help = opt.text ? h("span", { class: "option-help", id: helpId, "data-testid": helpId, text: opt.text }) : null;
  let input;
  if (kind === "choice") {
    input = h("select", { id, "data-testid": id, "data-rule": opt.name, "data-kind": kind },
      opt.default === null || opt.default === undefined ? h("option", { value: "", text: "default" }) : null,
      ...opt.choices.map((c) => h("option", { value: JSON.stringify(c), text: String(c), selected: c === opt.default })));
  } else if (kind === "bool") {
    // A select, not a checkbox, so an option whose default depends on the table can stay "default".
    input = h("select", { id, "data-testid": id, "data-rule": opt.name, "data-kind": kind },
      opt.default === null || opt.default === undefined ? h("option", { value: "", text: "default", selected: true }) : null,
      h("option", { value: "true", text: "on", selected: opt.default === true }),
      h("option", { value: "false", text: "off", selected: opt.default === false }));
  } else if (kind === "int") {
    input = h("input", {
      id, type: "number", "data-testid": id, "data-rule": opt.name, "data-kind": kind, step: 1,
      min: opt.min ?? null, max: opt.max ?? null, value: opt.default ?? "", placeholder: opt.default === null ? "default" : null,
    });
  } else {
    input = h("input", { id, type: "text", "data-testid": id, "data-rule": opt.name, "data-kind": kind, value: opt.default ?? "" });
  }
  input.dataset.default = JSON.stringify(opt.default ?? null);
  if (help) input.setAttribute("aria-describedby", helpId);
  const label = opt.label || opt.name.replace(/_/g, " ");
  return h("label", { for: id }, h("span", { class: "option-label", "data-testid": `${id}-label`, text: label }), input, help);
}

function readRules() {
  const rules = {};
  for (const input of document.querySelectorAll("[data-rule]")) {
    const kind = input.dataset.kind;
    const def = JSON.parse(input.dataset.default);
    let value;
    if (input.value === "") continue;
    if (kind === "choice") value = JSON.parse(input.value);
    else if (kind === "bool") value = input.value === "true";
    else if (kind === "int") value = Number(input.value);
    else value = input.value;
    if (value !== def) rules[input.dataset.rule] = value;
  }
  return rules;
}

/** A level's name as a title: "Expert". */
function levelTitle(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A level's rating on `game`'s ladder in words ("rated 16.5 on the Baha ladder, 1 of 6"), or "":
 * the figure the leaderboard shows for the same bot (ratingText). */
function levelRating(level, game) {
  const r = level.ratings && level.ratings[game];
  if (!r) return "";
  return `rated ${ratingText(r)} on the ${gameTitle(game)} ladder, ${r.place} of ${r.places}`;
}

/** "Expert: searches 1000 dealt worlds a move, rated 16.5 on the Baha ladder, 1 of 6". */
function levelText(level, game) {
  const rating = levelRating(level, game);
  return `${levelTitle(level.name)}: ${level.about}${rating ? `, ${rating}` : ""}`;
}

/** "Expert, rated 16.5" (the list under the seats says the rest). */
function levelShort(level, game) {
  const r = level.ratings && level.ratings[game];
  return `${levelTitle(level.name)}${r ? `, rated ${ratingText(r)}` : ""}`;
}

function seatOptions() {
  const bots = (catalog && catalog.bots) || ["random", "heuristic", "learned", "ismcts"];
  const levels = (catalog && catalog.levels) || [];
  const game = $("game-select").value;
  return [["human", "Human"], ...levels.map((l) => [l.name, `Bot: ${levelShort(l, game)}`]),
    ...bots.map((b) => [b, `Bot: ${botTitle(b)}`])];
}

/** Under the seats: every level, its agent and its rating on this game's ladder. */
function drawLevels() {
  const game = $("game-select").value;
  const levels = (catalog && catalog.levels) || [];
  $("levels-help").replaceChildren(...levels.map((l) => h("li", { "data-testid": `level-${l.name}` },
    levelText(l, game))));
}

function drawSeats() {
  const n = Number($("players-input").value) || 0;
  const box = $("seat-kinds");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  const bots = (catalog && catalog.bots) || [];
  const fallbackBot = bots.includes("heuristic") ? "heuristic" : bots[0] || "human";
  const items = [];
  for (let i = 0; i < Math.min(Math.max(n, 0), 12); i++) {
    const value = old[i] ?? (i === 0 ? "human" : fallbackBot);
    items.push(h("label", {}, `Seat ${i}${i === 0 ? " (you)" : ""}`,
      h("select", { "data-testid": `seat-kind-${i}`, name: `seat-${i}`, "aria-describedby": "seat-kinds-help" },
        ...seatOptions().map(([v, t]) => h("option", { value: v, text: t, selected: v === value })))));
  }
  box.replaceChildren(...items);
  drawLevels();
}

function drawGame() {
  const game = $("game-select").value;
  const info = catalog.games[game];
  const players = $("players-input");
  const [min, max] = info.players || [2, 6];
  players.min = min;
  players.max = max;
  const cur = Number(players.value);
  if (!(cur >= min && cur <= max)) players.value = Math.min(max, Math.max(min, 4));
  const skip = new Set(["players", "deck"]);
  $("rules").replaceChildren(...(info.options || []).filter((o) => !skip.has(o.name)).map(ruleField));
  const deckBox = $("deck-fieldset");
  deckBox.hidden = !info.decks;
  drawDecks(game);
  drawSeats();
}

/** The project's decks of `game` (each catalog deck names its game), then an upload. */
function drawDecks(game) {
  const sel = $("deck-select");
  const decks = (catalog.decks || []).filter((d) => d.game === game);
  sel.replaceChildren(
    ...decks.map((d) => h("option", { value: d.name, text: `${d.title || d.name}${d.cards ? ` (${d.cards} cards)` : ""}` })),
    h("option", { value: "__upload__", text: "Upload a deck file (.toml)\u2026" }));
  $("deck-file-label").hidden = sel.value !== "__upload__";
}

async function loadCatalog() {
  try {
    catalog = await loadGames();
  } catch (e) {
    $("create-error").textContent = `Cannot load what may be created: ${e.message}`;
    return;
  }
  const sel = $("game-select");
  sel.replaceChildren(...Object.keys(catalog.games).map((g) => h("option", { value: g, text: gameTitle(g) })));
  const withRules = Object.keys(catalog.games).filter((g) => catalog.games[g].rules);
  $("rules-links").replaceChildren(...(withRules.length ? [h("span", { text: "Rules:" })] : []),
    ...withRules.map((g) => h("a", { href: catalog.games[g].rules, "data-testid": `rules-link-${g}` }, `How to play ${gameTitle(g)}`)));
  const studio = Object.keys(catalog.games).filter((g) => catalog.games[g].studio);
  $("studio-games").textContent = studio.map(gameTitle).join(" or ");
  $("studio-line").hidden = !studio.length;
  sel.addEventListener("change", drawGame);
  $("players-input").addEventListener("input", drawSeats);
  $("deck-select").addEventListener("change", () => {
    $("deck-file-label").hidden = $("deck-select").value !== "__upload__";
  });
  drawGame();
  drawQuickPlay();
}

function readFile(file) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error("could not read the file"));
    r.readAsText(file);
  });
}

/** The form's fields out of their bounds (a timer of 0, players past the game's), each as
 * "Its label: what the browser says is wrong". */
function fieldProblems(form) {
  return [...form.querySelectorAll("input, select")].filter((f) => f.type !== "file" && !f.validity.valid).map((f) => {
    const label = f.closest("label");
    const words = label ? [...label.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join(" ").trim() : "";
    return `${words || f.name}: ${f.validationMessage}`;
  });
}

$("create-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const err = $("create-error");
  err.textContent = "";
  if (!catalog) return;
  const game = $("game-select").value;
  const players = Number($("players-input").value);
  const seats = [...document.querySelectorAll("#seat-kinds select")].map((s) => s.value);
  const timerText = $("timer-input").value.trim();
  const name = myName();
  // A table of bots only is watched: the creator takes no seat, whatever name is filled in.
  const sits = seats.includes("human");
  const body = { game, players, rules: readRules(), deck: null, deck_toml: null, seats, timer: timerText ? Number(timerText) : null, name: sits && name ? name : null, private: $("private-input").checked };
  // Every problem the page can see is said at once: a missing name hides none of the others.
  const problems = [];
  if (sits && !name) problems.push("Enter your name (at the top) to take a seat, or make every seat a bot to watch.");
  const file = catalog.games[game].decks && $("deck-select").value === "__upload__" ? $("deck-file").files[0] : null;
  if (catalog.games[game].decks && $("deck-select").value === "__upload__") {
    if (!file) problems.push("Choose a deck file to upload, or pick one of the project's decks.");
    else if (file.size > 256 * 1024) problems.push("A deck file may hold at most 256 KiB.");
  }
  problems.push(...fieldProblems($("create-form")));
  if (problems.length) {
    err.textContent = problems.join("\n");
    if (sits && !name) nameInput.focus();
    return;
  }
  if (catalog.games[game].decks) {
    if (file) {
      body.deck_toml = await readFile(file);
      body.deck_file = file.name.slice(0, 100);
    } else body.deck = $("deck-select").value;
  }
  const btn = $("create-button");
  btn.disabled = true;
  try {
    const res = await api("/api/tables", { json: body });
    if (res.token) localStorage.setItem(TOKEN_KEY(res.id), res.token);
    if (res.creator_token) localStorage.setItem(CREATOR_KEY(res.id), res.creator_token);
    if (body.name) localStorage.setItem(NAME_KEY, name);
    location.href = res.url && res.url.startsWith("/") ? res.url : tableUrl(res.id);
  } catch (e) {
    err.textContent = e.message;
  } finally {
    btn.disabled = false;
  }
});

// ------------------------------------------------------------------ quick play


function drawQuickPlayers() {
  const info = catalog.games[$("quick-game").value];
  const [min, max] = info.players || [2, 6];
  const sel = $("quick-players");
  const keep = Number(sel.value) || 4;
  const sizes = [];
  for (let n = min; n <= Math.min(max, 6); n++) sizes.push(n);
  sel.replaceChildren(...sizes.map((n) => h("option", { value: String(n), text: `${n} players`, selected: n === Math.min(Math.max(keep, min), Math.min(max, 6)) })));
}

function drawQuickPlay() {
  const game = $("quick-game");
  game.replaceChildren(...Object.keys(catalog.games).map((g) => h("option", { value: g, text: gameTitle(g) })));
  game.addEventListener("change", drawQuickPlayers);
  game.addEventListener("change", drawQuickBots);
  drawQuickBots();
  drawQuickPlayers();
}

/** Play now's bots: the levels, each by its agent's spec, with its rating on the chosen game's ladder. */
function drawQuickBots() {
  const sel = $("quick-bots");
  const keep = sel.value || "heuristic";
  const levels = catalog.levels || [];
  sel.replaceChildren(...levels.map((l) => h("option", { value: l.spec, text: `${levelShort(l, $("quick-game").value)} (${l.spec})`, selected: l.spec === keep })));
}

$("quick-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const err = $("quick-error");
  err.textContent = "";
  if (!catalog) return;
  const game = $("quick-game").value;
  const players = Number($("quick-players").value);
  const bot = $("quick-bots").value;
  const name = myName() || "Guest";
  // A seat at a table Play now made for this game, size and level, in its wait; else a new table that
  // waits a few seconds for people who press Play now too, then bots take its free seats.
  // Not a table this browser sits at already: nobody plays against themselves.
  const mine = Object.keys(localStorage).filter((k) => k.startsWith(TOKEN_KEY(""))).map((k) => k.slice(TOKEN_KEY("").length)).slice(-200);
  const body = { game, players, bot, name, skip: mine };
  const btn = $("quick-button");
  btn.disabled = true;
  try {
    const res = await api("/api/quick", { json: body });
    if (res.token) localStorage.setItem(TOKEN_KEY(res.id), res.token);
    if (res.creator_token) localStorage.setItem(CREATOR_KEY(res.id), res.creator_token);
    location.href = res.url && res.url.startsWith("/") ? res.url : tableUrl(res.id);
  } catch (e) {
    err.textContent = e.message;
  } finally {
    btn.disabled = false;
  }
});

// ------------------------------------------------------------------ the tables

function seatsLine(t) {
  return (t.seats || []).map((s) => {
    if (s.kind === "bot") return `${botTitle(s.bot)} bot`;
    return s.name ? s.name : "free seat";
  }).join(" \u00b7 ");
}

function freeSeat(t) {
  return (t.seats || []).some((s) => s.kind === "human" && !s.name);
}

async function join(t) {
  const name = myName();
  if (!name) {
    notify("Enter your name at the top of the page first.");
    nameInput.focus();
    return;
  }
  try {
    const res = await api(`/api/tables/${encodeURIComponent(t.id)}/join`, { json: { name } });
    localStorage.setItem(TOKEN_KEY(t.id), res.token);
    localStorage.setItem(NAME_KEY, name);
    location.href = tableUrl(t.id);
  } catch (e) {
    notify(e.status === 409 ? `That table has no free seat any more (${e.message}).` : e.message);
    refresh();
  }
}

function tableItem(t) {
  const mine = localStorage.getItem(TOKEN_KEY(t.id));
  const actions = [];
  if (t.status === "over") {
    actions.push(h("a", { class: "button", href: replayUrl(t.id), "data-testid": `replay-link-${t.id}` }, "Replay"));
    actions.push(h("a", { class: "button", href: `/api/tables/${encodeURIComponent(t.id)}/record`, download: `cardroom-${t.id}.json`, "data-testid": `record-link-${t.id}` }, "Download record"));
    if (gameInfo(t.game)?.decks) {
      // The deck's file: a record names an uploaded deck by this file's name; keep it beside.
      actions.push(h("a", { class: "button", href: `/api/tables/${encodeURIComponent(t.id)}/deck`, "data-testid": `deck-link-${t.id}` }, "Download deck"));
    }
  } else {
    if (mine) actions.push(h("a", { class: "button primary", href: tableUrl(t.id), "data-testid": `rejoin-link-${t.id}` }, "Back to your seat"));
    else if (freeSeat(t)) actions.push(h("button", { type: "button", class: "primary", "data-testid": `join-button-${t.id}`, onclick: () => join(t) }, "Join"));
    actions.push(h("a", { class: "button", href: tableUrl(t.id), "data-testid": `watch-link-${t.id}` }, "Watch"));
  }
  const created = t.created ? new Date(typeof t.created === "number" ? t.created * 1000 : t.created) : null;
  return h("li", { class: "table-item", "data-testid": `table-${t.id}`, "data-status": t.status },
    h("div", { class: "row" },
      h("strong", { text: `${gameTitle(t.game)} \u00b7 ${t.players} players` }),
      h("span", { class: `chip status-${t.status}`, text: t.closed ? "closed unfinished" : t.status }),
      t.timer ? h("span", { class: "chip", text: `${t.timer}s timer` }) : null,
      t.deck && t.deck.name ? h("span", { class: "chip", text: t.deck.name }) : null,
      h("span", { class: "muted small", text: `table ${t.id}` }),
      created && !isNaN(created) ? h("span", { class: "muted small", text: created.toLocaleString() }) : null),
    h("div", { class: "seats-line", text: seatsLine(t) }),
    h("div", { class: "row" }, actions));
}

function asList(body) {
  if (Array.isArray(body)) return body;
  if (body && Array.isArray(body.tables)) return body.tables;
  return [];
}

async function refresh() {
  const errBox = $("list-error");
  try {
    const [open, over] = await Promise.all([api("/api/tables"), api("/api/tables?status=over")]);
    const live = asList(open).filter((t) => t.status !== "over");
    $("table-list").replaceChildren(...(live.length ? live.map(tableItem) : [h("li", { class: "empty", text: "No tables yet: create one." })]));
    const done = asList(over).slice(0, 30);
    $("over-list").replaceChildren(...(done.length ? done.map(tableItem) : [h("li", { class: "empty", text: "No finished games yet." })]));
    errBox.textContent = "";
  } catch (e) {
    errBox.textContent = `Cannot list the tables: ${e.message}`;
  }
}

function schedule() {
  clearInterval(refreshTimer);
  refreshTimer = setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, LIST_MS);
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") refresh();
});

// The list names each game by the catalog's title: it is drawn once the catalog is in.
loadCatalog().finally(() => {
  refresh();
  schedule();
});
