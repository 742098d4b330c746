"""Attack cards (J2.2, J2.4-J2.6): who may be hit with what, the per-turn limit, the target's answer
(a trade card cancels the attack) and the damage of a hit."""

from __future__ import annotations

from typing import Any

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.jailbreak import flow


def holds(s: State, pid: str, piece: str) -> bool:
    return piece in s["equipment"].get(pid, [])


def in_range(s: State, attacker: str, target: str, card: str) -> bool:
    """J2.4: the same scene; the rope an adjacent scene; the pistol's bullets the same or an adjacent one
    (docs/games/jailbreak.md: a pistol that reaches the next scene reaches your own)."""
    gap = abs(flow.person(s, attacker)["scene"] - flow.person(s, target)["scene"])
    if card == "rope":
        return gap == 1
    if card == "bullet":
        return gap <= 1
    return gap == 0


def check(s: State, attacker: str, card: str, target: str) -> None:
    """Why `attacker` may not play `card` on `target` now, as a Rejected; nothing if they may."""
    t = s["turn"]
    if target == attacker:
        raise Rejected("reject.jailbreak_not_yourself")
    if target not in s["people"]:
        raise Rejected("reject.not_a_player", player=target)
    if flow.person(s, attacker)["hand"] < 1:
        raise Rejected("reject.jailbreak_empty_hand")
    if card == "bullet":
        if not holds(s, attacker, "pistol"):  # the bullet needs the pistol (J2.2)
            raise Rejected("reject.jailbreak_needs_pistol")
        if t["bullet_target"] not in (None, target):  # J2.2: any number of bullets, on one target
            raise Rejected("reject.jailbreak_one_bullet_target")
    elif t["attacks"] >= t["attack_limit"]:  # J2.2: one attack card a turn, one more per vodka
        raise Rejected("reject.jailbreak_attack_limit", limit=t["attack_limit"])
    if not in_range(s, attacker, target, card):
        raise Rejected("reject.jailbreak_out_of_range", card=f"kind.jailbreak.card.{card}")
    if s["roles"][attacker] == "sheriff" and flow.person(s, target)["bible"]:  # J2.6
        raise Rejected("reject.jailbreak_bible")


def targets(s: State, attacker: str, card: str) -> list[str]:
    out = []
    for pid in s["order"]:
        try:
            check(s, attacker, card, pid)
        except Rejected:
            continue
        out.append(pid)
    return out


def play(ctx: Ctx, attacker: str, card: str, target: str) -> None:
    """The card leaves the attacker's hand and counts for the turn; the target must answer."""
    s = ctx.state
    check(s, attacker, card, target)
    t = s["turn"]
    flow.person(s, attacker)["hand"] -= 1
    if card == "bullet":
        t["bullet_target"] = target
    else:
        t["attacks"] += 1
    t["pending"] = {"card": card, "attacker": attacker, "target": target}
    t["phase"] = "response"
    ctx.announce("jailbreak.attacked", attacker=attacker, target=target, card=f"kind.jailbreak.card.{card}")


def trade(ctx: Ctx, card: str) -> None:
    """J2.6: the target hands a trade card to the attacker, who keeps it; the attack card does nothing."""
    s = ctx.state
    t = s["turn"]
    pending = t["pending"]
    target, attacker = pending["target"], pending["attacker"]
    if flow.person(s, target)["hand"] < 1:
        raise Rejected("reject.jailbreak_empty_hand")
    flow.person(s, target)["hand"] -= 1
    flow.person(s, attacker)["hand"] += 1
    t["pending"] = None
    t["phase"] = "action"
    ctx.announce("jailbreak.traded", target=target, attacker=attacker, card=f"kind.jailbreak.card.{card}",
                 attack=f"kind.jailbreak.card.{pending['card']}")


def take(ctx: Ctx) -> None:
    """The target takes the hit (J2.5). A knife from a sheriff with the baton waits for the baton choice."""
    s = ctx.state
    t = s["turn"]
    pending = t["pending"]
    attacker = pending["attacker"]
    if pending["card"] == "knife" and holds(s, attacker, "baton") and flow.person(s, attacker)["hand"] >= 1:
        t["phase"] = "baton"
        return
    hit(ctx, pending)


def baton(ctx: Ctx, use: bool) -> None:
    """J2.5: after a knife hit the sheriff with the baton may discard a card to flip the target instead."""
    s = ctx.state
    pending = s["turn"]["pending"]
    if use:
        attacker = pending["attacker"]
        if flow.person(s, attacker)["hand"] < 1:
            raise Rejected("reject.jailbreak_empty_hand")
        flow.person(s, attacker)["hand"] -= 1
        hit(ctx, {**pending, "card": "steel_pipe"}, baton=True)
    else:
        hit(ctx, pending)


def hit(ctx: Ctx, pending: dict[str, Any], baton: bool = False) -> None:
    """The damage of a hit (J2.5); nobody dies."""
    s = ctx.state
    card, attacker, target = pending["card"], pending["attacker"], pending["target"]
    victim = flow.person(s, target)
    s["turn"]["pending"] = None
    s["turn"]["phase"] = "action"
    if card == "knife":
        if victim["hand"] >= 1:
            victim["hand"] -= 1
            flow.person(s, attacker)["hand"] += 1
            ctx.announce("jailbreak.card_taken", attacker=attacker, target=target)
        else:
            ctx.announce("jailbreak.nothing_to_take", target=target)
    elif card == "bullet":
        if victim["scene"] > 1:
            victim["scene"] -= 1
        ctx.announce("jailbreak.sent_back", target=target, scene=victim["scene"])
    elif card == "steel_pipe":
        # J2.5 (amended): a flip turns the character card over, either way. Face down, it skips its
        # owner's next turn (J2.1); a second flip before that turn turns it face up again, and its owner
        # plays the turn as usual.
        victim["flipped"] = not victim["flipped"]
        said = "jailbreak.flipped" if victim["flipped"] else "jailbreak.flipped_up"
        ctx.announce(f"{said}_baton" if baton else said, target=target)
    else:  # rope: the target comes to the attacker's scene (J2.4)
        victim["scene"] = flow.person(s, attacker)["scene"]
        victim["reached"] = max(victim["reached"], victim["scene"])
        ctx.announce("jailbreak.pulled", target=target, scene=victim["scene"])
