"""The cards a player uses on themself, keys and scenes, and the sheriffs' badge and handcuffs.

Cards stay physical: the referee knows hand sizes, not hands, so a card played is one card less in that
hand; it refuses what the rules forbid (limits, ranges, an empty hand) and keeps the effects."""

from __future__ import annotations

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.jailbreak import data, flow
from companion.games.jailbreak.attacks import holds


def spend(s: State, pid: str) -> None:
    p = flow.person(s, pid)
    if p["hand"] < 1:
        raise Rejected("reject.jailbreak_empty_hand")
    p["hand"] -= 1


def use_card(ctx: Ctx, pid: str, card: str) -> None:
    """The trade cards' first uses, in the action phase on oneself (J2.2, J2.6)."""
    s = ctx.state
    t = s["turn"]
    if card == "bible" and flow.person(s, pid)["bible"]:
        raise Rejected("reject.jailbreak_bible_already")
    spend(s, pid)
    ctx.announce("jailbreak.card_used", player=pid, card=f"kind.jailbreak.card.{card}")
    if card == "cigarette":  # one more key this turn
        t["key_limit"] += 1
    elif card == "vodka":  # one more attack card this turn
        t["attack_limit"] += 1
    elif card == "cash":  # draw two
        flow.draw(ctx, pid, 2)
    else:  # bible: in front of the player until the start of their next turn (J2.6)
        flow.person(s, pid)["bible"] = True


def key_check(s: State, pid: str) -> None:
    t = s["turn"]
    p = flow.person(s, pid)
    if p["hand"] < 1:
        raise Rejected("reject.jailbreak_empty_hand")
    if t["keys"] >= t["key_limit"]:  # J2.2: one key a turn, one more per cigarette
        raise Rejected("reject.jailbreak_key_limit", limit=t["key_limit"])
    if p["scene"] == data.SCENES and s["roles"][pid] != "prisoner":
        raise Rejected("reject.jailbreak_last_scene")


def use_key(ctx: Ctx, pid: str) -> None:
    """J2.3: a key opens the door to the next scene, even one entered before; J3.1: in scene 6 it is
    the way out, and the first prisoner to use it wins."""
    s = ctx.state
    key_check(s, pid)
    spend(s, pid)
    s["turn"]["keys"] += 1
    p = flow.person(s, pid)
    if p["scene"] == data.SCENES:
        flow.finish(ctx, "prisoners", "escape", escaped=pid)
        return
    forward(ctx, pid, "jailbreak.moved_key")


def forward(ctx: Ctx, pid: str, msg: str) -> None:
    p = flow.person(ctx.state, pid)
    p["scene"] += 1
    p["reached"] = max(p["reached"], p["scene"])
    ctx.announce(msg, player=pid, scene=p["scene"])


def badge_check(s: State, pid: str) -> None:
    if not holds(s, pid, "badge"):
        raise Rejected("reject.jailbreak_no_badge")
    if s["badge_used"]:  # J2.3: once per game
        raise Rejected("reject.jailbreak_badge_used")
    if flow.person(s, pid)["scene"] == data.SCENES:
        raise Rejected("reject.jailbreak_last_scene")


def use_badge(ctx: Ctx, pid: str) -> None:
    """J2.3: the badge enters one scene without a key, once a game; it is not a key (no key limit)."""
    s = ctx.state
    badge_check(s, pid)
    s["badge_used"] = True
    forward(ctx, pid, "jailbreak.moved_badge")


def back(ctx: Ctx, pid: str) -> None:
    """J2.3: moving back one scene is free (the door behind locks again)."""
    p = flow.person(ctx.state, pid)
    if p["scene"] == 1:
        raise Rejected("reject.jailbreak_first_scene")
    p["scene"] -= 1
    ctx.announce("jailbreak.moved_back", player=pid, scene=p["scene"])


def cuff_targets(s: State, pid: str) -> list[str]:
    if not holds(s, pid, "handcuffs") or any(p["cuffed_by"] == pid for p in s["people"].values()):
        return []
    here = flow.person(s, pid)["scene"]
    return [q for q in s["order"]
            if q != pid and s["people"][q]["scene"] == here and s["people"][q]["cuffed_by"] is None]


def place_cuffs(ctx: Ctx, pid: str, target: str) -> None:
    """The handcuffs go in front of a player in the same scene (the text's sheriff equipment 3)."""
    s = ctx.state
    if not holds(s, pid, "handcuffs"):
        raise Rejected("reject.jailbreak_no_handcuffs")
    if any(p["cuffed_by"] == pid for p in s["people"].values()):
        raise Rejected("reject.jailbreak_cuffs_out")
    if target not in cuff_targets(s, pid):
        raise Rejected("reject.jailbreak_cannot_cuff")
    flow.person(s, target)["cuffed_by"] = pid
    ctx.announce("jailbreak.cuffed", sheriff=pid, target=target)


def helpers(s: State, cuffed: str) -> list[str]:
    """Who may use a key on `cuffed`'s cuffs: themself or anyone in the same scene with a card (J2.1)."""
    here = flow.person(s, cuffed)["scene"]
    return [q for q in s["order"]
            if (q == cuffed or s["people"][q]["scene"] == here) and s["people"][q]["hand"] >= 1]


def unlock(ctx: Ctx, cuffed: str, by: str) -> None:
    """J2.1, J2.7: a key opens the cuffs, which go back to their sheriff; the turn goes on. The cuffed
    player's own key counts as this turn's key; a helper's key does not count (it is not their turn)."""
    s = ctx.state
    if by not in helpers(s, cuffed):
        raise Rejected("reject.jailbreak_cannot_unlock")
    if by == cuffed:  # the first key of the turn: always within the limit
        s["turn"]["keys"] += 1
    spend(s, by)
    sheriff = flow.person(s, cuffed)["cuffed_by"]
    flow.person(s, cuffed)["cuffed_by"] = None
    ctx.announce("jailbreak.unlocked", player=cuffed, by=by, sheriff=sheriff)
    flow.after_start(ctx)
