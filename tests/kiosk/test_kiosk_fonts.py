"""Fonts: mixed Chinese, Thai and English lines split into runs by glyph coverage, the Simplified
Chinese face picked out of the Noto CJK collection, Thai tone marks drawn whole, and every kiosk
message id translated."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
from fontTools.ttLib import TTFont

from companion import i18n
from companion.drawing.fonts import NOTO, split_runs
from companion.drawing.text import TextCache
from tests.kits.kiosk_fixtures import text, text_cache

__all__ = ["text", "text_cache"]
KIOSK = Path(i18n.__file__).parent / "kiosk"
TONE_MARKS = "ผู้เล่นที่ปิ่นโต ญี่ปุ่น กี่ปี่"


def faces(text: TextCache, line: str) -> list[tuple[str, str]]:
    return [(text.chain[r.face].name, r.text) for r in split_runs(line, text.chain)]


def test_a_mixed_line_is_split_by_coverage(text: TextCache) -> None:
    assert faces(text, "Ana 投票，ผู้เล่น 3") == [
        ("latin", "Ana "), ("sc", "投票，"), ("thai", "ผู้เล่น "), ("latin", "3")]


def test_thai_marks_stay_with_their_base_and_chinese_punctuation_with_chinese(text: TextCache) -> None:
    assert faces(text, "ปี่") == [("thai", "ปี่")]
    assert faces(text, "结束。") == [("sc", "结束。")]


def test_a_character_no_font_has_is_reported(text: TextCache) -> None:
    text.render("a\ue000b", 20, (255, 255, 255))
    assert text.missing == {"\ue000"}


def test_the_chinese_face_is_the_simplified_one(text: TextCache) -> None:
    sc = next(f for f in text.chain if f.name == "sc")
    font = TTFont(str(sc.regular), lazy=True)
    assert font["name"].getDebugName(4) == "Noto Sans CJK SC"
    font.close()


def top_ink(surface: pygame.Surface) -> int:
    return surface.get_bounding_rect().top


def test_thai_tone_marks_are_not_clipped(text: TextCache) -> None:
    """The check the screenshot tests use catches Noto Sans Thai's clipped marks; the chain's Thai passes."""
    noto_thai = pygame.font.Font(str(NOTO / "NotoSansThai-Regular.ttf"), 40)
    assert top_ink(noto_thai.render(TONE_MARKS, True, (255, 255, 255))) == 0
    assert top_ink(text.render(TONE_MARKS, 40, (255, 255, 255))) > 0


def kiosk_ids_used() -> set[str]:
    found = set()
    for path in KIOSK.rglob("*.py"):
        found |= set(re.findall(r'"(kiosk\.[a-z_]+(?:\.[a-z_]+)+)"', path.read_text(encoding="utf-8")))
    found |= {f"kiosk.language.{lang}" for lang in i18n.LANGUAGES}
    found |= {f"kiosk.device.{kind}" for kind in ("reader", "broker", "phones", "buttons")}
    found |= {f"kiosk.toolkit.timer_{state}" for state in ("running", "paused", "expired")}
    return found


def test_every_kiosk_message_is_translated_in_every_language() -> None:
    used = kiosk_ids_used()
    assert len(used) > 50
    for lang in i18n.LANGUAGES:
        assert used <= i18n.msgids(lang), (lang, sorted(used - i18n.msgids(lang)))
    script = {"zh": re.compile(r"[\u4e00-\u9fff]"), "th": re.compile(r"[\u0e01-\u0e5b]")}
    # words that are the same in every language: a count, a seat's number and name, an option and its
    # value, the keyboard's layout keys (each layout named in its own script), a player and their role
    neutral = ("kiosk.notice.token_refused", "kiosk.toolkit.counter_values", "kiosk.enroll.token",
               "kiosk.keyboard.count", "kiosk.keyboard.latin", "kiosk.keyboard.thai", "kiosk.options.value",
               "kiosk.seating.seated_as", "kiosk.moderator.role")
    for lang, pattern in script.items():
        words = [i18n.translate(lang, m) for m in used if not m.startswith(("kiosk.language.", "kiosk.play.timer"))
                 and m not in neutral]
        assert all(pattern.search(w) for w in words), [w for w in words if not pattern.search(w)]
