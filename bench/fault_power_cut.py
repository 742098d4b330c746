"""The long variant of tests/faults/test_kill9_lockdown_with_phones.py: 200 SIGKILLs through the scripted Lockdown game.

Run: `python bench/fault_power_cut.py [--kills 200] [--seed 2026]`. It runs the same test with
FAULT_KILLS set, and prints the kills made and the wall time (the test command runs 8 kills).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--kills", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    env = {**os.environ, "FAULT_KILLS": str(args.kills), "FAULT_SEED": str(args.seed),
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    t0 = time.perf_counter()
    rc = subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          str(ROOT / "tests" / "faults" / "test_kill9_lockdown_with_phones.py")], cwd=ROOT, env=env)
    wall = time.perf_counter() - t0
    print(f"\n| power cut | kills | seed | result | wall |\n|---|---|---|---|---|\n"
          f"| SIGKILL through lockdown-2p with a phone | {args.kills} | {args.seed} | "
          f"{'pass' if rc == 0 else 'FAIL'} | {wall:.0f} s |")
    sys.exit(rc)


if __name__ == "__main__":
    main()
