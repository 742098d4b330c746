"""What the Table's loop hands the kiosk: views and taps, queued, with a wake-up.

`KioskFeed` is the kiosk's `Output` (the Table calls `changed` after each accepted input) and its
`TapScreen` (the tap router calls it). Both run on the Table's thread, the only thread that may touch
the referee, so the views are read there, from the views the table shares with every output
(companion/table/views.py): the public view always, and the player's view only for the player whose
booth is open (`booth`). Everything else is a message in `inbox` and a byte in the
kiosk's self-pipe; the kiosk's loop reads them on the main thread.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.core.referee import HOST_VIEW, PUBLIC, Outcome
from companion.core.rejection import Rejected
from companion.kiosk.host_lock import Pin
from companion.kiosk.wake import Waker
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.table.views import Views
from companion.taps.kinds import Choice, enrollable
from companion.taps.registry import Registry, Token

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PublicView:
    view: dict[str, Any]


@dataclass(frozen=True)
class PlayerView:
    """One player's view, for that player's booth only."""

    player: str
    view: dict[str, Any]
    opened: bool = False  # True when this view opens the booth (a tap of the player's token)


@dataclass(frozen=True)
class BoothClosed:
    player: str


@dataclass(frozen=True)
class UnknownTag:
    uid: str
    reader: str
    game: str = ""
    choices: tuple[Choice, ...] = ()  # what it can be enrolled as (empty: no registry to enroll into)


@dataclass(frozen=True)
class TokenRefused:
    """A tapped token refused. `player`: the booth it was tapped in, the only place its reason may show
    (the reason may tell that player's secrets); without one the public screen says only "not now"."""

    label: str
    reason: Rejected
    player: str | None = None


@dataclass(frozen=True)
class Reply:
    """The referee's answer to an input the kiosk itself sent (a booth form, a host action)."""

    outcome: Outcome
    by: str


@dataclass(frozen=True)
class StatusChanged:
    pass


@dataclass(frozen=True)
class FigureTapped:
    """A player's figure tapped while the seating screen is up: seat that player (not their booth)."""

    player: str
    name: str


@dataclass(frozen=True)
class Notice:
    """A line for the status bar from another part of the table (the hall's seating): a message id."""

    msgid: str
    params: dict[str, Any]


@dataclass(frozen=True)
class HostPinSet:
    """The host set the kiosk's host PIN on their phone's page (companion/phones/host_pin.py): its hash."""

    pin: Pin = field(repr=False)


Message = (PublicView | PlayerView | BoothClosed | UnknownTag | TokenRefused | Reply | StatusChanged | FigureTapped
           | Notice | HostPinSet)


class KioskFeed:
    """Thread-safe: every method may be called from any thread; views only on the Table's thread."""

    def __init__(self, waker: Waker) -> None:
        self.waker = waker
        self.inbox: queue.Queue[Message] = queue.Queue()
        self.table: Table | None = None
        self._lock = threading.Lock()
        self._booth: str | None = None
        self._registry: Registry | None = None
        self._seating = False
        self._views: Views | None = None  # the latest views: the host's forms are read from them
        self.turn_hooks: list[Callable[[], None]] = []  # each turn of the kiosk's loop (the watchdog)
        self._lock_mode = "off"  # the kiosk's host lock as the kiosk last said (`lock_changed`)
        self.lock_listeners: list[Callable[[], None]] = []  # told when it changes (the host's view)

    def attach(self, table: Table, status: StatusBoard | None = None) -> None:
        """Become one of the table's outputs (before its loop starts) and listen to the status board."""
        self.table = table
        self._views = table.views
        table.outputs.append(self)
        if status is not None:
            status.listen(lambda: self.post(StatusChanged()))

    def post(self, message: Message) -> None:
        self.inbox.put(message)
        self.waker.wake()

    def say(self, msgid: str, params: dict[str, Any]) -> None:
        """Show a notice (a message id of the catalogs) on the status bar, from any thread."""
        self.post(Notice(msgid, dict(params)))

    @property
    def booth(self) -> str | None:
        with self._lock:
            return self._booth

    def set_host_pin(self, pin: Pin) -> None:
        """The host's phone set the kiosk's host PIN (the mirror's thread): the kiosk takes it on its loop."""
        self.post(HostPinSet(pin))

    def lock_mode(self) -> str:
        """The kiosk's host lock now: "pin", "off" or "unset" (never the PIN)."""
        with self._lock:
            return self._lock_mode

    def lock_changed(self, mode: str) -> None:
        """The kiosk's loop: its host lock is `mode` now; the host's view is told when it changed."""
        with self._lock:
            changed, self._lock_mode = self._lock_mode != mode, mode
        if changed:
            for listener in list(self.lock_listeners):
                listener()

    def use_registry(self, registry: Registry | None) -> None:
        """The token registry the readers' starter opened (None when they stop): enrollment writes to it."""
        with self._lock:
            self._registry = registry

    @property
    def can_enroll(self) -> bool:
        with self._lock:
            return self._registry is not None

    def seating(self, on: bool) -> None:
        """The seating screen is up (True) or gone: a figure tapped now seats its player."""
        with self._lock:
            self._seating = on

    def figures(self) -> list[tuple[str, str]]:
        """The players whose figures are enrolled (id, label), each once."""
        with self._lock:
            registry = self._registry
        if registry is None:
            return []
        found: dict[str, str] = {}
        for token in registry.tokens():
            if token.is_player:
                found.setdefault(token.id, token.label)
        return list(found.items())

    def identified_player(self) -> str | None:
        """The player whose booth is open: a token tapped now acts for them (see companion/taps/router.py)."""
        return self.booth

    # -- Output ------------------------------------------------------------------------------------------

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        with self._lock:
            self._views = views
        self.post(PublicView(views.with_lines(PUBLIC)))  # every view as the screens get it: ids in words
        player = self.booth
        if player is not None:
            self.post(PlayerView(player, views.with_lines(f"player:{player}")))

    # -- TapScreen ---------------------------------------------------------------------------------------

    def player_tapped(self, player_id: str) -> None:
        """Open that player's booth; a second tap of the same token closes it. Table thread only.
        While the seating screen is up the figure seats its player instead."""
        with self._lock:
            seating = self._seating
        if seating:
            self.post(FigureTapped(player_id, dict(self.figures()).get(player_id, player_id)))
            return
        with self._lock:
            closing = self._booth == player_id
            self._booth = None if closing else player_id
        if closing:
            self.post(BoothClosed(player_id))
            return
        assert self.table is not None, "attach() the feed to a table first"
        self.post(PlayerView(player_id, self.table.views.with_lines(f"player:{player_id}"), opened=True))

    def open_booth(self, player_id: str) -> None:
        """Open that player's booth from the kiosk (their own PIN typed): on the Table's thread, with
        their view as it is then, as their figure's tap opens it. Thread-safe."""
        assert self.table is not None, "attach() the feed to a table first"
        table = self.table

        def work() -> None:
            with self._lock:
                self._booth = player_id
            self.post(PlayerView(player_id, table.views.player(player_id), opened=True))

        table.call(work)

    def unknown_tag(self, uid: str, reader: str) -> None:
        """Offer to enroll it: what it can be is read here, on the Table's thread."""
        choices: tuple[Choice, ...] = ()
        game = ""
        if self.can_enroll and self.table is not None:
            referee = self.table.referee
            game = referee.setup.game
            players = [(p.id, p.name) for p in referee.setup.players]
            try:
                choices = enrollable(referee.game, referee.state, players)
            except Exception:  # a game's token list failed: the figures can still be enrolled
                logger.exception("kiosk: the %s game's tokens() failed", game)
                choices = enrollable(None, None, players)
        self.post(UnknownTag(uid, reader, game, choices))

    def token_refused(self, token_label: str, reason: Rejected) -> None:
        """With a booth open the token acted for that player: the reason goes to that booth only.
        While the seating screen is up, the figure of a player who is not in this game seats them."""
        with self._lock:
            seating = self._seating
        if seating and reason.code == "reject.token_not_playing":
            figures = [(pid, label) for pid, label in self.figures() if label == token_label]
            if len(figures) == 1:
                self.post(FigureTapped(*figures[0]))
                return
        self.post(TokenRefused(token_label, reason, self.booth))

    # -- from the kiosk ----------------------------------------------------------------------------------

    def close_booth(self, player_id: str) -> None:
        """The kiosk hid the booth (done, timeout): stop computing that player's view."""
        with self._lock:
            if self._booth == player_id:
                self._booth = None

    def enroll(self, token: Token) -> Token | None:
        """Save what the host said a tag is (`Registry.enroll`: RegistryError if it is not a valid token);
        returns what the tag was before. The registry is thread-safe; no referee state is touched."""
        with self._lock:
            registry = self._registry
        if registry is None:
            raise RuntimeError("no token registry: the readers are not running")
        return registry.enroll(token)

    def host_view(self) -> dict[str, Any]:
        """The host's view of the latest state (its `prompts`: the game's host forms). `Views` are
        read-only and safe from any thread, so the kiosk's host forms read it on the kiosk's thread."""
        with self._lock:
            views = self._views
        return {} if views is None else views.with_lines(HOST_VIEW)

    def send(self, raw: dict[str, Any]) -> None:
        """Queue an input made on the screen; its outcome comes back as a `Reply`."""
        assert self.table is not None, "attach() the feed to a table first"
        by = str(raw.get("by", ""))
        self.table.put(raw, lambda outcome: self.post(Reply(outcome, by)))
