"""Every control of the lobby (Play now, the new table's fields, each seat, each game's rule
options) has a one-line help beside it, tied to it by aria-describedby; a rule option's line is
the rules' own description of it, as the catalog sends it, for both games."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import ServeProcess
from playwright.sync_api import BrowserContext, expect

CONTROLS = """() => [...document.querySelectorAll('main select, main input:not([type=file]):not([hidden])')]
  .filter((c) => c.offsetParent !== null && c.id !== 'name-input')
  .map((c) => {
    const help = c.getAttribute('aria-describedby') ? document.getElementById(c.getAttribute('aria-describedby')) : null;
    const a = c.getBoundingClientRect();
    const b = help ? help.getBoundingClientRect() : null;
    return {control: c.dataset.testid || c.id, help: help ? help.innerText : null,
            visible: !!(help && help.offsetParent !== null),
            // beside it: in the control's own label, or (seats) in the fieldset of its group
            near: !!(help && (c.closest('label')?.contains(help) || c.closest('fieldset')?.contains(help))),
            gap: b ? Math.max(0, b.top - a.bottom, a.top - b.bottom) : null,
            lines: b ? Math.round(b.height / parseFloat(getComputedStyle(help).lineHeight || '16')) : null};
  })"""


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_every_lobby_control_has_a_line_of_help_beside_it(
        game: str, server: ServeProcess, context: BrowserContext) -> None:
    catalog: dict[str, Any] = server.get("/api/catalog")
    page = context.new_page()
    page.goto(server.base + "/")
    page.get_by_test_id("game-select").select_option(game)
    options = [o for o in catalog["games"][game]["options"] if o["name"] not in ("players", "deck")]
    expect(page.locator("#rules [data-rule]")).to_have_count(len(options))
    for option in options:   # the rules' own description, from the catalog, tied to its field
        text = option["text"]
        assert text and "\n" not in text and len(text) <= 120, f"{game} {option['name']}: {text!r}"
        field = page.get_by_test_id(f"rule-{option['name']}")
        expect(field).to_have_attribute("aria-describedby", f"rule-{option['name']}-help")
        expect(page.get_by_test_id(f"rule-{option['name']}-help")).to_have_text(text)
    controls = page.evaluate(CONTROLS)
    named = {c["control"] for c in controls}
    assert {"quick-game", "quick-players", "quick-bots", "game-select", "players-input", "timer-input",
            "seat-kind-0"} <= named, named
    if game == "baebae":
        assert "deck-select" in named
    for c in controls:
        assert c["help"] and c["help"].strip() and c["visible"], f"{game}: no help shown for {c['control']}: {c}"
        assert "\n" not in c["help"].strip(), f"{game}: {c['control']}'s help is more than a line of text: {c}"
        assert c["near"], f"{game}: {c['control']}'s help is not beside it: {c}"
        if not c["control"].startswith("seat-kind-"):
            assert c["gap"] is not None and c["gap"] <= 40, f"{game}: {c['control']}'s help is not beside it: {c}"
