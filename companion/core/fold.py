"""The pure reducer: a game's initial state, one input applied, and a whole log folded.

No clock, no I/O. `step` (the live path) copies the state before a move touches it, so a rejected
input (or a move that raises half-way) leaves the caller's state exactly as it was. `fold` (a replay of
inputs that were all accepted) applies them to one state in place and is abandoned whole if one fails.
"""

from __future__ import annotations

import pickle
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from companion.core.contract import Args, Ctx, Game, Move, Setup, State, base_state
from companion.core.inputs import CLOCK, Input, actor_player, actor_role
from companion.core.rejection import Rejected


def initial(game: Game, setup: Setup) -> State:
    """The state a game starts in, after checking the player count, ids and options."""
    n = len(setup.players)
    if not game.min_players <= n <= game.max_players:
        raise Rejected("reject.player_count", game=game.id, low=game.min_players, high=game.max_players, got=n)
    ids = [p.id for p in setup.players]
    if len(set(ids)) != n:
        raise Rejected("reject.duplicate_player")
    for pid in ids:
        actor_role(f"player:{pid}")  # raises for an id we could not address
    options = parse_args(game.Options, setup.options)
    state = game.setup(setup, options)
    for key, value in base_state(setup).items():
        state.setdefault(key, value)
    if setup.moderator:  # everyone is told: the host moderates and sees every secret (docs/game-night.md)
        state["announcements"].append({"at": 0, "msg": "table.moderated", "params": {}})
        state["announced"] += 1
    return state


def parse_args(schema: type[Args], raw: Any) -> Args:
    """Validate arguments, turning the first schema error into a specific, translatable rejection."""
    try:
        return schema.model_validate(raw)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(arguments)"
        raise Rejected("reject.bad_argument", field=where, problem=first["msg"]) from None


def authorize(game: Game, state: State, inp: Input) -> tuple[Move, str, str | None]:
    """The move, the sender's role and player id, if this sender may make this move now."""
    move = game.moves.get(inp.move)
    if move is None:
        raise Rejected("reject.unknown_move", move=inp.move[:64])
    role = actor_role(inp.by)
    pid = actor_player(inp.by)
    if role not in move.who:
        raise Rejected("reject.not_allowed", move=inp.move, sender=f"sender.{role}")
    if pid is not None and pid not in {p["id"] for p in state["players"]}:
        raise Rejected("reject.not_a_player", player=pid)
    if state.get("ended"):
        raise Rejected("reject.game_over")
    if move.phases and game.phase(state) not in move.phases:
        raise Rejected("reject.wrong_phase", move=inp.move)
    if move.on_turn and role == "player" and game.current_player(state) != pid:
        raise Rejected("reject.not_your_turn", player=game.current_player(state) or "-")
    return move, role, pid


@dataclass(frozen=True)
class _Checked:
    """An input that passed authorization and argument validation, ready to apply."""

    move: Move
    role: str
    player: str | None
    args: Args


def _check(game: Game, state: State, inp: Input) -> _Checked:
    move, role, pid = authorize(game, state, inp)
    return _Checked(move, role, pid, parse_args(move.args, inp.args))


def _apply(game: Game, state: State, inp: Input, checked: _Checked) -> None:
    """Apply a checked input to `state` in place; a move may still refuse, possibly half-way."""
    state["now"] = max(int(state.get("now", 0)), inp.at)
    ctx = Ctx(state=state, by=inp.by, role=checked.role, player=checked.player, at=inp.at)
    checked.move.apply(ctx, checked.args)
    state["ended"] = game.result(state) is not None


def apply_in_place(game: Game, state: State, inp: Input) -> None:
    """Check and apply `inp` to `state` itself; for replays, whose caller drops the state on a refusal."""
    _apply(game, state, inp, _check(game, state, inp))


def copy_state(state: State, fixed: Collection[str] = ()) -> State:
    """A deep copy of a JSON-like state; pickle round-trips it several times faster than deepcopy.
    The `fixed` keys (`Game.fixed_state`: parts no move ever changes) are shared with the copy, not
    copied; the keys keep their order."""
    shared = [k for k in fixed if k in state]
    if not shared:
        copied: State = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        return copied
    rest = pickle.loads(pickle.dumps({k: v for k, v in state.items() if k not in shared},
                                     protocol=pickle.HIGHEST_PROTOCOL))
    return {k: state[k] if k in shared else rest[k] for k in state}


def step(game: Game, state: State, inp: Input) -> State:
    """The state after `inp`, or `Rejected`. The given state is never modified (its `fixed_state`
    parts, which no move changes, are shared with the new one)."""
    checked = _check(game, state, inp)  # refuse the common cases before paying for a copy
    new = copy_state(state, game.fixed_state)
    _apply(game, new, inp, checked)
    return new


def fold(game: Game, setup: Setup, inputs: list[Input]) -> State:
    """Replay a list of inputs from the start. Every one must be accepted (they were, when logged).

    Applies in place: if any input is refused, the whole fold is abandoned, so no copy is needed.
    The exception is a clock input that no longer fits after a correction (the expiry of a timer whose
    start was undone): it is derived from the state's deadlines, not sent by anyone, so when the state
    no longer has that deadline due it is skipped, and the clock fires again when one is due.
    """
    state: State = {}
    for state in states(game, setup, inputs):  # noqa: B007 (the last one is the fold)
        pass
    return state


def states(game: Game, setup: Setup, inputs: Iterable[Input]) -> Iterator[State]:
    """`fold` step by step: the initial state, then the state after each input applied (one state,
    changed in place: read it before the next). Clock inputs no longer due are skipped as in `fold`."""
    state = initial(game, setup)
    yield state
    for inp in inputs:
        if inp.by == CLOCK and not _due(game, state, inp):
            continue
        apply_in_place(game, state, inp)
        yield state


def _due(game: Game, state: State, inp: Input) -> bool:
    """Whether the state has a deadline, due by `inp.at`, that this clock input fulfils."""
    if state.get("ended"):
        return False
    return any(
        d.move == inp.move and d.at <= inp.at and dict(d.args) == dict(inp.args) for d in game.deadlines(state)
    )
