"""The modules a game names so that the contract's defaults (`GameBase`) delegate to them once.

The turn-based games share one layout: ``views`` (what each audience sees), ``flow`` (the phase and
whose turn it is), ``forms`` (the prompts), a timer from ``companion/parts/turn_timer.py`` and ``lines``
(what the views say in words, for the booth and the phones). A game names them declaratively,
``modules = Modules(views=views, flow=flow, forms=forms, timer=TIMER, lines=lines)``, and
its ``game.py`` keeps only what differs. A module satisfies these protocols as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from companion.core.contract import Deadline, State
    from companion.core.lines import Lines
    from companion.core.prompts import Prompt


class Views(Protocol):
    def public(self, state: State, /) -> dict[str, Any]: ...

    def player(self, state: State, pid: str, /) -> dict[str, Any]: ...


class Flow(Protocol):
    def phase(self, state: State, /) -> str | None: ...

    def current_player(self, state: State, /) -> str | None: ...


class Forms(Protocol):
    def for_actor(self, state: State, actor: str, /) -> Sequence[Prompt]: ...


class Timed(Protocol):
    """A game's timer or timers: the clock inputs it waits for, and what a restart pauses."""

    def deadlines(self, state: State, /) -> Sequence[Deadline]: ...

    def on_resume(self, state: State, /) -> Sequence[tuple[str, dict[str, Any]]]: ...


class Said(Protocol):
    """A game's views in words: the public view's summary and one player's own lines."""

    def public_lines(self, public: dict[str, Any], /) -> Lines: ...

    def private_lines(self, private: dict[str, Any], /) -> Lines: ...


@dataclass(frozen=True)
class Modules:
    """A game's modules, and the defaults `GameBase` gives from them. Each one is optional: without
    views the game defines its own, without a flow it has no phases or turns, without forms no prompts,
    without a timer no deadlines, without lines nothing said in words."""

    views: Views | None = None
    flow: Flow | None = None
    forms: Forms | None = None
    timer: Timed | None = None
    lines: Said | None = None

    def public(self, state: State) -> dict[str, Any]:
        return self._views().public(state)

    def player(self, state: State, pid: str) -> dict[str, Any]:
        return self._views().player(state, pid)

    def _views(self) -> Views:
        if self.views is None:
            raise NotImplementedError("a game that names no views module defines view_public and view_player")
        return self.views

    def phase(self, state: State) -> str | None:
        return None if self.flow is None else self.flow.phase(state)

    def current_player(self, state: State) -> str | None:
        return None if self.flow is None else self.flow.current_player(state)

    def prompts(self, state: State, actor: str) -> Sequence[Prompt]:
        return [] if self.forms is None else self.forms.for_actor(state, actor)

    def deadlines(self, state: State) -> Sequence[Deadline]:
        return [] if self.timer is None else self.timer.deadlines(state)

    def on_resume(self, state: State) -> Sequence[tuple[str, dict[str, Any]]]:
        return [] if self.timer is None else self.timer.on_resume(state)

    def public_lines(self, public: dict[str, Any]) -> Lines:
        return [] if self.lines is None else self.lines.public_lines(public)

    def private_lines(self, private: dict[str, Any]) -> Lines:
        return [] if self.lines is None else self.lines.private_lines(private)
