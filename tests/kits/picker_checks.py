"""A game offers only what its referee accepts, and every input it accepts can be picked (issue 21).

For one reached state and every actor (the host, each player):
- `offered_but_refused`: every form a prompt lets be sent (each field's choices and number range,
  combined as the form allows: a sequence built step by step with `next_steps` until `path_ready`, a
  running sum that adds up) is sent to the referee on the state (pure: `fold.step` returns a new state);
  the ones it refuses are returned.
- `accepted_but_unreachable`: inputs the referee accepts now for a move some prompt of the game asks for
  (argument values taken from every prompt of the game seen so far, numbers a little beyond their
  ranges) that the actor cannot reach: on the phone (the prompt JSON of the actor's view, what
  js/forms.js and js/steps.js render) or on the booth (the paged lists of
  `companion.kiosk.screens.form_layout`, tapped button by button).
"""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from companion.core.contract import Game, Setup, State
from companion.core.fold import authorize, step
from companion.core.inputs import HOST, Input
from companion.core.prompts import next_steps, path_ready, running_sum
from companion.core.referee import audience_view, public_view
from companion.core.rejection import Rejected
from companion.games import registry
from tests.kits.picker_booth import on_booth
from tests.kits.picker_states import script_states
from tests.kits.picker_universe import Universe, role

FORMS_PER_PROMPT = 60  # forms tried per prompt (all of them when there are fewer)
WALKS = 6  # random walks through a sequence field


def actors(state: State) -> list[str]:
    return [HOST, *(f"player:{p['id']}" for p in state["players"])]


# -- what the phone and the booth receive -------------------------------------------------------------------

def phone_prompts(game: Game, setup: Setup, state: State, actor: str) -> list[dict[str, Any]]:
    """The prompts in the actor's view, as the phone receives them."""
    view = audience_view(game, state, [], public_view(game, setup, state, [], number=1), actor)
    return list(view["prompts"])


def all_prompts(game: Game, setup: Setup, state: State) -> dict[str, list[dict[str, Any]]]:
    """Every actor's prompts at this state, as their phones receive them (once per state: the checks ask
    for them again and again)."""
    return {actor: phone_prompts(game, setup, state, actor) for actor in actors(state)}


def host_menu(game: Game, setup: Setup, state: State) -> list[dict[str, Any]]:
    """The host menu's controls (the kiosk's host menu, the host's phone page), each with its input."""
    return list(audience_view(game, state, [], public_view(game, setup, state, [], number=1), HOST)["host_menu"])


def sendable(prompt: dict[str, Any], values: dict[str, Any]) -> bool:
    """Whether the phone and the booth let these values be sent (their shared rules)."""
    for f in prompt["fields"]:
        if f["kind"] in ("choices", "path") and not path_ready(f, list(values[f["name"]])):
            return False
    adds = running_sum(prompt, values)
    return adds is None or adds[0] == adds[1]


def _numbers(f: dict[str, Any], rnd: random.Random) -> list[int]:
    low, high = int(f["min"] if f["min"] is not None else 0), int(f["max"] if f["max"] is not None else 20)
    if high - low <= 40:
        return list(range(low, high + 1))
    return sorted({low, high, low + 1, high - 1, *(rnd.randint(low, high) for _ in range(8))})


def _walk(f: dict[str, Any], rnd: random.Random) -> list[Any] | None:
    """A random sequence the field lets be built, or None if this walk could not be sent."""
    picks: list[Any] = []
    while True:
        offered = next_steps(f, picks)
        if path_ready(f, picks) and (not offered or rnd.random() < 0.3):
            return picks
        if not offered:
            return None
        picks.append(rnd.choice(offered))


def field_values(f: dict[str, Any], rnd: random.Random) -> list[Any]:
    """The values a field offers: each choice, the numbers of its range, sequences it lets be built."""
    if f["kind"] == "choice":
        return [c["value"] for c in f["choices"]]
    if f["kind"] == "number":
        return _numbers(f, rnd)
    if f["kind"] in ("choices", "path"):
        walks = [w for w in (_walk(f, rnd) for _ in range(WALKS)) if w is not None]
        return list({json.dumps(w): w for w in walks}.values())
    if f["kind"] == "text":
        return ["Ana", "x" * 20]
    return []


