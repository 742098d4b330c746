"""Fuzz the PN532 host side with a million poll answers or more: no crash, zero false taps.

    python bench/fuzz_pn532_frames.py [--frames 1000000] [--seed 1]

Each answer goes through the path the driver uses (`frames.Decoder`, `targets.parse`, `Presence`) in
simulated sessions of 10,000 polls (hardware/pn532/fuzzing.py): a reader whose tag changes now and
then, and answers damaged on the wire (bits flipped, bytes dropped, inserted, replaced or doubled,
frames cut short, pure noise), in three mixes:

- light: 30% of the answers damaged;
- heavy: 90% damaged;
- forged: 30% damaged and 5% replaced by a checksum-valid answer naming a tag that is not there (what
  a corruption the 8-bit checksums miss looks like; the confirm read must stop it).

A false tap is a TagPlaced for a UID that was never on the reader; a wrong single read is a poll
answer that parsed as a tag that was not there (each would have been a false tap without the confirm
read). Prints a markdown table of counts
and exits 1 on any crash or false tap.
"""

from __future__ import annotations

import argparse
import sys
import time

from hardware.pn532.fuzzing import Tally, run_session

MIXES = {"light": (0.3, 0.0), "heavy": (0.9, 0.0), "forged": (0.3, 0.05)}
SESSION = 10_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    tallies = {name: Tally() for name in MIXES}
    started = time.perf_counter()
    done, session = 0, 0
    while done < args.frames:
        name = list(MIXES)[session % len(MIXES)]
        damage, forged = MIXES[name]
        polls = min(SESSION, args.frames - done)
        tallies[name].add(run_session(args.seed * 1_000_003 + session, polls, damage, forged))
        done += polls
        session += 1
    elapsed = time.perf_counter() - started
    total = Tally()
    for tally in tallies.values():
        total.add(tally)
    print(f"#### PN532 frame fuzz ({done:,} answers, seed {args.seed}, {elapsed:.1f} s)\n")
    print("| mix | answers | decoded | dropped (bad checksum) | refused (not a poll answer) "
          "| wrong single reads | taps | crashes | false taps |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, t in [*tallies.items(), ("all", total)]:
        print(f"| {name} | {t.frames:,} | {t.decoded:,} | {t.dropped:,} | {t.refused:,} | {t.wrong_reads:,} "
              f"| {t.taps:,} | {t.crashes} | {t.false_taps} |")
    print(f"\ncrashes {total.crashes}, false taps {total.false_taps}")
    for example in total.crash_examples:
        print(f"crash: {example}", file=sys.stderr)
    return 1 if total.crashes or total.false_taps else 0


if __name__ == "__main__":
    sys.exit(main())
