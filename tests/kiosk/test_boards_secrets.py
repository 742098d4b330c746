"""Secrets stay off the boards: two games that differ only in secrets draw the same play screen (pixels
and words) at every step, and a booth shows its own player's secret lines and no one else's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk import board_scenes as scenes
from tests.kits.board_checks import booths_show_own_lines, own_lines, private_of, same_screen_every_step
from tests.kits.kiosk_fixtures import surface, text, text_cache

__all__ = ["text", "text_cache"]


def _edit(line: str, **changes: Any) -> str:
    obj = json.loads(line)
    for key, value in changes.items():
        if key == "seed":
            obj["seed"] = value
        else:
            obj["args"][key] = value
    return json.dumps(obj)


def room25_evenings() -> tuple[list[str], list[str]]:
    """Suspicion for five up to everyone's first plan: another seed (another deal of the 23 hidden rooms
    and of the role cards) and other second actions; everyone's first action (revealed) is the same."""
    a = scenes.part_way(scenes.script_lines("room25/suspicion-5.jsonl"), 6)
    b = [_edit(a[0], seed=99), a[1]]
    second = {"ana": "control", "ben": "push", "chai": "look", "dao": "control", "eli": "push"}
    for line in a[2:]:
        who = json.loads(line)["by"].removeprefix("player:")
        b.append(_edit(line, actions=["move", second[who]]))
    return a, b


def lockdown_evenings() -> tuple[list[str], list[str]]:
    """Two players into round 1 up to Ben's vote: other genes (force, speed, load), other poison votes,
    and Ben starts in another room and walks to another one (positions are secret)."""
    a = scenes.part_way(scenes.script_lines("lockdown/lockdown-2p.jsonl"), 9)
    b = list(a)
    genes = {"ana": {"force": 1, "speed": 4, "load": 5}, "ben": {"force": 2, "speed": 5, "load": 3}}
    votes = {"ana": "B6", "ben": "A2"}
    for i, line in enumerate(a[1:], start=1):
        obj = json.loads(line)
        who = obj["by"].removeprefix("player:")
        if obj["move"] == "lockdown.prepare":
            b[i] = _edit(line, **genes[who], **({"spawn": "B705"} if who == "ben" else {}))
        elif obj["move"] == "lockdown.move" and who == "ben":
            b[i] = _edit(line, path=["B704", "B703"])  # ends in B703, not B705
        elif obj["move"] == "lockdown.vote":
            b[i] = _edit(line, floor=votes[who])
    assert b != a
    return a, b


@pytest.mark.parametrize("game", ["room25", "lockdown"])
def test_a_board_is_the_same_whatever_the_secrets(game: str, text: TextCache) -> None:
    a, b = room25_evenings() if game == "room25" else lockdown_evenings()
    secrets = same_screen_every_step(a, b, text, private_of)
    differing_steps = sum(secrets_a != secrets_b for secrets_a, secrets_b in secrets)
    assert differing_steps >= len(a) - 2, "the two evenings should differ in secrets nearly all along"


@pytest.mark.parametrize("moment", ["room25", "lockdown"])
def test_a_booth_shows_its_players_lines_and_no_one_elses(moment: str, text: TextCache) -> None:
    scene = scenes.moment_scene(surface("800x480"), text, "en", moment)
    try:
        lines = own_lines(scene, "en")
        for pid in lines:
            assert lines[pid], f"{pid} has no secret lines"
        booths = booths_show_own_lines(scene, lines, text)
        assert booths.others_checked >= len(lines), "the players' secrets should differ"
    finally:
        scene.close()


def test_room25_booth_lines_name_role_plan_and_peeks() -> None:
    private = {"role": "guard", "plan": ["move", "look"], "actions_this_turn": 2,
               "peeks": [{"tile": 3, "room": "acid", "cell": [0, 3]}, {"tile": 24, "room": "exit", "cell": None}]}
    shown = [i18n.translate("zh", m, p) for m, p in registry()["room25"].private_lines(private)]
    assert shown == ["你的身份：看守", "你的行动：1. 移动  2. 窥视", "你看到的房间已不在：出口（25号房间）",
                     "你看到第 1 行第 4 列：酸液房间"]


def test_lockdown_booth_lines_name_hp_room_genes_order_vote_and_cards() -> None:
    private = {"hp": 7, "room": "B505", "spawn": "B201", "items": ["food-7", "knife-2"], "shadow": False,
               "order": 3, "force": 1, "speed": 4, "load": 5, "vote": "B4", "rocket_target": None}
    shown = [i18n.translate("en", m, p) for m, p in registry()["lockdown"].private_lines(private)]
    assert shown == ["Your HP: 7", "You are in room B505", "Force 1 · speed 4 · load 5", "Your order card: 3",
                     "Your poison vote: B4", "Your items (2/5):", "Food", "Knife"]
    shadow = [m for m, _ in registry()["lockdown"].private_lines({**private, "shadow": True, "items": []})]
    assert shadow[0] == "gameboards.lockdown.you_are_shadow" and not any("item" in m for m in shadow)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_board_message_is_translated(lang: str) -> None:
    """Each id the boards and booth lines use (literal or built from a room, role, action or item) is in
    the catalogs of every language, with the English placeholders."""
    from companion.games.lockdown import data as lockdown_data
    from companion.games.room25 import data as room25_data
    from companion.games.room25 import lines as room25
    ids = set(i18n.msgids("en"))
    ours = {i for i in ids if i.startswith("gameboards.")}
    assert ours, "the board catalog is missing"
    assert {f"gameboards.room25.short.{k}" for k in room25_data.all_kinds()} <= ours
    assert {f"lockdown.item.{k}" for k in lockdown_data.items().kinds} <= ids
    assert {f"gameboards.lockdown.phase.{p}" for p in ("setup", "free", "action", "settlement", "over")} <= ours
    assert {f"kind.room25.action.{a}" for a in ("move", "look", "control", "push")} <= ids
    assert {f"kind.room25.role.{r}" for r in room25_data.ROLES} <= ids
    assert ours <= i18n.msgids(lang)
    for msgid in ours:
        en = i18n.placeholders(i18n.translate("en", msgid))
        assert i18n.placeholders(i18n.translate(lang, msgid)) == en, msgid
    assert room25.PEEKS_SHOWN >= 1
