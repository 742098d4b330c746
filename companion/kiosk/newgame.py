"""A new game as the kiosk's host prepares it (issue 21): the game, the players in seat order and the
options, and the `table.new_game` input it becomes (NEWGAME_IFACE.md: the table checks it again).

Known players keep their ids (the last game's players, enrolled figures: a figure still means its
player); a typed name gets the first free id of p1, p2, ... The options the kiosk can set are the
game's choices, whole numbers with bounds and yes/no (from the game's `Options` model, the same
schema `companion games ID` reads); any other option keeps the value it had (or its default).

All of it reads only the game's box (`companion.games.box`: its player counts and its `Options`
model), so a game is seated and set up without importing its rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core.contract import GameBox

NAME_MAX = 24  # the table refuses a longer name (NEWGAME_IFACE.md)
#: Whether the host plays or moderates: a yes/no row after the game's own options, kept in the plan's
#: options while the host chooses and sent as `table.new_game`'s own `moderator` (not a game option).
MODERATOR = "moderator"


@dataclass(frozen=True)
class OptionField:
    name: str
    kind: str  # "choice", "number" or "toggle"
    default: Any
    choices: tuple[Any, ...] = ()
    low: int = 0
    high: int = 0
    step: int = 1


@dataclass
class Plan:
    game: str
    known: list[tuple[str, str]]  # (id, name) of everyone the screen offers, in the order shown
    seated: list[str] = field(default_factory=list)  # ids in seat order
    options: dict[str, Any] = field(default_factory=dict)

    def name_of(self, pid: str) -> str:
        return dict(self.known).get(pid, pid)

    def toggle(self, pid: str) -> None:
        if pid in self.seated:
            self.seated.remove(pid)
        else:
            self.seated.append(pid)

    def seat(self, pid: str, name: str) -> None:
        """A player tapped their figure (or was typed): known from now on, and seated."""
        if pid not in dict(self.known):
            self.known.append((pid, name))
        if pid not in self.seated:
            self.seated.append(pid)

    def add(self, name: str) -> str:
        """A typed name: a fresh id, known and seated."""
        used = {pid for pid, _ in self.known}
        pid = next(f"p{n}" for n in range(1, len(used) + 2) if f"p{n}" not in used)
        self.seat(pid, name)
        return pid

    def rename(self, pid: str, name: str) -> None:
        self.known = [(p, name if p == pid else n) for p, n in self.known]

    def players(self) -> list[dict[str, str]]:
        return [{"id": pid, "name": self.name_of(pid)} for pid in self.seated]

    def move(self) -> dict[str, Any]:
        options = {k: v for k, v in self.options.items() if k != MODERATOR}
        args: dict[str, Any] = {"game": self.game, "players": self.players(), "options": options}
        if self.options.get(MODERATOR):
            args[MODERATOR] = True
        return {"by": "host", "move": "table.new_game", "args": args}


def count_problem(game: GameBox, count: int) -> tuple[str, dict[str, Any]] | None:
    """Why `count` players cannot start `game` (a message id and its params), or None."""
    if game.min_players <= count <= game.max_players:
        return None
    return "kiosk.newgame.count", {"low": game.min_players, "high": game.max_players, "count": count}


def table_fields() -> list[OptionField]:
    """What the kiosk asks besides the game's options: whether the host moderates (does not play)."""
    return [OptionField(MODERATOR, "toggle", False)]


def option_fields(game: GameBox) -> list[OptionField]:
    """The options the kiosk can set, with their defaults (pydantic's JSON schema of the model)."""
    model = game.Options
    props = model.model_json_schema().get("properties", {})
    out = []
    for name, prop in props.items():
        declared = model.model_fields[name]
        if declared.is_required():
            continue
        default = declared.get_default(call_default_factory=True)
        if "enum" in prop:
            out.append(OptionField(name, "choice", default, tuple(prop["enum"])))
        elif prop.get("type") == "boolean":
            out.append(OptionField(name, "toggle", default))
        elif prop.get("type") == "integer" and "minimum" in prop and "maximum" in prop:
            low, high = int(prop["minimum"]), int(prop["maximum"])
            step = 30 if high - low >= 600 else 5 if high - low >= 60 else 1
            out.append(OptionField(name, "number", default, low=low, high=high, step=step))
    return out


def starting_options(game: GameBox, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Each settable option at its given value (the same game's last options) or its default."""
    given = given or {}
    values = {f.name: given.get(f.name, f.default) for f in option_fields(game)}
    return {**{k: v for k, v in given.items() if k in game.Options.model_fields}, **values}


def plan_for(game: GameBox, public: Mapping[str, Any], figures: list[tuple[str, str]],
             options_fallback: Mapping[str, Any] | None = None) -> Plan:
    """A plan for `game`: the current game's players first (seated), then the enrolled figures; the
    options of the current game when it is the same game, else the defaults."""
    known = [(p["id"], p["name"]) for p in public.get("players", [])]
    ids = {pid for pid, _ in known}
    known += [(pid, name) for pid, name in figures if pid not in ids]
    seated = [pid for pid, _ in known[: len(public.get("players", []))]][: game.max_players]
    same = public.get("game") == game.id
    options = public.get("options", options_fallback) if same else None
    plan = Plan(game.id, known, seated, starting_options(game, options))
    if public.get("moderated"):  # a moderated table stays moderated until the host says otherwise
        plan.options[MODERATOR] = True
    return plan
