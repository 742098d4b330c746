"""Monsters (B5.1): played by the traitor (the host when there is none). In the monsters' turn the
traitor rolls each kind's dice, as many as its speed (the table's real dice, or the referee's when the
table asks: issue 31); the total, at least 1, is how many rooms each monster of that kind may move; a
kind moves once rolled. A defeated monster is stunned: it skips its next turn, then recovers. Monsters
carry, steal and explore nothing (they move only between rooms already laid)."""

from __future__ import annotations

from typing import Any

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.betrayal import data, dice, explorers, house

Monster = dict[str, Any]


def kinds(s: State) -> dict[str, data.Monster]:
    h = s["haunt"]
    if h is None:
        return {}
    return {m.kind: m for m in data.of(s).haunt(h["number"]).monsters}


def get(s: State, mid: str) -> Monster:
    m: Monster | None = s["monsters"].get(mid)
    if m is None:
        raise Rejected("reject.betrayal_no_monster", monster=mid[:24])
    return m


def left_to_place(s: State) -> dict[str, int]:
    placed: dict[str, int] = {}
    for m in s["monsters"].values():
        placed[m["kind"]] = placed.get(m["kind"], 0) + 1
    return {k: spec.count - placed.get(k, 0) for k, spec in kinds(s).items() if spec.count > placed.get(k, 0)}


def place(ctx: Ctx, kind: str, room: str) -> None:
    s = ctx.state
    if left_to_place(s).get(kind, 0) <= 0:
        raise Rejected("reject.betrayal_no_monster_left", kind=kind[:24])
    if room not in s["rooms"]:
        raise Rejected("reject.betrayal_unknown_room", room=room[:24])
    n = 1 + sum(1 for m in s["monsters"].values() if m["kind"] == kind)
    mid = f"{kind}{n}"
    s["monsters"][mid] = {"kind": kind, "room": room, "stunned": False, "skipping": False, "spent": 0,
                          "entered": 0, "attacked": False}
    ctx.announce("betrayal.monster_placed", monster=mid, kind=f"kind.betrayal.monster.{kind}",
                 room=f"kind.betrayal.room.{room}")


def allowance(total: int) -> int:
    """B5.1: the rolled total, but at least one room."""
    return max(1, total)


def start_turn(ctx: Ctx) -> None:
    """B5.1: stunned monsters skip this turn; each kind's dice are rolled before it moves (`roll`)."""
    s = ctx.state
    s["monster_moves"] = {}
    for m in s["monsters"].values():
        m.update(spent=0, entered=0, attacked=False, skipping=m["stunned"])
    ctx.announce("betrayal.monsters_turn")


def to_roll(s: State) -> list[str]:
    """The kinds with a monster that can act this monsters' turn whose dice are not rolled yet."""
    active = {m["kind"] for m in s["monsters"].values() if not m["stunned"]}
    return [k for k in kinds(s) if k in active and k not in s["monster_moves"]]


def rolls(s: State) -> dict[str, int | None]:
    """The public view's `monster_rolls` in the monsters' turn: each acting kind's rooms, None while its
    dice wait."""
    if s["turn"] is None or s["turn"]["actor"] != "@monsters":
        return {}
    active = {m["kind"] for m in s["monsters"].values() if not m["stunned"]}
    return {k: s["monster_moves"].get(k) for k in kinds(s) if k in active or k in s["monster_moves"]}


def roll(ctx: Ctx, kind: str, entered: list[int] | None = None, total: int | None = None) -> None:
    """B5.1: a kind's speed in dice: the faces or total of the table's real dice, or the seeded dice."""
    s = ctx.state
    spec = kinds(s).get(kind)
    if spec is None:
        raise Rejected("reject.betrayal_no_monster_kind", kind=kind[:24])
    if kind in s["monster_moves"]:
        raise Rejected("reject.betrayal_monster_rolled", kind=f"kind.betrayal.monster.{kind}")
    if kind not in to_roll(s):
        raise Rejected("reject.betrayal_no_monster_kind", kind=f"kind.betrayal.monster.{kind}")
    faces, got = dice.read(ctx.rng(), dice.count(spec.speed), entered, total)
    rooms = allowance(got)
    s["monster_moves"][kind] = rooms
    if faces is None:
        ctx.announce("betrayal.monster_roll_real", kind=f"kind.betrayal.monster.{kind}", total=got, rooms=rooms)
    else:
        ctx.announce("betrayal.monster_roll", kind=f"kind.betrayal.monster.{kind}", dice=faces, total=got,
                     rooms=rooms)


def end_turn(ctx: Ctx) -> None:
    """B5.1: a monster that skipped this turn recovers."""
    for mid, m in ctx.state["monsters"].items():
        if m["skipping"]:
            m.update(stunned=False, skipping=False)
            ctx.announce("betrayal.monster_recovered", monster=mid)


def stun(ctx: Ctx, mid: str) -> None:
    m = ctx.state["monsters"][mid]
    m.update(stunned=True, skipping=False)
    ctx.announce("betrayal.monster_stunned", monster=mid)


def heroes_in(s: State, room: str) -> int:
    traitor = s["haunt"]["traitor"]
    return sum(1 for p in explorers.living(s) if p != traitor and explorers.get(s, p)["room"] == room)


def can_act(s: State, mid: str) -> bool:
    return not get(s, mid)["stunned"]


def move(ctx: Ctx, mid: str, to: str) -> None:
    """B5.1 with B2.1's hindrance: leaving a room costs one more per hero in it; at least one room."""
    s = ctx.state
    m = get(s, mid)
    if m["stunned"]:
        raise Rejected("reject.betrayal_monster_stunned", monster=mid)
    if to not in s["rooms"] or to not in house.monster_exits(s, m["room"]):
        raise Rejected("reject.betrayal_not_joined", room=f"kind.betrayal.room.{to}" if to in s["rooms"] else to[:24])
    if m["kind"] not in s["monster_moves"]:
        raise Rejected("reject.betrayal_monster_roll_first", kind=f"kind.betrayal.monster.{m['kind']}")
    cost = 1 + heroes_in(s, m["room"])
    budget = s["monster_moves"].get(m["kind"], 0)
    if m["entered"] > 0 and m["spent"] + cost > budget:
        raise Rejected("reject.betrayal_too_far", left=max(0, budget - m["spent"]))
    m["spent"] += cost
    m["entered"] += 1
    m["room"] = to
    ctx.announce("betrayal.monster_moved", monster=mid, room=f"kind.betrayal.room.{to}")


def public(s: State) -> dict[str, Any]:
    return {mid: {"kind": m["kind"], "room": m["room"], "stunned": m["stunned"],
                  "moves_left": max(0, s["monster_moves"].get(m["kind"], 0) - m["spent"]) if not m["stunned"] else 0}
            for mid, m in s["monsters"].items()}
