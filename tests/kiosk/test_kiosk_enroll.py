"""The kiosk's enrollment screens on their own (a scene: a real toolkit table, SDL's dummy driver, an
in-memory registry lent to the feed as the readers' starter does): the prompt, paging, touch, the
timeout, a second tag, enroll mode, and a registry that went away."""

from __future__ import annotations

from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.scenes import NEW_TAG, Scene, make_scene
from companion.kiosk.screens.enroll import PAGE, EnrollScreen
from companion.kiosk.screens.play import PlayScreen
from companion.taps.registry import Token
from tests.kiosk.test_kiosk_tokens import SecretVoteToolkit
from tests.kits.kiosk_fixtures import surface, text, text_cache

__all__ = ["text", "text_cache"]


def scene(text: TextCache, lang: str = "en") -> Scene:
    s = make_scene(surface("800x480"), text, lang, games={**registry(), "toolkit": SecretVoteToolkit()})
    s.kiosk.settings.attract = False
    s.kiosk.stack[:] = [PlayScreen(s.kiosk)]
    s.kiosk.process()
    return s


def press(s: Scene, *actions: str) -> None:
    for action in actions:
        s.kiosk.press(action)
    s.kiosk.process()


def test_not_now_leaves_the_tag_unknown(text: TextCache) -> None:
    s = scene(text)
    s.tap_unknown()
    assert s.kiosk.top.name == "enroll"
    press(s, "next", "select")  # "not now"
    assert isinstance(s.kiosk.top, PlayScreen)
    assert s.tokens.lookup(NEW_TAG) is None
    s.close()


def test_the_prompt_hides_itself_when_left_alone(text: TextCache) -> None:
    s = scene(text)
    s.tap_unknown()
    s.clock.now += int(s.kiosk.settings.booth_timeout_s * 1000) - 1
    s.kiosk.process()
    assert s.kiosk.top.name == "enroll"
    s.clock.now += 1
    s.kiosk.process()
    assert isinstance(s.kiosk.top, PlayScreen)
    s.close()


def test_a_touch_on_a_choice_saves_it_and_says_so(text: TextCache) -> None:
    s = scene(text, "zh")
    s.tap_unknown()
    start = next(b for b in s.kiosk.top.buttons() if b.key == "start")
    s.kiosk.top.tap(start.rect.center)
    s.kiosk.process()
    dao = next(b for b in s.kiosk.top.buttons() if b.label == "道的棋子")
    s.kiosk.top.tap(dao.rect.center)
    s.kiosk.process()
    assert s.tokens.lookup(NEW_TAG) == Token(NEW_TAG, "toolkit", "player", "dao", "道")
    assert isinstance(s.kiosk.top, PlayScreen)
    assert s.kiosk.notice is not None and s.kiosk.notice[0] == "已保存：道的棋子"
    s.close()


def test_more_pages_through_every_choice(text: TextCache) -> None:
    s = scene(text)
    for name in ("day", "night", "dawn"):
        s.play({"by": "host", "move": "timer.create", "args": {"name": name, "seconds": 60}})
    s.tap_unknown()
    press(s, "select")
    screen = s.kiosk.top
    assert isinstance(screen, EnrollScreen) and s.kiosk.top.name == "enroll_choose"
    total = len(screen.choices())
    assert total == 4 + 4 + 3 + 2 > PAGE  # figures, dice, timers, votes: two pages
    seen: list[str] = []
    for page in (1, 2):
        assert screen._title_and_lines()[0] == f"Whose figure is it, or what is it? (page {page} of 2)"
        seen += [b.label for b in screen.buttons() if isinstance(b.key, tuple)]
        screen.tap(next(b for b in screen.buttons() if b.key == "more").rect.center)
    assert len(seen) == len(set(seen)) == total and "Timer: night" in seen
    assert screen.page == 0  # "more" on the last page goes back to the first
    s.close()


def test_a_second_unknown_tag_is_the_one_asked_about(text: TextCache) -> None:
    s = scene(text)
    s.tap_unknown("04A1B2C3D4E5F6")
    s.tap_unknown("DEADBEEF")
    assert [type(x) for x in s.kiosk.stack].count(EnrollScreen) == 1
    press(s, "select", "select")  # enroll it, as the first choice: Ana's figure
    assert s.tokens.lookup("DEADBEEF") == Token("DEADBEEF", "toolkit", "player", "ana", "Ana")
    assert s.tokens.lookup("04A1B2C3D4E5F6") is None
    s.close()


def test_enroll_mode_waits_for_tag_after_tag_and_skips_one(text: TextCache) -> None:
    s = scene(text, "th")
    s.kiosk.open_menu()
    s.kiosk.process()
    enroll = next(b for b in s.kiosk.top.buttons() if b.key == "t")
    s.kiosk.top.tap(enroll.rect.center)
    s.kiosk.process()
    assert s.kiosk.top.name == "enroll_mode"
    s.tap_unknown("11111111")
    assert s.kiosk.top.name == "enroll_choose"  # in the mode a tag goes straight to the choice
    press(s, "back")  # skip it
    assert s.kiosk.top.name == "enroll_mode" and s.tokens.lookup("11111111") is None
    s.tap_unknown("22222222")
    press(s, "next", "next", "next", "next", "select")  # Dice: d6
    assert s.tokens.lookup("22222222") == Token("22222222", "toolkit", "dice", "d6", "d6")
    screen = s.kiosk.top
    assert isinstance(screen, EnrollScreen) and "บันทึกแล้ว: ลูกเต๋า: d6" in screen._title_and_lines()[1]
    press(s, "select")  # done
    assert isinstance(s.kiosk.top, PlayScreen)
    s.close()


def test_without_the_registry_nothing_is_saved_and_the_host_is_told(text: TextCache) -> None:
    s = scene(text)
    s.tap_unknown()
    press(s, "select")
    assert s.kiosk.feed is not None
    s.kiosk.feed.use_registry(None)  # the readers stopped meanwhile
    press(s, "select")
    assert s.kiosk.top.name == "enroll_choose"
    assert s.kiosk.notice is not None and s.kiosk.notice[0] == "Could not save Ana's figure"
    assert s.tokens.lookup(NEW_TAG) is None
    s.close()


def test_the_host_menu_offers_enroll_mode_only_with_a_registry(text: TextCache) -> None:
    s = scene(text)
    assert s.kiosk.feed is not None
    s.kiosk.feed.use_registry(None)
    s.kiosk.open_menu()
    s.kiosk.process()
    assert all(b.key != "t" for b in s.kiosk.top.buttons())
    s.close()


def test_a_game_whose_token_list_fails_still_offers_the_figures(text: TextCache, caplog) -> None:  # type: ignore[no-untyped-def]
    class Broken(SecretVoteToolkit):
        def tokens(self, state: dict[str, object]) -> dict[str, list[str]]:
            raise KeyError("timers")

    s = make_scene(surface("800x480"), text, "en", games={**registry(), "toolkit": Broken()})
    s.tap_unknown()
    press(s, "select")
    screen = s.kiosk.top
    assert isinstance(screen, EnrollScreen)
    assert [c.kind for c in screen.choices()] == ["player"] * 4
    assert "tokens() failed" in caplog.text
    s.close()
