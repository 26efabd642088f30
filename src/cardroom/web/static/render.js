// Draws one moment of a game (a `view`, its seat's `moves`, the events so far) into the
// table page's containers. Shared by the live table (table.js) and the replay (replay.js).

import {
  cardSvg, cardLabel, cardWords, sortKey, parseBaha, parseBaebae, designOf, hornsOf,
  BAHA_COLOURS, SUITS, rankName,
} from "./cards.js";
import { h, seatName, describeEvent, gameTitle, botTitle } from "./common.js";

/** A BAEBAE card's notes (its flags that its text does not already say) as sentences. */
const NOTE_WORDS = {
  "optional": "The action is optional.",
  "cannot win": "Cannot be used to win a round.",
  "on start": "Carried out if turned up to start the round.",
};

/** A move's text split into its verb and argument: "play 9P" -> ["play", "9P"]. */
export function splitMove(text) {
  const t = String(text || "").trim();
  const i = t.indexOf(" ");
  return i < 0 ? [t, ""] : [t.slice(0, i), t.slice(i + 1).trim()];
}

/**
 * An action's text in the words the page uses for its cards and seats: "play 9D" is
 * "play 9♦", "pass 13R" is "pass 13 Red", "declare H" is "declare ♥ Hearts", "target 2" names
 * seat 2. `seatName(i)` names a seat; "?" (a choice this seat could not see) is said in words.
 */
export function actionWords(game, text, designs, seatName) {
  if (text === "?") return "a hidden choice";
  const [verb, arg] = splitMove(text);
  if (!arg) return verb;
  if (verb === "declare" && SUITS[arg.toUpperCase()]) {
    const s = SUITS[arg.toUpperCase()];
    return `declare ${s.symbol} ${s.name}`;
  }
  if (verb === "target" && /^\d+$/.test(arg)) return `target ${seatName(Number(arg))}`;
  const card = game === "baha" ? parseBaha(arg) : parseBaebae(arg);
  return card ? `${verb} ${cardWords(game, arg, designs)}` : text;
}

/** Moves sorted into those that name a card in hand and those shown as buttons. */
export function classifyMoves(moves, hand, game) {
  const inHand = new Set((hand || []).map((c) => String(c).toUpperCase()));
  const byCard = new Map();
  const buttons = [];
  let passing = false;
  for (const m of moves || []) {
    const [verb, arg] = splitMove(m.text);
    const cardVerb = verb === "play" || verb === "select" || (verb === "pass" && arg);
    if (cardVerb && inHand.has(arg.toUpperCase())) {
      byCard.set(arg.toUpperCase(), m);
      if (game === "baha" && verb === "pass") passing = true;
    } else {
      buttons.push({ ...m, verb, arg });
    }
  }
  return { byCard, buttons, passing };
}

function cardButton(game, text, designs, opts = {}) {
  const legal = !!opts.legal;
  const label = cardLabel(game, text, designs) + (opts.suffix || "");
  const b = h("button", {
    type: "button",
    class: `card ${game} ${legal ? "legal" : ""} ${opts.selected ? "selected" : ""} ${opts.extraClass || ""}`,
    "aria-label": label,
    title: label,
    "data-testid": opts.testid || `card-${text}`,
    "data-card": text,
    "data-legal": legal ? "true" : "false",
  });
  if (opts.pressed !== undefined) b.setAttribute("aria-pressed", opts.pressed ? "true" : "false");
  if (opts.disabledLook) b.setAttribute("aria-disabled", "true");
  b.append(cardSvg(game, text, designs));
  return b;
}

/** A card that is only looked at (trick, pile, last trick): an image with a label. */
export function cardFace(game, text, designs, cls = "", testid) {
  const label = cardLabel(game, text, designs);
  const d = h("div", { class: `card face ${game} ${cls}`, role: "img", "aria-label": label, title: label, "data-testid": testid, "data-card": text });
  d.append(cardSvg(game, text, designs));
  return d;
}

function seatChip(text, cls) {
  return h("span", { class: `chip ${cls || ""}` }, text);
}

function countdownText(deadline) {
  if (!deadline) return "";
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  const m = Math.floor(left / 60);
  const s = left % 60;
  return m ? `${m}:${String(s).padStart(2, "0")}` : `${s}s`;
}

/**
 * The renderer. `els` holds the page's containers (see table.html); `hooks` the callbacks:
 * onMove(move) sends one action, onPass(moves) sends Baha's three passes.
 */
export class TableView {
  constructor(els, hooks = {}) {
    this.els = els;
    this.hooks = hooks;
    this.passSel = new Set();
    this.passKey = "";
    this.detailCard = null;
    this.state = null;
    this.busy = false;
    this._lastLogLen = 0;
  }

