"""Run every benchmark and print one markdown report; `--write-docs` also puts it in docs/performance.md.

Run from the repository root::

    python bench/run_all.py [--write-docs] [--append-count 2000] [--replay-count 1000] [--repeat 3]

Each benchmark runs in its own Python process (so the peak RSS of one is not the other's), in a
temporary directory on a real disk chosen here and passed to both. With --write-docs the text between
the markers `<!-- bench:start -->` and `<!-- bench:end -->` in docs/performance.md is replaced by the
report; the rest of that file (the method and the discussion) is written by hand.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent / "docs" / "performance.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"
RAM_FILESYSTEMS = frozenset({"tmpfs", "ramfs", "devtmpfs"})


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
    if requested is not None:
        return Path(requested)
    for candidate in (tempfile.gettempdir(), "/var/tmp", os.getcwd()):
        if os.path.isdir(candidate) and filesystem(candidate)[2] not in RAM_FILESYSTEMS:
            return Path(candidate)
    raise SystemExit("no directory on a real disk found; pass --dir")


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


def machine(where: Path, load_before: float) -> str:
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


def revision() -> str:
    """The commit measured, marked `-dirty` when the work tree had uncommitted changes."""
    try:
        proc = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=HERE, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return "(not a git checkout)"
    return f"`{proc.stdout.strip()}`"


def run(script: str, args: list[str]) -> str:
    proc = subprocess.run([sys.executable, str(HERE / script), *args], capture_output=True, text=True)
    sys.stderr.write(proc.stderr)
    if proc.returncode != 0:
        raise SystemExit(f"{script} failed with exit code {proc.returncode}")
    return proc.stdout.strip()


def report(append_count: int, replay_count: int, repeat: int, where: Path) -> str:
    load_before = os.getloadavg()[0]
    eventlog = run("bench_eventlog.py", ["--count", str(append_count), "--dir", str(where)])
    replay = run("bench_replay.py", ["--count", str(replay_count), "--repeat", str(repeat), "--dir", str(where)])
    command = "python bench/run_all.py " + " ".join(
        f"--{name} {value}"
        for name, value in (("append-count", append_count), ("replay-count", replay_count), ("repeat", repeat))
    )
    return "\n".join(
        [
            "### Latest figures",
            "",
            f"Generated by `{command}`; do not edit by hand.",
            "",
            machine(where, load_before),
            "",
            eventlog,
            "",
            replay,
        ]
    )


def write_docs(text: str, path: Path = DOCS) -> None:
    doc = path.read_text(encoding="utf-8")
    if doc.count(START) != 1 or doc.count(END) != 1 or doc.index(START) > doc.index(END):
        raise SystemExit(f"{path} must hold {START} and then {END}, once each")
    head, rest = doc.split(START)
    _, tail = rest.split(END)
    path.write_text(f"{head}{START}\n{text}\n{END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--write-docs", action="store_true", help=f"rewrite the figures in {DOCS.name}")
    parser.add_argument("--append-count", type=int, default=2000, help="appends/submits per row (2000)")
    parser.add_argument("--replay-count", type=int, default=1000, help="events in the replayed game (1000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each replay (3)")
    parser.add_argument("--dir", default=None, help="where the temporary SQLite files go (a real disk)")
    args = parser.parse_args(argv)
    text = report(args.append_count, args.replay_count, args.repeat, disk_dir(args.dir))
    print(text)
    if args.write_docs:
        write_docs(text)
        print(f"\n(written to {DOCS})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
