"""Starting the phones' side of a table: pick a broker, start it, issue the game's credentials, mirror.

`start_phones` is what `companion run` (through `starter`) and tests call: it returns a `Phones` handle
with the WebSocket URL phones use, the credentials, and `stop()`. The broker is the managed Mosquitto,
or an external one by URL (docs/mqtt.md: `auto` is external if a URL is set, else the managed
Mosquitto), named on the status board and in the start-up line. Without a Mosquitto installed,
`starter` says once, on the console and the status board, how to install it; the table runs on.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import socket
import subprocess
import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol
from urllib.parse import unquote, urlsplit

from companion import i18n
from companion.config import Config
from companion.phones import mosquitto
from companion.phones.credentials import Credential, GameCredentials
from companion.phones.mirror import BrokerAddress, Mirror
from companion.phones.mosquitto import ManagedMosquitto
from companion.phones.seating import Seating
from companion.phones.topics import Topics
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import Table

logger = logging.getLogger(__name__)
CREDENTIALS_FILE = "mqtt-credentials.json"
KEPT_FILE = "phone-credentials.json"  # this game's phone credentials and seats taken, mode 0600, kept across a restart
PORT_ATTEMPTS = 3  # ports 0: free ports are picked before the broker binds them, so another may take one


class Broker(Protocol):
    name: str

    def start(self) -> None: ...

    def set_game(self, game: GameCredentials) -> None: ...

    def update_game(self, game: GameCredentials, drop: Collection[str] = ()) -> None: ...

    def phones_connected(self) -> int | None: ...

    def stop(self) -> None: ...


class ExternalBroker:
    """A broker the companion does not run: it only provisions credentials through `provision`."""

    name = "external"

    def __init__(self, state_dir: Path | None, provision: str | None) -> None:
        self.state_dir, self.provision = state_dir, provision

    def start(self) -> None:
        pass

    def set_game(self, game: GameCredentials) -> None:
        if self.state_dir is None:
            return
        path = self.state_dir / CREDENTIALS_FILE
        game.write_for_provisioning(path)
        if self.provision:
            done = subprocess.run([self.provision, str(path)], capture_output=True, text=True, check=False)
            if done.returncode != 0:
                logger.error("mqtt.provision %s failed (%s): %s", self.provision, done.returncode,
                             done.stderr.strip()[-300:])

    def update_game(self, game: GameCredentials, drop: Collection[str] = ()) -> None:
        """A seat claimed or released: provision again. The companion cannot drop a released seat's live
        connection on a broker it does not run; the broker refuses its next login (docs/mqtt.md)."""
        self.set_game(game)

    def phones_connected(self) -> int | None:
        return None

    def stop(self) -> None:
        pass


def free_port(host: str = "127.0.0.1") -> int:
    """A port free on `host` now (the kernel's pick; someone may take it before it is used)."""
    return free_ports(1, host)[0]


def free_ports(count: int, host: str = "127.0.0.1") -> list[int]:
    """`count` different ports free on `host` now: all bound at once, so the kernel cannot give the same
    one twice (one after another it may: the broker's MQTT and websocket listeners then asked for one
    port, and Mosquitto would not start)."""
    with contextlib.ExitStack() as held:
        socks = [held.enter_context(socket.socket()) for _ in range(count)]
        for sock in socks:
            sock.bind((host, 0))
        return [int(sock.getsockname()[1]) for sock in socks]


def choose(kind: str, url: str | None) -> str:
    """The broker `auto` means: external if a URL is set, else the managed Mosquitto."""
    if kind != "auto":
        return kind
    return "external" if url else "mosquitto"


class MosquittoMissing(RuntimeError):
    """The managed Mosquitto is wanted and not installed (`mosquitto.install_hint` says how to install it)."""


@dataclass
class Phones:
    """A running broker (unless external) and the mirror of one game."""

    broker: Broker
    mirror: Mirror
    seating: Seating
    topics: Topics
    address: BrokerAddress  # how the referee (and a test's client) reaches the broker over TCP
    ws_url: str  # what phones connect to
    ws_port: int
    owns_broker: bool = True
    _stopped: bool = field(default=False, repr=False)

    @property
    def game(self) -> GameCredentials:
        """The game's credentials as they are now (claiming or releasing a seat changes its password)."""
        return self.seating.game

    @property
    def in_broker(self) -> GameCredentials | None:
        """The credentials the broker has taken (the seats' codes are made from these); None while a new
        game's are on their way to it (`Seating.in_broker`)."""
        return self.seating.in_broker

    def join(self, cred: Credential) -> dict[str, Any]:
        """What a client needs to use a credential (a seat's, a join user's): URL, login and its topics."""
        return {
            "url": self.ws_url,
            "user": cred.user,
            "password": cred.password,
            "status": self.topics.status,
            "public": self.topics.public,
            "events": self.topics.events,
            "view": self.topics.view(cred.user),
            "reply": self.topics.reply(cred.user),
            "cmd": self.topics.cmd(cred.user),
        }

    def restart_broker(self) -> None:
        """Stop and start the broker on the same ports (tests: a broker restart mid-game)."""
        self.broker.stop()
        self.broker.start()
        self.broker.set_game(self.game)

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        if not self.owns_broker:
            self.mirror.stop()  # an external broker keeps our retained `offline` for the phones
            return
        # A broker we run goes away with us (its retained messages too): no `offline` to leave behind.
        close = getattr(self.broker, "close", None)
        (close or self.broker.stop)()
        self.mirror.disconnect()


def _external_address(url: str) -> tuple[BrokerAddress, str]:
    parts = urlsplit(url)
    scheme = parts.scheme
    transport: Literal["tcp", "websockets"] = "websockets" if scheme in ("ws", "wss") else "tcp"
    port = parts.port or {"mqtt": 1883, "mqtts": 8883, "ws": 80, "wss": 443}[scheme]
    host = parts.hostname or "localhost"
    address = BrokerAddress(host, port, unquote(parts.username or ""), unquote(parts.password or ""),
                            transport, scheme in ("mqtts", "wss"))
    ws_url = url if transport == "websockets" else f"ws://{host}:9001/mqtt"
    return address, ws_url.replace(f"{parts.username}:{parts.password}@", "") if parts.password else ws_url


def start_phones(table: Table, *, broker: str = "auto", prefix: str = "companion", table_id: str = "table1",
                 bind: str = "127.0.0.1", port: int = 0, ws_port: int = 0, spectators: int = 0,
                 url: str | None = None, provision: str | None = None, state_dir: Path | None = None,
                 status: StatusBoard | None = None, broker_extra: str = "",
                 referee_route: Callable[[BrokerAddress], BrokerAddress] | None = None) -> Phones:
    """Start the broker (unless external), issue this game's credentials and start the mirror.

    Call on the main loop's thread before `Table.run` (the mirror reads the first views). Ports 0 pick
    free ones. Raises RuntimeError if the broker cannot start (`MosquittoMissing` if it is not
    installed). `broker_extra`: config text for the managed Mosquitto (the hall's bridge); refused with
    any other broker. With `state_dir`, the managed Mosquitto's process id is kept there
    (`mosquitto.PIDFILE`), so a later start on the same state directory stops it if it outlived us.
    `referee_route`: the way the referee's own connection goes to the broker (a test's relay, to cut
    that one link); by default direct.
    """
    kind = choose(broker, url)
    if kind not in ("mosquitto", "external"):
        raise RuntimeError(f"no broker {kind!r}: the broker is the managed Mosquitto or an external one")
    if kind == "mosquitto" and not mosquitto.available():
        raise MosquittoMissing(mosquitto.install_hint())
    if broker_extra and kind != "mosquitto":
        raise RuntimeError(f"a bridge to the hall needs the managed Mosquitto, not the {kind} broker")
    referee = table.referee
    players = [p.id for p in referee.setup.players]
    if state_dir is not None:  # kept across a restart of the same game, so phones rejoin on their own
        game = GameCredentials.kept(state_dir / KEPT_FILE, table_id, referee.game_id, players, spectators)
    else:
        game = GameCredentials.issue(table_id, referee.game_id, players, spectators)
    topics = Topics(prefix, table_id)
    running: Broker
    if kind == "external":
        if not url:
            raise RuntimeError("mqtt.broker is external but mqtt.url is not set")
        address, ws_url = _external_address(url)
        game = dataclasses.replace(game, referee_password=address.password)
        running, ws = ExternalBroker(state_dir, provision), 0
    else:
        for attempt in range(1, PORT_ATTEMPTS + 1):
            picked = iter(p for p in free_ports(3, bind) if p not in (port, ws_port))  # never the one set
            tcp, ws = port or next(picked), ws_port or next(picked)
            running = ManagedMosquitto(prefix, bind, tcp, ws, game.referee_password, broker_extra,
                                       pidfile=state_dir / mosquitto.PIDFILE if state_dir is not None else None)
            try:
                running.start()
                break
            except BaseException as err:  # (a signal too: the broker never outlives the start)
                running.close()
                # a free port picked here was taken before the broker bound it: pick again
                if not isinstance(err, RuntimeError) or (port and ws_port) or attempt == PORT_ATTEMPTS:
                    raise
        connect_host = "127.0.0.1" if bind in ("0.0.0.0", "") else bind
        address = BrokerAddress(connect_host, tcp, password=game.referee_password)
        ws_url = f"ws://{connect_host}:{ws}/mqtt"
    try:
        if kind == "external":
            running.start()
        running.set_game(game)
        seating = Seating(game, running, state_dir / KEPT_FILE if state_dir is not None else None, status)
        mirror = Mirror(table, topics, game, referee_route(address) if referee_route else address, status, kind)
        mirror.seating, mirror.phone_seats, mirror.new_game = seating.command, seating.bound, seating.new_game
        mirror.credentials = lambda: seating.game
        seating.listeners.append(mirror.seats_changed)
        table.outputs.append(mirror)
        mirror.start()
    except BaseException:  # whatever stops the start (a signal too) stops the broker we started
        (getattr(running, "close", None) or running.stop)()
        raise
    return Phones(running, mirror, seating, topics, address, ws_url, ws, owns_broker=kind != "external")


def starter(table: Table, cfg: Config, status: StatusBoard, broker_extra: str = "") -> Phones | None:
    """The `companion run` starter: phones are optional, so a broker that cannot start is reported, not fatal."""
    m = cfg.mqtt
    try:
        phones = start_phones(table, broker=m.broker, prefix=m.prefix, table_id=cfg.table.id, bind="0.0.0.0",
                              port=m.port, ws_port=m.ws_port, spectators=m.spectators, url=m.url,
                              provision=m.provision, state_dir=cfg.storage.path.parent, status=status,
                              broker_extra=broker_extra)
    except MosquittoMissing as err:  # the table runs on without phones; how to install it, said once
        status.set(DeviceStatus("broker", "mosquitto", "missing", detail=str(err)))
        print(i18n.translate(cfg.table.language, "phones.mosquitto_missing", {"command": mosquitto.INSTALL_COMMAND}),
              file=sys.stderr, flush=True)
        return None
    except (RuntimeError, OSError, subprocess.CalledProcessError) as err:
        status.set(DeviceStatus("broker", choose(m.broker, m.url), "error", detail=str(err)))
        print(i18n.translate(cfg.table.language, "phones.broker_failed",
                             {"broker": choose(m.broker, m.url), "problem": str(err)}), file=sys.stderr)
        return None
    print(i18n.translate(cfg.table.language, "phones.broker_started",
                         {"broker": phones.broker.name, "url": phones.ws_url}), file=sys.stderr, flush=True)
    return phones

