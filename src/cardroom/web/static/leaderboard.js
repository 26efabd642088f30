// The leaderboard page: the rated accounts of one game, best first.
import { api, h, notify, loadGames, gameTitle } from "/static/common.js";

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
