"""The scripted Betrayal game in docs/games/betrayal/, replayed by the real script runner on a SQLite
log (what `companion replay` does), with its result and the steps that led there checked."""

from __future__ import annotations

from pathlib import Path

from tests.kits.scripted_games import assert_each_restarts_to_the_same_end, docs, replay, said

DOCS = docs("betrayal")


def test_the_four_player_game_reaches_haunt_2_and_the_traitor_wins(tmp_path: Path) -> None:
    ref = replay(DOCS / "haunt-4.jsonl", tmp_path)
    public = ref.view("public")
    assert public["ended"] is True
    assert public["result"] == {"ranking": [["dao"], ["ana", "ben", "chai"]], "winner": "traitor", "winners": ["dao"]}
    table = public["table"]
    assert table["haunt"] == {"number": 2, "revealer": "dao", "traitor": "dao", "omen": "lantern", "room": "attic",
                              "rule": "revealer", "title": "kind.betrayal.haunt.2"}
    assert table["moment"]["dice"] == [0, 1, 0, 0, 0, 0] and table["moment"]["omens"] == 2  # B3.1: 1 < 2
    events = said(ref)
    assert ("betrayal.haunt_roll", {"player": "chai", "dice": [2, 1, 1, 0, 1, 2], "total": 7, "omens": 1}) in events
    assert ("betrayal.card_stolen", {"player": "ben", "card": "kind.betrayal.card.lantern", "loser": "dao"}) in events
    ben = table["explorers"]["ben"]
    assert ben["alive"] is False and ben["traits"]["speed"]["skull"] is True and ben["cards"] == []
    assert table["rooms"]["attic"]["pile"] == ["lantern"]  # B4.3: Ben's cards where he died
    assert table["monsters"]["hollow3"]["room"] == "front_hall"
    assert table["monsters"]["hollow1"]["stunned"] is False  # skipped the monsters' turn, then recovered (B5.1)
    assert [m for m, _ in events].count("betrayal.monster_recovered") == 1
    assert ref.view("player:dao")["private"]["side"] == "traitor"
    assert ref.view("player:ana")["private"]["goals"]["en"].startswith("Find the iron key")


def test_the_three_player_game_with_no_traitor_ends_with_the_heroes_winning(tmp_path: Path) -> None:
    ref = replay(DOCS / "no-traitor-3.jsonl", tmp_path)
    public = ref.view("public")
    assert public["result"] == {"ranking": [["ana", "ben", "chai"]], "winner": "heroes",
                                "winners": ["ana", "ben", "chai"]}
    table = public["table"]
    assert {p: e["character"] for p, e in table["explorers"].items()} == {"ana": "noor", "ben": "ivy", "chai": "soren"}
    assert (table["haunt"]["number"], table["haunt"]["traitor"], table["haunt"]["revealer"]) == (6, None, "chai")
    events = [m for m, _ in said(ref)]
    expired = events.index("betrayal.timer_expired")
    assert events[expired - 1] == "betrayal.timer_warning" and said(ref)[expired + 1] == ("betrayal.turn",
                                                                                          {"player": "chai"})
    assert table["explorers"]["chai"]["alive"] is False and table["monsters"]["flood1"]["room"] == "well_room"
    assert "balcony" in table["rooms"]
    assert ref.view("player:ana")["private"]["goals"]["en"].startswith("Everyone for themselves")


def test_each_scripted_game_restarts_to_the_same_end(tmp_path: Path) -> None:
    assert_each_restarts_to_the_same_end(DOCS, ("haunt-4.jsonl", "no-traitor-3.jsonl"), tmp_path)
