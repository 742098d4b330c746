"""Announcements name players by their names, never by their ids, on the kiosk, the console and the phones:
every demo game of every game replayed, each announcement shown as the screen shows it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion import i18n, scripting
from companion.console import WHO_PARAMS, with_names
from companion.core.clock import advance
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.referee import PUBLIC, Referee
from companion.games import demo_script, registry

PAGE_I18N = Path(__file__).resolve().parents[2] / "companion" / "phones" / "web" / "js" / "i18n.js"
NAMED = ["Anastasia", "Benedikt", "Chaiwat", "Daoming", "Elisabeth", "Fontaine", "Gustavo", "Huiying", "Iravati"]


def shown_announcements(game_id: str) -> list[tuple[dict, str]]:
    setup, steps = scripting.parse(demo_script(game_id) or [])
    ids = [p["id"] for p in setup["players"]]
    setup = {**setup, "players": [{"id": pid, "name": NAMED[i]} for i, pid in enumerate(ids)]}
    log = EventLog(":memory:")
    referee = Referee.start(registry(), log, setup_from_json({"seed": 0, **setup}), 0)
    seen, out = 0, []
    for _, step in steps:
        advance(referee, step.at)
        if not (isinstance(step, scripting.ClockStep) or step.by == "clock"):
            referee.submit(step)
        public = referee.view(PUBLIC)
        fresh = public["announced"] - seen
        seen = public["announced"]
        for a in public["announcements"][len(public["announcements"]) - min(fresh, len(public["announcements"])):]:
            out.append((a, i18n.describe("en", with_names(a, public["players"]))))
    log.close()
    return out


@pytest.mark.parametrize("game_id", [g for g in registry() if demo_script(g)])
def test_every_announcement_names_players_by_name(game_id: str) -> None:
    setup, _ = scripting.parse(demo_script(game_id) or [])
    ids = {p["id"] for p in setup["players"]}
    shown = shown_announcements(game_id)
    assert shown, "the demo game announces something"
    naming = 0
    for announcement, text in shown:
        words = set(re.findall(r"[a-z_0-9]+", text))
        assert not words & ids, f"{text!r} shows a player's id ({announcement['msg']})"
        naming += any(name in text for name in NAMED)
    assert naming, "some announcement names a player"


def test_the_phone_page_names_the_same_params_as_the_kiosk() -> None:
    found = re.search(r"const WHO_PARAMS = (\[[^\]]*\]);", PAGE_I18N.read_text(encoding="utf-8"))
    assert found is not None
    assert tuple(json.loads(found.group(1))) == WHO_PARAMS
