"""The host lock and the players' booth PINs (issue 28; docs/kiosk.md, "The host lock").

The kiosk's host menu (End, Undo, New game, Phones and seats with the host's own QR code) opens only
after the host's PIN, typed on the PIN pad. The PIN comes from the config (`[kiosk] host_pin`), or the
host chooses it on the kiosk the first time the menu opens (or sets it on the host's phone page:
companion/phones/host_pin.py) and it is kept in the private state directory as a salted hash
(`PIN_FILE`, 0600); "off" is no lock, for a family table. A player seated without a
phone or a figure opens their booth with a PIN of their own, chosen with the host's leave (or freely at a
table with no lock); those live in the kiosk's memory only, for the evening.

Wrong PINs: after `TRIES` wrong ones in a row the pad waits `WAIT_MS` before it takes another, so a
four-digit PIN cannot be tried through in an evening. The time is the kiosk's input clock.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from companion.statedir import create_private_file

logger = logging.getLogger(__name__)
PIN_MIN, PIN_MAX = 4, 8
TRIES = 5
WAIT_MS = 30_000
PIN_FILE = "kiosk-host-pin.json"
ROUNDS = 20_000  # PBKDF2 rounds: ~10 ms on a Pi 4, once per PIN typed


def valid(pin: str) -> bool:
    return pin.isascii() and pin.isdigit() and PIN_MIN <= len(pin) <= PIN_MAX


@dataclass(frozen=True)
class Pin:
    """A PIN as kept: a salt and the PBKDF2 digest, never the digits."""

    salt: str
    digest: str

    @classmethod
    def of(cls, pin: str) -> Pin:
        salt = secrets.token_hex(16)
        return cls(salt, _digest(pin, salt))

    def matches(self, pin: str) -> bool:
        return hmac.compare_digest(self.digest, _digest(pin, self.salt))


def _digest(pin: str, salt: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), ROUNDS).hex()


@dataclass
class Tries:
    """Wrong PINs in a row, and until when the pad refuses to check another."""

    wrong: int = 0
    wait_until: int = 0

    def waiting_ms(self, now: int) -> int:
        return max(0, self.wait_until - now)

    def check(self, pin: Pin, typed: str, now: int) -> bool:
        """Whether `typed` is the PIN (False while waiting, without checking)."""
        if self.waiting_ms(now):
            return False
        if pin.matches(typed):
            self.wrong = 0
            return True
        self.wrong += 1
        if self.wrong >= TRIES:
            self.wrong, self.wait_until = 0, now + WAIT_MS
        return False


@dataclass
class HostLock:
    """`mode`: "pin" (the menu asks for `pin`), "off" (no lock) or "unset" (the host chooses on the kiosk)."""

    mode: Literal["pin", "off", "unset"] = "off"
    pin: Pin | None = None
    path: Path | None = None  # where a choice made on the kiosk is kept
    tries: Tries = field(default_factory=Tries)
    booth_pins: dict[str, tuple[str, Pin]] = field(default_factory=dict)  # by player id: (their name, PIN)
    booth_tries: dict[str, Tries] = field(default_factory=dict)

    @classmethod
    def load(cls, setting: str, state_dir: Path | None) -> HostLock:
        """The lock `[kiosk] host_pin` asks for; with "", the one chosen earlier on the kiosk, if any."""
        path = state_dir / PIN_FILE if state_dir is not None else None
        if setting == "off":
            return cls("off", path=path)
        if setting:
            return cls("pin", Pin.of(setting), path=path)
        kept = _read(path) if path is not None else None
        if kept == "off":
            return cls("off", path=path)
        if isinstance(kept, Pin):
            return cls("pin", kept, path=path)
        return cls("unset", path=path)

    @property
    def locked(self) -> bool:
        return self.mode != "off"

    def choose(self, pin: str | None) -> None:
        """The host's choice on the kiosk: a PIN, or None for no lock; kept for the next start."""
        self.mode, self.pin = ("pin", Pin.of(pin)) if pin is not None else ("off", None)
        if self.path is not None:
            _write(self.path, self.pin)

    def use(self, pin: Pin) -> None:
        """A PIN the host set on their phone's page (already hashed there): the lock from now on, kept
        for the next start as a PIN chosen on the kiosk is (docs/phones.md, "The kiosk's host PIN")."""
        self.mode, self.pin, self.tries = "pin", pin, Tries()
        if self.path is not None:
            _write(self.path, pin)

    def booth_pin(self, player: str) -> Pin | None:
        kept = self.booth_pins.get(player)
        return None if kept is None else kept[1]

    def set_booth_pin(self, player: str, name: str, pin: str) -> None:
        self.booth_pins[player] = (name, Pin.of(pin))
        self.booth_tries.pop(player, None)

    def seated(self, players: dict[str, str]) -> None:
        """A new game's players (id: name): a booth PIN stays only with the same person in the same seat
        id; a seat id given to someone else (a typed newcomer gets the next free "p1") starts with none."""
        self.booth_pins = {pid: kept for pid, kept in self.booth_pins.items() if players.get(pid) == kept[0]}
        self.booth_tries = {pid: t for pid, t in self.booth_tries.items() if pid in self.booth_pins}

    def booth_tries_of(self, player: str) -> Tries:
        return self.booth_tries.setdefault(player, Tries())


def _read(path: Path) -> Pin | Literal["off"] | None:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:  # unreadable: the host chooses again (the menu stays locked meanwhile)
        logger.warning("kiosk: the host PIN file %s is unreadable (%s): choose the PIN again", path, type(err).__name__)
        return None
    if raw == {"off": True}:
        return "off"
    if isinstance(raw, dict) and isinstance(raw.get("salt"), str) and isinstance(raw.get("digest"), str):
        try:
            bytes.fromhex(raw["salt"])
        except ValueError:
            return None
        return Pin(raw["salt"], raw["digest"])
    return None


def _write(path: Path, pin: Pin | None) -> None:
    body = json.dumps({"off": True} if pin is None else {"salt": pin.salt, "digest": pin.digest})
    try:
        create_private_file(path)
        tmp = path.with_suffix(".tmp")
        tmp.unlink(missing_ok=True)
        create_private_file(tmp)
        tmp.write_text(body, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as err:  # the choice holds for tonight; the next start asks again
        logger.warning("kiosk: could not keep the host PIN in %s (%s)", path, type(err).__name__)
