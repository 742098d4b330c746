"""Views once per change (issue 17): after an accepted input the table computes the public view once,
each seat's and the host's once, and hands the same views to every output (console, kiosk feed, MQTT
mirror, the buttons' LEDs); what phones are sent is exactly what the referee's own views say.

The 9-player Lockdown demo game is played through a real Table; the game handed to the referee is
a wrapper that counts how often it is asked for a view (no patching)."""

from __future__ import annotations

import gc
import io
import json
import queue
import random
import weakref
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.console import ConsoleOutput
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.referee import HOST_VIEW, PUBLIC, Outcome, Referee
from companion.games import registry
from companion.gpio.starter import _ViewTap
from companion.kiosk.feed import KioskFeed, PlayerView, PublicView
from companion.kiosk.wake import Waker
from companion.phones.credentials import GameCredentials
from companion.phones.mirror import BrokerAddress, Mirror
from companion.phones.topics import Topics
from companion.table.loop import Table
from companion.table.views import Views, encode, with_lines
from tests.kits.host_view_twins import game_bot

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "games" / "lockdown" / "lockdown-9p.jsonl"


class CountedGame:
    """The real game, counting how often the referee asks it for each view. `keyed`: with the game's
    own `player_view_keys` (Lockdown declares one); else as a game that declares none (the default)."""

    def __init__(self, game: Any, keyed: bool = False) -> None:
        self.game, self.keyed = game, keyed
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def view_public(self, state: Any) -> Any:
        self.calls["public"] += 1
        return self.game.view_public(state)

    def view_player(self, state: Any, pid: str) -> Any:
        self.calls["player"] += 1
        return self.game.view_player(state, pid)

    def view_host(self, state: Any) -> Any:
        self.calls["host"] += 1
        return self.game.view_host(state)

    def player_view_keys(self, state: Any) -> Any:
        return self.game.player_view_keys(state) if self.keyed else None


class Told:
    """An output that keeps the views each change handed it."""

    def __init__(self) -> None:
        self.views: list[Views] = []

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        self.views.append(views)


class GpioInbox:
    """Where the buttons' view tap puts the public view (the GPIO thread's inbox, without the thread)."""

    def __init__(self) -> None:
        self.inbox: queue.Queue[object] = queue.Queue()


@dataclass
class FullTable:
    table: Table
    game: CountedGame
    feed: KioskFeed
    mirror: Mirror
    first: Told
    last: Told
    inputs: list[dict[str, Any]]


def script() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(t) for t in SCRIPT.read_text(encoding="utf-8").splitlines() if t and not t.startswith("#")]
    return lines[0], [{k: v for k, v in m.items() if k != "at"} for m in lines[1:]]


@pytest.fixture
def full(request: pytest.FixtureRequest) -> Iterator[FullTable]:
    """A 9-player Lockdown table with every output `companion run` attaches, in its order; its game
    without a `player_view_keys` unless the test is parametrized with ``keyed`` True."""
    setup, inputs = script()
    game = CountedGame(registry()["lockdown"], keyed=getattr(request, "param", False))
    referee = Referee.start({**registry(), "lockdown": game}, EventLog(":memory:"),
                            setup_from_json(setup), created_at=0)
    table = Table(referee)
    first, last = Told(), Told()
    table.outputs += [first, ConsoleOutput(io.StringIO(), "en")]
    feed = KioskFeed(Waker())
    feed.attach(table)
    creds = GameCredentials.issue("t1", referee.game_id, [p.id for p in referee.setup.players], spectators=3)
    mirror = Mirror(table, Topics("companion", "t1"), creds, BrokerAddress("127.0.0.1", 1))  # never connected
    table.outputs += [mirror, _ViewTap(GpioInbox()), last]
    try:
        yield FullTable(table, game, feed, mirror, first, last, inputs)
    finally:
        referee.log.close()


def test_each_accepted_input_computes_every_view_once_for_every_output(full: FullTable) -> None:
    players = len(full.table.referee.setup.players)
    full.feed.player_tapped("ana")  # a booth open too: the kiosk shows Ana's view beside the public one
    for raw in full.inputs[:40]:
        before = Counter(full.game.calls)
        assert full.table.handle(raw).accepted, raw
        made = full.game.calls - before
        assert made == Counter({"public": 1, "player": players, "host": 1}), raw
        assert full.first.views[-1] is full.last.views[-1]  # the same views, first output to last


def test_a_refused_input_and_a_quiet_tick_compute_no_view(full: FullTable) -> None:
    assert full.table.handle(full.inputs[0]).accepted
    before = Counter(full.game.calls)
    told = len(full.last.views)
    assert not full.table.handle({"by": "player:ana", "move": "no.such.move", "args": {}}).accepted
    full.table.tick()  # nothing due
    assert full.game.calls == before and len(full.last.views) == told


