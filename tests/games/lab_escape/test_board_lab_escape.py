"""Escape the Lab's board on the play screen (companion/games/lab_escape/picture.py).

From its demo scripts replayed to its moments, in en, zh and th at 800x480 and 1920x1080: readable
(not blank, every character in a font, no text cut or out of its box), every room in play and on
display named, each player named with their stamina die, their disc in their room, their items, the USB
key's whereabouts and the scarce supply in words. Two evenings that differ only in what is hidden (the
seeded source: E1 tracks everything else in the open) draw the same pixels at every step. Whatever a
public view holds, the board paints only inside its rectangle, with a glyph for every character. A
player's booth shows their own lines and no one else's.
"""

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
from companion.drawing.marks import seat_colors
from companion.drawing.text import TextCache
from companion.games import registry
from companion.games.lab_escape import data
from companion.games.lab_escape.picture import room_name, scarce, usb_key_line
from companion.kiosk import board_scenes as scenes
from companion.kiosk.layout import Layout
from tests.kits import board_checks as checks
from tests.kits.kiosk_fixtures import SIZES, shots_dir, surface, text, text_cache
from tests.kits.layout_check import MIN_TEXT

__all__ = ["shots_dir", "text", "text_cache"]
GAME = registry()["lab_escape"]
MOMENTS = sorted(GAME.moments)


def _row_of(drawn: list[Any], words: str, area: pygame.Rect) -> Any:
    found = [d for d in drawn if d.audience == "public" and d.text == words and area.contains(d.region)]
    assert len(found) == 1, f"{words!r} is on the board {len(found)} times"
    return found[0]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("moment", MOMENTS)
def test_the_lab_renders_readably(moment: str, lang: str, size: str, text: TextCache, shots_dir) -> None:
    with checks.readable_moment(moment, lang, size, text, shots_dir) as seen:
        drawn, area, on_board, public = seen.drawn, seen.area, seen.words, seen.public
        shot = seen.scene.kiosk.surface
        table = public["table"]
        tr = lambda msgid, **p: i18n.translate(lang, msgid, p)  # noqa: E731
        for card in [*table["lab"], *table["display"]]:  # E1.1: the cards in play and the display
            for r in card["rooms"]:
                assert room_name(lang, r["room"], r["kind"]) in on_board, r["room"]
        waiting = [tr("gameboards.lab_escape.display"), tr("gameboards.lab_escape.deck", count=table["deck_count"])]
        if table["display"] or table["deck_count"]:  # while cards remain to be laid (issue 28: not an empty row)
            assert set(waiting) <= set(on_board)
        else:
            assert not set(waiting) & set(on_board)
        colors = seat_colors(public)
        for p in public["players"]:  # every player named, with their stamina die beside the name
            me = table["people"][p["id"]]
            name = _row_of(drawn, p["name"], area)
            dice = [d for d in drawn if d.text == str(me["stamina"]) and d.region.left > name.region.right
                    and name.region.top <= d.rect.centery <= name.region.bottom]
            assert len(dice) == 1, f"{p['name']}'s stamina {me['stamina']} is not beside their name"
            for item in me["items"]:
                assert tr(data.item_word(item)) in on_board, f"{p['name']} holds {item}"
            room = _row_of(drawn, room_name(lang, me["room"], data.room_index()[me["room"]].kind), area)
            row = pygame.Rect(room.region.right, room.region.top, area.right - room.region.right, room.region.height)
            disc = pygame.mask.from_threshold(shot.subsurface(row.clip(area)), colors[p["id"]], (2, 2, 2, 255))
            assert disc.count() > 10, f"{p['name']}'s disc is not in the {me['room']}"
        assert usb_key_line(lang, public, table) in on_board
        last, gone = scarce(table)
        listed = lambda kinds: tr("gameboards.lab_escape.list_sep").join(tr(data.item_word(i)) for i in kinds)  # noqa: E731
        if last:
            assert tr("gameboards.lab_escape.last_one", items=listed(last)) in on_board
        if gone:
            assert tr("gameboards.lab_escape.none_left", items=listed(gone)) in on_board
        if not last and not gone:
            assert tr("gameboards.lab_escape.plenty") in on_board


def test_the_moments_show_what_they_promise() -> None:
    """The two moments: display rooms and held items mid-game; then the USB key held, weapons lying in
    rooms (E3.4) and the halved supply (E1.2) running out."""
    views = {}
    for moment in MOMENTS:
        script, steps = scenes.moments()[moment]
        ref = scripting.run(registry(), EventLog(":memory:"), scenes.part_way(scenes.script_lines(script), steps))
        views[moment] = ref.view("public")["table"]
    mid, late = views["lab_escape"], views["lab_escape-usb"]
    assert len(mid["display"]) == 2 and sum(bool(p["items"]) for p in mid["people"].values()) >= 2
    assert len({p["room"] for p in mid["people"].values()}) == 3
    assert any(data.USB_KEY in p["items"] for p in late["people"].values())
    assert data.WEAPON in [i for things in late["floor"].values() for i in things]
    assert all(scarce(late))


def _reseeded(lines: list[str], seed: int) -> list[str]:
    setup = json.loads(lines[0])
    return [json.dumps({**setup, "seed": seed}), *lines[1:]]


