"""A large change spread over frames (issue 20, the kiosk's frames under load; docs/perf/kiosk.md):
under the loop's frame budget the regions, and the parts of Lockdown's board, left over when the budget
is spent are drawn in the next turns, and the screen a player then sees is pixel for pixel the one
drawn in one go. The budget here is zero, so each frame draws the least it may (one region or one
part of the board): what it shows does not depend on the machine's speed."""

from __future__ import annotations

import json
from pathlib import Path

import pygame

from companion.core.eventlog import EventLog, setup_from_json
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.engine import build
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.scenes import SetClock
from companion.status import StatusBoard
from companion.table.loop import Table
from tests.kits.kiosk_fixtures import surface, text, text_cache

__all__ = ["text", "text_cache"]
SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "games" / "lockdown" / "lockdown-9p.jsonl"


def _script() -> tuple[dict[str, object], list[dict[str, object]]]:
    lines = [json.loads(t) for t in SCRIPT.read_text(encoding="utf-8").splitlines() if t and not t.startswith("#")]
    return lines[0], [{k: v for k, v in m.items() if k != "at"} for m in lines[1:]]


def _kiosk(setup: dict[str, object], text: TextCache, lang: str) -> tuple[Table, Kiosk]:
    table = Table(Referee.start(registry(), EventLog(":memory:"), setup_from_json(setup), created_at=0),
                  clock=SetClock(0))
    kiosk = build(pygame.Surface((800, 480)), table, registry(), Settings(lang=lang, attract=False),
                  StatusBoard(), text=text)
    kiosk.process()
    return table, kiosk


def _pixels(k: Kiosk) -> bytes:
    return pygame.image.tobytes(k.surface, "RGB")


def test_a_new_round_spread_over_frames_ends_as_the_screen_drawn_whole(text: TextCache) -> None:
    surface("800x480")
    setup, inputs = _script()
    whole_table, whole = _kiosk(setup, text, "en")
    spread_table, spread = _kiosk(setup, text, "en")
    turns_of: dict[str, int] = {}
    for raw in inputs[:84]:  # two rounds: their phases, turns and settlements
        assert whole_table.handle(raw).accepted == spread_table.handle(raw).accepted
        whole.process()
        before, turns = spread.frames, 0
        spread.step(0.0)
        while spread.timeout(0) == 0.0:  # a frame left something: the loop turns again at once
            spread.step(0.0)
            turns += 1
            assert turns < 40
        assert _pixels(spread) == _pixels(whole), raw
        turns_of[str(raw["move"])] = max(turns_of.get(str(raw["move"]), 0), spread.frames - before)
    # a settlement changes the news, the header and the board's three parts: one frame for each
    assert turns_of["lockdown.end_turn"] >= 4
    frames = spread.frames
    spread.process(0.0)  # nothing left and nothing new: no frame
    assert spread.frames == frames
    whole.close()
    spread.close()


def test_without_a_budget_every_frame_is_drawn_whole(text: TextCache) -> None:
    surface("800x480")
    setup, inputs = _script()
    table, kiosk = _kiosk(setup, text, "th")
    for raw in inputs[:46]:
        table.handle(raw)
        frames = kiosk.frames
        kiosk.process()
        assert kiosk.frames - frames <= 1
        assert kiosk.timeout(0) != 0.0  # nothing left for another turn
    kiosk.close()
