"""The scripted complete Jailbreak games in docs/games/jailbreak/ (two 5-player games, one won each way,
and an 8-player game), replayed by the real script runner on a SQLite log (what `companion replay`
does); the result is checked against the script's header and recomputed from the final table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import i18n
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.games.jailbreak import data
from companion.scripting import parse, run
from tests.kits.jailbreak_table import GAME

DOCS = Path(__file__).resolve().parents[3] / "docs" / "games" / "jailbreak"
SCRIPTS = sorted(DOCS.glob("jailbreak-*.jsonl"))


def header(path: Path) -> dict[str, object]:
    line = next(x for x in path.read_text(encoding="utf-8").splitlines() if x.startswith("# Result: "))
    result: dict[str, object] = json.loads(line.split(": ", 1)[1])
    return result


def replay(path: Path, tmp_path: Path) -> Referee:
    return run(registry(), EventLog(tmp_path / "log.sqlite3"), path.read_text(encoding="utf-8").splitlines())


def test_there_is_a_five_player_game_for_each_win() -> None:
    assert [p.name for p in SCRIPTS] == ["jailbreak-5p-by-hand.jsonl", "jailbreak-5p-deck.jsonl",
                                         "jailbreak-5p-escape.jsonl", "jailbreak-8p-escape.jsonl"]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_the_script_replays_to_its_result(script: Path, tmp_path: Path) -> None:
    ref = replay(script, tmp_path)
    public = ref.view("public")
    result = public["result"]
    assert public["ended"] is True and result == header(script)
    state = ref.state
    sheriffs = [p for p in state["order"] if state["roles"][p] == "sheriff"]
    prisoners = [p for p in state["order"] if state["roles"][p] == "prisoner"]
    if result["winner"] == "prisoners":  # J3.1: a prisoner's key in scene 6
        escaped = result["escaped"]
        assert escaped in prisoners and state["people"][escaped]["scene"] == data.SCENES
        assert state["announcements"][-1] == {"at": state["announcements"][-1]["at"], "msg": "jailbreak.escaped",
                                              "params": {"player": escaped}}
        assert result["ranking"] == [prisoners, sheriffs]
    else:  # J3.2: the deck had to be drawn from and was empty
        assert state["deck"] == 0 and state["drawn"] == data.deck().size
        assert result["ranking"] == [sheriffs, prisoners]
    # a restart replays the log to the same state
    assert Referee(registry(), EventLog(tmp_path / "log.sqlite3"), ref.game_id).state == state


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_turns_went_counter_clockwise_and_every_hand_was_down_to_five(script: Path) -> None:
    """J1.4 and J2.1: each turn passes to the previous seat (counter-clockwise), passing over exactly the
    players whose flipped characters were announced as skipping; the hand left is at most 5."""
    setup_obj, steps = parse(script.read_text(encoding="utf-8").splitlines())
    state = initial(GAME, setup_from_json(setup_obj))
    order = state["order"]
    assert state["turn"]["player"] == setup_obj["options"]["sheriffs"][0]  # J1.4
    changes = 0
    for _, s in steps:
        assert isinstance(s, Input)
        before = state
        state = step(GAME, state, s)
        if state["turn"]["number"] == before["turn"]["number"] or state["ended"]:
            continue
        owner = before["turn"]["player"]
        again = data.DRAW if state["turn"]["player"] == owner else 0  # everyone else skipped: drew again
        assert state["people"][owner]["hand"] <= data.HAND_LIMIT + again
        fresh = state["announcements"][-(state["announced"] - before["announced"]):]
        skipped = [a["params"]["player"] for a in fresh if a["msg"] == "jailbreak.turn_skipped"]
        ccw = [order[(order.index(owner) - k) % len(order)] for k in range(1, len(order) + 1)]
        assert ccw[: len(skipped)] == skipped
        assert state["turn"]["player"] == ccw[len(skipped)]
        changes += 1
    assert changes > len(order)


def test_the_deck_game_used_the_handcuffs() -> None:
    text = (DOCS / "jailbreak-5p-deck.jsonl").read_text(encoding="utf-8")
    assert '"move": "cuffs.place"' in text


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_what_the_screen_says_is_filled_in_every_language(tmp_path: Path, lang: str) -> None:
    ref = replay(DOCS / "jailbreak-5p-deck.jsonl", tmp_path)
    texts = [i18n.describe(lang, a) for a in ref.view("public")["announcements"]]
    assert texts and all("{" not in t and "jailbreak." not in t and "kind." not in t for t in texts), texts


def test_the_game_written_by_hand_ends_as_counted_by_hand(tmp_path: Path) -> None:
    """docs/games/jailbreak/jailbreak-5p-by-hand.jsonl: every figure worked out from the text in its comments."""
    ref = replay(DOCS / "jailbreak-5p-by-hand.jsonl", tmp_path)
    table = ref.view("public")["table"]
    assert ref.view("public")["result"] == {"winner": "prisoners", "reason": "escape", "escaped": "chai",
                                            "ranking": [["ben", "chai", "eli"], ["ana", "dao"]]}
    # 18 turns drew 2 each (eli's skipped turn drew nothing): 100 - 20 dealt - 36
    assert table["deck"] == 44 and table["drawn"] == 56
    people = table["people"]
    assert {p: (q["scene"], q["hand"]) for p, q in people.items()} == {
        "ana": (3, 5), "ben": (1, 5), "chai": (6, 4), "dao": (2, 5), "eli": (1, 5)}
    assert table["badge_used"] is True and not any(q["flipped"] for q in people.values())
    said = [a["msg"] for a in ref.state["announcements"]]  # the last 50 kept in the state
    assert said.count("jailbreak.turn_skipped") == 1 and said[-1] == "jailbreak.escaped"
