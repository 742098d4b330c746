"""Lockdown's genes add up to 10 (ruling L1.2), and both forms say so as the player taps (issue 21): the
booth (SDL touches at the widgets) and the phone page (headless Chromium) show the running sum and what is
left or too many, and keep Send disabled, with those words saying why, until the genes add up."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from playwright.sync_api import Browser

from companion import games, i18n, scripting
from companion.core.eventlog import EventLog
from companion.drawing.text import TextCache
from companion.games.lockdown import flow
from companion.kiosk.board_scenes import replay_scene
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.screens.booth import BoothScreen
from tests.games.lockdown.test_lockdown_path_phone import setup_only
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache
from tests.kits.kiosk_touch import tap_at
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, running_game, serving

__all__ = ["shots_dir", "text", "text_cache"]
SETUP = {"game": "lockdown", "players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}],
         "options": {"items": "digital", "free_seconds": 0, "turn_seconds": 0}, "seed": 11}


def touch(k: Kiosk, key: object) -> None:
    rect = next(b for b in k.top.buttons() if b.key == key).rect
    tap_at(k, rect.center)


def booth(k: Kiosk) -> BoothScreen:
    assert isinstance(k.top, BoothScreen)
    return k.top


def send_style(k: Kiosk) -> str:
    return next(b.style for b in booth(k).buttons() if b.key == "send")


def sum_line(k: Kiosk) -> str:
    return booth(k)._lines[-1][1]


@pytest.mark.parametrize(("lang", "size"), [("en", "800x480"), ("th", "800x480"), ("zh", "1920x1080")])
def test_the_booth_shows_the_running_sum_and_sends_only_when_the_genes_add_up(lang: str, size: str,
                                                                              text: TextCache, shots_dir: Path) -> None:
    scene = replay_scene(surface(size), text, lang, [json.dumps(SETUP)])
    k = scene.kiosk
    scene.tap_token("ana")
    touch(k, ("open", "spawn"))
    words = i18n.translate(lang, "lockdown.group.floor", {"building": "B", "floor": "B1"})
    touch(k, next(b.key for b in booth(k).buttons() if b.label == words))
    field = booth(k).form.field_named("spawn")  # type: ignore[union-attr]
    touch(k, ("choice", "spawn", [c["value"] for c in field["choices"]].index("B107")))
    assert sum_line(k) == i18n.translate(lang, "kiosk.form.sum_short", {"sum": 1, "total": 10, "left": 9})
    assert send_style(k) == "off"  # a spawn room is chosen: only the sum holds Send back
    for name, taps in (("force", 4), ("speed", 2), ("load", 3)):
        for _ in range(taps):
            touch(k, ("plus", name))
    assert sum_line(k) == i18n.translate(lang, "kiosk.form.sum_ok", {"sum": 10, "total": 10})
    assert send_style(k) == "primary"
    touch(k, ("plus", "load"))
    assert sum_line(k) == i18n.translate(lang, "kiosk.form.sum_over", {"sum": 11, "total": 10, "over": 1})
    assert send_style(k) == "off"
    k.process()
    pygame.image.save(k.surface, str(shots_dir / f"lockdown-genes-over-{lang}-{size}.png"))
    panel = next(r for r in k.regions() if r.name == "booth.form").rect
    rows = [r for r, _ in booth(k)._lines]
    assert all(panel.contains(r) for r in rows)
    assert not any(r.colliderect(b.rect) for r in rows for b in booth(k).buttons())
    touch(k, ("minus", "load"))
    touch(k, "send")
    scene.pump()
    assert scene.table.referee.state["people"]["ana"]["genes"] == {"force": 4, "speed": 3, "load": 3}


def test_the_phone_shows_the_running_sum_and_sends_only_when_the_genes_add_up(tmp_path: Path,
                                                                              browser: Browser) -> None:
    with running_game(tmp_path, setup_only()) as run, serving(run) as (_, links):
        phone = PhonePage.open(browser, links["ana"].url())
        try:
            phone.online()
            form = phone.page.locator(phone.form("lockdown.prepare"))
            form.locator("details.group > summary", has_text="B1").first.click()
            form.locator("label.choice", has_text="B107").click()
            sums, send = form.locator(".form-sum"), form.locator("button.send")
            force, speed, load = form.locator("input[type='number']").all()
            assert sums.inner_text() == i18n.translate("en", "phone.sum_short", {"sum": 1, "total": 10, "left": 9})
            assert send.is_disabled()
            force.fill("4")
            speed.fill("3")
            load.fill("4")
            assert sums.inner_text() == i18n.translate("en", "phone.sum_over", {"sum": 11, "total": 10, "over": 1})
            assert send.is_disabled()
            phone.page.screenshot(path=str(tmp_path / "phone-genes-over.png"), full_page=True)
            form.locator("fieldset").nth(2).locator("button[aria-label='-1']").click()  # load: 4 - 1
            assert sums.inner_text() == i18n.translate("en", "phone.sum_ok", {"sum": 10, "total": 10})
            assert send.is_enabled()
            send.click()
            phone.page.wait_for_selector("#you:has-text('B107')", timeout=WAIT_MS)
            assert run.referee.state["people"]["ana"]["genes"] == {"force": 4, "speed": 3, "load": 3}
        finally:
            phone.close()


def at_the_gene_console() -> tuple[list[str], str]:
    """A recorded game up to its first action turn, the player to act having moved into B304 (ruling L3.6)
    from the room next door where everyone spawned, and that player's id."""
    lines = setup_only()
    head = json.loads(lines[-1])
    at = 1000
    for p in head["players"]:
        lines.append(json.dumps({"by": f"player:{p['id']}", "move": "lockdown.prepare", "at": at,
                                 "args": {"force": 2, "speed": 3, "load": 5, "spawn": "B303"}}))
        at += 1000
    lines.append(json.dumps({"by": "host", "move": "lockdown.begin_actions", "args": {}, "at": at}))
    referee = scripting.run(games.registry(), EventLog(":memory:"), lines)
    first = flow.current_player(referee.state)
    assert first is not None
    lines.append(json.dumps({"by": f"player:{first}", "move": "lockdown.move", "args": {"path": ["B304"]},
                             "at": at + 1000}))
    return lines, first


