"""The states real games reach, for the choices property (issue 33; tests/kits/picker_checks.py): every
state of every demo script, and long seeded games where each input is either the game's bot's (it reads
the rules, so the game moves on to its later rounds) or one a person could send: a random form among those
a random seat's prompts let be sent (what the night bot of tests/kits/night_bot.py taps on the phone page
and the booth, without a browser), so trades that asked for the wrong card, draws from empty stocks and
redistributions that do not add up come up as they do at a real table. Table time passes between inputs
(1 s to a minute), and every deadline due by then fires first, as the table's clock does
(companion/core/clock.py): timers run out, turns are forced on.

`walk_findings` checks every state of a walk, or every `stride`-th one (the quick sample)."""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core import bot
from companion.core.contract import Game, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import CLOCK, Input
from companion.core.rejection import Rejected
from companion.games import registry
from tests.kits.picker_checks import actors, evenings, findings, offered_forms, phone_prompts
from tests.kits.picker_states import varied
from tests.kits.picker_universe import Universe

ROOT = Path(__file__).resolve().parents[2]
GAPS_MS = (1000, 1000, 5000, 20000, 60000)  # table time between two inputs: timers run out now and then
BOT_SHARE = 0.5  # the share of a walk's inputs its game's bot makes (the rest: a person's offered form)


def scripts_folder(game_id: str) -> Path:
    """Where the game's demo scripts are (the toolkit's is the project's own demo, companion/scripts)."""
    if game_id == "toolkit":
        return ROOT / "companion" / "scripts"
    return ROOT / "companion" / "games" / game_id / "demo_games"


def bot_of(game: Game) -> bot.Bot | None:
    """The game's bot (companion/games/<id>/bot.py), None for a game without one (the toolkit)."""
    try:
        module = importlib.import_module(f"{type(game).__module__.rsplit('.', 1)[0]}.bot")
    except ModuleNotFoundError:
        return None
    found: bot.Bot | None = getattr(module, "BOT", None)
    return found


def offered_input(game: Game, setup: Setup, state: State, rnd: random.Random, at: int) -> Input | None:
    """What a person at the table might send: a random seat (or the host) with a form to fill, one of its
    prompts, and one of the forms that prompt lets be sent; None when nobody has a form. A text is one the
    field suggests or a new one (the checks type their own names: a name typed twice is refused, and says
    so, as the form warns: companion/games/toolkit/host_forms.py)."""
    pool = [(actor, p) for actor in actors(state) for p in phone_prompts(game, setup, state, actor)]
    forms = Counter(actor for actor, _ in pool)
    order = sorted(pool, key=lambda o: rnd.random() ** (forms[o[0]] / _liked(o[1])), reverse=True)  # weighted
    for actor, prompt in order[:6]:
        forms = list(offered_forms(prompt, rnd))
        if forms:
            args = dict(rnd.choice(forms))
            for f in prompt["fields"]:  # a name typed at the table: a suggested one, or one of its own
                if f["kind"] == "text":
                    args[f["name"]] = rnd.choice([*(c["value"] for c in f["choices"]), f"typed {at}"])
            return Input(prompt["move"], actor, args, at)
    return None


def _liked(prompt: dict[str, Any]) -> float:
    """How often a person sends this form against another of theirs: each seat (and the host) acts as
    often as the others, whatever the number of its forms; the host seldom ends the session (a walk that
    ends at once reaches nothing)."""
    return 0.02 if prompt["move"] == "game.end" else 1.0


@dataclass(frozen=True)
class Walk:
    """One long game: the demo script `which` of the game gives the seats (and, unless `varied`, the
    options and the seed); `seed` drives the choices; at most `length` inputs."""

    game_id: str
    which: int
    seed: int
    length: int
    vary: bool = False

    def setup(self) -> Setup:
        game = registry()[self.game_id]
        scripts = evenings(self.game_id, scripts_folder(self.game_id))
        setup = scripts[self.which % len(scripts)][0]
        if self.vary:
            return varied(game, setup, random.Random(self.seed))
        return Setup(setup.game, setup.players, setup.options, self.seed)

    def states(self) -> Iterator[State]:
        """The states along the walk, the first one fresh; an offered form the referee refuses is left out
        of the walk (the check at the state it was offered in reports it)."""
        game = registry()[self.game_id]
        setup, play = self.setup(), bot_of(game)
        rnd = random.Random(self.seed)
        state = initial(game, setup)
        yield state
        for _ in range(self.length):
            if state.get("ended"):
                return
            at = int(state.get("now", 0)) + rnd.choice(GAPS_MS)
            for _ in range(100):  # the clock first: every deadline due by then fires (core/clock.advance)
                due = sorted((d for d in game.deadlines(state) if d.at <= at), key=lambda d: d.at)
                if not due or state.get("ended"):
                    break
                state = step(game, state, Input(due[0].move, CLOCK, dict(due[0].args), due[0].at))
                yield state
            if state.get("ended"):
                return
            mine = play is not None and rnd.random() < BOT_SHARE
            inp = play(state, rnd, at) if mine and play is not None else offered_input(game, setup, state, rnd, at)
            if inp is None and not mine and play is not None:
                inp = play(state, rnd, at)
            if inp is None:
                return
            try:
                state = step(game, state, inp)
            except Rejected:
                continue
            yield state


def demo_states(game_id: str) -> Iterator[tuple[Setup, State]]:
    """Every state of every demo script of the game."""
    for setup, states, _ in evenings(game_id, scripts_folder(game_id)):
        for state in states:
            yield setup, state


def walk_findings(game_id: str, walk: Walk | None, stride: int = 1,
                  known: frozenset[tuple[str, str]] = frozenset()) -> tuple[int, list[Any]]:
    """(states checked, their findings not in `known`) along a walk (None: along the demo scripts), every
    `stride`-th state. The values the other direction tries are those of every prompt of the game's demo
    scripts and of the walk so far (picker_universe.Universe)."""
    game = registry()[game_id]
    universe = Universe()
    for _, _, other in evenings(game_id, scripts_folder(game_id)):
        universe.merge(other)
    if walk is None:
        pairs: Iterator[tuple[Setup, State]] = demo_states(game_id)
    else:
        setup = walk.setup()
        pairs = ((setup, s) for s in walk.states())
    checked, out = 0, []
    for n, (setup, state) in enumerate(pairs):
        if n % stride:
            continue
        checked += 1
        seed = walk.seed + n if walk is not None else n
        found = [(*f, n) for f in findings(game, setup, state, universe, seed) if (f[1], f[3]) not in known]
        out += found
    return checked, out
