"""A short game night played to its reveal by widget-reading players (tests/night/): the first seat
plays on the kiosk (its figure, enrolled by touch, opens its booth), every other seat on its phone's
page in Chromium, joined by the link its QR code holds. Each round the players look, in a seeded
random order, at what their screen offers; the first who is offered something fills a form and sends
it. The night ends when the kiosk shows the reveal."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from tests.kits.night_bot import KioskPlayer, PhonePlayer, Tally
from tests.kits.night_kiosk import Finger, begin_game, enroll_figure
from tests.kits.night_table import Night
from tests.kits.phone_page_kit import PhonePage

MOST_ROUNDS = 60  # rounds the seats play before the host ends the game from the kiosk's menu (a random
# player seldom finishes a long game: the night still ends by touch, and the test says how it ended)
FIGURE_UIDS = ("04A1B2C3D4E501", "04A1B2C3D4E502", "04A1B2C3D4E503")


@dataclass
class Evening:
    night: Night
    finger: Finger
    tally: Tally
    players: list[KioskPlayer | PhonePlayer] = field(default_factory=list)
    phones: list[PhonePage] = field(default_factory=list)
    rounds: int = 0
    wall_s: float = 0.0
    ended_by_host: bool = False

    def close(self) -> None:
        for phone in self.phones:
            phone.close()


def seat(night: Night, browser: Browser, shots: Path, seed: int) -> Evening:
    """The host starts the game on the kiosk; seat one's figure is enrolled by touch; the others join by phone."""
    finger = Finger(night, shots)
    tally = Tally()
    evening = Evening(night, finger, tally)
    rnd = random.Random(seed)
    begin_game(finger)
    names = {p.id: p.name for p in night.table.referee.setup.players}
    first, *others = night.players
    enroll_figure(finger, FIGURE_UIDS[0], names[first])
    finger.shot("enrolled")
    evening.players.append(KioskPlayer(first, FIGURE_UIDS[0], finger, rnd, tally))
    urls = night.join_urls()
    for pid in others:
        phone = PhonePage.open(browser, urls[pid])
        phone.online()
        evening.phones.append(phone)
        evening.players.append(PhonePlayer(pid, phone, rnd, tally, views=lambda p=pid: night.table.views.player(p)))
    return evening


def play(evening: Evening, seed: int) -> None:
    """Round after round until the reveal shows (or MOST_ROUNDS, when nobody could finish the game)."""
    started = time.monotonic()
    rnd = random.Random(seed + 1)
    night, finger = evening.night, evening.finger
    shot_at = {1, 10, 40}
    while evening.rounds < MOST_ROUNDS:
        night.settle()
        if night.kiosk.public.get("ended"):
            break
        evening.rounds += 1
        order = list(evening.players)
        rnd.shuffle(order)
        acted = False
        for player in order:
            if player.offers():
                player.play()
                acted = True
                break
        if not acted:
            for player in evening.players:
                if isinstance(player, KioskPlayer):
                    player.done()
            evening.tally.stuck.append(f"round {evening.rounds}: no screen offers anything")
            break
        if evening.rounds in shot_at:
            finger.shot(f"round-{evening.rounds}-kiosk")
            if evening.phones:
                where = finger.shots / f"{night.game}-round-{evening.rounds}-phone.png"
                evening.phones[0].page.screenshot(path=str(where))
    for player in evening.players:
        if isinstance(player, KioskPlayer):
            player.done()
    night.settle()
    if not night.kiosk.public.get("ended"):  # the host calls it a night: Menu, then "End the game"
        finger.open_menu()  # the host's PIN first
        finger.shot("host-menu")
        finger.press_words("host.menu.end")
        assert finger.screen() == "confirm", finger.screen()  # the second step
        finger.press_words("kiosk.confirm.end.yes")
        night.until(lambda: night.kiosk.public.get("ended"), "the host's end reached the table")
        night.settle()
        evening.ended_by_host = True
    evening.wall_s = time.monotonic() - started


def reveal(evening: Evening) -> list[str]:
    """On the reveal screen, Next until the ranking shows; what the screen then draws, as text."""
    return revealed(evening.finger, evening.phones)


def revealed(finger: Finger, phones: list[PhonePage]) -> list[str]:
    """On the reveal screen, Next until the ranking shows; what the screen then draws, as text (and a
    screenshot of the kiosk and of the first phone)."""
    k = finger.night.kiosk
    assert k.top.name == "reveal", [s.name for s in k.stack]
    while any(b.key == "next" for b in finger.buttons()):
        finger.press_key("next")
    k.text.record = []
    finger.shot("reveal")
    drawn = [d.text for d in (k.text.record or [])]
    k.text.record = None
    if phones:
        phones[0].page.screenshot(path=str(finger.shots / f"{finger.night.game}-reveal-phone.png"))
    return drawn


def ranked_names(public: dict[str, Any]) -> list[list[str]]:
    """The public view's ranking, each place as the players' names."""
    names = {p["id"]: p["name"] for p in public["players"]}
    return [[names[pid] for pid in group] for group in public["result"]["ranking"]]


def inputs_by(night: Night) -> dict[str, int]:
    """Who sent each input the log holds: `by` counted."""
    counted: dict[str, int] = {}
    for event in night.accepted():
        by: Any = event.input.by
        counted[by] = counted.get(by, 0) + 1
    return counted
