"""A player's id and name as a table takes them: one limit for every side (docs/hall.md, "Who is who").

The table (`companion.table.next_game`, the kiosk's seating screen) and the hall (its league ids, its seat
lists) both read these, so the hall never makes an id or sends a name a table refuses:

- an id: 1-16 lower-case ASCII letters, digits, '-' or '_', starting with a letter or digit (`SEAT_ID`);
- a name as a table shows it: 1-24 characters once stripped (`SEAT_NAME_MAX`: what the kiosk's 7" layout
  holds). The hall keeps a player's full name (up to `FULL_NAME_MAX`, any script) for its standings and
  pages, and seats a table with `seat_name(name)`: the name itself when it fits, else cut at a character
  boundary (never inside a Thai or combining sign) with "…".
"""

from __future__ import annotations

import re
import unicodedata

SEAT_ID_MAX = 16
SEAT_ID = re.compile(rf"[a-z0-9][a-z0-9_-]{{0,{SEAT_ID_MAX - 1}}}")
SEAT_NAME_MAX = 24
FULL_NAME_MAX = 64
ELLIPSIS = "…"


def seat_name(name: str) -> str:
    """`name` as a table shows it: stripped, at most `SEAT_NAME_MAX` characters."""
    shown = name.strip()
    if len(shown) <= SEAT_NAME_MAX:
        return shown
    cut = SEAT_NAME_MAX - len(ELLIPSIS)
    while cut > 1 and unicodedata.category(shown[cut])[0] == "M":  # the next sign belongs to the one before
        cut -= 1
    return shown[:cut].rstrip() + ELLIPSIS
