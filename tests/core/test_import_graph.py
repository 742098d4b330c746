"""The import graph has no loop between folders (issue 17): a folder (a feature of the companion, or one
game's package) may use another only if that one does not use it back, directly or around a ring. Every
import counts, also one inside a function; only imports for type checking (``if TYPE_CHECKING:``) do not."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("companion", "hardware", "firmware_protocol")


def folder_of(module: str) -> str:
    """A module's folder: ``companion.kiosk`` for ``companion.kiosk.screens.play``, a game's own package
    for its modules (``companion.games.room25``), a top-level module for itself (``companion.cli``)."""
    parts = module.split(".")
    keep = 3 if parts[:2] == ["companion", "games"] and len(parts) >= 3 else 2
    return ".".join(parts[:keep])


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for branch in ast.walk(tree)
                   if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                   for node in ast.walk(branch)}
    here = module_of(path).split(".")
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against this module's package
                package = here if path.name == "__init__.py" else here[:-1]
                base = ".".join([*package[:len(package) - node.level + 1], *([base] if base else [])])
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            source = folder_of(module_of(path))
            for target in imports(path):
                if target.split(".")[0] not in PACKAGES:
                    continue
                folder = folder_of(target)
                if folder != source and not (folder == "companion.games" and target.count(".") >= 2):
                    edges.setdefault(source, set()).add(folder)
    return edges


def loops(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one folder (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_loop_finder_finds_a_ring() -> None:
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert loops({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_the_folders_and_their_uses() -> None:
    edges = graph()
    assert "companion.core" in edges["companion.games.room25"]
    assert "companion.drawing" in edges["companion.games.room25"]  # its board picture, imported lazily
    assert "companion.games" in edges["companion.kiosk"]


def test_no_loop_between_folders() -> None:
    assert loops(graph()) == []
