"""The PN532 decoder fuzz harness, shared by the tests (hypothesis) and bench/fuzz_pn532_frames.py.

A simulated session: a reader polled again and again, each answer either the truth (the tag on it, or
none) or damaged on the way (bits flipped, bytes dropped, doubled or inserted, the frame cut short,
pure noise, or a checksum-valid reply for a tag that is not there, as a corruption the 8-bit checksums
miss would look). The answers go through the same `Decoder`, `targets.parse` and `Presence` that the
driver uses, the decoder reset before each answer as the driver resets it before each command. A
*false tap* is a `TagPlaced` for a UID that was never on the reader; a *crash* is any exception other
than the refusals the driver expects (`NotATarget`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hardware.events import DeviceEvent, TagPlaced
from hardware.pn532 import frames, targets
from hardware.pn532.presence import Presence

REPLY_CODE = targets.REPLY_CODE


@dataclass
class Tally:
    frames: int = 0  # answers fed to the decoder
    decoded: int = 0  # frames that passed the checksums
    dropped: int = 0  # frames the decoder dropped
    refused: int = 0  # checksum-valid answers that were not a poll answer
    wrong_reads: int = 0  # poll answers that parsed as a tag that was not there (what confirm reads stop)
    taps: int = 0
    false_taps: int = 0
    crashes: int = 0
    crash_examples: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("frames", "decoded", "dropped", "refused", "wrong_reads", "taps", "false_taps", "crashes"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.crash_examples += other.crash_examples[: 5 - len(self.crash_examples)]


def mutate(rng: random.Random, data: bytes) -> bytes:
    """One random kind of damage to a frame on the wire."""
    b = bytearray(data)
    kind = rng.randrange(7)
    if kind == 0:  # flip 1-3 bits
        for _ in range(rng.randint(1, 3)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    elif kind == 1:  # drop bytes
        for _ in range(rng.randint(1, 3)):
            if b:
                del b[rng.randrange(len(b))]
    elif kind == 2:  # insert random bytes
        for _ in range(rng.randint(1, 4)):
            b.insert(rng.randrange(len(b) + 1), rng.randrange(256))
    elif kind == 3:  # cut short
        del b[rng.randrange(len(b)) :]
    elif kind == 4:  # replace 1-4 bytes
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
    elif kind == 5:  # pure noise of a frame's length
        b = bytearray(rng.randbytes(len(b)))
    else:  # duplicate a slice
        i = rng.randrange(len(b))
        b[i:i] = b[i : i + rng.randint(1, 6)]
    return bytes(b)


def random_uid(rng: random.Random) -> str:
    return rng.randbytes(rng.choice((4, 7))).hex().upper()


def run_session(seed: int, polls: int, damage: float = 0.3, forged: float = 0.0) -> Tally:
    """`polls` answers from a reader whose tag changes now and then; a `damage` share of them damaged,
    and a `forged` share replaced by a checksum-valid answer naming a random tag that is not there."""
    rng = random.Random(seed)
    tally = Tally()
    placed: set[str] = set()
    events: list[DeviceEvent] = []
    presence = Presence("fuzz", events.append, repeat_window=0.0)
    decoder = frames.Decoder()
    tag: targets.Target | None = None
    now = 0.0
    for _ in range(polls):
        now += 0.05
        if rng.random() < 0.05:  # someone takes the tag off or puts another on
            tag = None if tag is not None and rng.random() < 0.5 else targets.typical(random_uid(rng))
            if tag is not None:
                placed.add(tag.uid_hex)
        wire = frames.ACK + frames.encode(frames.CHIP_TO_HOST, targets.answer(tag))
        roll = rng.random()
        if roll < forged:
            ghost = targets.typical(random_uid(rng))
            wire = frames.encode(frames.CHIP_TO_HOST, targets.answer(ghost))
        elif roll < forged + damage:
            wire = mutate(rng, wire)
        tally.frames += 1
        decoder.reset()  # as the driver does before each command: an answer never completes another's frame
        try:
            before = decoder.dropped
            for msg in decoder.feed(wire):
                if not isinstance(msg, frames.Frame) or msg.code != REPLY_CODE:
                    continue
                tally.decoded += 1
                try:
                    target = targets.parse(msg.data)
                except targets.NotATarget:
                    tally.refused += 1
                    continue
                if target is not None and (tag is None or target.uid != tag.uid):
                    tally.wrong_reads += 1
                presence.seen(target.uid_hex if target else None, target.tag_type if target else "", now)
            tally.dropped += decoder.dropped - before
        except Exception as err:  # the harness's whole point is to count these
            tally.crashes += 1
            if len(tally.crash_examples) < 5:
                tally.crash_examples.append(f"{type(err).__name__}: {err} on {wire.hex()}")
            decoder = frames.Decoder()
        for ev in events:
            if isinstance(ev, TagPlaced):
                tally.taps += 1
                if ev.uid not in placed:
                    tally.false_taps += 1
        events.clear()
    return tally
