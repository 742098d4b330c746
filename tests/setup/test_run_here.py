"""`bash systemd/run-here.sh`, the README's run command (issue 21): it installs once and then starts with
no network, asking neither pip nor npm; it installs again only when a file that matters changes; every
`companion run` option passes through, `--config` too; `--help` explains run-here, then shows
`companion run --help`; it installs Debian's Mosquitto and takes port 1883 back from Debian's own
`mosquitto.service`, so the companion's managed Mosquitto starts (only where systemd runs: in a
container it installs and starts all the same); without Mosquitto the table runs without phones and
says how to install it; without root or sudo it says which packages it needs and why.

The installers are stand-ins on PATH that record what they are asked (a test sends no traffic and
installs no Debian package): pip (the venv's python), npm, apt-get, dpkg-query, systemctl and
systemd-notify (`--booted`: systemd runs, unless the test says it does not). "Debian's
mosquitto.service" is a real Mosquitto with Debian's default listener (local only, port 1883), started
by the stand-in apt-get as the package's install does. The companion behind run-here is this
checkout's, started for real with its real brokers, in a network namespace of its own (`unshare -n`):
no network at all, and ports 1883 and 9001 that nothing else on this machine holds.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "systemd/run-here.sh"
# What run-here reads: its own script, the Python project, the phone page's npm project.
COPIED = ["systemd/run-here.sh", "systemd/apt-steps.sh", "pyproject.toml", "companion/phones/web/package.json",
          "companion/phones/web/package-lock.json"]
DEBIAN = ["python3-venv", "fonts-noto-core", "fonts-noto-cjk", "fonts-thai-tlwg", "icu-devtools", "mosquitto"]
STARTED = ("new game #", "resumed where it stopped")  # the table's start-up line (en)
TIMEOUT_S = 120


@functools.cache
def network_namespaces() -> bool:
    """`unshare -n` works here (root, or a kernel that lets this user make one)."""
    try:
        return subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def needs_namespace() -> None:
    if not network_namespaces():
        if os.environ.get("CI"):  # in CI a missing part is a failure, never a skip
            pytest.fail("`unshare -n` does not work here: CI runs as root and needs it")
        pytest.skip("needs `unshare -n` (run as root): the proof of no network, and a private port 1883")


def program(name: str) -> str:
    found = shutil.which(name, path="/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin")
    assert found, f"{name} is needed (tests/run.sh installs it)"
    return found


def write_script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)


@dataclass
class Checkout:
    """A copy of the files run-here reads, with the stand-in installers on PATH."""

    root: Path
    fake: Path  # the stand-ins' records: calls, installed packages, Debian's broker
    home: Path
    sbin: bool = True  # /usr/sbin on PATH (Mosquitto lives there)
    path: list[str] | None = None  # the whole PATH after the stand-ins (None: the usual directories)

    @property
    def script(self) -> Path:
        return self.root / "systemd/run-here.sh"

    def calls(self) -> list[str]:
        log = self.fake / "calls"
        return log.read_text().splitlines() if log.exists() else []

    def installed(self, *packages: str) -> None:
        with (self.fake / "installed").open("a") as fh:
            fh.writelines(f"{p}\n" for p in packages)

    def env(self) -> dict[str, str]:
        path = [str(self.fake / "bin"), *(self.path or ["/usr/local/bin", "/usr/bin", "/bin"])]
        path += ["/usr/sbin", "/sbin"] if self.sbin and self.path is None else []
        return {
            "PATH": ":".join(path),
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_STATE_HOME": str(self.home / ".local/state"),
            "PYTHONPATH": str(ROOT),  # the stand-in pip's `companion` runs this checkout's package
            "LANG": "C.UTF-8",
        }

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """run-here as a user starts it, in a network namespace with only a loopback when there can be one;
        stdin is empty, so the table stops once it has started."""
        command = ["bash", str(self.script), *args]
        if network_namespaces():
            command = ["unshare", "-n", "sh", "-c", f'{program("ip")} link set lo up && exec "$@"', "sh", *command]
        else:  # ports of their own on this shared machine
            user = self.home / ".config/companion/config.toml"
            user.parent.mkdir(parents=True, exist_ok=True)
            user.write_text("[mqtt]\nport = 0\nws_port = 0\npage_port = 0\n")
        return subprocess.run(command, cwd=self.home, env=self.env(), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=TIMEOUT_S)

    def install_log(self) -> Path:
        """Where run-here keeps apt's, pip's and npm's output: the companion's state directory."""
        return self.home / ".local/state/companion/install.log"

    def debian_broker_pid(self) -> int | None:
        pid = self.fake / "mosquitto.service.pid"
        return int(pid.read_text()) if pid.exists() else None


@pytest.fixture
def checkout(tmp_path: Path) -> Iterator[Checkout]:
    root, fake, home = tmp_path / "checkout", tmp_path / "fake", tmp_path / "home"
    for name in COPIED:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, root / name)
    home.mkdir()
    calls, installed = fake / "calls", fake / "installed"
    bin_dir = fake / "bin"
    # The venv's python: records `-m pip ...`; `pip install -e .` leaves the `companion` console script,
    # as pip writes it, for this interpreter (which has the project's dependencies).
    console_script = f"#!{sys.executable}\nimport sys\nfrom companion.cli import main\nsys.exit(main())\n"
    write_script(fake / "venv-python", f"""#!/bin/sh
