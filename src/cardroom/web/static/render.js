// Draws one moment of a game (a `view`, its seat's `moves`, the events so far) into the
// table page's containers. Shared by the live table (table.js) and the replay (replay.js).

// What a game decides (its cards, its middle, its scores) comes from its renderer
// (common.js: renderer(game)); nothing here names a game.

import { h, seatName, describeEvent, describeRun, gameTitle, renderer, cardWords } from "./common.js";

// A move is data, as the server sends it (docs/web.md): its `action` number, its `kind` (the
// game's verb: "play", "pass", "select", "declare", "target", "option", "draw"...) and what it
// names (`card`, `suit`, `seat`, `option`; null where it names none), with its `text` for
// records. The page acts on the fields and never reads the text.

/** What a move names besides its kind (a card, a suit, a seat, an option), or null. */
export function moveArgument(move) {
  for (const k of ["card", "suit", "seat", "option"]) if (move[k] !== null && move[k] !== undefined) return move[k];
  return null;
}

/** The test hook of a move's button: "move-draw", "move-declare-H", "move-target-2"... */
export function moveTestid(move) {
  const arg = moveArgument(move);
  return arg === null ? `move-${move.kind}` : `move-${move.kind}-${arg}`;
}

/**
 * A move in the words the page uses for its cards and seats: "play 9♦", "pass 13 Red",
 * "declare ♥ Hearts", "target" and the seat's name; `seatName(i)` names a seat; a choice this
 * seat could not see (null) is said in words.
 */
export function actionWords(game, move, designs, seatName) {
  if (!move) return "a hidden choice";
  const r = renderer(game);
  const said = r.actionWords ? r.actionWords(move, designs, seatName) : null;
  if (said) return said;
  if (move.card !== null && move.card !== undefined) return `${move.kind} ${cardWords(game, move.card, designs)}`;
  if (move.seat !== null && move.seat !== undefined) return `${move.kind} ${seatName(move.seat)}`;
  const arg = moveArgument(move);
  return arg === null ? move.kind : `${move.kind} ${arg}`;
}

/** Moves sorted into those that name a card in hand and those shown as buttons; `passing`
 * when the cards are passed together (the game's renderer has `passing`). */
export function classifyMoves(moves, hand, game) {
  const inHand = new Set((hand || []).map((c) => String(c).toUpperCase()));
  const byCard = new Map();
  const buttons = [];
  let passing = false;
  for (const m of moves || []) {
    const card = m.card === null || m.card === undefined ? null : String(m.card).toUpperCase();
    if (card !== null && inHand.has(card)) {
      byCard.set(card, m);
      if (m.kind === "pass" && renderer(game).passing) passing = true;
    } else {
      buttons.push(m);
    }
  }
  return { byCard, buttons, passing };
}

function cardButton(game, text, designs, opts = {}) {
  const legal = !!opts.legal;
  const label = renderer(game).cardLabel(text, designs) + (opts.suffix || "");
  // The card's name is the button's text (hidden on screen, beside its aria-hidden picture),
  // not an aria-label: the picture's letters ("9P9P9") are no label a person would say.
  const b = h("button", {
    type: "button",
    class: `card ${game} ${legal ? "legal" : ""} ${opts.selected ? "selected" : ""} ${opts.extraClass || ""}`,
    title: label,
    "data-testid": opts.testid || `card-${text}`,
    "data-card": text,
    "data-legal": legal ? "true" : "false",
  });
  if (opts.pressed !== undefined) b.setAttribute("aria-pressed", opts.pressed ? "true" : "false");
  if (opts.disabledLook) b.setAttribute("aria-disabled", "true");
  b.append(h("span", { class: "sr-only", text: label }), renderer(game).cardSvg(text, designs));
  return b;
}

/** A card that is only looked at (trick, pile, last trick): an image with a label. */
export function cardFace(game, text, designs, cls = "", testid) {
  const r = renderer(game);
  const label = r.cardLabel(text, designs);
  const d = h("div", { class: `card face ${game} ${cls}`, role: "img", "aria-label": label, title: label, "data-testid": testid, "data-card": text });
  d.append(r.cardSvg(text, designs));
  return d;
}

