"""Where and how the benchmarks measure: the shared part of the scripts in bench/.

- Where: `disk_dir` picks a directory on a real disk for the SQLite files (a RAM-backed tmpfs would
  make every fsync free), `filesystem` says which mount holds a path, and `machine` describes the
  machine, the disk and the code a run measured.
- How: nearest-rank percentiles (`percentile`, `p50`, `summary`), the peak RSS of the process, the
  size of a state in JSON values, and how a time in microseconds is printed.

The scripts import it as `benchlib`, which works when they run as `python bench/X.py` (their folder is
then on sys.path).
"""

from __future__ import annotations

import datetime
import math
import os
import platform
import resource
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RAM_FILESYSTEMS = frozenset({"tmpfs", "ramfs", "devtmpfs"})


# -- where to write -------------------------------------------------------------------------------------


def filesystem(path: str | Path) -> tuple[str, str, str]:
    """(device, mount point, filesystem type) of the mount that holds `path`, from /proc/self/mounts."""
    real = os.path.realpath(path)
    best = ("?", "/", "unknown")
    try:
        lines = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return best
    for line in lines:
        fields = line.split()
        if len(fields) < 3:
            continue
        device, mount, fstype = fields[0], fields[1].replace("\\040", " "), fields[2]
        inside = real == mount or real.startswith(mount.rstrip("/") + "/")
        if inside and len(mount) >= len(best[1]):
            best = (device, mount, fstype)
    return best


def disk_dir(requested: str | None) -> Path:
    """The directory to put the benchmark's SQLite files in: the one asked for, or the first on a disk."""
    if requested is not None:
        if filesystem(requested)[2] in RAM_FILESYSTEMS:
            print(f"warning: {requested} is RAM-backed; fsync costs nothing there", file=sys.stderr)
        return Path(requested)
    for candidate in (tempfile.gettempdir(), "/var/tmp", os.getcwd()):
        if os.path.isdir(candidate) and filesystem(candidate)[2] not in RAM_FILESYSTEMS:
            return Path(candidate)
    raise SystemExit("no directory on a real disk found; pass --dir")


# -- the machine ----------------------------------------------------------------------------------------


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def cpu_model() -> str:
    text = _read(Path("/proc/cpuinfo")) or ""
    for key in ("model name", "Model", "Hardware"):
        for line in text.splitlines():
            if line.split(":")[0].strip() == key:
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def disk(where: Path) -> str:
    """The block device under `where`: name, filesystem, and what the kernel says of it."""
    device, mount, fstype = filesystem(where)
    name = Path(device).name
    block = Path("/sys/class/block") / name
    facts = []
    if block.exists():
        queue = block.resolve() / "queue"
        if not queue.exists():  # a partition: the queue is the parent disk's
            queue = block.resolve().parent / "queue"
        rotational = _read(queue / "rotational")
        if rotational is not None:
            facts.append(f"rotational={rotational}")
        cache = _read(queue / "write_cache")
        if cache is not None:
            facts.append(f"write cache: {cache}")
        model = _read(block.resolve() / "device" / "model") or _read(block.resolve().parent / "device" / "model")
        if model:
            facts.append(f"model {model}")
        if name.startswith("vd"):
            facts.append("virtio, backing storage not visible")
    extra = f" ({', '.join(facts)})" if facts else ""
    return f"{device}{extra}, {fstype} at {mount}"


def revision() -> str:
    """The commit measured, marked `-dirty` when the work tree had uncommitted changes."""
    try:
        proc = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=HERE, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return "(not a git checkout)"
    return f"`{proc.stdout.strip()}`"


def machine(where: Path, load_before: float) -> str:
    """Markdown bullets: the machine, the disk under `where`, and when and on what code the run was."""
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    mem = next(
        (line.split()[1] for line in (_read(Path("/proc/meminfo")) or "").splitlines() if line.startswith("MemTotal")),
        None,
    )
    ram = f", {int(mem) / 1024 / 1024:.0f} GiB RAM" if mem else ""
    return "\n".join(
        [
            f"- Machine: {affinity} CPUs (`nproc`), {cpu_model()}{ram}; "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}, "
            f"SQLite {sqlite3.sqlite_version}",
            f"- Disk for the SQLite files: {disk(where)}",
            f"- Run: {datetime.datetime.now(datetime.UTC).strftime('%Y-%m-%d %H:%M UTC')}, code {revision()}, "
            f"1-min load average {load_before:.2f} before the run and {os.getloadavg()[0]:.2f} after "
            "(the benchmarks themselves add about 1; more means other work shared the machine)",
        ]
    )


# -- figures --------------------------------------------------------------------------------------------


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list (q in 0..1)."""
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[rank - 1]


def p50(values: list[float]) -> float:
    """Nearest-rank median of `values`, in any order."""
    return percentile(sorted(values), 0.50)


def summary(ns: list[int]) -> dict[str, float]:
    """p50, p99 and max in microseconds of samples in nanoseconds, and their number."""
    us = sorted(v / 1000 for v in ns)
    return {"p50": percentile(us, 0.50), "p99": percentile(us, 0.99), "max": us[-1], "n": len(us)}


def peak_rss_mib() -> float:
    """The process's peak resident set size so far, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def json_values(value: Any) -> int:
    """How many JSON values (objects, arrays, scalars) `value` holds, itself included."""
    if isinstance(value, dict):
        return 1 + sum(json_values(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(json_values(v) for v in value)
    return 1


def fmt(us: float) -> str:
    """A time in microseconds as the tables print it: whole above 100, one decimal below."""
    return f"{us:,.0f}" if us >= 100 else f"{us:.1f}"
