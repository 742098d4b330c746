"""What a game's package hands out only when it is first asked for (its `GAME`, its `Options`): the game
list and the new-game screens read the package's constants without importing its rules
(companion/games/__init__.py, docs/perf/rss.md)."""

from __future__ import annotations

import importlib
from typing import Any


def export(package: str, name: str, **where: str) -> Any:
    """`name` of `package`, imported from the module `where` names for it (``".game:GAME"``: the
    attribute ``GAME`` of the package's module ``game``); a name not in `where` is not there."""
    target = where.get(name)
    if target is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module, package), attribute)
