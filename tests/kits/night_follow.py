"""A player who follows a demo script by touch (tests/night/): each scripted input is the intention of
the seat that made it, said through what that seat's screen offers now. The first seat plays on the
kiosk (its figure, enrolled by touch, opens its booth), the other seats on their phones, the host on
the kiosk's host menu (its controls) or the host's phone (its forms), and the table's own inputs (a
tile or a card turned up) are tags laid on the simulated reader, each enrolled by touch the first time
as what its face says. Nothing is typed as JSON and nothing calls the referee: what the log holds is
what the screens sent. `sent` records every input by where it was made: kiosk, phone or reader.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser

from companion.kiosk.screens.booth import BoothScreen
from companion.kiosk.screens.host_menu import HostMenuScreen
from companion.table.views import encode
from tests.kits.night_forms import Unreachable, on_booth, on_phone, plain
from tests.kits.night_kiosk import Finger, begin_game, enroll_figure
from tests.kits.night_script import HandClock, Script, Step
from tests.kits.night_table import Night
from tests.kits.phone_page_kit import WAIT_MS, PhonePage

FIGURE_UID = "04A1B2C3D4E501"


@dataclass
class Follower:
    night: Night
    finger: Finger
    script: Script
    clock: HandClock
    phones: dict[str, PhonePage] = field(default_factory=dict)  # seat (or "host") -> its page
    tokens: dict[tuple[str, str], str] = field(default_factory=dict)  # (kind, id) -> the tag's uid
    sent: list[tuple[str, Step]] = field(default_factory=list)  # (kiosk | phone | reader, the input)
    wall_s: float = 0.0

    @property
    def first(self) -> str:
        return self.script.players[0][0]

    def close(self) -> None:
        for phone in self.phones.values():
            phone.close()

    # -- the evening ------------------------------------------------------------------------------------

    def seat(self, browser: Browser) -> None:
        """The host starts the game; the first seat's figure is enrolled by touch; the other seats and
        the host join on their phones by the links their QR codes hold."""
        begin_game(self.finger)
        enroll_figure(self.finger, FIGURE_UID, dict(self.script.players)[self.first])
        urls = self.night.join_urls()
        for pid in [p for p, _ in self.script.players[1:]] + ["host"]:
            phone = PhonePage.open(browser, urls[pid])
            phone.online()
            self.phones[pid] = phone

    def play(self) -> None:
        started = time.monotonic()
        for step in self.script.steps:
            if step.at > self.clock.now_ms() or step.move is None:  # what ran out by then, first
                self.clock.set(step.at)
                self._clock_reaches(step.at)
            if step.move is None:
                continue
            before = len(self.night.accepted())
            where = self._say(step)
            self.sent.append((where, step))
            self._check(step, before)
        self._booth_done()
        self.night.sync()
        self.wall_s = time.monotonic() - started

    # -- one input --------------------------------------------------------------------------------------

    def _say(self, step: Step) -> str:
        assert step.move is not None
        if step.by == "table":
            self._booth_done()
            self.night.tap_tag(self._token(step))
            return "reader"
        if step.by == "host":
            if self._host_menu(step):
                return "kiosk"
            self._on_phone("host", step)
            return "phone"
        pid = step.by.removeprefix("player:")
        if pid == self.first:
            booth = self._booth()
            on_booth(self.finger, booth, step.move, step.args, self._booth)
            self.night.sync()
            if booth.answer is not None and not booth.answer[1]:
                raise AssertionError(f"the referee refused {step}: {booth.answer[0]}")
            return "kiosk"
        self._booth_done()
        self._on_phone(pid, step)
        return "phone"

    def _check(self, step: Step, before: int) -> None:
        events = self.night.accepted()
        made = [e.input for e in events[before:] if e.input.by != "clock"]
        assert [(i.by, i.move, plain(dict(i.args))) for i in made] == [(step.by, step.move, plain(step.args))], (
            f"wanted {step}, the log got {made}")

    def _clock_reaches(self, at: int) -> None:
        """The table's loop looks at its clock at least once a second: wait until it has fired what was
        due by `at`, as it does at a real table."""
        table = self.night.table
        self.night.until(lambda: all(d.at > at for d in table.referee.deadlines()), f"the clock reached {at}")
        self.night.sync()

    # -- the kiosk --------------------------------------------------------------------------------------

    def _booth(self) -> BoothScreen:
        top = self.night.kiosk.top
        if not (isinstance(top, BoothScreen) and top.player == self.first):
            while self.finger.screen() not in ("play", "booth"):
                self.finger.press_key("c" if isinstance(top, HostMenuScreen) else "done")
            self.night.tap_tag(FIGURE_UID)
        top = self.night.kiosk.top
        assert isinstance(top, BoothScreen) and top.player == self.first, self.finger.screen()
        return top

    def _booth_done(self) -> None:
        top = self.night.kiosk.top
        if isinstance(top, BoothScreen):
            self.finger.press_key("done")

    def _host_menu(self, step: Step) -> bool:
        """The host's control on the kiosk's menu, when the menu has one that makes `step`."""
        self._booth_done()
        self.finger.open_menu()
        menu = self.night.kiosk.top
        assert isinstance(menu, HostMenuScreen), self.finger.screen()
        for control in menu.controls():
            if control.move == step.move and dict(control.args) == step.args:
                self.finger.press_key(control.key)
                self.night.sync()
                return True
        self.finger.press_key("c")
        return False

    # -- the reader -------------------------------------------------------------------------------------

    def _token(self, step: Step) -> str:
        """The tag whose face shows what the table turned up (a value of the step's args), enrolled by
        touch the first time it is laid on the reader."""
        for (_kind, token_id), uid in self.tokens.items():
            if token_id in step.args.values():
                return uid
        uid = f"04C0FFEE{len(self.tokens):06X}"
        self.night.tap_tag(uid)
        assert self.finger.screen() == "enroll", self.finger.screen()
        self.finger.press_key("start")
        self.finger.host_pin()  # what a tag is, the host says
        enroll = self.night.kiosk.top
        for _ in range(20):
            for b in self.finger.buttons():
                if isinstance(b.key, tuple) and b.key[0] == "choice":
                    choice = enroll.choices()[b.key[1]]  # type: ignore[attr-defined]
                    if choice.kind != "player" and choice.id in step.args.values():
                        self.finger.touch(b)
                        self.tokens[(choice.kind, choice.id)] = uid
                        return uid
            if not any(b.key == "more" for b in self.finger.buttons()):
                break
            self.finger.press_key("more")
        raise Unreachable(f"no token to enroll for {step}: {[b.label for b in self.finger.buttons()]}")

    # -- the phones -------------------------------------------------------------------------------------

    def _on_phone(self, seat: str, step: Step) -> None:
        assert step.move is not None
        phone = self.phones[seat]
        views = self.night.table.views
        view = views.host if seat == "host" else views.player(seat)
        wanted = sorted(encode([p["move"], p.get("fixed"), p["fields"]]).decode() for p in view["prompts"])
        phone.page.wait_for_function(  # the page shows the seat's newest forms (a person looks again)
            "(want) => JSON.stringify([...document.querySelectorAll('#forms form.prompt')]"
            ".map((f) => f.dataset.key).sort()) === JSON.stringify(want)", arg=wanted, timeout=WAIT_MS)
        state = on_phone(phone.page, step.move, step.args)
        phone.page.wait_for_function("(s) => s.dataset.ok === 'true' || s.dataset.ok === 'false'", arg=state,
                                     timeout=WAIT_MS)
        if state.get_attribute("data-ok") != "true":
            raise AssertionError(f"the referee refused {step} from the phone: {state.text_content()}")
        self.night.sync()


def counted(sent: list[tuple[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for where, _ in sent:
        out[where] = out.get(where, 0) + 1
    return out
