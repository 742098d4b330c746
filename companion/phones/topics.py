"""The MQTT topic layout (version 1) and the user names of a game's credentials: one place for both sides.

    {prefix}/v1/{table}/status              retained "online" / "headless" / "offline" (the referee's last will)
    {prefix}/v1/{table}/public              retained public view (JSON)
    {prefix}/v1/{table}/events              public events: announcements as they happen (not retained)
    {prefix}/v1/{table}/seat/{user}/view    retained private view of that user (player or host view)
    {prefix}/v1/{table}/seat/{user}/reply   the referee's replies to that user's commands
    {prefix}/v1/{table}/seat/{user}/cmd     that user's commands (phone -> referee)

A seat is named by the user name of its credential, so one static ACL with `%u` patterns isolates every
seat on any broker (see docs/mqtt.md). User names carry the table and the game number, so a new game's
credentials never match an old game's, and tables sharing a broker never collide:

    player  {table}.g{game}.p.{pid}     host  {table}.g{game}.host     spectator  {table}.g{game}.s{n}

and each player's and the host's seat has a **join** user, the one its QR code carries (docs/phones.md):
it only claims the seat for the first phone that scans the code, so with the same `%u` ACL it reads
the public topics and its own (empty) seat topics, never the seat's view:

    a player's join  {table}.g{game}.j.{pid}     the host's join  {table}.g{game}.host.j

A released seat gets a new join user, the same with a tag: `{table}.g{game}.j.{pid}.{tag}` and
`{table}.g{game}.host.j.{tag}` (`tag`: 1-12 lowercase letters or digits), so the old code's user is
not the seat's join user any more and the broker drops it (docs/phones.md).

'.' appears in neither a table id nor a player id, so a user name parses back to one seat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

VERSION = "v1"
REFEREE_USER = "companion-referee"  # the referee's own login on a managed or system broker

COMMAND_MAX_BYTES = 4096  # a phone command; larger ones are refused with reject.mqtt_too_large
VIEW_MAX_BYTES = 256 * 1024  # the largest view the referee publishes
# Every broker the companion runs cuts a connection whose packet would be larger (fixed header byte plus
# remaining length, as Mosquitto's `max_packet_size` counts it) before reading its body: a view with its topic fits.
MAX_PACKET_BYTES = VIEW_MAX_BYTES + 1024

ONLINE, OFFLINE = "online", "offline"
HEADLESS = "headless"  # online, and the table has no screen: the phones are its display (docs/pi.md)

_USER = re.compile(r"^(?P<table>[a-z0-9][a-z0-9_-]{0,31})\.g(?P<game>[0-9]{1,12})\."
                   r"(?:p\.(?P<pid>[a-z0-9_-]{1,32})|j\.(?P<joins>[a-z0-9_-]{1,32})(?:\.[a-z0-9]{1,12})?"
                   r"|(?P<host>host)(?P<hostjoin>\.j(?:\.[a-z0-9]{1,12})?)?|s(?P<spectator>[0-9]{1,4}))$")


@dataclass(frozen=True)
class Seat:
    """Who a user name is: kind is "player", "host", "spectator" or "join"; `pid` for a player and for a
    player's join user (None for the host's), `n` for a spectator."""

    table: str
    game: int
    kind: str
    pid: str | None = None
    n: int | None = None

    @property
    def actor(self) -> str | None:
        """The referee's sender for this seat's commands (None: a spectator may not send any)."""
        if self.kind == "player":
            return f"player:{self.pid}"
        return "host" if self.kind == "host" else None

    @property
    def audience(self) -> str | None:
        """The view this seat's `view` topic carries (None: a spectator or a join user reads only the public view)."""
        return self.actor

    @property
    def claims(self) -> str | None:
        """For a join user, the user name of the seat it claims (a player's or the host's); else None."""
        if self.kind != "join":
            return None
        return host_user(self.table, self.game) if self.pid is None else player_user(self.table, self.game, self.pid)


def player_user(table: str, game: int, pid: str) -> str:
    return f"{table}.g{game}.p.{pid}"


def host_user(table: str, game: int) -> str:
    return f"{table}.g{game}.host"


def spectator_user(table: str, game: int, n: int) -> str:
    return f"{table}.g{game}.s{n}"


def join_user(table: str, game: int, pid: str | None, tag: str = "") -> str:
    """The join user of player `pid`'s seat, or of the host's seat when `pid` is None; `tag` names a
    released seat's new join user (lowercase letters and digits, at most 12)."""
    user = f"{table}.g{game}.host.j" if pid is None else f"{table}.g{game}.j.{pid}"
    return f"{user}.{tag}" if tag else user


def parse_user(user: str) -> Seat | None:
    m = _USER.match(user)
    if m is None:
        return None
    table, game = m["table"], int(m["game"])
    if m["pid"]:
        return Seat(table, game, "player", pid=m["pid"])
    if m["joins"]:
        return Seat(table, game, "join", pid=m["joins"])
    if m["host"]:
        return Seat(table, game, "join") if m["hostjoin"] else Seat(table, game, "host")
    return Seat(table, game, "spectator", n=int(m["spectator"]))


@dataclass(frozen=True)
class Topics:
    """The topics of one table under one prefix."""

    prefix: str
    table: str

    @property
    def base(self) -> str:
        return f"{self.prefix}/{VERSION}/{self.table}"

    @property
    def status(self) -> str:
        return f"{self.base}/status"

    @property
    def public(self) -> str:
        return f"{self.base}/public"

    @property
    def events(self) -> str:
        return f"{self.base}/events"

    def seat(self, user: str) -> str:
        return f"{self.base}/seat/{user}"

    def view(self, user: str) -> str:
        return f"{self.seat(user)}/view"

    def reply(self, user: str) -> str:
        return f"{self.seat(user)}/reply"

    def cmd(self, user: str) -> str:
        return f"{self.seat(user)}/cmd"

    @property
    def all_commands(self) -> str:
        """What the referee subscribes to: every seat's command topic."""
        return f"{self.base}/seat/+/cmd"

    def user_of_cmd(self, topic: str) -> str | None:
        """The user whose command topic this is, or None for any other topic."""
        head, tail = f"{self.base}/seat/", "/cmd"
        if not (topic.startswith(head) and topic.endswith(tail)):
            return None
        user = topic[len(head):-len(tail)]
        return user if user and "/" not in user else None


def acl_patterns(prefix: str) -> list[tuple[str, str]]:
    """The per-user ACL every broker applies to phones, as (access, pattern) with `%u` = the user name.

    A phone reads the public topics of a table and its own seat's view and replies, and writes only its
    own seat's command topic. The referee's user gets readwrite on `{prefix}/{VERSION}/#` instead.
    """
    base = f"{prefix}/{VERSION}/+"
    return [
        ("read", f"{base}/status"),
        ("read", f"{base}/public"),
        ("read", f"{base}/events"),
        ("read", f"{base}/seat/%u/view"),
        ("read", f"{base}/seat/%u/reply"),
        ("write", f"{base}/seat/%u/cmd"),
    ]
