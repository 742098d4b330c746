"""The `companion run` starter of the hall's table side (only with `[hall].url` set; docs/hall.md).

The bridge is part of the managed Mosquitto's config, so `bridge_config` is handed to the phones'
starter before the broker starts; `start_hall` then hangs the results and the seating on the mirror's
connection (the referee's own login on the table's broker) and makes them outputs of the table.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from companion import i18n
from companion.config import Config
from companion.hall import protocol
from companion.hall.table.bridge import connection_text
from companion.hall.table.results import HallResults
from companion.hall.table.seating import HallSeating, Say
from companion.table.loop import Table

if TYPE_CHECKING:
    from companion.kiosk.feed import KioskFeed
    from companion.phones.serve import Served


def bridge_config(cfg: Config) -> str:
    """The bridge's section of mosquitto.conf ("" without a hall)."""
    hall = cfg.hall
    if hall.url is None or hall.password is None:
        return ""
    return connection_text(prefix=cfg.mqtt.prefix, table=cfg.table.id, url=hall.url, password=hall.password,
                           keepalive=hall.keepalive)


def sayer(lang: str, out: TextIO, screen: KioskFeed | None) -> Say:
    """Say a hall message on the console (standard error, beside the phones' lines) and the kiosk."""
    def say(msgid: str, params: dict[str, Any]) -> None:
        print(f"  » {i18n.translate(lang, msgid, params)}", file=out, flush=True)
        if screen is not None:
            screen.say(msgid, params)
    return say


@dataclass
class RunningHall:
    table: Table
    results: HallResults
    seating: HallSeating

    def stop(self) -> None:
        for output in (self.results, self.seating):
            if output in self.table.outputs:
                self.table.outputs.remove(output)


def start_hall(table: Table, cfg: Config, served: Served | None, screen: KioskFeed | None = None,
               out: TextIO | None = None) -> RunningHall | None:
    """Publish the about and the recent results, and read the hall's seating (call on the table's loop
    thread before it runs). None without a hall, or when the phones' broker did not start."""
    if cfg.hall.url is None or served is None:
        return None
    mirror, log = served.phones.mirror, table.referee.log
    prefix, table_id = cfg.mqtt.prefix, cfg.table.id
    results = HallResults(mirror.publish_retained, prefix=prefix, table=table_id, name=cfg.hall.name or table_id,
                          language=cfg.table.language, log=log, games=table.games, current=lambda: table.referee)
    def answer(given: dict[str, Any], state: str, reason: dict[str, Any] | None) -> None:
        mirror.publish_retained(protocol.seated_topic(prefix, table_id), protocol.seated_payload(
            seating=given["seating"], round_no=given["round"], state=state, reason=reason))

    seating = HallSeating(table, log, sayer(cfg.table.language, out or sys.stderr, screen), answer)
    results.start()
    table.outputs += [results, seating]
    mirror.subscribe(protocol.seating_topic(prefix, table_id), seating.receive)
    return RunningHall(table, results, seating)
