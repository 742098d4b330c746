"""Prompts (companion/core/prompts.py): what the player whose turn it is, or the host, may input now,
as forms the phone page and the kiosk booth render without knowing the game. A prompt is offered only
when it could be accepted (affordable steps, rooms with something to give, items held)."""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.core.inputs import HOST, actor_player
from companion.core.prompts import Choice, Field, Prompt
from companion.games.lab_escape import board, data, flow, geometry, items, rooms


def _names(s: State) -> dict[str, str]:
    return {p["id"]: p["name"] for p in s["players"]}


def _rooms(ids: list[str]) -> tuple[Choice, ...]:
    return tuple(Choice(r, data.room_word(r)) for r in ids)


def _cards(ids: list[str]) -> tuple[Choice, ...]:
    return tuple(Choice(c, data.card_word(c)) for c in ids)


def _items(ids: list[str]) -> tuple[Choice, ...]:
    return tuple(Choice(i, data.item_word(i)) for i in ids)


def _rolls(s: State, attack: bool = False) -> tuple[Field, ...]:
    """Table dice: the faces shown, entered with the input (E3.2, E4.1)."""
    if not s["table_dice"]:
        return ()
    out: tuple[Field, ...] = (Field("roll", "number", "lab_escape.prompt.roll", min=1, max=6, default=1),)
    if attack:
        out += (Field("defense_roll", "number", "lab_escape.prompt.defense_roll", min=1, max=6, default=1),)
    return out


def for_actor(s: State, actor: str) -> list[Prompt]:
    phase = flow.phase(s)
    if actor == HOST:
        return _host(s, phase)
    pid = actor_player(actor)
    if pid is None or phase is None or flow.current_player(s) != pid:
        return []
    if phase == "refill":
        return [_drawn(s)]
    if phase == "place":
        return [Prompt("card.place", "lab_escape.prompt.place",
                       (Field("card", "choice", "lab_escape.prompt.card", _cards(s["display"])),)),
                *(form for c in s["display"] if (form := _placed_at(s, c)) is not None),
                Prompt("stuck", "lab_escape.prompt.stuck")]
    if phase == "move":
        return _moving(s, pid)
    return _acting(s, pid)


def _placed_at(s: State, card: str) -> Prompt | None:
    """E1.1 (issue 31): the card with its place in the grid and the doors the table says are blocked;
    None when no spot is free (issue 33: a form with nothing to choose cannot be sent). That happens when
    the Mechanism room moved the start card and no other card's place was entered: no known place is left
    for a card to touch, and the table judges where the cards lie (the form with the card alone)."""
    spots = tuple(Choice(at, "lab_escape.prompt.spot", {
        "x": at["x"], "y": at["y"], "toward": f"kind.lab_escape.side.{geometry.SECOND[at['rotation']]}"})
        for at in geometry.free_spots(s, card))
    if not spots:
        return None
    doors = tuple(Choice({"room": r, "side": side}, "lab_escape.prompt.door",
                         {"room": data.room_word(r), "side": f"kind.lab_escape.side.{side}"})
                  for r in data.rooms_of_card()[card] for side in geometry.DIRECTIONS)
    return Prompt("card.place", "lab_escape.prompt.place_at", (
        Field("at", "choice", "lab_escape.prompt.spot_field", spots),
        Field("blocked", "choices", "lab_escape.prompt.blocked", doors, min=0, max=len(doors), distinct=True)),
        {"card": data.card_word(card)}, fixed={"card": card})


def _drawn(s: State) -> Prompt:
    return Prompt("card.drawn", "lab_escape.prompt.drawn",
                  (Field("card", "choice", "lab_escape.prompt.card", _cards(s["deck"])),))


def _moving(s: State, pid: str) -> list[Prompt]:
    out: list[Prompt] = []
    doors = flow.legal_steps(s, pid, vent=False)
    if doors:
        out.append(Prompt("step", "lab_escape.prompt.step",
                          (Field("room", "choice", "lab_escape.prompt.room", _rooms(doors)),)))
    vents = flow.legal_steps(s, pid, vent=True)
    if vents:
        out.append(Prompt("step", "lab_escape.prompt.vent",
                          (Field("room", "choice", "lab_escape.prompt.room", _rooms(vents)),), fixed={"vent": True}))
    if s["turn"]["steps"]:
        out.append(Prompt("move.end", "lab_escape.prompt.end_move"))
    else:
        out += _item_uses(s, pid)
        out.append(Prompt("stuck", "lab_escape.prompt.stuck"))
    return out


