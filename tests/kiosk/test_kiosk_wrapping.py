"""Wrapped lines on the kiosk (issue 21): a line never begins with a Thai mark or a closing
punctuation sign, Thai breaks between words where ICU is installed, and nothing is lost or added."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.drawing import breaks
from companion.drawing.text import TextCache
from companion.kiosk.scenes import make_scene, show_screen
from companion.kiosk.screenshots import example_seats
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache

__all__ = ["shots_dir", "text", "text_cache"]

THAI_WORDS = ["โทรศัพท์", "ของคุณ", "พร้อม", "แล้ว", "ให้", "สแกน", "รหัส", "ผู้เล่น", "ที่นั่ง", "เกม", "น้ำ",
              "กำลัง", "ไม้", "ปิ่น", "ๆ", "ครั้ง", "เริ่ม", "ฉุกเฉิน"]
CHINESE = ["你好", "，", "。", "世界", "（", "游戏", "）", "玩家", "座位", "：", "开始", "！"]
ENGLISH = ["Ana", "phone", "seat", "ready,", "the", "Lockdown", "B107", "—", "is", "(host)"]
ATOMS = st.sampled_from(THAI_WORDS + CHINESE + ENGLISH + [" ", " "])
TEXTS = st.lists(ATOMS, min_size=1, max_size=30).map("".join)


@pytest.fixture(params=[True, False], ids=["icu", "own-rules"])
def wrapper(text_cache: TextCache, request: pytest.FixtureRequest) -> Iterator[TextCache]:
    text_cache.dictionary = request.param
    yield text_cache
    text_cache.dictionary = True


def squashed(s: str) -> str:
    return "".join(s.split())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=TEXTS, width=st.integers(20, 400), size=st.sampled_from([14, 18, 24]))
@example(line="（ โทรศัพท์", width=20, size=14)  # an opening sign, then a space: it kept a line's end
def test_no_line_starts_with_a_mark_and_the_lines_are_the_text(wrapper: TextCache, line: str, width: int,
                                                               size: int) -> None:
    lines = wrapper.wrap(line, size, width)
    assert squashed("".join(lines)) == squashed(line)
    assert all(lines), lines
    for part in lines[1:]:  # where the wrap broke (the text itself may begin with anything)
        assert not breaks.attaches(part[0]), (part, lines)
        assert part[0] not in "，。、：；！？）", (part, lines)
    for part in lines[:-1]:
        assert part[-1] not in "（", (part, lines)


@given(line=TEXTS)
def test_break_pieces_never_split_a_cluster(line: str) -> None:
    for dictionary in (True, False):
        parts = breaks.pieces(line, dictionary)
        assert "".join(parts) == line
        assert all(not breaks.attaches(p[0]) for p in parts[1:]), parts


def test_the_word_from_the_evening_stays_whole(text_cache: TextCache) -> None:
    """The setup screen's side panel showed "โทรศัพ|ท์": the phone's word breaks nowhere inside."""
    sentence = "สแกนรหัสด้วยโทรศัพท์ของคุณเพื่อนั่งที่โต๊ะ"
    width = text_cache._width("สแกนรหัสด้วยโทรศัพ", 20, False)  # the evening's break fell inside the word
    lines = text_cache.wrap(sentence, 20, width)
    assert len(lines) > 1
    assert any("โทรศัพท์" in part for part in lines), lines
    assert all(not part.startswith("ท์") for part in lines)


def test_thai_breaks_between_words_with_icu() -> None:
    # the project's install (tests/run.sh, run-here.sh, install.sh: icu-devtools) brings libicuuc
    assert breaks._icu() is not None, "no libicuuc: install Debian's icu-devtools (tests/run.sh does)"
    assert breaks.pieces("โทรศัพท์ของคุณพร้อมแล้ว") == ["โทรศัพท์", "ของ", "คุณ", "พร้อม", "แล้ว"]


def test_chinese_keeps_its_punctuation_with_the_character_before() -> None:
    for dictionary in (True, False):
        assert breaks.pieces("你好，世界。（游戏）", dictionary) == ["你", "好，", "世", "界。", "（游", "戏）"]


def test_a_thai_run_wider_than_the_line_is_cut_between_clusters(text_cache: TextCache) -> None:
    text_cache.dictionary = False
    try:
        word = "ผู้เล่นที่นั่งน้ำกำลังเริ่ม"
        lines = text_cache.wrap(word, 20, text_cache._width("ผู้เล่น", 20, False))
    finally:
        text_cache.dictionary = True
    assert len(lines) > 2 and "".join(lines) == word
    assert all(not breaks.attaches(part[0]) for part in lines), lines


@pytest.mark.parametrize("lang", ["th", "zh"])
def test_the_setup_screen_breaks_words_whole(lang: str, text: TextCache, shots_dir: Path) -> None:
    """The setup screen at 800x480 (where "โทรศัพ|ท์" was seen): no drawn line begins with a mark or
    a closing sign, and with ICU every Thai line ends where a word does."""
    scene = make_scene(surface("800x480"), text, lang, seats=example_seats())
    try:
        show_screen(scene, "setup")
        pygame.image.save(scene.kiosk.surface, str(shots_dir / f"setup-wrapped-{lang}-800x480.png"))
        drawn = [d.text for d in text.record or [] if d.text.strip()]
    finally:
        scene.close()
    assert drawn
    for line in drawn:
        assert not breaks.attaches(line[0]) and line[0] not in "，。、：；！？）", line
    if breaks._icu() is not None:
        assert not [line for line in drawn if "โทรศัพ" in line and "โทรศัพท์" not in line]


def test_a_lone_surrogate_in_a_name_breaks_like_any_character() -> None:
    """JSON lets a name carry an unpaired surrogate ("\\ud800"): ICU's breaker takes it as it is, the
    pieces join back to the name, and nothing raises (a name that raised would never be drawn)."""
    name = "Ana\ud800 ของคุณ"
    assert breaks._icu() is not None
    assert "".join(breaks.pieces(name)) == name
