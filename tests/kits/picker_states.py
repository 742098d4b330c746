"""States for the choice checks (tests/kits/picker_checks.py): a demo script played on an in-memory
referee, a state part way through it with the game's bot playing on, and fresh games with other options."""

from __future__ import annotations

import copy
import random
import typing
from pathlib import Path

from companion import scripting
from companion.core import bot
from companion.core.clock import advance
from companion.core.contract import Game, Setup, State
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.fold import initial, step
from companion.core.inputs import CLOCK, Input
from companion.core.referee import Referee
from companion.core.rejection import Rejected


def script_states(games: dict[str, Game], path: Path) -> tuple[Setup, list[State]]:
    """A demo script (docs/scripting.md) played on an in-memory referee: its setup and every state along
    it (the clock fires each deadline as it comes due, as at the table)."""
    head, steps = scripting.parse(path.read_text(encoding="utf-8").splitlines())
    setup = setup_from_json({"seed": 0, **head})
    referee = Referee.start(games, EventLog(":memory:"), setup, 0)
    states = [copy.deepcopy(referee.state)]
    for _, inp in steps:
        advance(referee, inp.at)
        if isinstance(inp, Input) and inp.by != CLOCK:
            assert referee.submit(inp).accepted, inp
        states.append(copy.deepcopy(referee.state))
    return setup, states


def reached(game: Game, play: bot.Bot | None, states: list[State], where: float, seed: int,
            more: int) -> State:
    """A state part way (`where`, 0..1) through a script, and then `more` inputs of the bot."""
    state = states[round(where * (len(states) - 1))]
    rnd = random.Random(seed)
    for _ in range(more if play is not None else 0):
        assert play is not None
        inp = play(state, rnd, int(state.get("now", 0)) + 1000)
        if inp is None:
            break
        state = step(game, state, inp)
    return state


def varied(game: Game, setup: Setup, rnd: random.Random) -> Setup:
    """The script's table with another seed and each option that has a few values (digital or physical
    tiles, real or seeded dice, a mode) drawn again, so the other ways of playing come up too; a draw the
    game refuses for these seats (a mode for other numbers of players) is drawn again."""
    for _ in range(20):
        options = dict(setup.options)
        for name, info in game.Options.model_fields.items():
            values = typing.get_args(info.annotation) if typing.get_origin(info.annotation) is typing.Literal else ()
            if values and (name in options or rnd.random() < 0.5):
                options[name] = rnd.choice(values)
        out = Setup(setup.game, setup.players, options, rnd.randrange(2**31))
        try:
            initial(game, out)
        except Rejected:
            continue
        return out
    return Setup(setup.game, setup.players, setup.options, rnd.randrange(2**31))


def played(game: Game, play: bot.Bot, setup: Setup, seed: int, more: int) -> State:
    """A fresh game on `setup`, `more` inputs of the bot into it."""
    state = initial(game, setup)
    rnd = random.Random(seed)
    for _ in range(more):
        inp = play(state, rnd, int(state.get("now", 0)) + 1000)
        if inp is None:
            break
        state = step(game, state, inp)
    return state
