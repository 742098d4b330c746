"""The host's form says whose turn pressing it ends, and pressing it ends that turn or nothing (issue 21:
"it read 'End chai's turn now' during Ana's turn, and pressing it ended Ana's"). In headless Chromium the
host's page is held back (the broker's frames to it are kept, then delivered in order) while the kiosk
ends Ben's turn: the page still reads "End Ben's turn now", and pressing it must not end Ana's."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from playwright.sync_api import Browser, WebSocketRoute

from companion.games.lockdown import GAME
from tests.kits.phone_page_kit import PHONE, WAIT_MS, PhonePage, running_game, serving
from tests.kits.phones_kit import WAIT_S
from tests.phones.test_phone_page_shows import lockdown


class HeldPage:
    """A phone whose incoming frames can be held back and then delivered, in their order."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.held: list[str | bytes] | None = None
        context = browser.new_context(locale="en-US", **PHONE)  # type: ignore[arg-type]
        context.route_web_socket(re.compile(".*"), self._route)
        self.phone = PhonePage(context, context.new_page())
        self.phone.page.goto(url)

    def _route(self, page_side: WebSocketRoute) -> None:
        server = page_side.connect_to_server()
        self.page_side = page_side
        page_side.on_message(server.send)
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        if self.held is None:
            self.page_side.send(message)
        else:
            self.held.append(message)

    def hold(self) -> None:
        self.held = []

    def release(self) -> None:
        held, self.held = self.held or [], None
        for message in held:
            self.page_side.send(message)


def test_a_stale_end_turn_form_ends_nobodys_turn_but_the_one_it_names(tmp_path: Path, browser: Browser) -> None:
    with running_game(tmp_path, lockdown(43)) as run, serving(run) as (_, links):
        chief = HeldPage(browser, links["host"].url())
        try:
            chief.phone.online()
            form = chief.phone.page.locator(chief.phone.form("lockdown.force_end_turn"))
            assert form.locator("h3").inner_text() == "End Ben's turn now"
            chief.hold()
            done = threading.Event()
            run.table.put({"by": "host", "move": "lockdown.force_end_turn", "args": {}},  # from the kiosk
                          lambda outcome: done.set() if outcome.accepted else None)
            assert done.wait(WAIT_S) and GAME.view_public(run.referee.state)["turn"] == "ana"
            assert form.locator("h3").inner_text() == "End Ben's turn now"  # the host's page has not heard
            form.locator("button.send").click()
            chief.release()
            toast = chief.phone.page.locator("#toast", has_text="Ben's turn is already over: nothing was ended.")
            toast.wait_for(timeout=WAIT_MS)
            assert GAME.view_public(run.referee.state)["turn"] == "ana"  # Ana plays on
            chief.phone.page.wait_for_function(
                "() => document.querySelector(\"form[data-move='lockdown.force_end_turn'] h3\").textContent"
                " === \"End Ana's turn now\"", timeout=WAIT_MS)
        finally:
            chief.phone.close()