function seatChip(text, cls) {
  return h("span", { class: `chip ${cls || ""}` }, text);
}

/** Whose a person's seat is: an account's (a link to its player page) or a guest's. */
function holderChip(info) {
  if (info.kind !== "human" || !info.name) return null;
  if (!info.account) return h("span", { class: "chip chip-guest", "data-testid": `holder-${info.seat}`, "data-holder": "guest", title: "playing as a guest" }, "guest");
  return h("a", { class: "chip chip-account", href: `/player/${encodeURIComponent(info.name)}`, "data-testid": `holder-${info.seat}`,
    "data-holder": "account", title: `${info.name}'s player page` }, "account");
}

function countdownText(deadline) {
  if (!deadline) return "";
  const left = Math.max(0, Math.round(deadline - Date.now() / 1000));
  const m = Math.floor(left / 60);
  const s = left % 60;
  return m ? `${m}:${String(s).padStart(2, "0")}` : `${s}s`;
}

/** Where each seat sits around the table, from the seat at the bottom (the reader's own)
 * onwards in the order of play: the next seat to its left, and on round to its right. */
const POSITIONS = {
  1: ["bottom"],
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "top-left", "top-right", "right"],
  6: ["bottom", "left", "top-left", "top", "top-right", "right"],
};

/** The place of `seat` at a table of `n` seen from `base` (the seat drawn at the bottom);
 * null past six seats, whose plates are drawn in a row above the middle. */
export function seatPosition(seat, n, base) {
  const places = POSITIONS[n];
  return places ? places[(((seat - (base || 0)) % n) + n) % n] : null;
}

