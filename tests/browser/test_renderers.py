"""Every game's renderer, loaded as the pages load it (the catalog's module), offers the methods
the common modules call (common.js lists them), and draws its cards."""

from __future__ import annotations

from browser_support import ServeProcess
from playwright.sync_api import Page

REQUIRED = ["cardSvg", "cardLabel", "cardWords", "sortKey", "seatStats", "center", "isResult",
            "resultPanel", "scores", "winners", "eventWords"]
OPTIONAL = {"passing": "object", "lastTrick": "function", "detail": "function", "button": "function",
            "actionWords": "function", "hintWords": "function", "takenBy": "function", "walkthrough": "object",
            "motion": "function"}

LOADED = """async ([required, optional]) => {
  const common = await import('/static/common.js');
  const catalog = await common.loadGames();
  const out = {};
  for (const game of Object.keys(catalog.games)) {
    const r = common.renderer(game);
    out[game] = {
      missing: required.filter((m) => typeof r[m] !== 'function'),
      wrong: Object.entries(optional).filter(([m, kind]) => m in r && typeof r[m] !== kind).map(([m]) => m),
      back: r.cardSvg('?', null).tagName,
      title: common.gameTitle(game) === catalog.games[game].title,
    };
  }
  return out;
}"""


def test_every_renderer_offers_the_interface(server: ServeProcess, page: Page) -> None:
    page.goto(f"{server.base}/static/style.css")  # any page of the server: the modules are imported there
    loaded = page.evaluate(LOADED, [REQUIRED, OPTIONAL])
    assert set(loaded) == set(server.get("/api/catalog")["games"])
    for game, found in loaded.items():
        assert found == {"missing": [], "wrong": [], "back": "svg", "title": True}, game
