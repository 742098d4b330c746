"""A table's start sends the hall its finished games' results as first sent, from its log, without
folding those games again (companion/hall/table/results.py: a Pi would replay each one)."""

from __future__ import annotations

import json
from pathlib import Path

from companion.core.eventlog import EventLog, setup_from_json
from companion.core.referee import Referee
from companion.games import registry
from companion.hall import protocol
from companion.hall.table.results import KEPT, HallResults
from companion.scripting import run as run_script
from tests.kits.hall_scripts import script


def test_a_restart_sends_each_result_as_first_sent_with_no_game_replayed(tmp_path: Path) -> None:
    setup, moves = script("lockdown/lockdown-2p")
    path = tmp_path / "table.sqlite3"
    referee = run_script(registry(), EventLog(path), [json.dumps(setup)] + [json.dumps(m) for m in moves])
    first: list[tuple[str, bytes]] = []
    HallResults(lambda t, p: first.append((t, p)), prefix="companion", table="t1", name="Table 1", language="en",
                log=referee.log, games=registry(), current=lambda: referee).start()
    topic = protocol.results_topic("companion", "t1", referee.game_id)
    sent = dict(first)[topic]
    result = protocol.parse_result(sent, "t1")
    assert result["ranking"] == [["ben"], ["ana"]] and result["points"] == {"ben": 9, "ana": 8}
    assert referee.log.setting(KEPT.format(number=referee.game_id)) == sent.decode("ascii")

    # The next start, on another game of the same log, knowing no game: the finished one could not be
    # folded again, so what reaches the hall is the kept copy.
    reopened = EventLog(path)
    nxt = Referee.start(registry(), reopened, setup_from_json({**setup, "seed": 7}), created_at=0)
    assert nxt.game_id != referee.game_id
    again: list[tuple[str, bytes]] = []
    HallResults(lambda t, p: again.append((t, p)), prefix="companion", table="t1", name="Table 1", language="en",
                log=reopened, games={}, current=lambda: nxt).start()
    assert dict(again)[topic] == sent
