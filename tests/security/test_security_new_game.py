"""The host's `table.new_game` from anyone else (issue 21): a hostile phone tries it from its seat, and the
door (companion/phones/intake.py) refuses it before the table sees it, whatever the payload says; the
table refuses it too (tests/core/test_table_new_game.py). The public view of a new game holds its
options and number, never its seed."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import HOST_VIEW, Referee
from companion.games import registry
from companion.phones import intake
from companion.table.loop import Table

PAYLOAD = {"id": "x1", "move": "table.new_game", "args": {"game": "toolkit", "players": [{"id": "me", "name": "Me"}]}}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["player:ana", "player:ben", "join", "spectator"]),
       st.dictionaries(st.sampled_from(["by", "as", "host", "actor"]), st.sampled_from(["host", "table", "clock"])))
def test_only_the_hosts_seat_gets_table_new_game_through_the_door(actor: str, extra: dict[str, str]) -> None:
    payload = json.dumps({**PAYLOAD, "args": {**PAYLOAD["args"], **extra}}).encode()
    refused = intake.decode(payload, actor)
    assert not isinstance(refused, dict)
    assert refused.code in ("reject.not_allowed", "reject.malformed")


def test_the_hosts_seat_passes_the_door_as_the_host() -> None:
    raw = intake.decode(json.dumps(PAYLOAD).encode(), "host")
    assert isinstance(raw, dict) and raw["by"] == "host" and raw["move"] == "table.new_game"


def test_a_new_games_views_hold_no_seed(tmp_path: Path) -> None:
    setup = Setup("toolkit", (Player("ana", "Ana"),), {}, seed=7)
    table = Table(Referee.start(registry(), EventLog(tmp_path / "log.db"), setup, created_at=1))
    table.handle({"by": "host", "move": "game.end", "args": {}})
    assert table.handle({**PAYLOAD, "by": "host", "args": {"game": "room25", "players": [
        {"id": "ana", "name": "Ana"}, {"id": "p1", "name": "Bo"}, {"id": "p2", "name": "Cy"}],
        "options": {"mode": "competition"}}}).accepted
    seed = table.referee.setup.seed
    for audience in ("public", HOST_VIEW, "player:ana", "player:p1"):
        text = json.dumps(table.views.view(audience))
        assert str(seed) not in text and '"seed"' not in text
    assert table.views.public["options"] == {"mode": "competition"}
