"""A finished game's whole story in its views (issue 31): views keep the last 20 announcements, and the
public view of an ended game carries `story`, every announcement from the first. It is built from
announcements only: each entry is one the public views showed as it was made, so it tells nothing a
public view did not; every seat's view carries that same story (no seat's own lines in it); a game still
running has none; a very long game's view keeps the latest `STORY_SHOWN`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import scripting
from companion.core.contract import Player, Setup
from companion.core.corrections import UNDO
from companion.core.eventlog import EventLog
from companion.core.inputs import CLOCK, HOST, Input
from companion.core.referee import STORY_SHOWN, Referee
from companion.games import folder, registry
from companion.phones.topics import VIEW_MAX_BYTES
from companion.table.views import Views

DEMOS = [folder("lockdown") / "demo_games" / "lockdown-9p.jsonl",
         folder("betrayal") / "demo_games" / "haunt-4.jsonl"]


@pytest.mark.parametrize("script", DEMOS, ids=lambda p: p.stem)
def test_the_story_is_what_the_public_views_announced_one_by_one(script: Path) -> None:
    made: list[dict[str, Any]] = []  # every announcement as the public view showed it when it was made
    seen = 0

    def watch(ref: Referee) -> None:
        nonlocal seen
        public = ref.view("public")
        assert "story" not in public, "a game still running tells no story"
        fresh = public["announced"] - seen
        assert fresh <= len(public["announcements"])  # this check sees every step's announcements
        made.extend(public["announcements"][len(public["announcements"]) - fresh:] if fresh else [])
        seen = public["announced"]

    log = EventLog(":memory:")
    lines = script.read_text(encoding="utf-8").splitlines()

    def after(ref: Referee) -> None:
        if not ref.state.get("ended"):  # the last step's own announcements are checked against the view's
            watch(ref)

    ref = scripting.run(registry(), log, lines, after=after)
    public = ref.view("public")
    assert public["ended"] and len(public["announcements"]) == 20 and public["announced"] > 60
    assert public["story"][-20:] == public["announcements"]
    assert len(made) > public["announced"] // 2
    assert public["story"][:len(made)] == made  # the public views' own announcements, in order
    assert len(public["story"]) == public["announced"]
    for p in public["players"]:  # each seat gets the same, public, story
        assert ref.view(f"player:{p['id']}")["story"] == public["story"]
    views = Views.of(ref)  # as the phones and the kiosk get it: in words, under the broker's limit
    for p in public["players"]:
        assert len(views.json(f"player:{p['id']}")) < VIEW_MAX_BYTES // 4
    assert json.loads(views.json("public"))["story"][0] == views.with_lines("public")["story"][0]
    log.close()


def test_a_very_long_games_view_keeps_the_latest_of_its_story() -> None:
    rolls = STORY_SHOWN + 30
    lines = ['{"game": "toolkit", "players": ["ana", "ben"]}',
             *['{"by": "player:ana", "move": "dice.roll", "args": {"count": 1}}'] * rolls,
             '{"by": "host", "move": "game.end", "args": {}}']
    log = EventLog(":memory:")
    ref = scripting.run(registry(), log, lines)
    public = ref.view("public")
    assert public["ended"] and public["announced"] > STORY_SHOWN
    assert len(public["story"]) == STORY_SHOWN and public["story"] == ref.story()[-STORY_SHOWN:]
    log.close()


def test_the_story_of_a_game_whose_timer_was_undone_after_its_warning_is_told() -> None:
    """A clock input logged for a timer a correction then took back is skipped in the story as in the
    state (fold's rule): the story never refuses to be told (found by the secrecy property)."""
    log = EventLog(":memory:")
    players = tuple(Player(pid, pid.title()) for pid in ("ana", "ben", "chai"))
    ref = Referee.start(registry(), log, Setup("toolkit", players, {}, 7), 0)
    for move, args in (("timer.create", {"name": "Day", "seconds": 5, "warnings": [1]}),
                       ("timer.start", {"name": "Day"})):
        assert ref.submit(Input(move=move, by=HOST, args=args, at=0)).accepted
    warned = ref.due(4_000)
    assert [i.move for i in warned] == ["timer.warn"] and all(i.by == CLOCK for i in warned)
    for inp in warned:
        assert ref.submit(inp).accepted
    assert ref.submit(Input(move=UNDO, by=HOST, args={"count": 2}, at=4_500)).accepted  # start and create
    assert ref.submit(Input(move="game.end", by=HOST, args={}, at=5_000)).accepted
    story = ref.view("public")["story"]
    assert [a["msg"] for a in story] == ["toolkit.game_ended"]  # the timer taken back, its warning too
    log.close()
