// The leaderboard page: the rated accounts of one game, best first.
import { api, h, notify, loadGames, gameTitle, botSource } from "/static/common.js";

const select = document.getElementById("game-select");
const rows = document.getElementById("board-rows");
const empty = document.getElementById("board-empty");

async function show(game) {
  try {
    const board = await api(`/api/leaderboard/${encodeURIComponent(game)}`);
    rows.replaceChildren(...board.players.map((p) => h("tr", { "data-testid": "leaderboard-row" },
      h("td", { text: p.place }),
      h("td", {}, h("a", { href: `/player/${encodeURIComponent(p.name)}`, text: p.name })),
      h("td", { text: p.ordinal.toFixed(2) }), h("td", { text: p.mu.toFixed(2) }),
      h("td", { text: p.sigma.toFixed(2) }), h("td", { text: p.games }))));
    empty.hidden = board.players.length > 0;
    document.getElementById("bots-source").textContent = botSource(game, board.source);
    document.getElementById("bot-rows").replaceChildren(...board.bots.map((b) => h("tr", { "data-testid": "bot-row" },
      h("td", { text: b.place }), h("td", {}, h("code", { text: b.agent })),
      h("td", { text: b.level ? b.level.charAt(0).toUpperCase() + b.level.slice(1) : "" }),
      h("td", { text: b.ordinal.toFixed(2) }),
      h("td", { text: b.mu_interval[0] === null ? b.mu.toFixed(2) : `${b.mu.toFixed(2)} [${b.mu_interval[0].toFixed(2)}, ${b.mu_interval[1].toFixed(2)}]` }),
      h("td", { text: b.sigma.toFixed(2) }))));
  } catch (e) {
    notify(e.message);
  }
}

const names = Object.keys((await loadGames()).games);
const wanted = new URLSearchParams(location.search).get("game");
for (const name of names) select.append(h("option", { value: name, text: gameTitle(name) }));
if (wanted && names.includes(wanted)) select.value = wanted;
select.addEventListener("change", () => show(select.value));
await show(select.value);
