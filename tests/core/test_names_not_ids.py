"""Names, never ids (issue 28, item 1's acceptance): over every game, its demo scripts and random bot games,
with seats whose names differ from their ids and the host's named timers and votes, no text any screen
shows (the kiosk's news, board words, booth and host menu; the console; the phones' news, lines, forms,
cards and the host's page; every refusal the state gives), in zh, th or en, holds an id: a player's, a
timer's, a vote's, a deal's, a counter's, a role's, a move's or a phase's (tests/kits/names_check.py)."""

from __future__ import annotations

import importlib
import json
import random
import re
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import i18n, scripting
from companion.core.clock import advance
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.inputs import Input
from companion.core.referee import PUBLIC, Referee
from companion.drawing.text import TextCache
from companion.games import demo_script, registry
from companion.games.toolkit import presets
from companion.naming import Namer
from companion.table.views import Views
from tests.kits.board_checks import draw_alone
from tests.kits.kiosk_fixtures import text_cache
from tests.kits.names_check import Consoles, Ids, ids_in, players, refusal_texts, refusals, shown

__all__ = ["text_cache"]  # a fixture: the kiosk's fonts, recording what a board picture draws
IDS = Ids.of_all_games()
BOTS = {gid: importlib.import_module(f"companion.games.{gid}.bot").BOT for gid in registry() if gid != "toolkit"}
SAMPLE_EVERY = 5  # every so many inputs everything is looked at (the news in between is kept: 50)
REFUSE_EVERY = 4  # every so many looks, every move is tried, refused, and the refusal said


class Looker:
    """Looks at a referee's states as the screens show them, collecting every text that holds an id; the
    game's board picture too (what it draws, recorded by `text`), with the refusals' round of looks."""

    def __init__(self, referee: Referee, text: TextCache) -> None:
        self.referee, self.consoles, self.text = referee, Consoles(), text
        text.record = []
        self.announced, self.looks, self.problems, self.texts = 0, 0, [], 0
        self.last: Views | None = None

    def look(self, at: int) -> None:
        views = Views.of(self.referee, self.last)
        self.last = views
        game = self.referee.game
        deep = self.looks % REFUSE_EVERY == 0
        reasons = refusals(views, game, at) if deep else []
        self.looks += 1
        for lang in i18n.LANGUAGES:
            board = [("kiosk board", d.text) for d in draw_alone(game.id, views.with_lines(PUBLIC), self.text,
                                                                  lang=lang)[2]] if deep and game.board() else []
            for surface, text in [*shown(views, game, lang, self.announced), *self.consoles.printed(views, lang),
                                  *refusal_texts(views, reasons, lang), *board]:
                self.texts += 1
                bad = ids_in(text, lang, IDS, title=surface.startswith("phone card"))
                if bad:
                    self.problems.append(f"{game.id} {lang} {surface}: {text!r} holds {sorted(set(bad))}")
        self.announced = views.public["announced"]

    def check(self) -> None:
        assert self.texts, "something was shown"
        assert not self.problems, "\n".join(dict.fromkeys(self.problems))


def renamed(lines: Iterable[str]) -> list[str]:
    """A script with its seats' ids as p1..pN and their names as `players` (every JSON string that is a
    seat's id, or ``player:<id>``, becomes the new id)."""
    lines = list(lines)
    setup, _ = scripting.parse(lines)
    new = {p["id"]: q for p, q in zip(setup["players"], players(len(setup["players"])), strict=True)}
    pattern = re.compile(r'"(player:)?(' + "|".join(re.escape(i) for i in new) + r')"')

    def one(line: str) -> str:
        if line.lstrip().startswith("#"):
            return line
        obj = json.loads(line)
        if "players" in obj and "game" in obj:
            obj["players"] = list(new.values())
            line = json.dumps(obj, ensure_ascii=False)
        return pattern.sub(lambda m: f'"{m.group(1) or ""}{new[m.group(2)]["id"]}"', line)

    return [one(line) if line.strip() else line for line in lines]