def offered_forms(prompt: dict[str, Any], rnd: random.Random) -> Iterator[dict[str, Any]]:
    """The args of forms the prompt lets be sent: every combination when there are few, else every value of
    every field at least once with the other fields chosen at random."""
    fields = [f for f in prompt["fields"] if f["kind"] != "confirm"]
    values = [field_values(f, rnd) for f in fields]
    if any(not v for v in values):
        return
    size = 1
    for v in values:
        size *= len(v)
    if size <= FORMS_PER_PROMPT:
        combos: Iterable[tuple[Any, ...]] = itertools.product(*values)
    else:
        combos = [tuple(v if j == i else rnd.choice(values[j]) for j in range(len(fields)))
                  for i in range(len(fields)) for v in values[i]]
    for combo in combos:
        chosen = {f["name"]: v for f, v in zip(fields, combo, strict=True)}
        if sendable(prompt, chosen):
            yield {**prompt["fixed"], **chosen}


def refusal(game: Game, state: State, actor: str, move: str, args: dict[str, Any]) -> str | None:
    """The referee's refusal code for this input now, or None when it accepts it. Asked of the state without
    its announcements: no rule reads what was announced (only the screens do), so the answer is the same
    and each try copies a much smaller state (the check tries thousands per state)."""
    try:
        step(game, {**state, "announcements": []}, Input(move, actor, args, int(state.get("now", 0))))
    except Rejected as why:
        return why.code
    return None


def may_make(game: Game, state: State, actor: str, move: str) -> bool:
    """Whether the actor may make this move now, whatever its args (fold.authorize: the sender's role, the
    phase, the turn); when not, the referee refuses every input of it alike, so none need be sent."""
    try:
        authorize(game, state, Input(move, actor, {}, int(state.get("now", 0))))
    except Rejected:
        return False
    return True


def offered_but_refused(game: Game, setup: Setup, state: State, rnd: random.Random,
                        prompts: dict[str, list[dict[str, Any]]] | None = None) -> list[Any]:
    """(actor, move, args, refusal) of every form a prompt lets be sent that the referee refuses (`prompts`:
    `all_prompts` at this state, when known)."""
    prompts = all_prompts(game, setup, state) if prompts is None else prompts
    out = []
    for actor in actors(state):
        for prompt in prompts[actor]:
            for args in offered_forms(prompt, rnd):
                code = refusal(game, state, actor, prompt["move"], args)
                if code is not None:
                    out.append((actor, prompt["move"], args, code))
    return out


# -- the other way: what the referee accepts can be picked ---------------------------------------------------

def fits_field(f: dict[str, Any], value: Any) -> bool:
    """Whether the phone's control for the field can take this value (js/forms.js, js/steps.js)."""
    if f["kind"] == "choice":
        return any(c["value"] == value for c in f["choices"])
    if f["kind"] == "number":
        return (isinstance(value, int) and (f["min"] is None or value >= f["min"])
                and (f["max"] is None or value <= f["max"]))
    if f["kind"] in ("choices", "path"):
        if not isinstance(value, list):
            return False
        return all(v in next_steps(f, value[:i]) for i, v in enumerate(value)) and path_ready(f, value)
    if f["kind"] == "text":
        return isinstance(value, str)
    return True


def on_phone(prompts: list[dict[str, Any]], move: str, args: dict[str, Any]) -> dict[str, Any] | None:
    """The prompt of the phone's page whose form sends exactly these args, if any."""
    for p in prompts:
        names = {f["name"] for f in p["fields"] if f["kind"] != "confirm"}
        if p["move"] != move or set(args) != names | set(p["fixed"]):
            continue
        if any(args[k] != v for k, v in p["fixed"].items()):
            continue
        values = {f["name"]: args[f["name"]] for f in p["fields"] if f["kind"] != "confirm"}
        if all(fits_field(f, args[f["name"]]) for f in p["fields"] if f["kind"] != "confirm") \
                and sendable(p, values):
            return p
    return None