def test_the_phone_shows_the_gene_consoles_running_sum_and_sends_only_when_it_adds_up(tmp_path: Path,
                                                                                      browser: Browser) -> None:
    """Issue 33: B304's form states the total like the setup form, so the page sums as the player types and
    keeps Send disabled until the genes add up to it."""
    lines, pid = at_the_gene_console()
    with running_game(tmp_path, lines) as run, serving(run) as (_, links):
        phone = PhonePage.open(browser, links[pid].url())
        try:
            phone.online()
            form = phone.page.locator(phone.form("lockdown.gene_console"))
            sums, send = form.locator(".form-sum"), form.locator("button.send")
            force, speed, load = form.locator("input[type='number']").all()
            force.fill("6")
            speed.fill("3")
            load.fill("2")
            assert sums.inner_text() == i18n.translate("en", "phone.sum_over", {"sum": 11, "total": 10, "over": 1})
            assert send.is_disabled()
            force.fill("4")
            assert sums.inner_text() == i18n.translate("en", "phone.sum_short", {"sum": 9, "total": 10, "left": 1})
            assert send.is_disabled()
            phone.page.screenshot(path=str(tmp_path / "phone-gene-console-short.png"), full_page=True)
            load.fill("3")
            assert sums.inner_text() == i18n.translate("en", "phone.sum_ok", {"sum": 10, "total": 10})
            assert send.is_enabled()
            send.click()
            phone.page.wait_for_function(
                "() => !document.querySelector(\"#forms form.prompt[data-move='lockdown.gene_console']\")",
                timeout=WAIT_MS)
            assert run.referee.state["people"][pid]["genes"] == {"force": 4, "speed": 3, "load": 3}
        finally:
            phone.close()
