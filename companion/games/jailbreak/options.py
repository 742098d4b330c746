"""Jailbreak's options: what the host chooses before a game starts (`Game.Options`). A module of its
own that imports nothing else of the game, so the kiosk's options screen reads it without the rules
(`companion.games.box`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from companion.core.contract import Args

#: A sheriff's equipment (J1.1).
Equipment = Literal["badge", "pistol", "handcuffs", "baton"]


class JailbreakOptions(Args):
    #: the sheriffs, first sheriff first (J1.1); None: drawn at random from the game's seeded source
    sheriffs: list[str] | None = None
    #: each sheriff's equipment, in the order of `sheriffs`; None: the default split (deal.default_equipment)
    equipment: list[list[Equipment]] | None = None
    #: seconds per turn; 0: no timer. The first turn's timer waits for the host; later turns start it.
    turn_seconds: int = Field(default=0, ge=0, le=3600)
