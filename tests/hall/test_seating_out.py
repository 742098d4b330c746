"""Seating the next round: the organiser picks a game and the players present; the hall groups them within
the game's player count (its contract) and each table receives its seat list, retained, even a table
that connects afterwards. A seating that cannot be made says why in the organiser's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import i18n
from companion.games import registry
from companion.hall import protocol
from companion.hall.seating_out import SeatingError, opponents_met
from tests.kits.hall_running import running_hall, table_of, until

NAMES = ["Ana", "Ben", "Chai", "Dao", "Ekk", "Fon", "Gus"]


def test_each_table_receives_its_seat_list_and_the_hall_shows_the_seating(tmp_path: Path) -> None:
    with running_hall(tmp_path, tables=("t1", "t2", "t3")) as run:
        ids = [run.hall.actions.add_player(name) for name in NAMES]
        t1 = run.table("t1")
        t1.subscribe(protocol.seating_topic("companion", "t1"))
        seating = run.hall.actions.send_seating("lab_escape", ids, ["t1", "t2", "t3"])
        game = registry()["lab_escape"]
        groups = seating["tables"]
        assert all(game.min_players <= len(g) <= game.max_players for g in groups.values())
        assert sorted(p["id"] for g in groups.values() for p in g) == sorted(ids)  # everyone, once
        assert len(groups) == 2 and set(groups) <= {"t1", "t2", "t3"}
        got = protocol.parse_seating(t1.wait_for(lambda m: m.topic.endswith("/hall/seating")).payload)
        assert (got["seating"], got["round"], got["game"], got["players"]) == (
            seating["seating"], 1, "lab_escape", groups["t1"])
        # a table that connects later still finds its list (retained on the central broker)
        t2 = run.table("t2")
        t2.subscribe(protocol.seating_topic("companion", "t2"))
        late = t2.wait_for(lambda m: m.topic.endswith("/hall/seating"))
        assert protocol.parse_seating(late.payload)["players"] == groups["t2"]
        if not late.retain:  # it subscribed before the hall's publish reached the broker: it came live
            t2.close()
            t2 = run.table("t2")
            t2.subscribe(protocol.seating_topic("companion", "t2"))
            late = t2.wait_for(lambda m: m.topic.endswith("/hall/seating"))
        assert late.retain and protocol.parse_seating(late.payload)["players"] == groups["t2"]
        shown = until(run.hall.model, lambda s: s["seating"] is not None)["seating"]
        assert {k: shown[k] for k in ("seating", "round", "game", "tables")} == {
            "seating": seating["seating"], "round": 1, "game": "lab_escape", "tables": groups}
        assert (shown["byes"], shown["minutes"]) == ([], None)
        assert run.store.last_seating() == seating
        again = run.hall.actions.send_seating("lab_escape", ids, ["t1", "t2", "t3"])
        assert again["round"] == 2 and again["seating"] != seating["seating"]
        assert table_of(run.hall.model.snapshot(), "t1")["status"] == "unknown"


@pytest.mark.parametrize("case", ["unknown_game", "unknown_player", "unknown_table", "too_few_tables",
                                  "too_few_players"])
def test_a_seating_that_cannot_be_made_says_why_and_sends_nothing(tmp_path: Path, case: str) -> None:
    with running_hall(tmp_path) as run:
        ids = [run.hall.actions.add_player(name) for name in NAMES]
        asked = {"unknown_game": ("chess", ids, ["t1", "t2"]), "unknown_player": ("lab_escape", ["nobody"], ["t1"]),
                 "unknown_table": ("lab_escape", ids, ["t1", "t9"]), "too_few_tables": ("lab_escape", ids, ["t1"]),
                 "too_few_players": ("betrayal", ids[:2], ["t1"])}[case]
        with pytest.raises(SeatingError) as err:
            run.hall.actions.send_seating(*asked)
        assert err.value.code == f"hall.seating.{case}"
        for lang in i18n.LANGUAGES:
            text = i18n.describe(lang, err.value.to_json())
            assert text != err.value.code and "{" not in text
        assert run.store.last_seating() is None and run.hall.model.snapshot()["seating"] is None


@pytest.mark.parametrize("case", ["bad_pods", "bad_minutes"])
def test_a_round_the_organiser_cannot_have_says_why(tmp_path: Path, case: str) -> None:
    with running_hall(tmp_path) as run:
        ids = [run.hall.actions.add_player(name) for name in NAMES]
        asked = {"bad_pods": {"pods": (1, 9)}, "bad_minutes": {"minutes": 0}}[case]
        with pytest.raises(SeatingError) as err:
            run.hall.actions.send_seating("lab_escape", ids, ["t1", "t2"], **asked)  # type: ignore[arg-type]
        assert err.value.code == f"hall.seating.{case}"
        for lang in i18n.LANGUAGES:
            text = i18n.describe(lang, err.value.to_json())
            assert text != err.value.code and "{" not in text
        assert run.store.last_seating() is None


def test_opponents_met_are_every_pair_at_one_game() -> None:
    results = [{"players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}]},
               {"players": [{"id": "a", "name": "A"}, {"id": "d", "name": "D"}]}]
    assert opponents_met(results) == {frozenset(p) for p in (("a", "b"), ("a", "c"), ("b", "c"), ("a", "d"))}


def test_a_draw_seed_gives_the_same_night_again(tmp_path: Path) -> None:
    """The same seed, players and rounds: the same ids, pods, byes and seat orders (only the seatings'
    keys differ: a table applies each key once); another seed draws otherwise."""
    def night(where: Path, seed: str) -> tuple[list[str], list[tuple[object, ...]]]:
        where.mkdir()
        with running_hall(where, tables=("t1", "t2"), draw_seed=seed) as run:
            ids = [run.hall.actions.add_player(name) for name in NAMES]
            rounds = [run.hall.actions.send_seating("lab_escape", ids, ["t1", "t2"], pods=(3, 3), byes=True)
                      for _ in range(3)]
            return ids, [(s["tables"], s["byes"]) for s in rounds]
    first, again, other = night(tmp_path / "a", "club"), night(tmp_path / "b", "club"), night(tmp_path / "c", "x")
    assert first == again
    assert other != first


def test_a_round_of_two_games_sends_each_table_its_own(tmp_path: Path) -> None:
    """Lockdown at t1, Room 25 at t2: each table's seat list names its game, the pods fit both games."""
    with running_hall(tmp_path, tables=("t1", "t2")) as run:
        ids = [run.hall.actions.add_player(name) for name in NAMES]
        t2 = run.table("t2")
        t2.subscribe(protocol.seating_topic("companion", "t2"))
        seating = run.hall.actions.send_seating("lockdown", ids, ["t1", "t2"], table_games={"t2": "room25"})
        assert seating["games"] == {"t1": "lockdown", "t2": "room25"}
        assert sorted(len(c) for c in seating["tables"].values()) == [3, 4]  # Room 25 takes 1-6, Lockdown 2-9
        got = protocol.parse_seating(t2.wait_for(lambda m: m.topic.endswith("/hall/seating")).payload)
        assert (got["game"], got["players"]) == ("room25", seating["tables"]["t2"])
        with pytest.raises(SeatingError) as refused:
            run.hall.actions.send_seating("lockdown", ids, ["t1", "t2"], pods=(2, 9), table_games={"t2": "room25"})
        assert refused.value.params == {"low": 2, "high": 9, "game_low": 2, "game_high": 6}
