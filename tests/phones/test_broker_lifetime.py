"""The managed Mosquitto lives and dies with its companion, and a start stops no other table's (issue 32).

A real `companion run --jsonl --no-display` stopped by SIGTERM (systemd's stop), SIGINT (Ctrl-C) or SIGHUP
(its terminal closed) leaves no Mosquitto of its own running, nor its private folder. A broker that a
companion killed outright left behind on a state directory is stopped by the next start on that state
directory, and only that one: another state directory's (another table on the same laptop, another
user's) and a broker started by anyone else keep running. With no Mosquitto installed, `companion run`
referees all the same and says once how to install it, as does `companion config check`, and the
kiosk's status bar shows it in each language. Real processes throughout; no sleeps.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from companion import config as configuration
from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.engine import build
from companion.kiosk.kiosk import Settings
from companion.phones.mosquitto import PIDFILE, ManagedMosquitto, left_behind
from companion.phones.runner import free_ports
from companion.status import MOSQUITTO_INSTALL_COMMAND, StatusBoard
from companion.table.loop import Table
from companion.wiring import start_features
from tests.kits.broker_kit import running_brokers, stray_broker
from tests.kits.fault_kit import GUARD_S, Child, Ports, child_env
from tests.kits.kiosk_fixtures import surface, text, text_cache, text_problems  # noqa: F401 (fixtures)

SETUP = {"game": "toolkit", "players": [{"id": "ana"}, {"id": "ben"}]}


def recorded(state_dir: Path) -> tuple[int, Path]:
    """The pid and config the state directory's pidfile names."""
    pid, conf = (state_dir / PIDFILE).read_text(encoding="utf-8").split("\n")[:2]
    return int(pid), Path(conf)


def runs(pid: int, conf: Path) -> bool:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[:-1]
    except OSError:
        return False
    return cmd == [b"mosquitto", b"-c", str(conf).encode()]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
def test_a_signal_to_companion_run_leaves_no_mosquitto_of_its_own_running(tmp_path: Path, signum: int) -> None:
    child = Child(tmp_path / "game.sqlite3", child_env(tmp_path, Ports.pick()), SETUP)
    try:
        child.wait_said(i18n.translate("en", "phones.broker_started", {"broker": "mosquitto", "url": "\x00"})
                        .split("\x00")[0])
        child.send({"id": "r1", "by": "host", "move": "dice.roll"})
        assert child.reply()["ok"]  # the table's loop runs: everything has started
        pid, conf = recorded(tmp_path)
        assert runs(pid, conf)
        child.proc.send_signal(signum)
        assert child.proc.wait(GUARD_S) == 0, "".join(child.console)
        assert not runs(pid, conf)  # gone with its companion
        assert not conf.parent.exists()  # and its private folder
        assert not (tmp_path / PIDFILE).exists()
        assert "Traceback" not in "".join(child.console)
    finally:
        if child.proc.poll() is None:
            child.kill()


def test_a_start_stops_only_the_broker_its_own_state_directory_left_behind(tmp_path: Path) -> None:
    ours, theirs = tmp_path / "table-a", tmp_path / "table-b"
    ours.mkdir()
    theirs.mkdir()
    port, *others = free_ports(6)  # all different: one after another, the kernel may give a port twice
    left = stray_broker(port, ours / PIDFILE)  # this state directory's companion was killed: its broker runs on
    other_table = stray_broker(others[0], theirs / PIDFILE)  # another table on the same machine
    someone_elses = stray_broker(others[1])  # a companion broker nobody's pidfile here names
    unrelated = subprocess.Popen(["cat"], stdin=subprocess.PIPE)  # a pid a stale pidfile might name
    stale = tmp_path / "table-c" / PIDFILE
    stale.parent.mkdir()
    stale.write_text(f"{unrelated.pid}\n{other_table.conf}\n", encoding="utf-8")  # and a folder in use
    broker = ManagedMosquitto("companion", "127.0.0.1", port, others[2], "referee-secret", pidfile=ours / PIDFILE)
    other = ManagedMosquitto("companion", "127.0.0.1", others[3], others[4], "referee-secret", pidfile=stale)
    try:
        assert left_behind(ours / PIDFILE) == left.pid
        assert left_behind(stale) is None  # a reused pid is never taken for a broker
        broker.start()  # "Address already in use" if the one left behind still held the port
        other.start()
        assert not left.alive() and not left.folder.exists()
        assert other_table.alive() and someone_elses.alive()  # left alone
        assert other_table.folder.exists() and someone_elses.folder.exists()
        assert unrelated.poll() is None
        assert recorded(ours) == (broker._proc.pid if broker._proc else -1, broker._dir / "mosquitto.conf"
                                  if broker._dir else Path())
        assert left_behind(ours / PIDFILE) is None  # our own child is no broker left behind
    finally:
        broker.close()
        other.close()
        for stray in (left, other_table, someone_elses):
            stray.stop()
        unrelated.kill()
        unrelated.wait()
    assert not (ours / PIDFILE).exists()  # a clean stop forgets it


