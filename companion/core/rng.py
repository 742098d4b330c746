"""Seeded randomness that lives in the game state, so a replay draws exactly the same.

The state holds ``{"seed": int, "draws": int}``. Each draw derives a fresh generator from the seed and
the draw counter, then advances the counter. The seed is a secret: it never enters a view.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any


def new(seed: int) -> dict[str, int]:
    return {"seed": int(seed), "draws": 0}


def stream(rng_state: dict[str, Any]) -> random.Random:
    """A generator for one random operation; advances the counter in `rng_state`."""
    material = f"{rng_state['seed']}/{rng_state['draws']}".encode()
    rng_state["draws"] += 1
    return random.Random(int.from_bytes(hashlib.sha256(material).digest()[:8], "big"))
