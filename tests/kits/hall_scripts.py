"""The hall tests' games: the demo scripts of docs/games, played by league players.

A demo script names its players `ana`, `ben`, ...; at a league night they are the hall's league ids.
`renamed` gives a script's setup and inputs with every player id (as a value, a key, or in a sender such
as ``player:ana``) replaced, so the same seeded game plays out with other people in the same seats.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parents[2] / "docs" / "games"


def script(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A demo script (`lockdown/lockdown-2p`): its setup line and its inputs, in order."""
    lines = [json.loads(t) for t in (SCRIPTS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
             if t.strip() and not t.startswith("#")]
    return lines[0], lines[1:]


def _rename(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        if value in ids:
            return ids[value]
        head, _, pid = value.partition(":")
        return f"{head}:{ids[pid]}" if head == "player" and pid in ids else value
    if isinstance(value, list):
        return [_rename(v, ids) for v in value]
    if isinstance(value, dict):
        return {_rename(k, ids): _rename(v, ids) for k, v in value.items()}
    return value


def renamed(name: str, people: dict[str, tuple[str, str]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Script `name` with its players `people[old] = (league id, name)`; each input gets a command id."""
    setup, inputs = script(name)
    ids = {old: new for old, (new, _) in people.items()}
    setup = _rename(setup, ids)
    names = dict(people.values())
    setup["players"] = [{"id": p["id"], "name": names.get(p["id"], p["name"])} for p in setup["players"]]
    moves = [{k: v for k, v in _rename(m, ids).items() if k != "at"} | {"id": f"cmd-{i}"}
             for i, m in enumerate(inputs)]
    return setup, moves
