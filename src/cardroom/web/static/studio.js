// The designer's studio: a deck of a game the studio edits (GET /api/studio names them) opened
// (a copy of a project deck, or an upload), its cards edited in a form, checked by the server's deck checker as they change (its problems
// shown at their fields, in its words), each card drawn as the table draws it (the game's own
// renderer, loaded from where the server names it); versions saved
// with what changed; simulate and compare played on the server, with a progress bar, and the
// report read here, at an address that can be shared (/studio/runs/<id>).

import { api, h } from "./common.js";

const $ = (id) => document.getElementById(id);
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };
const TOKEN_KEY = (id) => `cardroom.studio.run.${id}`;
const CHECK_DELAY_MS = 250;

let meta = null;       // GET /api/studio: jobs, agents, bounds, and the games (steps, marks, decks, renderer)
const renderers = {};  // each game's renderer module, by game
let deck = null;       // the studio deck as the server answered it
let form = null;       // the form being edited
let current = 0;       // the card shown
let problems = [];     // the server's last word on the form
let rows = null;       // the cards as the table draws them (from the last valid check)
let checkTimer = null;
let checkSeq = 0;
let polling = null;

// -- opening ----------------------------------------------------------------------------

function readFile(file) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error("could not read the file"));
    r.readAsText(file);
  });
}

/** What GET /api/studio says of `name` (the game chosen to open, by default). */
function gameMeta(name = $("game-select").value) {
  return meta.games.find((g) => g.name === name) || meta.games[0];
}

function chooseGame(name) {
  const game = gameMeta(name);
  $("game-select").value = game.name;
  $("project-select").replaceChildren(...game.decks.map((d) => h("option", { value: d }, d)));
  $("studio-title").textContent = `Designer's studio: ${game.title} decks`;
  $("rules-link").href = `/rules/${encodeURIComponent(game.name)}`;
}

async function openDeck(body) {
  $("open-error").textContent = "";
  try {
    const answer = await api("/api/studio/decks", { json: { game: $("game-select").value, ...body } });
    history.pushState(null, "", answer.url);
    showDeck(answer);
  } catch (err) {
    $("open-error").textContent = err.message;
  }
}

$("open-project").addEventListener("click", () => openDeck({ project: $("project-select").value }));
$("upload-deck").addEventListener("click", async () => {
  const file = $("deck-file").files[0];
  if (!file) {
    $("open-error").textContent = "Choose a deck file first.";
    return;
  }
  let text;
  try {
    text = await readFile(file);
  } catch (err) {
    $("open-error").textContent = err.message;
    return;
  }
  openDeck({ deck_toml: text, deck_file: file.name });
});

// -- the deck and its cards -------------------------------------------------------------

function showDeck(answer) {
  deck = answer;
  chooseGame(answer.game);
  form = structuredClone(answer.form);
  rows = answer.cards;
  problems = [];
  current = Math.min(current, form.cards.length - 1);
  $("deck-panel").hidden = false;
  $("run-panel").hidden = false;
  $("version-chip").textContent = `Version ${answer.version} of ${answer.versions.length}`;
  $("deck-link").href = answer.url;
  $("deck-download").href = `/api/studio/decks/${answer.id}/versions/${answer.version}/toml`;
  $("deck-name").value = form.name;
  $("deck-description").value = form.description || "";
  $("deck-types").value = form.types.join(", ");
  drawVersions();
  drawRunVersions();
  drawList();
  drawCard();
  drawProblems();
}

function cardKey(card) {
  return `${card.rank}${card.suit}`.toUpperCase();
}

function problemsOf(index) {
  return problems.filter((p) => p.card === index);
}

