"""The checks bench/arm64_proof.py runs inside a root where systemd/install.sh has installed the
companion (an arm64 root under qemu, or a real Pi): each prints one JSON object of what it saw and how
long it took, and exits non-zero when the check fails.

    /opt/companion/venv/bin/python /opt/companion/src/bench/pi_checks.py first-frame --out DIR [--lang th]
    /opt/companion/venv/bin/python /opt/companion/src/bench/pi_checks.py replay
    /opt/companion/venv/bin/python /opt/companion/src/bench/pi_checks.py phone

- first-frame: the kiosk (SDL's dummy driver, 800x480) draws its first frame: the fonts loaded (the
  first run extracts the Chinese face into the cache), a table's kiosk built, the attract screen drawn,
  then the play screen saved as a PNG in DIR.
- replay: `companion demo --game lockdown` and `companion replay` of Lockdown's 9-player recorded game,
  as the installed command runs them.
- phone: `companion run` as companion.service runs it (the unit's user, environment and the installed
  /etc/companion/config.toml, standard input /dev/null, a notify socket and a 4 s watchdog): READY=1
  comes, it runs headless (no screen here), serves the phone page, and answers a player's phone (a
  real MQTT client with the seat's credentials) with its dice roll; then SIGINT stops it cleanly.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

VENV = Path("/opt/companion/venv")
COMPANION = VENV / "bin/companion"
UNIT = Path("/etc/systemd/system/companion.service")
GUARD_S = 600.0  # emulated arm64 is slow; only a guard against a hang
SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"  # what systemd gives a service


def first_frame(out: Path, lang: str) -> dict[str, Any]:
    started = time.perf_counter()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from companion.kiosk.engine import fonts, open_display
    from companion.kiosk.scenes import make_scene, show_screen

    imported = time.perf_counter()
    surface = open_display("800x480", False, "dummy")
    text = fonts()
    loaded = time.perf_counter()
    scene = make_scene(surface, text, lang)  # builds the kiosk; its first turn draws the attract screen
    drawn = time.perf_counter()
    frames = scene.kiosk.frames
    scene.close()
    scene = make_scene(surface, text, lang)
    show_screen(scene, "play")
    out.mkdir(parents=True, exist_ok=True)
    shot = out / f"play-{lang}-800x480.png"
    pygame.image.save(scene.kiosk.surface, str(shot))
    scene.close()
    pygame.quit()
    return {"check": "first-frame", "ok": frames >= 1 and shot.stat().st_size > 0, "frames": frames,
            "import_s": round(imported - started, 2), "fonts_s": round(loaded - imported, 2),
            "first_frame_s": round(drawn - started, 2), "screenshot": str(shot), "missing_glyphs": sorted(text.missing)}


def timed(cmd: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=GUARD_S)
    return time.perf_counter() - started, result


def replay() -> dict[str, Any]:
    import companion

    games = Path(companion.__file__).parent / "games"
    script = games / "lockdown/demo_games/lockdown-9p.jsonl"
    demo_s, demo = timed([str(COMPANION), "demo", "--game", "lockdown"])
    replay_s, replayed = timed([str(COMPANION), "replay", str(script), "--json"])
    view = json.loads(replayed.stdout) if replayed.returncode == 0 else {}
    lines = sum(1 for line in script.read_text(encoding="utf-8").splitlines() if line.strip())
    return {"check": "replay", "ok": demo.returncode == 0 and replayed.returncode == 0 and bool(view.get("result")),
            "demo_s": round(demo_s, 2), "demo_last_line": demo.stdout.strip().splitlines()[-1:],
            "replay_s": round(replay_s, 2), "replay_lines": lines, "ended": view.get("ended"),
            "errors": (demo.stderr + replayed.stderr)[-2000:]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def unit_environment() -> dict[str, str]:
    env: dict[str, str] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if line.startswith("Environment="):
            key, _, value = line.removeprefix("Environment=").partition("=")
            env[key] = value
    return env


def as_the_service_dirs(user: pwd.struct_passwd) -> None:
    """What StateDirectory= and CacheDirectory= make before systemd starts the unit."""
    for path, mode in ((Path("/var/lib/companion"), 0o750), (Path("/var/cache/companion"), 0o755)):
        path.mkdir(parents=True, exist_ok=True)
        path.chmod(mode)
        os.chown(path, user.pw_uid, user.pw_gid)


def from_main(sock: socket.socket, pid: int) -> str:
    """The next notify datagram the main process sent (NotifyAccess=main: systemd ignores others')."""
    while True:
        data, ancillary, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(12))
        sender = next((int.from_bytes(d[:4], sys.byteorder) for level, kind, d in ancillary
                       if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS), 0)
        if sender == pid:
            return data.decode()


