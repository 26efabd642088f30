"""``cardroom analyze --html``: the report opens offline in Chromium, fetches nothing, and shows
its figures; with CARDROOM_SCREENSHOTS=1 it is photographed for the README."""

from __future__ import annotations

from pathlib import Path

from browser_support import screenshot_dir
from playwright.sync_api import BrowserContext
from typer.testing import CliRunner

from cardroom.cli.main import app

runner = CliRunner()


def test_the_html_report_is_self_contained_and_shows_its_figures(context: BrowserContext, tmp_path: Path) -> None:
    results, html = tmp_path / "results", tmp_path / "report.html"
    made = runner.invoke(app, ["simulate", "baebae", "--games", "30", "--seed", "1", "--workers", "1",
                               "--out", str(results)])
    assert made.exit_code == 0, made.output
    analyzed = runner.invoke(app, ["analyze", str(results), "--html", str(html)])
    assert analyzed.exit_code == 0, analyzed.output

    page = context.new_page()
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(html.as_uri())
    # Nothing but the file itself and its embedded data: no http(s) reference anywhere.
    assert [url for url in fetched if not url.startswith(("file:", "data:"))] == []
    references = page.eval_on_selector_all(
        "[src], [href]", "els => els.map(e => e.getAttribute('src') || e.getAttribute('href'))")
    assert references and all(ref.startswith("data:") for ref in references), references
    assert "http://" not in html.read_text().replace("http://www.w3.org", "")  # SVG namespaces only
    assert "https://" not in html.read_text()

    for section in ("seat_advantage", "distributions", "metrics", "cards", "groups", "actions"):
        assert page.locator(f"section#{section}").count() == 1, section
    assert page.locator("table[data-table=seats] tbody tr").count() == 4
    assert page.locator("table[data-table=designs] tbody tr").count() > 40
    images = page.locator("figure img")
    assert images.count() >= 6
    widths = images.evaluate_all("imgs => imgs.map(i => i.complete ? i.naturalWidth : 0)")
    assert all(w > 100 for w in widths), widths  # every plot decoded and drawn

    shot = screenshot_dir()
    if shot is not None:
        page.set_viewport_size({"width": 1200, "height": 1100})
        page.screenshot(path=str(shot / "analysis-report.png"))