function drawList() {
  const list = $("card-list");
  list.replaceChildren(...form.cards.map((card, i) => {
    const bad = problemsOf(i).length;
    const label = `${cardKey(card)} ${card.name || ""}`.trim();
    return h("li", {},
      h("button", {
        type: "button", class: `card-pick${i === current ? " is-current" : ""}${bad ? " has-problem" : ""}`,
        "aria-current": i === current ? "true" : null, dataset: { testid: "card-pick", index: String(i) },
        onclick: () => { current = i; drawList(); drawCard(); },
      }, label, bad ? h("span", { class: "problem-mark" }, ` (${bad} ${bad === 1 ? "problem" : "problems"})`) : null));
  }));
}

function design(card) {
  // The card as the table draws it: the last valid check's row for its notes, the form's words.
  const row = rows && rows[current] && rows[current].rank === card.rank && rows[current].suit === card.suit ? rows[current] : null;
  return {
    name: card.name, types: card.types, marks: card.marks, text: card.action.text,
    notes: row ? row.notes : [],
  };
}

function drawFace() {
  const card = form.cards[current];
  const key = cardKey(card);
  const designs = new Map([[key, design(card)]]);
  const face = $("card-face");
  const renderer = renderers[deck.game];
  if (!renderer) {
    face.replaceChildren();
    return;
  }
  face.replaceChildren(renderer.cardSvg(key, designs), h("figcaption", { class: "small muted" }, "As the table draws it"));
}

function checkbox(name, checked, testid, onchange) {
  return h("label", { class: "inline" },
    h("input", { type: "checkbox", checked, dataset: { testid }, onchange: (ev) => onchange(ev.target.checked) }), name);
}

function stepRow(step, j) {
  const steps = form.cards[current].action.steps;
  const known = gameMeta(deck.game).steps;
  const kinds = known.includes(step.step) ? known : [step.step, ...known];
  const select = h("select", { "aria-label": `Step ${j + 1}: its kind`, dataset: { testid: "step-kind" },
    onchange: (ev) => { steps[j].step = ev.target.value; edited(); } },
  ...kinds.map((k) => h("option", { value: k, selected: k === step.step }, k)));
  const fields = h("input", { class: "step-fields", value: step.fields, maxlength: "4000",
    "aria-label": `Step ${j + 1}: its fields`, "aria-describedby": `error-step-${j}`, dataset: { testid: "step-fields" },
    oninput: (ev) => { steps[j].fields = ev.target.value; edited(); } });
  const remove = h("button", { type: "button", class: "small", "aria-label": `Remove step ${j + 1}`,
    dataset: { testid: "step-remove" }, onclick: () => { steps.splice(j, 1); drawCard(); edited(); } }, "Remove");
  return h("li", { class: "step" }, h("div", { class: "step-line" }, select, fields, remove),
    h("span", { class: "field-error", id: `error-step-${j}`, dataset: { testid: "error-step" } }));
}

function drawCard() {
  const card = form.cards[current];
  $("card-title").textContent = `Card ${current + 1} of ${form.cards.length}: ${cardKey(card)} ${card.name || ""}`.trim();
  $("card-rank").replaceChildren(...RANKS.map((r) => h("option", { value: r, selected: r === card.rank }, r)));
  $("card-suit").replaceChildren(...Object.entries(SUITS).map(([s, name]) => h("option", { value: s, selected: s === card.suit }, name)));
  $("card-name").value = card.name;
  $("card-copies").value = card.copies;
  const types = [...new Set([...form.types, ...card.types])];
  $("card-types").replaceChildren(...types.map((t) => checkbox(t, card.types.includes(t), `type-${t}`, (on) => {
    card.types = on ? [...card.types, t] : card.types.filter((x) => x !== t);
    edited();
  })));
  $("card-marks").replaceChildren(...gameMeta(deck.game).marks.map((m) => checkbox(m, card.marks.includes(m), `mark-${m}`, (on) => {
    card.marks = on ? [...card.marks, m] : card.marks.filter((x) => x !== m);
    edited();
  })));
  $("action-text").value = card.action.text;
  for (const flag of ["optional", "can_win", "on_start"]) $(`flag-${flag}`).checked = Boolean(card.action[flag]);
  $("steps").replaceChildren(...card.action.steps.map(stepRow));
  drawFace();
  drawFieldProblems();
}

