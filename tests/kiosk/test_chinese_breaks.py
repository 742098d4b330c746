"""Chinese lines broken without ICU (issue 20: ICU's line breaker and its data cost the kiosk's process
about 2.3 MiB, so only a text with Thai in it asks ICU): any two ideographs may part, never before a
closing sign nor after an opening one (the kinsoku table in companion/drawing/breaks.py), and a Latin
word inside a Chinese line stays whole."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.drawing import breaks
from companion.drawing.text import TextCache
from tests.kits.kiosk_fixtures import text_cache

__all__ = ["text_cache"]
ROOT = Path(__file__).resolve().parents[2]
HANZI = ["你好", "世界", "游戏", "玩家", "座位", "开始", "投票", "放逐", "道", "结束", "计时器", "剩余"]
CLOSING = ["，", "。", "、", "：", "；", "！", "？", "）", "」", "》", "……", "”", "·"]
OPENING = ["（", "「", "《", "“"]
LATIN = ["Ana ", "Lockdown ", "B107 ", "Ben's ", "ready ", "(host) "]
TEXTS = st.lists(st.sampled_from(HANZI * 3 + CLOSING + OPENING + LATIN), min_size=1, max_size=40).map("".join)


def squashed(s: str) -> str:
    return "".join(s.split())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=TEXTS, width=st.integers(30, 420), size=st.sampled_from([14, 18, 24]))
def test_no_line_starts_with_a_closing_sign_and_latin_words_stay_whole(text_cache: TextCache, line: str,
                                                                        width: int, size: int) -> None:
    lines = text_cache.wrap(line, size, width)
    assert squashed("".join(lines)) == squashed(line)
    for part in lines[1:]:  # where the wrap broke (the text itself may begin with anything)
        assert part[0] not in breaks.CLOSING, (part, lines)
    for part in lines[:-1]:
        assert part[-1] not in breaks.OPENING, (part, lines)
    pieces = breaks.pieces(line)
    cuts = {sum(map(len, pieces[:i])) for i in range(1, len(pieces))}
    for word in re.finditer(r"[A-Za-z0-9'()]+", line):  # no break opportunity inside a Latin word
        assert not cuts & set(range(word.start() + 1, word.end())), (word.group(), pieces)
    for piece in pieces:  # and a word (with the signs that cling to it) that fits a line is on one whole
        if text_cache._width(piece.rstrip(), size, False) <= width:
            assert any(piece.strip() in part for part in lines), (piece, lines)


@given(line=TEXTS)
def test_chinese_breaks_the_same_with_or_without_icu(line: str) -> None:
    assert not breaks.needs_dictionary(line)
    assert breaks.pieces(line) == breaks.pieces(line, dictionary=False)


def test_the_full_stop_goes_down_with_the_character_before_it(text_cache: TextCache) -> None:
    """A person reading the kiosk: "你好世界。" one character too wide for its box breaks before "界",
    not between "界" and "。"."""
    width = text_cache._width("你好世界", 24, False)
    lines = text_cache.wrap("你好世界。再见，朋友们", 24, width)
    assert lines[0] == "你好世"
    assert lines[1].startswith("界。")
    assert not any(part.startswith(("。", "，")) for part in lines), lines


def test_a_latin_name_in_a_chinese_line_is_never_cut(text_cache: TextCache) -> None:
    width = text_cache._width("轮到Lockdown", 20, False)
    lines = text_cache.wrap("现在轮到Lockdown的玩家Ana投票", 20, width)
    assert "Lockdown" in "".join(part for part in lines if "Lockdown" in part), lines
    assert any("Ana" in part for part in lines), lines


def test_a_chinese_table_never_loads_icu(text_cache: TextCache) -> None:
    """A kiosk in Chinese, its setup and play screens drawn (a Thai player's name among them): ICU's
    breaker is never opened in that process (a new one: ICU, once loaded, stays)."""
    cache = text_cache.chain[0].cache_dir
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from companion.drawing import breaks\n"
        "from companion.kiosk.engine import fonts, open_display\n"
        "from companion.kiosk.scenes import make_scene, show_screen\n"
        "from companion.kiosk.screenshots import example_seats\n"
        "surface = open_display('800x480', False, 'dummy')\n"
        "text = fonts(Path(sys.argv[1]))\n"
        "text.record = []\n"
        "for name in ('setup', 'play'):\n"
        "    scene = make_scene(surface, text, 'zh', seats=example_seats())\n"
        "    show_screen(scene, name)\n"
        "    scene.close()\n"
        "print(json.dumps({'icu': breaks._icu.cache_info().currsize,\n"
        "                  'thai': sorted({d.text for d in text.record if breaks.needs_dictionary(d.text)})}))\n"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    out = subprocess.run([sys.executable, "-c", code, str(cache)], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["thai"], "the scene's players include ชัย: a Thai name is on the screen"
    assert seen["icu"] == 0
