"""InListPassiveTarget at 106 kbps type A (ISO/IEC 14443A): the reply's layout, parsed strictly.

Reply data (UM0701-02 section 7.3.5): ``4B NbTg`` then, per target, ``Tg SENS_RES(2) SEL_RES
NFCIDLength NFCID1...`` and, for an ISO 14443-4 card (SEL_RES bit 0x20), ``ATS``. We always ask for
one target (MaxTg = 1), so a reply is either ``4B 00`` (no tag) or exactly one target. Anything else
(a count above one, a target number other than 1, a UID length other than 4, 7 or 10, bytes left over)
is refused: a reply that passed the checksums by chance is still not a tag.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.pn532 import frames

REPLY_CODE = frames.IN_LIST_PASSIVE_TARGET + 1
UID_LENGTHS = frozenset({4, 7, 10})
ISO14443_4 = 0x20

#: SEL_RES (SAK) -> the tag type reported in `hardware.events.TagPlaced`.
SAK_TYPES = {0x08: "mifare_classic", 0x18: "mifare_classic", 0x09: "mifare_classic", 0x88: "mifare_classic",
             0x00: "ultralight"}  # NTAG21x answers like an Ultralight (SAK 00, ATQA 00 44)


@dataclass(frozen=True)
class Target:
    uid: bytes
    atqa: bytes
    sak: int

    @property
    def uid_hex(self) -> str:
        return self.uid.hex().upper()

    @property
    def tag_type(self) -> str:
        return SAK_TYPES.get(self.sak, "iso14443a")


class NotATarget(ValueError):
    """A reply that does not have the layout of an InListPassiveTarget answer."""


def poll_command() -> bytes:
    """InListPassiveTarget for one target at 106 kbps type A."""
    return frames.command(frames.IN_LIST_PASSIVE_TARGET, b"\x01\x00")


def parse(data: bytes) -> Target | None:
    """The target in a reply's data (command code first), None when no tag is in the field."""
    if len(data) < 2 or data[0] != REPLY_CODE:
        raise NotATarget("not an InListPassiveTarget reply")
    count = data[1]
    if count == 0:
        if len(data) != 2:
            raise NotATarget("bytes after an empty target list")
        return None
    if count != 1:
        raise NotATarget(f"{count} targets for a request of one")
    if len(data) < 7 or data[2] != 1:
        raise NotATarget("a target must be numbered 1")
    atqa, sak, uid_len = bytes(data[3:5]), data[5], data[6]
    if uid_len not in UID_LENGTHS:
        raise NotATarget(f"UID length {uid_len}")
    uid = bytes(data[7 : 7 + uid_len])
    rest = data[7 + uid_len :]
    if len(uid) != uid_len:
        raise NotATarget("UID cut short")
    if rest and (not sak & ISO14443_4 or rest[0] != len(rest)):  # the ATS length byte counts itself
        raise NotATarget("bytes after the UID")
    return Target(uid, atqa, sak)


def answer(target: Target | None, ats: bytes = b"") -> bytes:
    """The reply data a PN532 sends for `target` (for the emulator and the tests)."""
    if target is None:
        return bytes([REPLY_CODE, 0])
    tail = bytes([len(ats) + 1]) + ats if ats else b""
    return bytes([REPLY_CODE, 1, 1]) + target.atqa + bytes([target.sak, len(target.uid)]) + target.uid + tail


def typical(uid_hex: str) -> Target:
    """A plausible tag for a UID: a 4-byte UID is a MIFARE Classic 1K, a 7-byte one an NTAG/Ultralight."""
    uid = bytes.fromhex(uid_hex)
    if len(uid) not in UID_LENGTHS:
        raise ValueError(f"a UID has 4, 7 or 10 bytes, not {len(uid)}")
    if len(uid) == 4:
        return Target(uid, b"\x00\x04", 0x08)
    return Target(uid, b"\x00\x44", 0x00)
