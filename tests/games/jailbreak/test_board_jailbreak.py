"""Jailbreak's board on the play screen (companion/games/jailbreak/picture.py): the six scenes with
every player's track, sheriffs and prisoners, face-down characters (J2.5) and handcuffs (J2.1), hand
sizes and the deck running down (J3.2). Its demo moments read in en, zh and th at 800x480 and
1920x1080; each mark is on its own player's track; twin evenings that differ only in the secret seed
draw the same pixels; any public view stays inside the board's rectangle; and the booth shows a player
their own lines."""

from __future__ import annotations

import json
import re
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
from companion.kiosk.layout import Layout
from companion.kiosk.widgets import Canvas
from tests.kiosk.test_boards_properties import NAMES
from tests.kits.gameboard_scenes import board_rect, redraw, texts_in
from tests.kits.kiosk_fixtures import SIZES, ink_fraction, shots_dir, surface, text, text_cache, text_problems

__all__ = ["shots_dir", "text", "text_cache"]
GAME = registry()["jailbreak"]
MOMENTS = sorted(GAME.moments)
SCRIPT = {"zh": re.compile(r"[\u4e00-\u9fff]"), "th": re.compile(r"[\u0e01-\u0e5b]"), "en": re.compile(r"[A-Za-z]")}
SENTINEL = (1, 2, 3)


def _public_at(script: str, steps: int, seed: int | None = None) -> dict[str, Any]:
    lines = scenes.part_way(scenes.script_lines(scenes.moments()["jailbreak"][0].parent / script), steps)
    if seed is not None:
        lines[0] = json.dumps({**json.loads(lines[0]), "seed": seed})
    log = EventLog(":memory:")
    try:
        return scripting.run(registry(), log, lines).view("public")
    finally:
        log.close()


def _draw(text: TextCache, public: dict[str, Any], size: tuple[int, int] = (800, 480),
          lang: str = "en") -> tuple[pygame.Surface, pygame.Rect, list[Drawn]]:
    """The board alone, in the play screen's board panel, on a surface of its own."""
    layout = Layout(*size)
    shot = pygame.Surface(size)
    shot.fill(SENTINEL)
    rect = layout.rect(464, 108, 308, 296)
    assert text.record is not None
    text.record.clear()
    draw = GAME.board()
    assert draw is not None
    draw(shot, rect, Canvas(text, layout.px, layout.font), lang, public, 0)
    return shot, rect, list(text.record)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("moment", MOMENTS)
def test_jailbreak_moments_render_readably(moment: str, lang: str, size: str, text: TextCache, shots_dir) -> None:
    scene = scenes.moment_scene(surface(size), text, lang, moment)
    try:
        assert scene.kiosk.top.name == "play"
        drawn = redraw(scene)
        shot = scene.kiosk.surface
        pygame.image.save(shot, str(shots_dir / f"board-{moment}-{lang}-{size}.png"))
        area = board_rect(scene)
        assert ink_fraction(shot.subsurface(area)) > 0.3, "the board is (nearly) empty"
        assert not text.missing, f"characters no font has: {sorted(text.missing)}"
        assert text_problems(drawn) == []
        on_board = texts_in(drawn, area)
        assert any(SCRIPT[lang].search(t) for t in on_board), f"nothing on the board is in {lang}: {on_board}"
        public = scene.table.referee.view("public")
        table = public["table"]
        tr = lambda msgid, **p: i18n.translate(lang, msgid, p)  # noqa: E731
        assert {p["name"] for p in public["players"]} <= set(on_board), "every player is named on the board"
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
    finally:
        scene.close()


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
    for steps in range(1, len(lines)):
        seen = []
        for evening in (lines, twin):
            scene = scenes.replay_scene(surface("800x480"), text, "en", evening[:steps + 1])
            try:
                assert scene.kiosk.top.name == "play"
                drawn = redraw(scene)
                ref = scene.table.referee
                seen.append((texts_in(drawn, scene.kiosk.layout.full()),
                             pygame.image.tobytes(scene.kiosk.surface, "RGB"), ref.view("public"),
                             ref.state["rng"]))
            finally:
                scene.close()
        (words_a, pixels_a, public_a, secret_a), (words_b, pixels_b, public_b, secret_b) = seen
        assert secret_a != secret_b, f"step {steps}: the twins should differ in their secret"
        assert public_a == public_b, f"step {steps}: the two evenings differ in public"
        assert words_a == words_b, f"step {steps}: the words on the screen depend on a secret"
        assert pixels_a == pixels_b, f"step {steps}: the pixels depend on a secret"


@st.composite
def public_views(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(3, 8))
    players = [{"id": f"p{i}", "name": NAMES[i]} for i in range(n)]
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
    text.missing.clear()
    shot, rect, drawn = _draw(text, view, size, lang)
    outside = shot.copy()
    outside.fill(SENTINEL, rect)
    assert pygame.mask.from_threshold(outside, SENTINEL, (1, 1, 1, 255)).count() == size[0] * size[1], \
        "the board painted outside its rectangle"
    assert not text.missing
    assert text_problems(drawn) == []
    assert all(rect.contains(d.region) for d in drawn)
    cards_left = next(d for d in drawn if d.text == "1").region.left  # the first scene's column
    for p in view["players"]:
        name = [d for d in drawn if d.text == p["name"] or (d.text.endswith("…") and
                                                            p["name"].startswith(d.text[:-1].rstrip()))]
        assert name, f"{p['name']} is not named"
        assert name[0].region.right <= cards_left, f"{p['name']} runs into the scene cards"


def _squash(s: str) -> str:
    return re.sub(r"\s+", "", s)


def test_a_jailbreak_booth_shows_its_players_own_lines(text: TextCache) -> None:
    """Tapping a player's token opens their booth: their role, character or equipment and, for the player
    whose turn it is, the keys and attack cards left (Game.private_lines); another player's character
    or equipment is not in it."""
    scene = scenes.moment_scene(surface("800x480"), text, "en", "jailbreak")
    try:
        ref = scene.table.referee
        pids = [p["id"] for p in ref.state["players"]]
        lines = {pid: {_squash(i18n.translate("en", m, p)) for m, p in GAME.private_lines(ref.view(f"player:{pid}")
                                                                                           ["private"])}
                 for pid in pids}
        turn = ref.view("public")["table"]["turn"]["player"]
        assert any(m == "summary.jailbreak.your_turn" for m, _ in GAME.private_lines(ref.view(f"player:{turn}")
                                                                                      ["private"]))
        checked_others = 0
        for pid in pids:
            scene.tap_token(pid)
            assert scene.kiosk.top.name == "booth"
            mine = _squash("".join(d.text for d in redraw(scene) if d.audience == f"player:{pid}"))
            assert len(lines[pid]) >= 2, f"{pid} has no lines of their own"
            for line in lines[pid]:
                assert line in mine, f"{pid}'s booth lacks {line!r}"
            for other in pids:
                for line in lines[other] - lines[pid]:
                    assert line not in mine, f"{pid}'s booth shows {other}'s {line!r}"
                    checked_others += 1
            scene.tap_token(pid)  # the same token again hides the booth
            assert scene.kiosk.top.name == "play"
        assert checked_others >= len(pids)
    finally:
        scene.close()
