"""Which phone holds which seat: the first phone to use a seat's code takes it, the host frees it.

A seat's QR code carries its **join** credential, never the seat's own (docs/phones.md). The phone page
makes a random password P of its own, connects as the join user and publishes one claim on the join
user's command topic:

    {"id": "k3x-1", "move": "seat.claim", "args": {"password": P}}

The first claim of a seat binds it: the seat's password becomes P on the broker, the binding is kept
(mode 0600) with the game's credentials, and the reply says ok once the broker takes P, so the phone
then connects as the seat's user with P. Every later claim on that seat is refused with
`reject.seat_taken` (the same P again is a retry and answered ok), so a code photographed off the
shared screen opens nothing. The host releases a seat (`seat.release` on the host's command topic, or
the kiosk's host menu): the seat gets a fresh password no phone knows, which drops the bound phone, and
a new join user, so its code (a new one) takes a new phone; the broker drops every connection of the
old join user and of the seat, and a claim by the old join user is refused (`reject.seat_code_replaced`).
A phone leaves its own seat (`seat.leave` on its own command topic, after the page's second step):
the seat gets a fresh password and keeps its code, so that phone (or anyone with the code) can take it
back while it is free; a claim drops whatever connection the seat's user still had.

P appears in no reply, log line or view; only in the kept file and the broker's (hashed) password file.
The mirror hands these commands here (`Mirror.seating`), never to the game's referee.
"""

from __future__ import annotations

import hmac
import logging
import re
import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, Protocol

from companion.core.referee import Outcome
from companion.core.rejection import Rejected
from companion.phones import intake
from companion.phones.credentials import GameCredentials
from companion.phones.topics import Seat
from companion.status import DeviceStatus, StatusBoard

logger = logging.getLogger(__name__)
CLAIM, RELEASE, LEAVE = "seat.claim", "seat.release", "seat.leave"
PASSWORD = re.compile(r"^[A-Za-z0-9_-]{22,64}$")  # what the page makes (base64url of 18+ random bytes)
OK = Outcome(accepted=True)


class SeatBroker(Protocol):
    def set_game(self, game: GameCredentials) -> None: ...

    def update_game(self, game: GameCredentials, drop: Collection[str] = ()) -> None: ...


def claimed_password(payload: bytes) -> str | Rejected:
    """The password a join user's command claims its seat with, or why the command is refused."""
    raw = intake.decode(payload, "join")
    if isinstance(raw, Rejected):
        return raw
    if raw["move"] != CLAIM:  # (the move is not echoed: it is the hostile phone's text)
        return Rejected("reject.seat_claim_only")
    password = raw["args"].get("password")
    if set(raw["args"]) != {"password"} or not isinstance(password, str) or PASSWORD.fullmatch(password) is None:
        return Rejected("reject.seat_password")
    return password


def released_player(raw: dict[str, Any], game: GameCredentials) -> str | Rejected:
    """The player whose seat a host's `seat.release` names, or why it is refused."""
    player = raw["args"].get("player")
    if set(raw["args"]) != {"player"} or not isinstance(player, str):
        return Rejected("reject.bad_argument", field="player", problem="a player id")
    if player not in game.players:
        return Rejected("reject.not_a_player", player=player[:32].encode("utf-8", "replace").decode("utf-8"))
    return player


