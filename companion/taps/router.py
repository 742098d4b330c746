"""The tap router: a tag placed on a reader -> the registry -> the screen or an input to the referee.

It is one of `Table.device_handlers`, so it runs on the main loop (drivers only queue events with
`Table.put_device`). For each `TagPlaced`:

- a UID the registry does not know: `sink.unknown_tag` (the screen offers to enroll it; no input);
- a player's own figure (kind ``player``) of a player in this game: `sink.player_tapped` (the booth);
  a figure of someone not playing: refused, ``reject.token_not_playing``;
- a token of another game: refused, ``reject.token_other_game``;
- otherwise the game's `on_token(state, kind, id, actor)` says which input it means now; nothing:
  refused, ``reject.token_means_nothing``; an input: submitted through `Table.handle` (stamped by the
  table clock, deadlines first) and, if the referee refuses it, `sink.token_refused` with its reason.

`actor` is ``table`` unless `identify` names the player the screen has identified (the booth).
Removals, buttons and reader status are not the router's: other handlers may take them.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.core.inputs import TABLE
from companion.core.referee import Outcome
from companion.core.rejection import Rejected
from companion.table.loop import Table
from companion.taps.registry import Registry, Token
from companion.taps.sink import TapSink
from hardware.events import DeviceEvent, TagPlaced


class TapRouter:
    def __init__(self, table: Table, registry: Registry, sink: TapSink,
                 identify: Callable[[], str | None] = lambda: None) -> None:
        self.table, self.registry, self.sink, self.identify = table, registry, sink, identify

    def __call__(self, event: DeviceEvent) -> None:
        if isinstance(event, TagPlaced):
            self.tapped(event)

    def tapped(self, event: TagPlaced) -> Outcome | None:
        """Route one tap; returns the referee's outcome when it became an input."""
        token = self.registry.lookup(event.uid)
        if token is None:
            self.sink.unknown_tag(event.uid, event.reader)
            return None
        referee = self.table.referee
        if token.is_player:
            if token.id in {p.id for p in referee.setup.players}:
                self.sink.player_tapped(token.id)
            else:
                self._refuse(token, Rejected("reject.token_not_playing", token=token.label))
            return None
        if token.game != referee.setup.game:
            self._refuse(token, Rejected("reject.token_other_game", token=token.label))
            return None
        player = self.identify()
        actor = f"player:{player}" if player else TABLE
        meaning = referee.game.on_token(referee.state, token.kind, token.id, actor)
        if meaning is None:
            self._refuse(token, Rejected("reject.token_means_nothing", token=token.label))
            return None
        move, args = meaning
        outcome = self.table.handle({"move": move, "by": actor, "args": args})
        if not outcome.accepted:
            assert outcome.reason is not None
            self.sink.token_refused(token.label, outcome.reason)
        return outcome

    def _refuse(self, token: Token, reason: Rejected) -> None:
        self.sink.token_refused(token.label, reason)
