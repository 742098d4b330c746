"""Jailbreak's board on the play screen (companion/games/jailbreak/picture.py): the six scenes with
every player's track, sheriffs and prisoners, face-down characters (J2.5) and handcuffs (J2.1), hand
sizes and the deck running down (J3.2). Its demo moments read in en, zh and th at 800x480 and
1920x1080; each mark is on its own player's track; twin evenings that differ only in the secret seed
draw the same pixels; any public view stays inside the board's rectangle; and the booth shows a player
their own lines."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import i18n, scripting
from companion.core.eventlog import EventLog
from companion.drawing.canvas import ACCENT, DANGER
from companion.drawing.text import Drawn, TextCache
from companion.games import registry
from companion.games.jailbreak import data
from companion.kiosk import board_scenes as scenes
from tests.kits import board_checks as checks
from tests.kits.kiosk_fixtures import SIZES, shots_dir, surface, text, text_cache

__all__ = ["shots_dir", "text", "text_cache"]
GAME = registry()["jailbreak"]
MOMENTS = sorted(GAME.moments)


def _public_at(script: str, steps: int, seed: int | None = None) -> dict[str, Any]:
    lines = scenes.part_way(scenes.script_lines(scenes.moments()["jailbreak"][0].parent / script), steps)
    if seed is not None:
        lines[0] = json.dumps({**json.loads(lines[0]), "seed": seed})
    log = EventLog(":memory:")
    try:
        return scripting.run(registry(), log, lines).view("public")
    finally:
        log.close()


def _draw(text: TextCache, public: dict[str, Any]) -> tuple[pygame.Surface, pygame.Rect, list[Drawn]]:
    return checks.draw_alone("jailbreak", public, text)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("moment", MOMENTS)
def test_jailbreak_moments_render_readably(moment: str, lang: str, size: str, text: TextCache, shots_dir) -> None:
    with checks.readable_moment(moment, lang, size, text, shots_dir) as seen:
        on_board, table = seen.words, seen.public["table"]
        tr = lambda msgid, **p: i18n.translate(lang, msgid, p)  # noqa: E731
        assert tr("gameboards.jailbreak.turn", number=table["turn"]["number"]) in on_board
        assert tr("gameboards.jailbreak.deck", deck=table["deck"], size=table["deck_size"]) in on_board
        assert tr("gameboards.jailbreak.scenes") in on_board
        counts = Counter(on_board)
        for n in range(1, data.SCENES + 1):  # the scene numbers over the tracks, and the hand sizes
            hands = sum(q["hand"] == n for q in table["people"].values())
            assert counts[str(n)] >= 1 + hands, f"scene {n} or a hand of {n} is missing"
        assert counts["0"] >= sum(q["hand"] == 0 for q in table["people"].values())
        for word in ("kind.jailbreak.role.sheriff", "kind.jailbreak.role.prisoner", "gameboards.jailbreak.flipped",
                     "gameboards.jailbreak.cuffed"):  # the legend names the marks
            assert tr(word) in on_board
        assert any(q["flipped"] for q in table["people"].values()), "the moment shows a face-down character"
        assert any(q["cuffed_by"] for q in table["people"].values()), "the moment shows handcuffs"
        assert len({q["scene"] for q in table["people"].values()}) >= 3, "the players are spread over the scenes"


def _changed(a: pygame.Surface, b: pygame.Surface) -> pygame.Rect:
    """The bounding box of the pixels that differ between two drawings (empty if none)."""
    same = pygame.mask.from_threshold(a, (0, 0, 0, 0), (1, 1, 1, 255), b)
    same.invert()
    boxes = same.get_bounding_rects()
    return boxes[0].unionall(boxes[1:]) if boxes else pygame.Rect(0, 0, 0, 0)


def _with(public: dict[str, Any], pid: str, **person: Any) -> dict[str, Any]:
    table = {**public["table"], "people": {**public["table"]["people"]}}
    table["people"][pid] = {**table["people"][pid], **person}
    return {**public, "table": table}


def test_each_mark_is_on_its_players_track(text: TextCache) -> None:
    """Near the deck's end (two face down, one cuffed): turning a card up, opening the cuffs, moving a
    player or telling another role changes the picture on that player's track only, to the right of
    their name; each hand size is written on its player's track."""
    script, steps = GAME.moments["jailbreak-deck"]
    public = _public_at(script, steps)
    people = public["table"]["people"]
    shot, _, drawn = _draw(text, public)
    names = {p["id"]: next(d for d in drawn if d.text == p["name"]) for p in public["players"]}
    changes = {pid: [] for pid in people}
    for pid, q in people.items():
        if q["flipped"]:
            changes[pid].append(_with(public, pid, flipped=False))
        if q["cuffed_by"]:
            changes[pid].append(_with(public, pid, cuffed_by=None))
        changes[pid].append(_with(public, pid, scene=q["scene"] % data.SCENES + 1))
        role = "prisoner" if public["table"]["roles"][pid] == "sheriff" else "sheriff"
        changes[pid].append({**public, "table": {**public["table"], "roles": {**public["table"]["roles"], pid: role}}})
        hand = [d for d in drawn if d.text == str(q["hand"]) and d.rect.left > names[pid].rect.right
                and names[pid].region.top <= d.rect.centery <= names[pid].region.bottom]
        assert hand, f"{pid}'s hand of {q['hand']} is not on their track"
    assert sum(q["flipped"] for q in people.values()) >= 2 and any(q["cuffed_by"] for q in people.values())
    for pid, views in changes.items():
        band = names[pid].region
        for view in views:
            other, _, _ = _draw(text, view)
            box = _changed(shot, other)
            assert box.width, f"{pid}: the change is not drawn"
            assert band.top - 4 <= box.top and box.bottom <= band.bottom + 4, f"{pid}: drawn off their track"


