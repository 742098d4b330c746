"""The table's side of the bridge: the `connection` section appended to the managed Mosquitto's config.

Mosquitto's own federation carries what crosses (companion/hall/protocol.py): every `out` topic and
every `in` topic, each named exactly under this table's base, never a wildcard that could carry a
`seat/` topic. The table logs in to the central broker as its table id (the hall's ACL lets it write
only its own `out` topics and read its own `hall/#`), with a persistent session under the client id
`hall-<table>`, so QoS 1 messages sent to it while it was away are still delivered. Mosquitto
publishes "1" on the `bridge` topic when the bridge is up and leaves "0" as its will on the hall.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from companion.config import HALL_PASSWORD, MQTT_PREFIX
from companion.hall import protocol

RESTART_TIMEOUT = "1 5"  # seconds: first retry after 1 s, backing off to at most 5 s


def address_of(url: str) -> str:
    """`host:port` of an `mqtt://host[:port]` URL (the config checked its shape)."""
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port or 1883}"


def topics(prefix: str, table: str) -> list[str]:
    """Mosquitto's `topic` lines: each `out` topic the bridge carries and each `in` topic at QoS 1, under
    this table only."""
    base = protocol.base(prefix, table)
    lines = [f"topic {base}/{name} out 1" for name in protocol.BRIDGED_OUT]
    return lines + [f"topic {base}/{name} in 1" for name in protocol.IN]


def connection_text(*, prefix: str, table: str, url: str, password: str, keepalive: int) -> str:
    """The bridge's section of mosquitto.conf. `table` and `password` were checked by the config (a
    table id, printable ASCII without spaces): nothing here can break a line or add one."""
    for value, pattern in ((table, protocol.TABLE_ID.pattern), (password, HALL_PASSWORD), (prefix, MQTT_PREFIX)):
        if not re.fullmatch(pattern, value) or "\n" in value:  # `$` alone matches before a final newline
            raise ValueError("a bridge value that could break a line of Mosquitto's config")
    return "\n".join([
        "",
        "# the hall's bridge (companion/hall/table/bridge.py; docs/hall.md)",
        f"connection hall-{table}",
        f"address {address_of(url)}",
        f"remote_username {table}",
        f"remote_password {password}",
        f"remote_clientid hall-{table}",
        "cleansession false",
        f"keepalive_interval {keepalive}",
        f"restart_timeout {RESTART_TIMEOUT}",
        "notifications true",
        f"notification_topic {protocol.bridge_topic(prefix, table)}",
        *topics(prefix, table),
        "",
    ])