  /** state: {view, table, moves, events, designs, deadline, seat, seq, connected, replay} */
  render(state) {
    this.state = state;
    const { view } = state;
    const active = document.activeElement;
    const focusCard = active && active.closest && active.closest("[data-testid=hand]") ? active.dataset.card : null;
    const focusTestid = active && active.dataset ? active.dataset.testid : null;
    if (!view) {
      this.renderEmpty();
      return;
    }
    const game = view.game;
    this.game = game;
    const mine = state.seat !== null && state.seat !== undefined && state.seat === view.seat && !state.spectator;
    // While a hand's (or round's) result is shown, the next decision waits behind Continue.
    const moves = mine && !state.result ? state.moves || [] : [];
    const hand = mine || state.replay ? view.hand || [] : [];
    const cls = classifyMoves(moves, hand, game);
    this.cls = cls;
    // Baha's pass: a fresh selection for each new choice (hand number / picks already made).
    const passKey = `${view.hand_number}:${(view.my_picks || []).join(",")}:${cls.passing}`;
    if (passKey !== this.passKey && !this.hooks.passInFlight?.()) {
      this.passSel.clear();
      this.passKey = passKey;
    }
    for (const c of [...this.passSel]) if (!cls.byCard.has(c)) this.passSel.delete(c);

    this.renderSeats(view, state);
    this.renderCenter(view, state);
    this.renderTurn(view, state, mine);
    this.renderDecision(view, state, cls, mine);
    this.renderHand(view, state, hand, cls);
    this.renderLastTrick(view, state);
    this.renderScores(view, state);
    this.renderStandings(view, state);
    this.renderLog(state);
    this.renderDetail();
    // Put the focus back where it was after redrawing.
    if (focusCard) {
      const again = this.els.hand.querySelector(`[data-card="${CSS.escape(focusCard)}"]`) || this.els.hand.querySelector("button.card");
      if (again) again.focus({ preventScroll: true });
    } else if (focusTestid && !document.activeElement?.isConnected) {
      const again = document.querySelector(`[data-testid="${CSS.escape(focusTestid)}"]`);
      if (again) again.focus({ preventScroll: true });
    }
  }

  renderEmpty() {
    for (const k of ["seats", "center", "decision", "hand", "scores", "standings"]) {
      if (this.els[k]) this.els[k].replaceChildren();
    }
    this.els.turn.replaceChildren(h("span", { text: "Waiting for the game to start\u2026" }));
  }

  /** A table that waits for players: its seats (who sat down, which are free, the bots). */
  renderWaiting(table, state) {
    const seats = (table.seats || []).map((s) => {
      const me = state.seat === s.seat && !state.spectator;
      const kind = s.kind === "bot" ? "bot" : s.name ? "taken" : "free";
      const chip = kind === "bot" ? seatChip(`bot \u00b7 ${botTitle(s.bot)}`, "chip-bot")
        : kind === "free" ? seatChip("free seat", "chip-free")
          : seatChip(s.connected ? "here" : "joined, not connected", s.connected ? "chip-taken" : "chip-away");
      return h("div", { class: `seat ${me ? "is-me" : ""}`, "data-testid": `seat-${s.seat}`, "data-state": kind },
        h("div", { class: "seat-name" }, h("span", { text: kind === "free" ? `Seat ${s.seat + 1}` : seatName(table, s.seat) }),
          me ? seatChip("you", "chip-you") : null),
        h("div", { class: "seat-status" }, chip));
    });
    this.els.seats.replaceChildren(...seats);
    const free = (table.seats || []).filter((s) => s.kind === "human" && !s.name).length;
    this.els.center.replaceChildren(h("p", { class: "waiting-note", "data-testid": "waiting-note" },
      `Waiting for ${free} more player${free === 1 ? "" : "s"}: send them the link above. The game starts when every seat is taken.`));
  }

  names(i) {
    return seatName(this.state.table, i);
  }

