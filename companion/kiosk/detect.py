"""Whether `companion run` opens the kiosk screen, and with which SDL driver (no pygame import here:
the console path never loads SDL)."""

from __future__ import annotations

import glob
from collections.abc import Mapping

from companion.config import Config


def display_driver(cfg: Config, env: Mapping[str, str], machine_mode: bool, drm: bool | None = None) -> str | None:
    """The SDL video driver to open the kiosk with ("" for SDL's choice), or None for console only.

    `enabled = "auto"` opens a screen when there is one (an X11/Wayland session, SDL_VIDEODRIVER set,
    or a DRM device for kmsdrm on a Pi console; `drm` overrides looking for /dev/dri/card*) and
    `companion run` is not in --jsonl machine mode.
    """
    enabled = cfg.display.enabled
    if enabled is False:
        return None
    driver = cfg.display.driver or env.get("SDL_VIDEODRIVER", "")
    if enabled is True:
        return driver
    if machine_mode:
        return None
    if driver or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return driver
    if drm if drm is not None else bool(glob.glob("/dev/dri/card*")):
        return "kmsdrm"
    return None