const FIELD_ERRORS = {
  rank: "error-rank", suit: "error-suit", name: "error-name", copies: "error-copies", types: "error-types",
  marks: "error-marks", "action.text": "error-action-text", action: "error-action", "action.optional": "error-action",
  "action.can_win": "error-action", "action.on_start": "error-action", steps: "error-steps",
};

function drawFieldProblems() {
  for (const id of new Set(Object.values(FIELD_ERRORS))) $(id).textContent = "";
  for (const box of document.querySelectorAll("[data-testid=error-step]")) box.textContent = "";
  const said = (id, text) => { const box = $(id); box.textContent = box.textContent ? `${box.textContent} ${text}` : text; };
  for (const p of problemsOf(current)) {
    if (p.field === "steps" && p.step !== null && $(`error-step-${p.step}`)) said(`error-step-${p.step}`, p.message);
    else said(FIELD_ERRORS[p.field] || "error-steps", p.message);
  }
  $("error-deck-name").textContent = problems.filter((p) => p.card === null && p.field === "name").map((p) => p.message).join(" ");
  $("error-deck-types").textContent = problems.filter((p) => p.card === null && p.field === "types").map((p) => p.message).join(" ");
}

function drawProblems() {
  const box = $("deck-check");
  if (!problems.length) {
    box.textContent = "The deck checker accepts this deck.";
    box.className = "deck-check ok";
  } else {
    box.textContent = `The deck checker finds ${problems.length} ${problems.length === 1 ? "problem" : "problems"}:`;
    box.className = "deck-check bad";
  }
  $("problem-list").replaceChildren(...problems.map((p) => h("li", { dataset: { testid: "problem" } },
    p.card !== null ? h("button", { type: "button", class: "link", onclick: () => { current = p.card; drawList(); drawCard(); } },
      `Card ${p.card + 1}`) : null, p.card !== null ? ": " : null, p.message)));
}

function edited() {
  drawFace();
  $("save-message").textContent = "";
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, CHECK_DELAY_MS);
}

async function check() {
  const seq = ++checkSeq;
  let answer;
  try {
    answer = await api(`/api/studio/check?game=${encodeURIComponent(deck.game)}`, { json: form });
  } catch (err) {
    answer = { ok: false, problems: [{ card: null, field: null, step: null, message: err.message }], cards: null };
  }
  if (seq !== checkSeq) return; // a later edit's check is on its way
  problems = answer.problems;
  if (answer.ok) rows = answer.cards;
  drawList();
  drawFieldProblems();
  drawFace();
  drawProblems();
  $("save-version").disabled = !answer.ok;
}

function bind(id, write) {
  $(id).addEventListener("input", (ev) => { write(ev.target); edited(); if (id === "card-name") drawList(); });
}
bind("deck-name", (t) => { form.name = t.value; });
bind("deck-description", (t) => { form.description = t.value; });
bind("deck-types", (t) => { form.types = t.value.split(",").map((x) => x.trim()).filter(Boolean); drawCard(); });
bind("card-name", (t) => { form.cards[current].name = t.value; });
bind("card-copies", (t) => { form.cards[current].copies = Number.isInteger(t.valueAsNumber) ? t.valueAsNumber : 0; });
bind("action-text", (t) => { form.cards[current].action.text = t.value; });
$("card-rank").addEventListener("change", (ev) => { form.cards[current].rank = ev.target.value; drawList(); edited(); });
$("card-suit").addEventListener("change", (ev) => { form.cards[current].suit = ev.target.value; drawList(); edited(); });
for (const flag of ["optional", "can_win", "on_start"]) {
  $(`flag-${flag}`).addEventListener("change", (ev) => { form.cards[current].action[flag] = ev.target.checked; edited(); });
}
$("add-step").addEventListener("click", () => {
  form.cards[current].action.steps.push({ step: "draw", fields: 'who = "next", count = 1' });
  drawCard();
  edited();
});

// -- versions ---------------------------------------------------------------------------

