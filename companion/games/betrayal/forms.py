"""Prompts (companion/core/prompts.py): what a player or the host may input now, as forms the phone
page and the kiosk booth render without knowing the game."""

from __future__ import annotations

from companion.core.contract import State
from companion.core.inputs import HOST, actor_player
from companion.core.prompts import Choice, Field, Prompt
from companion.core.rejection import Rejected
from companion.games.betrayal import cards, combat, data, explorers, flow, house, monsters, movement
from companion.games.betrayal.dice import HAUNT_DICE, count

TRAIT_CHOICES = tuple(Choice(t, f"kind.betrayal.trait.{t}") for t in data.TRAITS)


def _names(s: State) -> dict[str, str]:
    return {p["id"]: p["name"] for p in s["players"]}


def _rooms(rooms: list[str]) -> tuple[Choice, ...]:
    return tuple(Choice(r, f"kind.betrayal.room.{r}") for r in rooms)


def _cards(ids: list[str]) -> tuple[Choice, ...]:
    return tuple(Choice(c, f"kind.betrayal.card.{c}") for c in ids)


def _targets(s: State, ids: list[str]) -> tuple[Choice, ...]:
    names = _names(s)
    return tuple(Choice(t, names[t], plain=True) if t in names else
                 Choice(t, f"kind.betrayal.monster.{s['monsters'][t]['kind']}", {"id": t}) for t in ids)


def for_actor(s: State, actor: str) -> list[Prompt]:
    ph = flow.phase(s)
    if actor == HOST:
        return _host(s, ph)
    pid = actor_player(actor)
    if pid is None or ph is None or pid not in s["explorers"]:
        return []
    if ph == "choosing":
        return _choosing(s, pid)
    out: list[Prompt] = []
    if pid == flow.controller(s) and ph in ("turn", "monsters") and monsters.left_to_place(s):
        out.append(_place(s))
    forced = _forced_rolls(s, pid) if s["explorers"][pid]["alive"] else []
    if flow.current_player(s) != pid:
        return out + forced
    if ph == "turn":
        return out + _turn(s, pid)  # the forced rolls among the rest
    # while the table reports a room or card, or a roll, a split or a steal waits: a roll the house
    # forces may come all the same, as it may for the others (issue 21)
    return out + _waiting(s, ph) + forced


