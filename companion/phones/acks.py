"""PUBACKs and PUBLISHes taken as they arrive on a TCP connection, without waking its reader (issue 20).

Every QoS 1 delivery of the embedded broker comes back as a 4-byte PUBACK; woken for each, the
connection's reader task (`SeatHandler._reader_loop` through `PacketLimit` and asyncio's
`StreamReader`) cost more CPU than the delivery itself. `AckSieve` is asyncio's own protocol for a
`start_server` connection, but when bytes arrive while nothing of the connection waits unread (the
stream's buffer empty, `PacketLimit` between packets) and they are nothing but whole packets within
the packet limit, each a PUBACK for a `delivery.Outbox` delivery or a QoS 0/1 PUBLISH the broker
routes in place (`received`), it handles them right there, in order (`SeatHandler.take_arrived`).
Anything else, even one byte more, goes to the stream as before, so every other packet is read,
checked and handled exactly as it was.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

Connected = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
STREAM_LIMIT = 2 ** 16  # asyncio.start_server's default buffer limit


class AckSieve(asyncio.StreamReaderProtocol):
    """`asyncio.start_server`'s protocol, with the PUBACK shortcut once `handler` is set."""

    def __init__(self, reader: asyncio.StreamReader, connected: Connected) -> None:
        super().__init__(reader, connected)
        self._reader_of_stream = reader
        self.handler: Any = None  # the connection's SeatHandler, set by SeatBroker once it has one

    def data_received(self, data: bytes) -> None:
        handler = self.handler
        if handler is not None and not getattr(self._reader_of_stream, "_buffer", True) and handler.take_arrived(data):
            return
        super().data_received(data)


async def serve(connected: Connected, host: str | None, port: int, ssl: Any = None) -> asyncio.Server:
    """`asyncio.start_server(connected, host, port, reuse_address=True)` (as amqtt), with `AckSieve`."""
    loop = asyncio.get_running_loop()

    def factory() -> AckSieve:
        return AckSieve(asyncio.StreamReader(limit=STREAM_LIMIT, loop=loop), connected)

    return await loop.create_server(factory, host, port, reuse_address=True, ssl=ssl)
