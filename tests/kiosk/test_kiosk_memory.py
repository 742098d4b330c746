"""The kiosk's memory on a Pi Zero 2 W budget (issue 20): a change of language lets the old language's
faces go (the Chinese face is the largest), and freed memory is handed back to the system."""

from __future__ import annotations

from companion import i18n
from companion.drawing.text import TextCache
from companion.kiosk import memory
from companion.kiosk.scenes import make_scene, show_screen
from tests.kits.kiosk_fixtures import surface, text, text_cache

__all__ = ["text", "text_cache"]


def open_faces(text: TextCache) -> set[str]:
    return {text.chain[face].name for face, _bold in text._fonts}


def test_the_host_switching_chinese_to_thai_closes_the_chinese_face(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "zh")
    try:
        show_screen(scene, "menu")
        k = scene.kiosk
        assert "sc" in open_faces(text)  # the menu in Chinese
        language = next(b for b in k.top.buttons() if b.key == "l")
        text.record = []
        k.top.tap(language.rect.center)  # the host's touch on "language": Chinese -> Thai
        k.process()
        assert k.lang == "th"
        drawn = [d.text for d in text.record]
        assert i18n.translate("th", "kiosk.menu.title") in drawn  # the menu is drawn again, in Thai
        assert "sc" not in open_faces(text), open_faces(text)  # nothing on it is Chinese: the face is closed
        assert {"thai", "latin"} <= open_faces(text)
    finally:
        scene.close()


def test_a_chinese_word_after_the_switch_opens_the_face_again(text: TextCache) -> None:
    """A Chinese player's name on a Thai screen still draws: the face opens again when needed."""
    text.forget_faces()
    assert not open_faces(text)
    text.render("ชัย 道", 20, (255, 255, 255))
    assert {"thai", "sc"} <= open_faces(text)
    assert not text.missing


def test_freed_memory_is_handed_back_on_glibc() -> None:
    assert memory.give_back()  # Debian and Raspberry Pi OS: glibc's malloc_trim
