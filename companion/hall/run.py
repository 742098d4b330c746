"""`companion hall run`: the central broker, the watcher, the seating and the pages, headless (docs/hall.md).

The hall's SQLite (`HallStore`) is the record: the tables it knows, their passwords, the league's
players, every result once, the seatings. The central broker is managed (its users and ACL written
from the store) or the organiser's own (`external`, by URL). A table added while the hall runs (by its
pages, or by `companion hall table add` in another terminal, which sends the hall SIGHUP) is given a
login at once: the broker's password file is rewritten and Mosquitto reloads.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from companion.games import registry
from companion.hall import protocol
from companion.hall.central import BrokerAddress, BrokerUrlError, CentralMosquitto, external_address
from companion.hall.checks import ResultRules
from companion.hall.coalesce import Coalescer
from companion.hall.hooks import League, Store, page_server
from companion.hall.league import rounds
from companion.hall.model import HallModel, wall_ms
from companion.hall.seating_out import Seater
from companion.hall.seating_resend import Resender, Sent
from companion.hall.watch import Watcher

logger = logging.getLogger(__name__)
WAIT_S = 10.0


@dataclass(frozen=True)
class HallOptions:
    name: str = "Hall"
    prefix: str = "companion"
    host: str = "0.0.0.0"
    port: int = 1884
    page_port: int | None = 8090  # None: no pages
    broker: str = "managed"  # or "external"
    url: str | None = None
    language: str = "en"  # the pages' language until a visitor chooses one
    score: str | None = None  # "rounds" or "every_game" (league/rounds.py); None: as the league file says


def external(options: HallOptions) -> BrokerAddress:
    """The organiser's central broker from `options.url` (BrokerUrlError: none, or not one the hall can use)."""
    if not options.url:
        raise BrokerUrlError("hall.broker.url_needed")
    return external_address(options.url)


def pid_file(db: Path) -> Path:
    """Where `hall run` writes its process id, so `hall table add` can tell it (SIGHUP)."""
    return db.with_name(db.name + ".hall.pid")


