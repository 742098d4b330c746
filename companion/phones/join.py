"""Join links and their QR codes: what the kiosk shows per seat so a phone opens the page and takes it.

A join link is the phone page's address with everything the page needs in the URL **fragment**
(after ``#``): the MQTT-over-WebSockets URL, the table's base topic, a user name and password, and
optionally a language. For a player's or the host's seat the credential is the seat's **join**
credential, never the seat's own: it only lets the first phone claim the seat with a password of its
own (companion.phones.seating), so a photo of the code is worth nothing once the seat is taken. A
spectator's link carries the spectator's credential (it reads public topics only). Browsers never send
the fragment to the server, so the credential appears in no HTTP request and no server log; the page
moves it to its own storage and removes it from the address bar. See docs/phones.md.

    http://192.168.1.20:8080/#v=1&ws=ws%3A%2F%2F192.168.1.20%3A9001%2Fmqtt&t=companion%2Fv1%2Ftable1&u=table1.g7.j.ana&p=...
"""

from __future__ import annotations

import fcntl
import socket
import struct
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode, urlsplit

from companion import qr
from companion.phones.runner import Phones

LINK_VERSION = "1"
SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


@dataclass(frozen=True)
class JoinLink:
    """What a phone needs to take a seat."""

    page: str  # the phone page's base URL, e.g. http://192.168.1.20:8080/
    ws: str  # the broker's MQTT-over-WebSockets URL
    base: str  # the table's base topic, e.g. companion/v1/table1 (docs/mqtt.md)
    user: str  # the join user of the seat, e.g. table1.g7.j.ana (a spectator's own, table1.g7.s1)
    password: str
    lang: str | None = None

    def url(self) -> str:
        fragment = {"v": LINK_VERSION, "ws": self.ws, "t": self.base, "u": self.user, "p": self.password}
        if self.lang:
            fragment["l"] = self.lang
        page = self.page if self.page.endswith("/") else self.page + "/"
        return f"{page}#{urlencode(fragment)}"

    @classmethod
    def parse(cls, url: str) -> JoinLink:
        """The link a URL carries (for tests and the CLI); raises ValueError for anything else."""
        parts = urlsplit(url)
        fields = {k: v[0] for k, v in parse_qs(parts.fragment, keep_blank_values=True).items()}
        if fields.get("v") != LINK_VERSION or not all(fields.get(k) for k in ("ws", "t", "u", "p")):
            raise ValueError("not a join link of this companion")
        page = parts._replace(fragment="").geturl()
        return cls(page, fields["ws"], fields["t"], fields["u"], fields["p"], fields.get("l") or None)


def seat_qr(link: JoinLink) -> qr.Matrix:
    """The QR code of a seat's join link, its modules with the standard quiet zone (companion.qr: error
    correction M at least, a phone reads it off a screen at an angle); ``qr.terminal`` draws it as text."""
    return qr.matrix(link.url())


def lan_addresses() -> list[str]:
    """The machine's IPv4 addresses on its network interfaces (not loopback), read from the kernel.

    Phones on the table's Wi-Fi reach the page at one of these. Asks the kernel only; sends nothing.
    """
    found: list[str] = []
    for _, name in socket.if_nameindex():
        if name == "lo":
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                packed = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address on this interface
                continue
        address = socket.inet_ntoa(packed[20:24])
        if not address.startswith("127.") and address not in found:
            found.append(address)
    return found


def phone_ws_url(ws_url: str, page: str) -> str:
    """The broker's WebSocket URL as a phone must use it: a loopback host (the broker listens on every
    interface but the referee reaches it locally) becomes the host the phone reached the page at."""
    ws, seen = urlsplit(ws_url), urlsplit(page)
    if ws.hostname in ("127.0.0.1", "localhost", "0.0.0.0") and seen.hostname not in (None, "127.0.0.1", "localhost"):
        netloc = f"{seen.hostname}:{ws.port}" if ws.port else str(seen.hostname)
        return ws._replace(netloc=netloc).geturl()
    return ws_url


def seat_link(phones: Phones, page: str, pid: str | None, lang: str | None = None) -> JoinLink | None:
    """The join link of player `pid`'s seat as it is now (the host's for None); None for no such player,
    and while a new game's seats are on their way to the broker (`Phones.in_broker`)."""
    game = phones.in_broker
    if game is None:
        return None
    seat = game.host if pid is None else game.players.get(pid)
    join = game.joins.get(seat.user) if seat is not None else None
    if join is None:
        return None
    return JoinLink(page, phone_ws_url(phones.ws_url, page), phones.topics.base, join.user, join.password, lang)


def spectator_link(phones: Phones, page: str, turn: int, lang: str | None = None) -> JoinLink | None:
    """A spectator's link to the running game's public view: the game's spectator credentials taken in
    turn (`turn` modulo their number), None when the host allows no spectators (`mqtt.spectators = 0`)."""
    game = phones.in_broker
    spectators = game.spectators if game is not None else ()
    if not spectators:
        return None
    c = spectators[turn % len(spectators)]
    return JoinLink(page, phone_ws_url(phones.ws_url, page), phones.topics.base, c.user, c.password, lang)


def seat_links(phones: Phones, page: str, lang: str | None = None) -> dict[str, JoinLink]:
    """The join link of every seat of the running game as it is now: by player id, ``host`` for the
    host's seat (their join credentials: a released seat's link changes), and ``spectator1``,
    ``spectator2``, ... for the spectators' (only if the host allowed spectators). Empty while a new game's
    seats are on their way to the broker (`Phones.in_broker`): a code is shown only once it logs in."""
    ws = phone_ws_url(phones.ws_url, page)
    game = phones.in_broker
    if game is None:
        return {}
    creds = {**{pid: game.joins[c.user] for pid, c in game.players.items()}, "host": game.joins[game.host.user],
             **{f"spectator{n}": c for n, c in enumerate(game.spectators, start=1)}}
    return {who: JoinLink(page, ws, phones.topics.base, c.user, c.password, lang) for who, c in creds.items()}
