"""The toolkit's options: what the host chooses before a game starts (`Game.Options`). A module of its
own that imports nothing else of the game, so the kiosk's options screen reads it without the rules
(`companion.games.box`)."""

from __future__ import annotations

from companion.core.contract import Args


class ToolkitOptions(Args):
    pass