def phone() -> dict[str, Any]:
    import paho.mqtt.client as mqtt

    from companion.phones.runner import KEPT_FILE
    from companion.phones.topics import Topics

    user = pwd.getpwnam("companion")
    as_the_service_dirs(user)
    state = Path("/var/lib/companion")
    for old in (state / "companion.sqlite3", state / KEPT_FILE):
        old.unlink(missing_ok=True)
    ports = {"COMPANION_MQTT__PORT": str(free_port()), "COMPANION_MQTT__WS_PORT": str(free_port()),
             "COMPANION_MQTT__PAGE_PORT": str(free_port())}
    folder = Path(tempfile.mkdtemp(prefix="notify-"))
    notify = folder / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    sock.bind(str(notify))
    os.chmod(folder, 0o755)
    os.chmod(notify, 0o777)
    sock.settimeout(GUARD_S)
    env = {"PATH": SYSTEMD_PATH, **unit_environment(), **ports, "NOTIFY_SOCKET": str(notify),
           "WATCHDOG_USEC": "4000000", "SDL_AUDIODRIVER": "dummy", "COMPANION_GAME__PLAYERS": '["ana", "ben"]'}
    started = time.perf_counter()
    child = subprocess.Popen([str(COMPANION), "run"], cwd=state, env=env, user=user.pw_uid, group=user.pw_gid,
                             extra_groups=[], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    said: list[str] = []
    threading.Thread(target=lambda: said.extend(child.stdout or []), daemon=True).start()
    result: dict[str, Any] = {"check": "phone", "ok": False}
    try:
        ready: dict[str, str] = {}
        while "READY" not in ready:
            data = from_main(sock, child.pid)
            ready = dict(line.split("=", 1) for line in data.splitlines() if "=" in line)
        result["ready_s"] = round(time.perf_counter() - started, 2)
        result["status"] = ready.get("STATUS", "")
        with urllib.request.urlopen(f"http://127.0.0.1:{ports['COMPANION_MQTT__PAGE_PORT']}/", timeout=60) as page:
            result["page_http"] = page.status
        creds = json.loads((state / KEPT_FILE).read_text(encoding="utf-8"))
        name, password = creds["players"]["ana"]
        topics = Topics("companion", creds["table"])
        got: queue.Queue[tuple[str, bytes]] = queue.Queue()
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name)
        client.username_pw_set(name, password)
        client.on_message = lambda c, u, m: got.put((m.topic, bytes(m.payload)))
        connected = threading.Event()
        client.on_connect = lambda c, u, f, rc, p=None: (c.subscribe([(topics.status, 1), (topics.reply(name), 1)]),
                                                         connected.set())
        client.connect("127.0.0.1", int(ports["COMPANION_MQTT__PORT"]))
        client.loop_start()
        connected.wait(GUARD_S)
        status = b""
        while not status:
            topic, payload = got.get(timeout=GUARD_S)
            status = payload if topic == topics.status else b""
        result["phones_status"] = status.decode()
        sent = time.perf_counter()
        client.publish(topics.cmd(name), json.dumps({"id": "p1", "move": "dice.roll", "args": {"count": 2}}), qos=1)
        answer: dict[str, Any] = {}
        while answer.get("id") != "p1":
            topic, payload = got.get(timeout=GUARD_S)
            answer = json.loads(payload) if topic == topics.reply(name) else {}
        result["phone_reply_ms"] = round((time.perf_counter() - sent) * 1000)
        result["phone_reply_ok"] = answer.get("ok")
        client.disconnect()
        client.loop_stop()
        watchdog = 0
        while watchdog < 2:
            data = from_main(sock, child.pid)
            watchdog += "WATCHDOG=1" in data
        result["watchdog_fed"] = watchdog
        result["ok"] = bool(answer.get("ok")) and status == b"headless" and result["page_http"] == 200
    except Exception as err:  # what went wrong goes into the figures, with the companion's own lines
        result["error"] = f"{type(err).__name__}: {err}"
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGINT)
        try:
            result["exit"] = child.wait(60)
        except subprocess.TimeoutExpired:
            child.kill()
            result["exit"] = "killed"
        sock.close()
        shutil.rmtree(folder, ignore_errors=True)
        result["journal"] = [line.rstrip() for line in said][-12:]
    result["ok"] = result["ok"] and result["exit"] == 0
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="check", required=True)
    frame = sub.add_parser("first-frame")
    frame.add_argument("--out", type=Path, required=True)
    frame.add_argument("--lang", default="th")
    sub.add_parser("replay")
    sub.add_parser("phone")
    args = parser.parse_args(argv)
    if args.check == "first-frame":
        result = first_frame(args.out, args.lang)
    elif args.check == "replay":
        result = replay()
    else:
        result = phone()
    print(json.dumps(result, ensure_ascii=False))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
