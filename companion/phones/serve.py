"""`companion run`'s phones: the broker and the mirror (companion.phones.runner), then the phone page.

The page's address is said at start-up. With no network (only a loopback: a Pi not yet on the Wi-Fi) no
address would reach a phone: that is said instead, and `NetworkWatch` says the address, and puts it in the
seats' links and QR codes, once the machine has one. Each seat's join link carries its join credential (the first
phone to use it takes the seat), so the links and their QR codes are printed only to an interactive
terminal (the host's), never to a log or the journal; the kiosk draws a seat's QR code from
`KioskSeats` only while no phone holds the seat, and releases seats through it.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from companion import i18n
from companion.config import Config
from companion.phones import runner
from companion.phones.join import JoinLink, lan_addresses, seat_link, seat_links, seat_qr, spectator_link
from companion.phones.pageserver import PageMissing, PageServer
from companion.phones.runner import Phones
from companion.qr import Matrix, terminal
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import Table

NETWORK_POLL_S = 2.0  # how often a table with no network looks for one (a read of the kernel's interfaces)


class NetworkWatch:
    """With no network at start-up: looks for a LAN address every NETWORK_POLL_S and, on the first one,
    calls `found` with it once, then stops."""

    def __init__(self, found: Callable[[str], None], addresses: Callable[[], list[str]] = lan_addresses) -> None:
        self._found, self._addresses = found, addresses
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="network-watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(NETWORK_POLL_S):
            addresses = self._addresses()
            if addresses:
                self._found(addresses[0])
                return

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)


@dataclass
class Served:
    """The running phones (broker + mirror) and the page server, stopped together."""

    phones: Phones
    page: PageServer | None
    page_url: str | None
    network: NetworkWatch | None = None  # while the table waits for a network

    def links(self, lang: str | None = None) -> dict[str, JoinLink]:
        """Every seat's join link (by player id, and ``host``); empty when the page is not served."""
        return {} if self.page_url is None else seat_links(self.phones, self.page_url, lang)

    def qr(self, seat: str, lang: str | None = None) -> Matrix | None:
        """The QR code the kiosk draws for a seat (a player id, ``host`` or ``spectatorN``), if served."""
        link = self.links(lang).get(seat)
        return None if link is None else seat_qr(link)

    def stop(self) -> None:
        if self.network is not None:
            self.network.stop()
        if self.page is not None:
            self.page.stop()
        self.phones.stop()


@dataclass
class KioskSeats:
    """The seats as the kiosk shows them (`companion.kiosk.seats.PhoneSeats`): a seat's code while no
    phone holds it, whether one does (never which), and the host's release. `pid` None is the host's seat.
    `lang` is a language the host chose for every phone; None (the default) puts none in the links, so
    each phone opens in its own language (docs/phones.md), not the kiosk's."""

    served: Served
    lang: str | None = None

    def join_url(self, pid: str | None, game: int | None = None) -> str | None:
        if self.served.page_url is None or self.bound(pid) or self.codes_coming(game):
            return None
        link = seat_link(self.served.phones, self.served.page_url, pid, self.lang)  # lang None: the phone's own
        return None if link is None else link.url()

    def bound(self, pid: str | None) -> bool:
        return self.served.phones.seating.holds(pid)

    def codes_coming(self, game: int | None = None) -> bool:
        """Whether the seats' codes are on their way to the broker: a new game's (`Phones.in_broker`), or
        game `game`'s, the one the kiosk shows, while the broker still has the last game's."""
        if self.served.page_url is None:
            return False
        live = self.served.phones.in_broker
        return live is None or (game is not None and live.game != game)

    def release(self, pid: str | None) -> bool:
        return self.served.phones.seating.release_player(pid).accepted

    def watch_url(self, turn: int) -> str | None:
        """Spectator `turn % n + 1`'s link, as it is now (each game has its own spectators' credentials)."""
        if self.served.page_url is None:
            return None
        link = spectator_link(self.served.phones, self.served.page_url, turn, self.lang)
        return None if link is None else link.url()


def page_url(host: str, port: int) -> str:
    return f"http://{host}:{port}/"


def start_page(table: Table, cfg: Config) -> tuple[PageServer, str | None]:
    """Serve the page on every interface; returns the server and the address phones use: `mqtt.page_host`,
    else the machine's first LAN address, else None (no network: no address a phone could reach)."""
    page = PageServer("0.0.0.0", cfg.mqtt.page_port, default_language=cfg.table.language,
                      now_ms=table.clock.now_ms).start()
    host = cfg.mqtt.page_host or next(iter(lan_addresses()), None)
    return page, None if host is None else page_url(host, page.port)


def print_links(links: dict[str, JoinLink], names: dict[str, str], lang: str, out: TextIO) -> None:
    """Each seat's join link and its QR code, for the host's terminal."""
    for who, link in links.items():
        seat = i18n.translate(lang, "sender.host") if who == "host" else names.get(who, who)  # spectatorN as is
        print(i18n.translate(lang, "phones.seat_link", {"seat": seat, "url": link.url()}), file=out)
        terminal(seat_qr(link), out)
    out.flush()


def starter(table: Table, cfg: Config, status: StatusBoard, broker_extra: str = "") -> Served | None:
    phones = runner.starter(table, cfg, status, broker_extra)
    if phones is None:
        return None
    lang = cfg.table.language
    try:
        page, url = start_page(table, cfg)
    except (PageMissing, OSError) as err:  # the game goes on without phones' page; say why
        status.set(DeviceStatus("phones", "page", "error", detail=str(err)))
        print(i18n.translate(lang, "phones.page_failed", {"problem": str(err)}), file=sys.stderr, flush=True)
        return Served(phones, None, None)
    except BaseException:  # a signal meanwhile: the broker just started is stopped, not left behind
        phones.stop()
        raise
    if url is None:  # no network yet: the page serves this machine, and phones once it is on the Wi-Fi
        served = Served(phones, page, page_url("127.0.0.1", page.port))
        print(i18n.translate(lang, "phones.page_no_network"), file=sys.stderr, flush=True)
        served.network = NetworkWatch(lambda host: network_found(served, host, lang))
        return served
    served = Served(phones, page, url)
    print(i18n.translate(lang, "phones.page_started", {"url": url}), file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        names = {p.id: p.name for p in table.referee.setup.players}
        print_links(served.links(), names, lang, sys.stderr)  # the links carry no language: the phone's own
    return served


def network_found(served: Served, host: str, lang: str) -> None:
    """The machine is on a network: the seats' links and QR codes use its address, which is said."""
    if served.page is None:
        return
    served.page_url = page_url(host, served.page.port)
    print(i18n.translate(lang, "phones.page_started", {"url": served.page_url}), file=sys.stderr, flush=True)
