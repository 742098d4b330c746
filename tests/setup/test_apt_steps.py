"""How the README's two commands install Debian packages (systemd/apt-steps.sh, issue 32): while another
package manager holds dpkg's lock (another apt, unattended-upgrades on a Pi's first boot) a step says so
once, in words, and waits for it instead of failing with apt's raw error; when the lock stays held past
the wait, it says what to do; apt's own lines go to a log in the companion's state directory.

This is the real apt-get, pointed by APT_CONFIG at an administrative directory of the test's own (a
status file with one installed package, no sources): it locks that directory's `lock-frontend`, never this
machine's, and installs nothing. The test holds the lock as dpkg and apt do (a POSIX `lockf` lock).
"""

from __future__ import annotations

import fcntl
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from tests.kits.output_lines import OutputLines

ROOT = Path(__file__).resolve().parents[2]
PROBE = "companion-lock-probe"  # a package only the test's status file knows, installed
DEADLINE_S = 120


def apt_root(tmp: Path) -> dict[str, str]:
    """An apt configuration of the test's own; the environment that points apt-get at it."""
    admin = tmp / "dpkg"
    for folder in (admin / "updates", admin / "info", tmp / "lists/partial", tmp / "cache/archives/partial",
                   tmp / "etc/parts"):
        folder.mkdir(parents=True, exist_ok=True)
    (admin / "status").write_text(
        f"Package: {PROBE}\nStatus: install ok installed\nPriority: optional\nSection: misc\n"
        "Maintainer: nobody <nobody@example.invalid>\nArchitecture: all\nVersion: 1.0\n"
        "Description: a package only this test's status file knows\n")
    (tmp / "etc/sources.list").write_text("")
    conf = tmp / "apt.conf"
    conf.write_text("".join(f'{key} "{value}";\n' for key, value in {
        "Dir::State::status": admin / "status", "Dir::State::lists": tmp / "lists", "Dir::Cache": tmp / "cache",
        "Dir::Etc::sourcelist": tmp / "etc/sources.list", "Dir::Etc::sourceparts": tmp / "etc/parts",
        "Dir::Etc::preferencesparts": tmp / "etc/parts", "Dir::Log": tmp / "log",
    }.items()) + f'DPkg::Options:: "--admindir={admin}";\n')
    return {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": str(tmp / "home"),
        "XDG_STATE_HOME": str(tmp / "state"),
        "APT_CONFIG": str(conf),
        "LANG": "C.UTF-8",
    }


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    if os.geteuid() != 0:  # apt_step runs apt-get as root (or through sudo)
        if os.environ.get("CI"):
            pytest.fail("apt-get as root is needed: CI runs as root")
        pytest.skip("needs root: the steps run apt-get as root")
    return apt_root(tmp_path)


class Lock:
    """dpkg's frontend lock of the test's apt root, held as apt and dpkg hold it."""

    def __init__(self, env: dict[str, str]) -> None:
        self.path = Path(env["APT_CONFIG"]).parent / "dpkg/lock-frontend"
        self.file: IO[str] | None = None

    def hold(self) -> None:
        self.file = self.path.open("w")
        fcntl.lockf(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def release(self) -> None:
        assert self.file is not None
        fcntl.lockf(self.file, fcntl.LOCK_UN)
        self.file.close()
        self.file = None


@pytest.fixture
def lock(env: dict[str, str]) -> Iterator[Lock]:
    held = Lock(env)
    yield held
    if held.file is not None:
        held.release()


class Step:
    """`apt_step` from systemd/apt-steps.sh in a bash of its own, its lines read as they come."""

    def __init__(self, env: dict[str, str], wait_s: int, *apt_args: str) -> None:
        script = ('apt_who=run-here.sh; . systemd/apt-steps.sh; '
                  'apt_step "installing Debian packages (as root): probe" "$@"')
        self.process = subprocess.Popen(
            ["bash", "-c", script, "bash", *apt_args], cwd=ROOT, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**env, "COMPANION_APT_WAIT": str(wait_s)})
        assert self.process.stdout is not None
        self.output = OutputLines(self.process.stdout, DEADLINE_S)
        self.seen = self.output.said

    def wait_for(self, words: str) -> str:
        """The first line holding `words` (an overall deadline)."""
        return self.output.wait_for(words)

    def finish(self) -> int:
        code = self.process.wait(timeout=DEADLINE_S)
        self.output.rest()
        return code


def install_log(env: dict[str, str]) -> Path:
    return Path(env["XDG_STATE_HOME"]) / "companion/install.log"


def test_a_step_waits_for_another_package_manager_and_says_so_once(env: dict[str, str], lock: Lock) -> None:
    lock.hold()  # another apt is installing
    step = Step(env, 600, "install", "-y", "-q", PROBE)
    said = step.wait_for("another package manager is installing")
    assert f"held by process {os.getpid()}" in said  # apt's words naming who holds it
    assert "waiting for it to finish, up to 10 min" in said
    assert step.process.poll() is None  # it waits, it did not fail
    lock.release()  # the other apt finished
    assert step.finish() == 0, step.seen
    assert sum("another package manager" in line for line in step.seen) == 1  # said once
    assert not [line for line in step.seen if line.startswith(("E:", "W:"))]  # no raw apt error
    assert f"{PROBE} is already the newest version" in install_log(env).read_text()  # apt's lines: the log


def test_a_lock_held_past_the_wait_ends_the_step_with_what_to_do(env: dict[str, str], lock: Lock) -> None:
    lock.hold()
    step = Step(env, 2, "install", "-y", "-q", PROBE)
    assert step.finish() == 1
    said = "\n".join(step.seen)
    assert "another package manager is installing" in said
    assert "another package manager still held dpkg's lock after 2 s" in said and "then start again" in said
    assert f"all of it is in {install_log(env)}" in said
    assert "Unable to acquire the dpkg frontend lock" in install_log(env).read_text()


def test_a_free_lock_is_one_line_and_apts_output_goes_to_the_log(env: dict[str, str]) -> None:
    step = Step(env, 600, "install", "-y", "-q", PROBE)
    assert step.finish() == 0
    assert step.seen == [f"run-here.sh: installing Debian packages (as root): probe (apt's output goes to "
                         f"{install_log(env)})"]
    log = install_log(env).read_text()
    assert f"apt-get install -y -q {PROBE}" in log and "is already the newest version" in log
