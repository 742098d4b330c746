"""The running table: one main loop owns the referee; adapters only queue raw inputs and read views.

Adapter threads (the console today; readers, buttons and phones as they land) call `Table.put`. The
main loop stamps each input with the table clock, fires every deadline due by then, submits the input,
replies to the sender, and tells the outputs that the views changed. No game logic runs elsewhere.

After a change every output is handed the same `Views` (companion/table/views.py), never the referee:
the public view is computed once per change, each seat's and the host's once when first asked for,
and what phones are sent is serialized once per view. `Table.views` are the current state's views,
for an output that starts (its first picture) or a tap that opens a booth.

Device drivers (hardware/events.py) call `Table.put_device` from their reader threads: the event joins
the same inbox, in order with every other input, and the main loop hands it to each of
`device_handlers` (the tap router turns a tag into a token and a token into an input with `handle`).

The host's `table.new_game` is the table's own input, not a game's (companion/table/next_game.py): the
table starts that game in the same event log, runs it from then on and tells every output; the views
then carry the new game's `number`. The same command id again is answered as a duplicate.

Nothing an adapter hands the loop can stop it: a reply callback, an output or a turn hook that raises
is logged (with `failure`, which names the exception and where, never its message: that may quote a
hostile payload) and the loop goes on.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from companion.core.clock import advance
from companion.core.contract import Game
from companion.core.eventlog import LogError
from companion.core.failure import failure
from companion.core.inputs import HOST, Input
from companion.core.referee import Outcome, Referee
from companion.core.rejection import Rejected
from companion.games import registry
from companion.table import next_game
from companion.table.clock import Clock, SteadyClock
from companion.table.views import Views
from hardware.events import DeviceEvent

logger = logging.getLogger(__name__)
Reply = Callable[[Outcome], None]
IDLE_WAKE_S = 1.0  # re-check deadlines at least this often, in case the wall clock jumped


class Output(Protocol):
    """Something that shows views: the console, the kiosk, the MQTT mirror, the buttons' LEDs."""

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        """After a change, on the table's thread: `views` of the new state, shared with every output."""
        ...


@dataclass(frozen=True)
class Submission:
    raw: Any
    reply: Reply | None = None


@dataclass(frozen=True)
class DeviceNotice:
    event: DeviceEvent


@dataclass(frozen=True)
class Call:
    """Work an adapter hands the main loop (the hall's seating): run there, in order with the inputs."""

    work: Callable[[], None]


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
    games: Mapping[str, Game] = field(default_factory=registry)  # what `table.new_game` may start
    new_seed: Callable[[], int] = field(default=lambda: secrets.randbits(63))  # a new game's referee
    # seed: unpredictable (a deal nobody can foresee); a test that replays a demo script gives the script's
    _new_games: dict[str, Outcome] = field(default_factory=dict, init=False, repr=False, compare=False)
    _views: Views | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def views(self) -> Views:
        """The views of the referee's current state, made again only once it has changed (main loop)."""
        if self._views is None or not self._views.are_of(self.referee):
            self._views = Views.of(self.referee, last=self._views)  # reusing what did not change
        return self._views

    def put(self, raw: Any, reply: Reply | None = None) -> None:
        """Thread-safe: queue a raw input (decoded JSON) from any adapter."""
        self.inbox.put(Submission(raw, reply))

    def put_device(self, event: DeviceEvent) -> None:
        """Thread-safe: queue a device event from a driver's thread; the handlers run on the main loop."""
        self.inbox.put(DeviceNotice(event))

    def call(self, work: Callable[[], None]) -> None:
        """Thread-safe: run `work` on the main loop (it may use the referee and `handle`); one that
        raises is logged and the loop goes on."""
        self.inbox.put(Call(work))

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
        table_move = inp.move == next_game.MOVE  # the table's own input: another game
        outcome = self._new_game(inp, now) if table_move else self.referee.submit(replace(inp, at=now))
        self._tell([*outcomes, outcome])
        return outcome

    def _new_game(self, inp: Input, now: int) -> Outcome:
        """The host's `table.new_game`: start that game in the same log and run it from now on."""
        earlier = self._new_games.get(inp.command_key) if inp.command_key is not None else None
        if earlier is not None:
            return replace(earlier, duplicate=True)
        if inp.by != HOST:
            return Outcome(accepted=False, reason=Rejected("reject.not_allowed", move=next_game.MOVE,
                                                           sender=f"sender.{inp.by.split(':')[0]}"))
        if next_game.in_progress(self.views.public):
            return Outcome(accepted=False, reason=Rejected("reject.game_in_progress"))
        try:
            setup = next_game.setup_of(inp.args, self.games, self.new_seed(), self.referee.setup)
            referee = Referee.start(self.games, self.referee.log, setup, created_at=now)
        except Rejected as reason:
            return Outcome(accepted=False, reason=reason)
        except LogError as err:
            logger.error("%s", err)
            return Outcome(accepted=False, reason=Rejected("reject.storage_failed"))
        self.referee = referee
        outcome = Outcome(accepted=True, seq=0)
        if inp.command_key is not None:
            self._new_games[inp.command_key] = outcome
        logger.info("the host started game %d (%s)", referee.game_id, setup.game)
        return outcome

    def tick(self) -> None:
        self._tell(advance(self.referee, self.clock.now_ms()))

    def _tell(self, outcomes: list[Outcome]) -> None:
        if any(o.accepted and not o.duplicate for o in outcomes):
            views = self.views
            for out in self.outputs:
                try:
                    out.changed(views, outcomes)
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
            if isinstance(item, Call):
                try:
                    item.work()
                except Exception as err:
                    logger.error("a call on the table's loop failed: %s", failure(err))
                continue
            assert isinstance(item, Submission)
            outcome = self.handle(item.raw)
            if item.reply is not None:
                self._answer(item.reply, outcome)