/** Whether cards may move: not under prefers-reduced-motion, nor with the page's setting off. */
export function motionAllowed() {
  if (document.documentElement.dataset.motion === "off") return false;
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

const MOTION_MS = 450;

/**
 * The table's drawing. `els` holds the page's containers (see table.html); `hooks` the
 * callbacks: onMove(move) sends one action, onPass(moves) sends cards passed together.
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
    this.lastTrickOpen = false;
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
    const r = renderer(game);
    const mine = state.seat !== null && state.seat !== undefined && state.seat === view.seat && !state.spectator;
    // While a hand's (or round's) result is shown, the next decision waits behind Continue; a
    // table that is over (finished, or closed unfinished) asks nothing of anyone.
    const moves = mine && !state.result && !this.ended(view, state) ? state.moves || [] : [];
    const hand = mine || state.replay ? view.hand || [] : [];
    const cls = classifyMoves(moves, hand, game);
    this.cls = cls;
    // Cards passed together: a fresh selection for each new choice (as the game tells it).
    const passKey = `${r.passing ? r.passing.key(view) : ""}:${cls.passing}`;
    if (passKey !== this.passKey && !this.hooks.passInFlight?.()) {
      this.passSel.clear();
      this.passKey = passKey;
    }
    for (const c of [...this.passSel]) if (!cls.byCard.has(c)) this.passSel.delete(c);

    const before = this.trickCards();
    this.renderSeats(view, state);
    this.renderCenter(view, state);
    this.moveCards(view, state, before);
    this.moveEvents(view, state);
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
      const chip = kind === "bot" ? seatChip("bot", "chip-bot")
        : kind === "free" ? seatChip("free seat", "chip-free")
          : seatChip(s.connected ? "here" : "joined, not connected", s.connected ? "chip-taken" : "chip-away");
      return h("div", { class: `seat ${me ? "is-me" : ""}`, "data-testid": `seat-${s.seat}`, "data-state": kind },
        h("div", { class: "seat-name" }, h("span", { text: seatName(table, s.seat) }),
          me ? seatChip("you", "chip-you") : null, holderChip(s)),
        h("div", { class: "seat-status" }, chip));
    });
    this.els.seats.replaceChildren(...seats);
    const free = (table.seats || []).filter((s) => s.kind === "human" && !s.name).length;
    // Play now's wait: bots take the free seats at table.bots_at (server time), else people do.
    const soon = table.bots_at && state.now ? Math.max(0, Math.ceil(table.bots_at - state.now)) : null;
    this.els.center.replaceChildren(h("p", { class: "waiting-note", "data-testid": "waiting-note" },
      soon !== null
        ? `Waiting for ${free} more player${free === 1 ? "" : "s"} who press Play now: in about ${soon} s bots take the free seats and the game starts.`
        : `Waiting for ${free} more player${free === 1 ? "" : "s"}: send them the link above. The game starts when every seat is taken.`));
  }

  /** A waiting table its creator closed: nothing waits any more. */
  renderClosed() {
    this.els.seats.replaceChildren();
    this.els.center.replaceChildren(h("p", { class: "waiting-note", "data-testid": "closed-note" },
      "This table was closed before its game began."));
    this.els.turn.replaceChildren(h("span", { text: "Table closed" }));
  }

  names(i) {
    return seatName(this.state.table, i);
  }

  /** Whether no seat is to act: the game is over, or the table over (closed unfinished). */
  ended(view, state) {
    return view.phase === "over" || (!state.replay && !!state.table && state.table.status === "over");
  }

  /** The seat to act, or null: none once the table is over, nor while a deal's result waits
   * behind Continue (the result is what the page shows then, not the next turn). */
  toAct(view, state) {
    if (this.ended(view, state) || state.result) return null;
    return view.current_player ?? null;
  }

  renderSeats(view, state) {
    const n = view.players || (view.hand_sizes || []).length;
    const seats = [];
    const tableSeats = (state.table && state.table.seats) || [];
    for (let i = 0; i < n; i++) {
      const info = tableSeats.find((s) => s.seat === i) || tableSeats[i] || {};
      const turn = this.toAct(view, state) === i;
      const me = state.seat === i && !state.spectator;
      const size = (view.hand_sizes || [])[i] ?? 0;
      const bits = [];
      bits.push(h("div", { class: "seat-name" },
        turn ? h("span", { class: "turn-arrow", "aria-hidden": "true" }, "\u25b6 ") : null,
        h("span", { text: this.names(i) }),
        me ? seatChip(state.replay ? "seen by" : "you", "chip-you") : null,
        view.dealer === i ? h("span", { class: "dealer-mark", "data-testid": `dealer-${i}`, title: "dealer", "aria-label": "dealer", role: "img" }, "D") : null,
        state.replay ? null : holderChip(info)));
      if (turn) {
        // The seat to act says so at the seat, with its turn timer when the table has one.
        const timed = state.deadline && !state.replay;
        bits.push(h("div", { class: "seat-turn", "data-testid": `turn-at-${i}` },
          seatChip(me ? "your turn" : "to play", "chip-turn"),
          timed ? h("span", { class: "countdown seat-timer", "data-testid": `timer-at-${i}`, "data-deadline": state.deadline,
            title: "time left for this turn" }, countdownText(state.deadline)) : null));
      }
      const status = [];
      if (state.replay) { /* who was connected says nothing in a replay */ } else if (info.kind === "bot") status.push(seatChip(`bot \u00b7 ${String(info.bot || "").split(":")[0]}`, "chip-bot"));
      else if (info.kind === "human" && !info.name) status.push(seatChip("free seat", "chip-free"));
      else if (info.kind === "human" && info.left) status.push(seatChip("left \u00b7 bot plays", "chip-away"));
      else if (info.kind === "human" && info.away) status.push(seatChip("away \u00b7 bot plays", "chip-away"));
      else if (info.kind === "human" && info.connected === false) status.push(seatChip("offline", "chip-away"));
      if (status.length) bits.push(h("div", { class: "seat-status" }, status));
      const stats = [h("span", { class: "stat", title: "cards in hand" }, h("span", { class: "mini-back", "aria-hidden": "true" }), `${size} card${size === 1 ? "" : "s"}`)];
      stats.push(...renderer(view.game).seatStats(view, i));
      stats.push(h("span", { class: "stat total", title: "total" }, `total ${(view.totals || [])[i] ?? 0}`));
      bits.push(h("div", { class: "seat-stats" }, stats));
      seats.push(h("div", {
        class: `seat ${turn ? "is-turn" : ""} ${me ? "is-me" : ""}`,
        "data-testid": `seat-${i}`,
        "data-pos": this.position(i),
        "data-turn": turn ? "true" : "false",
        "aria-current": turn ? "true" : null,
      }, bits));
    }
    this.els.seats.replaceChildren(...seats);
  }

  /** The seat drawn at the bottom: the reader's own, or the first. */
  baseSeat() {
    const st = this.state;
    const seat = st && st.view ? st.view.seat : null;
    return seat === null || seat === undefined ? 0 : seat;
  }

  /** Where seat `i` sits around the table ("bottom", "left", "top"...). */
  position(i) {
    const v = this.state.view;
    const n = v.players || (v.hand_sizes || []).length;
    return seatPosition(i, n, this.baseSeat());
  }

  /** The cards on the table now that belong to a seat (a trick's): {key: node}. */
  trickCards() {
    const out = new Map();
    for (const f of this.els.center.querySelectorAll("[data-seat][data-motion]")) out.set(f.dataset.motion, f);
    return out;
  }

  /** Cards move: each card new on the table comes from its seat's side; cards that left it
   * (a trick taken) go to the seat the game says took them. Short, and none under
   * prefers-reduced-motion or the page's setting. */
  moveCards(view, state, before) {
    if (!motionAllowed() || state.replay) return;
    const now = this.trickCards();
    for (const [key, node] of now) {
      if (this._drawnOnce && !before.has(key)) node.classList.add("arriving", `from-${this.position(Number(node.dataset.seat))}`);
    }
    const gone = [...before.entries()].filter(([key]) => !now.has(key));
    const r = renderer(view.game);
    const taker = gone.length && r.takenBy ? r.takenBy(view) : null;
    if (taker !== null && taker !== undefined) {
      const pile = h("div", { class: `taking to-${this.position(taker)}`, "data-testid": "taking", "aria-hidden": "true" },
        gone.map(([, node]) => node.cloneNode(true)));
      this.els.center.append(pile);
      setTimeout(() => pile.remove(), MOTION_MS + 100);
    }
    this._drawnOnce = true;
  }

  /** Cards that go from one place to another for the events new since the last drawing (the
   * game's `motion`: a draw from the stockpile to the drawer, a pass from seat to seat), over
   * the page for a moment. A card shows its face only when this seat knows it (its own draw,
   * the cards it passed or received); every other card goes face down, whatever the event
   * says. Nothing moves under prefers-reduced-motion, with the page's setting off, in a
   * replay, or for the events a page is sent when it (re)connects. */
  moveEvents(view, state) {
    const events = state.events || [];
    const seen = this._eventsSeen;
    if (seen === undefined) {
      this._eventsSeen = events.length;
      return;
    }
    if (events.length <= seen) return;   // nothing new (or the log sent again on a reconnect)
    this._eventsSeen = events.length;
    const r = renderer(view.game);
    if (!r.motion || !motionAllowed() || state.replay) return;
    const me = state.spectator || state.seat === null || state.seat === undefined ? null : state.seat;
    const moves = events.slice(seen).map((e) => r.motion(e, view)).filter(Boolean).slice(-8);
    moves.forEach((m, i) => this.fly(m, me, i));
  }

  fly(m, me, i) {
    const place = (where) => (where === "stock" ? this.els.center.querySelector("[data-testid=stock]")
      : this.els.seats.querySelector(`[data-testid="seat-${where}"]`));
    const from = place(m.from);
    const to = place(m.to);
    if (!from || !to) return;
    const known = me !== null && (m.to === me || m.from === me);
    const cards = m.cards.map((c) => this.cardFace(known && c !== "?" ? c : "?", "small"));
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    const x = a.left + a.width / 2;
    const y = a.top + a.height / 2;
    const dx = Math.round(b.left + b.width / 2 - x);
    const dy = Math.round(b.top + b.height / 2 - y);
    const node = h("div", { class: "flying", "data-testid": "flying", "data-kind": m.kind, "data-from": String(m.from),
      "data-to": String(m.to), "data-dx": dx, "data-dy": dy, "aria-hidden": "true", style: `left:${x}px;top:${y}px` }, cards);
    document.body.append(node);
    const done = () => node.remove();
    if (node.animate) {
      const run = node.animate([
        { transform: "translate(-50%, -50%) scale(1)", opacity: 1 },
        { transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px)) scale(.8)`, opacity: 0.6 },
      ], { duration: MOTION_MS, delay: i * 90, easing: "ease-in-out", fill: "both" });
      run.onfinish = done;
      run.oncancel = done;
    }
    setTimeout(done, MOTION_MS + i * 90 + 200);
  }

  renderCenter(view, state) {
    const c = this.els.center;
    if (state.result) c.replaceChildren(this.resultPanel(state.result, view, state));
    else c.replaceChildren(...renderer(view.game).center(view, state, this));
  }

  /** A card only looked at, in the game on the table (the game's `center` draws with it). */
  cardFace(text, cls = "", testid) {
    return cardFace(this.game, text, this.state.designs, cls, testid);
  }

  /** The result of the deal (hand, round) just ended, as the game describes it. */
  resultPanel(e, view, state) {
    const { title, note, head, rows } = renderer(view.game).resultPanel(e, view, state, this);
    return h("section", { class: "hand-result", "data-testid": "hand-result", "aria-labelledby": "hand-result-title" },
      h("h2", { id: "hand-result-title", text: title }),
      note,
      h("table", { class: "score-table" },
        h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col", text: x })))),
        h("tbody", {}, rows.map(([who, ...cells], i) => h("tr", { "data-seat": i },
          h("th", { scope: "row", text: who }),
          ...cells.map((x) => h("td", { text: x })))))));
  }

  /** The trick before this one (Baha). With a button (the table page), it shows over the
   * middle of the table while the button is pressed (Escape or the button again closes it);
   * without one (the replay), in its panel whenever there is one. */
  renderLastTrick(view) {
    const panel = this.els.lastTrickPanel;
    const box = this.els.lastTrick;
    const button = this.els.lastTrickButton;
    if (!panel || !box) return;
    const r = renderer(view.game);
    const shown = r.lastTrick ? r.lastTrick(view, this) : null;
    if (button && !button.dataset.wired) {
      button.dataset.wired = "true";
      button.addEventListener("click", () => {
        this.lastTrickOpen = !this.lastTrickOpen;
        if (this.state && this.state.view) this.renderLastTrick(this.state.view);
      });
      panel.addEventListener("keydown", (ev) => {
        if (ev.key !== "Escape") return;
        this.lastTrickOpen = false;
        if (this.state && this.state.view) this.renderLastTrick(this.state.view);
        button.focus();
      });
    }
    if (button) {
      button.hidden = !shown;
      button.setAttribute("aria-expanded", shown && this.lastTrickOpen ? "true" : "false");
      button.classList.toggle("pressed", !!(shown && this.lastTrickOpen));
    }
    if (!shown) {
      panel.hidden = true;
      box.replaceChildren();
      return;
    }
    panel.hidden = button ? !this.lastTrickOpen : false;
    box.replaceChildren(...shown);
  }

  renderTurn(view, state, mine) {
    const t = this.els.turn;
    const parts = [];
    const over = view.phase === "over" || (!state.replay && state.table && state.table.status === "over");
    let text;
    if (over && !state.replay && state.table && state.table.closed) text = "Closed by its creator: the game ended unfinished";
    else if (over) text = `Game over \u00b7 ${this.winnerText(view)}`;
    else if (!state.replay && state.table && state.table.status === "waiting") text = "Waiting for players to take their seats";
    else if (state.result) text = "Read the result, then continue";
    else if (view.current_player === null || view.current_player === undefined) text = "\u2026";
    else if (mine && !state.replay && view.current_player === state.seat) text = "Your turn";
    else text = `${this.names(view.current_player)}'s turn`;
    parts.push(h("span", { class: "turn-text", text }));
    if (state.deadline && !over) {
      parts.push(h("span", { class: "countdown", "data-testid": "countdown", "data-deadline": state.deadline }, countdownText(state.deadline)));
    }
    t.replaceChildren(...parts);
    const acting = this.toAct(view, state);
    t.dataset.turn = acting ?? "";
    // The seat asked next is asked first to read the result (its Continue): still its turn.
    const asked = this.ended(view, state) ? null : view.current_player;
    t.classList.toggle("my-turn", mine && asked !== null && asked !== undefined && asked === state.seat);
  }

  winnerText(view) {
    const first = renderer(view.game).winners(view).map((s) => this.names(s));
    if (first.length) return `${first.join(" and ")} win${first.length === 1 ? "s" : ""}`;
    return "final scores";
  }

  tickCountdown() {
    for (const c of document.querySelectorAll(".countdown[data-deadline]")) c.textContent = countdownText(Number(c.dataset.deadline));
  }

  renderDecision(view, state, cls, mine) {
    const box = this.els.decision;
    const parts = [];
    const pending = view.pending;
    const r0 = renderer(view.game);
    if (pending && pending.text && pending.seat === view.seat && !state.spectator && !this.ended(view, state) && !state.result) {
      parts.push(h("div", { class: "pending-text", "data-testid": "pending" },
        pending.card ? h("strong", { text: `${cardWords(view.game, pending.card, state.designs)}: ` }) : null,
        capital(r0.pendingWords ? r0.pendingWords(pending.text, state.designs) : pending.text)));
    }
    // Your turn's timer beside your hand too: on a small window your seat's plate can be under
    // the hand (which stays in view), and the time left must be where you play.
    const asked = !this.ended(view, state) && !state.result && view.current_player === state.seat;
    if (mine && asked && state.deadline && !state.replay) {
      parts.push(h("div", { class: "decision-timer", "data-testid": "timer-at-hand" },
        seatChip("your turn", "chip-turn"),
        h("span", { class: "countdown", "data-deadline": state.deadline, title: "time left for this turn" }, countdownText(state.deadline))));
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
    const suggested = this.suggestion(state);
    const mk = (m, label, testid, extra = {}) => h("button", {
      type: "button", class: `move ${extra.cls || ""} ${suggested && suggested.action === m.action ? "suggested" : ""}`,
      "data-testid": testid, "data-action": m.action, "data-suggested": suggested && suggested.action === m.action ? "true" : null,
      "aria-label": extra.aria || label, disabled: busy, style: extra.style,
      onclick: () => this.hooks.onMove && this.hooks.onMove(m),
    }, label);
    const r = renderer(view.game);
    for (const m of cls.buttons) {
      const made = r.button ? r.button(m, mk, view, this) : null;
      if (made) {
        buttons.push(made);
        continue;
      }
      // A move that names a card not in the hand, or a kind the game's renderer does not draw.
      const label = actionWords(view.game, m, state.designs, (i) => this.names(i));
      buttons.push(mk(m, capital(label), moveTestid(m)));
    }
    if (cls.passing) {
      const need = r.passing.need(view);
      const to = r.passing.to(view);
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
      const selecting = [...cls.byCard.values()].some((m) => m.kind === "select");
      const hint = selecting ? "Choose a card from your hand." : "Play a highlighted card.";
      parts.push(h("div", { class: "pending-text muted", "data-testid": "hint" }, hint));
    }
    if (suggested) {
      const why = r.hintWords ? r.hintWords(suggested, view, this) : null;
      parts.push(h("div", { class: "suggestion", "data-testid": "suggestion", role: "status" },
        h("strong", { text: `Suggested: ${actionWords(view.game, suggested, state.designs, (i) => this.names(i))}` }),
        why ? h("span", { text: ` \u2014 ${why}` }) : h("span", { text: " (the heuristic bot's choice)" })));
    }
    if (mine && this.hooks.onSuggest && (state.moves || []).length > 1 && !state.result && !this.ended(view, state) && !suggested) {
      buttons.push(h("button", { type: "button", class: "move subtle", "data-testid": "suggest-button", disabled: busy,
        title: "What would the heuristic bot play here, and why?", onclick: () => this.hooks.onSuggest() }, "Suggest a move"));
    }
    if (buttons.length) parts.push(h("div", { class: "moves", "data-testid": "moves" }, buttons));
    // As for the hand: the same buttons stay in place (a press on one is not lost).
    const html = parts.map((x) => x.outerHTML).join("");
    if (html === this.decisionHtml && box.childElementCount === parts.length) return;
    this.decisionHtml = html;
    box.replaceChildren(...parts);
    box.hidden = parts.length === 0;
  }

  /** The move the heuristic suggested for this very position (see table.js), or null. */
  suggestion(state) {
    const m = state.suggestion;
    return m && state.suggestionSeq === state.seq && (state.moves || []).some((x) => x.action === m.action) ? m : null;
  }

  renderHand(view, state, hand, cls) {
    const box = this.els.hand;
    const suggested = this.suggestion(state);
    const game = view.game;
    const { sortKey } = renderer(game);
    const sorted = [...hand].sort((a, b) => sortKey(a) - sortKey(b));
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
        extraClass: `${picked ? "picked" : ""} ${drawn ? "drawn" : ""} ${m && suggested && m.action === suggested.action ? "suggested" : ""}`,
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
      const need = renderer(this.state.view.game).passing.need(this.state.view);
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
    const r = state && state.view ? renderer(state.view.game) : null;
    const shown = r && r.detail && this.detailCard ? r.detail(this.detailCard, state.designs) : null;
    if (!shown) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.replaceChildren(...shown);
  }

  renderScores(view, state) {
    const box = this.els.scores;
    const n = view.players || (view.totals || []).length;
    const { unit, rows, target } = renderer(view.game).scores(view, state, this);
    const names = Array.from({ length: n }, (_, i) => h("th", { scope: "col", title: this.names(i) }, h("span", { text: this.names(i) })));
    const head = h("tr", {}, h("th", { scope: "col", text: unit }), ...names);
    const total = h("tr", { class: "total" }, h("th", { scope: "row", text: "Total" }), ...(view.totals || []).map((p) => h("td", { text: p })));
    const table = h("table", { class: "score-table" }, h("caption", { text: "Scores" }), h("thead", {}, head), h("tbody", {}, rows, total));
    box.replaceChildren(table, h("p", { class: "muted small", text: target }));
    // A name wraps between its words, never inside one ("Heuristi / c 1"): where a word is wider
    // than its column (five or six seats, a narrow panel), the names stand upright instead.
    if (names.some((th) => th.scrollWidth > th.clientWidth + 1)) table.classList.add("upright");
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
    const named = renderer(view.game).winners(view);
    const winners = named.length ? named : ranking.filter((r) => r.place === 1).map((r) => r.seat);
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
    // Events the game tells together (a run of one key) make one line.
    const runOf = ctx.game && renderer(ctx.game).logRun ? renderer(ctx.game).logRun : () => null;
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      const run = runOf(e);
      let text;
      if (run) {
        let end = i + 1;
        while (end < events.length && runOf(events[end]) === run) end += 1;
        text = describeRun(events.slice(i, end), ctx);
        i = end - 1;
      } else {
        text = describeEvent(e, ctx);
      }
      if (text) items.push(h("li", { class: `ev ev-${e.t}`, "data-t": e.t }, text));
    }
    const stick = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    box.replaceChildren(...items);
    if (stick || items.length !== this._lastLogLen) box.scrollTop = box.scrollHeight;
    this._lastLogLen = items.length;
  }
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
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

export { gameTitle };
