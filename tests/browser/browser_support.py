"""Helpers for the browser tests: ``cardroom serve`` as a subprocess, the HTTP API, and waits on
the table page's test hooks (src/cardroom/web/static/TESTHOOKS.md)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_MS = 20_000      # one wait in the page (a selector, a function)
START_S = 30.0        # the server's start, on a busy machine
GAME_S = 60.0         # a whole game played by clicking

ROOT = Path(__file__).resolve().parents[2]
CARDROOM = Path(sys.executable).with_name("cardroom")


SEEDED_SERVE = """import secrets, sys
first = [int(s) for s in reversed(sys.argv.pop(1).split(","))]
drawn = secrets.randbelow
secrets.randbelow = lambda n: first.pop() if n == 2**31 and first else drawn(n)
from cardroom.cli.main import main
main()"""
"""``cardroom serve`` whose first tables are dealt from the seeds in its first argument (the
server draws a table's seed with ``secrets.randbelow(2**31)``, web/tables.py), then from its own:
a test's known deal, with nothing in the server that lets anyone choose a seed."""


class ServeProcess:
    """``cardroom serve`` on 127.0.0.1, a port the system picks (``--port 0``), a fresh data dir;
    ``first_seeds``: its first tables' seeds (:data:`SEEDED_SERVE`), for a test of a known deal."""

    def __init__(self, data_dir: Path, bot_delay: float = 0.0, port: int = 0, quick_wait: float = 0.5,
                 first_seeds: tuple[int, ...] = ()) -> None:
        self.data_dir = data_dir
        self.log_path = data_dir.parent / "serve.log"
        run = [sys.executable, "-c", SEEDED_SERVE, ",".join(map(str, first_seeds))] if first_seeds else [str(CARDROOM)]
        command = [*run, "serve", "--host", "127.0.0.1", "--port", str(port),
                   "--data", str(data_dir), "--bot-delay", str(bot_delay), "--quick-wait", str(quick_wait)]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "300", "NO_COLOR": "1", "TERM": "dumb",
               # every test of a worker creates its tables from 127.0.0.1, and many leave theirs
               # unfinished: the cap of one address is not what these tests look at
               "CARDROOM_TABLES_PER_ADDRESS": "1000"}
        self.log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env,
                                     cwd=data_dir.parent, start_new_session=True)
        try:
            self.base = self._wait_for_address()
            self._wait_until_answering()
        except BaseException:
            self.stop()
            raise

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def _wait_for_address(self) -> str:
        end = time.monotonic() + START_S
        while time.monotonic() < end:
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", self.output())
            if m:
                return f"http://127.0.0.1:{m.group(1)}"
            if self.proc.poll() is not None:
                raise RuntimeError(f"cardroom serve exited with {self.proc.returncode}:\n{self.output()}")
            time.sleep(0.05)
        raise RuntimeError(f"cardroom serve printed no address in {START_S} s:\n{self.output()}")

    def _wait_until_answering(self) -> None:
        end = time.monotonic() + START_S
        while True:
            try:
                self.get("/api/catalog")
                return
            except (OSError, urllib.error.URLError):
                if self.proc.poll() is not None or time.monotonic() > end:
                    raise RuntimeError(f"cardroom serve does not answer at {self.base}:\n{self.output()}") from None
                time.sleep(0.05)

    def kill(self) -> None:
        """Kill the server at once (SIGKILL: no shutdown of any kind), as a crash would."""
        try:
            self.proc.kill()
            self.proc.wait(10)
        finally:
            self.log.close()

    def stop(self) -> None:
        """Stop the server (SIGINT, then SIGKILL after 10 s); always closes the log."""
        try:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGINT)
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(10)
        finally:
            self.log.close()

    # ---------------------------------------------------------------- HTTP API

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=WAIT_MS / 1000) as res:
                return res.status, json.loads(res.read() or b"null")
        except urllib.error.HTTPError as err:
            raw = err.read()
            try:
                return err.code, json.loads(raw)
            except ValueError:
                return err.code, raw.decode(errors="replace")

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        assert status == 200, f"GET {path}: {status} {body}"
        return body

    def create(self, **body: Any) -> dict[str, Any]:
        """POST /api/tables; the summary (with ``seat`` and ``token`` when ``name`` is given),
        waiting out the table quota (:func:`within_quota`)."""
        status, answer = within_quota(lambda: self.request("POST", "/api/tables", body))
        assert status == 200, f"create {body}: {status} {answer}"
        return answer  # type: ignore[no-any-return]

    def join(self, table_id: str, name: str, seat: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        status, answer = self.request("POST", f"/api/tables/{table_id}/join", body)
        assert status == 200, f"join {table_id}: {status} {answer}"
        return answer  # type: ignore[no-any-return]

    def wait_status(self, table_id: str, status: str, timeout: float = GAME_S) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while True:
            summary = self.get(f"/api/tables/{table_id}")
            if summary["status"] == status:
                return summary  # type: ignore[no-any-return]
            assert time.monotonic() < end, f"table {table_id} is still {summary['status']}, not {status}"
            time.sleep(0.1)


QUOTA_WAIT_S = 65
"""How long a table's creation waits out the server's quota of tables a minute an address."""


def within_quota(call: Callable[[], tuple[int, Any]]) -> tuple[int, Any]:
    """``call()`` (a status and an answer), again while the server refuses it for its table
    quota (429): every test of a worker creates its tables from 127.0.0.1, so a fast run can
    meet the quota, and a refusal is waited out as a person would, up to a minute."""
    end = time.monotonic() + QUOTA_WAIT_S
    status, answer = call()
    while status == 429 and time.monotonic() < end:
        time.sleep(1.0)
        status, answer = call()
    return status, answer


# -------------------------------------------------------------------- pages


CREATE_ANSWERED = """() => !location.pathname.startsWith('/table/') ?
  document.querySelector('[data-testid=create-error]').textContent || false : 'left'"""


def click_create(page: Page) -> None:
    """Press the lobby's Create table, again while the server refuses it for the table quota
    (as :func:`within_quota`, a person would wait and press again); returns once the page went
    to the table or the form shows another answer."""
    end = time.monotonic() + QUOTA_WAIT_S
    while True:
        page.evaluate("() => { document.querySelector('[data-testid=create-error]').textContent = ''; }")
        page.get_by_test_id("create-button").click()
        try:
            answer = str(page.wait_for_function(CREATE_ANSWERED, timeout=WAIT_MS).json_value())
        except PlaywrightError:
            return  # the page went to the table while the answer was awaited
        if "tables a minute" not in answer or time.monotonic() > end:
            return
        page.wait_for_timeout(1000)


AXE = Path(sys.prefix) / "npm" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, installed into the virtualenv by ``make browser`` (the version the Makefile pins)."""
AXE_IMPACTS = ("serious", "critical")


def axe_violations(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe-core finds in the page as it is
    now (WCAG 2 A and AA and best practice), each in a line: the rule, its help, the nodes."""
    if not AXE.is_file():
        raise AssertionError(f"{AXE} is missing: run `make browser` (it installs axe-core from the npm registry)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated by the driver: the pages' Content-Security-Policy runs no script tag it adds
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    # Measured once the page is still: a colour read mid-fade (a panel or card coming in) is
    # neither the colour before nor after, and made this check fail now and then.
    found = page.evaluate("""async () => {
      const finite = document.getAnimations().filter(
        (a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity);
      await Promise.all(finite.map((a) => a.finished.catch(() => null)));
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' '))}));
    }""")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in found if v["impact"] in AXE_IMPACTS]


def open_table(context: BrowserContext, server: ServeProcess, table_id: str, token: str | None = None) -> Page:
    """The table page in a new tab of ``context``, holding ``token``'s seat (or watching), once
    the first update is drawn."""
    if token is not None:
        # The page reads its seat's token from localStorage (docs/web.md), as after a join.
        context.add_init_script(f"if (location.origin === {json.dumps(server.base)}) "
                                f"localStorage.setItem({json.dumps('cardroom.token.' + table_id)}, {json.dumps(token)})")
    page = context.new_page()
    record_frames(page)
    page.goto(f"{server.base}/table/{table_id}")
    wait_first_update(page)
    return page


def wait_first_update(page: Page) -> None:
    page.wait_for_function("() => Number(document.body.dataset.seq) >= 0", timeout=WAIT_MS)


def seq(page: Page) -> int:
    return int(page.get_attribute("body", "data-seq") or "-1")


def wait_seq_above(page: Page, old: int) -> int:
    """Wait until an update with a larger seq than ``old`` is drawn; that seq."""
    try:
        page.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=old, timeout=WAIT_MS)
    except PlaywrightTimeoutError:
        raise AssertionError(f"no update after seq {old} in {WAIT_MS} ms; {page_report(page)}") from None
    return seq(page)


