"""Issue 33's forms at the kiosk's private booth, as a player taps them: SDL touches at the widgets' places
on a 7" panel (800x480). A trade that no longer fits (zh, th, en): Ben's list offers no Accept for Ana's
trade once he gave the water it asks for to Chai; it says whose trade it was and what for what, in words,
and Ben calls it off. The gene console (B304) shows its running sum and sends only when it adds up. The
phone page's side: test_lockdown_offered_now_phone.py, test_lockdown_genes_forms.py."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.games.lockdown import items
from companion.kiosk.board_scenes import replay_scene
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.screens.booth import BoothScreen
from tests.games.lockdown.test_lockdown_genes_forms import at_the_gene_console
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache
from tests.kits.kiosk_touch import tap_at
from tests.kits.layout_check import violations
from tests.kits.lockdown_script import by, hand, prepare, setup_line

__all__ = ["shots_dir", "text", "text_cache"]


def booth(k: Kiosk) -> BoothScreen:
    assert isinstance(k.top, BoothScreen)
    return k.top


def page_of(k: Kiosk) -> list[str]:
    return [b.label for b in booth(k).buttons() if isinstance(b.key, tuple) and b.key[0] == "prompt"]


def paging(k: Kiosk, way: str) -> object | None:
    """The list's More (`prompts_more`) or Back (`prompts_back`), if it has one now."""
    return next((b.key for b in booth(k).buttons() if b.key == way), None)


def listed(k: Kiosk) -> list[str]:
    """The labels of every form the booth lists, page by page (tapping More, then Back to the first)."""
    out = page_of(k)
    while (more := paging(k, "prompts_more")) is not None:
        touch(k, more)
        out += page_of(k)
    while (back := paging(k, "prompts_back")) is not None:
        touch(k, back)
    return out


def touch(k: Kiosk, label_or_key: object) -> None:
    """Tap the button with this key or label (a listed form on a later page: More until it shows)."""
    while not any(b.key == label_or_key or b.label == label_or_key for b in booth(k).buttons()):
        more = paging(k, "prompts_more")
        assert more is not None, f"{label_or_key!r} is not on the booth"
        touch(k, more)
    button = next(b for b in booth(k).buttons() if b.key == label_or_key or b.label == label_or_key)
    tap_at(k, button.rect.center)


def cards(lang: str, *kinds: str) -> str:
    return ", ".join(i18n.translate(lang, f"lockdown.item.{k}") for k in kinds)


@pytest.mark.parametrize("lang", ["zh", "th", "en"])
def test_the_booth_offers_no_accept_for_a_trade_that_no_longer_fits(lang: str, text: TextCache,
                                                                    shots_dir: Path) -> None:
    setup = setup_line(["ana", "ben", "chai"], seed=5, items="digital")
    lines = [json.dumps(setup), *(json.dumps({**prepare(p, 4, 3, 3, "B302"), "at": 1000 * (i + 1)})
                                  for i, p in enumerate(("ana", "ben", "chai")))]
    scene = replay_scene(surface("800x480"), text, lang, lines)
    k, ref = scene.kiosk, scene.table.referee
    hand(ref.state, "ana", "knife")
    hand(ref.state, "ben", "water")
    scene.play(by("ana", "offer", to="ben", give=["knife"], get=["water"], swap_order=False))
    scene.play(by("chai", "offer", to="ben", give=[], get=["water"], swap_order=False))
    scene.tap_token("ben")
    from_ana = i18n.translate(lang, "lockdown.prompt.accept",
                              {"player": "Ana", "give": cards(lang, "knife"), "get": cards(lang, "water")})
    from_chai = i18n.translate(lang, "lockdown.prompt.accept", {
        "player": "Chai", "give": i18n.translate(lang, "lockdown.trade.nothing"), "get": cards(lang, "water")})
    assert from_ana in listed(k) and from_chai in listed(k)
    touch(k, from_chai)
    touch(k, "send")
    scene.pump()
    assert [items.kind_of(c) for c in ref.state["people"]["chai"]["items"]] == ["water"]
    if not listed(k):
        touch(k, "back")  # the receipt of the accepted trade, then the list
    stale = i18n.translate(lang, "lockdown.prompt.trade_stale",
                           {"player": "Ana", "give": cards(lang, "knife"), "get": cards(lang, "water")})
    assert stale in listed(k) and from_ana not in listed(k), listed(k)
    k.process()
    pygame.image.save(k.surface, str(shots_dir / f"booth-lockdown-trade-stale-{lang}.png"))
    assert not violations(scene), violations(scene)  # readable on the 7" panel: 14 px at least, nothing cut
    touch(k, stale)
    touch(k, "send")
    scene.pump()
    assert ref.state["trades"] == {}
    assert [items.kind_of(c) for c in ref.state["people"]["ana"]["items"]] == ["knife"]
    scene.close()


def sum_line(k: Kiosk) -> str:
    return booth(k)._lines[-1][1]


def send_style(k: Kiosk) -> str:
    return next(b.style for b in booth(k).buttons() if b.key == "send")


@pytest.mark.parametrize("lang", ["en", "th"])
def test_the_booths_gene_console_shows_its_total_and_sends_only_when_it_adds_up(lang: str, text: TextCache,
                                                                                shots_dir: Path) -> None:
    """B304 (ruling L3.6) states the total to redistribute, as the setup form does: the booth shows the running
    sum and what is left or too many, and Send waits until the genes add up to it."""
    lines, pid = at_the_gene_console()
    script = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]  # no comments
    scene = replay_scene(surface("800x480"), text, lang, script)
    k = scene.kiosk
    scene.tap_token(pid)
    touch(k, i18n.translate(lang, "lockdown.prompt.gene_console", {"total": 10}))
    assert sum_line(k) == i18n.translate(lang, "kiosk.form.sum_short", {"sum": 1, "total": 10, "left": 9})
    assert send_style(k) == "off"
    for name, taps in (("force", 4), ("speed", 2), ("load", 4)):
        for _ in range(taps):
            touch(k, ("plus", name))
    assert sum_line(k) == i18n.translate(lang, "kiosk.form.sum_over", {"sum": 11, "total": 10, "over": 1})
    assert send_style(k) == "off"
    k.process()
    pygame.image.save(k.surface, str(shots_dir / f"booth-lockdown-gene-console-over-{lang}.png"))
    assert not violations(scene), violations(scene)
    touch(k, ("minus", "load"))
    assert sum_line(k) == i18n.translate(lang, "kiosk.form.sum_ok", {"sum": 10, "total": 10})
    assert send_style(k) == "primary"
    touch(k, "send")
    scene.pump()
    assert scene.table.referee.state["people"][pid]["genes"] == {"force": 4, "speed": 3, "load": 3}
    scene.close()
