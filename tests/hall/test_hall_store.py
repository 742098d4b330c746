"""The hall's SQLite file (docs/hall-league.md): table passwords, each result once in arrival order, league ids a
person can read off a card, seatings; everything still there after the hall restarts."""

from __future__ import annotations

import sqlite3
import stat
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.identity import SEAT_ID
from companion.hall.league.standings import standings
from companion.hall.protocol import HALL_USER, PLAYER_ID
from companion.hall.store import CODE_ALPHABET, HallStore
from tests.kits.league_results import result


def test_each_table_gets_its_own_password_and_keeps_it(tmp_path: Path) -> None:
    store = HallStore(tmp_path / "hall.sqlite3")
    one, two = store.add_table("t1"), store.add_table("t2")
    for password in (one, two):
        assert len(password) >= 24 and password.isascii() and password.isalnum()
    assert one != two
    assert store.add_table("t1") == one  # adding it again changes nothing
    assert store.table_passwords() == {"t1": one, "t2": two}
    for bad in ("", "T1", "t 1", "t1/#", "x" * 33, HALL_USER):
        with pytest.raises(ValueError, match="table id"):
            store.add_table(bad)
    assert store.table_passwords() == {"t1": one, "t2": two}


def test_the_file_is_private_in_wal_and_synced_fully(tmp_path: Path) -> None:
    path = tmp_path / "hall.sqlite3"
    store = HallStore(path)
    store.add_table("t1")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds the tables' passwords
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    other = sqlite3.connect(path)
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other.close()


def test_a_result_is_kept_once_and_results_come_back_in_arrival_order(tmp_path: Path) -> None:
    store = HallStore(tmp_path / "hall.sqlite3")
    late = result("t9", 7, "toolkit", [["ana"], ["ben"]])
    early = result("t1", 1, "room25", [["ben"], ["ana"]])
    assert store.add_result(late) is True
    assert store.add_result(early) is True
    assert store.add_result(late) is False  # the bridge delivered it again
    assert store.add_result({**late, "ranking": [["ben"], ["ana"]]}) is False  # same key: the first copy stays
    assert store.results() == [late, early]
    with pytest.raises(ValueError, match="table id and key"):
        store.add_result({**late, "key": "not hex"})


def test_a_league_id_is_the_name_and_a_short_code(tmp_path: Path) -> None:
    store = HallStore(tmp_path / "hall.sqlite3")
    mai, mai_too = store.add_player("Mai"), store.add_player(" Mai ")
    thai, chinese = store.add_player("สมชาย"), store.add_player("李雷")
    accented = store.add_player("José Núñez")
    for pid, head in ((mai, "mai"), (mai_too, "mai"), (thai, "p"), (chinese, "p"), (accented, "jose-nunez")):
        assert PLAYER_ID.match(pid)
        name, code = pid.rsplit("-", 1)
        assert name == head and set(code) <= set(CODE_ALPHABET) and 2 <= len(code) <= 3
    assert mai != mai_too
    assert store.players() == [{"id": mai, "name": "Mai"}, {"id": mai_too, "name": "Mai"},
                               {"id": thai, "name": "สมชาย"}, {"id": chinese, "name": "李雷"},
                               {"id": accented, "name": "José Núñez"}]
    assert not set(CODE_ALPHABET) & set("0o1il")  # nothing to misread on a printed card
    long = store.add_player("Maria-Fernanda de los Santos Oliveira")
    # an id a table takes (16 characters, companion/core/identity.py): whole words while they fit, an initial
    assert SEAT_ID.fullmatch(long) and long.rsplit("-", 1)[0] == "maria-f"
    for bad in ("", "   ", "x" * 65, "tab\there"):
        with pytest.raises(ValueError, match="name"):
            store.add_player(bad)
    assert len(store.players()) == 6


def test_every_code_is_unique_in_the_league_and_grows_a_letter_when_half_are_taken(tmp_path: Path) -> None:
    store = HallStore(tmp_path / "hall.sqlite3")
    half = len(CODE_ALPHABET) ** 2 // 2
    ids = [store.add_player("Mai") for _ in range(half + 5)]
    codes = [pid.rsplit("-", 1)[1] for pid in ids]
    assert len(set(codes)) == len(codes)
    assert [len(c) for c in codes] == [2] * half + [3] * 5
    assert all(PLAYER_ID.match(pid) for pid in ids)


