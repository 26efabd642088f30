"""Browser tests: ``cardroom serve`` as a subprocess and Debian's Chromium driven by Playwright.

The server is started once per test session (so once per xdist worker; ``--dist loadfile``
keeps each file in one worker) on 127.0.0.1, a free port, a fresh data directory and no bot
delay, and is always stopped at the end. Chromium must be /usr/bin/chromium (``make browser``):
the tests never download a browser, and fail (not skip) without it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from browser_support import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, ServeProcess  # noqa: E402
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright  # noqa: E402

expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """``cardroom serve --host 127.0.0.1 --port 0 --data <fresh dir> --bot-delay 0``."""
    live = ServeProcess(tmp_path_factory.mktemp("serve") / "data")
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` to install Debian's Chromium "
                    "(the browser tests never download one)", pytrace=False)
    b = playwright_driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        yield b
    finally:
        b.close()


def _context(browser: Browser, **kwargs: object) -> BrowserContext:
    """A fresh profile whose pages' uncaught script errors are kept in ``ctx.js_errors``."""
    ctx = browser.new_context(**kwargs)  # type: ignore[arg-type]
    ctx.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    ctx.js_errors = errors  # type: ignore[attr-defined]
    ctx.on("page", lambda page: page.on("pageerror", lambda err: errors.append(f"{page.url}: {err}")))
    return ctx


def _close(ctx: BrowserContext) -> None:
    errors = list(ctx.js_errors)  # type: ignore[attr-defined]
    ctx.close()
    assert not errors, f"uncaught script errors in the page: {errors}"


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile (its own localStorage) at a desktop size."""
    ctx = _context(browser, viewport={"width": 1280, "height": 800})
    try:
        yield ctx
    finally:
        _close(ctx)


@pytest.fixture
def new_context(browser: Browser) -> Iterator[object]:
    """A factory of more fresh profiles (two people at one table), all closed at the end."""
    made: list[BrowserContext] = []

    def make(**kwargs: object) -> BrowserContext:
        kwargs.setdefault("viewport", {"width": 1280, "height": 800})
        ctx = _context(browser, **kwargs)
        made.append(ctx)
        return ctx

    try:
        yield make
    finally:
        errors = [e for ctx in made for e in ctx.js_errors]  # type: ignore[attr-defined]
        for ctx in made:
            ctx.close()
        assert not errors, f"uncaught script errors in the page: {errors}"


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()
