"""The designer's studio in Chromium: open the sample deck, edit a card and see the deck
checker's words at the field, save a version and read its changes, run a small simulate with
its progress bar, read the report, open its shared link; axe-core finds no serious violation.
With CARDROOM_SCREENSHOTS=1 the studio is photographed for docs/images."""

from __future__ import annotations

import re

from browser_support import ServeProcess, axe_violations, screenshot_dir
from playwright.sync_api import BrowserContext, Page, expect


def ready(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("body[data-ready=true]")).to_have_count(1)


def no_serious(page: Page, what: str) -> None:
    found = axe_violations(page)
    assert not found, f"{what}: " + "\n".join(found)


def test_edit_validate_save_run_read_and_share(server: ServeProcess, context: BrowserContext) -> None:
    # every Content-Security-Policy violation (the report is the server's HTML, shown in the page)
    context.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "(window.__violations = window.__violations || []).push(e.violatedDirective + ' ' + e.blockedURI));")
    page = context.new_page()
    ready(page, server.base + "/studio")
    # the games it edits come from the registry (the specs with a deck_editing): BAEBAE alone
    expect(page.get_by_test_id("studio-title")).to_have_text("Designer's studio: BAEBAE decks")
    expect(page.get_by_test_id("rules-link")).to_have_attribute("href", "/rules/baebae")
    expect(page.get_by_test_id("game-choice")).to_be_hidden()
    no_serious(page, "the studio, no deck open")
    page.get_by_test_id("project-select").select_option("sample")
    page.get_by_test_id("open-project").click()
    expect(page.get_by_test_id("deck-panel")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/studio/decks/[\w-]+$"))
    expect(page.get_by_test_id("version-chip")).to_have_text("Version 1 of 1")
    expect(page.get_by_test_id("card-pick")).to_have_count(52)

    # Alderman Gorse (10C): the next player draws two cards; make it 99, then 4.
    page.get_by_test_id("card-pick").filter(has_text="10C").click()
    expect(page.get_by_test_id("card-title")).to_contain_text("10C Alderman Gorse")
    expect(page.get_by_test_id("card-face").locator("svg text").first).to_have_text("10")
    fields = page.get_by_test_id("step-fields").first
    expect(fields).to_have_value('who = "next", count = 2')
    fields.fill('who = "next", count = 99')
    expect(page.get_by_test_id("error-step").first).to_contain_text("a count is a whole number from 1 to 20, not 99")
    expect(page.get_by_test_id("deck-check")).to_have_text("The deck checker finds 1 problem:")
    expect(page.get_by_test_id("save-version")).to_be_disabled()
    expect(page.get_by_test_id("card-pick").filter(has_text="10C")).to_contain_text("(1 problem)")
    no_serious(page, "the studio, a card with a problem")
    fields.fill('who = "next", count = 4')
    page.get_by_test_id("action-text").fill("The next player draws four cards.")
    expect(page.get_by_test_id("deck-check")).to_have_text("The deck checker accepts this deck.")
    expect(page.get_by_test_id("error-step")).to_have_text("")
    expect(page.get_by_test_id("card-face")).to_contain_text("four cards")
    page.get_by_test_id("save-version").click()
    expect(page.get_by_test_id("version-chip")).to_have_text("Version 2 of 2")
    changes = page.get_by_test_id("change")
    expect(changes).to_have_text([
        '10C Alderman Gorse: action text: "The next player draws two cards." -> "The next player draws four cards."',
        '10C Alderman Gorse: steps: draw (who = "next", count = 2) -> draw (who = "next", count = 4)',
    ])

    # A small simulate of version 2, on the server's workers.
    page.get_by_test_id("run-kind").select_option("simulate")
    expect(page.get_by_test_id("run-version-2")).to_be_checked()
    page.get_by_test_id("run-games").fill("20")
    page.get_by_test_id("run-start").click()
    expect(page).to_have_url(re.compile(r"/studio/runs/[\w-]+$"))
    expect(page.get_by_test_id("run-progress")).to_be_visible()
    expect(page.get_by_test_id("run-status")).to_have_text("Done", timeout=90_000)
    expect(page.get_by_test_id("run-progress-text")).to_have_text("20 of 20 games played")
    report = page.get_by_test_id("report-body")
    expect(report.locator("section#seat_advantage")).to_have_count(1)
    expect(report.locator("table[data-table=seats] tbody tr")).to_have_count(4)
    expect(report).to_contain_text("v2 Cardroom Sample Deck")
    assert report.locator("figure img").count() >= 3
    expect(page.get_by_test_id("report-text")).to_contain_text("BAEBAE: 20 games", use_inner_text=False)
    no_serious(page, "the studio with a report")
    assert page.evaluate("window.__violations || []") == []
    shot = screenshot_dir()
    if shot is not None:
        page.set_viewport_size({"width": 1280, "height": 1000})
        page.get_by_test_id("card-pick").filter(has_text="10C").click()
        page.get_by_test_id("deck-panel").screenshot(path=str(shot / "studio.png"))
        top = page.get_by_test_id("report-panel").evaluate(
            "e => { const r = e.getBoundingClientRect(); return [r.x, r.y + window.scrollY, r.width]; }")
        page.screenshot(path=str(shot / "studio-report.png"), full_page=True,
                        clip={"x": top[0], "y": top[1], "width": top[2], "height": 1100})

    # The shared link, in a fresh page: the same report, and the deck it played.
    link = page.get_by_test_id("run-link").get_attribute("href")
    assert link is not None and link.startswith("/studio/runs/")
    other = context.new_page()
    ready(other, server.base + link)
    expect(other.get_by_test_id("run-status")).to_have_text("Done")
    expect(other.get_by_test_id("report-body").locator("section#seat_advantage")).to_have_count(1)
    expect(other.get_by_test_id("version-chip")).to_have_text("Version 2 of 2")
    expect(other.get_by_test_id("run-cancel")).to_be_hidden()

    # tune: its number and target appear with it, and the report gives the change to make.
    expect(page.get_by_test_id("run-param")).to_be_hidden()
    page.get_by_test_id("run-kind").select_option("tune")
    expect(page.get_by_test_id("run-param")).to_be_visible()
    page.get_by_test_id("run-version-1").check()
    page.get_by_test_id("run-games").fill("5")
    page.get_by_test_id("run-param").fill("10C.count=1..3")
    page.get_by_test_id("run-trials").fill("2")
    page.get_by_test_id("run-start").click()
    expect(page.get_by_test_id("run-status")).to_have_text("Done", timeout=90_000)
    expect(page.get_by_test_id("report-text")).to_contain_text("10C.count", use_inner_text=False)
    no_serious(page, "the studio with a tune report")


def test_an_upload_is_checked_and_a_run_is_cancelled_from_the_page(server: ServeProcess,
                                                                   context: BrowserContext) -> None:
    page = context.new_page()
    ready(page, server.base + "/studio")
    bad = 'name = "Harbour"\n[[card]]\nrank = "A"\nsuit = "C"\ncopies = 12\n'
    page.get_by_test_id("deck-file").set_input_files(
        files=[{"name": "harbour.toml", "mimeType": "text/plain", "buffer": bad.encode()}])
    page.get_by_test_id("upload-deck").click()
    expect(page.get_by_test_id("open-error")).to_have_text(
        "harbour.toml: card 1 (AC).copies: a whole number from 1 to 8, not 12")
    expect(page.get_by_test_id("deck-panel")).to_be_hidden()
    page.get_by_test_id("open-project").click()
    expect(page.get_by_test_id("deck-panel")).to_be_visible()
    page.get_by_test_id("run-games").fill("2000")
    page.get_by_test_id("run-start").click()
    page.get_by_test_id("run-cancel").click()
    expect(page.get_by_test_id("run-status")).to_have_text("Cancelled", timeout=60_000)
    expect(page.get_by_test_id("run-failure")).to_contain_text("cancelled")
    expect(page.get_by_test_id("run-cancel")).to_be_hidden()


def test_the_lobby_offers_the_studio_for_the_games_it_edits(server: ServeProcess, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(server.base + "/")
    expect(page.get_by_test_id("studio-link")).to_be_visible()
    expect(page.locator("#studio-line")).to_contain_text("edit a BAEBAE deck's cards")


def test_a_compare_of_two_versions_shows_its_report_in_its_panel(server: ServeProcess,
                                                                  context: BrowserContext) -> None:
    """After Run the page goes to the run's panel (not left on the form), the report opens with
    its verdict, no warning that two versions of one deck share its name, and every table stays
    inside the panel (a wide one scrolls in its own box)."""
    page = context.new_page()
    page.set_viewport_size({"width": 1024, "height": 768})
    ready(page, server.base + "/studio")
    page.get_by_test_id("project-select").select_option("sample")
    page.get_by_test_id("open-project").click()
    expect(page.get_by_test_id("deck-panel")).to_be_visible()
    page.get_by_test_id("card-pick").filter(has_text="10C").click()
    page.get_by_test_id("step-fields").first.fill('who = "next", count = 4')
    expect(page.get_by_test_id("deck-check")).to_have_text("The deck checker accepts this deck.")
    page.get_by_test_id("save-version").click()
    expect(page.get_by_test_id("version-chip")).to_have_text("Version 2 of 2")
    page.get_by_test_id("run-kind").select_option("compare")
    page.get_by_test_id("run-version-1").check()
    page.get_by_test_id("run-version-2").check()
    page.get_by_test_id("run-games").fill("40")
    page.get_by_test_id("run-start").click()
    panel = page.get_by_test_id("report-panel")
    expect(page.get_by_test_id("run-status")).to_have_text("Done", timeout=90_000)
    # the run's panel is where the page is, and where the keyboard is
    page.wait_for_function("() => { const top = document.getElementById('report-panel').getBoundingClientRect().top;"
                           " return top > -2 && top < innerHeight / 3; }")
    assert page.evaluate("document.activeElement && document.activeElement.id") == "report-title"
    report = page.get_by_test_id("report-body")
    expect(report.locator("[data-verdict]")).to_contain_text("v2 Cardroom Sample Deck against v1 Cardroom "
                                                             "Sample Deck")
    expect(report).not_to_contain_text("share the name")
    expect(report).not_to_contain_text("cardroom deck new")
    page.set_viewport_size({"width": 375, "height": 812})
    edges = panel.evaluate(
        """panel => {
          const right = panel.getBoundingClientRect().right;
          const out = [];
          for (const box of panel.querySelectorAll('table, .scroll, pre, details, figure, p')) {
            const inScroll = box.parentElement.closest('.scroll, pre');
            if (inScroll && panel.contains(inScroll)) continue;
            const r = box.getBoundingClientRect();
            if (r.width && r.right > right + 0.5) out.push(`${box.tagName}.${box.className} ${r.right} > ${right}`);
          }
          return {out, wide: panel.scrollWidth - panel.clientWidth};
        }""")
    assert edges["out"] == [] and edges["wide"] <= 0, edges
