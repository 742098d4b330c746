"""Escape the Lab's options: what the host chooses before a game starts (`Game.Options`). A module of its
own that imports nothing else of the game, so the kiosk's options screen reads it without the rules
(`companion.games.box`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from companion.core.contract import Args


class LabEscapeOptions(Args):
    #: referee: the companion rolls (seeded); table: players roll real dice and enter the faces.
    dice: Literal["referee", "table"] = "referee"
    #: digital: the companion draws the display cards; physical: the table shuffles real cards and
    #: reports each card it turns up (by tapping its token, or on the screen).
    deck: Literal["digital", "physical"] = "digital"
    #: seconds per turn; 0: no timer. The host can change it during the game.
    turn_seconds: int = Field(default=0, ge=0, le=3600)
