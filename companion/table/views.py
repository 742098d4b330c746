"""The views of one state of the game, each computed at most once and shared by every output.

After a change the table hands every output the same `Views` (companion/table/loop.py): the public view
is computed once, each seat's view and the host's are built on it, each only when an output first asks
for it (the kiosk's booth asks for one seat's, the mirror for every seat's). What phones are sent (a
view with its lines, as JSON: `json`) is serialized once per view, however many outputs send it.

A `Views` holds the state it was made from, never the referee: the referee moves on to a new state
object with each accepted input (`step` copies, a correction refolds), and the old state is never
changed, so a view asked for late is still the view of that state. The views are shared, so they
are read-only: an output that adds to one (the mirror's `phone_seats`) copies it first.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.contract import Game, Setup, State
from companion.core.corrections import Event
from companion.core.lines import as_json
from companion.core.referee import HOST_VIEW, PUBLIC, Referee, audience_view, player_of, player_part, public_view
from companion.games import registry
from companion.naming import Namer, said_lines, said_view

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)  # keeps no state


def encode(obj: Any) -> bytes:
    """JSON as the phones are sent it: compact, keys sorted (equal views, equal bytes), UTF-8."""
    return _ENCODER.encode(obj).encode("utf-8")


@functools.lru_cache(maxsize=256)
def _key(key: str) -> bytes:
    return encode(key) + b":"


def encode_sharing(view: dict[str, Any], parts: dict[str, tuple[Any, bytes]],
                   mine: dict[str, tuple[Any, bytes]] | None = None) -> bytes:
    """`encode(view)`, byte for byte, reusing the JSON of top-level values already encoded for another
    view: `parts` maps a key to (the value object, its JSON). Every audience's view is the public view's
    values plus its own (`audience_view`), so the public part is serialized once per change, not once
    per seat (docs/performance.md, "Pi Zero 2 W budget"). `mine`, if given, holds the JSON of the keys
    it names instead (one player's own part, kept with it from one change to the next). Values are
    matched by identity: views are read-only, and `parts` holds the objects, so an id is never reused
    while it is there."""
    try:
        keys = sorted(view)
    except TypeError:  # keys of several types: `encode` says what it says of them
        return encode(view)
    out = []
    for key in keys:
        if type(key) is not str:
            return encode(view)
        value = view[key]
        store = mine if mine is not None and key in mine else parts
        known = store.get(key)
        if known is not None and known[0] is value:
            data = known[1]
        else:
            data = encode(value)
            store[key] = (value, data)
        out.append(_key(key) + data)
    return b"{" + b",".join(out) + b"}"


def lines_of(game: Game, view: dict[str, Any], public: dict[str, Any],
             table_lines: list[Any] | None = None, shared: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A view as the screens get it: plus what it says as message-id lines (the game's
    `public_lines`/`private_lines`, docs/phones.md), and every id in what it says in words
    (`companion.naming.said_view`: announcements, lines, history, prompts, the host's menu, ``names``).

    `table_lines` (every view) are built from the PUBLIC view only (pass them when already made); a
    seat's `lines` from that seat's own `private` part only, never from another view (secrets stay
    secret), and a moderator's (the host's view of a table whose host does not play) each seat's lines
    from that seat's own view. A game whose page draws its views itself (the toolkit's parts, one by one)
    gets none of them. `shared`: values already said for the same public view (`said_public`), reused as
    they are.
    """
    out = dict(view)
    if not game.page_draws_views:
        out["table_lines"] = as_json(game.public_lines(public)) if table_lines is None else table_lines
        if view.get("private"):
            out["lines"] = as_json(game.private_lines(view["private"]))
        seats = (view.get("moderator") or {}).get("seats")
        if isinstance(seats, dict):  # a moderator's view (host's only): each seat's own lines, by player id
            out["moderator_lines"] = {pid: as_json(game.private_lines(own)) for pid, own in seats.items() if own}
    return said_view(out, Namer.of(public), shared)


def said_public(game: Game, public: dict[str, Any], table_lines: list[Any] | None) -> dict[str, Any]:
    """What the public view says, in words (`lines_of` of the public view): made once per public view and
    shared by every audience's view, so its JSON is made once (`encode_sharing` matches by identity)."""
    said = lines_of(game, public, public, table_lines)
    return {k: said[k] for k in ("announcements", "story", "table_lines", "names") if k in said}


def with_lines(view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """`lines_of` for the game the public view names (a game this companion does not know: no lines)."""
    game = registry().get(str(public.get("game")))
    return dict(view) if game is None else lines_of(game, view, public)


_UNSET = object()  # no JSON yet for a key of a player's own part


@dataclass(frozen=True)
class _Own:
    """One player's own part of their view (`player_part`) and its lines, made from one state, with
    the key it was made under (`Game.player_view_keys`; None: unknown) and its JSON, filled when encoded."""

    key: object | None
    part: dict[str, Any]
    lined: dict[str, Any]
    parts: dict[str, tuple[Any, bytes]]


@dataclass(frozen=True)
class _Last:
    """What a `Views` keeps of the one before it (of the same game): its public view with its lines
    and JSON, each player's own part, and the JSON it sent; never that `Views` itself (no chain)."""

    public: dict[str, Any] | None
    said: dict[str, Any] | None
    lined_public: dict[str, Any] | None  # the public view as the screens get it (`with_lines`)
    parts: dict[str, tuple[Any, bytes]]
    own: dict[str, _Own]
    json: dict[str, bytes]


class Views:
    """Every audience's view of one state: ``public``, ``host`` and ``player:<id>``, each made once.

    Made from the `Views` of the state before (`last`), a view whose inputs did not change is not made
    again: a public view equal to the last one is that same object (with its lines and JSON), and a
    player's own part (private view, prompts, lines) is the last one when the game's
    `player_view_keys` is unchanged (a game that declares none gets its views made every time)."""

    def __init__(self, game: Game, setup: Setup, state: State, live: Sequence[Event], number: int,
                 last: Views | None = None) -> None:
        self.game, self.setup, self.state, self.live, self.number = game, setup, state, live, number
        self._lock = threading.RLock()  # read on the table's thread, but safe from any
        self._public: dict[str, Any] | None = None
        self._said: dict[str, Any] | None = None  # what the public view says, in words (`said_public`)
        self._views: dict[str, dict[str, Any]] = {}
        self._lined: dict[str, dict[str, Any]] = {}
        self._json: dict[str, bytes] = {}
        self._parts: dict[str, tuple[Any, bytes]] = {}  # top-level values' JSON, shared by the views
        self._own: dict[str, _Own] = {}
        self._keys: Mapping[str, object] | None = None  # the game's player_view_keys, once asked (`_keyed`)
        self._keyed = False
        self._last = last._kept() if last is not None and last.game is game and last.setup is setup \
            and last.number == number else None

    @classmethod
    def of(cls, referee: Referee, last: Views | None = None) -> Views:
        """The views of the referee's current state (computed when first asked for), reusing from
        `last` (the views of the state before) what did not change."""
        return cls(referee.game, referee.setup, referee.state, referee.live, referee.game_id, last)

    def _kept(self) -> _Last:
        with self._lock:
            return _Last(self._public, self._said, self._lined.get(PUBLIC), dict(self._parts), dict(self._own),
                         dict(self._json))

    def are_of(self, referee: Referee) -> bool:
        """Whether these are still the views of the referee's current state."""
        return self.state is referee.state and self.live is referee.live and self.number == referee.game_id

    @property
    def public(self) -> dict[str, Any]:
        known = self._public  # set once, never changed: read without the lock
        if known is not None:
            return known
        with self._lock:
            if self._public is None:
                made = public_view(self.game, self.setup, self.state, self.live, self.number)
                last = self._last
                if last is not None and last.public is not None and last.public == made:
                    made, self._said, self._parts = last.public, last.said, dict(last.parts)
                    if last.lined_public is not None:  # the same object: a screen that keeps it redraws nothing
                        self._lined[PUBLIC] = last.lined_public
                self._public = made
            return self._public

    @property
    def host(self) -> dict[str, Any]:
        return self.view(HOST_VIEW)

    def player(self, pid: str) -> dict[str, Any]:
        return self.view(f"player:{pid}")

    def view(self, audience: str) -> dict[str, Any]:
        """The view for ``public``, ``host`` or ``player:<id>`` (Rejected: no such player)."""
        with self._lock:
            found = self._views.get(audience)
            if found is None:
                if audience in (PUBLIC, HOST_VIEW):
                    found = audience_view(self.game, self.state, self.live, self.public, audience)
                else:
                    found = {**self.public, **self._own_part(audience).part}
                self._views[audience] = found
            return found

    def _own_part(self, audience: str) -> _Own:
        """A player's own part: the last one if the game's key for it is unchanged, else made now."""
        found = self._own.get(audience)
        if found is not None:
            return found
        pid = player_of(self.state, audience)
        if not self._keyed:
            self._keyed = True
            self._keys = None if self.state.get("ended") else self.game.player_view_keys(self.state)
        key = None if self._keys is None else self._keys.get(pid)  # ended: made afresh (no prompts)
        last = self._last.own.get(audience) if self._last is not None else None
        if key is not None and last is not None and last.key == key:
            found = last
        else:
            part = player_part(self.game, self.state, pid)
            namer = Namer.of(self.public)  # the seat's words: its prompts, its lines
            lined: dict[str, Any] = {"prompts": [namer.prompt(p) for p in part["prompts"]]}
            if not self.game.page_draws_views and part["private"]:
                lined["lines"] = said_lines(namer, as_json(self.game.private_lines(part["private"])))
            found = _Own(key, part, lined, {k: (_UNSET, b"") for k in (*part, *lined)})
        self._own[audience] = found
        return found

    def with_lines(self, audience: str) -> dict[str, Any]:
        """The view as the phones get it: with its lines (`lines_of`); the table's lines made once."""
        with self._lock:
            found = self._lined.get(audience)
            if found is None:
                if self._said is None:
                    self._said = said_public(self.game, self.public, None)
                said, lines = self._said, self._said.get("table_lines")
                if audience in (PUBLIC, HOST_VIEW):
                    found = lines_of(self.game, self.view(audience), self.public, lines, said)
                else:
                    found = {**lines_of(self.game, self.public, self.public, lines, said),
                             **self._own_part(audience).part, **self._own_part(audience).lined}
                self._lined[audience] = found
            return found

    def json(self, audience: str) -> bytes:
        """`with_lines` as the JSON the phones are sent (`encode`), serialized once; the public part of
        every view once for all (`encode_sharing`), a player's own part once per change of it, and a
        view whose public view and own part are both the last ones is the last JSON."""
        with self._lock:
            found = self._json.get(audience)
            if found is None:
                found = self._json[audience] = self._encode(audience)
            return found

    def json_with(self, audience: str, extra: dict[str, Any]) -> bytes:
        """`json(audience)` with `extra` top-level values added (the host's `phone_seats`, which the
        mirror knows, not the referee): the view's own values are not serialized again."""
        with self._lock:
            return encode_sharing({**self.with_lines(audience), **extra}, self._parts)

    def _encode(self, audience: str) -> bytes:
        if audience == HOST_VIEW:
            return encode_sharing(self.with_lines(audience), self._parts)
        last = self._last
        same_public = last is not None and last.public is not None and self.public is last.public
        if audience == PUBLIC:
            kept = last.json.get(audience) if same_public and last is not None else None
            return kept if kept is not None else encode_sharing(self.with_lines(audience), self._parts)
        own = self._own_part(audience)
        if same_public and last is not None and last.own.get(audience) is own and audience in last.json:
            return last.json[audience]
        return encode_sharing(self.with_lines(audience), self._parts, own.parts)
