"""A Pi with no screen (issue 19): `companion run` as companion.service starts it (kmsdrm asked for by
the unit and the installed config, standard input /dev/null, systemd's notify socket and watchdog)
runs the table, the readers and the phones headless instead of failing and being restarted until
systemd gives up. It says so in its log (the journal) and to systemd, and the phones are told too.

The child is a real `companion run` process; systemd's side is a real datagram socket the test
listens on (what systemd reads READY=1 and WATCHDOG=1 from); phones are real MQTT clients and real
headless Chromium on a real broker. No sleeps: every wait is on a socket, a pipe or a queue."""

from __future__ import annotations

import glob
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from companion import config, i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.kiosk.detect import ScreenChoice, drm_connected, screen_choice
from companion.phones.runner import start_phones
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import Table
from tests.kits.fault_kit import Ports, child_env, player_phone
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, serving
from tests.kits.phones_kit import Running

GUARD_S = 60.0  # only a guard against a hang; no timing is asserted
UNIT = Path(__file__).resolve().parents[2] / "systemd/companion.service"


def cfg(**display: object) -> config.Config:
    return config.load(flags={f"display.{k}": v for k, v in display.items()}, system_path=None, user_path=None,
                       env={})


# --- the choice ---------------------------------------------------------------------------------------

def test_kmsdrm_without_a_connected_screen_is_headless_not_a_crash() -> None:
    service = {"SDL_VIDEODRIVER": "kmsdrm"}  # the unit's environment
    choice = screen_choice(cfg(driver="kmsdrm"), service, machine_mode=False, drm=False)
    assert choice.driver is None and "kmsdrm" in choice.headless and "no screen" in choice.headless
    assert screen_choice(cfg(driver="kmsdrm"), service, machine_mode=False, drm=True) == ScreenChoice("kmsdrm")
    # a screen plugged in is used; `enabled = true` insists (and fails loudly if there is none)
    insisted = screen_choice(cfg(enabled=True, driver="kmsdrm"), {}, machine_mode=False, drm=False)
    assert insisted == ScreenChoice("kmsdrm")
    # no screen asked for and none there: the console, as on a laptop's terminal (not "headless")
    assert screen_choice(cfg(), {}, machine_mode=False, drm=False) == ScreenChoice(None)
    assert screen_choice(cfg(enabled=False), service, machine_mode=False, drm=False) == ScreenChoice(None)


def test_only_a_connected_output_counts_as_a_screen(tmp_path: Path) -> None:
    """What the Pi's kernel shows in /sys/class/drm: HDMI unplugged, composite and writeback 'unknown'."""
    drm = tmp_path / "drm"
    for name, state in (("card1-HDMI-A-1", "disconnected"), ("card1-HDMI-A-2", "disconnected"),
                        ("card1-Composite-1", "unknown"), ("card1-Writeback-1", "unknown")):
        (drm / name).mkdir(parents=True)
        (drm / name / "status").write_text(state + "\n")
    (drm / "card0").mkdir()  # a render-only card (v3d) has no outputs
    assert not drm_connected(drm)
    (drm / "card1-DSI-1").mkdir()
    (drm / "card1-DSI-1" / "status").write_text("connected\n")  # the official 7" touchscreen
    assert drm_connected(drm)
    assert not drm_connected(tmp_path / "nothing-here")  # a container, a VM without a GPU


# --- the service on a Pi with no screen ------------------------------------------------------------------

