"""Prompts (companion/core/prompts.py): what a player or the host may input now, as forms the phone
page and the kiosk booth render without knowing the game."""

from __future__ import annotations

from companion.core.contract import State
from companion.core.inputs import HOST, actor_player
from companion.core.prompts import Choice, Field, Prompt
from companion.games.room25 import actions, board, flow, rooms, slides
from companion.games.room25.moves import possible_kinds


def _names(s: State) -> dict[str, str]:
    return {p["id"]: p["name"] for p in s["players"]}


def _dirs(directions: list[str]) -> tuple[Choice, ...]:
    return tuple(Choice(d, f"kind.room25.dir.{d}") for d in directions)


def _tiles(s: State, tiles: list[int]) -> tuple[Choice, ...]:
    return tuple(Choice(t, "room25.tile", board.place(s, t) or {}) for t in tiles)


def _slides(names: list[str]) -> tuple[Choice, ...]:
    return tuple(
        Choice(n, "room25.slide", {"line": f"kind.room25.line.{n[:3]}", "index": int(n[3]) + 1,
                                   "direction": f"kind.room25.dir.{n.split('-')[1]}"})
        for n in names
    )


def for_actor(s: State, actor: str) -> list[Prompt]:
    phase = flow.phase(s)
    if actor == HOST:
        return _host(s, phase)
    pid = actor_player(actor)
    if pid is None or phase is None:
        return []
    if phase == "programming":
        p = s["program"]
        if pid not in p["expected"]:
            return []
        n = flow.slots(s, pid)
        choices = tuple(Choice(a, f"kind.room25.action.{a}") for a in actions.ACTIONS)
        # R2.1: two DIFFERENT actions, so the second step never offers the first one again (issue 21)
        after = {a: tuple(b for b in actions.ACTIONS if b != a) for a in actions.ACTIONS}
        return [Prompt("plan", "room25.prompt.plan", (Field("actions", "choices", "room25.prompt.actions", choices,
                                                             min=n, max=n, first=tuple(actions.ACTIONS),
                                                             after=after),), {"count": n})]
    if flow.current_player(s) != pid:
        return []
    if phase == "action":
        return [*_action(s, pid, s["current"]["action"]), Prompt("act.forfeit", "room25.prompt.forfeit")]
    return _choice(s, pid, s["pending"][0]["room"])


def _towards(move: str, directions: list[str]) -> Prompt:
    return Prompt(move, f"room25.prompt.{move[4:]}",
                  (Field("direction", "choice", "room25.prompt.direction", _dirs(directions)),))


def _action(s: State, pid: str, action: str) -> list[Prompt]:
    if action == "look":
        return [_towards("act.look", actions.look_directions(s, pid))]
    if action == "move":
        return [_towards("act.move", actions.way_out(s, pid))]
    if action == "push":
        targets = actions.push_targets(s, pid)
        names = _names(s)
        away = actions.way_out(s, targets[0]) if targets else []
        return [Prompt("act.push", "room25.prompt.push", (
            Field("target", "choice", "room25.prompt.target", tuple(Choice(t, names[t], plain=True) for t in targets)),
            Field("direction", "choice", "room25.prompt.direction", _dirs(away)),
        ))]
    return [Prompt("act.control", "room25.prompt.control",
                   (Field("slide", "choice", "room25.prompt.slide", _slides(slides.legal(s, pid))),))]


def _choice(s: State, pid: str, room: str) -> list[Prompt]:
    label = f"room25.prompt.room_{room}"
    if room == "control":
        out = [Prompt("room.slide", label, (Field("slide", "choice", "room25.prompt.slide",
                                                  _slides(slides.legal(s, pid))),))]
    else:
        out = [Prompt("room.pick", label, (Field("tile", "choice", "room25.prompt.tile",
                                                 _tiles(s, rooms.choices(s, room, pid))),))]
    if room in rooms.OPTIONAL:
        out.append(Prompt("room.skip", "room25.prompt.skip"))
    return out


def _host(s: State, phase: str | None) -> list[Prompt]:
    out: list[Prompt] = []
    if phase == "reveal":
        tile = s["pending"][0]["tile"]
        kinds = possible_kinds(s, tile)
        out.append(Prompt("room.reveal", "room25.prompt.reveal", (
            Field("kind", "choice", "room25.prompt.room", tuple(Choice(k, f"kind.room25.room.{k}") for k in kinds)),
        ), board.place(s, tile) or {}))
    if phase == "locate_exit":
        tiles = [t for t in board.closed(s) if "exit" in possible_kinds(s, t)]
        out.append(Prompt("exit.locate", "room25.prompt.locate_exit",
                          (Field("tile", "choice", "room25.prompt.tile", _tiles(s, tiles)),)))
    if phase is None:
        return out
    t = s["timer"]
    if phase == "programming" and t is not None and not t["running"] and not t["expired"]:
        out.append(Prompt("timer.start" if not t["started"] else "timer.resume", "room25.prompt.timer_start"))
    out.append(Prompt("timer.set", "room25.prompt.timer_set", (
        Field("seconds", "number", "room25.prompt.seconds", min=0, max=3600, default=s["timer_seconds"]),)))
    return out