def _same_as_offered(game: Game, state: State, actor: str, prompts: list[dict[str, Any]], move: str,
                     args: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """An offered prompt that sends part of these args, to the very same effect (the referee ignores an
    argument the move does not use: a die roll for a room that rolls none)."""
    after = step(game, state, Input(move, actor, args, int(state.get("now", 0))))
    for p in prompts:
        names = {f["name"] for f in p["fields"] if f["kind"] != "confirm"} | set(p["fixed"])
        if p["move"] != move or not names < set(args):
            continue
        part = {k: args[k] for k in names}
        if on_phone([p], move, part) and step(game, state, Input(move, actor, part, int(state.get("now", 0)))) == after:
            return p, part
    return None


def accepted_but_unreachable(game: Game, setup: Setup, state: State, universe: Universe,
                             rnd: random.Random, everyone: dict[str, list[dict[str, Any]]] | None = None) -> list[Any]:
    """(actor, move, args, where) of inputs the referee accepts now that a phone or the booth cannot send
    (`everyone`: `all_prompts` at this state, when known)."""
    everyone = all_prompts(game, setup, state) if everyone is None else everyone
    out = []
    for actor in actors(state):
        prompts = everyone[actor]
        menu = host_menu(game, setup, state) if actor == HOST else []
        for move in sorted(universe.asked.get(role(actor), ())):
            if not may_make(game, state, actor, move):  # all refused alike: none is accepted, none to find
                continue
            for args in universe.candidates(move, rnd):
                if refusal(game, state, actor, move, args) is not None:
                    continue
                if actor == HOST and any(c["move"] == move and c["args"] == args for c in menu):
                    continue  # the host menu's button (pause, resume, extend, end)
                exact = on_phone(prompts, move, args)
                found = (exact, args) if exact is not None else _same_as_offered(game, state, actor, prompts, move,
                                                                                 args)
                if found is None and actor == HOST:  # the host acting for a player, through that player's forms
                    found = next(((p, args) for other in actors(state)[1:]
                                  if (p := on_phone(everyone[other], move, args))), None)
                if found is None:
                    out.append((actor, move, args, "phone"))
                elif not on_booth(*found):
                    out.append((actor, move, args, "booth"))
    return out


# -- a game's property: its demo scripts, then the bot playing on from part way ------------------------------

@functools.cache
def evenings(game_id: str, folder: Path) -> list[tuple[Setup, list[State], Universe]]:
    """Each demo script of the game: its setup, its states, and what its prompts asked along it."""
    games = registry()
    out = []
    for path in sorted(folder.glob("*.jsonl")):
        setup, states = script_states(games, path)
        universe = Universe()
        for state in states:
            universe.learn(games[game_id], state, random.Random(0), all_prompts(games[game_id], setup, state),
                           field_values)
        out.append((setup, states, universe))
    return out


def findings(game: Game, setup: Setup, state: State, universe: Universe, seed: int) -> list[Any]:
    """(actor, move, args, refusal code or where it cannot be reached) of every mismatch at this state."""
    rnd = random.Random(seed)
    prompts = all_prompts(game, setup, state)
    universe.learn(game, state, rnd, prompts, field_values)
    return [*offered_but_refused(game, setup, state, rnd, prompts),
            *accepted_but_unreachable(game, setup, state, universe, rnd, prompts)]


def assert_prompts_match_the_referee(game: Game, setup: Setup, state: State, universe: Universe, seed: int,
                                     known: frozenset[tuple[str, str]] = frozenset()) -> None:
    """Nothing a prompt lets be sent is refused; everything accepted can be sent from a phone and the booth.
    `known`: (move, refusal code or "phone"/"booth") found and reported, left to another change."""
    rnd = random.Random(seed)
    prompts = all_prompts(game, setup, state)
    universe.learn(game, state, rnd, prompts, field_values)
    refused = [f for f in offered_but_refused(game, setup, state, rnd, prompts) if (f[1], f[3]) not in known]
    assert not refused, f"offered but refused (actor, move, args, why): {refused[:3]}"
    missing = [f for f in accepted_but_unreachable(game, setup, state, universe, rnd, prompts)
               if (f[1], f[3]) not in known]
    assert not missing, f"accepted but not offered (actor, move, args, where): {missing[:3]}"