def test_the_deck_runs_down_on_the_board(text: TextCache) -> None:
    """Along the eight-player game the deck's count is written as the table counts it, and its bar
    gets shorter with it, in proportion (J3.2: the sheriffs win when it is empty)."""
    script = GAME.moments["jailbreak"][0]
    bars = []
    for steps in (1, 40, 93, 130, 150):
        public = _public_at(script, steps)
        table = public["table"]
        shot, rect, drawn = _draw(text, public)
        deck = next(d for d in drawn if d.text == i18n.translate("en", "gameboards.jailbreak.deck",
                                                                 {"deck": table["deck"], "size": table["deck_size"]}))
        first_scene = next(d for d in drawn if d.text == "1")
        strip = pygame.Rect(rect.left, deck.region.bottom, rect.width, first_scene.region.top - deck.region.bottom)
        part = shot.subsurface(strip)
        filled = [pygame.mask.from_threshold(part, color, (2, 2, 2, 255)).get_bounding_rects() for color in (ACCENT,
                                                                                                          DANGER)]
        width = max((r.width for rs in filled for r in rs), default=0)
        assert abs(width - strip.width * table["deck"] / table["deck_size"]) <= 3, (steps, width, table["deck"])
        bars.append((table["deck"], width))
    assert [d for d, _ in bars] == sorted((d for d, _ in bars), reverse=True) and bars[-1][0] < bars[0][0]
    assert [w for _, w in bars] == sorted((w for _, w in bars), reverse=True) and bars[-1][1] < bars[0][1]


def test_twin_evenings_that_differ_only_in_the_seed_draw_the_same_board(text: TextCache) -> None:
    """The seed is Jailbreak's one secret (views.py); the hands and the deck's order are not known to the
    referee at all. The five-player deck game with seed 203 deals the same characters as its own seed
    2001 (J1.2: characters are public), and the same public play follows: at every step the play
    screen's words and pixels are the same."""
    lines = scenes.script_lines(scenes.moments()["jailbreak-deck"][0])[:31]
    twin = [json.dumps({**json.loads(lines[0]), "seed": 203}), *lines[1:]]
    assert json.loads(lines[0])["seed"] != 203
    secrets = checks.same_screen_every_step(lines, twin, text, lambda ref: ref.state["rng"])
    for steps, (secret_a, secret_b) in enumerate(secrets, start=1):
        assert secret_a != secret_b, f"step {steps}: the twins should differ in their secret"


@st.composite
def public_views(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(3, 8))
    players = [{"id": f"p{i}", "name": checks.NAMES[i]} for i in range(n)]
    ids = [p["id"] for p in players]
    people = {}
    for pid in ids:
        scene = draw(st.integers(1, data.SCENES))
        people[pid] = {"scene": scene, "reached": draw(st.integers(scene, data.SCENES)),
                       "hand": draw(st.integers(0, 40)), "flipped": draw(st.booleans()),
                       "cuffed_by": draw(st.one_of(st.none(), st.sampled_from(ids))), "bible": draw(st.booleans())}
    size = draw(st.integers(1, 2000))
    table = {"order": ids, "roles": {pid: draw(st.sampled_from(data.ROLES)) for pid in ids}, "people": people,
             "deck": draw(st.integers(0, size)), "deck_size": size, "scenes": data.SCENES,
             "turn": {"player": draw(st.sampled_from(ids)), "number": draw(st.integers(0, 9999))}}
    return {"game": "jailbreak", "players": players, "table": table}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(view=public_views(), size=st.sampled_from([(800, 480), (1920, 1080)]), lang=st.sampled_from(i18n.LANGUAGES))
def test_any_public_view_stays_in_the_board(view: dict[str, Any], size: tuple[int, int], lang: str,
                                            text: TextCache) -> None:
    """3-8 players with long names, anywhere in the six scenes, any flips, cuffs and hand sizes, any deck:
    nothing is painted outside the rectangle, every text inside it with a glyph for every character,
    and every player named (shortened with an ellipsis when it must be) left of the scene cards."""
    _, _, drawn = checks.board_stays_in_rect(view, size, lang, text)
    cards_left = next(d for d in drawn if d.text == "1").region.left  # the first scene's column
    for p in view["players"]:
        name = [d for d in drawn if d.text == p["name"] or (d.text.endswith("…") and
                                                            p["name"].startswith(d.text[:-1].rstrip()))]
        assert name, f"{p['name']} is not named"
        assert name[0].region.right <= cards_left, f"{p['name']} runs into the scene cards"


def test_a_jailbreak_booth_shows_its_players_own_lines(text: TextCache) -> None:
    """Tapping a player's token opens their booth: their role, character or equipment and, for the player
    whose turn it is, the keys and attack cards left (Game.private_lines); another player's character
    or equipment is not in it."""
    scene = scenes.moment_scene(surface("800x480"), text, "en", "jailbreak")
    try:
        ref = scene.table.referee
        lines = checks.own_lines(scene, "en")
        turn = ref.view("public")["table"]["turn"]["player"]
        assert any(m == "summary.jailbreak.your_turn" for m, _ in GAME.private_lines(ref.view(f"player:{turn}")
                                                                                      ["private"]))
        for pid in lines:
            assert len(lines[pid]) >= 2, f"{pid} has no lines of their own"
        booths = checks.booths_show_own_lines(scene, lines, text)
        assert booths.others_checked >= len(lines)
    finally:
        scene.close()
