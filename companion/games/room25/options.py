"""Room 25's options: what the host chooses before a game starts (`Game.Options`). A module of its
own that imports nothing else of the game, so the kiosk's options screen reads it without the rules
(`companion.games.box`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from companion.core.contract import Args

#: The five ways to play (the rule text's modes).
Mode = Literal["suspicion", "competition", "team", "cooperation", "solo"]


class Room25Options(Args):
    mode: Mode = "suspicion"
    #: digital: the referee deals and turns up the rooms; physical: the table lays real tiles and
    #: reports each room as it is turned up (by tapping its token, or on the screen).
    tiles: Literal["digital", "physical"] = "digital"
    #: seconds to program each turn; 0: no timer. The host can change it during the game.
    program_seconds: int = Field(default=0, ge=0, le=3600)
    teams: list[list[str]] | None = None
