"""Twin evenings: the "change every secret, the view is identical" property for the host's view.

Two evenings of one game are played side by side through real referees (each on its own SQLite log, in
memory: a file's durability is tested elsewhere, and hundreds of evenings must stay quick).
They differ only in secrets: the seed (where it decides only hidden things: the rooms under Room 25's
tiles, a role deal, Lockdown's stocks) and, from a branch point on, the secret choices a player makes
(evening B's player takes their own secret input whenever evening A's player makes a secret one: another
path, another room action, another vote, another plan). Everything anyone else sends is the same in both,
at the same table times, and now and then the host corrects the last input (`host.undo`) or re-sends an
earlier one's arguments (`host.amend`) in both.

As long as the two public views are identical, so must be the two host views (whose turn, who has acted,
the host's own part, the host's prompts, the history) and the answers to the host's inputs and
corrections: the host plays too, and may learn nothing a player's secret decides. Once the secrets show
on the table (a dice roll from another seed, a turn that ends in one evening only) the evenings are no
longer twins and the comparison stops.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.core.bot import usable
from companion.core.contract import Game, Setup, State
from companion.core.eventlog import EventLog
from companion.core.fold import initial
from companion.core.inputs import HOST, Input, actor_player
from companion.core.referee import HOST_VIEW, PUBLIC, Referee
from companion.games import registry

Bot = Callable[[State, random.Random, int], "Input | None"]
GAMES = registry()
UNDO_CHANCE, AMEND_CHANCE = 0.04, 0.03
BOT_TRIES = 8  # how often B's bot is asked for a secret input from the sender of A's


@dataclass
class Compared:
    """What one pair of evenings checked (so that a test can require it was not vacuous)."""

    steps: int = 0  # steps after which the public views were identical and the host views compared
    apart: int = 0  # of those, steps where the evenings' seeds or inputs differed (the comparisons that count)
    other_moves: int = 0  # secret inputs evening B made with another move than evening A's
    corrections: int = 0  # host corrections sent to both

    def __iadd__(self, other: Compared) -> Compared:
        self.steps += other.steps
        self.apart += other.apart
        self.other_moves += other.other_moves
        self.corrections += other.corrections
        return self


def _secret(game: Game, inp: Input) -> bool:
    move = game.moves.get(inp.move)
    return move is not None and move.secret


def _correction(a: Referee, rnd: random.Random, at: int) -> Input | None:
    """Now and then a correction the host could send: undo the last input, or amend one earlier input with
    the arguments of an input of the same move in evening A (its own, or another's: the replay may then
    refuse it; a secret input is refused, and so is an amendment before one)."""
    roll = rnd.random()
    if roll < UNDO_CHANCE:
        return Input("host.undo", HOST, {"count": 1}, at)
    if roll < UNDO_CHANCE + AMEND_CHANCE and a.live:
        target = rnd.choice(a.live)
        alike = [e.input.args for e in a.live if e.input.move == target.input.move]
        return Input("host.amend", HOST, {"seq": target.seq, "args": dict(rnd.choice(alike))}, at)
    return None


def _own_secret(game: Game, bot: Bot, state: State, rnd: random.Random, theirs: Input) -> Input:
    """Evening B's own secret input from the sender of `theirs` (A's), if B's bot comes up with one."""
    for _ in range(BOT_TRIES):
        mine = bot(state, rnd, theirs.at)
        if mine is not None and mine.by == theirs.by and _secret(game, mine):
            return mine
    return theirs


def twins(setup_a: Setup, setup_b: Setup, bot: Bot, *, moves: int, branch: int, steps: int = 150,
          games: Mapping[str, Game] = GAMES) -> Compared:
    """Play evening A (`setup_a`, bots drawing from `moves`) and its twin B (`setup_b`, whose players'
    secret choices from input `branch` on come from another generator); check the host views after every
    step the public views agree."""
    game = games[setup_a.game]
    a = Referee.start(dict(games), EventLog(":memory:"), setup_a, 0)
    b = Referee.start(dict(games), EventLog(":memory:"), setup_b, 0)
    rnd_a, rnd_b, rnd_host = random.Random(moves), random.Random(moves + 1), random.Random(moves + 2)
    apart = setup_a.seed != setup_b.seed
    seen = Compared()
    try:
        for n in range(steps):
            at = 1000 * (n + 1)
            fix = _correction(a, rnd_host, at) if n > branch else None
            if fix is not None:
                got_a, got_b = a.submit(fix), b.submit(fix)
                assert got_a.to_json() == got_b.to_json(), (fix, got_a.to_json(), got_b.to_json())
                seen.corrections += 1
            else:
                inp_a = bot(a.state, rnd_a, at)
                if inp_a is None:
                    break
                inp_b = inp_a
                if n >= branch and _secret(game, inp_a):
                    inp_b = _own_secret(game, bot, b.state, rnd_b, inp_a)
                got_a = a.submit(inp_a)
                assert got_a.accepted, (inp_a, got_a.to_json())
                got_b = b.submit(inp_b)
                if actor_player(inp_a.by) is None:  # the host, the table: their answer is no player's secret
                    assert got_b.to_json() == got_a.to_json(), (inp_a, got_b.to_json())
                if not got_b.accepted:
                    break  # B's player, whose secrets differ, may not do what A's did: the evenings part here
                apart = apart or inp_a != inp_b
                seen.other_moves += inp_a.move != inp_b.move
            if a.view(PUBLIC) != b.view(PUBLIC):
                break  # the secrets showed on the table: from here the evenings are no longer twins
            assert a.view(HOST_VIEW) == b.view(HOST_VIEW), f"the host's views differ after input {n}"
            seen.steps += 1
            seen.apart += apart
    finally:
        a.log.close()
        b.log.close()
    return seen