  renderSeats(view, state) {
    const n = view.players || (view.hand_sizes || []).length;
    const seats = [];
    const tableSeats = (state.table && state.table.seats) || [];
    for (let i = 0; i < n; i++) {
      const info = tableSeats.find((s) => s.seat === i) || tableSeats[i] || {};
      const turn = view.current_player === i && view.phase !== "over";
      const me = state.seat === i && !state.spectator;
      const size = (view.hand_sizes || [])[i] ?? 0;
      const bits = [];
      bits.push(h("div", { class: "seat-name" },
        turn ? h("span", { class: "turn-arrow", "aria-hidden": "true" }, "\u25b6 ") : null,
        h("span", { text: this.names(i) }),
        me ? seatChip(state.replay ? "seen by" : "you", "chip-you") : null,
        view.dealer === i ? seatChip("dealer", "chip-dealer") : null));
      const status = [];
      if (state.replay) { /* who was connected says nothing in a replay */ } else if (info.kind === "bot") status.push(seatChip(`bot \u00b7 ${String(info.bot || "").split(":")[0]}`, "chip-bot"));
      else if (info.kind === "human" && !info.name) status.push(seatChip("free seat", "chip-free"));
      else if (info.kind === "human" && info.away) status.push(seatChip("away \u00b7 bot plays", "chip-away"));
      else if (info.kind === "human" && info.connected === false) status.push(seatChip("offline", "chip-away"));
      if (status.length) bits.push(h("div", { class: "seat-status" }, status));
      const stats = [h("span", { class: "stat", title: "cards in hand" }, h("span", { class: "mini-back", "aria-hidden": "true" }), `${size} card${size === 1 ? "" : "s"}`)];
      if (view.game === "baha") {
        const horns = (view.horns_shown || [])[i] ?? 0;
        const fd = (view.face_down_counts || [])[i] ?? 0;
        stats.push(h("span", { class: "stat", title: "horns taken this hand (face-up cards)" }, `\u2648 ${horns}`));
        if (fd) stats.push(h("span", { class: "stat", title: "face-down cards taken" }, `+${fd} face down`));
        if (view.phase === "pass") {
          const made = (view.picks_made || [])[i] ?? 0;
          stats.push(h("span", { class: "stat", title: "cards chosen to pass" }, `picked ${made}/${view.pass_count ?? 3}`));
        }
      } else {
        const pen = (view.round_penalties || [])[i] ?? 0;
        if (pen) stats.push(h("span", { class: "stat", title: "penalty points from actions this round" }, `+${pen} this round`));
        const sk = (view.skips || [])[i] ?? 0;
        if (sk) stats.push(h("span", { class: "stat chip-away", title: "turns to be skipped" }, `skip \u00d7${sk}`));
      }
      stats.push(h("span", { class: "stat total", title: "total" }, `total ${(view.totals || [])[i] ?? 0}`));
      bits.push(h("div", { class: "seat-stats" }, stats));
      seats.push(h("div", {
        class: `seat ${turn ? "is-turn" : ""} ${me ? "is-me" : ""}`,
        "data-testid": `seat-${i}`,
        "data-turn": turn ? "true" : "false",
        "aria-current": turn ? "true" : null,
      }, bits));
    }
    this.els.seats.replaceChildren(...seats);
  }

  renderCenter(view, state) {
    const c = this.els.center;
    if (state.result) c.replaceChildren(this.resultPanel(state.result, view, state));
    else if (view.game === "baha") c.replaceChildren(...this.bahaCenter(view, state));
    else c.replaceChildren(...this.baebaeCenter(view, state));
  }

  bahaCenter(view, state) {
    const out = [];
    const info = [h("span", { text: `Hand ${view.hand_number ?? "?"}` })];
    if (view.phase === "pass") {
      const n = view.players;
      const dir = view.pass_direction;
      const to = state.seat !== null && state.seat !== undefined && !state.spectator
        ? ` to ${this.names(dir === "left" ? (state.seat - 1 + n) % n : (state.seat + 1) % n)}` : "";
      info.push(h("span", { text: `Passing ${view.pass_count ?? 3} cards ${dir}${to}` }));
    } else {
      if (view.phase !== "over") info.push(h("span", { text: `Trick ${(view.tricks_done ?? 0) + 1}` }));
      if (view.pass_direction && view.pass_direction !== "none") info.push(h("span", { class: "muted", text: `passed ${view.pass_direction}` }));
    }
    if (view.leftover_count) info.push(h("span", { class: "muted", text: `${view.leftover_count} leftover face down` }));
    if (view.draw_pile_count) info.push(h("span", { text: `draw pile: ${view.draw_pile_count}` }));
    out.push(h("div", { class: "center-info", "data-testid": "center-info" }, info));

    const led = view.led;
    const ledBox = h("div", { class: "led", "data-testid": "led" });
    if (led && BAHA_COLOURS[led]) {
      const col = BAHA_COLOURS[led];
      ledBox.append(h("span", { class: "muted", text: "Led colour: " }),
        h("span", { class: `colour-chip colour-${led}`, text: `${col.name} (${led})` }));
    } else if (view.phase === "play") {
      ledBox.append(h("span", { class: "muted", text: view.current_player !== null ? `${this.names(view.current_player)} leads` : "" }));
    }
    out.push(ledBox);

    const trick = h("div", { class: "trick", "data-testid": "trick" });
    for (const t of view.trick || []) {
      trick.append(h("figure", { class: "trick-card", "data-seat": t.p },
        cardFace("baha", t.card, null, "", `trick-card-${t.card}`),
        h("figcaption", { text: this.names(t.p) })));
    }
    if (!(view.trick || []).length) trick.append(h("div", { class: "trick-empty", text: view.phase === "pass" ? "Choose your cards to pass" : view.phase === "over" ? "" : "No card on the table yet" }));
    out.push(trick);

    if (view.passed || view.received) {
      const bits = [];
      const you = state.replay ? this.names(view.seat) : "You";
      if (view.passed) bits.push(h("span", { text: `${you} passed ${view.passed.cards.map((x) => cardWords("baha", x)).join(", ")} to ${this.names(view.passed.to)}.` }));
      if (view.received) bits.push(h("span", { text: ` ${you} received ${view.received.cards.map((x) => cardWords("baha", x)).join(", ")} from ${this.names(view.received.from)}.` }));
      out.push(h("div", { class: "pass-info muted", "data-testid": "pass-info" }, bits));
    }
    return out;
  }