class Seating:
    """The seats of one game: claims from join users, releases from the host. Thread-safe: claims come
    on the mirror's MQTT thread, releases also from the kiosk's."""

    def __init__(self, game: GameCredentials, broker: SeatBroker, kept: Path | None = None,
                 status: StatusBoard | None = None) -> None:
        self._game = game
        self._in_broker: GameCredentials | None = game  # the runner hands `game` to the broker before this
        self.broker, self.kept, self.status = broker, kept, status
        self._lock = threading.Lock()
        self.listeners: list[Callable[[], None]] = []  # told (outside the lock) when a seat is taken or freed
        self._say()

    @property
    def game(self) -> GameCredentials:
        """The game's credentials as they are now (a claim or a release makes new ones)."""
        return self._game

    @property
    def in_broker(self) -> GameCredentials | None:
        """The credentials the broker has taken: the seats' codes the table shows (kiosk, host's page, the
        links printed at start) are made from these. None while a new game's seats are on their way to the
        broker: a code shown then would be refused by the broker for a moment, and a phone that scanned it
        told its seat was given to someone else (the kiosk says the codes are coming)."""
        return self._in_broker

    def holds(self, pid: str | None) -> bool:
        """Whether a phone holds player `pid`'s seat (the host's for None)."""
        game = self._game
        cred = game.host if pid is None else game.players.get(pid)
        return cred is not None and cred.user in game.bound

    def bound(self) -> dict[str, Any]:
        """Which seats a phone holds (never which phone), as the host's view carries it (`phone_seats`):
        ``{"players": {pid: held}, "host": held, "codes": {pid: [join user, join password]}}``, with the
        code of each player's seat no phone holds, so the host's page can show it and its link (a table
        without a screen seats a newcomer that way; the kiosk shows the same code as a QR code). The
        host's view goes only to the host's seat."""
        game = self._game
        live = self._in_broker is not None  # no code while the new game's are on their way to the broker
        codes = {pid: [game.joins[c.user].user, game.joins[c.user].password]
                 for pid, c in game.players.items() if live and c.user not in game.bound and c.user in game.joins}
        return {"players": {pid: c.user in game.bound for pid, c in game.players.items()},
                "host": game.host.user in game.bound, "codes": codes}

    # -- the mirror's hook (MQTT thread) --------------------------------------------------------------

    def command(self, user: str, seat: Seat, payload: bytes) -> Outcome | None:
        """The outcome of a join user's command, of a seat's own `seat.leave` or of the host's
        `seat.release`; None for any other command (the game's referee takes it)."""
        if seat.kind == "join":
            assert seat.claims is not None
            password = claimed_password(payload)
            if isinstance(password, Rejected):
                return Outcome(accepted=False, reason=password)
            join = self._game.join_of(seat.claims)
            if join is None or join.user != user:  # a released seat's old code
                return Outcome(accepted=False, reason=Rejected("reject.seat_code_replaced"))
            return self.claim(seat.claims, password)
        if seat.kind in ("player", "host") and LEAVE.encode() in payload:
            raw = intake.decode(payload, seat.actor or "")
            if not isinstance(raw, Rejected) and raw["move"] == LEAVE:
                return self.leave(user) if not raw["args"] else Outcome(
                    accepted=False, reason=Rejected("reject.bad_argument", field="args", problem="none"))
        if seat.kind != "host" or RELEASE.encode() not in payload:
            return None
        raw = intake.decode(payload, "host")
        if isinstance(raw, Rejected) or raw["move"] != RELEASE:
            return None  # the referee's own refusal, or a game move that merely mentions seat.release
        player = released_player(raw, self._game)
        if isinstance(player, Rejected):
            return Outcome(accepted=False, reason=player)
        return self.release(self._game.players[player].user)

    # -- claims and releases --------------------------------------------------------------------------

    def claim(self, seat_user: str, password: str) -> Outcome:
        """Bind the seat `seat_user` to the phone that made `password`, if no phone holds it yet."""
        with self._lock:
            game = self._game
            seat = game.seat(seat_user)
            if seat is None:
                return Outcome(accepted=False, reason=Rejected("reject.seat_taken"))
            if seat_user in game.bound:
                if hmac.compare_digest(seat.password.encode(), password.encode()):
                    return OK  # the same phone again (its reply was lost): it holds the seat
                logger.info("phones: a second phone tried to claim the seat %s; refused", self._name(seat_user))
                return Outcome(accepted=False, reason=Rejected("reject.seat_taken"))
            # whatever still holds the seat's user (a phone that left it and stayed connected) goes
            if not self._apply(game.bind(seat_user, password), (seat_user,)):
                return Outcome(accepted=False, reason=Rejected("reject.seat_unavailable"))
            logger.info("phones: the seat %s is taken by a phone", self._name(seat_user))
        self._changed()
        return OK

    def release(self, seat_user: str) -> Outcome:
        """Free the seat `seat_user`: its phone is dropped and refused, and its code changes."""
        with self._lock:
            game = self._game
            join = game.join_of(seat_user)
            if join is None:
                return Outcome(accepted=False, reason=Rejected("reject.seat_unavailable"))
            if not self._apply(game.release(seat_user), (seat_user, join.user)):
                return Outcome(accepted=False, reason=Rejected("reject.seat_unavailable"))
            logger.info("phones: the host released the seat %s", self._name(seat_user))
        self._changed()
        return OK

    def leave(self, seat_user: str) -> Outcome:
        """The seat `seat_user`'s own phone leaves it: free again, with the same code."""
        with self._lock:
            game = self._game
            if seat_user not in game.bound:
                return OK  # left already (a resent command): nothing to do
            if not self._apply(game.leave(seat_user), ()):
                return Outcome(accepted=False, reason=Rejected("reject.seat_unavailable"))
            logger.info("phones: the seat %s was left by its phone", self._name(seat_user))
        self._changed()
        return OK

    def new_game(self, number: int, player_ids: list[str]) -> tuple[GameCredentials, Callable[[], None]]:
        """The table started game `number` with these players: its seats (`GameCredentials.following`),
        kept on disk, are the seats from now on. Returns them, and what hands them to the broker, which then
        refuses and drops every user of the last game (removed players' phones are out): the mirror
        calls it once it has published the new game's views, so a phone still connected hears of the
        new game before it is dropped. A broker that fails is logged; the new seats hold, and the
        broker gets them when it is started again (`Phones.restart_broker`)."""
        with self._lock:
            new = self._game.following(number, player_ids)
            self._keep(new)
            self._game = new
            self._in_broker = None
            logger.info("phones: the seats of game %d are issued (%d kept by their phones)", number, len(new.bound))

        def to_broker() -> None:
            current = self._game  # with any seat the host released meanwhile
            try:
                self.broker.set_game(current)
            except Exception as err:
                logger.error("phones: the broker did not take the new game's seats (%s)", type(err).__name__)
            with self._lock:
                self._in_broker = self._game  # shown even if the broker failed: it gets them when restarted
            self._changed()

        return new, to_broker

    def release_player(self, pid: str | None) -> Outcome:
        """`release` by player id, or the host's seat for None (the kiosk's host menu)."""
        game = self._game
        cred = game.host if pid is None else game.players.get(pid)
        if cred is None:
            return Outcome(accepted=False, reason=Rejected("reject.not_a_player", player=str(pid)[:32]))
        return self.release(cred.user)

    def _apply(self, new: GameCredentials, drop: Collection[str]) -> bool:
        """Keep `new` on disk, then on the broker; False (and nothing changed) if the broker failed."""
        old = self._game
        self._keep(new)
        try:
            self.broker.update_game(new, drop)
        except Exception as err:  # a broker that died or hangs: the seat stays as it was
            logger.error("phones: the broker did not take a seat change (%s)", type(err).__name__)
            self._keep(old)
            try:
                self.broker.update_game(old, ())
            except Exception as again:
                logger.error("phones: the broker did not take the seats back either (%s)", type(again).__name__)
            return False
        self._game = new
        if self._in_broker is not None:  # the broker has a new game's seats once `to_broker` says so
            self._in_broker = new
        return True

    def _keep(self, game: GameCredentials) -> None:
        if self.kept is None:
            return
        try:
            game.keep(self.kept)
        except OSError as err:  # a read-only state directory: the binding holds until the next restart
            logger.warning("phones: the seats could not be kept in %s (%s)", self.kept, err.strerror)

    def _name(self, seat_user: str) -> str:
        """A seat as the log names it: "host", or the player's id (never a credential)."""
        game = self._game
        if seat_user == game.host.user:
            return "host"
        return next((f"of player {pid}" for pid, c in game.players.items() if c.user == seat_user), "?")

    def _changed(self) -> None:
        self._say()
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:  # a listener must not stop a claim: the seat is taken either way
                logger.exception("phones: a seat listener failed")

    def _say(self) -> None:
        """The status board's count of the seats a phone holds (the kiosk wakes on it)."""
        if self.status is not None:
            taken = len(self._game.bound)
            self.status.set(DeviceStatus("seats", "seats", "ok" if taken else "off", count=taken))
