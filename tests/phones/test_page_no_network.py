"""A table with no network (issue 32): a Pi started before it is on the Wi-Fi has only its loopback, and
`http://127.0.0.1:8080/` "on the table's Wi-Fi" would send a host's phones nowhere. `companion run` says
plainly that no network was found and phones cannot join yet; once the machine has an address it says the
page's address there, and the seats' links (the kiosk's QR codes) use it.

The real `companion run`, with its managed Mosquitto, in a network namespace of its own (`unshare -n`):
only a loopback at the start, then a veth pair with a documentation address (192.0.2.0/24, TEST-NET-1)
added to that namespace while it runs. No traffic leaves the namespace.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import config as configuration
from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.phones import serve
from companion.phones.join import JoinLink
from companion.status import StatusBoard
from companion.table.loop import Table
from tests.kits.output_lines import OutputLines
from tests.kits.phone_page_kit import scan

ROOT = Path(__file__).resolve().parents[2]
DEADLINE_S = 120
ADDRESS = "192.0.2.77"


def program(name: str) -> str:
    found = shutil.which(name, path="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
    assert found, f"{name} is needed (tests/run.sh installs it)"
    return found


def needs_namespace() -> None:
    works = subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=30).returncode == 0
    if not works:
        if os.environ.get("CI"):  # a missing part fails in CI, never skips
            pytest.fail("`unshare -n` does not work here: CI runs as root and needs it")
        pytest.skip("needs `unshare -n` (run as root): a machine with no network")


class Run:
    """`companion run --no-display` in a namespace with only a loopback; its standard error read as it
    comes; standard input open, so it runs until `stop`."""

    def __init__(self, tmp: Path, lang: str) -> None:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin", "HOME": str(tmp),
               "XDG_CONFIG_HOME": str(tmp / "config"), "XDG_STATE_HOME": str(tmp / "state"), "LANG": "C.UTF-8"}
        self.process = subprocess.Popen(
            ["unshare", "-n", "sh", "-c", f'{program("ip")} link set lo up && exec "$@"', "sh",
             sys.executable, "-m", "companion", "run", "--no-display", "--lang", lang],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        self.output = OutputLines(self.process.stderr, DEADLINE_S)
        self.said = self.output.said

    def wait_for(self, text: str) -> None:
        self.output.wait_for(text)

    def join_the_wifi(self) -> None:
        """An address on an interface of the run's namespace, as the Wi-Fi's DHCP gives one."""
        ns = ["nsenter", f"--net=/proc/{self.process.pid}/ns/net", program("ip")]
        for command in (["link", "add", "wlan0", "type", "veth", "peer", "name", "peer0"],
                        ["addr", "add", f"{ADDRESS}/24", "dev", "wlan0"], ["link", "set", "wlan0", "up"]):
            subprocess.run([*ns, *command], check=True, capture_output=True, timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()  # end of input: the table stops, its Mosquitto with it
            try:
                self.process.wait(timeout=DEADLINE_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def run(tmp_path: Path) -> Iterator[Run]:
    needs_namespace()
    started = Run(tmp_path, "en")
    yield started
    started.stop()


def test_with_no_network_the_table_says_phones_cannot_join_then_says_the_address_once_it_has_one(
        run: Run) -> None:
    run.wait_for("no network was found")
    assert i18n.translate("en", "phones.page_no_network") in run.said
    assert not [line for line in run.said if "Wi-Fi, or scan" in line]  # no address that reaches no phone
    assert run.process.poll() is None  # the table runs on, without phones for now

    run.join_the_wifi()
    run.wait_for(f"http://{ADDRESS}:")
    said = i18n.translate("en", "phones.page_started", {"url": f"http://{ADDRESS}:8080/"})
    assert said == "Phones: open http://192.0.2.77:8080/ on the table's Wi-Fi, or scan a seat's QR code."
    assert run.said[-1] == said
    run.stop()
    assert run.process.returncode == 0, run.said


def test_once_the_network_is_found_the_seats_links_and_qr_codes_use_its_address(tmp_path: Path) -> None:
    """What the kiosk draws: a seat's QR code made before the network came would send a phone to the
    loopback; after it, the code holds the address the phone can reach."""
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=1)
    table = Table(Referee.start(registry(), EventLog(tmp_path / "g.sqlite3"), setup, created_at=0))
    cfg = configuration.load(flags={"storage.path": str(tmp_path / "g.sqlite3"), "mqtt.broker": "mosquitto",
                                    "mqtt.port": 0, "mqtt.ws_port": 0, "mqtt.page_port": 0,
                                    "mqtt.page_host": "127.0.0.1"},
                             env={}, system_path=None, user_path=None)
    served = serve.starter(table, cfg, StatusBoard())
    assert served is not None and served.page is not None
    try:
        serve.network_found(served, ADDRESS, "en")
        page = f"http://{ADDRESS}:{served.page.port}/"
        assert served.page_url == page
        link = served.links()["ana"]
        assert link.page == page and link.ws.startswith(f"ws://{ADDRESS}:")
        assert JoinLink.parse(scan(link)) == link  # the QR code the kiosk draws holds it
    finally:
        served.stop()
        table.referee.log.close()