  /** The result of the hand (Baha's `score` event) or round (BAEBAE's `round_end`) just ended. */
  resultPanel(e, view, state) {
    const baha = e.t === "score";
    const you = (i) => (i === state.seat && !state.spectator ? "You" : this.names(i));
    const n = (e.totals || []).length;
    const head = baha ? ["", "Horns taken", "Points", "Total"] : ["", "Penalty", "Total"];
    const rows = Array.from({ length: n }, (_, i) => h("tr", { "data-seat": i },
      h("th", { scope: "row", text: you(i) }),
      ...(baha ? [e.horns[i], e.points[i], e.totals[i]] : [e.penalties[i], e.totals[i]]).map((x) => h("td", { text: x }))));
    let note = null;
    if (baha && e.moon !== null && e.moon !== undefined) {
      const each = Math.max(...(e.points || [0]));
      note = h("p", { class: "moon", "data-testid": "hand-result-moon" },
        `☾ ${you(e.moon)} shot the moon: ${you(e.moon) === "You" ? "you score" : "scores"} 0 and everyone else ${each}.`);
    } else if (!baha) {
      note = h("p", { class: "muted" }, e.out !== null && e.out !== undefined ? `${you(e.out)} went out.` : "Nobody went out: the round was blocked.");
    }
    return h("section", { class: "hand-result", "data-testid": "hand-result", "aria-labelledby": "hand-result-title" },
      h("h2", { id: "hand-result-title", text: baha ? `Hand ${e.hand} is over` : `Round ${e.n} is over` }),
      note,
      h("table", { class: "score-table" },
        h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col", text: x })))),
        h("tbody", {}, rows)));
  }

  baebaeCenter(view, state) {
    const designs = state.designs;
    const out = [];
    const info = [h("span", { text: `Round ${view.round ?? "?"} of ${(view.rules && view.rules.rounds) || "?"}` })];
    info.push(h("span", { class: "direction", "data-testid": "direction", title: "direction of play" },
      view.direction === -1 ? "\u21ba play goes to the previous seat" : "\u21bb play goes to the next seat"));
    out.push(h("div", { class: "center-info", "data-testid": "center-info" }, info));

    const stock = h("div", { class: "pile stock", "data-testid": "stock" },
      cardFace("baebae", "?", designs, "small"),
      h("div", { class: "pile-caption", text: `Stockpile: ${view.stock_count ?? 0}` }));
    const topText = view.discard && view.discard.length ? view.discard[view.discard.length - 1] : view.top;
    const top = cardFace("baebae", topText, designs, "big", "discard-top");
    top.tabIndex = 0;
    top.addEventListener("focus", () => this.showDetail(topText));
    top.addEventListener("mouseenter", () => this.showDetail(topText));
    const discard = h("div", { class: "pile discard", "data-testid": "discard" }, top,
      h("div", { class: "pile-caption", text: `Discards: ${(view.discard || []).length}` }));
    const s = SUITS[view.suit];
    const suit = h("div", { class: "suit-in-play", "data-testid": "suit-in-play", "data-suit": view.suit, "data-declared": view.declared ? "true" : "false" },
      h("div", { class: "muted", text: "Suit in play" }),
      h("div", { class: "suit-big", style: s ? `color:${s.fill}` : "" }, s ? s.symbol : "?"),
      h("div", { class: "suit-name", text: s ? s.name : String(view.suit) }),
      view.declared ? h("div", { class: "chip chip-declared", text: "declared" }) : null);
    out.push(h("div", { class: "piles" }, stock, discard, suit));
    if (view.drawn) out.push(h("div", { class: "muted drawn-note", "data-testid": "drawn" }, `You drew ${cardWords("baebae", view.drawn, designs)}: play it or pass.`));
    if (view.pending && view.pending.seat !== state.seat) {
      out.push(h("div", { class: "muted" }, `${this.names(view.pending.seat)} is deciding on ${cardWords("baebae", view.pending.card, designs)}\u2026`));
    }
    return out;
  }

