"""The checks every game board's tests share, each as the table would make it: the board at a moment
renders readably (`readable_moment`), two evenings that differ only in secrets draw the same screen at
every step (`same_screen_every_step`), a booth shows its player's own lines and no one else's
(`booths_show_own_lines`), and a public view drawn into the board's rectangle paints nothing outside it
(`board_stays_in_rect`). The facts of one game stay in that game's own tests."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from companion import i18n
from companion.core.referee import Referee
from companion.drawing.text import Drawn, TextCache
from companion.games import registry
from companion.kiosk import board_scenes as scenes
from companion.kiosk.layout import Layout
from companion.kiosk.scenes import Scene
from companion.kiosk.widgets import Canvas
from tests.kits.kiosk_fixtures import ink_fraction, surface, text_problems

SCRIPT = {"zh": re.compile(r"[\u4e00-\u9fff]"), "th": re.compile(r"[\u0e01-\u0e5b]"), "en": re.compile(r"[A-Za-z]")}
NAMES = ["Ana", "Maximiliane", "ชัย", "道", "สมชายใจดีมาก", "欧阳娜娜娜娜", "Gus", "Hui", "Ira"]
SENTINEL = (1, 2, 3)  # the colour around a board drawn alone: any other there was painted outside it


def redraw(scene: Scene) -> list[Drawn]:
    """Everything on the screen drawn again, with what was drawn recorded."""
    k = scene.kiosk
    k._drawn = None  # a full redraw, so every text on the screen is recorded
    assert k.text.record is not None
    k.text.record.clear()
    k.process()
    return list(k.text.record)


def board_rect(scene: Scene) -> pygame.Rect:
    found = [r.rect for r in scene.kiosk.regions() if r.name == "play.board"]
    assert found, f"no board on the {scene.kiosk.top.name} screen"
    return found[0]


def texts_in(drawn: list[Drawn], area: pygame.Rect, audience: str = "public") -> list[str]:
    return [d.text for d in drawn if d.audience == audience and area.contains(d.region)]


def squash(s: str) -> str:
    return re.sub(r"\s+", "", s)


@dataclass
class Moment:
    """A moment's play screen as drawn: the scene, every text drawn, the board's rectangle and its words,
    and the public view it was drawn from."""
    scene: Scene
    drawn: list[Drawn]
    area: pygame.Rect
    words: list[str]
    public: dict[str, Any]


@contextmanager
def readable_moment(moment: str, lang: str, size: str, text: TextCache, shots_dir: Path) -> Iterator[Moment]:
    """The demo moment on the play screen, checked readable: the screenshot saved, the board not
    (nearly) empty, a glyph for every character, no text cut or out of its box, something on the board in
    `lang`'s script and every player named on it."""
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
        words = texts_in(drawn, area)
        assert any(SCRIPT[lang].search(t) for t in words), f"nothing on the board is in {lang}: {words}"
        public = scene.table.referee.view("public")
        assert {p["name"] for p in public["players"]} <= set(words), "every player is named on the board"
        yield Moment(scene, drawn, area, words, public)
    finally:
        scene.close()


def same_screen_every_step(a: list[str], b: list[str], text: TextCache,
                           secret: Callable[[Referee], Any]) -> list[tuple[Any, Any]]:
    """Two evenings (script lines) replayed step by step on the play screen: at every step the public
    views, the words on the screen and its pixels are the same. Returns, for each step from 1, the two
    evenings' `secret` (what the game keeps hidden), for the test to say how they differ."""
    secrets = []
    for steps in range(1, len(a)):
        seen = []
        for lines in (a, b):
            scene = scenes.replay_scene(surface("800x480"), text, "en", lines[:steps + 1])
            try:
                assert scene.kiosk.top.name == "play"
                drawn = redraw(scene)
                ref = scene.table.referee
                seen.append((texts_in(drawn, scene.kiosk.layout.full()),
                             pygame.image.tobytes(scene.kiosk.surface, "RGB"), ref.view("public"), secret(ref)))
            finally:
                scene.close()
        (words_a, pixels_a, public_a, secret_a), (words_b, pixels_b, public_b, secret_b) = seen
        # the setup's options are public (a twin may read the same game data from another folder: its
        # `data` option names that folder); everything the game shows must agree
        assert {**public_a, "options": None} == {**public_b, "options": None}, \
            f"step {steps}: the two evenings differ in public"
        assert words_a == words_b, f"step {steps}: the words on the screen depend on a secret"
        assert pixels_a == pixels_b, f"step {steps}: the pixels depend on a secret"
        secrets.append((secret_a, secret_b))
    return secrets


