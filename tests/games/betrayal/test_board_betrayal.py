"""Betrayal's board on the play screen (companion/games/betrayal/picture.py), as the table would check it:
its demo moments readable in en, zh and th at 800x480 and 1920x1080 (the house by floor, the omen
count, every explorer named, the haunt's steps one after another, the traitor named only once the roll
has revealed the haunt: B3.1, B3.2); the same pixels for two evenings that differ only in secrets (the
sides' goals, B3.3); any public view drawn inside its rectangle with every glyph; and a
player's booth with their own lines and no one else's."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.drawing.text import Drawn, TextCache
from companion.games.betrayal import data as betrayal_data
from companion.kiosk import board_scenes as scenes
from companion.kiosk.layout import Layout
from companion.kiosk.scenes import Scene
from tests.kits import board_checks as checks
from tests.kits.kiosk_fixtures import SIZES, shots_dir, surface, text, text_cache
from tests.kits.layout_check import MIN_TEXT

__all__ = ["shots_dir", "text", "text_cache"]
SCRIPT = scenes.moments()["betrayal"][0]  # haunt-4.jsonl: Dao's roll reveals haunt 2, Dao the traitor
HAUNT_STEP = scenes.moments()["betrayal"][1]
FLOORS = ("upper", "ground", "basement")


def tr(lang: str, msgid: str, **params: Any) -> str:
    return i18n.translate(lang, msgid, params)


def on_board(scene: Scene) -> tuple[list[Drawn], list[str]]:
    drawn = checks.redraw(scene)
    return drawn, checks.texts_in(drawn, checks.board_rect(scene))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("moment", ["betrayal-exploring", "betrayal"])
def test_the_moments_render_readably(moment: str, lang: str, size: str, text: TextCache, shots_dir: Path) -> None:
    with checks.readable_moment(moment, lang, size, text, shots_dir) as seen:
        words, public = seen.words, seen.public
        table = public["table"]
        assert {tr(lang, f"gameboards.betrayal.floor.{f}") for f in FLOORS} <= set(words), "every floor is labelled"
        assert tr(lang, "gameboards.betrayal.omens") in words and str(table["omens"]) in words, "the omen count"
        assert table["omens"] == 2
        for rid, e in table["explorers"].items():
            assert tr(lang, f"gameboards.betrayal.room.{e['room']}") in words, f"{rid}'s room is named"
        steps = [tr(lang, f"gameboards.betrayal.step.{s}") for s in ("roll", "haunt", "traitor")]
        assert set(steps) <= set(words), "the haunt's three steps"
        traitor = "Dao"
        if moment == "betrayal":
            haunt = table["haunt"]
            assert haunt["traitor"] == "dao" and haunt["number"] == 2
            title = tr(lang, "gameboards.betrayal.haunt.title", number=2, title=haunt["title"])
            assert title in words
            assert tr(lang, "gameboards.betrayal.roll.begins", player=traitor, total=1, omens=2) in words
            assert words.count(traitor) == 2, "the traitor is named (and listed among the explorers)"
        else:
            assert table["haunt"] is None
            assert tr(lang, "gameboards.betrayal.roll.not_yet", player="Chai", total=7, omens=1) in words
            assert tr(lang, "gameboards.betrayal.haunt.hidden") in words
            assert tr(lang, "gameboards.betrayal.traitor.hidden") in words
            assert words.count(traitor) == 1, "only the explorer list names Dao"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_haunt_comes_one_step_after_another(lang: str, text: TextCache) -> None:
    """B3.1, B3.2: while Dao's roll is due the board says so and names no traitor; the roll of 1 against
    2 omens reveals haunt 2 and names Dao the traitor; the roll stays on the board after it."""
    lines = scenes.script_lines(SCRIPT)
    seen = {}
    for steps in (HAUNT_STEP - 2, HAUNT_STEP - 1, HAUNT_STEP, HAUNT_STEP + 1):
        scene = scenes.replay_scene(surface("800x480"), text, lang, scenes.part_way(lines, steps))
        try:
            seen[steps] = on_board(scene)[1]
        finally:
            scene.close()
    before, due, revealed, after = (seen[s] for s in sorted(seen))
    hidden = (tr(lang, "gameboards.betrayal.haunt.hidden"), tr(lang, "gameboards.betrayal.traitor.hidden"))
    assert tr(lang, "gameboards.betrayal.roll.not_yet", player="Chai", total=7, omens=1) in before
    assert tr(lang, "gameboards.betrayal.roll.due", player="Dao") in due
    for words in (before, due):
        assert set(hidden) <= set(words) and words.count("Dao") == 1, "no traitor before the haunt"
    for words in (revealed, after):
        assert not set(hidden) & set(words)
        assert tr(lang, "gameboards.betrayal.roll.begins", player="Dao", total=1, omens=2) in words
        assert words.count("Dao") == 2, "Dao is named the traitor"


def _twin(tmp_path: Path) -> tuple[list[str], list[str]]:
    """The haunt-4 evening, and the same evening on a copy of the sample data whose haunts give both
    sides other goals (B3.3: secret to each side). The seed stays: it rolls the monsters' dice, which
    everyone sees (B5.1)."""
    a = scenes.script_lines(SCRIPT)
    own = tmp_path / "own-data"
    own.mkdir()
    for f in ("characters.toml", "house.toml"):
        shutil.copy(betrayal_data.bundled_dir() / f, own / f)
    haunts = tomllib.loads((betrayal_data.bundled_dir() / "haunts.toml").read_text(encoding="utf-8"))
    for h in haunts["haunts"]:
        for side in ("heroes", "traitor"):
            h["goals"][side] = {lang: f"{lang}: other {side} goal {h['number']}" for lang in i18n.LANGUAGES}
    (own / "haunts.json").write_text(json.dumps(haunts), encoding="utf-8")
    setup = json.loads(a[0])
    setup["options"]["data"] = str(own)
    return a, [json.dumps(setup), *a[1:]]


def test_the_board_is_the_same_whatever_the_secrets(text: TextCache, tmp_path: Path) -> None:
    a, b = _twin(tmp_path)
    secrets = checks.same_screen_every_step(a, b, text, checks.private_of)
    differing = sum(secrets_a != secrets_b for secrets_a, secrets_b in secrets)
    assert differing == len(a) - HAUNT_STEP, "the goals differ from the haunt on"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_booth_shows_its_explorers_lines_and_no_one_elses(lang: str, text: TextCache) -> None:
    """After the haunt each booth shows its explorer, side and that side's goals in the booth's language
    (B3.3): a hero never sees the traitor's goals, the traitor never the heroes'."""
    scene = scenes.moment_scene(surface("800x480"), text, lang, "betrayal")
    try:
        lines = checks.own_lines(scene, lang)
        goals = betrayal_data.cached(betrayal_data.BUNDLED).haunt(2).goals
        for pid, side in (("dao", goals.traitor), ("ana", goals.heroes)):
            assert checks.squash(tr(lang, "summary.betrayal.your_goals", goals=getattr(side, lang))) in lines[pid]
        for pid in lines:
            assert len(lines[pid]) == 3, f"{pid}: explorer, side, goals"
            only_mine = lines[pid] - set().union(*(lines[o] for o in lines if o != pid))
            assert only_mine, f"{pid} has no line of their own"
        checks.booths_show_own_lines(scene, lines, text)  # and none drawn for everyone
    finally:
        scene.close()


def players(n: int) -> list[dict[str, str]]:
    return [{"id": f"p{i}", "name": checks.NAMES[i]} for i in range(n)]


@st.composite
def betrayal_views(draw: st.DrawFn) -> dict[str, Any]:
    """Any public view: 3-6 explorers (long names), rooms laid on the floors they may go on, explorers
    and monsters in them, traits anywhere on tracks of 2-12 values (the skull too), any omen count and
    any step of the haunt."""
    house = betrayal_data.cached(betrayal_data.BUNDLED).house
    starts = [r for r in house.rooms if r.start]
    others = draw(st.lists(st.sampled_from([r for r in house.rooms if not r.start]), unique_by=lambda r: r.id,
                           max_size=30))
    rooms = {r.id: {"floor": r.floors[0], "joins": [], "pile": [], "open_doors": 1} for r in starts}
    for r in others:
        rooms[r.id] = {"floor": draw(st.sampled_from(r.floors)), "joins": [], "pile": [], "open_doors": 0}
    n = draw(st.integers(3, 6))
    who = players(n)
    chosen = draw(st.booleans())
    explorers = {}
    for p in who:
        traits = {}
        for t in ("speed", "might", "sanity", "knowledge"):
            track = draw(st.lists(st.integers(0, 12), min_size=2, max_size=12))
            index = draw(st.integers(-1, len(track) - 1))
            traits[t] = {"index": index, "value": 0 if index < 0 else track[index], "skull": index < 0,
                         "track": track}
        explorers[p["id"]] = {"character": "vera" if chosen else None, "room": draw(st.sampled_from(sorted(rooms))),
                              "alive": draw(st.booleans() | st.just(True)), "cards": [],
                              "traits": traits if chosen else {}}
    ids = [p["id"] for p in who]
    omens = draw(st.integers(0, 13))
    step = draw(st.sampled_from(["none", "due", "not_yet", "haunt", "no_traitor"]))
    roller = draw(st.sampled_from(ids))
    moment = None if step in ("none", "due") else {
        "kind": "haunt_roll", "player": roller, "dice": None, "total": draw(st.integers(0, 12)), "omens": omens,
        "haunt": step in ("haunt", "no_traitor"), "at": 0}
    haunt = None
    monsters = {}
    if step in ("haunt", "no_traitor"):
        number = draw(st.integers(1, 6))
        haunt = {"number": number, "revealer": roller, "traitor": None if step == "no_traitor" else
                 draw(st.sampled_from(ids)), "omen": "lantern", "room": "attic", "rule": "revealer",
                 "title": f"kind.betrayal.haunt.{number}"}
        for i in range(draw(st.integers(0, 6))):
            monsters[f"hollow{i}"] = {"kind": "hollow", "room": draw(st.sampled_from(sorted(rooms))),
                                      "stunned": draw(st.booleans()), "moves_left": 0}
    actor = draw(st.sampled_from([*ids, "@monsters"]))
    table = {"seats": ids, "explorers": explorers, "rooms": rooms, "omens": omens, "moment": moment,
             "haunt": haunt, "monsters": monsters, "turn": {"actor": actor},
             "pending": {"kind": "haunt_roll", "player": roller} if step == "due" else None}
    return {"game": "betrayal", "players": who, "table": table}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(view=betrayal_views(), size=st.sampled_from([(800, 480), (1920, 1080)]),
       lang=st.sampled_from(i18n.LANGUAGES))
def test_any_public_view_stays_in_its_rectangle(view: dict[str, Any], size: tuple[int, int], lang: str,
                                                text: TextCache) -> None:
    runs = checks.board_stays_in_rect(view, size, lang, text)[2]
    least = int(MIN_TEXT * Layout(*size).scale)  # issue 28: 14 px on the 7" panel, in every state
    assert [(d.text, d.size) for d in runs if d.text.strip() and d.size < least] == []
    drawn = [d.text for d in runs]
    for p in view["players"]:  # whole, or cut with an ellipsis where the row is too narrow
        assert any(t == p["name"] or (t.endswith("…") and p["name"].startswith(t[:-1])) for t in drawn), p["name"]
    assert str(view["table"]["omens"]) in drawn
    assert {tr(lang, f"gameboards.betrayal.floor.{f}") for f in FLOORS} <= set(drawn)