def seed_twin(setup: Setup, tries: int = 3000, games: Mapping[str, Game] = GAMES) -> Setup:
    """The same table on another seed that starts with the identical public view (Jailbreak's seed deals
    the characters, which are public: not every seed will do); the same setup if none is found."""
    game = games[setup.game]

    def shown(s: Setup) -> tuple[object, ...]:
        state = initial(game, s)
        return game.view_public(state), state["announcements"], game.phase(state), game.current_player(state)

    first = shown(setup)
    for seed in range(setup.seed + 1, setup.seed + 1 + tries):
        other = replace(setup, seed=seed)
        if shown(other) == first:
            return other
    return setup


# -- the bots of each game, as (state, generator, table time) -> the next input ---------------------------


def game_bot(name: str) -> Bot:
    """The game's own random player, every seat: the `BOT` of its package's ``bot.py``
    (companion/core/bot.py with the game's choices); the toolkit's is below."""
    if name == "toolkit":
        return toolkit_bot
    bot: Bot = importlib.import_module(f"companion.games.{name}.bot").BOT
    return bot


TOOLKIT_RARE = {"game.end": 0.05, "dice.roll": 0.2, "ballot.close": 0.3}  # so that evenings go on a while
TOOLKIT_ROLES = ["wolf", "seer", "villager", "villager", "hunter", "witch"]


def toolkit_bot(state: State, rnd: random.Random, at: int) -> Input | None:
    """The toolkit has no bot of its own: the host deals roles, makes a hidden counter and opens a ballot,
    then a random seat (the host or a player) fills in one of its prompts, as a phone would."""
    if state.get("ended"):
        return None
    if not state["deals"]:
        roles = TOOLKIT_ROLES[: len(state["players"])]
        return Input("roles.deal", HOST, {"name": "roles", "roles": roles}, at)
    if not state["counters"]:
        return Input("counter.create", HOST, {"name": "hp", "initial": 10, "low": 0, "high": 20}, at)
    if not state["ballots"]:
        return Input("ballot.open", HOST, {"name": "exile", "options": ["red", "blue", "green"]}, at)
    game = GAMES["toolkit"]
    for _ in range(20):
        actor = rnd.choice([HOST, *(f"player:{p['id']}" for p in state["players"])])
        offered = [p.to_json() for p in game.prompts(state, actor) if rnd.random() < TOOLKIT_RARE.get(p.move, 1)]
        offered = [p for p in offered if usable(p)]  # nothing typed: a phone's suggestions at most
        if offered:
            prompt = rnd.choice(offered)
            return Input(prompt["move"], actor, _fill(prompt, rnd), at)
    return None


def _fill(prompt: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """Random values for a prompt's fields: one of a choice's (or a text's suggested) values, some of a
    subset's, a small number in its range."""
    args: dict[str, Any] = dict(prompt["fixed"])
    for f in prompt["fields"]:
        values = [c["value"] for c in f["choices"]]
        if f["kind"] in ("choice", "text"):
            args[f["name"]] = rnd.choice(values)
        elif f["kind"] == "subset":
            high = len(values) if f.get("max") is None else min(f["max"], len(values))
            args[f["name"]] = rnd.sample(values, rnd.randint(min(f.get("min") or 0, high), high))
        elif f["kind"] == "number":
            low, high = max(f["min"], -3), min(f["max"], 3)
            args[f["name"]] = rnd.randint(low, high) if low <= high else f["min"]
    return {k: v for k, v in args.items() if v is not None}