if [ "$1" = -m ] && [ "$2" = pip ]; then
  shift 2
  echo "pip $*" >> {calls}
  case " $* " in *" -e . "*) printf '%s' '{console_script}' > .venv/bin/companion; chmod 755 .venv/bin/companion;; esac
  exit 0
fi
exec {sys.executable} "$@"
""")
    write_script(bin_dir / "python3", f"""#!/bin/sh
if [ "$1" = -m ] && [ "$2" = venv ]; then
  echo "python3 $*" >> {calls}
  mkdir -p "$3/bin" && cp {fake / "venv-python"} "$3/bin/python"
  exit 0
fi
exec /usr/bin/python3 "$@"
""")
    write_script(bin_dir / "npm", f"""#!/bin/sh
echo "npm $* (in $PWD)" >> {calls}
if [ "$1" = ci ]; then mkdir -p node_modules/mqtt/dist && echo '/* mqtt */' > node_modules/mqtt/dist/mqtt.min.js; fi
""")
    write_script(bin_dir / "dpkg-query", f"""#!/bin/sh
for pkg; do :; done
if grep -qx "$pkg" {installed}; then printf 'install ok installed'; exit 0; fi
echo "dpkg-query: no packages found matching $pkg" >&2
exit 1
""")
    # apt-get installs all or nothing; installing mosquitto starts Debian's mosquitto.service, as the
    # package does: a broker with Debian's default listener (local only, port 1883).
    service_pid, service_log = fake / "mosquitto.service.pid", fake / "mosquitto.service.log"
    active = fake / "mosquitto.service.active"
    (fake / "debian-mosquitto.conf").write_text("log_dest stderr\n")
    # It prints what apt prints (a line per package), which run-here keeps in its log.
    write_script(bin_dir / "apt-get", f"""#!/bin/bash
echo "apt-get $*" >> {calls}
packages=()
while [ $# -gt 0 ]; do
  case "$1" in -o) shift 2; continue;; -*|install|update) ;; *) packages+=("$1");; esac
  shift
