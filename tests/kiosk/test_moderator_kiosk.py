"""The moderator's view on the kiosk's host menu (issue 28, item 5), by touch on the real kiosk.

A seven-player Werewolf night whose host moderates: the deal and the wolves' vote are made through the
table (as the host's phone would), then the host taps Menu and "Moderator's view" and reads who has which
role and how each wolf voted, in en, zh and th at 800x480, with players by name and roles in words;
nothing drawn overflows. The play screen (public) never draws a role; a table whose host plays has no such
menu entry. Screenshots go to KIOSK_SHOTS (or a temporary folder)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.games.toolkit import presets
from companion.kiosk.engine import build
from companion.kiosk.kiosk import Settings
from companion.kiosk.scenes import Scene, SetClock, make_scene
from companion.kiosk.screens.moderator import moderator_lines
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.taps.registry import Registry
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache, text_problems
from tests.kits.kiosk_touch import button, touch

__all__ = ["shots_dir", "text", "text_cache"]

SEVEN = ("ana", "ben", "chai", "dao", "eve", "fon", "gus")


def night(tmp_path: Path, text: TextCache, lang: str, moderator: bool = True) -> Scene:
    setup = Setup("toolkit", tuple(Player(p, p.title()) for p in SEVEN), {}, seed=28, moderator=moderator)
    referee = Referee.start(registry(), EventLog(tmp_path / f"{lang}-{moderator}.sqlite3"), setup, created_at=0)
    clock = SetClock(1_000)
    table = Table(referee, clock=clock)
    kiosk = build(surface("800x480"), table, registry(), Settings(lang=lang), StatusBoard(), text=text)
    kiosk.process()
    scene = Scene(kiosk, table, clock, EventLog(tmp_path / f"{lang}-{moderator}.sqlite3"), Registry(":memory:"))
    scene.play({"by": "host", "move": "roles.deal", "args": {"name": "roles", "roles": presets.werewolf(7)}})
    return scene


def wolves(scene: Scene) -> list[str]:
    assigned = scene.table.referee.state["deals"]["roles"]["assigned"]
    return [p for p in SEVEN if assigned[p] == "werewolf"]


def to_play(scene: Scene) -> None:
    k = scene.kiosk
    for _ in range(4):  # the attract loop's picker and the setup screen first, as a host taps through them
        if k.top.name == "play":
            break
        title = i18n.translate(k.lang, f"game.{k.public['game']}.title")
        start = i18n.translate(k.lang, "kiosk.setup.start")
        labels = [b.label for b in k.top.buttons()]
        touch(k, title if title in labels else start)
        scene.pump()
    assert k.top.name == "play", k.top.name


def to_menu(scene: Scene) -> None:
    k = scene.kiosk
    to_play(scene)
    touch(k, i18n.translate(k.lang, "kiosk.button.menu"))
    assert k.top.name == "menu"


def drawn(scene: Scene, text: TextCache) -> list[str]:
    text.record = []
    k = scene.kiosk
    for region in k.regions():
        region.draw(k.surface, region.rect)
    return [d.text for d in text.record]


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_the_moderator_reads_the_deal_and_the_wolves_votes_on_the_host_menu(
        tmp_path: Path, text: TextCache, shots_dir: Path, lang: str) -> None:
    scene = night(tmp_path, text, lang)
    k = scene.kiosk
    pack = wolves(scene)
    scene.play({"by": "host", "move": "ballot.open",
                "args": {"name": "wolves", "options": ["eve", "fon", "gus"], "voters": pack}})
    for wolf in pack:
        scene.play({"by": f"player:{wolf}", "move": "ballot.vote", "args": {"name": "wolves", "option": "gus"}})
    scene.play({"by": "host", "move": "ballot.close", "args": {"name": "wolves"}})
    werewolf = i18n.translate(lang, "toolkit.role.werewolf")

    to_play(scene)  # the table's own screen, which everyone sees: no role, no voter of the wolves' vote
    public_text = " ".join(drawn(scene, text))
    pygame.image.save(k.surface, str(shots_dir / f"moderator-public-{lang}.png"))
    for role in presets.werewolf(7) or []:
        assert i18n.translate(lang, f"toolkit.role.{role}") not in public_text, role
    assert i18n.translate(lang, "kiosk.toolkit.ballot_won", {"name": "wolves", "winner": "Gus"}) in public_text
    to_menu(scene)
    touch(k, i18n.translate(lang, "kiosk.menu.moderator"))
    assert k.top.name == "moderator"
    shown = drawn(scene, text)
    pygame.image.save(k.surface, str(shots_dir / f"moderator-kiosk-{lang}.png"))
    assert not text_problems(text.record)
    said = "\n".join(shown)
    assert i18n.translate(lang, "kiosk.moderator.title") in said
    for wolf in pack:
        assert i18n.translate(lang, "kiosk.moderator.role", {"player": wolf.title(), "role": werewolf}) in said
    more = i18n.translate(lang, "kiosk.form.more")
    lines = list(shown)
    pages = len(k.top.pages())  # type: ignore[attr-defined]
    assert (pages > 1) == any(b.label == more for b in k.top.buttons())
    for _ in range(pages - 1):  # the rest of the lines, a page at a time
        touch(k, more)
        lines += drawn(scene, text)
        assert not text_problems(text.record)
    for wolf in pack:
        assert i18n.translate(lang, "kiosk.moderator.vote", {"player": wolf.title(), "option": "Gus"}) in lines
    flat = "".join(lines).replace(" ", "")
    expected = moderator_lines(lang, scene.kiosk.feed.host_view())  # type: ignore[union-attr]
    assert len(expected) == 1 + 7 + 1 + 2  # the deal and its seven roles, the vote and its two wolves
    assert all(line.replace(" ", "") in flat for line in expected)  # every line drawn, none lost to the panel
    assert all(f" {p} " not in f" {line} " for line in lines for p in SEVEN)  # names, never ids
    touch(k, i18n.translate(lang, "kiosk.menu.close"))
    assert k.top.name != "moderator"


def test_the_moderators_screen_closes_by_itself_and_a_playing_host_has_none(tmp_path: Path, text: TextCache) -> None:
    scene = night(tmp_path, text, "en")
    k = scene.kiosk
    to_menu(scene)
    touch(k, i18n.translate("en", "kiosk.menu.moderator"))
    assert k.top.name == "moderator"
    scene.at(scene.clock.now + int(k.settings.booth_timeout_s * 1000) + 1)  # left untouched, as a booth
    k.process()
    assert k.top.name != "moderator"

    playing = night(tmp_path, text, "en", moderator=False)
    to_menu(playing)
    assert i18n.translate("en", "kiosk.menu.moderator") not in [b.label for b in playing.kiosk.top.buttons()]


@pytest.mark.parametrize("lang", ["en", "th"])
def test_the_host_says_at_setup_that_they_moderate_by_touch(text: TextCache, shots_dir: Path, lang: str) -> None:
    """Setup screen, "Players and options", Next, the options' last row "Moderator who does not play": yes,
    Start. The new game is moderated (its setup, in the log) and the new setup screen says so to all."""
    scene = make_scene(surface("800x480"), text, lang)
    k = scene.kiosk
    touch(k, key="play")  # the attract loop's "Touch to play": the game list
    touch(k, i18n.translate(lang, "game.toolkit.title"))
    assert k.top.name == "setup", k.top.name
    touch(k, key="change")
    assert k.top.name == "seating", k.top.name
    touch(k, key="next")
    assert k.top.name == "options", k.top.name
    no = i18n.translate(lang, "kiosk.option.no")
    assert button(k, key=("toggle", "moderator")).label == no  # a host who plays, until the host says otherwise
    touch(k, key=("toggle", "moderator"))
    assert button(k, key=("toggle", "moderator")).label == i18n.translate(lang, "kiosk.option.yes")
    drawn(scene, text)
    pygame.image.save(k.surface, str(shots_dir / f"moderator-options-{lang}.png"))
    assert not text_problems(text.record)
    assert i18n.translate(lang, "kiosk.option_label.moderator") in " ".join(d.text for d in text.record)
    touch(k, key="start")
    scene.pump()
    referee = scene.table.referee
    assert referee.setup.moderator is True and referee.setup.game == "toolkit"
    assert k.public["moderated"] is True
    assert k.top.name == "setup", k.top.name
    said = " ".join(drawn(scene, text))
    assert i18n.translate(lang, "kiosk.options.value", {
        "option": i18n.translate(lang, "kiosk.option_label.moderator"),
        "value": i18n.translate(lang, "kiosk.option.yes")}) in said
    pygame.image.save(k.surface, str(shots_dir / f"moderator-setup-{lang}.png"))
    scene.close()


@pytest.mark.parametrize("lang", ["en", "th"])
def test_the_moderator_opens_the_werewolves_vote_from_the_kiosks_forms(
        tmp_path: Path, text: TextCache, shots_dir: Path, lang: str) -> None:
    """Menu, Game forms, "New secret vote of one role in “roles”" (Werewolf at first), Send: a vote among the
    werewolves only, who votes kept off the table's screen and every public view."""
    scene = night(tmp_path, text, lang)
    k = scene.kiosk
    to_menu(scene)
    touch(k, i18n.translate(lang, "kiosk.menu.host_forms"))
    assert k.top.name == "host_forms"
    # the deal is said by the name the host gave it ("Roles", in the reader's language: companion/naming.py)
    before, after = i18n.translate(lang, "toolkit.prompt.ballot_role", {"deal": "\0"}).split("\0")
    more = i18n.translate(lang, "kiosk.form.more")

    def the_role_vote() -> str | None:
        return next((b.label for b in k.top.buttons() if b.label.startswith(before) and b.label.endswith(after)
                     and "roles" not in b.label), None)

    for _ in range(6):  # the forms' list, a page at a time
        if the_role_vote() is not None:
            break
        touch(k, more)
    wanted = the_role_vote()
    assert wanted is not None, [b.label for b in k.top.buttons()]
    touch(k, wanted)
    drawn(scene, text)
    pygame.image.save(k.surface, str(shots_dir / f"moderator-role-vote-{lang}.png"))
    assert not text_problems(text.record)
    assert i18n.translate(lang, "toolkit.role.werewolf") in " ".join(d.text for d in text.record)  # the default
    touch(k, i18n.translate(lang, "kiosk.booth.send"))
    scene.pump()
    opened = [b for b in scene.table.referee.state["ballots"].values()]
    assert len(opened) == 1 and opened[0]["voters"] == wolves(scene)
    (public,) = k.public["table"]["ballots"].values()
    assert "voters" not in public and public["voter_count"] == 2
