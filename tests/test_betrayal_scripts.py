"""The scripted Betrayal game in docs/games/betrayal/, replayed by the real script runner on a SQLite
log (what `companion replay` does), with its result and the steps that led there checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.scripting import run

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games" / "betrayal"


def replay(name: str, tmp_path: Path) -> Referee:
    text = (DOCS / name).read_text(encoding="utf-8").splitlines()
    return run(registry(), EventLog(tmp_path / "log.sqlite3"), text)


def said(ref: Referee) -> list[tuple[str, dict[str, Any]]]:
    return [(a["msg"], a["params"]) for a in ref.state["announcements"]]


def test_the_four_player_game_reaches_haunt_2_and_the_traitor_wins(tmp_path: Path) -> None:
    ref = replay("haunt-4.jsonl", tmp_path)
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


def test_the_scripted_game_restarts_to_the_same_end(tmp_path: Path) -> None:
    ref = replay("haunt-4.jsonl", tmp_path)
    again = Referee.resume(registry(), EventLog(tmp_path / "log.sqlite3"))
    assert again is not None and again.view("public") == ref.view("public")