function drawVersions() {
  $("versions").replaceChildren(...[...deck.versions].reverse().map((v) => h("li", { dataset: { testid: "version" } },
    h("strong", {}, `Version ${v.number}`), ` · ${v.name} · ${new Date(v.created * 1000).toLocaleString()}`,
    v.changes.length
      ? h("ul", { class: "changes" }, ...v.changes.map((c) => h("li", { dataset: { testid: "change" } }, c.words)))
      : h("p", { class: "small muted" }, "As opened."))));
}

$("save-version").addEventListener("click", async () => {
  $("save-error").textContent = "";
  try {
    const answer = await api(`/api/studio/decks/${deck.id}/versions`, { json: { form, base: deck.version } });
    showDeck(answer);
    $("save-message").textContent = `Saved as version ${answer.version}.`;
  } catch (err) {
    $("save-error").textContent = err.message;
  }
});

// -- runs -------------------------------------------------------------------------------

function drawRunVersions() {
  const job = meta.jobs.find((j) => j.kind === $("run-kind").value) || meta.jobs[0];
  const single = job.versions[1] === 1;
  const newest = deck.version;
  $("run-versions").replaceChildren(...deck.versions.map((v) => h("label", { class: "inline" },
    h("input", { type: single ? "radio" : "checkbox", name: "run-version", value: String(v.number),
      checked: single ? v.number === newest : v.number === newest || v.number === newest - 1,
      dataset: { testid: `run-version-${v.number}` } }), `Version ${v.number}`)));
  $("run-about").textContent = job.about;
  for (const el of document.querySelectorAll("[data-tune]")) el.hidden = job.kind !== "tune";
}

$("run-kind").addEventListener("change", drawRunVersions);

$("run-start").addEventListener("click", async () => {
  $("run-error").textContent = "";
  const versions = [...document.querySelectorAll("input[name=run-version]:checked")].map((x) => Number(x.value));
  const settings = {
    games: $("run-games").valueAsNumber, players: $("run-players").valueAsNumber,
    agents: $("run-agents").value, seed: $("run-seed").valueAsNumber,
  };
  if ($("run-kind").value === "tune") {
    Object.assign(settings, { param: $("run-param").value.trim(), target: $("run-target").value.trim(),
      trials: $("run-trials").valueAsNumber });
  }
  for (const [k, v] of Object.entries(settings)) {
    if (!["agents", "param", "target"].includes(k) && !Number.isInteger(v)) {
      $("run-error").textContent = `${k}: give a whole number`;
      return;
    }
  }
  try {
    const run = await api("/api/studio/runs", { json: { kind: $("run-kind").value, deck: deck.id, versions, settings } });
    sessionStorage.setItem(TOKEN_KEY(run.id), run.token);
    history.pushState(null, "", run.url);
    followRun(run);
    showRunPanel();
  } catch (err) {
    $("run-error").textContent = err.message;
  }
});

$("run-cancel").addEventListener("click", async () => {
  const id = $("run-cancel").dataset.run;
  try {
    followRun(await api(`/api/studio/runs/${id}/cancel`, { json: { token: sessionStorage.getItem(TOKEN_KEY(id)) || "" } }));
  } catch (err) {
    $("run-error").textContent = err.message;
  }
});

const STATUS_WORDS = {
  waiting: "Waiting for a worker", running: "Running", done: "Done", failed: "Failed",
  cancelled: "Cancelled", stopped: "Stopped",
};

