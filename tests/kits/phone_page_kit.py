"""Shared helpers for the phone page tests: the page served for a running table, real headless Chromium
(Debian's, driven by playwright; never `playwright install`), and a page that records what it holds.

`PhonePage` keeps every WebSocket frame the page sent and received and every console line, so a test
can look for a secret in all of them (besides the DOM). Waits use playwright's own timeouts: no sleeps.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import zxingcpp
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, WebSocket
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion import games, scripting
from companion.core.eventlog import EventLog
from companion.kiosk.board_scenes import last_at
from companion.phones.join import JoinLink, seat_links, seat_qr
from companion.phones.pageserver import PageServer
from tests.kits import phones_kit
from tests.kits.phones_kit import Running

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
WAIT_MS = 15_000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


class StillClock:
    """The table's clock stands where the recorded game stopped: no timer runs out during the test."""

    def __init__(self, now: int) -> None:
        self.now = now

    def now_ms(self) -> int:
        return self.now


#: Draws one prompt's form with the page's own forms.js in the reader's language; what Send would send goes
#: to `window.sent` (a command id "c1" that nobody answers: the form then waits, as after a real Send).
DRAW_FORM = """async ([prompt, lang]) => {
  const i18n = await import("/js/i18n.js");
  const forms = await import("/js/forms.js");
  await i18n.load(lang);
  window.sent = [];
  const node = forms.form(prompt, (move, args) => { window.sent.push([move, args]); return "c1"; }, new Map());
  document.querySelector("main").replaceChildren(node);
}"""


@contextlib.contextmanager
def form_tab(browser: Browser) -> Iterator[Page]:
    """A phone's tab on the page's own files (no table, no broker), for `draw_form`."""
    server = PageServer("127.0.0.1", 0).start()
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    try:
        tab = context.new_page()
        tab.goto(f"http://127.0.0.1:{server.port}/")
        yield tab
    finally:
        context.close()
        server.stop()


def draw_form(tab: Page, prompt: dict[str, Any], lang: str = "en") -> None:
    """`prompt`'s form alone on a fresh page (an earlier form's unanswered Send forgotten)."""
    tab.reload()
    tab.evaluate(DRAW_FORM, [prompt, lang])


@contextlib.contextmanager
def running_game(tmp_path: Path, lines: list[str]) -> Iterator[Running]:
    """A recorded game replayed to the end of `lines`, then run at a table with its phones (the managed Mosquitto)."""
    referee = scripting.run(games.registry(), EventLog(tmp_path / "game.sqlite3"), lines)
    inputs = [line for line in lines[1:] if line.strip() and not line.lstrip().startswith("#")]
    with phones_kit.serving(referee, tmp_path, "mosquitto", clock=StillClock(last_at(inputs))) as run:
        yield run


@contextlib.contextmanager
def serving(run: Running, default_language: str = "en") -> Iterator[tuple[PageServer, dict[str, JoinLink]]]:
    """The phone page served on loopback for `run`'s table, and every seat's join link."""
    server = PageServer("127.0.0.1", 0, default_language=default_language, now_ms=run.table.clock.now_ms).start()
    try:
        yield server, seat_links(run.phones, f"http://127.0.0.1:{server.port}/")
    finally:
        server.stop()


def scan(link: JoinLink) -> str:
    """What a phone camera reads off the seat's QR code: the QR drawn to pixels, then decoded."""
    modules = np.kron(np.array(seat_qr(link), dtype=np.uint8), np.ones((4, 4), dtype=np.uint8))  # 4 px a module
    found = zxingcpp.read_barcodes(np.where(modules == 1, 0, 255).astype(np.uint8),
                                   formats=zxingcpp.BarcodeFormat.QRCode)
    # a phone's camera reads QR codes only; the decoder may report the one code twice (seen once in CI)
    texts = {str(code.text) for code in found}
    assert len(texts) == 1, [(str(code.format), str(code.text)) for code in found]
    return texts.pop()


@dataclass
class PhonePage:
    """One phone: its own browser context (its own localStorage), its page, and what it recorded."""

    context: BrowserContext
    page: Page
    frames: list[bytes] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    @classmethod
    def open(cls, browser: Browser, url: str, locale: str = "en-US", width: int | None = None,
             height: int | None = None) -> PhonePage:
        size = {"width": width, "height": height} if width and height else PHONE["viewport"]
        context = browser.new_context(locale=locale, **{**PHONE, "viewport": size})  # type: ignore[arg-type]
        phone = cls(context, context.new_page())
        phone.page.on("websocket", phone._watch)
        phone.page.on("console", phone._log)
        phone.page.on("pageerror", lambda err: phone.console.append(f"pageerror: {err}"))
        phone.page.goto(url)
        return phone

    def _watch(self, ws: WebSocket) -> None:
        ws.on("framesent", self._frame)
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(payload.encode() if isinstance(payload, str) else payload)

    def _log(self, msg: ConsoleMessage) -> None:
        self.console.append(f"{msg.type}: {msg.text}")

    def online(self) -> None:
        try:
            self.page.wait_for_selector(".link[data-state='online']", timeout=WAIT_MS)
        except PlaywrightTimeout:  # say what the page went through (its console), not just the wait
            state = self.page.get_attribute(".link", "data-state")
            raise AssertionError(f"the phone's link stayed {state!r}; its console: {self.console[-12:]}") from None

    def form(self, move: str) -> str:
        selector = f"form[data-move='{move}']"
        self.page.wait_for_selector(selector, timeout=WAIT_MS)
        return selector

    def choose_and_send(self, move: str, choice: str) -> None:
        form = self.page.locator(self.form(move))
        form.locator("label.choice", has_text=choice).click()
        form.locator("button.send").click()

    def toast(self, text: str) -> None:
        self.page.wait_for_selector(f"#toast:has-text('{text}')", timeout=WAIT_MS)

    def text(self) -> str:
        return str(self.page.locator("body").inner_text())

    def holds(self, needle: bytes) -> bool:
        """Whether the page's DOM, any WebSocket frame or any console line contains `needle`."""
        return (needle in self.page.content().encode() or any(needle in f for f in self.frames)
                or any(needle in line.encode() for line in self.console))

    def close(self) -> None:
        self.context.close()
