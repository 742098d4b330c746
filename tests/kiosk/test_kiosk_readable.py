"""Readable on a 7" panel (issue 28, item 7): every screen the screenshot scenes reach (the kiosk's own
screens, each game's moments and its first player's booth), at 800x480 and 1920x1080, in zh, th and en,
with 24-letter names: no text under 14 px, no touch target under 48 px (scaled on the TV), nothing
cut, out of its box or on top of something else. A failure names the widget (tests/kits/layout_check.py).

The attract loop is walked whole besides: every step of every game on its reel (the demo's board, the box,
the announcements, the call to action). `KNOWN` lists each violation still on a screen, by screen, kind and
widget, so any new one fails.
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.kiosk import board_scenes
from companion.kiosk.scenes import SCREENS, Scene, make_scene, show_screen
from companion.kiosk.screens.attract import DEMO_STEP_MS, AttractScreen
from companion.kiosk.screenshots import example_seats
from tests.kits.kiosk_fixtures import surface, text, text_cache
from tests.kits.kiosk_touch import touch
from tests.kits.layout_check import LONG_NAMES, Violation, long_named, long_players, redraw, violations

__all__ = ["text", "text_cache"]
SIZES = ("800x480", "1920x1080")
NOT_WALKED: tuple[str, ...] = ()
WALKED = tuple(s for s in SCREENS if s not in NOT_WALKED)
#: Known violations not fixed yet: (screen, kind, widget). Each entry is a bug still to fix; remove it with
#: its fix (a violation not listed here fails the test).
KNOWN: set[tuple[str, str, str]] = set()


def unknown(screen: str, found: list[Violation]) -> list[str]:
    return [str(v) for v in found if (screen, v.kind, v.widget) not in KNOWN]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("screen", WALKED)
def test_every_kiosk_screen_is_readable(screen: str, lang: str, size: str, text: TextCache) -> None:
    scene = make_scene(surface(size), text, lang, seats=example_seats(), players=long_players())
    try:
        show_screen(scene, screen)
        assert unknown(screen, violations(scene)) == []
    finally:
        scene.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("moment", sorted(board_scenes.moments()))
def test_every_game_moment_and_booth_is_readable(moment: str, lang: str, size: str, text: TextCache) -> None:
    script, steps = board_scenes.moments()[moment]
    lines = long_named(board_scenes.part_way(board_scenes.script_lines(script), steps))
    scene = board_scenes.replay_scene(surface(size), text, lang, lines)
    try:
        problems = unknown(f"board-{moment}", violations(scene))
        scene.tap_token(scene.table.referee.state["players"][0]["id"])
        problems += unknown(f"booth-{moment}", violations(scene))
        assert problems == []
    finally:
        scene.close()


@pytest.mark.parametrize("code", [True, False], ids=["qr-code", "no-code"])
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_whole_attract_loop_is_readable(lang: str, size: str, code: bool, text: TextCache) -> None:
    """Every step of every game's stretch on the reel, as a passer-by sees it, until the reel is back at
    its first game; with a QR code (`display.attract_url`) and without (each has its own layout)."""
    scene = make_scene(surface(size), text, lang, seats=example_seats(), players=long_players())
    try:
        k = scene.kiosk
        k.settings.attract_url = "https://example.org/tabletop?from=kiosk" if code else None
        assert isinstance(k.top, AttractScreen) and (k.top.scan() is not None) == code
        reel = k.top.reel
        shown: list[str] = []
        problems: set[str] = set()
        while not (len(shown) > 1 and reel.game == shown[0]):
            if not shown or shown[-1] != reel.game:
                shown.append(reel.game)
            problems |= {f"{reel.game}: {p}" for p in unknown("attract", violations(scene))}
            scene.at(scene.clock.now + DEMO_STEP_MS)
            assert len(shown) <= len(reel.ids)
        assert shown == reel.ids and len(shown) > 1
        assert sorted(problems) == []
    finally:
        scene.close()


#: Seven players: the toolkit's role presets (Werewolf, Avalon) fit them.
SEVEN = [{"id": pid, "name": LONG_NAMES[i % len(LONG_NAMES)]}
         for i, pid in enumerate(("ana", "ben", "chai", "dao", "eve", "fon", "gus"))]


def deal_presets(scene: Scene) -> None:
    """The evening's moderator deals roles: host menu, Game forms, the preset deal, its presets listed."""
    k = scene.kiosk
    k.open_menu()
    k.process()
    touch(k, key="f")
    touch(k, i18n.translate(k.lang, "toolkit.prompt.deal_preset", {"count": len(SEVEN)}))
    touch(k, key=("open", "roles"))


