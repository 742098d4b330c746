"""The 5x5 complex: cells, neighbours, the setup groups, slides and distances (R1.1, R2.6).

Cells are (row, col), 0..4. A tile is named by the cell it was dealt to (row * 5 + col), so the start
room is tile 12 at (2, 2) for the whole game. The grid is a list of rows of tile ids; a cell is None
only after the exit left the complex (R4.2). Players stand on tiles, so a slide carries them along.
"""

from __future__ import annotations

import re

Cell = tuple[int, int]
Grid = list[list[int | None]]

SIZE = 5
START_CELL: Cell = (2, 2)
START = 12
DIRECTIONS: dict[str, Cell] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
# R1.1: the inner ring, the edge middles, and the twelve other outer cells (where the exit goes).
RING: tuple[Cell, ...] = tuple((r, c) for r in range(1, 4) for c in range(1, 4) if (r, c) != START_CELL)
EDGE_MIDDLES: tuple[Cell, ...] = ((0, 2), (2, 0), (2, 4), (4, 2))
OUTER: tuple[Cell, ...] = tuple(
    (r, c)
    for r in range(SIZE)
    for c in range(SIZE)
    if (r, c) != START_CELL and (r, c) not in RING and (r, c) not in EDGE_MIDDLES
)
# R2.6: every row and column but those of the start room.
LINES: tuple[str, ...] = ("row0", "row1", "row3", "row4", "col0", "col1", "col3", "col4")
SLIDE = re.compile(r"^(row[0-4]|col[0-4])-(up|down|left|right)$")


def tile_id(cell: Cell) -> int:
    return cell[0] * SIZE + cell[1]


def group(tile: int) -> str:
    """Which setup group the tile was dealt to: start, ring, edge or outer."""
    cell = (tile // SIZE, tile % SIZE)
    if cell == START_CELL:
        return "start"
    if cell in RING:
        return "ring"
    return "edge" if cell in EDGE_MIDDLES else "outer"


def fresh() -> Grid:
    """Every tile on the cell it was dealt to."""
    return [[r * SIZE + c for c in range(SIZE)] for r in range(SIZE)]


def where(grid: Grid, tile: int) -> Cell | None:
    for r, row in enumerate(grid):
        for c, t in enumerate(row):
            if t == tile:
                return (r, c)
    return None


def at(grid: Grid, cell: Cell) -> int | None:
    return grid[cell[0]][cell[1]]


def step(cell: Cell, direction: str) -> Cell | None:
    dr, dc = DIRECTIONS[direction]
    r, c = cell[0] + dr, cell[1] + dc
    return (r, c) if 0 <= r < SIZE and 0 <= c < SIZE else None


def neighbour(grid: Grid, tile: int, direction: str) -> int | None:
    """The tile next to `tile` in `direction`, or None at the edge."""
    cell = where(grid, tile)
    if cell is None:
        return None
    nxt = step(cell, direction)
    return None if nxt is None else at(grid, nxt)


def adjacent(grid: Grid, tile: int) -> dict[str, int]:
    """The orthogonal neighbours of `tile` by direction."""
    out = {}
    for d in DIRECTIONS:
        n = neighbour(grid, tile, d)
        if n is not None:
            out[d] = n
    return out


def line_directions(line: str) -> tuple[str, str]:
    return ("left", "right") if line.startswith("row") else ("up", "down")


def slide_name(line: str, direction: str) -> str:
    return f"{line}-{direction}"


def parse_slide(text: str) -> tuple[str, str] | None:
    """``row1-left`` -> ("row1", "left"); None if it is not a line and a direction along it."""
    m = SLIDE.match(text)
    if m is None or m.group(2) not in line_directions(m.group(1)):
        return None
    return m.group(1), m.group(2)


def _cells(line: str) -> list[Cell]:
    index = int(line[3])
    return [(index, c) for c in range(SIZE)] if line.startswith("row") else [(r, index) for r in range(SIZE)]


def pushed_off(grid: Grid, line: str, direction: str) -> int | None:
    """The tile a slide would push off the far end."""
    cells = _cells(line)
    return at(grid, cells[-1] if direction in ("right", "down") else cells[0])


def slide(grid: Grid, line: str, direction: str, drop: bool = False) -> int | None:
    """Slide `line` one step in place; the tile pushed off comes back in at the other end, or, with
    `drop` (the exit leaving, R4.2), leaves a gap there. Returns the tile that was pushed off."""
    cells = _cells(line)
    tiles = [at(grid, cell) for cell in cells]
    if direction in ("right", "down"):
        off = tiles[-1]
        moved = [None if drop else off, *tiles[:-1]]
    else:
        off = tiles[0]
        moved = [*tiles[1:], None if drop else off]
    for (r, c), t in zip(cells, moved, strict=True):
        grid[r][c] = t
    return off


def distance(a: Cell, b: Cell) -> int:
    """Steps between two cells (R5.3)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])
