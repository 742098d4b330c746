"""Corrections: the host undoes or amends earlier inputs by adding an event, never by deleting one.

The log keeps every event. The *effective* inputs are the game inputs with undone ones dropped and
amended ones replaced; the state is the fold of the effective inputs. What a correction tells the table
is only how many inputs it changed: never which values it took back (the undo history is a secret). The
host's history lists the effective inputs, a secret one only as who sent it (`history_entry`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic import Field

from companion.core.contract import Args, Game
from companion.core.fold import parse_args
from companion.core.inputs import CLOCK, HOST, Input, actor_role
from companion.core.rejection import Rejected

UNDO = "host.undo"
AMEND = "host.amend"
MOVES = frozenset({UNDO, AMEND})


class UndoArgs(Args):
    count: int = Field(default=1, ge=1, le=50)


class AmendArgs(Args):
    seq: int = Field(ge=1)
    args: dict[str, Any]


@dataclass(frozen=True)
class Event:
    """A logged input with its place in the log (1-based)."""

    seq: int
    input: Input


def is_correction(inp: Input) -> bool:
    return inp.move in MOVES


def effective(events: list[Event]) -> list[Event]:
    """The game events in force after every correction in `events`, in log order."""
    live: list[Event] = []
    for ev in events:
        if ev.input.move == UNDO:
            live = _undo(live, int(ev.input.args.get("count", 1)))
        elif ev.input.move == AMEND:
            target = int(ev.input.args["seq"])
            live = [
                replace(e, input=replace(e.input, args=dict(ev.input.args["args"]))) if e.seq == target else e
                for e in live
            ]
        else:
            live.append(ev)
    return live


def _undo(live: list[Event], count: int) -> list[Event]:
    """Drop the last `count` inputs that people sent. Clock inputs are not counted and stay; a clock
    input that no longer fits after the correction is skipped by the fold and fires again if due."""
    kept_clock: list[Event] = []
    i = len(live)
    while i > 0 and count > 0:
        i -= 1
        if live[i].input.by == CLOCK:
            kept_clock.insert(0, live[i])
        else:
            count -= 1
    return live[:i] + kept_clock


def check(game: Game, live: list[Event], inp: Input) -> None:
    """Refuse a correction the host may not make, before it is replayed. `live`: the events in force."""
    if inp.by != HOST:
        raise Rejected("reject.not_allowed", move=inp.move, sender=f"sender.{actor_role(inp.by)}")
    if inp.move == UNDO:
        args = parse_args(UndoArgs, inp.args)
        assert isinstance(args, UndoArgs)
        sent = sum(1 for e in live if e.input.by != CLOCK)
        if args.count > sent:
            raise Rejected("reject.nothing_to_undo", count=args.count, available=sent)
        return
    amend = parse_args(AmendArgs, inp.args)
    assert isinstance(amend, AmendArgs)
    target = next((e for e in live if e.seq == amend.seq), None)
    if target is None:
        raise Rejected("reject.amend_unknown", seq=amend.seq)
    move = game.moves[target.input.move]
    if move.secret:
        raise Rejected("reject.amend_secret", seq=amend.seq)
    parse_args(move.args, amend.args)  # a bad new argument is reported as itself, with its field
    # Whether a later secret input still fits the amended game would tell the host (and the table)
    # something about that secret, e.g. a vote for an option the amendment removes. So an amendment
    # is refused whenever a secret input came after it, whatever that input was: undo instead.
    if any(game.moves[e.input.move].secret for e in live if e.seq > amend.seq):
        raise Rejected("reject.amend_before_secret", seq=amend.seq)


def history_entry(game: Game, ev: Event) -> dict[str, Any]:
    """How the host sees one effective event, with its words for the screen (``msg``, ``params``).

    A secret move reads "Ana acted" and nothing more: its place in the log (which the host undoes by),
    who sent it and when, but neither its arguments nor even which move it was: "used the control room"
    or "took cards" would tell a host who also plays where the others are. A public move shows itself.
    """
    move = game.moves.get(ev.input.move)
    shown: dict[str, Any] = {"seq": ev.seq, "by": ev.input.by, "at": ev.input.at}
    if move is None or move.secret:
        return {**shown, "msg": "history.acted", "params": {"by": ev.input.by}}
    return {**shown, "move": ev.input.move, "args": dict(ev.input.args),
            "msg": "history.sent", "params": {"by": ev.input.by, "move": ev.input.move}}
