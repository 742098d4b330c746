"""Save screenshots of the kiosk's screens as PNG files (SDL's dummy driver: no window needed).

    python -m companion.kiosk.screenshots docs/screenshots [--size 800x480] [--lang zh] [--screen play]

Each file is `<screen>-<lang>-<size>.png`.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from companion import i18n
from companion.kiosk.layout import COMMON_SIZES
from companion.kiosk.scenes import SCREENS, all_screens
from companion.kiosk.seats import ShownSeats


def example_seats() -> ShownSeats:
    """Seats as at a table where Ben's phone has joined and the others' have not."""
    def url(pid: str | None) -> str:
        user = "table1.g1.host.j" if pid is None else f"table1.g1.j.{pid}"
        return f"http://192.168.1.20:8080/#v=1&ws=ws%3A%2F%2F192.168.1.20%3A9001%2Fmqtt&t=companion%2Fv1%2Ftable1&u={user}&p=Zk3-_x9Q2mPv7Lw0aB1cD2eF"

    return ShownSeats(url, {"ben"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", action="append", choices=COMMON_SIZES)
    parser.add_argument("--lang", action="append", choices=i18n.LANGUAGES)
    parser.add_argument("--screen", action="append", choices=SCREENS)
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    from companion.kiosk.engine import fonts, open_display
    args.out.mkdir(parents=True, exist_ok=True)
    text = fonts()
    for size in args.size or ["800x480"]:
        surface = open_display(size, False)
        for lang in args.lang or list(i18n.LANGUAGES):
            for name, scene in all_screens(surface, text, lang, seats=example_seats()):
                if args.screen and name not in args.screen:
                    continue
                path = args.out / f"{name}-{lang}-{size}.png"
                pygame.image.save(scene.kiosk.surface, str(path))
                print(path)
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
