"""Prompts (companion/core/prompts.py): what a player or the host may input now, as forms the phone
page and the kiosk booth render; and what a tapped card token means now (`token`)."""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.core.inputs import HOST, actor_player
from companion.core.prompts import Choice, Field, Prompt
from companion.core.rejection import Rejected
from companion.games.jailbreak import attacks, data, flow, items


def _names(s: State) -> dict[str, str]:
    return {p["id"]: p["name"] for p in s["players"]}


def _people(s: State, pids: list[str]) -> tuple[Choice, ...]:
    names = _names(s)
    return tuple(Choice(p, names[p], plain=True) for p in pids)


def _card(name: str) -> str:
    return f"kind.jailbreak.card.{name}"


def _ok(check: Any, *args: Any) -> bool:
    try:
        check(*args)
    except Rejected:
        return False
    return True


def for_actor(s: State, actor: str) -> list[Prompt]:
    if actor == HOST:
        return _host(s)
    pid = actor_player(actor)
    ph = flow.phase(s)
    if pid is None or ph is None:
        return []
    t = s["turn"]
    if ph == "cuffs":
        out = []
        if pid in items.helpers(s, t["player"]):
            out.append(Prompt("cuffs.unlock", "jailbreak.prompt.unlock", params={"player": t["player"]}))
        if pid == t["player"]:
            out.append(Prompt("cuffs.stay", "jailbreak.prompt.stay"))
        return out
    if flow.current_player(s) != pid:
        return []
    if ph == "response":
        return _response(s, pid)
    if ph == "baton":
        return [Prompt("baton.use", "jailbreak.prompt.baton_use"), Prompt("baton.pass", "jailbreak.prompt.baton_pass")]
    return _action(s, pid)


def _response(s: State, pid: str) -> list[Prompt]:
    pending = s["turn"]["pending"]
    params = {"attacker": pending["attacker"], "card": _card(pending["card"])}
    out = [Prompt("attack.take", "jailbreak.prompt.take", params=params)]
    if flow.person(s, pid)["hand"] >= 1:
        choices = tuple(Choice(c, _card(c)) for c in data.TRADES)
        out.insert(0, Prompt("attack.trade", "jailbreak.prompt.trade",
                             (Field("card", "choice", "jailbreak.prompt.card", choices),), params))
    return out


def _action(s: State, pid: str) -> list[Prompt]:
    out: list[Prompt] = []
    has_card = flow.person(s, pid)["hand"] >= 1
    if has_card and _ok(items.key_check, s, pid):
        out.append(Prompt("key.use", "jailbreak.prompt.key", params={"scene": flow.person(s, pid)["scene"]}))
    if _ok(items.badge_check, s, pid):
        out.append(Prompt("badge.use", "jailbreak.prompt.badge"))
    for card in data.ATTACKS:
        targets = attacks.targets(s, pid, card)
        if targets:
            out.append(Prompt("attack", "jailbreak.prompt.attack",
                              (Field("target", "choice", "jailbreak.prompt.target", _people(s, targets)),),
                              {"card": _card(card)}, fixed={"card": card}))
    if has_card:
        choices = tuple(Choice(c, _card(c)) for c in data.TRADES
                        if not (c == "bible" and flow.person(s, pid)["bible"]))
        out.append(Prompt("card.use", "jailbreak.prompt.use", (Field("card", "choice", "jailbreak.prompt.card",
                                                                     choices),)))
    cuffable = items.cuff_targets(s, pid)
    if cuffable:
        out.append(Prompt("cuffs.place", "jailbreak.prompt.cuff",
                          (Field("target", "choice", "jailbreak.prompt.target", _people(s, cuffable)),)))
    if flow.person(s, pid)["scene"] > 1:
        out.append(Prompt("scene.back", "jailbreak.prompt.back"))
    out.append(Prompt("turn.end", "jailbreak.prompt.end"))
    return out


def _host(s: State) -> list[Prompt]:
    if flow.phase(s) is None:
        return []
    out: list[Prompt] = []
    t = s["timer"]
    if t is not None and not t["running"] and not t["expired"]:
        out.append(Prompt("timer.start" if not t["started"] else "timer.resume", "jailbreak.prompt.timer_start"))
    if t is not None and not t["running"] and t["started"]:  # paused or run out: start it again from full
        out.append(Prompt("timer.start", "jailbreak.prompt.timer_restart", params={"seconds": t["duration"] // 1000}))
    if t is not None and t["running"]:
        out.append(Prompt("timer.pause", "jailbreak.prompt.timer_pause"))
    out.append(Prompt("hand.set", "jailbreak.prompt.hand_set", (
        Field("player", "choice", "jailbreak.prompt.player", _people(s, list(s["order"]))),
        Field("cards", "number", "jailbreak.prompt.cards", min=0, max=40, default=0),
    )))
    out.append(Prompt("timer.set", "jailbreak.prompt.timer_set", (
        Field("seconds", "number", "jailbreak.prompt.seconds", min=0, max=3600, default=s["timer_seconds"]),)))
    return out


def token(s: State, pid: str, card: str) -> tuple[str, dict[str, Any]] | None:
    """A card tapped by `pid`: a key moves on (or opens their cuffs at the start of their turn); a trade
    card answers an attack on them, or is used on themself in their action phase; an attack card attacks
    when exactly one player can be hit with it (else the screen asks whom). Anything else: None."""
    ph = flow.phase(s)
    if ph == "cuffs" and card == data.KEY and pid in items.helpers(s, s["turn"]["player"]):
        return "cuffs.unlock", {}
    if flow.current_player(s) != pid:
        return None
    if ph == "response" and card in data.TRADES:
        return "attack.trade", {"card": card}
    if ph != "action":
        return None
    if card == data.KEY:
        return "key.use", {}
    if card in data.TRADES:
        return "card.use", {"card": card}
    targets = attacks.targets(s, pid, card)
    if len(targets) == 1:
        return "attack", {"card": card, "target": targets[0]}
    return None
