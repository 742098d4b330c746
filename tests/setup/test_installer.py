"""The Pi's unit, installer and uninstaller (issues 7 and 19): `systemd-analyze verify` on the units,
shellcheck on the scripts, the dry-run plan for Bookworm and Trixie, idempotence into a fake root (run
twice, compare), upgrades keeping config and games, and the uninstaller's plan and effect. Issue 19:
plain Debian (no python3-lgpio: lgpio from PyPI, a gpio group and udev rule made), and an image
build or a container (no running systemd, no udev: those steps skipped, each said, the Pi's own
settings left to a first-boot unit). The real install on arm64 roots is bench/arm64_proof.py."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from companion import config

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd/companion.service"
INSTALL = ROOT / "systemd/install.sh"
UNINSTALL = ROOT / "systemd/uninstall.sh"


def sh(script: Path, *args: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(["bash", str(script), *map(str, args)], capture_output=True, text=True, timeout=60)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


RPI_LIST = "var/lib/apt/lists/archive.raspberrypi.com_debian_dists_bookworm_main_binary-arm64_Packages"
DEBIAN_LIST = "var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_binary-arm64_Packages"


def fake_pi(tmp_path: Path, release: str = "bookworm", pi: bool = True, booted: bool = True,
            raspi_os: bool | None = None) -> Path:
    """A Raspberry Pi OS root: os-release, the boot partition's cmdline.txt, raspi-config, the model, the
    Raspberry Pi archive's package list (python3-lgpio), and (booted) a running systemd and udev."""
    raspi_os = pi if raspi_os is None else raspi_os
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/os-release").write_text(f'PRETTY_NAME="Debian GNU/Linux"\nVERSION_CODENAME={release}\n')
    (root / "etc/group").write_text("root:x:0:\ndialout:x:20:\naudio:x:29:\nvideo:x:44:\ninput:x:101:\n"
                                    "render:x:106:\n" + ("gpio:x:997:\n" if raspi_os else ""))
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/cmdline.txt").write_text("console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 rootwait\n")
    (root / "var/lib/apt/lists").mkdir(parents=True)
    (root / DEBIAN_LIST).write_text("Package: python3-gpiozero\nVersion: 1.6.2-1\n\nPackage: python3-libgpiod\n")
    if raspi_os:
        (root / "usr/bin").mkdir(parents=True)
        (root / "usr/bin/raspi-config").write_text("#!/bin/sh\nexit 0\n")
        (root / "usr/bin/raspi-config").chmod(0o755)
        (root / RPI_LIST).write_text("Package: python3-lgpio\nVersion: 0.2.2-1~rpt1\n")
    if pi:
        (root / "proc/device-tree").mkdir(parents=True)
        (root / "proc/device-tree/model").write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\x00")
    if booted:
        (root / "run/systemd/system").mkdir(parents=True)
        (root / "run/udev").mkdir(parents=True)
        (root / "run/udev/control").write_text("")
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
    # the README's test command, CI's, and the fresh Debian proof of both README commands
    scripts += [ROOT / "tests/run.sh", ROOT / ".ci/run", ROOT / "tests/setup/fresh_debian.sh"]
    # -x: run-here.sh and tests/run.sh source systemd/apt-steps.sh (named from the checkout's root)
    result = subprocess.run([shellcheck, "-x", *map(str, scripts)], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_dry_run_plans_the_whole_install_on_a_pi_and_changes_nothing(tmp_path: Path, release: str) -> None:
    root = fake_pi(tmp_path, release)
    before = tree(root)
    plan = sh(INSTALL, "--dry-run", "--root", root).stdout.splitlines()
    assert tree(root) == before  # a dry run writes nothing
    assert plan[0].startswith(f"== tabletop companion: installing from {ROOT} for Raspberry Pi OS {release}")
    assert "on a Raspberry Pi" in plan[0]
    assert "GPIO: lgpio from the Debian package python3-lgpio (Raspberry Pi OS's archive has it)" in plan
    apt = next(line for line in plan if "apt-get install" in line)
    for package in ("python3-venv", "python3-lgpio", "fonts-noto-cjk", "fonts-thai-tlwg", "fonts-noto-core",
                    "icu-devtools", "mosquitto", "libgbm1", "nodejs", "npm"):
        assert f" {package}" in apt
    expected = [
        "would run: apt-get update -qq",
        "would run: useradd --system --home-dir /var/lib/companion --no-create-home --shell /usr/sbin/nologin "
        "--user-group companion",
        "would run: env -C /opt/companion/src/companion/phones/web npm ci --ignore-scripts --no-audit --no-fund "
        "--loglevel=error",
        "would run: rm -rf /opt/companion/src/build",
        "would run: python3 -m venv --system-site-packages /opt/companion/venv",
        "would run: /opt/companion/venv/bin/python -m pip install -q --upgrade /opt/companion/src",
        "would write: /etc/companion/config.toml (mode 0644)",
        "would write: /etc/systemd/system/companion.service (mode 0644)",
        "would write: /etc/udev/rules.d/99-companion-readers.rules (mode 0644)",
        "would write: /etc/udev/rules.d/99-companion-gpio.rules (mode 0644)",
        "would run: udevadm control --reload",
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
    assert not [line for line in plan if "groupadd" in line or "no running" in line or "no udev" in line]
    assert not [line for line in plan if "pip install" in line and "lgpio" in line]


def test_dry_run_on_this_machine_needs_no_root_and_skips_the_pi_parts() -> None:
    """Here (Debian 12, not a Pi): the plan runs unprivileged and says what it leaves alone."""
    unit = Path("/etc/systemd/system/companion.service")
    there = unit.exists()
    result = sh(INSTALL, "--dry-run", "--os", "trixie")
    left = "no raspi-config (plain Debian, or not a Pi): serial port and blanking left alone (docs/pi.md)"
    assert left in result.stdout
    assert "raspi-config nonint" not in result.stdout
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
    assert ("Raspberry Pi OS or Debian, Bookworm (12) or Trixie (13), expected, found 'bullseye' (use --os to insist)"
            in old.stderr)
    gpio = sh(INSTALL, "--dry-run", "--os", "trixie", "--gpio", "wiringpi", check=False)
    assert gpio.returncode == 2 and "--gpio takes auto, debian, pypi or none, not 'wiringpi'" in gpio.stderr
    if os.geteuid() != 0:
        assert "run as root" in sh(INSTALL, "--os", "bookworm", check=False).stderr


# --- issue 19: plain Debian, image builds and containers ------------------------------------------------

def test_systemd_analyze_verify_passes_on_the_first_boot_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is needed: tests/run.sh installs the systemd package"
    unit = ROOT / "systemd/companion-firstboot.service"
    text = unit.read_text().replace("/opt/companion/src/systemd/install.sh", str(INSTALL))
    assert text != unit.read_text()
    (tmp_path / "companion-firstboot.service").write_text(text)
    result = subprocess.run([analyze, "verify", str(tmp_path / "companion-firstboot.service")], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr


@pytest.mark.parametrize("release", ["bookworm", "trixie"])
def test_plain_debian_on_a_pi_gets_lgpio_from_pypi_a_gpio_group_and_its_udev_rule(tmp_path: Path,
                                                                                 release: str) -> None:
    """Debian 12/13 arm64 put on a Pi by hand: no python3-lgpio in its archive, no gpio group, no raspi-config."""
    root = fake_pi(tmp_path, release, raspi_os=False)
    plan = sh(INSTALL, "--dry-run", "--root", root).stdout.splitlines()
    assert plan[0].startswith(f"== tabletop companion: installing from {ROOT} for Debian {release}")
    apt = next(line for line in plan if "apt-get install" in line)
    assert "python3-lgpio" not in apt  # `E: Unable to locate package python3-lgpio` on Debian
    said = "GPIO: lgpio from PyPI into the virtual environment (no python3-lgpio in this system's archives)"
    assert plan.count(said) == 2  # before the packages and in the last lines
    assert "would run: /opt/companion/venv/bin/python -m pip install -q --only-binary=lgpio lgpio>=0.2" in plan
    assert any("built from its source with swig, gcc" in line for line in plan)
    # the unit's SupplementaryGroups includes gpio: without the group systemd could not start it
    assert "would run: groupadd --system gpio" in plan
    assert not [line for line in plan if line.startswith("would run: groupadd") and "gpio" not in line]
    assert "would run: raspi-config nonint do_serial_hw 0" not in plan
    sh(INSTALL, "--root", root)
    rules = (root / "etc/udev/rules.d/99-companion-gpio.rules").read_text()
    assert 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in rules


def test_gpio_can_be_chosen_by_hand(tmp_path: Path) -> None:
    root = fake_pi(tmp_path, raspi_os=False)
    debian = sh(INSTALL, "--dry-run", "--root", root, "--gpio", "debian").stdout
    assert " python3-lgpio" in next(line for line in debian.splitlines() if "apt-get install" in line)
    none = sh(INSTALL, "--dry-run", "--root", root, "--gpio", "none").stdout
    assert "GPIO: none (--gpio none): buttons, LEDs and the buzzer stay off" in none
    assert "lgpio" not in none.replace("--gpio none", "")


def image_build_plan(root: Path) -> list[str]:
    return sh(INSTALL, "--dry-run", "--root", root).stdout.splitlines()


def test_an_image_build_skips_what_needs_systemd_or_udev_and_says_so(tmp_path: Path) -> None:
    """Raspberry Pi OS in a chroot (an image build): raspi-config there, not on a Pi, nothing running."""
    root = fake_pi(tmp_path, "trixie", pi=False, booted=False, raspi_os=True)
    plan = image_build_plan(root)
    assert ("no running systemd here (an image build or a container): the units are enabled now; starting and "
            "reloading wait for the first boot") in plan
    assert ("no udev running here (an image build or a container): udevadm is skipped; udev applies the rules "
            "when it starts at boot") in plan
    assert "skipped (no udev running): udevadm control --reload; udevadm trigger (the rules apply at boot)" in plan
    assert "skipped (no running systemd): systemctl daemon-reload (systemd reads the units at boot)" in plan
    assert not [line for line in plan if line.startswith("would run:") and ("udevadm" in line or "--now" in line
                                                                            or "daemon-reload" in line)]
    # what works without them still happens: packages, the user, the program, the units enabled
    for step in ("would run: apt-get update -qq", "would run: systemctl enable companion.service",
                 "would run: systemctl disable mosquitto.service",
                 "would run: python3 -m venv --system-site-packages /opt/companion/venv"):
        assert step in plan
    # the Pi's own settings need the Pi: a unit does them at first boot
    assert "would run: raspi-config nonint do_serial_hw 0" not in plan
    assert "would write: /etc/systemd/system/companion-firstboot.service (mode 0644)" in plan
    assert "would run: systemctl enable companion-firstboot.service" in plan
    assert plan[-1] == ("at first boot: the Pi's serial port and blanking (companion-firstboot.service); "
                        "starting companion.service (it is enabled)")
    sh(INSTALL, "--root", root)
    firstboot = root / "etc/systemd/system/companion-firstboot.service"
    assert firstboot.read_bytes() == (ROOT / "systemd/companion-firstboot.service").read_bytes()
    assert (root / "etc/companion/first-boot").exists()


def test_a_container_of_plain_debian_needs_no_first_boot_unit(tmp_path: Path) -> None:
    root = fake_pi(tmp_path, "bookworm", pi=False, booted=False, raspi_os=False)
    plan = image_build_plan(root)
    assert "would write: /etc/systemd/system/companion-firstboot.service (mode 0644)" not in plan
    assert plan[-1] == "at first boot: starting companion.service (it is enabled)"


def test_the_first_boot_makes_the_pis_settings_then_disables_itself(tmp_path: Path) -> None:
    root = fake_pi(tmp_path, "bookworm", pi=True, booted=True, raspi_os=True)
    plan = sh(INSTALL, "--first-boot", "--dry-run", "--root", root).stdout.splitlines()
    assert plan == [
        f"== tabletop companion: the first boot's steps under {root} (dry run)",
        "== serial port for a PN532 (UART on GPIO14/15 as /dev/serial0, no login console on it)",
        "would run: raspi-config nonint do_serial_hw 0",
        "would run: raspi-config nonint do_serial_cons 1",
        "== screen blanking off, no desktop (the kiosk draws on the console)",
        "would run: raspi-config nonint do_blanking 1",
        "would run: systemctl set-default multi-user.target",
        "the serial port and blanking settings take effect at the next boot",
        "would run: rm -f /etc/companion/first-boot",
        "would run: systemctl disable companion-firstboot.service",
    ]


def test_uninstall_removes_the_first_boot_unit_and_the_gpio_rule(tmp_path: Path) -> None:
    root = fake_pi(tmp_path, "trixie", pi=False, booted=False, raspi_os=True)
    sh(INSTALL, "--root", root)
    assert (root / "etc/udev/rules.d/99-companion-gpio.rules").exists()
    out = sh(UNINSTALL, "--root", root).stdout
    assert "skipped (--root): systemctl disable companion-firstboot.service" in out
    assert not (root / "etc/systemd/system/companion-firstboot.service").exists()
    assert not (root / "etc/udev/rules.d/99-companion-gpio.rules").exists()