def private_of(ref: Referee) -> list[dict[str, Any]]:
    """Every player's private view: a game's secrets as its players hold them."""
    return [ref.view(f"player:{p['id']}")["private"] for p in ref.state["players"]]


def own_lines(scene: Scene, lang: str) -> dict[str, set[str]]:
    """Each player's `Game.private_lines` in `lang`, whitespace squashed (as a booth may wrap them)."""
    ref = scene.table.referee
    game = registry()[ref.setup.game]
    return {p["id"]: {squash(i18n.translate_line(lang, m, params))
                      for m, params in game.private_lines(ref.view(f"player:{p['id']}")["private"])}
            for p in ref.state["players"]}


@dataclass
class Booths:
    mine: dict[str, str]  # each player's booth text (their audience), whitespace squashed
    others_checked: int  # how many other players' lines were looked for in a booth (and not found)


def booths_show_own_lines(scene: Scene, lines: dict[str, set[str]], text: TextCache) -> Booths:
    """Each player's token tapped in turn opens their booth: readable, with every one of their `lines`,
    none of another player's, and none of the lines only they have drawn for everyone; the same token
    again hides it."""
    mine: dict[str, str] = {}
    checked = 0
    for pid in lines:
        scene.tap_token(pid)
        assert scene.kiosk.top.name == "booth"
        drawn = redraw(scene)
        assert not text.missing and text_problems(drawn) == []
        mine[pid] = squash("".join(d.text for d in drawn if d.audience == f"player:{pid}"))
        for line in lines[pid]:
            assert line in mine[pid], f"{pid}'s booth lacks {line!r}"
        for other in lines:
            for line in lines[other] - lines[pid]:
                assert line not in mine[pid], f"{pid}'s booth shows {other}'s {line!r}"
                checked += 1
        public = {squash(d.text) for d in drawn if d.audience == "public"}
        only_mine = lines[pid] - set().union(*(lines[o] for o in lines if o != pid))
        assert not public & only_mine, f"{pid}'s secret line drawn for everyone"
        scene.tap_token(pid)  # the same token again hides the booth
        assert scene.kiosk.top.name == "play"
    return Booths(mine, checked)


def draw_alone(game: str, public: dict[str, Any], text: TextCache, size: tuple[int, int] = (800, 480),
               lang: str = "en") -> tuple[pygame.Surface, pygame.Rect, list[Drawn]]:
    """The game's board alone, in the play screen's board panel (inside its padding), on a surface of
    its own filled with SENTINEL; with the texts it drew."""
    layout = Layout(*size)
    shot = pygame.Surface(size)
    shot.fill(SENTINEL)
    rect = layout.rect(336, 104, 440, 304)  # the play screen's board panel (456x320) inside its 8 px padding
    assert text.record is not None
    text.record.clear()
    draw = registry()[game].board()
    assert draw is not None
    draw(shot, rect, Canvas(text, layout.px, layout.font), lang, public, 0)
    return shot, rect, list(text.record)


def board_stays_in_rect(public: dict[str, Any], size: tuple[int, int], lang: str,
                        text: TextCache) -> tuple[pygame.Surface, pygame.Rect, list[Drawn]]:
    """The public view's board drawn alone: nothing painted outside its rectangle, every text inside it,
    none cut or out of its box, a glyph for every character. Returns what `draw_alone` does."""
    text.missing.clear()
    shot, rect, drawn = draw_alone(public["game"], public, text, size, lang)
    outside = shot.copy()
    outside.fill(SENTINEL, rect)
    assert pygame.mask.from_threshold(outside, SENTINEL, (1, 1, 1, 255)).count() == size[0] * size[1], \
        "the board painted outside its rectangle"
    assert not text.missing
    assert text_problems(drawn) == []
    assert all(rect.contains(d.region) for d in drawn)
    return shot, rect, drawn