  renderLastTrick(view) {
    const panel = this.els.lastTrickPanel;
    const box = this.els.lastTrick;
    if (!panel || !box) return;
    const lt = view.game === "baha" ? view.last_trick : null;
    if (!lt || !lt.cards || !lt.cards.length) {
      panel.hidden = true;
      box.replaceChildren();
      return;
    }
    panel.hidden = false;
    const n = view.players;
    box.replaceChildren(...lt.cards.map((c, i) => {
      const p = (lt.leader + i) % n;
      return h("figure", { class: `trick-card small ${p === lt.winner ? "winner" : ""}` },
        cardFace("baha", c, null, "small", `last-trick-${c}`),
        h("figcaption", { text: this.names(p) + (p === lt.winner ? " \u2714" : "") }));
    }), h("p", { class: "muted small", text: `${this.names(lt.winner)} took it.` }));
  }

  renderTurn(view, state, mine) {
    const t = this.els.turn;
    const parts = [];
    const over = view.phase === "over" || (!state.replay && state.table && state.table.status === "over");
    let text;
    if (over && !state.replay && state.table && state.table.closed) text = "Closed by its creator: the game ended unfinished";
    else if (over) text = `Game over \u00b7 ${this.winnerText(view)}`;
    else if (!state.replay && state.table && state.table.status === "waiting") text = "Waiting for players to take their seats";
    else if (view.current_player === null || view.current_player === undefined) text = "\u2026";
    else if (mine && !state.replay && view.current_player === state.seat) text = "Your turn";
    else text = `${this.names(view.current_player)}'s turn`;
    parts.push(h("span", { class: "turn-text", text }));
    if (state.deadline && !over) {
      parts.push(h("span", { class: "countdown", "data-testid": "countdown", "data-deadline": state.deadline }, countdownText(state.deadline)));
    }
    t.replaceChildren(...parts);
    t.dataset.turn = view.current_player ?? "";
    t.classList.toggle("my-turn", !over && mine && view.current_player === state.seat);
  }

  winnerText(view) {
    if (view.game === "baha" && view.winner !== null && view.winner !== undefined) return `${this.names(view.winner)} wins`;
    const first = (view.ranking || []).filter((r) => r.place === 1).map((r) => this.names(r.seat));
    if (first.length) return `${first.join(" and ")} win${first.length === 1 ? "s" : ""}`;
    return "final scores";
  }

  tickCountdown() {
    const c = document.querySelector("[data-testid=countdown]");
    if (c && c.dataset.deadline) c.textContent = countdownText(Number(c.dataset.deadline));
  }

