"""The organiser's commands: `companion hall table add` prints the config a table needs (and the table can
log in with it), `player add` prints a league id, `acl` the ACL for an organiser's own broker, and
`hall run` runs headless until SIGTERM, telling the terminal where it listens. The commands that open
the league file need companion/hall/store.py and companion/hall/league/ (built beside this branch)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

from click.testing import CliRunner

from companion import i18n
from companion.cli import main
from companion.hall import protocol
from companion.hall.central import DIR_PREFIX, CentralMosquitto
from companion.hall.command import table_id_for
from companion.phones.runner import free_port
from tests.kits.broker_kit import Stray, stray_broker
from tests.kits.phones_kit import WAIT_S, Phone


def test_a_tables_id_comes_from_its_name_or_is_numbered() -> None:
    assert table_id_for("Table 3", set()) == "table-3"
    assert table_id_for("โต๊ะริมหน้าต่าง", {"table-1"}) == "table-2"
    assert table_id_for("Window", {"window"}) == "table-2"
    assert table_id_for("桌子 7", set()) == table_id_for("โต๊ะ 7", set()) == "table-7"
    assert all(protocol.TABLE_ID.match(table_id_for(n, set())) for n in ("--", "A" * 80, "桌子 7", "x_y"))


def test_an_external_broker_without_a_usable_url_is_refused_in_the_organisers_language() -> None:
    got = CliRunner().invoke(main, ["hall", "--lang", "zh", "run", "--broker", "external", "--url", "http://x"])
    assert got.exit_code != 0 and i18n.translate("zh", "hall.broker.bad_url") in got.output


def test_acl_prints_what_an_organisers_own_broker_needs() -> None:
    out = CliRunner().invoke(main, ["hall", "acl", "--prefix", "cafe"]).output
    assert "user companion-hall\ntopic readwrite cafe/v1/#\n" in out
    assert "pattern write cafe/v1/%u/results/+\n" in out and "pattern read cafe/v1/%u/hall/seating\n" in out
    assert "/seat/" not in out and "#" not in out.replace("cafe/v1/#", "")


def test_table_add_prints_a_config_the_table_logs_in_with(tmp_path: Path) -> None:
    db = tmp_path / "hall.sqlite3"
    got = CliRunner().invoke(main, ["hall", "table", "add", "Table 3", "--db", str(db),
                                    "--url", "mqtt://hall.local:1884"])
    assert got.exit_code == 0, got.output
    snippet = tomllib.loads(got.stdout)
    assert snippet["table"] == {"id": "table-3"}
    assert snippet["hall"]["url"] == "mqtt://hall.local:1884" and snippet["hall"]["name"] == "Table 3"
    again = CliRunner().invoke(main, ["hall", "--lang", "th", "table", "add", "Table 3", "--db", str(db),
                                      "--id", "table-3"])
    assert again.exit_code != 0 and "ฮอลล์มีโต๊ะ table-3 อยู่แล้ว" in again.output
    port = free_port()
    from companion.hall import hooks

    broker = CentralMosquitto("companion", "127.0.0.1", port, "hall-secret", hooks.open_store(db).table_passwords())
    broker.start()
    try:
        t = Phone("127.0.0.1", port, "table-3", snippet["hall"]["password"])
        assert not t.connect().is_failure
        t.close()
    finally:
        broker.close()


def test_player_add_prints_a_league_id(tmp_path: Path) -> None:
    got = CliRunner().invoke(main, ["hall", "player", "add", "Mai", "--db", str(tmp_path / "h.sqlite3")])
    assert got.exit_code == 0 and protocol.PLAYER_ID.match(got.stdout.strip())


def test_hall_run_serves_headless_and_stops_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "h.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "companion", "hall", "--lang", "en", "run", "--db", str(db),
                             "--port", str(port), "--host", "127.0.0.1", "--page-port", "0", "--name", "Cafe"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "XDG_STATE_HOME": str(tmp_path)})
    try:
        assert proc.stderr is not None
        running = i18n.translate("en", "hall.cli.running", {"name": "Cafe", "broker": "managed",
                                                              "where": f"127.0.0.1:{port}", "path": str(db)})
        for line in proc.stderr:
            if line.strip() == running:
                break
        kept = db.with_name(db.name + ".mosquitto.pid")  # the hall's broker, kept beside its league file
        broker_pid, broker_conf = kept.read_text(encoding="utf-8").split("\n")[:2]
        # a table added in another terminal: the running hall is told (SIGHUP) and gives it a login
        added = CliRunner().invoke(main, ["hall", "--lang", "en", "table", "add", "Table 7", "--db", str(db)])
        assert added.exit_code == 0 and i18n.translate("en", "hall.cli.hall_told") in added.stderr
        for line in proc.stderr:
            if line.strip() == i18n.translate("en", "hall.cli.tables_read", {"count": 1}):
                break
        t7 = Phone("127.0.0.1", port, "table-7", tomllib.loads(added.stdout)["hall"]["password"])
        assert not t7.connect().is_failure
        t7.close()
        second = CliRunner().invoke(main, ["hall", "--lang", "en", "run", "--db", str(db), "--port", str(free_port())])
        assert second.exit_code != 0 and i18n.translate("en", "hall.cli.already_running", {
            "pid": proc.pid, "path": str(db)}) in second.output  # one hall per league file
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(WAIT_S) == 0
        assert i18n.translate("en", "hall.cli.stopped") in proc.stderr.read()
        assert not Stray(int(broker_pid), Path(broker_conf).parent, port).alive()  # its broker went with it
        assert not kept.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_central_broker_left_behind_is_stopped_at_the_next_start(tmp_path: Path) -> None:
    """A hall killed from outside leaves its broker on the port: the next start on the same league file
    stops it (its pid is kept beside the file), and no other broker (a table's, another hall's)."""
    port = free_port()
    kept = tmp_path / "h.sqlite3.mosquitto.pid"
    left = stray_broker(port, kept, prefix=DIR_PREFIX)
    table = stray_broker(free_port())  # a table's broker on the same machine
    try:
        broker = CentralMosquitto("companion", "127.0.0.1", port, "hall-secret", {}, pidfile=kept)
        broker.start()  # "Address already in use" if the stray one still held the port
        try:
            assert not left.alive() and table.alive()
        finally:
            broker.close()
    finally:
        left.stop()
        table.stop()
