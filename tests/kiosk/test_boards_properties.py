"""Property: whatever the public view holds (any grid, rooms turned up, players anywhere, locks, turns;
any poison, HP and shadows for up to nine players, long names), a board draws only inside its rectangle, every
text inside it, with a glyph for every character."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.drawing.text import TextCache
from companion.games.room25 import data as room25_data
from tests.kits.board_checks import NAMES, board_stays_in_rect
from tests.kits.kiosk_fixtures import text, text_cache

__all__ = ["text", "text_cache"]
LINES = ("row0", "row1", "row3", "row4", "col0", "col1", "col3", "col4")


def players(n: int) -> list[dict[str, str]]:
    return [{"id": f"p{i}", "name": NAMES[i]} for i in range(n)]


@st.composite
def room25_views(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 6))
    tiles = draw(st.permutations(list(range(25))))
    grid: list[list[int | None]] = [tiles[r * 5:(r + 1) * 5] for r in range(5)]
    exit_left = draw(st.booleans())
    if exit_left:
        r, c = draw(st.sampled_from([(0, 0), (0, 4), (4, 0), (4, 4), (1, 4)]))
        grid[r][c] = None
    where = {t: (r, c) for r, row in enumerate(grid) for c, t in enumerate(row) if t is not None}
    kinds = room25_data.all_kinds()
    rooms = [{"tile": t, "cell": list(where[t]) if t in where else None,
              "room": draw(st.one_of(st.none(), st.sampled_from(kinds)))} for t in range(25)]
    people = {}
    for p in players(n):
        status = draw(st.sampled_from(["alive", "alive", "dead", "escaped"]))
        tile = draw(st.sampled_from(sorted(where)))
        people[p["id"]] = {"tile": tile, "cell": list(where[tile]) if status == "alive" else None, "status": status}
    last = draw(st.sampled_from([8, 10]))
    locks = draw(st.dictionaries(st.sampled_from(LINES), st.sampled_from(["left", "right"]), max_size=4))
    locks = {line: (d if line.startswith("row") else {"left": "up", "right": "down"}[d]) for line, d in locks.items()}
    table = {"turn": draw(st.integers(1, last)), "last_turn": last, "grid": grid, "rooms": rooms, "people": people,
             "locks": locks, "current": {"player": "p0", "slot": 0, "action": "move"}, "exit_left": exit_left}
    return {"game": "room25", "players": players(n), "table": table}


@st.composite
def lockdown_views(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(2, 9))
    floors = ["A1", "A2", *(f"B{i}" for i in range(1, 8))]
    custom = draw(st.booleans())
    table = {
        "round": draw(st.integers(1, 6)),
        "phase": draw(st.sampled_from(["setup", "free", "action", "settlement", "over"])),
        "map": "mine" if custom else "default", "floors": floors,
        "poison": draw(st.lists(st.sampled_from(floors), unique=True, max_size=6)),
        "players": [{"id": p["id"], "shadow": draw(st.booleans()), "hp": draw(st.integers(0, 99))}
                    for p in players(n)],
    }
    return {"game": "lockdown", "players": players(n), "table": table}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(view=st.one_of(room25_views(), lockdown_views()), size=st.sampled_from([(800, 480), (1920, 1080)]),
       lang=st.sampled_from(["en", "zh", "th"]))
def test_a_board_stays_in_its_rectangle(view: dict[str, Any], size: tuple[int, int], lang: str,
                                        text: TextCache) -> None:
    _, _, drawn = board_stays_in_rect(view, size, lang, text)
    assert len(drawn) >= len(view["players"])