def _acting(s: State, pid: str) -> list[Prompt]:
    here = board.person(s, pid)["room"]
    out = effect_prompts(s, pid, here, "activate", {})
    if items.held(s, pid, data.WEAPON):
        names = _names(s)
        for other in board.in_room(s, here):
            theirs = board.person(s, other)["items"]
            if other != pid and theirs:
                out.append(Prompt("attack", "lab_escape.prompt.attack",
                                  (Field("take", "choice", "lab_escape.prompt.take", _items(theirs)), *_rolls(s, True)),
                                  {"player": names[other]}, fixed={"target": other}))
    out += _item_uses(s, pid)
    out.append(Prompt("turn.end", "lab_escape.prompt.end_turn"))
    return out


def _item_uses(s: State, pid: str) -> list[Prompt]:
    out: list[Prompt] = []
    if items.held(s, pid, "adrenaline"):
        out.append(Prompt("item.use", "lab_escape.prompt.adrenaline", fixed={"item": "adrenaline"}))
    if items.held(s, pid, "wrench"):
        for room in rooms.activatable(s):
            if rooms.kind(room) != "control":
                out += effect_prompts(s, pid, room, "item.use", {"item": "wrench", "room": room}, remote=True)
    return out


def effect_prompts(s: State, pid: str, room: str, move: str, fixed: dict[str, Any],
                   remote: bool = False) -> list[Prompt]:
    """The ways `pid` could run `room`'s 『启动』 effect now (none when nothing could come of it)."""
    spec = data.kind_of(room)
    if spec.effect != "activate":
        return []
    k = rooms.kind(room)
    params = {"room": data.room_word(room)}

    def one(*fields: Field, **more: Any) -> Prompt:
        return Prompt(move, "lab_escape.prompt.activate", fields, params, fixed={**fixed, **more})

    if k in ("garden", "darkroom", "dark_chamber", "operating"):
        return [one(*_rolls(s))] if items.available(s, spec.gives[0]) else []
    if k == "storage":
        left = [g for g in spec.gives if items.available(s, g)]
        return [one(Field("choice", "choice", "lab_escape.prompt.item", _items(left)), *_rolls(s))] if left else []
    if k == "kitchen":
        left = [g for g in spec.gives if items.available(s, g)]
        ok = left and items.held(s, pid, "cat")
        return [one(Field("choice", "choice", "lab_escape.prompt.item", _items(left)))] if ok else []
    if k == "archive":
        return [one()] if items.held(s, pid, "key") and items.available(s, data.USB_KEY) else []
    if k == "pharmacy":
        return [one()] if board.can_pay(s, pid, 1) else []
    if k == "game_room":
        return [one(Field("number", "number", "lab_escape.prompt.number", min=1, max=6, default=3), *_rolls(s))]
    if k == "telegraph":
        return [one()]
    if k == "mechanism":
        free = board.cards_without_players(s)
        return [one(Field("card", "choice", "lab_escape.prompt.card", _cards(free)))] if free else []
    if k == "secret_passage":
        return _passage(s, pid, one)
    # the Control room: pay 1, then another room's effect (never the Control room again); the pharmacy's
    # own 1 comes on top (issue 33's walks: the form asked for 2 to spare where the referee takes 1)
    if remote or not board.can_pay(s, pid, 1):
        return []
    out: list[Prompt] = []
    for other in rooms.activatable(s):
        if rooms.kind(other) != "control" and (rooms.kind(other) != "pharmacy" or board.can_pay(s, pid, 2)):
            out += effect_prompts(s, pid, other, move, {**fixed, "room": other}, remote=True)
    return out


def _passage(s: State, pid: str, one: Any) -> list[Prompt]:
    here = board.person(s, pid)["room"]
    names = _names(s)
    others = [o for o in s["order"] if o != pid and board.person(s, o)["room"] != here]
    if not others:
        return []
    out: list[Prompt] = [one(Field("target", "choice", "lab_escape.prompt.player",
                                   tuple(Choice(o, names[o], plain=True) for o in others)))]
    if items.held(s, pid, data.WEAPON):
        for o in others:
            theirs = board.person(s, o)["items"]
            if theirs:
                out.append(one(Field("take", "choice", "lab_escape.prompt.take", _items(theirs)),
                               *_rolls(s, True), target=o))
    return out


def _host(s: State, phase: str | None) -> list[Prompt]:
    out: list[Prompt] = []
    if phase == "refill":
        out.append(_drawn(s))
    if phase is None:
        return out
    t = s["timer"]
    if t is not None and not t["running"] and not t["expired"] and (t["started"] or phase != "refill"):
        # a timer starts on a turn's first stage, not while the table refills the display (issue 21)
        out.append(Prompt("timer.start" if not t["started"] else "timer.resume", "lab_escape.prompt.timer_start"))
    if t is not None and not t["running"] and t["started"] and phase != "refill":  # paused or run out: again
        out.append(Prompt("timer.start", "lab_escape.prompt.timer_restart", params={"seconds": t["duration"] // 1000}))
    out.append(Prompt("timer.set", "lab_escape.prompt.timer_set", (
        Field("seconds", "number", "lab_escape.prompt.seconds", min=0, max=3600, default=s["timer_seconds"]),)))
    return out