def test_the_booth_opened_after_a_change_reuses_that_changes_view(full: FullTable) -> None:
    assert full.table.handle(full.inputs[0]).accepted
    before = Counter(full.game.calls)
    full.feed.player_tapped("ben")  # the mirror already asked for Ben's view of this state
    assert full.game.calls == before
    messages = []
    while not full.feed.inbox.empty():
        messages.append(full.feed.inbox.get_nowait())
    opened = [m for m in messages if isinstance(m, PlayerView) and m.opened]
    ref = full.table.referee  # the booth gets the view as every screen does: with its lines, ids in words
    assert [m.view for m in opened] == [with_lines(ref.view("player:ben"), ref.view("public"))]
    assert any(isinstance(m, PublicView) for m in messages)


@pytest.mark.parametrize("full", [True], indirect=True)
def test_a_seat_whose_key_did_not_change_reuses_its_last_view(full: FullTable) -> None:
    """With the game's `player_view_keys` (Lockdown's), a seat's private view is made again only when
    its key changed, the public view and the host's still once per change (docs/perf/views.md)."""
    referee = full.table.referee
    pids = [p.id for p in referee.setup.players]
    game = full.game.game
    keys = game.player_view_keys(referee.state)
    full.table.views.json(PUBLIC)  # the views before the first input, as the mirror's start takes them
    for pid in pids:
        full.table.views.json(f"player:{pid}")
    made_in_all = 0
    for raw in full.inputs:
        before = Counter(full.game.calls)
        assert full.table.handle(raw).accepted, raw
        made = full.game.calls - before
        now = game.player_view_keys(referee.state)
        changed = sum(now[pid] != keys[pid] for pid in pids)
        keys = now
        assert made == Counter({"public": 1, "player": changed, "host": 1}) - Counter(), raw
        made_in_all += changed
    assert made_in_all < len(pids) * len(full.inputs) / 2  # most seats' views are not made again


@pytest.mark.parametrize("full", [False, True], indirect=True)
def test_what_every_output_is_handed_is_what_the_referee_says(full: FullTable) -> None:
    """The shared views equal the referee's own views of the same state, for every audience; the
    phones' JSON equals what the mirror used to build itself (each view with its lines). With the
    game's `player_view_keys` too (every input: a reused view must be the fresh one)."""
    referee = full.table.referee
    audiences = [PUBLIC, HOST_VIEW, *(f"player:{p.id}" for p in referee.setup.players)]
    for n, raw in enumerate(full.inputs):
        assert full.table.handle(raw).accepted, raw
        if not full.game.keyed and n % 25 and n != len(full.inputs) - 1:
            continue
        views = full.last.views[-1]
        public = referee.view(PUBLIC)
        for audience in audiences:
            assert views.view(audience) == referee.view(audience)
            assert views.json(audience) == encode(with_lines(referee.view(audience), public))
        topic = full.mirror.topics.view(full.mirror.game.players["ana"].user)
        assert full.mirror._retained[topic] == views.json("player:ana")  # what the broker would keep


def test_views_of_a_state_stay_that_states_after_the_referee_moves_on(full: FullTable) -> None:
    referee = full.table.referee
    assert full.table.handle(full.inputs[0]).accepted
    expected = {a: referee.view(a) for a in (PUBLIC, HOST_VIEW, "player:ben")}
    late = Views.of(referee)  # nothing asked of it yet
    assert full.table.views is full.table.views  # the current views are made once
    assert full.table.handle(full.inputs[1]).accepted
    assert not late.are_of(referee) and full.table.views.are_of(referee)
    assert {a: late.view(a) for a in expected} == expected  # asked for late: still the earlier state's
    assert late.player("ben") != full.table.views.player("ben")


@pytest.mark.parametrize("game_id", sorted(registry()))
def test_every_games_views_made_from_the_last_ones_are_its_fresh_views(game_id: str) -> None:
    """Whether a game declares `player_view_keys` or not (the default: none), the views a table makes
    from the last ones equal the referee's own, with their JSON, after every input of a bot's game."""
    game = registry()[game_id]
    players = tuple(Player(f"p{i}", f"P{i}") for i in range(max(game.min_players, 4)))
    referee = Referee.start(registry(), EventLog(":memory:"), Setup(game_id, players, {}, 11), created_at=0)
    table = Table(referee)
    audiences = [PUBLIC, HOST_VIEW, *(f"player:{p.id}" for p in players)]
    bot, rnd = game_bot(game_id), random.Random(5)
    for n in range(120):
        inp = bot(referee.state, rnd, (n + 1) * 1000)
        if inp is None:
            break
        assert table.handle({"by": inp.by, "move": inp.move, "args": dict(inp.args)}).accepted, inp
        views, public = table.views, referee.view(PUBLIC)
        for audience in audiences:
            assert views.view(audience) == referee.view(audience), audience
            assert views.json(audience) == encode(with_lines(referee.view(audience), public)), audience
    referee.log.close()


@pytest.mark.parametrize("full", [True], indirect=True)
def test_views_made_from_the_last_ones_do_not_keep_them_alive(full: FullTable) -> None:
    """A long evening must not pile up old views: each `Views` keeps what it reuses, not the last one."""
    first = weakref.ref(full.table.views)
    full.table.views.json("player:ana")
    for raw in full.inputs[:5]:
        assert full.table.handle(raw).accepted, raw
    full.first.views.clear()  # the test's own outputs kept every change's views
    full.last.views.clear()
    gc.collect()
    assert first() is None
