"""The game contract with phases, turn order and a data file, proved on a tiny game made for the test.

The toolkit has no phases and no turns; the rule modules will. This small card race exercises what the
referee enforces for them before a move runs (wrong phase, not your turn), and the data-file loader.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel, Field

from companion.core import gamedata
from companion.core.contract import Args, Ctx, Deadline, GameBase, Move, Player, Setup, State
from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.modules import Modules
from companion.core.prompts import Prompt
from companion.core.referee import Referee
from companion.parts import turn_order

PLAYERS = frozenset({"player"})


class Track(BaseModel):
    length: int = Field(ge=1)
    cards: list[int] = Field(min_length=1)


class Pick(Args):
    card: int


def pick(ctx: Ctx, a: Pick) -> None:
    s = ctx.state
    if a.card not in s["deck"]:
        raise ValueError("test game: card not in deck")  # never reached in these tests
    s["deck"].remove(a.card)
    s["hands"][ctx.player] = a.card
    nxt = turn_order.next_player(s["order"], ctx.player or "", skip=s["hands"])
    s["turn"] = nxt or s["order"][0]
    if nxt is None:
        s["phase"] = "race"


def run(ctx: Ctx, _: Args) -> None:
    s = ctx.state
    s["pos"][ctx.player] += s["hands"][ctx.player]
    if s["pos"][ctx.player] >= s["length"]:
        s["winner"] = ctx.player
    s["turn"] = turn_order.next_player(s["order"], ctx.player or "")


class Race(GameBase):
    id = "race"
    min_players = 2
    max_players = 4
    Options = Args

    def __init__(self, track: Track) -> None:
        self.track = track
        self.moves = {
            "draft.pick": Move("draft.pick", pick, Pick, PLAYERS, phases=frozenset({"draft"}), on_turn=True),
            "race.run": Move("race.run", run, Args, PLAYERS, phases=frozenset({"race"}), on_turn=True),
        }

    def setup(self, setup: Setup, options: Any) -> State:
        order = [p.id for p in setup.players]
        return {"order": order, "turn": order[0], "phase": "draft", "deck": list(self.track.cards),
                "hands": {}, "pos": dict.fromkeys(order, 0), "length": self.track.length, "winner": None}

    def phase(self, state: State) -> str | None:
        return state["phase"]  # type: ignore[no-any-return]

    def current_player(self, state: State) -> str | None:
        return state["turn"]  # type: ignore[no-any-return]

    def view_public(self, state: State) -> dict[str, Any]:
        return {"phase": state["phase"], "turn": state["turn"], "pos": state["pos"]}

    def view_player(self, state: State, pid: str) -> dict[str, Any]:
        return {"card": state["hands"].get(pid)}

    def result(self, state: State) -> dict[str, Any] | None:
        return None if state["winner"] is None else {"ranking": [[state["winner"]]]}

    def deadlines(self, state: State) -> Sequence[Any]:
        return []


@pytest.fixture
def referee(tmp_path: Path) -> Referee:
    data = tmp_path / "track.toml"
    data.write_text("length = 5\ncards = [3, 2]\n", encoding="utf-8")
    game = Race(gamedata.load(data, Track))
    setup = Setup("race", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=1)
    return Referee.start({"race": game}, EventLog(tmp_path / "log.sqlite3"), setup, created_at=0)


def send(ref: Referee, pid: str, move: str, **args: Any) -> str | None:
    out = ref.submit(Input(move, f"player:{pid}", args, 0))
    return None if out.accepted else out.reason.code if out.reason else "?"


def test_moves_out_of_turn_or_phase_are_refused_before_they_run(referee: Referee) -> None:
    assert send(referee, "ben", "draft.pick", card=3) == "reject.not_your_turn"
    assert send(referee, "ana", "race.run") == "reject.wrong_phase"
    assert send(referee, "ana", "draft.pick", card=3) is None
    assert send(referee, "ana", "draft.pick", card=2) == "reject.not_your_turn"
    assert send(referee, "ben", "draft.pick", card=2) is None
    assert referee.view("public")["table"]["phase"] == "race"
    assert send(referee, "ana", "draft.pick", card=2) == "reject.wrong_phase"
    assert send(referee, "ana", "race.run") is None
    assert send(referee, "ben", "race.run") is None
    assert send(referee, "ana", "race.run") is None  # 3 + 3 >= 5
    assert referee.view("public")["result"] == {"ranking": [["ana"]]}
    assert send(referee, "ben", "race.run") == "reject.game_over"
    assert len(referee.events) == 5


def test_a_refusal_names_whose_turn_it_is(referee: Referee) -> None:
    out = referee.submit(Input("draft.pick", "player:ben", {"card": 3}, 0))
    assert out.reason is not None and dict(out.reason.params) == {"player": "ana"}


def test_a_bad_data_file_names_the_file_and_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "track.toml"
    bad.write_text('length = 0\ncards = ["x"]\n', encoding="utf-8")
    with pytest.raises(gamedata.GameDataError) as err:
        gamedata.load(bad, Track)
    text = str(err.value)
    assert f"{bad}: length:" in text and "(got 0)" in text
    assert f"{bad}: cards.0:" in text


def test_a_broken_data_file_gives_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "track.toml"
    bad.write_text("length = 5\ncards = [1, ?]\n", encoding="utf-8")
    with pytest.raises(gamedata.GameDataError, match=r"not valid TOML.*line 2"):
        gamedata.load(bad, Track)
    with pytest.raises(gamedata.GameDataError, match="cannot read"):
        gamedata.load(tmp_path / "missing.json", Track)


def test_a_game_that_names_its_modules_gets_its_views_flow_prompts_and_timer_from_them() -> None:
    """What the four turn-based games and Lockdown declare instead of a block of delegating methods."""
    views = SimpleNamespace(public=lambda s: {"turn": s["turn"]}, player=lambda s, pid: {"card": s["hands"][pid]})
    flow = SimpleNamespace(phase=lambda s: s["phase"], current_player=lambda s: s["turn"])
    run = Prompt("race.run", "race.prompt.run")
    forms = SimpleNamespace(for_actor=lambda s, actor: [run] if actor == f"player:{s['turn']}" else [])
    due = Deadline(5000, "timer.expire", {"name": "turn"})
    timer = SimpleNamespace(deadlines=lambda s: [due], on_resume=lambda s: [("timer.pause", {})])

    class Named(GameBase):
        modules = Modules(views=views, flow=flow, forms=forms, timer=timer)

    state = {"turn": "ana", "phase": "race", "hands": {"ana": 3}, "finished": None}
    game = Named()
    assert (game.view_public(state), game.view_player(state, "ana"), game.view_host(state)) == (
        {"turn": "ana"}, {"card": 3}, {})
    assert (game.phase(state), game.current_player(state)) == ("race", "ana")
    assert (game.prompts(state, "player:ana"), game.prompts(state, "player:ben")) == ([run], [])
    assert (game.deadlines(state), game.on_resume(state)) == ([due], [("timer.pause", {})])
    assert game.result(state) is None
    assert game.result({**state, "finished": {"ranking": [["ana"]]}}) == {"ranking": [["ana"]]}


def test_a_game_that_names_no_modules_has_no_phases_turns_prompts_or_timers_and_defines_its_views() -> None:
    class Bare(GameBase):
        pass

    state = {"turn": "ana", "phase": "race", "finished": None}
    game = Bare()
    assert (game.phase(state), game.current_player(state), game.prompts(state, "player:ana")) == (None, None, [])
    assert (game.deadlines(state), game.on_resume(state)) == ([], [])
    with pytest.raises(NotImplementedError, match="view_public"):
        game.view_public(state)
