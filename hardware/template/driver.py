"""Skeleton of a serial reader driver: a framer for `SerialLink`, and the `ReaderDriver` around it.

Replace the parts marked TODO. Everything here runs as is (it greets nothing and decodes nothing), so
the skeleton type-checks and its shape can be tested before the protocol is written.
"""

from __future__ import annotations

from hardware.events import Emit, TagPlaced
from hardware.serial_link import SerialLink


class TemplateFramer:
    """Bytes in, events out; every method runs on the link's reader thread."""

    def __init__(self, name: str, emit: Emit) -> None:
        self.name = name
        self.emit = emit
        self.link: SerialLink | None = None
        self.buffer = b""

    def connection_made(self, link: SerialLink) -> None:
        self.link = link
        self.buffer = b""
        # TODO: greet the device (link.write(...)); report "ok" only when it has answered.

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        # TODO: split self.buffer into frames; check each (length, checksum); count bad ones in
        # self.link.frames_dropped; turn good ones into events, e.g.
        # self.emit(TagPlaced(self.name, slot, uid_hex, "mifare_classic"))
        _ = TagPlaced

    def connection_lost(self, why: str) -> None:
        self.buffer = b""

    def tick(self, now: float) -> None:
        pass  # TODO: timeouts (a reply that did not come, a removal held back for the repeat window)


class TemplateDriver:
    def __init__(self, name: str, url: str) -> None:
        self.name = name
        self.url = url
        self.link: SerialLink | None = None

    def start(self, emit: Emit) -> None:
        self.link = SerialLink(self.url, TemplateFramer(self.name, emit), emit, name=self.name)
        self.link.start()

    def stop(self) -> None:
        if self.link is not None:
            self.link.stop()