def test_a_killed_companion_leaves_its_broker_and_the_next_start_stops_it(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: the broker outlives its companion. The next `companion run` on the same
    state directory stops it (its ports are needed) and starts its own."""
    ports = Ports.pick()
    env = child_env(tmp_path, ports)
    first = Child(tmp_path / "game.sqlite3", env, SETUP)
    try:
        first.send({"id": "r1", "by": "host", "move": "dice.roll"})
        assert first.reply()["ok"]
        pid, conf = recorded(tmp_path)
        first.kill()
        assert runs(pid, conf)  # left behind, on the ports
        second = Child(tmp_path / "game.sqlite3", env, SETUP)
        try:
            second.send({"id": "r2", "by": "host", "move": "dice.roll"})
            assert second.reply()["ok"]
            second.wait_said("Phones: the mosquitto MQTT broker is running")  # on the same ports again
            assert not runs(pid, conf) and not conf.parent.exists()
            assert second.finish() == 0
        finally:
            if second.proc.poll() is None:
                second.kill()
    finally:
        with contextlib.suppress(OSError, ValueError):  # the test's own clean-up if it failed half-way
            pid, conf = recorded(tmp_path)
            if runs(pid, conf):
                subprocess.run(["kill", str(pid)], check=False)
    assert not [p for p in running_brokers() if runs(p, conf)]


# -- no Mosquitto installed -------------------------------------------------------------------------------

def no_mosquitto_env(tmp_path: Path) -> dict[str, str]:
    """A PATH where no program is found, so neither is Mosquitto (the companion needs none other)."""
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    return {**child_env(tmp_path, Ports.pick()), "PATH": str(empty)}


def test_without_mosquitto_companion_run_referees_and_says_once_how_to_install_it(tmp_path: Path) -> None:
    child = Child(tmp_path / "game.sqlite3", no_mosquitto_env(tmp_path), SETUP)
    try:
        child.send({"id": "r1", "by": "host", "move": "dice.roll"})
        assert child.reply()["ok"]  # the table is refereed without phones
        assert child.finish() == 0
    finally:
        if child.proc.poll() is None:
            child.kill()
    said = "".join(child.console)
    told = i18n.translate("en", "phones.mosquitto_missing", {"command": MOSQUITTO_INSTALL_COMMAND})
    assert said.count(told) == 1 and "sudo apt install mosquitto" in told, said
    assert said.count("sudo apt install mosquitto") == 1
    assert not (tmp_path / PIDFILE).exists()


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_config_check_says_how_to_install_mosquitto_and_passes(tmp_path: Path, lang: str) -> None:
    env = {"PATH": no_mosquitto_env(tmp_path)["PATH"], "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
           "COMPANION_TABLE__LANGUAGE": lang}  # the default config: `auto` means the managed Mosquitto
    result = subprocess.run([sys.executable, "-m", "companion", "config", "check"], env=env, capture_output=True,
                            text=True, timeout=GUARD_S, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    told = i18n.translate(lang, "phones.mosquitto_missing", {"command": MOSQUITTO_INSTALL_COMMAND})
    assert result.stderr.strip() == told
    assert json.loads(result.stdout[result.stdout.index("{"):])["mqtt"]["broker"] == "auto"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_kiosks_status_bar_says_how_to_install_mosquitto(tmp_path: Path, text: TextCache,  # noqa: F811
                                                             lang: str, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PATH", no_mosquitto_env(tmp_path)["PATH"])  # this machine, without Mosquitto
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=1)
    table = Table(Referee.start(registry(), EventLog(tmp_path / "g.sqlite3"), setup, created_at=0))
    status = StatusBoard()
    cfg = configuration.load(flags={"storage.path": str(tmp_path / "g.sqlite3"), "readers.devices": [],
                                    "table.language": lang, "mqtt.port": 0, "mqtt.ws_port": 0},
                             env={}, system_path=None, user_path=None)
    kiosk = build(surface("800x480"), table, registry(), Settings(lang=lang, attract=False), status, text=text)
    started = start_features(table, cfg, status)
    try:
        assert started.running() == []  # no phones, and nothing left running
        assert [(s.kind, s.name, s.state) for s in status.snapshot()] == [("broker", "mosquitto", "missing")]
        kiosk.render()
        shot = tmp_path / f"status-{lang}.png"
        pygame.image.save(kiosk.surface, str(shot))
        words = i18n.translate(lang, "kiosk.device.broker_missing", {"command": MOSQUITTO_INSTALL_COMMAND})
        drawn = [d for d in (text.record or []) if d.text == words]
        assert drawn, [d.text for d in text.record or []]
        assert text_problems(drawn) == []  # whole, in its box, legible
        assert drawn[0].rect.height >= 14  # text >= 14 px on the 7" panel
        err = capsys.readouterr().err
        assert err.count(i18n.translate(lang, "phones.mosquitto_missing", {"command": MOSQUITTO_INSTALL_COMMAND})) == 1
    finally:
        started.stop()
        kiosk.close()
        table.referee.log.close()