def long_notice(scene: Scene) -> None:
    """A refusal said in the status bar, beside the devices ("Network", "Phones", "Reader")."""
    k = scene.kiosk
    k.say("kiosk.notice.refused", reason=i18n.translate(k.lang, "reject.seat_unavailable"))
    k.process()


def deal_chosen(scene: Scene) -> None:
    """The longest preset (Avalon's roles) chosen: the form's rows again, its line saying all of it."""
    deal_presets(scene)
    touch(scene.kiosk, key=("choice", "roles", 1))
    assert scene.kiosk.top.form.opened is None  # type: ignore[attr-defined]


def deal_sent(scene: Scene) -> None:
    """That deal sent: what was sent (the preset's roles) and the referee's answer, where the form was."""
    deal_chosen(scene)
    touch(scene.kiosk, key="send")
    scene.pump()
    assert scene.kiosk.top.sent.answer is not None  # type: ignore[attr-defined]


def unknown_tag(scene: Scene) -> None:
    """A tag nobody enrolled, tapped while no token registry is lent to the kiosk: said in the status bar."""
    feed = scene.kiosk.feed
    assert feed is not None
    feed.use_registry(None)
    feed.unknown_tag("04A1B2C3D4E5F6", "board0")
    scene.kiosk.process()
    assert scene.kiosk.notice_msgid == "kiosk.notice.unknown_tag"


EVENING = {"deal": deal_presets, "deal_chosen": deal_chosen, "deal_sent": deal_sent, "notice": long_notice,
           "unknown_tag": unknown_tag}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("moment", sorted(EVENING))
def test_the_evenings_other_screens_are_readable(moment: str, lang: str, size: str, text: TextCache) -> None:
    """What the evening test (tests/night/) reaches beyond the scenes: the role presets of a moderated
    night (listed, and the longest chosen) and a refusal in the status bar (issue 28's overlapping presets
    and notice)."""
    scene = make_scene(surface(size), text, lang, seats=example_seats(), players=SEVEN)
    try:
        EVENING[moment](scene)
        assert unknown(moment, violations(scene)) == []
    finally:
        scene.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_chosen_preset_reads_whole_on_the_form(lang: str, size: str, text: TextCache) -> None:
    """Avalon chosen for seven: the form's line for it says every role and its count, nothing left out
    for a "…" (the role list is not shown elsewhere on the form's rows), each preset's button one a row."""
    scene = make_scene(surface(size), text, lang, seats=example_seats(), players=SEVEN)
    try:
        deal_presets(scene)
        k = scene.kiosk
        presets = [b for b in k.top.buttons() if isinstance(b.key, tuple) and b.key[0] == "choice"]
        assert len(presets) == 2 and len({b.rect.top for b in presets}) == 2  # one a row
        assert all(b.rect.width > k.layout.width * 3 // 4 for b in presets)
        touch(k, key=("choice", "roles", 1))
        drawn, _ = redraw(scene)
        shown = "".join("".join(d.text.split()) for d in drawn if d.widget == "host_forms.form")  # lines joined
        avalon = ("merlin", "assassin", "loyal", "minion")
        assert all("".join(i18n.translate(lang, f"toolkit.role.{r}").split()) in shown for r in avalon), shown
        assert "…" not in shown and "×3" in shown and "×2" in shown
    finally:
        scene.close()
