"""What each sender may input in the toolkit right now, as forms (see companion.core.prompts).

A player gets: a vote in each open ballot they are a voter of (again, to change it, only while the
ballot's policy allows changing), a change of their own hidden counters, and a dice roll. The host gets
the session's controls: timers, closing ballots and breaking ties, revealing counters and roles,
adjusting a counter, dice and the end. Prompts go only into their actor's view, so a player's prompt may
carry that player's own vote and counter value; the host's prompts carry nothing the host may not know.
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.core.inputs import HOST, actor_player
from companion.core.prompts import Choice, Field, Prompt
from companion.games.toolkit.host_forms import creating

DELTA_LIMIT = 999  # counter.adjust accepts deltas in -999..999
DICE = (
    Field("count", "number", "toolkit.prompt.dice_count", min=1, max=20, default=1),
    Field("sides", "number", "toolkit.prompt.dice_sides", min=2, max=100, default=6),
)


def prompts(state: State, actor: str) -> list[Prompt]:
    if actor == HOST:
        return _host(state)
    pid = actor_player(actor)
    if pid is None or pid not in {p["id"] for p in state["players"]}:
        return []
    return _player(state, pid)


def _plain(values: list[Any], names: dict[str, str] | None = None) -> tuple[Choice, ...]:
    """Choices whose labels are the table's own words (ballot options, counter names), not catalog ids;
    an option that is a seated player's id reads as that player's name."""
    names = names or {}
    return tuple(Choice(value=v, label=names.get(str(v), str(v)), plain=True) for v in values)


def _roll() -> Prompt:
    return Prompt("dice.roll", "toolkit.prompt.roll", DICE)


def _player(state: State, pid: str) -> list[Prompt]:
    out: list[Prompt] = []
    names = {p["id"]: p["name"] for p in state["players"]}
    for name, b in state["ballots"].items():
        if not b["open"] or pid not in b["voters"]:
            continue
        mine = b["votes"].get(pid)
        if mine is not None and b["change"] == "final":
            continue  # votes in this ballot are final: nothing more to input
        option = Field("option", "choice", "toolkit.prompt.option", _plain(b["options"], names), default=mine)
        out.append(Prompt("ballot.vote", "toolkit.prompt.vote", (option,), {"name": name}, {"name": name}))
    for name, t in state["counters"].items():
        value = t["values"].get(pid)
        if value is None or t["low"] == t["high"]:
            continue
        delta = Field("delta", "number", "toolkit.prompt.delta",
                      min=max(-DELTA_LIMIT, t["low"] - value), max=min(DELTA_LIMIT, t["high"] - value))
        out.append(Prompt("counter.adjust", "toolkit.prompt.adjust", (delta,), {"name": name, "value": value},
                          {"name": name}))
    out.append(_roll())
    return out


def _host(state: State) -> list[Prompt]:
    names = {p["id"]: p["name"] for p in state["players"]}
    out: list[Prompt] = []
    for name, t in state["timers"].items():
        fixed = {"name": name}
        if t["running"]:
            out.append(Prompt("timer.pause", "toolkit.prompt.timer_pause", params=fixed, fixed=fixed))
        else:
            if t.get("started") and not t["expired"]:
                out.append(Prompt("timer.resume", "toolkit.prompt.timer_resume", params=fixed, fixed=fixed))
            out.append(Prompt("timer.start", "toolkit.prompt.timer_start", params=fixed, fixed=fixed))
        seconds = Field("seconds", "number", "toolkit.prompt.seconds", min=1, max=3600, default=30)
        out.append(Prompt("timer.extend", "toolkit.prompt.timer_extend", (seconds,), fixed, fixed))
    for name, b in state["ballots"].items():
        fixed = {"name": name}
        if b["open"]:
            out.append(Prompt("ballot.close", "toolkit.prompt.ballot_close", params=fixed, fixed=fixed))
        elif b["result"] is not None and b["result"]["awaiting_host"]:
            option = Field("option", "choice", "toolkit.prompt.option", _plain(b["result"]["tied"], names))
            out.append(Prompt("ballot.decide", "toolkit.prompt.ballot_decide", (option,), fixed, fixed))
    for name, t in state["counters"].items():
        fixed = {"name": name}
        owners = tuple(Choice(pid, names.get(pid, pid), plain=True) for pid in t["values"])
        change = (Field("player", "choice", "toolkit.prompt.player", owners),
                  Field("delta", "number", "toolkit.prompt.delta", min=-DELTA_LIMIT, max=DELTA_LIMIT))
        out.append(Prompt("counter.adjust", "toolkit.prompt.counter_adjust", change, fixed, fixed))
        if not t["revealed"]:
            out.append(Prompt("counter.reveal", "toolkit.prompt.counter_reveal", params=fixed, fixed=fixed))
    for name, d in state["deals"].items():
        hidden = [pid for pid in d["assigned"] if pid not in d["revealed"]]
        if hidden:
            who = (Choice(None, "toolkit.prompt.everyone"), *(Choice(pid, names.get(pid, pid), plain=True)
                                                              for pid in hidden))
            field = Field("player", "choice", "toolkit.prompt.player", who)
            out.append(Prompt("roles.reveal", "toolkit.prompt.roles_reveal", (field,), {"name": name},
                              {"name": name}))
    out += creating(state)  # new timers, votes, deals and counters: companion/games/toolkit/host_forms.py
    out.append(_roll())
    counters = (Choice(c, "toolkit.prompt.named", {"name": c, "kind": "kind.counter"})  # by its name: naming.py
                for c in state["counters"])
    rank_by = Field("rank_by", "choice", "toolkit.prompt.rank_by",
                    (Choice(None, "toolkit.prompt.no_ranking"), *counters))
    out.append(Prompt("game.end", "toolkit.prompt.game_end", (rank_by,)))
    return out
