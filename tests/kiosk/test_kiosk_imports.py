"""The kiosk's process stays small (issue 20, the RSS row): drawing every screen, QR codes included, loads
no networking or XML modules; and its QR codes still scan at every screen size.

The previous QR library imported `xml.sax.saxutils`, which brought `urllib.request`, `http.client` and
`ssl` (about 2.6 MiB of the kiosk's RSS, docs/perf/rss.md). The check runs in a new process, as
`companion run` starts, because this test process has loaded those modules for its own tools.
The codes are read back off the screen as a phone's camera would (zxing-cpp), for the longest join link
a table is likely to show: a long host name, a long table topic and the page's language.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pygame
import pytest
import zxingcpp

from companion.drawing.text import TextCache
from companion.kiosk.layout import COMMON_SIZES
from companion.kiosk.scenes import make_scene, show_screen
from companion.kiosk.seats import ShownSeats
from companion.phones.join import JoinLink
from tests.kits.kiosk_fixtures import surface, text, text_cache
from tests.kits.kiosk_touch import touch

__all__ = ["text", "text_cache"]
ROOT = Path(__file__).resolve().parents[2]
NOT_IN_THE_KIOSK = ("segno", "ssl", "http.client", "urllib.request", "xml.sax")

EVERY_SCREEN = """
import json, sys
from pathlib import Path
from companion import i18n
from companion.kiosk import qr
from companion.kiosk.engine import fonts, open_display
from companion.kiosk.scenes import all_screens
from companion.kiosk.screenshots import example_seats

text = fonts(Path(sys.argv[1]))
display = open_display("800x480", False, "dummy")
screens = [name for lang in i18n.LANGUAGES
           for name, _scene in all_screens(display, text, lang, seats=example_seats())]
print(json.dumps({"screens": screens, "qr_codes": qr.modules.cache_info().currsize,
                  "loaded": [name for name in json.loads(sys.argv[2]) if name in sys.modules]}))
"""


def test_a_kiosk_drawing_every_screen_loads_no_networking_or_xml_module(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    env.pop("PYTHONPATH", None)  # this checkout's companion, from the working directory
    done = subprocess.run([sys.executable, "-c", EVERY_SCREEN, str(tmp_path / "fonts"), json.dumps(NOT_IN_THE_KIOSK)],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert {"setup", "phones", "booth"} <= set(seen["screens"])
    assert seen["qr_codes"] >= 2  # the seats' codes were drawn: the QR library was loaded and used
    assert seen["loaded"] == []


def long_join_url(pid: str | None) -> str:
    """A seat's join link as long as a table's is likely to be (a 24-character password, as generated)."""
    user = "livingroom-table.g12345.host.j" if pid is None else f"livingroom-table.g12345.j.{pid}"
    return JoinLink("http://companion-livingroom-table.local:8080/", "ws://companion-livingroom-table.local:9001/mqtt",
                    "companion/v1/livingroom-table", user, "Zk3-_x9Q2mPv7Lw0aB1cD2eF", "zh").url()


def codes_on(screen: pygame.Surface) -> set[str]:
    """Every QR code a camera reads off the screen."""
    grey = pygame.surfarray.array3d(screen).mean(axis=2).astype(np.uint8).T
    return {str(found.text) for found in zxingcpp.read_barcodes(np.ascontiguousarray(grey))}


@pytest.mark.parametrize("size", COMMON_SIZES)
def test_long_join_links_scan_back_off_the_setup_and_phones_screens_at_every_size(size: str,
                                                                                 text: TextCache) -> None:
    assert len(long_join_url(None)) > 200
    expected = {"setup": {long_join_url(p) for p in ("ana", "chai", "dao")},  # Ben's phone holds his seat
                "phones": {long_join_url(None)}}  # the host's own code, in the host menu
    for screen, urls in expected.items():
        scene = make_scene(surface(size), text, "en", seats=ShownSeats(long_join_url, {"ben"}))
        try:
            show_screen(scene, screen)
            assert scene.kiosk.top.name == screen
            seen = codes_on(scene.kiosk.surface)
            assert len(seen) == 1, (size, screen)  # one code at a time, large
            if screen == "setup":  # the free seats' codes, one after another by Next
                for _ in range(len(urls) - 1):
                    touch(scene.kiosk, key="next_seat")
                    seen |= codes_on(scene.kiosk.surface)
            assert seen == urls, (size, screen)
        finally:
            scene.close()