def play_hand_card(page: Page, card: str) -> None:
    """Click ``card`` in this seat's hand and wait until an update drawn after the click has it
    out of the hand. A seq that rose with the card still there (an update that is not this
    play's) is waited past, not taken for the play; a card that never leaves fails with what the
    page showed and the frames it sent and got (which action the click sent)."""
    before = seq(page)
    page.get_by_test_id(f"card-{card}").click()
    wait_seq_above(page, before)
    try:
        page.wait_for_function(
            "c => ![...document.querySelectorAll('[data-testid=hand] button.card')].some(b => b.dataset.card === c)",
            arg=card, timeout=WAIT_MS)
    except PlaywrightTimeoutError:
        raise AssertionError(f"{card} was clicked at seq {before} and is still in the hand; "
                             f"{page_report(page)}") from None


def record_frames(page: Page) -> None:
    """Keep the page's WebSocket frames: a short trace for failure reports, and every update
    the page received (``page.ws_updates``)."""
    frames: list[str] = []
    updates: list[dict[str, Any]] = []
    page.ws_frames = frames  # type: ignore[attr-defined]
    page.ws_updates = updates  # type: ignore[attr-defined]

    def received(payload: str | bytes) -> None:
        frames.append(f"got {str(payload)[:200]}")
        try:
            message = json.loads(payload)
        except ValueError:
            return
        if isinstance(message, dict) and message.get("type") == "update":
            updates.append(message)

    def on_ws(ws: Any) -> None:
        ws.on("framesent", lambda payload: frames.append(f"sent {str(payload)[:200]}"))
        ws.on("framereceived", received)
        ws.on("close", lambda _ws: frames.append("closed"))

    page.on("websocket", on_ws)


