"""The Pi's unit, installer and uninstaller (issue 7): `systemd-analyze verify` on the unit, shellcheck
on the scripts, the dry-run plan for Bookworm and Trixie, idempotence into a fake root (run twice,
compare), upgrades keeping config and games, and the uninstaller's plan and effect."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from companion import config

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd/companion.service"
INSTALL = ROOT / "systemd/install.sh"
UNINSTALL = ROOT / "systemd/uninstall.sh"


def sh(script: Path, *args: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(["bash", str(script), *map(str, args)], capture_output=True, text=True, timeout=60)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def fake_pi(tmp_path: Path, release: str = "bookworm", pi: bool = True) -> Path:
    """A Raspberry Pi OS root: os-release, the boot partition's cmdline.txt, raspi-config, the model."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/os-release").write_text(f'PRETTY_NAME="Debian GNU/Linux"\nVERSION_CODENAME={release}\n')
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/cmdline.txt").write_text("console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 rootwait\n")
    if pi:
        (root / "usr/bin").mkdir(parents=True)
        (root / "usr/bin/raspi-config").write_text("#!/bin/sh\nexit 0\n")
        (root / "usr/bin/raspi-config").chmod(0o755)
        (root / "proc/device-tree").mkdir(parents=True)
        (root / "proc/device-tree/model").write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    return root


def tree(root: Path) -> dict[str, tuple[int, bytes]]:
    """Every file under root: its mode and content."""
    return {str(p.relative_to(root)): (stat.S_IMODE(p.stat().st_mode), p.read_bytes())
            for p in sorted(root.rglob("*")) if p.is_file()}


