"""Rounds (issue 29, companion/hall/league/rounds.py): only a round's seated games are scored, casual
games kept apart; pods within the organiser's sizes with byes for the rest, given to those with the
fewest byes, then the lowest rated; the seat order drawn from the seating's seed, not by rating."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.hall.league.rounds import byes, byes_taken, seat_order, seatable, split


def chairs(*ids: str) -> list[dict[str, str]]:
    return [{"id": pid, "name": pid.upper()} for pid in ids]


SEATING = {"seating": "a1a1a1a1", "round": 1, "game": "toolkit",
           "tables": {"t1": chairs("a", "b", "c"), "t2": chairs("d", "e", "f")}}


def result(table: str, number: int, players: tuple[str, ...], seating: str | None = "a1a1a1a1",
           game: str = "toolkit") -> dict[str, Any]:
    return {"table": table, "key": f"{number:08x}", "number": number, "game": game, "players": chairs(*players),
            "ranking": [[pid] for pid in players], "points": None, "stopped": False, "finished_ms": 0,
            "seating": seating, "round": None if seating is None else 1}


def test_only_the_game_a_round_seated_at_a_table_is_scored() -> None:
    seated_t1 = result("t1", 1, ("a", "b", "c"))
    again_t1 = result("t1", 2, ("a", "b", "c"))  # a second result for one seating: "Play again" sent it
    casual = result("t1", 3, ("a", "b", "c"), seating=None)  # seated by hand between rounds
    other_players = result("t2", 1, ("d", "e", "x"))
    other_table = result("t3", 1, ("d", "e", "f"))
    other_game = result("t2", 2, ("d", "e", "f"), game="lab_escape")
    unknown = result("t2", 3, ("d", "e", "f"), seating="ffffffff")
    seated_t2 = result("t2", 4, ("f", "e", "d"))
    everything = [seated_t1, again_t1, casual, other_players, other_table, other_game, unknown, seated_t2]
    scored, kept_apart = split(everything, [SEATING])
    assert scored == [seated_t1, seated_t2]
    assert kept_apart == [again_t1, casual, other_players, other_table, other_game, unknown]
    assert split(everything, [SEATING], every_game=True) == (everything, [])


def test_a_result_is_checked_against_its_tables_game() -> None:
    """A round of two games (Lockdown at t1, Room 25 at t2): each table's result counts for its own game
    only; a table sending the other game's result for its seating is casual."""
    mixed = {**SEATING, "game": "lockdown", "games": {"t1": "lockdown", "t2": "room25"}}
    lockdown_t1 = result("t1", 1, ("a", "b", "c"), game="lockdown")
    room25_t2 = result("t2", 1, ("d", "e", "f"), game="room25")
    wrong_t1 = result("t1", 2, ("a", "b", "c"), game="room25")
    wrong_t2 = result("t2", 2, ("d", "e", "f"), game="lockdown")
    scored, casual = split([wrong_t1, wrong_t2, lockdown_t1, room25_t2], [mixed])
    assert scored == [lockdown_t1, room25_t2] and casual == [wrong_t1, wrong_t2]
    old = {**SEATING, "game": "lockdown"}  # a seating saved before `games`: every table plays its `game`
    assert split([lockdown_t1, room25_t2], [old]) == ([lockdown_t1], [room25_t2])


def test_pods_within_the_organisers_sizes_seat_the_most_players() -> None:
    assert seatable(13, 4, 4, 4) == [4, 4, 4]  # pods of 4 only: one bye
    assert seatable(13, 4, 3, 5) == [5, 4, 4]  # 3-5 pods: everyone plays
    assert seatable(13, 2, 3, 5) == [5, 5]  # two tables: three byes
    assert seatable(7, 3, 3, 4) == [4, 3]
    assert seatable(2, 3, 3, 5) == []


@given(st.integers(0, 60), st.integers(1, 12), st.integers(1, 6), st.integers(0, 4))
def test_pods_are_always_within_the_sizes_and_the_tables(count: int, tables: int, low: int, spread: int) -> None:
    high = low + spread
    sizes = seatable(count, tables, low, high)
    assert len(sizes) <= tables and all(low <= s <= high for s in sizes) and sum(sizes) <= count
    fits = [m for m in range(count + 1) if any(p * low <= m <= p * high for p in range(1, tables + 1))]
    assert sum(sizes) == (max(fits) if fits else 0)  # as many as can be seated are


def test_byes_go_to_the_fewest_byes_then_the_lowest_rated() -> None:
    present = ["a", "b", "c", "d", "e"]
    rating = {"a": 5.0, "b": -1.0, "c": 3.0, "d": -2.0, "e": 0.0}
    assert byes(present, 2, {}, rating, "s") == ["d", "b"]
    assert byes(present, 2, {"d": 1}, rating, "s") == ["b", "e"]  # d sat out already
    assert byes(present, 0, {}, rating, "s") == []
    taken = byes_taken([{"byes": chairs("d")}, {"byes": chairs("d", "b")}])
    assert taken == {"d": 2, "b": 1}
    tied = byes(present, 1, {}, {}, "seed-1")  # all equal: drawn by the seed, the same every time
    assert tied == byes(list(reversed(present)), 1, {}, {}, "seed-1")


@given(st.lists(st.text("abcdefgh", min_size=1, max_size=4), min_size=1, max_size=6, unique=True),
       st.text(min_size=1, max_size=10))
def test_seat_order_is_a_seeded_draw_of_the_pod(group: list[str], seed: str) -> None:
    order = seat_order(group, seed)
    assert sorted(order) == sorted(group)
    assert order == seat_order(list(reversed(group)), seed)  # the pod, not the order it came in


def test_the_leader_does_not_always_move_first() -> None:
    firsts = {seat_order(["leader", "second", "third", "fourth"], f"{n:08x}")[0] for n in range(40)}
    assert firsts == {"leader", "second", "third", "fourth"}