def test_a_renamed_script_plays_with_the_new_ids_and_names() -> None:
    lines = renamed(demo_script("jailbreak") or [])
    setup, steps = scripting.parse(lines)
    assert [p["id"] for p in setup["players"]] == [f"p{i}" for i in range(1, len(setup["players"]) + 1)]
    assert [p["name"] for p in setup["players"]] == [p["name"] for p in players(len(setup["players"]))]
    assert any(getattr(inp, "by", "").startswith("player:p") for _, inp in steps)
    assert all(not re.search(r'"(ana|ben|chai|dao|eli)"', line) for line in lines if not line.startswith("#"))


@pytest.mark.parametrize("game_id", [g for g in registry() if demo_script(g)])
def test_no_screen_says_an_id_along_a_demo_game(game_id: str, text_cache: TextCache) -> None:
    setup, steps = scripting.parse(renamed(demo_script(game_id) or []))
    referee = Referee.start(registry(), EventLog(":memory:"), setup_from_json({"seed": 0, **setup}), 0)
    looker = Looker(referee, text_cache)
    try:
        for n, (_, inp) in enumerate(steps):
            advance(referee, inp.at)
            if not (isinstance(inp, scripting.ClockStep) or inp.by == "clock"):
                assert referee.submit(inp).accepted, inp
            if n % SAMPLE_EVERY == 0:
                looker.look(inp.at)
        looker.look(steps[-1][1].at)
        assert referee.state["ended"]
    finally:
        referee.log.close()
    looker.check()


@pytest.mark.parametrize("game_id", sorted(BOTS))
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=1, max_value=10_000), seats=st.integers(min_value=0, max_value=9))
def test_no_screen_says_an_id_along_a_random_bot_game(game_id: str, seed: int, seats: int,
                                                     text_cache: TextCache) -> None:
    bot, game = BOTS[game_id], registry()[game_id]
    least = max(game.min_players, 4)  # the default options' smallest table (Room 25's suspicion: 4)
    count = least + seats % (game.max_players - least + 1)
    setup = Setup(game_id, tuple(Player(p["id"], p["name"]) for p in players(count)), {}, seed)
    referee = Referee.start(registry(), EventLog(":memory:"), setup, 0)
    rnd, looker = random.Random(seed), Looker(referee, text_cache)
    try:
        for n in range(400):
            at = bot.step_ms * (n + 1)
            advance(referee, at)
            inp = bot(referee.state, rnd, at)
            if inp is None:
                break
            assert referee.submit(inp).accepted, inp
            if n % SAMPLE_EVERY == 0:
                looker.look(at)
        looker.look(bot.step_ms * 401)
    finally:
        referee.log.close()
    looker.check()


