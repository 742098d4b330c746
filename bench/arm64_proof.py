"""The installer proven on a Pi's architecture: arm64 Debian Bookworm and Trixie roots built with
debootstrap, systemd/install.sh run for real inside each under qemu-user-static, then the kiosk's
first frame, a recorded game replayed, `companion run` answering a phone, and the root booted with
systemd-nspawn to show companion.service reaching READY with its watchdog. Not part of the tests
(it takes an hour or more on a 2-core machine); rerun it by hand, as root, from the repository:

    python3 bench/arm64_proof.py [--release bookworm --release trixie] [--roots /work/arm64-roots]
                                 [--rebuild] [--no-boot] [--write-docs] [--report-only]

Needs Debian's debootstrap, qemu-user-static (its binfmt handlers registered) and systemd-container
(systemd-nspawn): `apt-get install debootstrap qemu-user-static systemd-container`. The roots are kept
in --roots (outside the repository) and reused unless --rebuild; the source put in each is the
repository's HEAD (`git archive`), so commit first. Everything runs under `nice -n 19 ionice -c3`.
The install needs the network (Debian's archive, PyPI, npm); the checks and the boot run with a
private network (loopback only). Each release's figures are kept in ROOTS/RELEASE.json;
`--report-only` makes the report (and with --write-docs the docs) from those without running. On a
network whose HTTPS goes through a proxy with its own CA, the
host's extra CAs (/usr/local/share/ca-certificates) are trusted in the roots too, and the host's
CA-bundle variables (PIP_CERT, NODE_EXTRA_CA_CERTS, ...) are passed to the install. With
--write-docs the figures replace the text between `<!-- arm64:start -->` and `<!-- arm64:end -->` in
docs/pi.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs/pi.md"
START, END = "<!-- arm64:start -->", "<!-- arm64:end -->"
MIRROR = "http://deb.debian.org/debian"
INCLUDE = "systemd-sysv,udev,dbus"  # a minimal Debian that boots: what Debian's own Pi images start from
NICE = ["nice", "-n", "19", "ionice", "-c3"]
CHECKS = "/opt/companion/venv/bin/python /opt/companion/src/bench/pi_checks.py"
PROOF_UNIT = "arm64-proof.service"
# Booted: wait for companion.service to be READY (After= a Type=notify unit), stay past WatchdogSec=30,
# write down what systemd says about it, power off.
PROOF_UNIT_TEXT = """[Unit]
Description=arm64 proof: what systemd says about companion.service after it started (bench/arm64_proof.py)
After=companion.service
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'sleep 45; systemctl show companion.service -p ActiveState -p SubState -p Result \
-p StatusText -p NRestarts -p WatchdogUSec -p WatchdogTimestampMonotonic -p ExecMainStartTimestampMonotonic \
-p ActiveEnterTimestampMonotonic > /root/proof-boot.txt 2>&1; cat /proc/uptime >> /root/proof-boot.txt; \
journalctl -b -u companion.service --no-pager -o short-monotonic > /root/proof-journal.txt 2>&1; \
systemctl --failed --no-legend >> /root/proof-failed.txt 2>&1; systemctl poweroff'
[Install]
WantedBy=multi-user.target
"""


def say(text: str) -> None:
    print(f"[{datetime.datetime.now():%H:%M:%S}] {text}", flush=True)


def run(cmd: list[str], log: Path, timeout: float, check: bool = True) -> tuple[float, int]:
    """Run `cmd` niced, its output appended to `log`; (seconds, exit code)."""
    say("$ " + " ".join(cmd))
    started = time.perf_counter()
    with log.open("a", encoding="utf-8") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        code = subprocess.run([*NICE, *cmd], stdout=out, stderr=subprocess.STDOUT, timeout=timeout).returncode
    seconds = time.perf_counter() - started
    say(f"  exit {code} after {seconds:.0f} s")
    if check and code != 0:
        raise SystemExit(f"failed ({code}): {' '.join(cmd)}; see {log}")
    return seconds, code


LOCAL_CAS = Path("/usr/local/share/ca-certificates")
CA_VARIABLES = ("PIP_CERT", "REQUESTS_CA_BUNDLE", "SSL_CERT_FILE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS")
BUNDLE = "/etc/ssl/certs/ca-certificates.crt"  # Debian's bundle, in the root as on the host


def nspawn(root: Path, *cmd: str, private_network: bool = True) -> list[str]:
    cas = [f"--setenv={name}={BUNDLE}" for name in CA_VARIABLES if os.environ.get(name) == BUNDLE]
    return ["systemd-nspawn", "-q", "--register=no", "--keep-unit", "--resolv-conf=copy-host", *cas,
            *(["--private-network"] if private_network else []), "-D", str(root), "--", *cmd]


def trust_host_cas(root: Path, log: Path) -> list[str]:
    """The host's own CAs (a proxy's) trusted in the root: ca-certificates, once installed, adds them."""
    names = sorted(p.name for p in LOCAL_CAS.glob("*.crt")) if LOCAL_CAS.is_dir() else []
    target = root / LOCAL_CAS.relative_to("/")
    for name in names:
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(LOCAL_CAS / name, target / name)
    if names and (root / "usr/sbin/update-ca-certificates").exists():
        run(nspawn(root, "update-ca-certificates"), log, 600)
    return names


def check_json(root: Path, log: Path, args: str) -> dict[str, Any]:
    """One pi_checks.py check inside the root; its JSON line."""
    out = log.with_suffix(f".{args.split()[0]}.json")
    seconds, code = run(nspawn(root, "/bin/sh", "-c", f"{CHECKS} {args} > /root/check.json"), log, 3600,
                        check=False)
    text = (root / "root/check.json").read_text(encoding="utf-8").strip()
    out.write_text(text + "\n", encoding="utf-8")
    result: dict[str, Any] = json.loads(text.splitlines()[-1]) if text else {"ok": False}
    result["wall_s"] = round(seconds, 1)
    result["exit_code"] = code
    return result


def build_root(release: str, root: Path, log: Path, rebuild: bool) -> float | None:
    if rebuild and root.exists():
        shutil.rmtree(root)
    if (root / "etc/os-release").exists():
        say(f"{release}: reusing {root}")
        return None
    seconds, _ = run(["debootstrap", "--arch=arm64", "--variant=minbase", f"--include={INCLUDE}", release,
                      str(root), MIRROR], log, 7200)
    return seconds


def put_source(root: Path) -> str:
    """The repository's HEAD in /root/companion of the root (as a user's clone would have it)."""
    target = root / "root/companion"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", "HEAD"], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


BOOT_GUARD_S = 600  # the proof unit powers off about a minute after READY; past this the boot is stuck


def kill_inside(root: Path) -> None:
    """SIGKILL the processes whose root directory is `root` (the container this script booted)."""
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if os.readlink(proc / "root") == str(root):
                    os.kill(int(proc.name), 9)
            except OSError:
                continue


def boot(root: Path, log: Path) -> dict[str, Any]:
    """Boot the root (systemd as PID 1 under qemu) until the proof unit has looked and powered off."""
    unit = root / "etc/systemd/system" / PROOF_UNIT
    wants = root / "etc/systemd/system/multi-user.target.wants" / PROOF_UNIT
    for name in ("proof-boot.txt", "proof-journal.txt", "proof-failed.txt"):
        (root / "root" / name).unlink(missing_ok=True)
    unit.write_text(PROOF_UNIT_TEXT, encoding="utf-8")
    wants.parent.mkdir(parents=True, exist_ok=True)
    wants.unlink(missing_ok=True)
    wants.symlink_to(f"/etc/systemd/system/{PROOF_UNIT}")
    cmd = ["systemd-nspawn", "-q", "--register=no", "--keep-unit", "--private-network", "--console=pipe",
           "--boot", "-D", str(root)]
    say("$ " + " ".join(cmd))
    started = time.perf_counter()
    try:
        with log.open("a", encoding="utf-8") as out:
            out.write(f"\n$ {' '.join(cmd)}\n")
            out.flush()
            boot_proc = subprocess.Popen([*NICE, *cmd], stdout=out, stderr=subprocess.STDOUT)
            try:
                code = boot_proc.wait(BOOT_GUARD_S)
            except subprocess.TimeoutExpired:
                code = -1
                kill_inside(root)  # the container's own processes (its systemd), then nspawn ends
                boot_proc.kill()
                boot_proc.wait()
        seconds = time.perf_counter() - started
        say(f"  exit {code} after {seconds:.0f} s")
    finally:
        wants.unlink(missing_ok=True)
        unit.unlink(missing_ok=True)
    shown = root / "root/proof-boot.txt"
    props: dict[str, str] = {}
    if shown.exists():
        for line in shown.read_text(encoding="utf-8").splitlines():
            key, sep, value = line.partition("=")
            if sep:
                props[key] = value
    journal = (root / "root/proof-journal.txt")
    lines = journal.read_text(encoding="utf-8").splitlines() if journal.exists() else []
    failed = (root / "root/proof-failed.txt")
    result: dict[str, Any] = {"wall_s": round(seconds, 1), "exit_code": code, "stuck": code == -1, **props,
                              "journal": lines[-15:], "failed_units": failed.read_text().strip() if failed.exists()
                              else ""}
    start, active = props.get("ExecMainStartTimestampMonotonic"), props.get("ActiveEnterTimestampMonotonic")
    if start and active and start.isdigit() and active.isdigit() and int(active):
        result["ready_after_start_s"] = round((int(active) - int(start)) / 1e6, 1)
    dog = props.get("WatchdogTimestampMonotonic")
    if dog and dog.isdigit() and active and active.isdigit():
        result["last_watchdog_after_ready_s"] = round((int(dog) - int(active)) / 1e6, 1)
    result["ok"] = (props.get("ActiveState") == "active" and props.get("NRestarts") == "0"
                    and bool(dog and dog != "0"))
    return result


def prove(release: str, roots: Path, rebuild: bool, do_boot: bool, command: str) -> dict[str, Any]:
    root = roots / release
    log = roots / f"{release}.log"
    started = datetime.datetime.now(datetime.UTC)
    log.write_text(f"arm64 proof of {release}, {started.isoformat(timespec='seconds')}\n")
    figures: dict[str, Any] = {"release": release, "log": str(log), "command": command,
                               "started": f"{started:%Y-%m-%d %H:%M} UTC", "host": host()}
    figures["debootstrap_s"] = build_root(release, root, log, rebuild)
    figures["commit"] = put_source(root)
    figures["host_cas"] = trust_host_cas(root, log)
    seconds, _ = run(nspawn(root, "bash", "/root/companion/systemd/install.sh", private_network=False), log, 14400)
    figures["install_s"] = round(seconds)
    text = log.read_text(encoding="utf-8")
    figures["install_said"] = [line for line in text.splitlines()
                               if line.startswith(("GPIO:", "no running", "no udev", "skipped (no", "at first boot",
                                                   "no lgpio wheel", "warning:",
                                                   "no group", "no raspi-config", "== tabletop"))]
    seconds, _ = run(nspawn(root, "bash", "/root/companion/systemd/install.sh", private_network=False), log, 7200)
    figures["reinstall_s"] = round(seconds)  # an upgrade with nothing new: the idempotent path
    cache = root / "var/cache/companion"
    if cache.exists():
        shutil.rmtree(cache)  # the first frame from a cold font cache, as at the first boot
    figures["first_frame_cold"] = check_json(root, log, "first-frame --out /root/shots --lang th")
    figures["first_frame_warm"] = check_json(root, log, "first-frame --out /root/shots --lang zh")
    shots = roots / f"{release}-shots"
    shutil.rmtree(shots, ignore_errors=True)
    shutil.copytree(root / "root/shots", shots)
    figures["screenshots"] = str(shots)
    figures["replay"] = check_json(root, log, "replay")
    figures["phone"] = check_json(root, log, "phone")
    if do_boot:
        figures["boot"] = boot(root, log)
    figures["total_s"] = round((datetime.datetime.now(datetime.UTC) - started).total_seconds())
    (roots / f"{release}.json").write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n")
    return figures


def ok(flag: Any) -> str:
    return "yes" if flag else "**no**"


def host() -> str:
    return f"{platform.machine()} {platform.node()}, {len(os.sched_getaffinity(0))} cores, qemu-user"


def report(results: list[dict[str, Any]]) -> str:
    rows = [
        "| | " + " | ".join(f"Debian {r['release']} arm64" for r in results) + " |",
        "|---|" + "---|" * len(results),
    ]

    def row(name: str, cell: Any) -> None:
        rows.append(f"| {name} | " + " | ".join(str(cell(r)) for r in results) + " |")

    row("root built (debootstrap)", lambda r: f"{r['debootstrap_s']:.0f} s" if r["debootstrap_s"] else "reused")
    row("**install.sh** (first install)", lambda r: f"**{r['install_s'] / 60:.1f} min** ({r['install_s']} s)")
    row("install.sh again (nothing new)", lambda r: f"{r['reinstall_s']} s")
    row("GPIO chosen", lambda r: next((s.removeprefix("GPIO: ") for s in r["install_said"] if s.startswith("GPIO:")),
                                      "?"))
    row("**first frame**, cold font cache (th)",
        lambda r: f"**{r['first_frame_cold'].get('first_frame_s', '?')} s** "
                  f"(fonts {r['first_frame_cold'].get('fonts_s', '?')} s), {ok(r['first_frame_cold']['ok'])}")
    row("first frame, warm cache (zh)", lambda r: f"{r['first_frame_warm'].get('first_frame_s', '?')} s, "
                                                 f"{ok(r['first_frame_warm']['ok'])}")
    row("**replay**: `companion demo --game lockdown`", lambda r: f"**{r['replay'].get('demo_s', '?')} s**")
    row("`companion replay` lockdown-9p.jsonl", lambda r: f"{r['replay'].get('replay_s', '?')} s "
                                                         f"({r['replay'].get('replay_lines', '?')} lines), "
                                                         f"{ok(r['replay']['ok'])}")
    row("`companion run` (the unit's way): READY=1", lambda r: f"{r['phone'].get('ready_s', '?')} s; "
                                                              f"STATUS \"{r['phone'].get('status', '')}\"")
    row("a phone's dice roll answered", lambda r: f"{r['phone'].get('phone_reply_ms', '?')} ms, status topic "
                                                 f"`{r['phone'].get('phones_status', '?')}`, page HTTP "
                                                 f"{r['phone'].get('page_http', '?')}, {ok(r['phone']['ok'])}")
    if all("boot" in r for r in results):
        row("booted (`systemd-nspawn --boot`): companion.service",
            lambda r: f"{r['boot'].get('ActiveState', '?')}/{r['boot'].get('SubState', '?')}, "
                      f"NRestarts={r['boot'].get('NRestarts', '?')}, {ok(r['boot']['ok'])}" if r["boot"].get(
                          "ActiveState") else f"**the root did not boot**: no word from its systemd in "
                                              f"{r['boot']['wall_s']:.0f} s (stopped by hand or by the guard)")
        row("READY after ExecStart; last watchdog ping after READY",
            lambda r: f"{r['boot'].get('ready_after_start_s', '?')} s; "
                      f"{r['boot'].get('last_watchdog_after_ready_s', '?')} s (WatchdogSec=30)")
        row("systemd's STATUS= when booted", lambda r: f"\"{r['boot'].get('StatusText', '')}\"")
        row("other units failed in the container", lambda r: ", ".join(
            line.split()[1] for line in r["boot"].get("failed_units", "").splitlines() if len(line.split()) > 1)
            or "none")
    row("the whole run of this release", lambda r: f"{r['total_s'] / 60:.0f} min")
    row("commit", lambda r: f"`{r['commit']}`")
    said = []
    for r in results:
        said.append(f"What install.sh said on {r['release']} (the lines about choices and skips):\n")
        said.append("```")
        said.extend(r["install_said"])
        said.append("```\n")
    runs = [f"- {r['release']}: {r['started']}, on {r['host']}: `{r['command']}`" for r in results]
    return "\n".join([
        "Generated by `bench/arm64_proof.py --write-docs` from its last run of each release; do not edit by hand.",
        "", *runs, "", *rows, "", *said,
    ])


def write_docs(text: str, path: Path = DOCS) -> None:
    doc = path.read_text(encoding="utf-8")
    if doc.count(START) != 1 or doc.count(END) != 1 or doc.index(START) > doc.index(END):
        raise SystemExit(f"{path} must hold {START} and then {END}, once each")
    head, rest = doc.split(START)
    _, tail = rest.split(END)
    path.write_text(f"{head}{START}\n{text}\n{END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--release", action="append", choices=["bookworm", "trixie"])
    parser.add_argument("--roots", type=Path, default=Path("/work/arm64-roots"))
    parser.add_argument("--rebuild", action="store_true", help="build the roots afresh (debootstrap)")
    parser.add_argument("--no-boot", action="store_true", help="skip booting the roots with systemd-nspawn")
    parser.add_argument("--write-docs", action="store_true", help=f"put the figures in {DOCS.name}")
    parser.add_argument("--report-only", action="store_true", help="report the last runs' figures, run nothing")
    args = parser.parse_args(argv)
    releases = args.release or ["bookworm", "trixie"]
    if args.report_only:
        results = [json.loads((args.roots / f"{r}.json").read_text(encoding="utf-8")) for r in releases]
        text = report(results)
        print(text)
        if args.write_docs:
            write_docs(text)
        return 0
    for tool in ("debootstrap", "systemd-nspawn", "git"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is needed: apt-get install debootstrap qemu-user-static systemd-container")
    if not Path("/proc/sys/fs/binfmt_misc/qemu-aarch64").exists():
        raise SystemExit("no binfmt handler for aarch64: apt-get install qemu-user-static (and binfmt_misc mounted)")
    if REPO.resolve() in args.roots.resolve().parents or args.roots.resolve() == REPO.resolve():
        raise SystemExit("--roots must be outside the repository")
    args.roots.mkdir(parents=True, exist_ok=True)
    command = ("sudo python3 bench/arm64_proof.py " + " ".join(sys.argv[1:] if argv is None else argv)).strip()
    results = [prove(release, args.roots, args.rebuild, not args.no_boot, command) for release in releases]
    text = report(results)
    print(text)
    if args.write_docs:
        write_docs(text)
    return 0 if all(r["first_frame_cold"]["ok"] and r["replay"]["ok"] and r["phone"]["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