def _waiting(s: State, ph: str) -> list[Prompt]:
    """The current player's prompts outside the turn's free part."""
    if ph in ("room", "card"):
        return _reveal(s, ph)
    if ph == "haunt_roll":
        return [Prompt("haunt.roll", "betrayal.prompt.haunt_roll", params={"omens": s["omens"]}),
                Prompt("haunt.roll", "betrayal.prompt.haunt_roll_real", (
                    Field("total", "number", "betrayal.prompt.total", min=0, max=2 * HAUNT_DICE, default=0),),
                    {"omens": s["omens"]})]
    if ph == "damage":
        p = s["pending"]
        one, two = p["pair"]
        return [Prompt("damage.split", "betrayal.prompt.damage", (
            Field("first", "number", f"kind.betrayal.trait.{one}", min=0, max=p["amount"], default=p["amount"] // 2),),
            {"amount": p["amount"], "first": f"kind.betrayal.trait.{one}", "second": f"kind.betrayal.trait.{two}"})]
    if ph == "steal":
        p = s["pending"]
        loot = [c for c in explorers.get(s, p["loser"])["cards"] if cards.tradable(s, c)]
        # "no steal" is its own button: a choice worth None would read as "nothing chosen yet" (issue 21)
        steal = [Prompt("steal.take", "betrayal.prompt.steal", (Field("card", "choice", "betrayal.prompt.card",
                                                                      _cards(loot)),), {"amount": p["amount"]})]
        return [*(steal if loot else []), Prompt("steal.take", "betrayal.prompt.no_steal", fixed={"card": None})]
    if ph == "monsters":
        return _monsters(s)
    return []


def _forced_rolls(s: State, pid: str) -> list[Prompt]:
    """A roll the house forces (an event, a room), from the seed or the total of the table's real dice:
    one real-dice form a trait, its total bounded by what that trait's dice can show (B1.3)."""
    seeded = Prompt("trait.roll", "betrayal.prompt.roll_forced", (
        Field("trait", "choice", "betrayal.prompt.trait", TRAIT_CHOICES),))
    return [seeded] + [_real_roll(t, count(explorers.value(s, pid, t))) for t in data.TRAITS]


def _real_roll(trait: str, dice: int, voluntary: bool = False) -> Prompt:
    label = "betrayal.prompt.roll_real_voluntary" if voluntary else "betrayal.prompt.roll_real_trait"
    total = Field("total", "number", "betrayal.prompt.total", min=0, max=2 * dice, default=0)
    return Prompt("trait.roll", label, (total,),
                  {"trait": f"kind.betrayal.trait.{trait}", "dice": dice},
                  fixed={"trait": trait, **({"voluntary": True} if voluntary else {})})


def _fighter(s: State, fighter: str) -> str:
    """A fighter's words in a prompt: a player's name, a monster's id (as "{id} attacks")."""
    names = _names(s)
    return names.get(fighter, fighter)


def _real_attack(s: State, move: str, attacker: str, target: str, ranged: bool = False) -> Prompt | None:
    """B4.1 with B1.3: an attack with the table's real dice, one form a target, each side's total bounded
    by what its might's dice can show (None when one of them has no might to roll: B5)."""
    try:
        mine, theirs = (count(combat.strength(s, f, "might")) for f in (attacker, target))
    except Rejected:
        return None
    return Prompt(move, "betrayal.prompt.attack_ranged_real" if ranged else "betrayal.prompt.attack_real", (
        Field("total", "number", "betrayal.prompt.attacker_total", min=0, max=2 * mine, default=0),
        Field("target_total", "number", "betrayal.prompt.target_total", min=0, max=2 * theirs, default=0)),
        {"attacker": _fighter(s, attacker), "target": _fighter(s, target), "dice": mine, "target_dice": theirs},
        fixed={"target": target, **({"monster": attacker} if move == "monster.attack" else {}),
               **({"ranged": True} if ranged else {})})


def _choosing(s: State, pid: str) -> list[Prompt]:
    """A character whose card nobody else holds; one already chosen may be changed until all have chosen."""
    d = data.of(s)
    taken = {d.character(e["character"]).card for other, e in s["explorers"].items()
             if e["character"] and other != pid}
    free = [c.id for c in d.characters.characters if c.card not in taken]
    return [Prompt("explorer.choose", "betrayal.prompt.choose", (
        Field("character", "choice", "betrayal.prompt.character",
              tuple(Choice(c, f"kind.betrayal.character.{c}") for c in free)),))]


def _turn(s: State, pid: str) -> list[Prompt]:
    e = explorers.get(s, pid)
    here = e["room"]
    out: list[Prompt] = []
    if movement.may_leave(s, pid):
        out.append(Prompt("move", "betrayal.prompt.move", (
            Field("to", "choice", "betrayal.prompt.room", _rooms(s["rooms"][here]["joins"])),),
            {"left": movement.speed_left(s, pid)}))
        if house.open_doors(s, here) > 0 and house.unplaced(s, s["rooms"][here]["floor"]):
            out.append(Prompt("explore", "betrayal.prompt.explore"))
    out += _place_explorer(s, pid) + _join_more(s, here)
    t = s["turn"]
    movable = [c for c in e["cards"] if cards.tradable(s, c) and c not in t["used"]]
    others = [p for p in explorers.living(s) if p != pid and explorers.get(s, p)["room"] == here]
    if movable and others and not t["gave"]:
        out.append(Prompt("card.give", "betrayal.prompt.give", (
            Field("card", "choice", "betrayal.prompt.card", _cards(movable)),
            Field("to", "choice", "betrayal.prompt.player", _targets(s, others)))))
    if movable:
        out.append(Prompt("card.drop", "betrayal.prompt.drop", (
            Field("card", "choice", "betrayal.prompt.card", _cards(movable)),)))
    pile = s["rooms"][here]["pile"]
    if pile:
        out.append(Prompt("card.take", "betrayal.prompt.take", (
            Field("card", "choice", "betrayal.prompt.card", _cards(pile)),)))
    unused = [c for c in e["cards"] if c not in t["used"]]
    if unused:
        out.append(Prompt("card.use", "betrayal.prompt.use", (
            Field("card", "choice", "betrayal.prompt.card", _cards(unused)),)))
    if here not in t["voluntary"]:
        out.append(Prompt("trait.roll", "betrayal.prompt.roll_voluntary", (
            Field("trait", "choice", "betrayal.prompt.trait", TRAIT_CHOICES),), fixed={"voluntary": True}))
        out += [_real_roll(t, count(explorers.value(s, pid, t)), voluntary=True) for t in data.TRAITS]
    out += _forced_rolls(s, pid)
    if s["haunt"] is not None and not t["attacked"]:
        near = [p for p in explorers.living(s) if p != pid and explorers.get(s, p)["room"] == here]
        near += [m for m, mon in s["monsters"].items() if mon["room"] == here]
        if near:
            out.append(Prompt("attack", "betrayal.prompt.attack", (
                Field("target", "choice", "betrayal.prompt.target", _targets(s, near)),)))
            out += [p for t in near if (p := _real_attack(s, "attack", pid, t)) is not None]
    out.append(Prompt("turn.end", "betrayal.prompt.end_turn"))
    return out


def _place_explorer(s: State, pid: str | None) -> list[Prompt]:
    """Issue 31: an event, a collapse or the host's correction puts an explorer in a laid room, or (the
    explorer whose turn it is) in a new room of a floor with tiles left, whose card is then drawn."""
    anyone = Field("player", "choice", "betrayal.prompt.player", _targets(s, explorers.living(s)))
    who = (anyone,) if pid is None else ()
    fixed = {} if pid is None else {"player": pid}
    out = [Prompt("explorer.place", "betrayal.prompt.place_explorer", (
        *who, Field("room", "choice", "betrayal.prompt.room", _rooms(list(s["rooms"])))), fixed=fixed)]
    floors = [f for f in data.FLOORS if house.unplaced(s, f)]
    actor = s["turn"]["actor"] if pid is None else pid
    if floors and actor in s["explorers"]:
        out.append(Prompt("explorer.place", "betrayal.prompt.place_new_room", (
            Field("floor", "choice", "betrayal.prompt.floor",
                  tuple(Choice(f, f"kind.betrayal.floor.{f}") for f in floors)),),
            {"player": _fighter(s, actor)}, fixed={"player": actor}))
    return out


def _join_more(s: State, here: str) -> list[Prompt]:
    """Issue 31: doorways of the explorer's room that face laid rooms' open doorways (after a tap)."""
    near = house.more_joins(s, here)
    if not near:
        return []
    most = min(len(near), house.open_doors(s, here))
    return [Prompt("room.join", "betrayal.prompt.room_join", (
        Field("joins", "choices", "betrayal.prompt.joins", _rooms(near), min=1, max=most, distinct=True),),
        {"room": f"kind.betrayal.room.{here}"})]


def _joins(s: State, p: dict[str, object], tiles: list[str]) -> list[Prompt]:
    """Issue 31: a tile whose other doorways face laid rooms' open doorways, one form a tile."""
    here = p["from"] if isinstance(p["from"], str) else None
    floor = str(p["floor"])
    near = house.joinable(s, here, floor)
    out = []
    for tile in tiles if near else []:
        most = min(len(near), data.of(s).room(tile).doors - (0 if here is None else 1))
        if most >= 1:
            out.append(Prompt("room.reveal", "betrayal.prompt.room_laid_joins", (
                Field("joins", "choices", "betrayal.prompt.joins", _rooms(near), min=1, max=most, distinct=True),),
                {"room": f"kind.betrayal.room.{tile}"}, fixed={"room": tile}))
    return out


def _reveal(s: State, ph: str) -> list[Prompt]:
    p = s["pending"]
    if ph == "room":
        tiles = house.layable(s, p["from"], p["floor"])
        return [Prompt("room.reveal", "betrayal.prompt.room_laid", (
            Field("room", "choice", "betrayal.prompt.room", _rooms(tiles)),),
            {"floor": f"kind.betrayal.floor.{p['floor']}"}), *_joins(s, p, tiles)]
    return [Prompt("card.reveal", "betrayal.prompt.card_drawn", (
        Field("card", "choice", "betrayal.prompt.card", _cards(movement.drawable(s, p["card"]))),),
        {"kind": f"kind.betrayal.cardkind.{p['card']}"})]


def _place(s: State) -> Prompt:
    return Prompt("monster.place", "betrayal.prompt.place", (
        Field("kind", "choice", "betrayal.prompt.monster",
              tuple(Choice(k, f"kind.betrayal.monster.{k}") for k in monsters.left_to_place(s))),
        Field("room", "choice", "betrayal.prompt.room", _rooms(list(s["rooms"])))))


def _monster_rolls(s: State) -> list[Prompt]:
    """B5.1 (issue 31): each kind's dice, the referee's or the total of the table's real dice."""
    out: list[Prompt] = []
    for kind in monsters.to_roll(s):
        n = count(monsters.kinds(s)[kind].speed)
        params = {"kind": f"kind.betrayal.monster.{kind}", "dice": n}
        out += [Prompt("monster.roll", "betrayal.prompt.monster_roll", params=params, fixed={"kind": kind}),
                Prompt("monster.roll", "betrayal.prompt.monster_roll_real", (
                    Field("total", "number", "betrayal.prompt.total", min=0, max=2 * n, default=0),),
                    params, fixed={"kind": kind})]
    return out


def _monsters(s: State) -> list[Prompt]:
    out: list[Prompt] = _monster_rolls(s)
    names = _names(s)
    for mid, m in s["monsters"].items():
        if m["stunned"]:
            continue
        budget = s["monster_moves"].get(m["kind"])
        if budget is not None and (m["entered"] == 0 or m["spent"] + 1 + monsters.heroes_in(s, m["room"]) <= budget):
            out.append(Prompt("monster.move", "betrayal.prompt.monster_move", (
                Field("to", "choice", "betrayal.prompt.room", _rooms(house.monster_exits(s, m["room"]))),),
                {"id": mid}, fixed={"monster": mid}))
        if m["attacked"]:
            continue
        near = [p for p in explorers.living(s) if explorers.get(s, p)["room"] == m["room"]]
        if near:
            out.append(Prompt("monster.attack", "betrayal.prompt.monster_attack", (
                Field("target", "choice", "betrayal.prompt.target",
                      tuple(Choice(p, names[p], plain=True) for p in near)),), {"id": mid}, fixed={"monster": mid}))
            out += [p for t in near if (p := _real_attack(s, "monster.attack", mid, t)) is not None]
        if monsters.kinds(s)[m["kind"]].ranged:  # issue 31: any living explorer, the line is the table's
            anyone = explorers.living(s)
            out.append(Prompt("monster.attack", "betrayal.prompt.monster_attack_ranged", (
                Field("target", "choice", "betrayal.prompt.target",
                      tuple(Choice(p, names[p], plain=True) for p in anyone)),), {"id": mid},
                fixed={"monster": mid, "ranged": True}))
            out += [p for t in anyone if (p := _real_attack(s, "monster.attack", mid, t, ranged=True)) is not None]
    out.append(Prompt("monsters.done", "betrayal.prompt.monsters_done"))
    return out


def _timer(s: State) -> list[Prompt]:
    t = s["timer"]
    out = [Prompt("timer.resume", "betrayal.prompt.timer_start")] if (
        t is not None and not t["running"] and not t["expired"]) else []
    return [*out, Prompt("timer.set", "betrayal.prompt.timer_set", (
        Field("seconds", "number", "betrayal.prompt.seconds", min=0, max=3600, default=s["timer_seconds"]),))]


def _host(s: State, ph: str | None) -> list[Prompt]:
    if ph is None:
        return []
    if ph == "choosing":  # the turn timer is the host's while the explorers choose too (issue 21)
        return _timer(s)
    out: list[Prompt] = []
    if ph in ("room", "card"):
        out += _reveal(s, ph)
    if ph == "monsters" and flow.controller(s) is None:
        out += _monsters(s)
    placing = ph in ("turn", "monsters") and monsters.left_to_place(s)
    if s["haunt"] is not None and flow.controller(s) is None and placing:
        out.append(_place(s))
    alive = explorers.living(s)
    if ph == "turn":
        out += _place_explorer(s, None) + _join_more(s, explorers.get(s, s["turn"]["actor"])["room"])
    out.append(Prompt("trait.adjust", "betrayal.prompt.adjust", (
        Field("player", "choice", "betrayal.prompt.player", _targets(s, alive)),
        Field("trait", "choice", "betrayal.prompt.trait", TRAIT_CHOICES),
        Field("steps", "number", "betrayal.prompt.steps", min=-12, max=12, default=-1))))
    if s["haunt"] is not None:
        winners = ["heroes", "none"] + (["traitor"] if s["haunt"]["traitor"] else [])
        out.append(Prompt("haunt.end", "betrayal.prompt.haunt_end", (
            Field("winner", "choice", "betrayal.prompt.winner",
                  tuple(Choice(w, f"kind.betrayal.side.{w}") for w in winners)),)))
    return out + _timer(s)
