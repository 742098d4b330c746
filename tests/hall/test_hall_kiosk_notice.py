"""The kiosk says what the hall's seating does (issue 18): on the status bar, in the table's language,
at the smallest and the largest screen, with nothing clipped."""

from __future__ import annotations

import io
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.hall import protocol
from companion.hall.table.seating import HallSeating
from companion.hall.table.starter import sayer
from companion.kiosk.engine import build
from companion.kiosk.kiosk import Settings
from companion.status import StatusBoard
from companion.table.loop import Table
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache, text_problems

__all__ = ["shots_dir", "text", "text_cache"]  # fixtures


@pytest.mark.parametrize("size", ["800x480", "1920x1080"])
@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_the_kiosk_says_the_round_waits_then_that_the_hall_seated_the_table(
        tmp_path: Path, text: TextCache, shots_dir: Path, size: str, lang: str) -> None:
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=1)
    table = Table(Referee.start(registry(), EventLog(tmp_path / "g.sqlite3"), setup, created_at=0))
    kiosk = build(surface(size), table, registry(), Settings(lang=lang, attract=False), StatusBoard(), text=text)
    console = io.StringIO()
    seating = HallSeating(table, table.referee.log, sayer(lang, console, kiosk.feed))
    table.outputs.append(seating)
    assert table.handle({"by": "host", "move": "counter.create", "args": {"name": "gold", "players": ["ana"]}})
    hall = protocol.parse_seating(protocol.seating_payload(
        seating="a1b2c3d4", round_no=2, game="toolkit", options={},
        players=[{"id": "mai-4f", "name": "Mai"}, {"id": "p-9c", "name": "ลำดวน"}]))
    for step, msgid in (("pending", "hall.seating_pending"), ("seated", "hall.seated")):
        if step == "pending":
            seating.arrived(hall)  # on the table's loop: a game is under way
        else:
            assert table.handle({"by": "host", "move": "game.end", "args": {}}).accepted
            seating.apply_pending()  # what the loop runs next (`changed` hands it over with Table.call)
        said = i18n.translate(lang, msgid, {"round": 2})
        assert f"  » {said}" in console.getvalue()
        text.record = []
        kiosk.process()
        drawn = [d for d in text.record or [] if d.text == said]
        assert drawn, f"the status bar says {said!r}"
        assert not text_problems(drawn)
        pygame.image.save(kiosk.surface, str(shots_dir / f"hall-{step}-{lang}-{size}.png"))
    assert table.referee.game_id == 2
    table.referee.log.close()
