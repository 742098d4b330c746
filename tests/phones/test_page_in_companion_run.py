"""`companion run`'s phone page: served beside the broker and the mirror, its address said at start-up,
each seat's link and QR code for the kiosk, and no credential written where a log could keep it."""

from __future__ import annotations

import io
import urllib.request
from pathlib import Path

import numpy as np
import pytest
import zxingcpp

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
from tests.kits.phone_page_kit import scan


def start(tmp_path: Path, **mqtt: object) -> tuple[Table, serve.Served]:
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=1)
    tmp_path.mkdir(exist_ok=True)
    table = Table(Referee.start(registry(), EventLog(tmp_path / "g.sqlite3"), setup, created_at=0))
    flags = {"storage.path": str(tmp_path / "g.sqlite3"), "table.language": "zh",
             **{f"mqtt.{k}": v for k, v in {"broker": "mosquitto", "port": 0, "ws_port": 0, **mqtt}.items()}}
    cfg = configuration.load(flags=flags, env={}, system_path=None, user_path=None)
    served = serve.starter(table, cfg, StatusBoard())
    assert served is not None
    return table, served


def test_the_page_is_served_and_said_and_no_seat_link_reaches_a_log(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    table, served = start(tmp_path, page_port=0, page_host="127.0.0.1")
    try:
        assert served.page is not None and served.page_url == f"http://127.0.0.1:{served.page.port}/"
        said = capsys.readouterr().err
        assert i18n.translate("zh", "phones.page_started", {"url": served.page_url}) in said
        with urllib.request.urlopen(served.page_url, timeout=10) as answer:  # the page itself
            assert b'<script type="module" src="/js/app.js">' in answer.read()
        links = served.links()
        assert sorted(links) == ["ana", "ben", "host"]
        for link in links.values():
            assert link.password not in said  # standard error is no terminal here: no links printed
        qr = served.qr("ana")
        assert qr is not None and JoinLink.parse(scan(links["ana"])) == links["ana"]
        assert served.qr("zed") is None
    finally:
        served.stop()
        table.referee.log.close()


def test_the_links_and_qr_codes_for_the_hosts_terminal_name_each_seat() -> None:
    links = {"ana": JoinLink("http://10.0.0.2:8080/", "ws://10.0.0.2:9001/mqtt", "companion/v1/t1", "t1.g1.p.ana",
                             "pw-ana"),
             "host": JoinLink("http://10.0.0.2:8080/", "ws://10.0.0.2:9001/mqtt", "companion/v1/t1", "t1.g1.host",
                              "pw-host")}
    out = io.StringIO()
    serve.print_links(links, {"ana": "Ana"}, "th", out)
    text = out.getvalue()
    assert i18n.translate("th", "phones.seat_link", {"seat": "Ana", "url": links["ana"].url()}) in text
    host_seat = i18n.translate("th", "sender.host")
    assert i18n.translate("th", "phones.seat_link", {"seat": host_seat, "url": links["host"].url()}) in text
    assert text.count("█") > 100  # the QR codes, drawn in block characters
    assert scans_off(text) == [links["ana"].url(), links["host"].url()]  # a phone reads each off the terminal


def scans_off(terminal: str) -> list[str]:
    """What a phone's camera reads off the terminal, code by code: each block character is two modules,
    a drawn half light and a blank half dark (a terminal's dark background)."""
    halves = {"█": (255, 255), "▀": (255, 0), "▄": (0, 255), " ": (0, 0)}
    codes, rows = [], []
    for line in [*terminal.splitlines(), ""]:
        if line and set(line) <= set(halves):
            rows += [[halves[c][0] for c in line], [halves[c][1] for c in line]]
            continue
        if rows:
            pixels = np.kron(np.array(rows, dtype=np.uint8), np.ones((4, 4), dtype=np.uint8))
            codes += [str(found.text) for found in zxingcpp.read_barcodes(pixels, try_invert=False)]  # dark on light
            rows = []
    return codes


def test_a_page_that_cannot_be_served_leaves_the_phones_running(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    first_table, first = start(tmp_path / "a", page_port=0)
    assert first.page is not None
    try:
        table, served = start(tmp_path / "b", page_port=first.page.port)  # the port is taken
        try:
            assert served.page is None and served.links() == {}
            said = capsys.readouterr().err
            assert i18n.translate("zh", "phones.page_failed", {"problem": "\x00"}).split("\x00")[0] in said
            assert served.phones.mirror.connected.wait(10)  # the phones run on without their page
        finally:
            served.stop()
            table.referee.log.close()
    finally:
        first.stop()
        first_table.referee.log.close()