function drawRun(run) {
  $("report-panel").hidden = false;
  $("run-status").textContent = STATUS_WORDS[run.status] || run.status;
  $("run-status").className = `chip status-${run.status === "done" ? "running" : run.status === "running" ? "waiting" : "over"}`;
  const s = run.settings;
  $("run-what").textContent = `${run.title}: version${run.versions.length > 1 ? "s" : ""} ${run.versions.join(", ")}, `
    + `${s.games} games each, ${s.players} players, ${s.agents} bots, seeds from ${s.seed}`;
  const link = new URL(run.url, location.href).href;
  $("run-link").href = run.url;
  $("run-link").textContent = link;
  $("run-deck-link").href = run.deck_url;
  $("run-progress").max = run.games;
  $("run-progress").value = run.played;
  $("run-progress-text").textContent = `${run.played} of ${run.games} games played`;
  $("run-failure").textContent = run.error || "";
  const mine = Boolean(sessionStorage.getItem(TOKEN_KEY(run.id)));
  $("run-cancel").hidden = !(mine && (run.status === "waiting" || run.status === "running"));
  $("run-cancel").dataset.run = run.id;
}

// After Run (or on a run's own address) the page goes to the run: its progress, then (once the
// page is long enough to bring it to the top) its report.
let goToReport = false;

function scrollToRun() {
  // At once, not smoothly: the Cancel button must hold still for whoever reaches for it.
  $("report-panel").scrollIntoView({ block: "start" });
}

function showRunPanel() {
  $("report-panel").hidden = false;
  goToReport = true;
  scrollToRun();
  $("report-title").focus({ preventScroll: true });
}

async function followRun(run) {
  clearTimeout(polling);
  $("report").replaceChildren();
  $("report-text-box").hidden = true;
  drawRun(run);
  if (run.status === "waiting" || run.status === "running") {
    polling = setTimeout(async () => {
      try {
        followRun(await api(`/api/studio/runs/${run.id}`));
      } catch (err) {
        $("run-failure").textContent = err.message;
      }
    }, 400);
    return;
  }
  if (run.status !== "done") return;
  const full = await api(`/api/studio/runs/${run.id}?report=true`);
  drawRun(full);
  // The report is the server's own HTML (every value escaped, plots as data: images); the
  // page's policy runs no script in it.
  const holder = h("div", { class: "report-body", dataset: { testid: "report-body" } });
  holder.innerHTML = full.report_html || "";
  for (const heading of holder.querySelectorAll("h1")) heading.outerHTML = `<h3>${heading.innerHTML}</h3>`;
  // a table wider than the page scrolls: it takes the keyboard's focus, so it can be scrolled
  for (const box of holder.querySelectorAll(".scroll")) box.tabIndex = 0;
  $("report").replaceChildren(holder);
  $("report-text").textContent = full.report_text || "";
  $("report-text-box").hidden = false;
  if (goToReport) {
    goToReport = false;
    scrollToRun();
  }
}

// -- the page ---------------------------------------------------------------------------

async function start() {
  meta = await api("/api/studio");
  await Promise.all(meta.games.filter((g) => g.renderer).map(async (g) => {
    renderers[g.name] = (await import(g.renderer)).default;
  }));
  $("game-select").replaceChildren(...meta.games.map((g) => h("option", { value: g.name }, g.title)));
  $("game-choice").hidden = meta.games.length < 2;
  $("game-select").addEventListener("change", (ev) => chooseGame(ev.target.value));
  if (!meta.games.length) {
    $("open-error").textContent = "No game of this server has decks to edit.";
    document.body.dataset.ready = "true";
    return;
  }
  chooseGame(meta.games[0].name);
  $("run-kind").replaceChildren(...meta.jobs.map((j) => h("option", { value: j.kind }, j.title)));
  $("run-agents").replaceChildren(...meta.agents.map((a) => h("option", { value: a }, a)));
  $("run-games").max = String(meta.max_games);
  const path = location.pathname.split("/").filter(Boolean);
  try {
    if (path[1] === "decks" && path[2]) showDeck(await api(`/api/studio/decks/${encodeURIComponent(path[2])}`));
    if (path[1] === "runs" && path[2]) {
      const run = await api(`/api/studio/runs/${encodeURIComponent(path[2])}`);
      showDeck(await api(`/api/studio/decks/${encodeURIComponent(run.deck)}`));
      followRun(run);
      showRunPanel();
    }
  } catch (err) {
    $("open-error").textContent = err.message;
  }
  document.body.dataset.ready = "true";
}

start();
