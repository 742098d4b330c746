"""What the table's screen hears from the tap router (implemented by the kiosk; the console logs it).

The router runs on the main loop: it resolves a tag to a token, and either hands the referee an input
(through the game's `on_token`) or tells the screen one of these. Calls must be cheap and thread-safe
(the kiosk queues them and wakes its loop).

`TapScreen` is the whole of what the readers' starter is handed when the table has a screen (the
kiosk's feed, companion/kiosk/feed.py): it hears the router, says whose booth is open, and is lent the
token registry to enroll new tags from the screen. Without one, the console's words stand in.
"""

from __future__ import annotations

from typing import Protocol

from companion.core.rejection import Rejected
from companion.taps.registry import Registry


class TapSink(Protocol):
    def player_tapped(self, player_id: str) -> None:
        """A player's own figure/token: open (or close) that player's booth."""
        ...

    def unknown_tag(self, uid: str, reader: str) -> None:
        """A tag the registry does not know: prompt to enroll it (never an error)."""
        ...

    def token_refused(self, token_label: str, reason: Rejected) -> None:
        """A known token that means nothing now, or an input the referee refused: say why."""
        ...


class TapScreen(TapSink, Protocol):
    def identified_player(self) -> str | None:
        """The player whose booth is open, if any: a token tapped now acts for them."""
        ...

    def use_registry(self, registry: Registry | None) -> None:
        """The registry the readers opened (None once they stop): the screen enrolls new tags into it."""
        ...


#: Refusals the router makes from the registry and the setup alone, which tell no secret. Any other
#: reason (the referee's, or `on_token` reading the state) may tell the tapping player's secrets: the
#: kiosk shows it only in that player's open booth, and public outputs say "not now" instead.
PUBLIC_REFUSALS = frozenset({"reject.token_other_game", "reject.token_not_playing"})