done
[ ${{#packages[@]}} -eq 0 ] && exit 0  # apt-get update, or the lock's probe
touch {fake / "unavailable"}
for arg in "${{packages[@]}}"; do
  if grep -qx "$arg" {fake / "unavailable"}; then echo "E: Unable to locate package $arg" >&2; exit 100; fi
done
for arg in "${{packages[@]}}"; do
  echo "Unpacking $arg (1.0) ..."
  echo "$arg" >> {installed}
  if [ "$arg" = mosquitto ]; then
    setsid {program("mosquitto")} -c {fake / "debian-mosquitto.conf"} >{service_log} 2>&1 </dev/null &
    echo $! > {service_pid}
    touch {active}
    until grep -q "mosquitto version .* running" {service_log}; do sleep 0.02; done
  fi
done
""")
    write_script(bin_dir / "systemctl", f"""#!/bin/sh
echo "systemctl $*" >> {calls}
case "$*" in
  *is-active*mosquitto.service*|*is-enabled*mosquitto.service*) [ -f {active} ]; exit $?;;
  "disable --now mosquitto.service")
    rm -f {active}
    if [ -f {service_pid} ]; then
      kill "$(cat {service_pid})" && rm {service_pid}
      while {program("ss")} -Hltn 'sport = :1883' | grep -q .; do sleep 0.02; done
    fi;;
esac
exit 0
""")
    write_script(bin_dir / "sudo", '#!/bin/sh\nexec "$@"\n')
    write_script(bin_dir / "systemd-notify", f'#!/bin/sh\n[ "$1" = --booted ] && [ ! -f {fake / "no-systemd"} ]\n')
    made = Checkout(root, fake, home)
    made.installed(*DEBIAN)
    yield made
    pid = made.debian_broker_pid()
    if pid is not None and pid > 1:  # the broker this test's apt-get started
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 15)


def started(result: subprocess.CompletedProcess[str]) -> bool:
    return result.returncode == 0 and any(line in result.stdout for line in STARTED)


def apt_installed(call: str, package: str) -> bool:
    """An `apt-get ... install ... PACKAGE` call."""
    return call.startswith("apt-get ") and " install " in call and call.endswith(f" {package}")


def installer_calls(calls: list[str]) -> list[str]:
    return [c for c in calls if c.startswith(("pip ", "npm ", "python3 ", "apt-get "))]


# --- once, then offline -------------------------------------------------------------------------------

def test_the_first_start_installs_and_the_next_start_asks_no_installer_and_needs_no_network(
        checkout: Checkout) -> None:
    first = checkout.run("--no-display")
    assert started(first), first.stdout + first.stderr
    # the install log's folder is the companion's state directory, made private as the companion makes it
    assert checkout.install_log().exists()
    assert "Other users had access" not in first.stdout + first.stderr
    calls = installer_calls(checkout.calls())
    assert "python3 -m venv .venv" in calls
    assert any(c.startswith("pip install") and c.endswith("-e .") for c in calls), calls
    assert any(c.startswith("npm ci") and c.endswith("/companion/phones/web)") for c in calls), calls
    assert not [c for c in calls if c.startswith("apt-get")]  # every Debian package was there

    needs_namespace()
    before = checkout.calls()
    second = checkout.run("--no-display")  # in a network namespace: there is no network to use
    assert started(second), second.stdout + second.stderr
    assert "resumed where it stopped" in second.stdout
    assert installer_calls(checkout.calls()[len(before):]) == []
    assert "run-here.sh:" not in second.stdout + second.stderr  # a quiet start: nothing to install or say


def test_a_change_to_a_file_that_matters_or_reinstall_installs_again(checkout: Checkout) -> None:
    assert started(checkout.run("--no-display"))
    for change in ("pyproject.toml", "companion/phones/web/package-lock.json", "--reinstall"):
        before = len(checkout.calls())
        if change.startswith("--"):
            result = checkout.run(change, "--no-display")
        else:
            path = checkout.root / change
            path.write_text(path.read_text() + "\n")
            result = checkout.run("--no-display")
        assert started(result), result.stdout + result.stderr
        again = installer_calls(checkout.calls()[before:])
        assert any(c.startswith("pip install") for c in again), (change, again)
        assert any(c.startswith("npm ci") for c in again), (change, again)
        assert "python3 -m venv .venv" not in again  # the venv stays
        before = len(checkout.calls())
        assert started(checkout.run("--no-display"))
        assert installer_calls(checkout.calls()[before:]) == [], change


def test_a_lost_companion_or_phone_client_is_installed_again(checkout: Checkout) -> None:
    assert started(checkout.run("--no-display"))
    for lost, installer in (("companion/phones/web/node_modules", "npm ci"), (".venv/bin/companion", "pip install")):
        path = checkout.root / lost
        shutil.rmtree(path) if path.is_dir() else path.unlink()
        before = len(checkout.calls())
        assert started(checkout.run("--no-display"))
        assert any(c.startswith(installer) for c in installer_calls(checkout.calls()[before:])), lost


# --- options and help ---------------------------------------------------------------------------------

def test_config_and_the_other_run_options_pass_through(checkout: Checkout, tmp_path: Path) -> None:
    log = tmp_path / "night" / "game.sqlite3"
    cfg = tmp_path / "night.toml"
    cfg.write_text(f'[table]\nlanguage = "zh"\n[storage]\npath = "{log}"\n', encoding="utf-8")
    result = checkout.run("--config", str(cfg), "--no-display", "--game", "lockdown", "--players", "ana,ben",
                          "--option", "items=physical")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "禁闭逃杀：新游戏 #1，玩家：ana, ben" in result.stdout  # the start-up line in the config's language
    assert log.exists()  # the config's log
    same = checkout.run(f"--config={cfg}", "--no-display")
    assert same.returncode == 0 and str(log) in same.stdout, same.stdout + same.stderr


def test_help_explains_run_here_then_shows_companion_runs_help(checkout: Checkout) -> None:
    assert started(checkout.run("--no-display"))
    before = len(checkout.calls())
    result = checkout.run("--help")
    assert result.returncode == 0, result.stderr
    ours, _, theirs = result.stdout.partition("Usage: companion run")
    assert "installs" in ours and "--reinstall" in ours and "Mosquitto" in ours
    for option in ("--config", "--game", "--option", "--players", "--no-display"):
        assert option in theirs
    assert not any(line in result.stdout for line in STARTED)  # help starts no table
    assert installer_calls(checkout.calls()[before:]) == []


def test_help_before_the_first_start_shows_the_run_options_and_installs_nothing(checkout: Checkout) -> None:
    result = checkout.run("-h")
    assert result.returncode == 0, result.stderr
    assert "--reinstall" in result.stdout and "companion run --help" in result.stdout
    for option in companion_run_options():  # every option of `companion run`, before anything is installed
        assert f"  {option}" in result.stdout, option
    assert "root" in result.stdout  # who needs root: the Debian packages
    assert installer_calls(checkout.calls()) == []


def companion_run_options() -> list[str]:
    """The options `companion run --help` lists (from click itself), but --help."""
    import click

    from companion.cli import run

    with click.Context(run) as ctx:
        return [opt for p in run.get_params(ctx) for opt in p.opts if opt.startswith("--") and opt != "--help"]


# --- Mosquitto ----------------------------------------------------------------------------------------

def test_run_here_installs_mosquitto_and_takes_port_1883_back_from_debians_service(checkout: Checkout) -> None:
    needs_namespace()
    (checkout.fake / "installed").write_text("".join(f"{p}\n" for p in DEBIAN if p != "mosquitto"))
    result = checkout.run("--no-display")
    assert started(result), result.stdout + result.stderr
    calls = checkout.calls()
    assert any(apt_installed(c, "mosquitto") for c in calls), calls
    assert "systemctl disable --now mosquitto.service" in calls
    assert checkout.debian_broker_pid() is None  # Debian's service was stopped ...
    assert "Phones: the mosquitto MQTT broker is running" in result.stderr  # ... and ours took the port
    assert "mosquitto.service" in result.stdout  # run-here said what it did
    # apt's lines went to the log; the console has one line per step and where the log is
    assert "Unpacking mosquitto" in checkout.install_log().read_text()
    assert "Unpacking" not in result.stdout + result.stderr
    assert f"run-here.sh: updating Debian's package lists (apt's output goes to {checkout.install_log()})\n" \
           "run-here.sh: installing Mosquitto, the phones' broker\n" in result.stdout

    before = len(checkout.calls())
    assert started(checkout.run("--no-display"))
    assert not [c for c in checkout.calls()[before:] if "disable" in c]  # once, when it installed it


def test_a_mosquitto_service_run_here_did_not_install_is_left_alone_and_named(checkout: Checkout) -> None:
    (checkout.fake / "mosquitto.service.active").touch()  # the host's own broker service is running
    result = checkout.run("--no-display")
    assert result.returncode == 0, result.stderr
    assert not [c for c in checkout.calls() if c.startswith("systemctl disable")]
    assert "mosquitto.service" in result.stderr and "1883" in result.stderr  # what holds the port, and why


def test_where_mosquitto_cannot_be_installed_the_table_runs_without_phones_and_says_how_to_install_it(
        checkout: Checkout) -> None:
    (checkout.fake / "installed").write_text("".join(f"{p}\n" for p in DEBIAN if p != "mosquitto"))
    (checkout.fake / "unavailable").write_text("mosquitto\n")
    checkout.sbin = False  # no mosquitto program on PATH
    result = checkout.run("--no-display")
    assert started(result), result.stdout + result.stderr
    assert "Mosquitto could not be installed: the table runs without phones" in result.stdout  # run-here said why
    # apt's own words and where all of them are
    assert "E: Unable to locate package mosquitto" in result.stderr
    assert f"all of it is in {checkout.install_log()}" in result.stderr
    assert result.stderr.count("sudo apt install mosquitto") == 1  # the companion: how, once
    before = len(checkout.calls())
    assert started(checkout.run("--no-display"))
    assert installer_calls(checkout.calls()[before:]) == []  # and does not try again at every start


def test_without_systemd_the_first_start_installs_mosquitto_and_starts_the_table(checkout: Checkout) -> None:
    """A container or WSL without systemd: no service was started and systemctl could not stop one, so
    run-here does not ask it and goes on to start the table (it used to stop there)."""
    needs_namespace()
    (checkout.fake / "no-systemd").touch()
    (checkout.fake / "installed").write_text("".join(f"{p}\n" for p in DEBIAN if p != "mosquitto"))
    result = checkout.run("--no-display")
    assert started(result), result.stdout + result.stderr
    calls = checkout.calls()
    assert any(apt_installed(c, "mosquitto") for c in calls), calls
    assert not [c for c in calls if c.startswith("systemctl")]


def test_without_root_or_sudo_it_says_which_packages_it_needs_and_installs_nothing(
        checkout: Checkout, tmp_path: Path) -> None:
    """Not root and no sudo: the packages and the way out, not "sudo: command not found" followed by a
    misleading "apt-get update failed". PATH holds only the programs run-here uses before installing,
    so a sudo installed on this machine stays out of it."""
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in ("bash", "sh", "unshare", "dirname", "cat", "sha256sum", "cut", "grep"):
        (tools / name).symlink_to(program(name))
    (checkout.fake / "bin" / "sudo").unlink()
    write_script(checkout.fake / "bin" / "id", '#!/bin/sh\necho 1000\n')  # a user, not root
    checkout.path = [str(tools)]
    (checkout.fake / "installed").write_text("".join(f"{p}\n" for p in DEBIAN if p != "fonts-noto-cjk"))
    result = checkout.run("--no-display")
    assert result.returncode == 1
    assert "these Debian packages are missing: fonts-noto-cjk" in result.stderr
    assert "needs root: run run-here.sh as root, or install sudo" in result.stderr
    assert "apt-get update failed" not in result.stdout + result.stderr
    assert installer_calls(checkout.calls()) == []
