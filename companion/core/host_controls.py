"""The host's controls of a game: which inputs pause, resume and extend its timers and which one ends it.

A game declares them once on its contract (`GameBase.host_controls`, a `HostControls`); the kiosk's
host menu and the host's phone page both show `now(declared, moves, public)`: the controls that make sense in
the current public view, each with the words that say what pressing it does (a message id and its
parameters) and the exact input it sends. They are worked out from the PUBLIC view only, so they hold
no secret, and again from every new view, so a label never outlives what it names.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

#: How much "extend" adds to a timer, in seconds.
EXTEND_S = 30
#: The referee's own undo (`companion.core.corrections.UNDO`), open to the host in every game.
UNDO = "host.undo"


@dataclass(frozen=True)
class TimerMoves:
    """The host inputs that start, pause, resume and extend a timer. `named`: the inputs name the timer
    (``{"name": ...}``: the toolkit's timers, Lockdown's phase timers); else the game has one timer.
    `start`: None where the game's flow starts its timers itself (Lockdown, Betrayal). `phases`: by
    timer, the phases it times (outside them it waits for its phase and the host has nothing to do
    with it); a timer not named there is the host's in every phase."""

    start: str | None = "timer.start"
    pause: str = "timer.pause"
    resume: str = "timer.resume"
    extend: str = "timer.extend"
    named: bool = False
    phases: Mapping[str, frozenset[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class EndMove:
    """An input that ends the game, with its fixed arguments and the words on its button."""

    move: str = "game.end"
    args: Mapping[str, Any] = field(default_factory=dict)
    label: str = "host.menu.end"


@dataclass(frozen=True)
class HostControls:
    """What a game lets the host do from the menu. The default: the one timer's ``timer.*`` inputs and
    no end (a game whose rules let the host end it names the input)."""

    timers: TimerMoves | None = TimerMoves()
    ends: tuple[EndMove, ...] = ()


@dataclass(frozen=True)
class Control:
    """One control as shown now: its words (`label` with `params`; `timer` names the timer it acts on,
    shown in the reader's words) and the input it sends."""

    key: str
    label: str
    move: str
    args: dict[str, Any]
    params: dict[str, Any] = field(default_factory=dict)
    timer: str | None = None
    danger: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "params": self.params, "timer": self.timer,
                "move": self.move, "args": self.args, "danger": self.danger}


def _timer(moves: TimerMoves, name: str, t: Mapping[str, Any]) -> list[Control]:
    which = {"name": name} if moves.named else {}
    full = not t["running"] and not t["expired"] and int(t["remaining"]) == int(t["duration"])
    out = []
    if full:  # waiting for the host, or paused as it began: either way pressing it starts it
        out.append(Control(f"start:{name}", "host.menu.start", moves.start or moves.resume, which, timer=name))
    elif t["running"]:
        out.append(Control(f"pause:{name}", "host.menu.pause", moves.pause, which, timer=name))
    elif not t["expired"]:
        out.append(Control(f"resume:{name}", "host.menu.resume", moves.resume, which, timer=name))
    out.append(Control(f"extend:{name}", "host.menu.extend", moves.extend, {**which, "seconds": EXTEND_S},
                       {"seconds": EXTEND_S}, timer=name))
    return out


def now(declared: HostControls, moves: Collection[str], public: Mapping[str, Any]) -> list[Control]:
    """The host's controls for this public view (the referee's ``public`` view) of a game with these
    `moves`: each timer's start (if the host starts it) or pause or resume, and extend; undo; and
    the game's ends. A control whose input the game lacks is left out. Once the game has ended, Undo
    alone: it takes the end back (the host's end, or the last move of a game its rules ended) until
    the table starts the next game (issue 28)."""
    if public.get("ended"):
        return [Control("undo", "host.menu.undo", UNDO, {"count": 1})]
    out: list[Control] = []
    if declared.timers is not None:
        timed, phase = declared.timers, public.get("phase")
        for name, t in ((public.get("table") or {}).get("timers") or {}).items():
            if str(name) not in timed.phases or phase in timed.phases[str(name)]:
                out.extend(_timer(timed, str(name), t))
    out.append(Control("undo", "host.menu.undo", UNDO, {"count": 1}))  # with nothing to undo it says so
    out.extend(Control(f"end:{i}", e.label, e.move, dict(e.args), danger=True) for i, e in enumerate(declared.ends))
    return [c for c in out if c.move in moves or c.move == UNDO]
