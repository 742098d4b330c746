"""The hall's seating arriving at a table (issue 18): the next round starts through the host's own
`table.new_game`, once per seating (a retained copy delivered again after a restart is not applied
again), waits while a game is under way, and a malformed or hostile seating changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.hall import protocol
from companion.hall.table.seating import HallSeating
from tests.kits.hall_kit import PREFIX, Central, HallTable, bridged, central, hall_table, host, table_config
from tests.kits.phones_kit import WAIT_S

TABLE, PASSWORD = "t3", "t3-pass-0k"
HALL_PLAYERS = [{"id": "mai-4f", "name": "Mai"}, {"id": "p-9c", "name": "ลำดวน"}, {"id": "li-2a", "name": "李"}]


def seating(seating_id: str, round_no: int = 2, players: list[dict[str, str]] = HALL_PLAYERS) -> bytes:
    return protocol.seating_payload(seating=seating_id, round_no=round_no, game="toolkit", options={},
                                    players=players)


def publish(hall: Central, payload: bytes) -> None:
    """The hall publishes this table's seating, retained, on its central broker."""
    sender = hall.hall_client()
    sent = sender.client.publish(protocol.seating_topic(PREFIX, TABLE), payload, qos=1, retain=True)
    sent.wait_for_publish(WAIT_S)  # the hall's broker has it
    sender.close()


def heard(seat: HallSeating) -> tuple[str, str]:
    return seat.heard.get(timeout=WAIT_S)


def heard_past(seat: HallSeating, copy: tuple[str, str]) -> tuple[str, str]:
    """What became of the next message that is not another `copy`: a retained seating comes at least once,
    and as often as the referee's client subscribes to it (the mirror may send its SUBSCRIBE twice when a
    topic is added while it connects: `Mirror.subscribe`) or the bridge or the client reconnects."""
    while (got := heard(seat)) == copy:
        pass
    return got


def players_of(t: HallTable) -> list[dict[str, str]]:
    return [{"id": p.id, "name": p.name} for p in t.referee.setup.players]


def test_a_seating_starts_the_round_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log_path = tmp_path / "t3.sqlite3"
    with central({TABLE: PASSWORD}) as hall:
        cfg = table_config(TABLE, PASSWORD, hall.port)
        with hall_table(log_path, cfg) as t:
            publish(hall, seating("a1a1a1a1"))
            assert heard(t.hall.seating) == ("applied", "a1a1a1a1")
            assert t.referee.game_id == 2 and players_of(t) == HALL_PLAYERS
            assert t.table.views.public["players"] == HALL_PLAYERS  # the new game's screens list them
            assert "Round 2: the hall has seated this table" in capsys.readouterr().err
        # the table restarts on the same file; the hall's retained seating arrives again (once or more),
        # then a new one
        with hall_table(log_path, cfg) as t:
            copy = ("again", "a1a1a1a1")
            assert heard(t.hall.seating) == copy
            assert t.referee.game_id == 2
            # the same retained copy delivered once more, as when the referee's client subscribes twice
            t.phones.mirror.subscribe(protocol.seating_topic(PREFIX, TABLE), t.hall.seating.receive)
            assert heard(t.hall.seating) == copy and t.referee.game_id == 2  # never applied twice
            round3 = HALL_PLAYERS[:2]
            publish(hall, seating("b2b2b2b2", 3, round3))
            assert heard_past(t.hall.seating, copy) == ("applied", "b2b2b2b2")
            assert t.referee.log.game_ids(10) == [1, 2, 3] and players_of(t) == round3


def test_a_seating_waits_for_the_game_under_way(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with bridged(tmp_path / "t3.sqlite3", TABLE, PASSWORD) as (hall, t):
        assert host(t, "counter.create", "c1", name="gold", players=["ana"]).accepted  # under way
        publish(hall, seating("c3c3c3c3"))
        assert heard(t.hall.seating) == ("pending", "c3c3c3c3")
        assert t.referee.game_id == 1
        assert "the hall's next round waits for this game to end" in capsys.readouterr().err
        assert host(t, "game.end", "end").accepted
        assert heard(t.hall.seating) == ("applied", "c3c3c3c3")
        assert t.referee.game_id == 2 and players_of(t) == HALL_PLAYERS
        assert t.referee.log.game(1) is not None and t.referee.log.game_ids(10) == [1, 2]


def _deep(n: int) -> bytes:
    return b"[" * n + b"]" * n


HOSTILE: list[tuple[str, bytes]] = [
    ("huge", json.dumps({"v": 1, "seating": "d4d4d4d4", "pad": "x" * 200_000}).encode()),
    ("not UTF-8", b'{"v":1,"seating":"\xff\xfe"}'),
    ("not JSON", b"{{{"),
    ("deep", _deep(100_000)),
    ("a list", b"[1,2,3]"),
    ("wrong version", json.dumps({"v": 2}).encode()),
    ("round as text", seating("e5e5e5e5").replace(b'"round":2', b'"round":"2"')),
    ("players not a list", seating("f6f6f6f6").replace(b'"players":[', b'"players":{"x":[').replace(b"]}", b"]}}", 1)),
    ("a bad player id", seating("a7a7a7a7").replace(b'"mai-4f"', b'"../seat/x"')),
    ("a control character in a name", seating("b8b8b8b8").replace(b'"Mai"', b'"M\\u0007i"')),
    ("options not an object", seating("c9c9c9c9").replace(b'"options":{}', b'"options":[]')),
    ("a bad seating id", seating("c9c9c9c9").replace(b'"c9c9c9c9"', b'"ZZ; rm"')),
]


def test_a_hostile_seating_changes_nothing_and_the_table_runs_on(tmp_path: Path) -> None:
    with bridged(tmp_path / "t3.sqlite3", TABLE, PASSWORD) as (hall, t):
        before = t.table.views.public
        for what, payload in HOSTILE:
            publish(hall, payload)  # each retained, replacing the last
            kind, detail = heard(t.hall.seating)
            assert kind == "bad", what
            assert "x" * 20 not in detail and "ZZ;" not in detail  # says what is wrong, never echoes it
            assert t.referee.game_id == 1 and t.table.views.public == before, what
        assert t.phones.mirror.alive() and t.thread.is_alive()
        publish(hall, seating("d0d0d0d0"))  # the table still takes a good one
        assert heard(t.hall.seating) == ("applied", "d0d0d0d0")
        assert t.referee.game_id == 2


def test_a_seating_the_table_cannot_start_is_refused_once(tmp_path: Path) -> None:
    with bridged(tmp_path / "t3.sqlite3", TABLE, PASSWORD) as (hall, t):
        unknown: dict[str, Any] = json.loads(seating("e1e1e1e1"))
        unknown["game"] = "chess"  # a game id this table does not have
        publish(hall, json.dumps(unknown).encode())
        assert heard(t.hall.seating) == ("refused", "e1e1e1e1")
        assert t.referee.game_id == 1
        kept = t.referee.log.setting("hall.seatings_applied")  # not tried again, also after a restart
        assert kept is not None and "e1e1e1e1" in json.loads(kept)
