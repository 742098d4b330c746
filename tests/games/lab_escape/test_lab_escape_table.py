"""Escape the Lab at the table: tokens, prompts, the public view (everything is public here), the
referee's seeded dice, and the optional turn timer end to end on a real SQLite log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion import i18n
from companion.core import rng
from companion.core.clock import advance
from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.scripting import run
from tests.kits.lab_escape_table import GAME, Table


def test_a_card_token_is_the_card_drawn_or_placed_a_room_token_a_step_adrenaline_its_use() -> None:
    t = Table(deck="physical")
    assert GAME.on_token(t.state, "card", "garden_corridor", "table") == ("card.drawn", {"card": "garden_corridor"})
    t.send("table", "card.drawn", card="garden_corridor").send("table", "card.drawn", card="storage_game_room")
    meaning = GAME.on_token(t.state, "card", "garden_corridor", "player:ana")
    assert meaning == ("card.place", {"card": "garden_corridor"})
    t.send("player:ana", *meaning[:1], **meaning[1])
    assert t.phase == "refill"  # a physical deck: the table turns up the next card
    t.send("table", "card.drawn", card="archive_corridor")
    assert GAME.on_token(t.state, "room", "corridor", "table") == ("step", {"room": "corridor"})
    t.send("table", "step", room="corridor")  # a shared reader taps for whoever's turn it is
    assert t.person("ana")["room"] == "corridor"
    t.seat("ana", items=["adrenaline"])
    assert GAME.on_token(t.state, "item", "adrenaline", "player:ana") == ("item.use", {"item": "adrenaline"})
    assert GAME.on_token(t.state, "item", "wrench", "player:ana") is None
    assert GAME.on_token(t.state, "card", "archive_corridor", "table") is None  # nothing to place mid-move
    assert GAME.on_token(t.state, "sword", "x", "table") is None


def test_only_the_player_whose_turn_it_is_gets_prompts_and_each_prompt_is_accepted() -> None:
    t = Table().lay("garden_corridor", "storage_game_room").show("telegraph_darkroom", "passage_control")
    assert t.prompts("player:ben") == []
    place = t.prompts("player:ana")
    # the card alone, or (issue 31, E1.1) each display card with its place and blocked doors
    assert [p["move"] for p in place] == ["card.place", "card.place", "card.place", "stuck"]
    assert [c["value"] for c in place[0]["fields"][0]["choices"]] == ["telegraph_darkroom", "passage_control"]
    t.me("card.place", card="telegraph_darkroom")
    steps = t.prompts("player:ana")
    assert [p["move"] for p in steps] == ["step", "stuck"]
    assert [c["value"] for c in steps[0]["fields"][0]["choices"]] == ["dining", "garden", "corridor", "storage",
                                                                     "game_room", "telegraph", "darkroom"]
    t.walk("telegraph")  # stamina 1: no paid step is offered, only the end of the move
    assert [p["move"] for p in t.prompts("player:ana")] == ["move.end"]
    t.me("move.end")
    act = t.prompts("player:ana")
    assert [p["move"] for p in act] == ["activate", "turn.end"]
    assert act[0]["params"] == {"room": "kind.lab_escape.room.telegraph"}


def test_the_checks_prompt_asks_for_the_die_with_table_dice_and_not_with_the_referees() -> None:
    for dice, fields in (("table", ["roll"]), ("referee", [])):
        t = Table(dice=dice).lay("garden_corridor").seat("ana", room="garden", stamina=3).stage("act")
        activate = next(p for p in t.prompts("player:ana") if p["move"] == "activate")
        assert [f["name"] for f in activate["fields"]] == fields


def test_the_referee_rolls_from_the_seeded_source_and_refuses_a_die_from_the_table() -> None:
    seed = 918_273_645
    t = Table(dice="referee", seed=seed).lay("garden_corridor").seat("ana", room="garden", stamina=3).stage("act")
    assert t.my_refusal("activate", roll=6) == "reject.lab_escape_roll_not_expected"
    expected = rng.stream(dict(t.state["rng"])).randint(1, 6)
    t.me("activate")
    check = t.public()["last_check"]
    assert check["roll"] == expected and check["total"] == expected + 3
    assert t.items("ana") == (["cat"] if expected >= 4 else [])
    shown = json.dumps([t.public(), GAME.view_player(t.state, "ana"), t.state["announcements"]])
    assert str(seed) not in shown and "rng" not in t.public()  # the seed, the only secret, stays inside


def test_the_public_view_shows_stamina_items_display_deck_turn_and_the_last_check() -> None:
    t = Table().lay("garden_corridor").seat("ana", room="garden", stamina=3, items=["coffee"]).stage("act")
    t.me("activate", roll=3)  # 3 + 1 coffee + 3 = 7
    public = t.public()
    assert public["people"]["ana"] == {"room": "garden", "stamina": 2, "items": ["cat", "coffee"]}
    assert public["turn"] == {"player": "ben", "number": 2, "stage": "place", "steps": 0, "visited": ["hall"],
                              "free_moves": 0, "food_used": False, "hurry": False}
    assert public["last_check"]["target"] == 7 and public["last_check"]["total"] == 7
    assert public["deck_count"] == len(public["deck_left"]) == 5
    assert GAME.view_player(t.state, "ana") == {"room": "garden", "stamina": 2, "items": ["cat", "coffee"],
                                                "your_turn": False}


def test_every_announcement_reads_in_each_language_with_its_words_translated() -> None:
    t = Table().lay("garden_corridor").seat("ana", room="garden", stamina=3, items=["cat"]).stage("act")
    t.me("activate", roll=6)
    for lang in i18n.LANGUAGES:
        for a in t.state["announcements"]:
            text = i18n.describe(lang, a)
            assert "{" not in text and "kind." not in text and "lab_escape." not in text, text


# -- the turn timer, on a real log ------------------------------------------------------------------------------

SETUP = {"game": "lab_escape", "players": [{"id": p, "name": p.title()} for p in ("ana", "ben", "chai")],
         "options": {"dice": "table", "turn_seconds": 60}, "seed": 5}


def play(path: Path, *lines: dict[str, Any]) -> Referee:
    return run(registry(), EventLog(path), [json.dumps(SETUP), *(json.dumps(line) for line in lines)])


def by(who: str, move: str, at: int, **args: Any) -> dict[str, Any]:
    return {"by": who, "move": move, "args": args, "at": at}


def display(ref: Referee) -> str:
    card: str = ref.state["display"][0]
    return card


def test_the_turn_timer_waits_for_the_host_then_warns_and_expires(tmp_path: Path) -> None:
    ref = play(tmp_path / "a.sqlite3", {"clock": 500_000})
    assert ref.view("public")["table"]["timers"]["turn"]["running"] is False
    ref = play(tmp_path / "b.sqlite3", by("host", "timer.start", 1000), {"clock": 61_000})
    said = [(a["at"], a["msg"]) for a in ref.view("public")["announcements"]]
    assert (51_000, "lab_escape.timer_warning") in said and (61_000, "lab_escape.time_up") in said


def test_when_time_is_up_before_the_move_the_player_finishes_the_move_and_the_turn_ends(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    ref = play(path, by("host", "timer.start", 1000), {"clock": 61_000})
    assert ref.state["turn"]["hurry"] is True and ref.view("public")["table"]["turn"]["player"] == "ana"
    card = display(ref)
    for inp in (Input("card.place", "player:ana", {"card": card}, 62_000),
                Input("step", "player:ana", {"room": "dining"}, 63_000),
                Input("move.end", "player:ana", {}, 64_000)):
        assert ref.submit(inp).accepted
    public = ref.view("public")["table"]
    assert public["turn"]["player"] == "ben" and public["turn"]["stage"] == "place"
    assert public["timers"]["turn"]["running"] is True and public["timers"]["turn"]["deadline"] == 64_000 + 60_000


def test_when_time_is_up_after_the_move_the_turn_ends_at_once_and_a_restart_pauses_the_timer(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    ref = play(path, by("host", "timer.start", 1000))
    card = display(ref)
    for inp in (Input("card.place", "player:ana", {"card": card}, 2_000),
                Input("step", "player:ana", {"room": "dining"}, 3_000),
                Input("move.end", "player:ana", {}, 4_000)):
        assert ref.submit(inp).accepted
    assert [o.accepted for o in advance(ref, 61_000)] == [True, True]  # the warning, then the expiry
    assert ref.view("public")["table"]["turn"]["player"] == "ben"
    assert GAME.on_resume(ref.state) == [("timer.pause", {})]
    again = Referee.resume(registry(), EventLog(path))
    assert again is not None and again.view("public") == ref.view("public")


def test_the_timer_stops_when_the_game_is_won() -> None:
    t = Table(turn_seconds=60).send("host", "timer.start")
    t.seat("ana", room="dining", stamina=2, items=["usb_key"]).stage("move")
    assert GAME.deadlines(t.state) != []
    t.walk("hall")
    assert t.public()["winner"] == "ana"
    assert GAME.deadlines(t.state) == [] and t.public()["timers"]["turn"]["running"] is False