  renderDecision(view, state, cls, mine) {
    const box = this.els.decision;
    const parts = [];
    const pending = view.pending;
    if (pending && pending.text && pending.seat === view.seat && !state.spectator) {
      parts.push(h("div", { class: "pending-text", "data-testid": "pending" },
        pending.card ? h("strong", { text: `${cardWords(view.game, pending.card, state.designs)}: ` }) : null,
        pending.text.charAt(0).toUpperCase() + pending.text.slice(1)));
    }
    const buttons = [];
    const busy = this.busy;
    if (state.result) {
      // Continue shows what was waiting behind the result (the pass, the next move).
      const next = mine && (state.moves || []).length ? " (you are asked to choose next)" : "";
      parts.push(h("div", { class: "pending-text", "data-testid": "pending" }, `Read the result, then continue${next}.`));
      buttons.push(h("button", { type: "button", class: "move primary", "data-testid": "hand-result-continue",
        onclick: () => this.hooks.onContinue && this.hooks.onContinue() }, "Continue"));
    }
    const mk = (m, label, testid, extra = {}) => h("button", {
      type: "button", class: `move ${extra.cls || ""}`, "data-testid": testid, "data-action": m.action,
      "aria-label": extra.aria || label, disabled: busy, style: extra.style,
      onclick: () => this.hooks.onMove && this.hooks.onMove(m),
    }, label);
    for (const m of cls.buttons) {
      const { verb, arg } = m;
      if (verb === "declare") {
        const s = SUITS[arg.toUpperCase()];
        buttons.push(mk(m, s ? `${s.symbol} ${s.name}` : `Name ${arg}`, `move-declare-${arg}`, { cls: "suit-button", style: s ? `--suit:${s.fill}` : null, aria: s ? `Name ${s.name}` : null }));
      } else if (verb === "target") {
        const seat = Number(arg);
        buttons.push(mk(m, this.names(seat), `move-target-${arg}`, { aria: `Choose ${this.names(seat)}` }));
      } else if (verb === "option") {
        const k = Number(arg);
        const labels = pending && pending.options ? pending.options : [];
        const label = labels[k - 1] ?? labels[k] ?? `Option ${arg}`;
        buttons.push(mk(m, `${arg}. ${label}`, `move-option-${arg}`));
      } else if (verb === "yes" || verb === "no") {
        buttons.push(mk(m, verb === "yes" ? "Yes, carry it out" : "No", `move-${verb}`, { cls: verb === "yes" ? "primary" : "" }));
      } else if (verb === "draw") {
        buttons.push(mk(m, "Draw a card", "move-draw", { cls: "primary" }));
      } else if (verb === "pass" && !arg) {
        buttons.push(mk(m, "Pass", "move-pass"));
      } else if (verb === "done") {
        buttons.push(mk(m, "Done", "move-done", { cls: "primary" }));
      } else {
        // A move that names a card not in the hand, or a verb this page does not know.
        const label = arg && (parseBaha(arg) || parseBaebae(arg)) ? `${verb} ${cardWords(view.game, arg, state.designs)}` : m.text;
        buttons.push(mk(m, label.charAt(0).toUpperCase() + label.slice(1), `move-${m.text.replace(/\s+/g, "-")}`));
      }
    }
    if (cls.passing) {
      const need = Math.max(0, (view.pass_count ?? 3) - (view.my_picks || []).length);
      const n = view.players;
      const to = view.pass_direction === "left" ? (view.seat - 1 + n) % n : (view.seat + 1) % n;
      parts.push(h("div", { class: "pending-text", "data-testid": "pending" },
        `Choose ${need} card${need === 1 ? "" : "s"} to pass to ${this.names(to)} (${this.passSel.size}/${need} chosen).`));
      buttons.push(h("button", {
        type: "button", class: "move primary", "data-testid": "pass-confirm",
        disabled: busy || this.passSel.size !== need,
        onclick: () => {
          const chosen = [...this.passSel].map((c) => cls.byCard.get(c)).filter(Boolean);
          if (chosen.length === need && this.hooks.onPass) this.hooks.onPass(chosen);
        },
      }, `Pass ${need} card${need === 1 ? "" : "s"}`));
    } else if (mine && cls.byCard.size && !parts.length) {
      const verbs = new Set([...cls.byCard.values()].map((m) => splitMove(m.text)[0]));
      const hint = verbs.has("select") ? "Choose a card from your hand." : "Play a highlighted card.";
      parts.push(h("div", { class: "pending-text muted", "data-testid": "hint" }, hint));
    }
    if (buttons.length) parts.push(h("div", { class: "moves", "data-testid": "moves" }, buttons));
    // As for the hand: the same buttons stay in place (a press on one is not lost).
    const html = parts.map((x) => x.outerHTML).join("");
    if (html === this.decisionHtml && box.childElementCount === parts.length) return;
    this.decisionHtml = html;
    box.replaceChildren(...parts);
    box.hidden = parts.length === 0;
  }

