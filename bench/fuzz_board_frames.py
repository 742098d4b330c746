"""Fuzz the reader-board host side with a million frames or more: no crash, zero false taps.

    python bench/fuzz_board_frames.py [--frames 1000000] [--seed 1]

Frames go through the whole host path the driver uses (`codec.Decoder` inside `BoardSession`), in a
session that has already said HELLO (so a frame that passed every check WOULD become a tap) for a board of 4 readers:

- random: random bytes (random length 1-40) ended by 00;
- mutated: a real TAG_PLACED / TAG_REMOVED / HELLO / heartbeat frame with 1-6 random edits
  (bit flip, byte set, insert, delete, truncate, splice with another frame);
- body-mutated: the same edits made under the COBS layer and re-encoded, so each reaches the CRC;
- structured: a body with a random kind byte and random payload, COBS-encoded with a CORRECT CRC
  (checks the layout and range validation; such a frame may be well formed, so it is not counted as
  a false tap when it is, but it must never crash the session).

A false tap is a TagPlaced whose reader and UID are not those of the frame the mutation started
from (a mutation that changed nothing that matters may still deliver the original tap). Prints a
markdown table of counts and exits 1 on any crash or false tap.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import time

from firmware_protocol import codec
from hardware.board.session import BoardSession
from hardware.events import DeviceEvent, TagPlaced


def real_frames(rng: random.Random) -> tuple[bytes, codec.Message]:
    kind = rng.choice((codec.TAG_PLACED, codec.TAG_PLACED, codec.TAG_REMOVED, codec.HELLO, codec.HEARTBEAT))
    uid = bytes(rng.randrange(256) for _ in range(rng.choice(codec.UID_LENGTHS)))
    seq = rng.randrange(256)
    if kind == codec.TAG_PLACED:
        msg = codec.Message(kind, seq, reader=rng.randrange(8), tag_type=rng.randrange(5), uid=uid)
    elif kind == codec.TAG_REMOVED:
        msg = codec.Message(kind, seq, reader=rng.randrange(8), uid=uid)
    elif kind == codec.HELLO:
        msg = codec.Message(
            kind, seq, proto=1, fw_major=1, fw_minor=0, readers=4, mask=rng.randrange(16), board_id=uid[:4] * 2
        )
    else:
        msg = codec.Message(kind, seq, uptime_ms=rng.randrange(2**32), mask=rng.randrange(256))
    return codec.encode(msg), msg


def mutate(rng: random.Random, frame: bytes, donors: list[codec.Message]) -> bytes:
    """Edit a frame; a spliced-in piece of another real frame adds that frame to `donors` (its tap,
    if the splice happens to carry it whole, is a real tap and not a false one)."""
    data = bytearray(frame[:-1])
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(6)
        at = rng.randrange(len(data)) if data else 0
        if op == 0 and data:
            data[at] ^= 1 << rng.randrange(8)
        elif op == 1 and data:
            data[at] = rng.randrange(256)
        elif op == 2:
            data.insert(at, rng.randrange(256))
        elif op == 3 and len(data) > 1:
            del data[at]
        elif op == 4 and len(data) > 1:
            del data[rng.randrange(1, len(data)) :]
        else:
            other, donor = real_frames(rng)
            donors.append(donor)
            data = data[:at] + other[rng.randrange(len(other) - 1) : -1]
    return bytes(data) + b"\x00"


def mutate_body(rng: random.Random, frame: bytes, donors: list[codec.Message]) -> bytes:
    """Edit the frame's body under the COBS layer and re-encode it, so the edit reaches the CRC check."""
    body = codec.cobs_decode(frame[:-1])
    assert body is not None
    return codec.cobs_encode(mutate(rng, body + b"\x00", donors)[:-1]) + b"\x00"


def structured(rng: random.Random) -> bytes:
    kind = rng.choice((*codec.LAYOUT, rng.randrange(256)))
    body = bytes([kind, rng.randrange(256)]) + bytes(rng.randrange(256) for _ in range(rng.randrange(0, 16)))
    if kind == codec.TAG_PLACED and rng.random() < 0.5:  # give the layout check real work
        n = rng.choice((*codec.UID_LENGTHS, 5))
        body = bytes([kind, 0, rng.randrange(10), rng.randrange(7), n]) + bytes(rng.randrange(256) for _ in range(n))
    return codec.cobs_encode(body + codec.crc32(body).to_bytes(4, "little")) + b"\x00"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    logging.getLogger("hardware.board.session").setLevel(logging.ERROR)  # fuzzed NACKs are not news
    events: list[DeviceEvent] = []
    clock = [0.0]
    session = BoardSession("fuzz", events.append, repeat_window=0.0, clock=lambda: clock[0])
    hello = codec.Message(codec.HELLO, 0, proto=1, fw_major=1, fw_minor=0, readers=4, mask=0, board_id=b"F" * 8)
    counts = {"random": 0, "mutated": 0, "body-mutated": 0, "structured": 0}
    taps = dict.fromkeys(counts, 0)
    false_taps = crashes = 0
    started = time.perf_counter()
    for i in range(args.frames):
        clock[0] += 0.001
        if i % 10_000 == 0:
            session.data_received(codec.encode(hello))  # a mutated HELLO may have ended the session
        choice = rng.random()
        origins: list[codec.Message] = []
        if choice < 0.2:
            kind, frame = "random", bytes(rng.randrange(1, 256) for _ in range(rng.randint(1, 40))) + b"\x00"
        elif choice < 0.85:
            real, origin = real_frames(rng)
            origins.append(origin)
            if choice < 0.5:
                kind, frame = "mutated", mutate(rng, real, origins)
            else:
                kind, frame = "body-mutated", mutate_body(rng, real, origins)
        else:
            kind, frame = "structured", structured(rng)
        counts[kind] += 1
        events.clear()
        try:
            session.data_received(frame)
            session.tick(clock[0])
        except Exception as exc:  # a crash is what we are counting
            crashes += 1
            print(f"crash on {frame.hex()}: {exc!r}", file=sys.stderr)
            continue
        for event in events:
            if not isinstance(event, TagPlaced):
                continue
            taps[kind] += 1
            legit = any(
                origin.kind == codec.TAG_PLACED
                and origin.reader < 4
                and (event.slot, event.uid) == (origin.reader, codec.hexlify(origin.uid))
                for origin in origins
            )
            if kind != "structured" and not legit:
                false_taps += 1
                print(f"false tap {event} from {frame.hex()} (origins {origins})", file=sys.stderr)
        session.slots.clear()
        session.leaving.clear()
    elapsed = time.perf_counter() - started
    print("### Reader-board frame fuzz\n")
    print(f"`python bench/fuzz_board_frames.py --frames {args.frames} --seed {args.seed}` ({elapsed:.0f} s)\n")
    print("| frames | count | taps delivered |")
    print("|---|---:|---:|")
    for kind in counts:
        print(f"| {kind} | {counts[kind]:,} | {taps[kind]:,} |")
    print(f"| **total** | **{sum(counts.values()):,}** | |\n")
    print(f"- crashes: {crashes}")
    print(f"- false taps: {false_taps}")
    reasons = ", ".join(f"{k} {v:,}" for k, v in sorted(session.decoder.reasons.items()))
    print(f"- frames dropped by the decoder: {session.decoder.dropped:,} ({reasons})")
    print(f"- well-formed frames refused by the session (reader beyond the board): {session.rejected:,}")
    return 1 if crashes or false_taps else 0


if __name__ == "__main__":
    sys.exit(main())
