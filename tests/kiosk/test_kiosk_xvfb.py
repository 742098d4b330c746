"""The kiosk in a real X11 window: Xvfb on a free display (it writes its number when ready), a child
process opens the window with SDL's x11 driver and draws the play screen, and what the X server's
framebuffer holds (Xvfb -fbdir, an XWD file) is compared with what the kiosk drew."""

from __future__ import annotations

import os
import select
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

GUARD_S = 60  # only a guard against a hang; no timing is asserted
CHILD = """
import sys
import pygame
from companion.kiosk.engine import fonts, open_display
from companion.kiosk.scenes import make_scene, show_screen
surface = open_display("800x480", False, "x11")
scene = make_scene(surface, fonts(), "zh")
show_screen(scene, "play")
scene.kiosk._drawn = None
scene.kiosk.render()
pygame.image.save(surface, sys.argv[1])
print(pygame.display.get_driver(), flush=True)
sys.stdin.read()
"""


def read_line(fd: int) -> str:
    data = b""
    while not data.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], GUARD_S)
        assert ready, "Xvfb did not say which display it took"
        chunk = os.read(fd, 64)
        assert chunk, "Xvfb exited"
        data += chunk
    return data.decode().strip()


@pytest.fixture
def xvfb(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    fbdir = tmp_path / "fb"
    fbdir.mkdir()
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "800x480x24", "-fbdir", str(fbdir),
                             "-nolisten", "tcp"], pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    try:
        yield f":{read_line(r)}", fbdir / "Xvfb_screen0"
    finally:
        os.close(r)
        proc.terminate()
        proc.wait(GUARD_S)


def xwd_pixels(path: Path) -> tuple[int, int, bytes]:
    """Width, height and RGB bytes of Xvfb's framebuffer file (XWD, 24-bit depth in 32-bit pixels)."""
    data = path.read_bytes()
    header = struct.unpack(">25I", data[:100])
    header_size, width, height, byte_order, bpp, line, ncolors = (header[0], header[4], header[5], header[7],
                                                                  header[11], header[12], header[19])
    assert bpp == 32 and byte_order == 0, header
    start = header_size + 12 * ncolors
    rgb = bytearray()
    for y in range(height):
        row = data[start + y * line: start + y * line + width * 4]
        for x in range(width):
            b, g, r, _ = row[4 * x: 4 * x + 4]
            rgb += bytes((r, g, b))
    return width, height, bytes(rgb)


def test_the_play_screen_in_a_real_x11_window(xvfb: tuple[str, Path], tmp_path: Path) -> None:
    display, framebuffer = xvfb
    png = tmp_path / "window.png"
    env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy",
           "SDL_VIDEO_WINDOW_POS": "0,0", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(png)], env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "x11"
        width, height, shown = xwd_pixels(framebuffer)
        drawn = pygame.image.tobytes(pygame.image.load(str(png)), "RGB")
        assert (width, height) == (800, 480)
        assert shown == drawn, "the X server shows something else than the kiosk drew"
    finally:
        child.communicate("", timeout=GUARD_S)
    assert child.returncode == 0