class Systemd:
    """The notify socket systemd gives a Type=notify service: each datagram lands in a queue with the
    sender's PID (SCM_CREDENTIALS), since the unit's NotifyAccess=main takes only the main process's."""

    def __init__(self) -> None:
        # like systemd's /run/systemd/notify: any process may write to it (Mosquitto drops to its own user)
        self.folder = Path(tempfile.mkdtemp(prefix="notify-"))
        self.folder.chmod(0o755)
        self.path = self.folder / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.sock.bind(str(self.path))
        self.path.chmod(0o777)
        self.sock.settimeout(GUARD_S)
        self.messages: queue.Queue[tuple[int, dict[str, str]]] = queue.Queue()
        self.main_pid = 0
        self.foreign: list[tuple[int, dict[str, str]]] = []  # what systemd would refuse from other processes
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                data, ancillary, _, _ = self.sock.recvmsg(4096, socket.CMSG_SPACE(12))
            except OSError:
                return
            pid = next((int.from_bytes(d[:4], sys.byteorder) for level, kind, d in ancillary
                        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS), 0)
            self.messages.put((pid, dict(line.split("=", 1) for line in data.decode().splitlines() if "=" in line)))

    def next_with(self, key: str) -> dict[str, str]:
        """The next message holding `key` from the main process (others are kept in `foreign`)."""
        while True:
            pid, msg = self.messages.get(timeout=GUARD_S)
            if pid != self.main_pid:
                self.foreign.append((pid, msg))
            elif key in msg:
                return msg

    def close(self) -> None:
        self.sock.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def service_env(tmp_path: Path, ports: Ports, notify: Path, **extra: str) -> dict[str, str]:
    """What companion.service gives `companion run`, with the installed config's [display] and a short
    watchdog (2 s: fed every second)."""
    unit = dict(line.removeprefix("Environment=").split("=", 1) for line in UNIT.read_text().splitlines()
                if line.startswith("Environment="))
    env = child_env(tmp_path, ports, **{k: v for k, v in unit.items() if k.startswith(("SDL_", "PYTHON"))})
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return {**env, "COMPANION_DISPLAY__DRIVER": "kmsdrm", "COMPANION_DISPLAY__FULLSCREEN": "true",
            "SDL_AUDIODRIVER": "dummy", "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "NOTIFY_SOCKET": str(notify), "WATCHDOG_USEC": "2000000", **extra}


def start(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    child = subprocess.Popen([sys.executable, "-m", "companion", "run", "--db", str(tmp_path / "game.sqlite3"),
                              "--players", "ana,ben"], env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return child, lines


def said(lines: queue.Queue[str], text: str) -> str:
    while True:
        line = lines.get(timeout=GUARD_S)
        if text in line:
            return line


def stop(child: subprocess.Popen[str]) -> int:
    """systemctl stop: SIGINT (the unit's KillSignal)."""
    if child.poll() is None:
        child.send_signal(signal.SIGINT)
    try:
        return child.wait(GUARD_S)
    finally:
        if child.poll() is None:
            child.kill()


def has_a_screen() -> bool:
    return any(Path(p).read_text().strip() == "connected" for p in glob.glob("/sys/class/drm/card*-*/status"))


def test_the_service_on_a_pi_with_no_screen_runs_headless_and_answers_phones(tmp_path: Path) -> None:
    if has_a_screen():
        pytest.skip("this machine has a screen connected: kmsdrm would open it")
    ports = Ports.pick()
    systemd = Systemd()
    child, lines = start(tmp_path, service_env(tmp_path, ports, systemd.path, COMPANION_MQTT__BROKER="mosquitto"))
    systemd.main_pid = child.pid
    try:
        line = said(lines, "headless")
        assert "no screen" in line.lower() and "kmsdrm" in line
        ready = systemd.next_with("READY")
        assert ready["READY"] == "1" and "headless" in ready["STATUS"]
        # standard input is /dev/null (as under systemd): the table does not take its end for Ctrl-D
        for _ in range(2):
            assert systemd.next_with("WATCHDOG")["WATCHDOG"] == "1"
        assert child.poll() is None, "the companion stopped"
        ana, topics, user = player_phone(tmp_path, ports, "ana")
        try:
            ana.subscribe(topics.status, topics.reply(user))
            assert ana.got(lambda m: m.topic == topics.status).payload == b"headless"
            ana.publish(topics.cmd(user), json.dumps({"id": "r1", "move": "dice.roll", "args": {"count": 1}}))
            answer = ana.wait_for(lambda m: m.topic == topics.reply(user)).json()
            assert answer["id"] == "r1" and answer["ok"] is True, answer
        finally:
            ana.close()
        assert systemd.next_with("WATCHDOG")["WATCHDOG"] == "1"  # still fed after the phone's move
        # the managed Mosquitto does not inherit the notify socket (it would send its own READY=1)
        assert systemd.foreign == []
    finally:
        code = stop(child)
        systemd.close()
    assert code == 0
    log = EventLog(tmp_path / "game.sqlite3")
    latest = log.latest_game()
    assert latest is not None and [e.input.move for e in log.events(latest.id)] == ["dice.roll"]
    log.close()


def test_a_screen_that_cannot_be_opened_falls_back_to_headless(tmp_path: Path) -> None:
    """Detection saw a display, SDL could not open it (here: an X display nobody serves)."""
    ports = Ports.pick()
    systemd = Systemd()
    env = service_env(tmp_path, ports, systemd.path, COMPANION_DISPLAY__DRIVER="x11", SDL_VIDEODRIVER="x11",
                      DISPLAY=":4711")
    child, lines = start(tmp_path, env)
    systemd.main_pid = child.pid
    try:
        line = said(lines, "headless")
        assert "x11" in line
        assert "headless" in systemd.next_with("READY")["STATUS"]
        assert systemd.next_with("WATCHDOG")["WATCHDOG"] == "1"
    finally:
        code = stop(child)
        systemd.close()
    assert code == 0


def test_a_screen_insisted_on_and_missing_is_a_clear_error(tmp_path: Path) -> None:
    """`display.enabled = true`: the host asked for the screen; no fallback, one clear line, no traceback."""
    ports = Ports.pick()
    env = {**child_env(tmp_path, ports), "COMPANION_DISPLAY__ENABLED": "true", "COMPANION_DISPLAY__DRIVER": "x11",
           "SDL_VIDEODRIVER": "x11", "DISPLAY": ":4711", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run([sys.executable, "-m", "companion", "run", "--db", str(tmp_path / "g.sqlite3"),
                             "--players", "ana,ben"], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, timeout=GUARD_S)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "x11" in result.stderr and "screen" in result.stderr.lower(), result.stderr


# --- the phones are told ----------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_phone_page_says_the_table_has_no_screen(tmp_path: Path, browser: Browser, lang: str) -> None:
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=7)
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup, created_at=0)
    table = Table(referee)
    status = StatusBoard()
    status.set(DeviceStatus("screen", "kmsdrm", "missing", detail="no screen connected"))  # what `run` sets
    phones = start_phones(table, broker="mosquitto", status=status, state_dir=tmp_path)
    thread = threading.Thread(target=table.run, name="table", daemon=True)
    thread.start()
    run = Running(table, phones, status, thread)
    locale = {"en": "en-US", "zh": "zh-CN", "th": "th-TH"}[lang]
    try:
        assert phones.mirror.connected.wait(GUARD_S)
        with serving(run, default_language=lang) as (_, links):
            page = PhonePage.open(browser, links["ana"].url(), locale=locale)
            try:
                page.online()
                note = page.page.locator("#no-screen")
                note.wait_for(state="visible", timeout=WAIT_MS)
                assert note.inner_text() == i18n.translate(lang, "phone.no_screen", {})
                assert page.page.locator("#referee-offline").is_hidden()  # the referee is there
            finally:
                page.close()
    finally:
        table.stop()
        thread.join(GUARD_S)
        phones.stop()
        referee.log.close()


def test_with_a_screen_the_phones_hear_online_as_before(tmp_path: Path) -> None:
    from tests.kits.phones_kit import joined, running_table

    with running_table(tmp_path, "mosquitto") as run:
        p = joined(run, "ana")
        try:
            assert p.got(lambda m: m.topic == run.phones.topics.status).payload == b"online"
        finally:
            p.close()
    assert os.path.exists(tmp_path / "game.sqlite3")
