// The leaderboard page: the rated accounts of one game, best first.
import { api, h, notify, loadGames, gameTitle, botSource, ratingText } from "/static/common.js";

const select = document.getElementById("game-select");
const rows = document.getElementById("board-rows");
const empty = document.getElementById("board-empty");

async function show(game) {
  try {
    const board = await api(`/api/leaderboard/${encodeURIComponent(game)}`);
    rows.replaceChildren(...board.players.map((p) => h("tr", { "data-testid": "leaderboard-row" },
      h("td", { text: p.place }),
      h("td", {}, h("a", { href: `/player/${encodeURIComponent(p.name)}`, text: p.name })),
      h("td", { text: ratingText(p) }), h("td", { text: p.games }))));
    empty.hidden = board.players.length > 0;
    document.getElementById("bots-source").textContent = botSource(game, board.source);
    document.getElementById("bot-rows").replaceChildren(...board.bots.map((b) => h("tr", { "data-testid": "bot-row" },
      h("td", { text: b.place }),
      h("td", { text: b.level ? b.level.charAt(0).toUpperCase() + b.level.slice(1) : "(no level)" }),
      h("td", { text: botWords(b.agent) }),
      h("td", { text: ratingText(b) }))));
  } catch (e) {
    notify(e.message);
  }
}

/** A bot in a player's words: "rules of thumb", "searches 1000 dealt worlds a move". */
function botWords(spec) {
  const [kind, ...options] = String(spec).split(":");
  const iterations = options.map((o) => /^iterations=(\d+)$/.exec(o)).find(Boolean);
  if (kind === "ismcts") return iterations ? `searches ${iterations[1]} dealt worlds a move` : "searches dealt worlds";
  return { random: "plays any legal card, at random", heuristic: "plays by rules of thumb", learned: "a trained network" }[kind] || kind;
}

const names = Object.keys((await loadGames()).games);
const wanted = new URLSearchParams(location.search).get("game");
for (const name of names) select.append(h("option", { value: name, text: gameTitle(name) }));
if (wanted && names.includes(wanted)) select.value = wanted;
select.addEventListener("change", () => show(select.value));
await show(select.value);
