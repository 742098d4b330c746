"""Buttons -> gestures, as pure logic over timestamps: debounce, short press, long press, two-button
combinations. No clock and no threads here: the caller feeds raw edges with their time (`edge`) and
asks again when `next_due()` comes (`tick`); both return the gestures that happened, in order.

Debounce: an edge that changes a button's settled level is taken at once (no added latency), and the
button then ignores its contacts for `bounce_ms`; if the raw level at the end of that window differs
from the settled one (chatter that ended the other way), the change is taken then.

Gestures on settled levels:
- a button with no long action and in no combination acts as soon as it goes down (`press`);
- otherwise a release before `hold_ms` is a `press`, and holding `hold_ms` is a `long` (at that time,
  not on release); a button with a press action only and no long one still acts on release when it
  is in a combination, since it might become one;
- two buttons of a combination down together arm it: held together for the combo's `hold_ms`, it
  fires (`combo`); from the moment both are down neither button's own press or long press counts,
  until each has been released.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class ButtonSpec:
    name: str
    press: str | None = None  # action of a short press
    long: str | None = None  # action of a long press


@dataclass(frozen=True)
class ComboSpec:
    buttons: tuple[str, str]
    action: str
    hold_ms: int = 1000


@dataclass(frozen=True)
class Gesture:
    kind: Literal["press", "long", "combo"]
    button: str  # the button's name, or "a+b" for a combination
    action: str
    at_ms: int


@dataclass
class _Button:
    spec: ButtonSpec
    raw: bool = False  # the contact as last reported
    level: bool = False  # settled (debounced)
    quiet_until: int = 0  # contacts ignored before this
    down_at: int = 0
    spent: bool = False  # this press already did something (or became part of a combination)


@dataclass
class _Combo:
    spec: ComboSpec
    armed_at: int | None = None


@dataclass
class Gestures:
    buttons: Iterable[ButtonSpec]
    combos: Iterable[ComboSpec] = ()
    bounce_ms: int = 30
    hold_ms: int = 800
    _buttons: dict[str, _Button] = field(init=False)
    _combos: list[_Combo] = field(init=False)

    def __post_init__(self) -> None:
        self._buttons = {spec.name: _Button(spec) for spec in self.buttons}
        self._combos = [_Combo(spec) for spec in self.combos]
        for combo in self._combos:
            for name in combo.spec.buttons:
                if name not in self._buttons:
                    raise ValueError(f"combination {combo.spec.buttons} names an unknown button {name!r}")

    # -- input --------------------------------------------------------------------------------------------

    def edge(self, button: str, pressed: bool, now_ms: int) -> list[Gesture]:
        """A raw contact change of `button` at `now_ms` (chatter included). Unknown buttons are ignored."""
        out = self.tick(now_ms)
        st = self._buttons.get(button)
        if st is None:
            return out
        st.raw = pressed
        if now_ms >= st.quiet_until and pressed != st.level:
            out += self._settle(st, pressed, now_ms)
        return out

    def tick(self, now_ms: int) -> list[Gesture]:
        """Everything due by `now_ms`, in time order: settled chatter, long presses, combinations."""
        out: list[Gesture] = []
        while True:
            due = self._next(now_ms)
            if due is None:
                return out
            at, what = due
            if isinstance(what, _Button) and what.raw != what.level and at == what.quiet_until:
                out += self._settle(what, what.raw, at)
            elif isinstance(what, _Button):
                what.spent = True
                assert what.spec.long is not None
                out.append(Gesture("long", what.spec.name, what.spec.long, at))
            else:
                what.armed_at = None
                for name in what.spec.buttons:
                    self._buttons[name].spent = True
                out.append(Gesture("combo", "+".join(what.spec.buttons), what.spec.action, at))

    def next_due(self) -> int | None:
        """When `tick` has something to do next (None: nothing until the next edge)."""
        due = self._next(None)
        return None if due is None else due[0]

    def held(self) -> list[str]:
        """The buttons down now (settled)."""
        return [name for name, st in self._buttons.items() if st.level]

    # -- inside -------------------------------------------------------------------------------------------

    def _next(self, by: int | None) -> tuple[int, _Button | _Combo] | None:
        """The earliest pending deadline (at or before `by`, if given)."""
        best: tuple[int, _Button | _Combo] | None = None
        candidates: list[tuple[int, _Button | _Combo]] = []
        for st in self._buttons.values():
            if st.raw != st.level:
                candidates.append((st.quiet_until, st))
            elif st.level and not st.spent and st.spec.long is not None:
                candidates.append((st.down_at + self.hold_ms, st))
        for combo in self._combos:
            if combo.armed_at is not None:
                candidates.append((combo.armed_at + combo.spec.hold_ms, combo))
        for at, what in candidates:
            if (by is None or at <= by) and (best is None or at < best[0]):
                best = (at, what)
        return best

    def _in_combo(self, name: str) -> bool:
        return any(name in combo.spec.buttons for combo in self._combos)

    def _settle(self, st: _Button, pressed: bool, at: int) -> list[Gesture]:
        st.level = pressed
        st.quiet_until = at + self.bounce_ms
        return self._down(st, at) if pressed else self._up(st, at)

    def _down(self, st: _Button, at: int) -> list[Gesture]:
        st.down_at, st.spent = at, False
        for combo in self._combos:
            a, b = (self._buttons[name] for name in combo.spec.buttons)
            if st in (a, b) and a.level and b.level and not (a.spent or b.spent):
                a.spent = b.spent = True  # from now on it is the combination or nothing
                combo.armed_at = at
                return self.tick(at)  # a combination with hold_ms 0 fires at once
        if st.spec.long is None and not self._in_combo(st.spec.name):
            st.spent = True
            return [Gesture("press", st.spec.name, st.spec.press, at)] if st.spec.press else []
        return []

    def _up(self, st: _Button, at: int) -> list[Gesture]:
        for combo in self._combos:
            if combo.armed_at is not None and st.spec.name in combo.spec.buttons:
                combo.armed_at = None  # let go too early: nothing
        if st.spent or st.spec.press is None:
            return []
        st.spent = True
        return [Gesture("press", st.spec.name, st.spec.press, at)]
