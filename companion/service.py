"""The running table: one main loop owns the referee; adapters only queue raw inputs and read views.

Adapter threads (the console today; readers, buttons and phones as they land) call `Table.put`. The
main loop stamps each input with the table clock, fires every deadline due by then, submits the input,
replies to the sender, and tells the outputs that the views changed. No game logic runs elsewhere.

Device drivers (hardware/events.py) call `Table.put_device` from their reader threads: the event joins
the same inbox, in order with every other input, and the main loop hands it to each of
`device_handlers` (the tap router turns a tag into a token and a token into an input with `handle`).

Nothing an adapter hands the loop can stop it: a reply callback, an output or a turn hook that raises
is logged (with `failure`, which names the exception and where, never its message: that may quote a
hostile payload) and the loop goes on.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from companion.core.clock import advance
from companion.core.failure import failure
from companion.core.inputs import HOST, Input
from companion.core.referee import Outcome, Referee
from companion.core.rejection import Rejected
from hardware.events import DeviceEvent

logger = logging.getLogger(__name__)
Reply = Callable[[Outcome], None]
IDLE_WAKE_S = 1.0  # re-check deadlines at least this often, in case the wall clock jumped


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


JUMP_NOTED_MS = 2000  # a wall clock this far from the table's clock has been set (NTP, the host): say so once


class SteadyClock:
    """The table's clock: the wall time at start, then advanced by the monotonic clock only.

    A Pi has no real-time clock; NTP sets the wall clock minutes or months after boot, maybe mid-game.
    Timers are deadlines on this clock, so a wall clock that jumps forward must not make every timer run
    out at once, nor one set back make a timer last an hour longer: they count real seconds. A restart
    takes the wall time afresh (timers paused over a restart resume by the game's own rule). The jump
    is logged once (docs/faults.md).
    """

    def __init__(self, wall_ns: Callable[[], int] = time.time_ns,
                 mono_ns: Callable[[], int] = time.monotonic_ns) -> None:
        self._wall_ns, self._mono_ns = wall_ns, mono_ns
        self._wall0, self._mono0 = wall_ns(), mono_ns()
        self._noted = 0

    def now_ms(self) -> int:
        now = (self._wall0 + self._mono_ns() - self._mono0) // 1_000_000
        off = self._wall_ns() // 1_000_000 - now
        if abs(off - self._noted) > JUMP_NOTED_MS:
            self._noted = off
            logger.warning("the wall clock moved %+d s against the table's clock; timers keep counting real "
                           "seconds", off // 1000)
        return now


class Output(Protocol):
    """Something that shows views: the console, the kiosk, the MQTT mirror."""

    def changed(self, referee: Referee, outcomes: list[Outcome]) -> None: ...


@dataclass(frozen=True)
class Submission:
    raw: Any
    reply: Reply | None = None


@dataclass(frozen=True)
class DeviceNotice:
    event: DeviceEvent


DeviceHandler = Callable[[DeviceEvent], None]
_STOP = object()


@dataclass
class Table:
    referee: Referee
    clock: Clock = field(default_factory=SteadyClock)
    outputs: list[Output] = field(default_factory=list)
    inbox: queue.Queue[object] = field(default_factory=queue.Queue)
    device_handlers: list[DeviceHandler] = field(default_factory=list)
    turn_hooks: list[Callable[[], None]] = field(default_factory=list)  # each turn of `run` (the watchdog)

    def put(self, raw: Any, reply: Reply | None = None) -> None:
        """Thread-safe: queue a raw input (decoded JSON) from any adapter."""
        self.inbox.put(Submission(raw, reply))

    def put_device(self, event: DeviceEvent) -> None:
        """Thread-safe: queue a device event from a driver's thread; the handlers run on the main loop."""
        self.inbox.put(DeviceNotice(event))

    def device(self, event: DeviceEvent) -> None:
        """Hand one device event to every handler (on the main loop). A failing handler is logged and
        skipped: a bad tag must never stop the referee."""
        for handler in self.device_handlers:
            try:
                handler(event)
            except Exception:
                logger.exception("device handler %r failed on %r", handler, event)

    def stop(self) -> None:
        self.inbox.put(_STOP)

    def resume_paused(self) -> list[Outcome]:
        """After a restart: make the host moves the game asks for when the table chose to pause."""
        now = self.clock.now_ms()
        outcomes = advance(self.referee, now)  # what ran out while the power was off, first
        if not self.referee.state.get("ended"):
            pauses = self.referee.game.on_resume(self.referee.state)
            outcomes += [self.referee.submit(Input(move, HOST, args, now)) for move, args in pauses]
        self._tell(outcomes)
        return outcomes

    def handle(self, raw: Any) -> Outcome:
        """Stamp, fire due deadlines, submit. Inputs never carry their own time into a live game."""
        if isinstance(raw, Rejected):  # an adapter could not even decode it
            return Outcome(accepted=False, reason=raw)
        try:
            inp = Input.from_json(raw)
        except Rejected as reason:
            return Outcome(accepted=False, reason=reason)
        if inp.by == "clock":
            return Outcome(accepted=False, reason=Rejected("reject.clock_is_internal"))
        now = self.clock.now_ms()
        outcomes = advance(self.referee, now)
        outcome = self.referee.submit(replace(inp, at=now))
        self._tell([*outcomes, outcome])
        return outcome

    def tick(self) -> None:
        self._tell(advance(self.referee, self.clock.now_ms()))

    def _tell(self, outcomes: list[Outcome]) -> None:
        if any(o.accepted and not o.duplicate for o in outcomes):
            for out in self.outputs:
                try:
                    out.changed(self.referee, outcomes)
                except Exception as err:  # one output's bug must not stop the table, nor the others
                    logger.error("output %s failed: %s", type(out).__name__, failure(err))

    def _turn(self) -> None:
        for hook in list(self.turn_hooks):
            try:
                hook()
            except Exception as err:
                logger.error("turn hook %s failed: %s", getattr(hook, "__qualname__", type(hook).__name__),
                             failure(err))

    @staticmethod
    def _answer(reply: Reply, outcome: Outcome) -> None:
        try:
            reply(outcome)
        except Exception as err:  # the sender goes without an answer; the table goes on
            logger.error("a reply failed: %s", failure(err))

    def _timeout(self) -> float:
        deadlines = self.referee.deadlines()
        if not deadlines:
            return IDLE_WAKE_S
        return min(IDLE_WAKE_S, max(0.0, (deadlines[0].at - self.clock.now_ms()) / 1000))

    def run(self, until: threading.Event | None = None) -> None:
        """The main loop: sleeps until an input arrives or the next deadline is due."""
        while until is None or not until.is_set():
            self._turn()
            try:
                item = self.inbox.get(timeout=self._timeout())
            except queue.Empty:
                self.tick()
                continue
            if item is _STOP:
                return
            if isinstance(item, DeviceNotice):
                self.device(item.event)
                continue
            assert isinstance(item, Submission)
            outcome = self.handle(item.raw)
            if item.reply is not None:
                self._answer(item.reply, outcome)


def read_lines(stream: Any, table: Table, reply_for: Callable[[int], Reply]) -> threading.Thread:
    """A console adapter: each line of `stream` is one JSON input; EOF stops the table."""

    def pump() -> None:
        for number, line in enumerate(stream, start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            try:
                raw: Any = json.loads(text)
            except json.JSONDecodeError as err:
                raw = Rejected("reject.malformed", problem=f"not JSON: {err.msg}")
            table.put(raw, reply_for(number))
        table.stop()

    thread = threading.Thread(target=pump, name="console", daemon=True)
    thread.start()
    return thread