def drawn_update(page: Page) -> dict[str, Any]:
    """The update the page has drawn (the last one it received with the seq on its body): what
    the server told this seat, to compare with what the page shows. Needs ``record_frames``."""
    shown = seq(page)
    updates: list[dict[str, Any]] = page.ws_updates  # type: ignore[attr-defined]
    end = time.monotonic() + WAIT_MS / 1000
    while True:
        same = [u for u in updates if u["seq"] == shown]
        if same:
            return same[-1]
        assert time.monotonic() < end, f"the page drew seq {shown} but no such update was seen"
        page.wait_for_timeout(10)   # the frame's event may reach Python after the page drew it


def page_report(page: Page) -> str:
    """What the page shows and its last WebSocket frames, for a failure message."""
    info = page.evaluate("""() => ({
      seq: document.body.dataset.seq,
      toasts: document.querySelector('[data-testid=toasts]')?.innerText,
      turn: document.querySelector('[data-testid=turn-indicator]')?.innerText,
      conn: document.querySelector('[data-testid=connection]')?.dataset.state,
      legal: [...document.querySelectorAll('[data-testid=hand] button[data-legal=true]')].map(b => b.dataset.card),
    })""")
    frames = getattr(page, "ws_frames", [])[-12:]
    return f"page: {info}; last frames: " + "\n".join(frames)


def status(page: Page) -> str:
    return page.get_by_test_id("status").get_attribute("data-status") or ""