def test_the_last_seating_is_the_one_handed_out_last(tmp_path: Path) -> None:
    store = HallStore(tmp_path / "hall.sqlite3")
    assert store.last_seating() is None
    store.save_seating({"round": 1, "game": "toolkit", "tables": {"t1": [{"id": "mai-4f", "name": "Mai"}]}})
    store.save_seating({"round": 2, "game": "lockdown", "tables": {"t2": [{"id": "mai-4f", "name": "Mai"}]}})
    assert store.last_seating() == {"round": 2, "game": "lockdown",
                                    "tables": {"t2": [{"id": "mai-4f", "name": "Mai"}]}}


# -- properties -------------------------------------------------------------------------------------------

ROSTER_NAMES = ["Ana", "Ben", "ชัย", "李雷"]


@st.composite
def evenings(draw: st.DrawFn) -> list[tuple[str, int, list[list[int]], bool, bool]]:
    """Games as (table, number, ranking of seat indexes 0-4 (4 = a guest), stopped, own points)."""
    games = []
    for _ in range(draw(st.integers(min_value=0, max_value=8))):
        table = draw(st.sampled_from(["t1", "t2", "t3"]))
        number = draw(st.integers(min_value=1, max_value=4))  # the same game twice: a duplicate
        order = draw(st.permutations(range(5)))[:draw(st.integers(min_value=2, max_value=5))]
        cuts = draw(st.lists(st.booleans(), min_size=len(order) - 1, max_size=len(order) - 1))
        ranking = [[order[0]]]
        for seat, tie in zip(order[1:], cuts, strict=True):
            if tie:
                ranking[-1].append(seat)
            else:
                ranking.append([seat])
        games.append((table, number, ranking, draw(st.booleans()), draw(st.booleans())))
    return games


def played(ids: list[str], game: tuple[str, int, list[list[int]], bool, bool]) -> dict[str, Any]:
    table, number, ranking, stopped, own = game
    named = [[ids[i] for i in group] for group in ranking]
    everyone = [pid for group in named for pid in group]
    if stopped:
        return result(table, number, "lockdown", [], points={}, stopped=True, players=everyone)
    points = {pid: 9 - i for i, pid in enumerate(everyone)} if own else None
    return result(table, number, "lockdown" if own else "toolkit", named, points=points)


@settings(max_examples=30, deadline=None)
@given(evenings(), st.lists(st.integers(min_value=0, max_value=7), max_size=6))
def test_a_duplicate_result_never_changes_the_standings(games: list, again: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = HallStore(Path(folder) / "hall.sqlite3")
        ids = [store.add_player(name) for name in ROSTER_NAMES] + ["guest"]
        kept: dict[tuple[str, str], dict[str, Any]] = {}
        for game in games:
            r = played(ids, game)
            assert store.add_result(r) is ((r["table"], r["key"]) not in kept)
            kept.setdefault((r["table"], r["key"]), r)
        assert store.results() == list(kept.values())
        before = standings(store.results(), store.players())
        for i in again:
            if games:
                assert store.add_result(played(ids, games[i % len(games)])) is False
        assert standings(store.results(), store.players()) == before
        store.close()


@settings(max_examples=20, deadline=None)
@given(evenings(), st.lists(st.sampled_from(["t1", "t2", "t3", "t4"]), max_size=4),
       st.one_of(st.none(), st.integers(min_value=1, max_value=9)))
def test_reopening_the_file_keeps_everything(games: list, tables: list[str], seating_round: int | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hall.sqlite3"
        store = HallStore(path)
        passwords = {t: store.add_table(t) for t in tables}
        ids = [store.add_player(name) for name in ROSTER_NAMES] + ["guest"]
        for game in games:
            store.add_result(played(ids, game))
        if seating_round is not None:
            store.save_seating({"round": seating_round, "game": "toolkit", "tables": {"t1": [{"id": ids[0]}]}})
        seen = (store.table_passwords(), store.results(), store.players(), store.last_seating())
        store.close()
        again = HallStore(path)
        assert (again.table_passwords(), again.results(), again.players(), again.last_seating()) == seen
        assert again.table_passwords() == passwords
        assert {t: again.add_table(t) for t in tables} == passwords
        again.close()