@pytest.mark.parametrize("script", ["lab-escape-3p.jsonl", "lab-escape-2p.jsonl"])
def test_the_lab_is_the_same_whatever_the_seed(script: str, text: TextCache) -> None:
    """The table rolls and turns up the cards (dice "table", deck "physical"), so another seed changes
    only what the referee keeps hidden, its seeded source: every step draws the same screen."""
    a = scenes.script_lines(scenes.moments()["lab_escape"][0].parent / script)
    b = _reseeded(a, json.loads(a[0])["seed"] + 1000)
    assert json.loads(a[0])["options"]["dice"] == "table" and json.loads(a[0])["options"]["deck"] == "physical"
    secrets = checks.same_screen_every_step(a, b, text, lambda ref: ref.state["rng"])
    for steps, (rng_a, rng_b) in enumerate(secrets, start=1):
        assert rng_a != rng_b, f"step {steps}: the two evenings should differ in what is hidden"


def test_a_booth_shows_its_players_lines_and_no_one_elses(text: TextCache) -> None:
    """The booth shows a player `Game.private_lines` of their own view: their room, stamina and items."""
    scene = scenes.moment_scene(surface("800x480"), text, "en", "lab_escape")
    try:
        booths = checks.booths_show_own_lines(scene, checks.own_lines(scene, "en"), text)
        people = scene.table.referee.view("public")["table"]["people"]
        for pid, mine in booths.mine.items():
            stamina = i18n.translate("en", "summary.lab_escape.your_stamina", {"stamina": people[pid]["stamina"]})
            assert checks.squash(stamina) in mine
        assert booths.others_checked >= len(booths.mine), "the players' lines should differ"
    finally:
        scene.close()


def test_the_usb_key_line_follows_the_key() -> None:
    """E6.2: one USB key: in the supply, with a player, on a room's floor (a stuck player left it,
    E6.1), or out of the lab with the winner."""
    public = {"players": [{"id": "p0", "name": "Ana"}, {"id": "p1", "name": "Ben"}]}
    people = {"p0": {"room": "hall", "stamina": 1, "items": []}, "p1": {"room": "archive", "stamina": 3,
                                                                            "items": [data.USB_KEY]}}
    line = lambda table: usb_key_line("zh", public, table)  # noqa: E731
    assert line({"people": people}) == "密钥U盘：在 Ben 手中"
    dropped = {"people": {**people, "p1": {**people["p1"], "items": []}}, "floor": {"archive": [data.USB_KEY]}}
    assert line(dropped) == "密钥U盘：掉落在档案室"
    assert line({"people": {}, "floor": {}}) == "密钥U盘：尚未有人获得（仍在供应堆）"
    assert line({"people": people, "winner": "p1"}) == "Ben 带着密钥U盘逃出了密室！"


CARDS = [c.id for c in data.bundled().cards if not c.start]


@st.composite
def lab_views(draw: st.DrawFn) -> dict[str, Any]:
    """Any public view of the lab: 2-4 players with long names, any cards laid, the display and the deck,
    players in any room in play with any stamina and items, anything lying in rooms, any supply."""
    n = draw(st.integers(2, 4))
    players = [{"id": f"p{i}", "name": draw(st.sampled_from(checks.NAMES))} for i in range(n)]
    rest = draw(st.permutations(CARDS))
    laid = draw(st.integers(0, len(rest)))
    display = rest[laid:laid + draw(st.integers(0, 2))]
    cards = data.bundled()

    def card(cid: str) -> dict[str, Any]:
        return {"card": cid, "rooms": [{"room": r.id, "kind": r.kind, "vent": r.vent} for r in cards.card(cid).rooms]}

    lab = [card(cards.start.id), *(card(c) for c in rest[:laid])]
    rooms = [r["room"] for c in lab for r in c["rooms"]]
    things = st.lists(st.sampled_from(data.ITEMS), unique=True, max_size=len(data.ITEMS))
    people = {p["id"]: {"room": draw(st.sampled_from(rooms)), "stamina": draw(st.integers(1, 6)), "items": draw(things)}
              for p in players}
    floor = draw(st.dictionaries(st.sampled_from(rooms), st.lists(st.sampled_from(data.ITEMS), min_size=1,
                                                                  max_size=4), max_size=4))
    supply = {i: draw(st.integers(0, cards.items[i].count)) for i in cards.items}
    winner = draw(st.one_of(st.none(), st.sampled_from([p["id"] for p in players])))
    table = {"lab": lab, "display": [card(c) for c in display], "deck_count": len(rest) - laid - len(display),
             "people": people, "floor": floor, "supply": supply, "winner": winner}
    return {"game": "lab_escape", "players": players, "turn": draw(st.sampled_from([None, "p0", "p1"])),
            "table": table}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(view=lab_views(), size=st.sampled_from([(800, 480), (1920, 1080)]), lang=st.sampled_from(["en", "zh", "th"]))
def test_the_lab_stays_in_its_rectangle(view: dict[str, Any], size: tuple[int, int], lang: str,
                                        text: TextCache) -> None:
    _, _, drawn = checks.board_stays_in_rect(view, size, lang, text)
    least = int(MIN_TEXT * Layout(*size).scale)  # issue 28: 14 px on the 7" panel, in every state
    assert [(d.text, d.size) for d in drawn if d.text.strip() and d.size < least] == []
    stamina = Counter(d.text for d in drawn)
    for p in view["table"]["people"].values():
        assert stamina[str(p["stamina"])] >= 1, "every stamina die is drawn"
    assert len(drawn) >= len(view["players"])
