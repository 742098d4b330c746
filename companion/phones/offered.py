"""The games the host's page offers for "New game" (`/games.json`, companion/phones/pageserver.py).

For each game this companion referees: its id, its title's message id, how many players it takes and
the options a new game may set, each with what it takes (from the same pydantic model the referee checks,
so the form offers what the referee accepts). Nothing here is secret or per game: the list is the same
for every table and is served over plain HTTP beside the page's catalogs.

An option whose default is None names something the table is set up with (a map file, a data
directory, teams or explorers chosen beforehand): `table.new_game` lets no phone bring a new one
(companion/table/next_game.py), so it is not offered either; "Play again" keeps it as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion import i18n
from companion.commandline import schema
from companion.core.contract import Game, GameBox
from companion.games import box


def _known(msgid: str) -> str | None:
    return msgid if msgid in i18n.msgids(i18n.FALLBACK) else None


def _option(game: GameBox, name: str, prop: Mapping[str, Any], defs: Mapping[str, Any]) -> dict[str, Any] | None:
    declared = game.Options.model_fields[name]
    if declared.is_required():
        return None
    default = declared.get_default(call_default_factory=True)
    if default is None:
        return None
    out: dict[str, Any] = {"name": name, "default": default, "label": _known(f"{game.id}.option.{name}")}
    choices = schema.choices(prop, defs)
    if choices:
        out.update(kind="choice", choices=[
            {"value": c, "label": _known(f"kind.{game.id}.{name}.{c}") or _known(f"phone.choice.{c}")}
            for c in choices])
        return out
    kind = prop.get("type")
    if kind == "boolean":
        out["kind"] = "boolean"
    elif kind in ("integer", "number"):
        out["kind"] = kind
        for key in ("minimum", "maximum"):
            if key in prop:
                out[key] = prop[key]
    elif kind == "string":
        out.update(kind="text", pattern=prop.get("pattern"), max_length=prop.get("maxLength"))
    else:
        return None  # a list or a table of things: set up beforehand, not from a phone
    return out


def offered_game(game: GameBox) -> dict[str, Any]:
    model = game.Options.model_json_schema()
    defs = model.get("$defs", {})
    options = [_option(game, name, prop, defs) for name, prop in model.get("properties", {}).items()]
    return {"id": game.id, "title": f"game.{game.id}.title", "low": game.min_players, "high": game.max_players,
            "options": [o for o in options if o is not None]}


def offered(games: Mapping[str, Game]) -> list[dict[str, Any]]:
    """Every game, as the host's page lists them (in the games' menu order), from each game's box: no
    game's rules are imported for the list (docs/perf/rss.md)."""
    boxes = [box(games, game_id) for game_id in games]
    ranked = sorted(boxes, key=lambda g: (getattr(g, "menu_rank", 0), g.id))
    return [offered_game(g) for g in ranked]
