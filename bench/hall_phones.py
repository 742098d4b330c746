"""The real tables of bench/bench_hall.py: a table's own event-to-phone latency, alone and bridged.

A `RealTable` is bench/bench_mqtt.py's setup: a toolkit game of 4 players with a real SQLite log, the
`Table` loop, its managed Mosquitto and the mirror, phones (bench_mqtt.py's subscriber process, one
paho client per spectator) on its public topic, each event a host dice roll. With `hall_config` its
Mosquitto carries the bridge `companion run` writes for a `[hall]` section
(`companion.hall.table.starter.bridge_config`), to the central broker the simulated tables load.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench_mqtt import PLAYERS, Stamp
from hall_tables import card_fp

from companion.config import Config
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import PUBLIC, Outcome, Referee
from companion.games import registry
from companion.hall import protocol, public
from companion.hall.table.starter import bridge_config
from companion.phones.credentials import GameCredentials
from companion.phones.mirror import BrokerAddress, Mirror
from companion.phones.mosquitto import ManagedMosquitto
from companion.phones.runner import free_port
from companion.phones.topics import Topics
from companion.table.loop import Table
from companion.table.views import Views

HERE = Path(__file__).resolve().parent


def hall_config(table_id: str, prefix: str, central_port: int, password: str) -> Config:
    """A table's config with its `[hall]` section, as `companion hall table add` prints it."""
    return Config.model_validate({"table": {"id": table_id}, "mqtt": {"prefix": prefix, "broker": "mosquitto"},
                                  "hall": {"url": f"mqtt://127.0.0.1:{central_port}", "password": password,
                                           "name": table_id}})


class TableMosquitto(ManagedMosquitto):
    """The table's managed Mosquitto under a folder name of the bench's own: its start stops only
    brokers left behind by an earlier run of this bench, never another companion's."""

    dir_prefix = "companion-bench-hall-"


class CardStamp:
    """An Output after the mirror: each public view's card (as the hall shows it) and when the mirror had
    published it, in the simulated tables' publish-log shape, for the latency to the hall's page."""

    def __init__(self, table_id: str) -> None:
        self.table_id, self.log, self._seen = table_id, list[list[Any]](), set[str]()

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        fp = card_fp(public.view(views.json(PUBLIC)))
        self.log.append([self.table_id, fp, fp not in self._seen, time.monotonic_ns(), time.time_ns() // 1_000_000])
        self._seen.add(fp)


class RealTable:
    def __init__(self, table_id: str, prefix: str, where: Path, phones: int, bridge: Config | None) -> None:
        setup = Setup("toolkit", tuple(Player(p, p.title()) for p in PLAYERS), {}, seed=1)
        self.log = EventLog(where / f"{table_id}.sqlite3", synchronous="NORMAL")
        referee = Referee.start(registry(), self.log, setup, created_at=0)
        self.game = GameCredentials.issue(table_id, referee.game_id, PLAYERS, spectators=phones)
        self.table, self.stamp, self.cards = Table(referee), Stamp(), CardStamp(table_id)
        self.port = free_port()
        extra = bridge_config(bridge) if bridge is not None else ""
        self.broker = TableMosquitto(prefix, "127.0.0.1", self.port, free_port(), self.game.referee_password, extra)
        self.topics = Topics(prefix, table_id)
        self.mirror = Mirror(self.table, self.topics, self.game,
                             BrokerAddress("127.0.0.1", self.port, password=self.game.referee_password),
                             broker_name="mosquitto")
        self.table.outputs[:] = [self.stamp, self.mirror, self.cards]  # the phones' latency as bench_mqtt.py's
        self.bridged = bridge is not None
        self.phones: subprocess.Popen[str] | None = None
        self.first = self.last = 0
        self._thread = threading.Thread(target=self.table.run, daemon=True)

    def start(self) -> None:
        self.broker.start()
        self.broker.set_game(self.game)
        self._thread.start()
        self.mirror.start()
        if not self.mirror.connected.wait(30):
            raise SystemExit(f"the mirror of {self.game.table} did not connect")
        if self.bridged:
            self.mirror.publish_retained(protocol.about_topic(self.topics.prefix, self.game.table),
                                         protocol.about_payload(name=self.game.table, language="en"))

    def watch(self, events: int, timeout: float) -> None:
        """Phones on the public topic for the next `events` dice rolls."""
        self.first = self.table.referee.view(PUBLIC)["announced"] + 1
        self.last = self.first + events - 1
        cfg = {"host": "127.0.0.1", "port": self.port, "topic": self.topics.public, "last": self.last,
               "timeout": timeout, "creds": [[c.user, c.password] for c in self.game.spectators]}
        self.phones = subprocess.Popen([sys.executable, str(HERE / "bench_mqtt.py"), "--subscribe"],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.phones.stdin is not None and self.phones.stdout is not None
        self.phones.stdin.write(json.dumps(cfg) + "\n")
        self.phones.stdin.flush()
        if self.phones.stdout.readline().strip() != "ready":
            raise SystemExit("the phones did not start")

    def roll(self) -> None:
        self.table.put({"by": "host", "move": "dice.roll"})

    def latencies(self) -> tuple[list[int], int]:
        """(event to phone in ns, deliveries lost) once the phones have seen the last roll."""
        assert self.phones is not None and self.phones.stdout is not None
        got = json.loads(self.phones.stdout.readline())
        self.phones.wait(30)
        lat = [t - self.stamp.at[n] for seen in got for n, t in seen if self.first <= n <= self.last]
        return lat, (self.last - self.first + 1) * len(got) - len(lat)

    def stop(self) -> None:
        self.mirror.disconnect()
        self.table.stop()
        self._thread.join(10)
        self.broker.close()
        self.log.close()