class Hall:
    """One running hall. `actions` are what the pages may do (`HallActions`)."""

    def __init__(self, store: Store, league: League, options: HallOptions, clock: Callable[[], int] = wall_ms,
                 say: Callable[[str, dict[str, Any]], None] = lambda msgid, params: None) -> None:
        """`say(msgid, params)` tells the organiser's terminal what happens (a result in, one sent again)."""
        self.store, self.league, self.options, self.say = store, league, options, say
        self.model = HallModel(options.name, clock)
        self.broker: CentralMosquitto | None = None
        self._tables: set[str] = set()
        self._lock = threading.Lock()
        if options.broker == "external":
            self.address = external(options)
        else:
            password = secrets.token_urlsafe(24)  # the hall's own login, new at every run, kept nowhere
            self.broker = CentralMosquitto(options.prefix, options.host, options.port, password, {})
            local = "127.0.0.1" if options.host in ("0.0.0.0", "") else options.host
            self.address = BrokerAddress(local, options.port, protocol.HALL_USER, password)
        self.league_worker = Coalescer(self._recompute)  # the standings, off the MQTT thread
        self.watcher = Watcher(self.address, options.prefix, self.model, store,
                               accept=self._known, on_result=self._result, check=ResultRules(registry()).check)
        self.seater = Seater(store, league, self._publish, options.prefix)
        self.resend = Resender(self.model.snapshot, self._publish)
        self.actions = HallActions(self)
        self._pages: Any = None  # the running pages (their `stop()` ends them)
        self._serving = False
        # the organiser's page (seating) takes this key; new at every run, printed on the hall's terminal only
        self.organiser_key = secrets.token_urlsafe(18)

    @property
    def serving_pages(self) -> bool:
        return self._serving

    def _known(self, table_id: str) -> bool:
        with self._lock:
            return table_id in self._tables

    def _publish(self, topic: str, payload: bytes) -> None:
        info = self.watcher.publish(topic, payload, retain=True)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            info.wait_for_publish(WAIT_S)
        else:  # QoS 1: paho keeps it and sends it when the central broker is back
            logger.warning("the central broker is away: %s is sent when it is back", topic)

    def start(self) -> None:
        if self.options.score is not None:
            self.store.set_setting(SCORE, self.options.score)
        self.reload_tables()  # before the broker runs: only its users are set
        if self.broker is not None:
            self.broker.keep_running()
        self._recompute()
        self.league_worker.start()
        self.model.set_seating(self.store.last_seating())
        self.watcher.start()
        self.resend.start()
        if self.options.page_port is not None:
            self._pages = page_server()(self.model, self.store, self.actions, self.options.page_port,
                                        self.options.host, organiser_key=self.organiser_key,
                                        default_language=self.options.language)
            self._serving = True

    @property
    def page_port(self) -> int | None:
        """The port the pages listen on (the one chosen when `page_port` was 0), None without pages."""
        return getattr(self._pages, "port", None) if self._serving else None

    def reload_tables(self) -> None:
        """Read the tables from the store again (one was added): their logins, what the watcher accepts."""
        passwords = self.store.table_passwords()
        with self._lock:
            self._tables = set(passwords)
        self.model.know_tables(passwords)
        if self.broker is not None:
            self.broker.set_tables(passwords)

    def _result(self, result: dict[str, Any], new: bool) -> None:
        if new:
            self.refresh_standings()
        self.say("hall.cli.result_in" if new else "hall.cli.result_again",
                 {"table": result["table"], "number": result["number"]})

    def refresh_standings(self) -> None:
        """Ask for the standings again: the league's worker recomputes them soon (coalesce.py)."""
        self.league_worker.request()

    def scored(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The league's results as (scored, casual) (league/rounds.py)."""
        return scored_results(self.store)

    def _recompute(self) -> None:
        scored, casual = self.scored()
        self.model.set_standings(self.league.standings(scored, self.store.players()))
        self.model.set_casual(casual)

    def stop(self) -> None:
        pages, self._pages, self._serving = self._pages, None, False
        if pages is not None:
            pages.stop()
        self.resend.stop()
        self.watcher.stop()
        self.league_worker.stop()
        if self.broker is not None:
            self.broker.close()


class HallActions:
    """What the hall's pages may change, each through the store and then the running parts."""

    def __init__(self, hall: Hall) -> None:
        self._hall = hall

    def add_table(self, table_id: str) -> str:
        password = self._hall.store.add_table(table_id)
        self._hall.reload_tables()
        return password

    def add_player(self, name: str) -> str:
        player_id = self._hall.store.add_player(name)
        self._hall.refresh_standings()
        return player_id

    def send_seating(self, game: str, present_player_ids: list[str], tables: list[str],
                     options: dict[str, Any] | None = None, *, pods: tuple[int, int] | None = None,
                     byes: bool = False, minutes: int | None = None) -> dict[str, Any]:
        hall = self._hall
        seating = hall.seater.send_seating(game, present_player_ids, tables, options, pods=pods, byes=byes,
                                           minutes=minutes, now_ms=hall.model.snapshot()["hall"]["now_ms"],
                                           scored=hall.scored()[0])
        hall.model.set_seating(seating)
        for table, chairs in seating["tables"].items():  # sent again until the table shows it started
            hall.resend.track(table, Sent(
                protocol.seating_topic(hall.options.prefix, table),
                protocol.seating_payload(seating=seating["seating"], round_no=seating["round"], game=game,
                                         options=seating["options"], players=chairs),
                game, frozenset(p["id"] for p in chairs), seating["seating"]))
        return seating

    def standings_csv(self) -> str:
        hall = self._hall
        return hall.league.to_csv(hall.league.standings(hall.scored()[0], hall.store.players()))


SCORE = "score"  # the league file's setting: "rounds" (the default) or "every_game"
SCORES = ("rounds", "every_game")


def scored_results(store: Store) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The league file's results as (scored, casual), by its scoring setting (league/rounds.py)."""
    every_game = store.setting(SCORE, "rounds") == "every_game"
    scored, casual = rounds.split(store.results(), store.seatings(), every_game=every_game)
    return [dict(r) for r in scored], [dict(r) for r in casual]


def running_hall(db: Path) -> int | None:
    """The process id of the hall running on `db` (its pid file names a live `companion hall run`)."""
    try:
        pid = int(pid_file(db).read_text(encoding="ascii"))
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (OSError, ValueError):
        return None
    return pid if b"hall" in args and b"run" in args and pid != os.getpid() else None  # else a stale file


@contextlib.contextmanager
def announced(db: Path) -> Any:
    """The pid file while the hall runs (removed after)."""
    path = pid_file(db)
    path.write_text(f"{os.getpid()}\n", encoding="ascii")
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