def toolkit_evening(count: int) -> list[Input]:
    """A Werewolf night and more on the toolkit: suggested names (``day``, ``exile``, ``roles``, ``hp``) and
    typed ones, votes among the seats and on typed options, a deal, counters, dice, refusals, the end."""
    pids = [f"p{i + 1}" for i in range(count)]
    seat = [f"player:{p}" for p in pids]
    steps: list[tuple[str, str, dict]] = [
        ("timer.create", "host", {"name": "day", "seconds": 120, "warnings": [30]}),
        ("timer.create", "host", {"name": "Speech clock", "seconds": 60}),
        ("timer.start", "host", {"name": "day"}),
        ("timer.pause", "host", {"name": "day"}),
        ("timer.pause", "host", {"name": "day"}),  # refused: not running
        ("timer.resume", "host", {"name": "day"}),
        ("timer.extend", "host", {"name": "day", "seconds": 30}),
        ("roles.deal", "host", {"name": "roles", "roles": presets.werewolf(count) or []}),
        ("ballot.open", "host", {"name": "exile", "options": pids, "tie": "host_decides"}),
        *[("ballot.vote", s, {"name": "exile", "option": pids[1]}) for s in seat],
        ("ballot.close", "host", {"name": "exile"}),
        ("ballot.close", "host", {"name": "exile"}),  # refused: closed
        ("roles.reveal", "host", {"name": "roles", "player": pids[1]}),
        ("roles.reveal", "host", {"name": "roles", "player": pids[1]}),  # refused: shown already
        ("ballot.open", "host", {"name": "vote", "options": ["Go on", "Stop here"]}),
        ("ballot.vote", seat[0], {"name": "vote", "option": "Go on"}),
        ("ballot.open", "host", {"name": "Tie break", "options": pids[:2], "voters": pids[:2], "tie": "host_decides"}),
        ("ballot.vote", seat[0], {"name": "Tie break", "option": pids[0]}),
        ("ballot.vote", seat[1], {"name": "Tie break", "option": pids[1]}),
        ("ballot.close", "host", {"name": "Tie break"}),
        ("ballot.decide", "host", {"name": "Tie break", "option": pids[0]}),
        ("counter.create", "host", {"name": "hp", "initial": 5, "low": 0, "high": 9}),
        ("counter.adjust", seat[0], {"name": "hp", "delta": -1}),
        ("counter.adjust", "host", {"name": "hp", "player": pids[2], "delta": 2}),
        ("counter.reveal", "host", {"name": "hp"}),
        ("ballot.close", "host", {"name": "Missing poll"}),  # refused: no such
        ("timer.create", "host", {"name": "day", "seconds": 10}),  # refused: the name is taken
        ("dice.roll", seat[2], {"count": 2, "sides": 6}),
        ("dice.roll", "host", {}),
        ("roles.reveal", "host", {"name": "roles"}),
        ("game.end", "host", {"rank_by": "hp"}),
    ]
    return [Input(move, by, args, 1000 * (n + 1)) for n, (move, by, args) in enumerate(steps)]


@pytest.mark.parametrize("count", [5, 9])
def test_no_screen_says_an_id_along_a_toolkit_evening(count: int, text_cache: TextCache) -> None:
    setup = Setup("toolkit", tuple(Player(p["id"], p["name"]) for p in players(count)), {}, 3)
    referee = Referee.start(registry(), EventLog(":memory:"), setup, 0)
    looker = Looker(referee, text_cache)
    try:
        refused = []
        for inp in toolkit_evening(count):
            advance(referee, inp.at)
            outcome = referee.submit(inp)
            if not outcome.accepted:
                assert outcome.reason is not None
                refused.append(outcome.reason)
            looker.look(inp.at)
        namer = Namer.of(referee.view("public"))
        for lang in i18n.LANGUAGES:  # the refusals the host was told, as the kiosk, console and phones say them
            for reason in refused:
                text = namer.describe(lang, namer.reason(reason).to_json())
                assert not ids_in(text, lang, IDS), text
        assert len(refused) == 5 and referee.state["ended"]
    finally:
        referee.log.close()
    looker.check()


def test_the_checker_finds_the_ids_people_saw() -> None:
    """The texts of issue 28, as they were: each is caught (a check that cannot fail proves nothing)."""
    said = [("en", "“exile”: p2 wins the vote."), ("en", "Your vote in 'exile': p2"), ("en", "Take the knife from p2"),
            ("en", "End p5's turn now"), ("zh", "“roles”：Fon 的身份是“werewolf”"),
            ("en", "Restart timer 'day'"), ("en", "“attack.take” can't be done in this phase of the game."),
            ("th", "โหวต exile ปิดแล้ว")]
    for lang, text in said:
        assert ids_in(text, lang, IDS), text
    assert ids_in("exile", "en", IDS, title=True)  # a card titled by the vote's id
    assert not ids_in("“Exile vote”: Wanida wins the vote.", "en", IDS)
    assert not ids_in("Chaiyaphruek Thanawatsin attacks Somchai", "en", IDS)