  renderHand(view, state, hand, cls) {
    const box = this.els.hand;
    const game = view.game;
    const sorted = [...hand].sort((a, b) => sortKey(game, a) - sortKey(game, b));
    const picks = new Set((view.my_picks || []).map((c) => String(c).toUpperCase()));
    const buttons = sorted.map((text) => {
      const key = String(text).toUpperCase();
      const m = cls.byCard.get(key);
      const selected = this.passSel.has(key);
      const picked = picks.has(key);
      const drawn = view.drawn && String(view.drawn).toUpperCase() === key;
      const b = cardButton(game, text, state.designs, {
        legal: !!m && !this.busy,
        selected: selected || picked,
        pressed: cls.passing ? selected : undefined,
        suffix: (m ? (cls.passing ? ", can be passed" : ", playable") : "") + (picked ? ", chosen to pass" : "") + (selected ? ", selected" : "") + (drawn ? ", just drawn" : ""),
        extraClass: `${picked ? "picked" : ""} ${drawn ? "drawn" : ""}`,
        disabledLook: !m,
      });
      b.tabIndex = -1;
      b.addEventListener("click", () => this.clickCard(key, m, cls));
      b.addEventListener("focus", () => this.showDetail(text));
      b.addEventListener("mouseenter", () => this.showDetail(text));
      return b;
    });
    // One tab stop for the hand: the first legal card (or the first card); arrows move.
    const first = buttons.find((b) => b.dataset.legal === "true") || buttons[0];
    if (first) first.tabIndex = 0;
    // An update that changes nothing here (a same-seq update: someone connected) keeps the
    // cards in place, so a click pressed on a card is not lost to a redraw under the mouse.
    // Whether the seat has moves changes with a decision answered by a button, when the cards
    // themselves stay the same: set it before the early return below.
    box.classList.toggle("has-moves", cls.byCard.size > 0 || cls.buttons.length > 0);
    const html = buttons.map((b) => b.outerHTML).join("");
    if (html && html === this.handHtml && box.childElementCount === buttons.length) return;
    this.handHtml = html;
    box.replaceChildren(...buttons);
    box.dataset.count = String(buttons.length);
    box.style.setProperty("--cards", String(Math.max(1, buttons.length)));
    if (!buttons.length) {
      const spectating = state.spectator || state.seat === null || state.seat === undefined;
      box.append(h("div", { class: "hand-empty muted", text: spectating && !state.replay ? "You are watching: hands are hidden." : "No cards in hand." }));
    }
  }

  clickCard(key, move, cls) {
    if (!move || this.busy) return;
    if (cls.passing) {
      const need = Math.max(0, (this.state.view.pass_count ?? 3) - (this.state.view.my_picks || []).length);
      if (this.passSel.has(key)) this.passSel.delete(key);
      else if (this.passSel.size < need) this.passSel.add(key);
      this.render(this.state);
      return;
    }
    if (this.hooks.onMove) this.hooks.onMove(move);
  }

  showDetail(text) {
    this.detailCard = text;
    this.renderDetail();
  }

  renderDetail() {
    const box = this.els.detail;
    if (!box) return;
    const state = this.state;
    if (!state || !state.view || state.view.game !== "baebae" || !this.detailCard) {
      box.hidden = true;
      return;
    }
    const text = this.detailCard;
    const c = parseBaebae(text);
    const d = designOf(text, state.designs);
    if (!c) {
      box.hidden = true;
      return;
    }
    const s = SUITS[c.suit];
    box.hidden = false;
    box.replaceChildren(...[
      h("div", { class: "detail-head" },
        h("span", { class: "detail-rank", style: `color:${s.fill}` }, `${c.rank}${s.symbol}`),
        h("strong", { text: d && d.name ? d.name : `${rankName(c.rank)} of ${s.name}` }),
        ...(d && d.marks ? d.marks.map((m) => h("span", { class: `mark mark-${m}`, text: m })) : [])),
      d && d.types && d.types.length ? h("div", { class: "detail-types", text: d.types.join(" \u00b7 ") }) : null,
      d && d.text ? h("p", { class: "detail-text", text: d.text }) : h("p", { class: "detail-text muted", text: "No action." }),
      d && d.notes && d.notes.length ? h("div", { class: "detail-flags muted", text: d.notes.map((n) => NOTE_WORDS[n] || n).join(" ") }) : null,
    ].filter(Boolean));
  }