def unit_entries(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) for every assignment in a unit file (keys may repeat, e.g. Environment)."""
    out, section = [], ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        out.append((section, key, value))
    return out


# --- the unit -----------------------------------------------------------------------------------------

def test_systemd_analyze_verify_passes_on_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is needed: tests/run.sh installs the systemd package"
    # verify checks that ExecStart exists: the same unit, pointed at a stand-in for the installed program
    program = tmp_path / "opt/companion/venv/bin/companion"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    text = UNIT.read_text().replace("/opt/companion/venv/bin/companion", str(program))
    assert text != UNIT.read_text()
    (tmp_path / "companion.service").write_text(text)
    result = subprocess.run([analyze, "verify", str(tmp_path / "companion.service")], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    # and it does catch a broken unit
    (tmp_path / "broken.service").write_text(text.replace("Type=notify", "Type=notifyy"))
    broken = subprocess.run([analyze, "verify", str(tmp_path / "broken.service")], capture_output=True,
                            text=True, timeout=60)
    assert "Failed to parse service type" in broken.stderr


def test_the_unit_is_a_watched_hardened_kiosk_service() -> None:
    entries = unit_entries(UNIT.read_text())
    service = {key: value for section, key, value in entries if section == "Service"}
    unit = {key: value for section, key, value in entries if section == "Unit"}
    env = dict(value.split("=", 1) for section, key, value in entries if key == "Environment")
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) >= 10  # the table loop turns every 1 s
    assert service["Restart"] == "on-failure" and unit["StartLimitBurst"] and unit["StartLimitIntervalSec"]
    assert service["ExecStart"] == "/opt/companion/venv/bin/companion run"
    assert service["User"] == "companion" and service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict" and service["StateDirectory"] == "companion"
    assert set(service["SupplementaryGroups"].split()) >= {"gpio", "dialout", "video", "render", "input", "audio"}
    assert service["StandardOutput"] == "journal" and service["StandardInput"] == "null"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm" and env["HOME"] == "/var/lib/companion"
    assert "getty@tty1.service" in unit["Conflicts"]


# --- the scripts --------------------------------------------------------------------------------------

def test_shellcheck_passes_on_the_scripts() -> None:
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is needed: tests/run.sh installs it"
    scripts = sorted((ROOT / "systemd").glob("*.sh"))
    assert INSTALL in scripts and UNINSTALL in scripts
    result = subprocess.run([shellcheck, *map(str, scripts)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_dry_run_plans_the_whole_install_on_a_pi_and_changes_nothing(tmp_path: Path, release: str) -> None:
    root = fake_pi(tmp_path, release)
    before = tree(root)
    plan = sh(INSTALL, "--dry-run", "--root", root).stdout.splitlines()
    assert tree(root) == before  # a dry run writes nothing
    assert plan[0].startswith(f"== tabletop companion: installing from {ROOT} for {release} on a Raspberry Pi")
    apt = next(line for line in plan if "apt-get install" in line)
    for package in ("python3-venv", "python3-lgpio", "fonts-noto-cjk", "fonts-thai-tlwg", "fonts-noto-core",
                    "mosquitto", "libgbm1", "nodejs", "npm"):
        assert f" {package}" in apt
    expected = [
        "would run: apt-get update -qq",
        "would run: useradd --system --home-dir /var/lib/companion --no-create-home --shell /usr/sbin/nologin "
        "--user-group companion",
        "would run: env -C /opt/companion/src/companion/phones/web npm ci --ignore-scripts --no-audit --no-fund "
        "--loglevel=error",
        "would run: python3 -m venv --system-site-packages /opt/companion/venv",
        "would run: /opt/companion/venv/bin/python -m pip install -q --upgrade /opt/companion/src",
        "would write: /etc/companion/config.toml (mode 0644)",
        "would write: /etc/systemd/system/companion.service (mode 0644)",
        "would write: /etc/udev/rules.d/99-companion-readers.rules (mode 0644)",
        "would run: systemctl disable --now mosquitto.service",
        "would run: raspi-config nonint do_serial_hw 0",
        "would run: raspi-config nonint do_serial_cons 1",
        "would run: raspi-config nonint do_blanking 1",
        "would run: systemctl set-default multi-user.target",
        "would add to /boot/firmware/cmdline.txt: consoleblank=0",
        "would run: systemctl daemon-reload",
        "would run: systemctl enable companion.service",
    ]
    assert [line for line in plan if line in expected] == expected  # all of them, in this order
    for group in ("gpio", "dialout", "video", "render", "input", "audio"):
        assert f"would run: usermod -a -G {group} companion" in plan


def test_dry_run_on_this_machine_needs_no_root_and_skips_the_pi_parts() -> None:
    """Here (Debian 12, not a Pi): the plan runs unprivileged and says what it leaves alone."""
    unit = Path("/etc/systemd/system/companion.service")
    there = unit.exists()
    result = sh(INSTALL, "--dry-run", "--os", "trixie")
    assert "not a Raspberry Pi (no raspi-config): serial port left alone" in result.stdout
    assert "raspi-config" not in result.stdout.replace("(no raspi-config)", "")
    assert unit.exists() == there  # nothing written


def test_system_broker_option_installs_the_phones_mosquitto_config(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    sh(INSTALL, "--root", root, "--system-broker")
    conf = root / "etc/mosquitto/conf.d/companion.conf"
    assert conf.read_bytes() == (ROOT / "systemd/mosquitto-companion.conf").read_bytes()
    assert (root / "etc/mosquitto/companion.acl").read_bytes() == (ROOT / "systemd/companion.acl").read_bytes()


def test_install_twice_into_a_fake_root_is_idempotent_and_keeps_config_and_games(tmp_path: Path) -> None:
    root = fake_pi(tmp_path, "trixie")
    first = sh(INSTALL, "--root", root).stdout
    assert "wrote: /etc/systemd/system/companion.service" in first
    after_first = tree(root)
    assert after_first["etc/systemd/system/companion.service"] == (0o644, UNIT.read_bytes())
    assert after_first["boot/firmware/cmdline.txt"][1].decode().split() [-1] == "consoleblank=0"
    second = sh(INSTALL, "--root", root).stdout
    assert tree(root) == after_first
    assert not [line for line in second.splitlines() if line.startswith(("wrote:", "added", "running:"))]
    assert "unchanged: /etc/systemd/system/companion.service" in second
    # the host edits the config and plays a game; an upgrade keeps both
    cfg_file = root / "etc/companion/config.toml"
    cfg_file.write_text(cfg_file.read_text() + '\n[table]\nlanguage = "th"\n')
    (root / "var/lib/companion").mkdir(parents=True)
    (root / "var/lib/companion/companion.sqlite3").write_bytes(b"SQLite format 3\x00games")
    edited = tree(root)
    assert "kept: /etc/companion/config.toml (already there)" in sh(INSTALL, "--root", root).stdout
    assert tree(root) == edited


def test_the_installed_config_is_valid_and_sets_the_pi_defaults(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    sh(INSTALL, "--root", root)
    cfg = config.load(env={"HOME": str(tmp_path)}, system_path=root / "etc/companion/config.toml", user_path=None)
    assert cfg.storage.path == Path("/var/lib/companion/companion.sqlite3")
    assert cfg.display.fullscreen is True and cfg.display.driver == "kmsdrm"
    assert cfg.readers.simulate == "never" and cfg.mqtt.broker == "mosquitto"


def test_uninstall_plans_then_removes_what_install_wrote_and_purge_the_rest(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    sh(INSTALL, "--root", root)
    (root / "var/lib/companion").mkdir(parents=True)
    (root / "var/lib/companion/companion.sqlite3").write_bytes(b"games")
    installed = tree(root)
    plan = sh(UNINSTALL, "--dry-run", "--root", root).stdout.splitlines()
    assert tree(root) == installed
    assert "would run: systemctl disable --now companion.service" in plan
    assert "would remove: /etc/systemd/system/companion.service" in plan
    assert "would remove: /etc/udev/rules.d/99-companion-readers.rules" in plan
    sh(UNINSTALL, "--root", root)
    left = tree(root)
    assert "etc/systemd/system/companion.service" not in left
    assert "etc/udev/rules.d/99-companion-readers.rules" not in left
    assert "etc/companion/config.toml" in left and "var/lib/companion/companion.sqlite3" in left
    purge = sh(UNINSTALL, "--root", root, "--purge").stdout
    assert "skipped (--root): userdel companion" in purge
    assert not (root / "etc/companion").exists() and not (root / "var/lib/companion").exists()
    assert "boot/firmware/cmdline.txt" in tree(root)  # the Pi's own settings stay


def test_bad_options_and_other_systems_are_refused_clearly(tmp_path: Path) -> None:
    wrong = sh(INSTALL, "--frobnicate", check=False)
    assert wrong.returncode == 2 and "unknown option --frobnicate" in wrong.stderr
    root = fake_pi(tmp_path, release="bullseye")
    old = sh(INSTALL, "--dry-run", "--root", root, check=False)
    assert old.returncode == 1
    assert "Raspberry Pi OS Bookworm or Trixie expected, found 'bullseye' (use --os to insist)" in old.stderr
    if os.geteuid() != 0:
        assert "run as root" in sh(INSTALL, "--os", "bookworm", check=False).stderr
