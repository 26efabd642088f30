// A player's page: games played, ratings per game, the recent finished games with replays.
import { api, h, notify, loadGames, gameTitle, botSource, ratingText } from "/static/common.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
await loadGames();
try {
  const p = await api(`/api/players/${encodeURIComponent(name)}`);
  document.title = `${p.name} · Cardroom`;
  document.getElementById("player-name").textContent = p.name;
  document.getElementById("games-played").textContent = `${p.games_played} finished game${p.games_played === 1 ? "" : "s"} played`;
  const ratings = document.getElementById("ratings");
  ratings.replaceChildren(...(p.ratings.length ? p.ratings.map((r) => h("li", { "data-testid": "rating" },
    h("a", { href: `/leaderboard?game=${encodeURIComponent(r.game)}`, text: gameTitle(r.game) }),
    `: rated ${ratingText(r)} over ${r.games} rated game${r.games === 1 ? "" : "s"}`))
    : [h("li", { class: "muted", text: "Not rated yet: a game is rated when two accounts or more play it to the end." })]));
  document.getElementById("bot-ratings").replaceChildren(...Object.entries(p.bots || {}).map(([game, ladder]) =>
    h("li", { "data-testid": "bot-rating" }, h("strong", { text: `${gameTitle(game)}: ` }),
      ladder.bots.filter((b) => b.level).map((b) => `${b.level} ${ratingText(b)}`).join("; ") || "no ratings",
      h("p", { class: "muted small", text: botSource(game, ladder.source) }))));
  const recent = document.getElementById("recent");
  recent.replaceChildren(...(p.recent.length ? p.recent.map((g) => h("li", { "data-testid": "recent-game" },
    `${gameTitle(g.game)}, ${g.players} players, seat ${g.seat}, ${new Date(g.finished * 1000).toLocaleString()}: `,
    h("a", { href: g.replay, text: "replay" }), " · ", h("a", { href: g.record, text: "record" })))
    : [h("li", { class: "muted", text: "No finished games yet." })]));
} catch (e) {
  notify(e.message);
}