MY_TURN_OR_OVER = """() => {
  const st = document.querySelector('[data-testid=status]').dataset.status;
  if (st === 'over') return 'over';
  if (document.querySelector('[data-testid=turn-indicator].my-turn') &&
      (document.querySelector('[data-testid=hand] button[data-legal=true]') ||
       document.querySelector('[data-testid=moves] button:not([disabled]):not([data-testid=suggest-button])'))) return 'turn';
  return false;
}"""


def wait_turn_or_over(page: Page) -> str:
    """'turn' once this seat has something to click, 'over' once the game is over."""
    return str(page.wait_for_function(MY_TURN_OR_OVER, timeout=WAIT_MS).json_value())


FIRST_TURN_OR_OVER = """() => {
  if (document.querySelector('[data-testid=status]').dataset.status === 'over') return 'over';
  if (document.querySelector('[data-testid=hand-result-continue]')) return 'result';
  return (""" + MY_TURN_OR_OVER + """)();
}"""

FIRST_TURN_DEALS = 5
"""Tables :func:`deal_at_first_turn` deals before it gives up: a BAEBAE deal ends before a
person's first turn about once in 650 to 4,000 deals (six to three players), five in a row never."""


def wait_first_turn(page: Page) -> str:
    """'turn' once this seat has something to click, 'over' once the game is over without a
    turn for it. A round the bots ended before this seat's first turn (a BAEBAE table of
    several rounds) shows its result, closed here with Continue as a person would."""
    for _ in range(20):
        found = str(page.wait_for_function(FIRST_TURN_OR_OVER, timeout=WAIT_MS).json_value())
        if found != "result":
            return found
        page.get_by_test_id("hand-result-continue").click()
        page.wait_for_function("() => !document.querySelector('[data-testid=hand-result-continue]')",
                               timeout=WAIT_MS)
    raise AssertionError(f"twenty results and no turn; {page_report(page)}")


def deal_at_first_turn(server: ServeProcess, context: BrowserContext, **create: Any) -> tuple[dict[str, Any], Page]:
    """A table made with ``server.create(**create)`` (``name`` takes its first human seat),
    opened at that seat in a new tab of ``context`` once the seat has its first turn; the table
    and the page. The server deals from a seed of its own, and on about one BAEBAE deal in 650
    to 4,000 (six to three players) the bots end the round before the person's first turn (skips
    and a quick shedding): a result on the way is closed with Continue (:func:`wait_first_turn`), and a
    table over before that turn is left (its tab closed) and another dealt, so that no test
    depends on the seed's luck."""
    for _ in range(FIRST_TURN_DEALS):
        table = server.create(**create)
        page = open_table(context, server, table["id"], table["token"])
        if wait_first_turn(page) == "turn":
            return table, page
        page.close()
    raise AssertionError(f"{FIRST_TURN_DEALS} tables in a row ({create}) were over before the person's first turn")


def hand_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all("[data-testid=hand] button.card", "bs => bs.map(b => b.dataset.card)")


def legal_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all("[data-testid=hand] button.card[data-legal=true]",
                                     "bs => bs.map(b => b.dataset.card)")


def overflow_x(page: Page) -> int:
    return int(page.evaluate("() => document.scrollingElement.scrollWidth"))


def screenshot_dir() -> Path | None:
    """docs/images when CARDROOM_SCREENSHOTS=1, else None (no screenshot is written)."""
    return ROOT / "docs" / "images" if os.environ.get("CARDROOM_SCREENSHOTS") == "1" else None


def seat_update(server: ServeProcess, table_id: str, token: str | None) -> dict[str, Any]:
    """The update the server sends a new connection of this seat (or a spectator): its view and
    moves, to compare with what the page shows."""
    from websockets.sync.client import connect

    ws_url = server.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    with connect(ws_url, open_timeout=WAIT_MS / 1000) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=WAIT_MS / 1000))
            assert message["type"] != "error", message
            if message["type"] == "update":
                return message  # type: ignore[no-any-return]
