"""A player that reads the widgets, not the rules (issue 21's acceptance): on the kiosk's booth it
taps one of the buttons the form offers, on the phone one of the page's inputs, chosen at random
(seeded) among those offered, until the form's Send is enabled, and then presses it. It never looks at
the game's rules or state; it only waits, as a person does, until the page shows the seat's newest view.

`Tally` counts what it did: every touch, every Send, and every refusal with what the form offered.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion import i18n
from companion.kiosk.screens.booth import BoothScreen
from companion.table.views import encode
from tests.kits.night_kiosk import Finger
from tests.kits.phone_page_kit import WAIT_MS, PhonePage

MOST_TAPS = 40  # taps into one form before the bot gives it up (a form whose Send never enables)


@dataclass
class Tally:
    sends: int = 0  # Send pressed (kiosk booth or phone)
    accepted: int = 0
    refused: list[str] = field(default_factory=list)  # what was refused: the move, the args, the reason
    stuck: list[str] = field(default_factory=list)  # forms whose Send never enabled
    phone_taps: int = 0

    def refusal_rate(self) -> float:
        return len(self.refused) / self.sends if self.sends else 0.0


@dataclass
class KioskPlayer:
    """A seat played on the kiosk: its figure opens the booth, its forms are touched."""

    pid: str
    uid: str  # the figure's tag
    finger: Finger
    rnd: random.Random
    tally: Tally

    def booth(self) -> BoothScreen | None:
        top = self.finger.night.kiosk.top
        return top if isinstance(top, BoothScreen) and top.player == self.pid else None

    def open_booth(self) -> BoothScreen:
        if self.booth() is None:
            self.finger.night.tap_tag(self.uid)
        booth = self.booth()
        assert booth is not None, f"{self.pid}'s figure did not open the booth: {self.finger.screen()}"
        return booth

    def offers(self) -> bool:
        booth = self.open_booth()
        return bool(booth.prompts())

    def play(self) -> None:
        """Fill one offered form with random offered taps, then Send; wait for the answer."""
        booth = self.open_booth()
        sending = i18n.translate(self.finger.night.kiosk.lang, "kiosk.booth.sending")
        if booth.sent is not None:  # the receipt of the last Send: back to the list, as a person does
            self.finger.press_key("back")
        for _ in range(MOST_TAPS):
            buttons = self.finger.buttons()
            send = [b for b in buttons if b.key == "send" and b.style == "primary"]
            if send and (self.rnd.random() < 0.6 or not choosable(buttons)):
                wanted = booth.form.input(booth.audience) if booth.form else {}
                self.finger.touch(send[0])
                self.tally.sends += 1
                self.finger.night.until(lambda: booth.answer is None or booth.answer[0] != sending
                                        or booth not in self.finger.night.kiosk.stack, "the booth's answer")
                if booth.answer is not None and not booth.answer[1]:
                    self.tally.refused.append(f"kiosk {self.pid} {wanted['move']} {wanted['args']}: {booth.answer[0]}")
                    self.finger.shot(f"refused-{len(self.tally.refused)}")
                    if self.booth() is booth:
                        self.finger.press_key("back")  # back to the list of what the player may do
                else:
                    self.tally.accepted += 1
                return
            options = choosable(buttons)
            if not options:
                break
            self.finger.touch(self.rnd.choice(options))
            if self.booth() is None:
                return
        self.tally.stuck.append(f"kiosk {self.pid}: {booth.form.prompt['move'] if booth.form else '?'}")
        self.finger.press_key("done")

    def done(self) -> None:
        if self.booth() is not None:
            self.finger.press_key("done")


def choosable(buttons: list[Any]) -> list[Any]:
    """The booth's buttons that choose something (a prompt, a choice, a group, more, a number)."""
    keep = ("prompt", "choice", "group", "more", "open", "minus", "plus")
    return [b for b in buttons if (b.key[0] if isinstance(b.key, tuple) else b.key) in keep
            or b.key == "prompts_more"]


@dataclass
class PhonePlayer:
    """A seat played on its phone's page in Chromium."""

    pid: str
    phone: PhonePage
    rnd: random.Random
    tally: Tally
    views: Any  # () -> the seat's newest view, only to wait until the page shows it (never to choose)

    def up_to_date(self) -> None:
        """Wait until the page's forms are the forms of the seat's newest view."""
        wanted = sorted(encode([p["move"], p.get("fixed"), p["fields"]]).decode() for p in self.views()["prompts"])
        self.phone.page.wait_for_function(
            "(want) => JSON.stringify([...document.querySelectorAll('#forms form.prompt')]"
            ".map((f) => f.dataset.key).sort()) === JSON.stringify(want)", arg=wanted, timeout=WAIT_MS)

    def offers(self) -> bool:
        self.up_to_date()
        return self.phone.page.locator("#forms form.prompt").count() > 0

    def play(self) -> None:
        page = self.phone.page
        forms = page.locator("#forms form.prompt")
        form = forms.nth(self.rnd.randrange(forms.count()))
        move = form.get_attribute("data-move")
        for text in form.locator("input[type=text]").all():
            text.fill("bot")
            self.tally.phone_taps += 1
        for _ in range(MOST_TAPS):
            send = form.locator("button.send")
            if send.is_enabled() and self.rnd.random() < 0.6:
                break
            options = [o for o in self._offered(form) if o.is_visible()]
            if not options:
                break
            self.rnd.choice(options).click()
            self.tally.phone_taps += 1
        if not form.locator("button.send").is_enabled():
            self.tally.stuck.append(f"phone {self.pid}: {move}")
            return
        state = form.locator(".form-state").element_handle()  # answered here even if the form is redrawn
        form.locator("button.send").click()
        self.tally.phone_taps += 1
        self.tally.sends += 1
        page.wait_for_function("(s) => s.dataset.ok === 'true' || s.dataset.ok === 'false'", arg=state,
                               timeout=WAIT_MS)
        if state.get_attribute("data-ok") == "true":
            self.tally.accepted += 1
        else:
            self.tally.refused.append(f"phone {self.pid} {move}: {state.text_content()}")

    def _offered(self, form: Any) -> list[Any]:
        closed = form.locator("details:not([open]) > summary")
        if closed.count() and self.rnd.random() < 0.5:
            return list(closed.all())
        return [*form.locator("label.choice").all(), *form.locator(".picks button:not([hidden]):not([disabled])").all(),
                *form.locator(".number button").all()]