  renderScores(view, state) {
    const box = this.els.scores;
    const n = view.players || (view.totals || []).length;
    const head = h("tr", {}, h("th", { scope: "col", text: view.game === "baha" ? "Hand" : "Round" }),
      ...Array.from({ length: n }, (_, i) => h("th", { scope: "col", title: this.names(i), text: this.names(i) })));
    const rows = [];
    const events = state.events || [];
    if (view.game === "baha") {
      for (const e of events) {
        if (e.t !== "score") continue;
        rows.push(h("tr", {}, h("th", { scope: "row" }, `${e.hand}`, e.moon !== null && e.moon !== undefined ? h("span", { class: "moon", title: `${this.names(e.moon)} shot the moon` }, " \u263e") : null),
          ...(e.points || []).map((p) => h("td", { text: p }))));
      }
      if (view.phase !== "over") {
        rows.push(h("tr", { class: "current" }, h("th", { scope: "row", text: `${view.hand_number} (so far)` }),
          ...(view.horns_shown || []).map((p, i) => h("td", { text: `${p}${(view.face_down_counts || [])[i] ? "+?" : ""}` }))));
      }
    } else {
      for (const e of events) {
        if (e.t !== "round_end") continue;
        rows.push(h("tr", {}, h("th", { scope: "row", text: `${e.n}` }), ...(e.penalties || []).map((p, i) => h("td", { class: e.out === i ? "went-out" : "", text: p }))));
      }
      if (view.phase !== "over" && (view.round_penalties || []).some((x) => x)) {
        rows.push(h("tr", { class: "current" }, h("th", { scope: "row", text: `${view.round} (actions)` }), ...(view.round_penalties || []).map((p) => h("td", { text: p }))));
      }
    }
    const total = h("tr", { class: "total" }, h("th", { scope: "row", text: "Total" }), ...(view.totals || []).map((p) => h("td", { text: p })));
    const target = view.game === "baha" ? `Lowest total wins; the game ends when someone reaches ${view.rules?.target ?? 100}.` : `Lowest penalty after ${view.rules?.rounds ?? 3} rounds wins.`;
    box.replaceChildren(
      h("table", { class: "score-table" }, h("caption", { text: "Scores" }), h("thead", {}, head), h("tbody", {}, rows, total)),
      h("p", { class: "muted small", text: target }));
  }

  renderStandings(view, state) {
    const box = this.els.standings;
    const over = view.phase === "over";
    if (!over) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    box.hidden = false;
    let ranking;
    if (view.ranking) ranking = view.ranking.map((r) => ({ seat: r.seat, total: r.total, place: r.place }));
    else {
      const totals = view.totals || [];
      const order = totals.map((t, i) => ({ seat: i, total: t })).sort((a, b) => a.total - b.total);
      let place = 0;
      let prev = null;
      order.forEach((r, i) => {
        if (r.total !== prev) place = i + 1;
        prev = r.total;
        r.place = place;
      });
      ranking = order;
    }
    const shame = view.shame || [];
    const items = ranking.map((r) => h("li", { class: `place-${r.place} ${shame.includes(r.seat) ? "shamed" : ""}`, "data-seat": r.seat },
      h("span", { class: "place", text: ordinal(r.place) }),
      h("span", { class: "who", text: this.names(r.seat) }),
      h("span", { class: "pts", text: `${r.total} point${r.total === 1 ? "" : "s"}` })));
    const winners = view.game === "baha" && view.winner !== null && view.winner !== undefined ? [view.winner] : ranking.filter((r) => r.place === 1).map((r) => r.seat);
    const mineWon = !state.replay && state.seat !== null && winners.includes(state.seat) && !state.spectator;
    box.replaceChildren(...[
      h("h2", { text: mineWon ? "You win!" : `${winners.map((s) => this.names(s)).join(" and ")} win${winners.length === 1 ? "s" : ""}!` }),
      h("ol", { class: "standings-list" }, items),
      shame.length ? h("p", { class: "shame", "data-testid": "shame" },
        `${shame.map((s) => (s === state.seat && !state.spectator && !state.replay ? "You" : this.names(s))).join(" and ")}, in last place: bury your head in shame!`) : null,
      state.replay || !state.table ? null : h("p", {}, h("a", { href: `/replay/${encodeURIComponent(state.table.id)}`, "data-testid": "replay-link" }, "Watch the replay"),
        " \u00b7 ", h("a", { href: `/api/tables/${encodeURIComponent(state.table.id)}/record`, "data-testid": "record-link", download: "" }, "Download the record")),
    ].filter(Boolean));
  }

  renderLog(state) {
    const box = this.els.log;
    const events = state.events || [];
    const ctx = { game: state.view ? state.view.game : state.table?.game, table: state.table, designs: state.designs, seat: state.seat };
    const items = [];
    for (const e of events) {
      const text = describeEvent(e, ctx);
      if (text) items.push(h("li", { class: `ev ev-${e.t}`, "data-t": e.t }, text));
    }
    const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    box.replaceChildren(...items);
    if (stick || items.length !== this._lastLogLen) box.scrollTop = box.scrollHeight;
    this._lastLogLen = items.length;
  }
}

function ordinal(n) {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

/** Arrow keys move between the cards of a hand; Home/End to the ends. */
export function handKeys(hand) {
  hand.addEventListener("keydown", (ev) => {
    const cards = [...hand.querySelectorAll("button.card")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = cards.length - 1;
    if (j === null) return;
    ev.preventDefault();
    cards.forEach((c) => (c.tabIndex = -1));
    cards[j].tabIndex = 0;
    cards[j].focus();
  });
}

export { gameTitle, hornsOf };
