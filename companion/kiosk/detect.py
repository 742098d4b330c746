"""Whether `companion run` opens the kiosk screen, and with which SDL driver (no pygame import here:
the console path never loads SDL).

Three outcomes: the kiosk (an SDL driver), the console (no screen wanted, none there: a terminal), or
headless (a screen was asked for, by the config or SDL_VIDEODRIVER as companion.service does, and none
is connected: a Pi with no screen). Headless runs the table, readers, buttons and phones as with a
screen, says why in the journal and tells the phones; it does not fail and crash-loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.config import Config

DRM_SYSFS = Path("/sys/class/drm")


@dataclass(frozen=True)
class ScreenChoice:
    driver: str | None  # the SDL video driver to open the kiosk with ("" for SDL's choice); None: no kiosk
    headless: str = ""  # a screen was wanted and is not there: why (the table then runs headless)


def drm_connected(sysfs: Path = DRM_SYSFS) -> bool:
    """A display output the kernel sees as connected (`card1-HDMI-A-1/status` is "connected").

    Outputs that cannot tell ("unknown": composite, writeback) do not count: a Pi with nothing plugged
    in has those too."""
    try:
        outputs = list(sysfs.glob("card*-*/status"))
    except OSError:
        return False
    for status in outputs:
        try:
            if status.read_text(encoding="ascii", errors="replace").strip() == "connected":
                return True
        except OSError:
            continue
    return False


def screen_choice(cfg: Config, env: Mapping[str, str], machine_mode: bool, drm: bool | None = None) -> ScreenChoice:
    """The kiosk's SDL driver, the console, or headless (see the module's doc).

    `enabled = "auto"` opens a screen when there is one (an X11/Wayland session, SDL_VIDEODRIVER set,
    or a connected DRM output for kmsdrm on a Pi console; `drm` overrides looking in /sys/class/drm)
    and `companion run` is not in --jsonl machine mode. `enabled = true` insists: no headless fallback.
    """
    enabled = cfg.display.enabled
    if enabled is False:
        return ScreenChoice(None)
    driver = cfg.display.driver or env.get("SDL_VIDEODRIVER", "")
    if enabled is True:
        return ScreenChoice(driver)
    if machine_mode:
        return ScreenChoice(None)
    connected = drm if drm is not None else drm_connected()
    if driver == "kmsdrm" and not connected:
        return ScreenChoice(None, headless=f"kmsdrm: no screen connected ({DRM_SYSFS} shows no connected output)")
    if driver or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return ScreenChoice(driver)
    if connected:
        return ScreenChoice("kmsdrm")
    return ScreenChoice(None)


def display_driver(cfg: Config, env: Mapping[str, str], machine_mode: bool, drm: bool | None = None) -> str | None:
    """The SDL video driver to open the kiosk with ("" for SDL's choice), or None for no kiosk."""
    return screen_choice(cfg, env, machine_mode, drm).driver
