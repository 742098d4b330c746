"""What a view says, as lines (each game's lines.py), for the five games, from their recorded demo games:
every line translated in en/zh/th with no placeholder or internal id left, each player's lines saying
that player's own secrets (HP, role, side's goals, stamina), and a seat's published lines never holding
another seat's secrets: two evenings that differ only in Ben's secrets publish the same view to Ana."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from companion import games, i18n, scripting
from companion.core.eventlog import EventLog
from companion.core.lines import Lines
from companion.core.referee import Referee
from companion.kiosk.board_scenes import script_lines
from companion.table.views import with_lines

GAMES = ["lockdown", "room25", "jailbreak", "betrayal", "lab_escape"]


def replay(lines: list[str]) -> Referee:
    return scripting.run(games.registry(), EventLog(":memory:"), lines)


def checkpoints(lines: list[str], parts: int = 4) -> Iterator[Referee]:
    """The game replayed up to a quarter, half, three quarters and the end of its inputs."""
    for i in range(1, parts + 1):
        yield replay(lines[:1 + (len(lines) - 1) * i // parts])


def demo(game: str) -> list[str]:
    lines = games.demo_script(game)
    assert lines, f"{game} has no recorded demo"
    return lines


def pids(ref: Referee) -> list[str]:
    return [p["id"] for p in ref.state["players"]]


def mine(ref: Referee, pid: str) -> Lines:
    return games.registry()[ref.setup.game].private_lines(ref.view(f"player:{pid}")["private"])


def published(ref: Referee, audience: str) -> dict[str, Any]:
    """What the mirror publishes for `audience` (as JSON goes over the broker)."""
    view = with_lines(ref.view(audience), ref.view("public"))
    return dict(json.loads(json.dumps(view, ensure_ascii=False, sort_keys=True)))


@pytest.mark.parametrize("game", GAMES)
def test_every_line_of_a_recorded_game_reads_in_every_language(game: str) -> None:
    seen = 0
    for ref in checkpoints(demo(game)):
        all_lines = games.registry()[game].public_lines(ref.view("public"))
        for pid in pids(ref):
            all_lines += mine(ref, pid)
        for msgid, params in all_lines:
            for lang in i18n.LANGUAGES:
                assert msgid in i18n.msgids(lang), f"{lang} lacks {msgid}"
                text = i18n.translate_line(lang, msgid, params)
                assert "{" not in text and "kind." not in text and "None" not in text, (lang, msgid, text)
            seen += 1
    assert seen >= 8, f"{game}: too few lines to check"


def test_lockdown_lines_say_each_players_own_hp_room_and_items() -> None:
    for ref in checkpoints(demo("lockdown")):
        for pid in pids(ref):
            private = ref.view(f"player:{pid}")["private"]
            lines = dict(mine(ref, pid))
            assert lines["gameboards.lockdown.your_hp"] == {"hp": private["hp"]}
            assert lines["gameboards.lockdown.your_room"] == {"room": private["room"]}
            texts = [i18n.translate_line("en", m, p) for m, p in mine(ref, pid)]
            assert f"Your HP: {private['hp']}" in texts
            assert len([m for m, _ in mine(ref, pid) if m.startswith("lockdown.item.")]) == len(private["items"])
        shown = {p["id"]: p["hp"] for p in ref.view("public")["table"]["players"]}
        table = games.registry()["lockdown"].public_lines(ref.view("public"))
        assert {p["player"]: p["hp"] for m, p in table if m == "summary.lockdown.hp_shown"} == shown


def test_room25_lines_say_each_players_own_role_and_plan_in_chinese() -> None:
    ref = replay(script_lines("room25/suspicion-5.jsonl")[:1 + 6])
    roles_seen = set()
    for pid in pids(ref):
        private = ref.view(f"player:{pid}")["private"]
        assert private["role"] is not None
        role = i18n.translate("zh", f"kind.room25.role.{private['role']}")
        texts = [i18n.translate_line("zh", m, p) for m, p in mine(ref, pid)]
        assert i18n.translate("zh", "gameboards.room25.your_role", {"role": role}) in texts
        roles_seen.add(private["role"])
    assert len(roles_seen) >= 2, "the deal should give more than one role"


def test_jailbreak_lines_read_back_the_seat_and_what_is_left_this_turn() -> None:
    for ref in checkpoints(demo("jailbreak")):
        for pid in pids(ref):
            private = ref.view(f"player:{pid}")["private"]
            lines = mine(ref, pid)
            assert ("summary.jailbreak.your_role", {"role": f"kind.jailbreak.role.{private['role']}"}) in lines
            assert len([m for m, _ in lines if m == "summary.jailbreak.your_equipment"]) == len(private["equipment"])
            turn = [p for m, p in lines if m == "summary.jailbreak.your_turn"]
            assert turn == ([{"keys": private["keys_left"], "attacks": private["attacks_left"]}]
                            if private["my_turn"] else [])


def test_betrayal_lines_give_each_side_its_own_goals_in_the_readers_language() -> None:
    """B3.3: after the haunt each side is told its own goals, the traitor's differ from the heroes'."""
    ref = replay(demo("betrayal"))
    goals: dict[str, str] = {}
    for pid in pids(ref):
        private = ref.view(f"player:{pid}")["private"]
        assert private["side"] is not None, "the demo should reach the haunt"
        lines = dict(mine(ref, pid))
        assert lines["summary.betrayal.your_side"] == {"side": f"kind.betrayal.side.{private['side']}"}
        for lang in i18n.LANGUAGES:
            text = i18n.translate_line(lang, "summary.betrayal.your_goals", lines["summary.betrayal.your_goals"])
            assert private["goals"][lang] in text
        goals[private["side"]] = private["goals"]["en"]
    assert set(goals) == {"heroes", "traitor"} and goals["heroes"] != goals["traitor"]


def test_lab_escape_lines_read_back_a_players_stamina_and_items() -> None:
    for ref in checkpoints(demo("lab_escape")):
        for pid in pids(ref):
            private = ref.view(f"player:{pid}")["private"]
            lines = mine(ref, pid)
            assert ("summary.lab_escape.your_stamina", {"stamina": private["stamina"]}) in lines
            assert [p["item"] for m, p in lines if m == "summary.lab_escape.item"] == \
                [f"kind.lab_escape.item.{i}" for i in private["items"]]


# -- secrets stay with their seat --------------------------------------------------------------------------


def _edit(line: str, **changes: Any) -> str:
    obj = json.loads(line)
    obj["args"].update(changes)
    return json.dumps(obj)


def lockdown_bens_secrets_differ() -> tuple[list[str], list[str]]:
    """Two players into round 1 up to the poison vote; in the second evening only Ben's secrets differ:
    his genes, his start room, his walk and his vote."""
    a = script_lines("lockdown/lockdown-2p.jsonl")[:1 + 9]
    b = list(a)
    for i, line in enumerate(a[1:], start=1):
        obj = json.loads(line)
        if obj["by"] != "player:ben":
            continue
        if obj["move"] == "lockdown.prepare":
            b[i] = _edit(line, force=2, speed=5, load=3, spawn="B705")
        elif obj["move"] == "lockdown.move":
            b[i] = _edit(line, path=["B704", "B703"])
        elif obj["move"] == "lockdown.vote":
            b[i] = _edit(line, floor="A2")
    assert b != a
    return a, b


def room25_bens_secrets_differ() -> tuple[list[str], list[str]]:
    """Suspicion for five up to everyone's first plan; in the second evening only Ben programs another
    second action (the first is revealed to all)."""
    a = script_lines("room25/suspicion-5.jsonl")[:1 + 6]
    b = list(a)
    for i, line in enumerate(a[1:], start=1):
        obj = json.loads(line)
        if obj["by"] == "player:ben" and "actions" in obj["args"]:
            other = "push" if obj["args"]["actions"][1] != "push" else "control"
            b[i] = _edit(line, actions=[obj["args"]["actions"][0], other])
    assert b != a
    return a, b


@pytest.mark.parametrize("game", ["lockdown", "room25"])
def test_a_seats_published_view_is_the_same_whatever_another_seats_secrets(game: str) -> None:
    a, b = lockdown_bens_secrets_differ() if game == "lockdown" else room25_bens_secrets_differ()
    bens_differ = 0
    for steps in range(1, len(a)):
        ref_a, ref_b = replay(a[:steps + 1]), replay(b[:steps + 1])
        assert published(ref_a, "public") == published(ref_b, "public"), f"step {steps}: public differs"
        for pid in pids(ref_a):
            if pid == "ben":
                bens_differ += published(ref_a, "player:ben")["lines"] != published(ref_b, "player:ben")["lines"]
                continue
            assert published(ref_a, f"player:{pid}") == published(ref_b, f"player:{pid}"), \
                f"step {steps}: {pid}'s view depends on Ben's secrets"
    assert bens_differ >= 1, "Ben's own lines should show his secrets"


def test_no_seats_lines_hold_another_players_secret_lines() -> None:
    """Lockdown part way: each player's published view holds their own secret lines and none of the
    other player's (a line the two share, like an item both carry, is not one player's secret)."""
    ref = replay(demo("lockdown")[:43])
    payload = {pid: json.dumps(published(ref, f"player:{pid}"), ensure_ascii=False, sort_keys=True)
               for pid in pids(ref)}
    lines = {pid: {json.dumps(line, ensure_ascii=False, sort_keys=True) for line in
                   published(ref, f"player:{pid}")["lines"]} for pid in pids(ref)}
    checked = 0
    for pid in pids(ref):
        assert lines[pid] and all(line in payload[pid] for line in lines[pid])  # the check can find a line
        for other in pids(ref):
            if other != pid:
                for line in lines[other] - lines[pid]:
                    assert line not in payload[pid], f"{pid}'s view holds {other}'s {line}"
                    checked += 1
    assert checked >= 4, "the two players' secrets should differ"
    hp = {m["params"]["hp"] for m in published(ref, "player:ana")["lines"] if m["msg"].endswith("your_hp")}
    assert hp == {ref.view("player:ana")["private"]["hp"]}
