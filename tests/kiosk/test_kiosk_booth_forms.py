"""A player's booth as a player uses it (issue 28): open it with their figure, fill a form by touch, Send,
read what was sent and the referee's answer, go Back to the list, send another, close the booth.

Every touch is at a button's centre as the screen draws it, through SDL's queue (tests/kits/kiosk_touch.py);
what the player reads is what the kiosk drew for that player's eyes (the text cache's record); each face
is measured by the 7" layout check and saved as a screenshot."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.core.contract import State
from companion.core.prompts import Choice, Field, Prompt
from companion.drawing.text import TextCache
from companion.games import registry
from companion.games.toolkit.game import Toolkit
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.scenes import Scene, make_scene, show_screen
from companion.kiosk.screens.booth import CLOSING_SAID_MS, FINISHED_MS, BoothScreen
from companion.kiosk.screens.play import PlayScreen
from companion.kiosk.screenshots import example_seats
from tests.kiosk.test_kiosk_loop import VotingToolkit
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache
from tests.kits.kiosk_touch import button, double_tap, touch
from tests.kits.layout_check import long_players, violations

__all__ = ["shots_dir", "text", "text_cache"]


def booth(k: Kiosk) -> BoothScreen:
    assert isinstance(k.top, BoothScreen), f"the booth is not up: {k.top.name}"
    return k.top


def say(k: Kiosk, msgid: str, **params: object) -> str:
    return i18n.translate(k.lang, msgid, params)


def read(scene: Scene) -> list[str]:
    """What the screen shows the booth's player now (the whole screen drawn again)."""
    k = scene.kiosk
    assert k.text.record is not None
    k._drawn = None
    k.text.record.clear()
    k.process()
    return [d.text for d in k.text.record if d.audience == "player:ana"]


def rolls(scene: Scene) -> list[str]:
    return [str(r["by"]) for r in scene.table.referee.state["rolls"]]


def places(k: Kiosk) -> dict[Hashable, pygame.Rect]:
    return {b.key: b.rect for b in k.top.buttons()}


def shot(k: Kiosk, where: Path, name: str) -> None:
    k._drawn = None
    k.process()
    pygame.image.save(k.surface, str(where / f"booth-forms-{name}-{k.lang}-{k.surface.get_width()}.png"))


@pytest.mark.parametrize(("lang", "size"), [("en", "800x480"), ("zh", "800x480"), ("th", "800x480"),
                                            ("en", "1920x1080")])
def test_send_read_what_was_sent_go_back_send_another_and_close(lang: str, size: str, text: TextCache,
                                                                 shots_dir: Path) -> None:
    scene = make_scene(surface(size), text, lang, seats=example_seats(), players=long_players())
    k = scene.kiosk
    show_screen(scene, "booth")  # Ana's figure opened her booth: the list of what she may do
    done = button(k, key="done").rect
    assert button(k, key="done").label == say(k, "kiosk.booth.close")
    assert violations(scene) == []
    shot(k, shots_dir, "1-list")
    roll = say(k, "toolkit.prompt.roll")
    touch(k, roll)
    form = places(k)
    assert form["done"] == done and "back" in form and "send" in form  # Back, Send and Close: fixed places
    assert not any(r.colliderect(done) for key, r in form.items() if key != "done")
    touch(k, key=("plus", "count"))  # two dice
    assert violations(scene) == []
    shot(k, shots_dir, "2-form")

    before = len(rolls(scene))
    double_tap(k, key="send")  # an impatient finger: Send once
    assert "send" not in places(k), "Send is gone until the answer"
    scene.pump()
    double_tap_pos = form["send"].center
    assert len(rolls(scene)) == before + 1, "one Send, one roll"
    shown = read(scene)
    assert say(k, "kiosk.booth.you_sent", what=roll) in shown
    assert f"{say(k, 'toolkit.prompt.dice_count')}: 2" in shown
    assert say(k, "kiosk.booth.accepted") in shown  # the referee's answer, in words
    assert booth(k).form is None and booth(k).sent is not None  # still in the booth, reading the receipt
    receipt = places(k)
    assert receipt["done"] == done and not receipt["done"].collidepoint(double_tap_pos)
    assert violations(scene) == []
    shot(k, shots_dir, "3-sent")

    touch(k, key="back")  # Back to the list: nothing sent
    assert booth(k).form is None and booth(k).sent is None and len(rolls(scene)) == before + 1
    assert any(isinstance(key, tuple) and key[0] == "prompt" for key in places(k))
    touch(k, key=("prompt", 0))  # the vote: open it, then Back without sending
    assert booth(k).form is not None and booth(k).form.prompt["move"] == "ballot.vote"
    touch(k, key=("choice", "option", 2))
    touch(k, key="back")
    assert booth(k).form is None
    assert scene.table.referee.state["ballots"]["exile"]["votes"]["ana"] == "ben"  # her vote as it was

    touch(k, key=("prompt", 0))  # and again, this time sent
    touch(k, key=("choice", "option", 3))
    touch(k, key="send")
    scene.pump()
    assert scene.table.referee.state["ballots"]["exile"]["votes"]["ana"] == "dao"
    shown = read(scene)
    assert say(k, "kiosk.booth.accepted") in shown
    assert any(line.endswith(long_players()[3]["name"]) for line in shown), shown  # the choice by its name
    shot(k, shots_dir, "4-sent-again")

    pos = double_tap(k, key="done")  # Close my booth, twice as fast as a finger can
    assert isinstance(k.top, PlayScreen), "the booth closed and the play screen stays"
    assert [b.label for b in k.top.buttons() if b.rect.collidepoint(pos)] in ([], [say(k, "kiosk.button.menu")])
    scene.close()


def test_a_refusal_says_why_in_words_and_change_it_opens_the_form_again(text: TextCache, shots_dir: Path) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    show_screen(scene, "booth")
    hp = say(k, "toolkit.prompt.adjust", name="HP", value=10)
    touch(k, next(b.label for b in k.top.buttons() if b.key == ("prompt", 1)))
    assert booth(k).form is not None and booth(k).form.prompt["move"] == "counter.adjust"
    while booth(k).form.values["delta"] > -10:  # type: ignore[union-attr]
        touch(k, key=("minus", "delta"))
    touch(k, key="send")  # spend all ten ...
    scene.play({"by": "host", "move": "counter.adjust", "args": {"name": "hp", "player": "ana", "delta": -5}})
    scene.pump()  # ... but the host took five first
    assert scene.table.referee.state["counters"]["hp"]["values"]["ana"] == 5
    b = booth(k)
    assert b.sent is not None and b.sent.answer is not None and b.sent.answer[1] is False
    shown = read(scene)
    refusal = say(k, "kiosk.booth.refused", reason=b.sent.answer[0])
    assert refusal in " ".join(shown), shown
    assert "reject." not in refusal and "counter.adjust" not in refusal and "ana" not in refusal  # words, no ids
    assert f"{say(k, 'toolkit.prompt.delta')}: -10" in shown  # what was sent
    assert violations(scene) == []
    shot(k, shots_dir, "refused")
    change = button(k, key="change")
    assert change.rect == button(k, key="back").rect.move(change.rect.left - button(k, key="back").rect.left, 0)
    touch(k, key="change")
    form = booth(k).form
    assert form is not None and form.prompt["move"] == "counter.adjust" and booth(k).sent is None
    assert hp not in [p.get("label") for p in booth(k).prompts()]  # the form is the new one (HP 5 now)
    assert "send" in places(k)
    scene.close()


class StrayOptionToolkit(Toolkit):
    """The toolkit whose vote form also offers "nobody", which the ballot does not have: the referee
    refuses it, and the form offered stays the same (as a game's rule can refuse what its form allows)."""

    def prompts(self, state: State, actor: str) -> Sequence[Prompt]:
        pid = actor.removeprefix("player:")
        return [Prompt("ballot.vote", "toolkit.ballot_opened", params={"name": name}, fixed={"name": name},
                       fields=(Field("option", "choice", "kind.ballot",
                                     choices=tuple(Choice(o, o.upper(), plain=True)
                                                   for o in [*b["options"], "nobody"])),))
                for name, b in state["ballots"].items() if b["open"] and pid in b["voters"]]


def voting_scene(text: TextCache, game: Toolkit) -> Scene:
    scene = make_scene(surface("800x480"), text, "en", games={**registry(), "toolkit": game})
    k = scene.kiosk
    k.settings.attract = False
    k.stack[:] = [PlayScreen(k)]
    scene.play({"by": "host", "move": "ballot.open",
                "args": {"name": "exile", "options": ["ana", "chai"], "tie": "host_decides"}})
    return scene


def test_the_same_form_refused_keeps_its_values_for_change_it(text: TextCache) -> None:
    scene = voting_scene(text, StrayOptionToolkit())
    k = scene.kiosk
    scene.tap_token("dao")
    assert booth(k).form is not None  # the one thing to do: open at once
    touch(k, "NOBODY")
    touch(k, key="send")
    scene.pump()
    b = booth(k)
    assert b.sent is not None and b.sent.answer is not None and b.sent.answer[1] is False
    assert "dao" not in scene.table.referee.state["ballots"]["exile"]["votes"]
    assert "ballot: NOBODY" in read_for(scene, "player:dao")
    touch(k, key="change")
    form = booth(k).form
    assert form is not None and form.values == {"option": "nobody"}  # as it was sent
    assert button(k, "NOBODY").style == "primary"
    touch(k, "CHAI")
    touch(k, key="send")
    scene.pump()
    assert scene.table.referee.state["ballots"]["exile"]["votes"]["dao"] == "chai"
    scene.close()


def test_the_single_thing_to_do_opens_by_itself_and_back_shows_it_in_the_list(text: TextCache) -> None:
    scene = voting_scene(text, VotingToolkit())
    k = scene.kiosk
    scene.tap_token("dao")
    assert booth(k).form is not None and len(booth(k).prompts()) == 1
    touch(k, key="back")
    k.process()
    k.process()
    assert booth(k).form is None, "Back stays on the list; the form does not open again by itself"
    entries = [b for b in k.top.buttons() if isinstance(b.key, tuple) and b.key[0] == "prompt"]
    assert len(entries) == 1
    touch(k, key=entries[0].key)
    assert booth(k).form is not None
    scene.close()


def test_a_finished_booth_says_it_will_close_then_closes(text: TextCache, shots_dir: Path) -> None:
    scene = voting_scene(text, VotingToolkit())
    k = scene.kiosk
    scene.tap_token("dao")
    assert booth(k).form is not None  # the one thing to do: open at once
    touch(k, key=("choice", "option", 1))
    touch(k, key="send")
    scene.pump()
    assert booth(k).prompts() == [] and booth(k).sent is not None
    shown = read_for(scene, "player:dao")
    assert say(k, "kiosk.booth.accepted") in shown
    seconds = -(-min(FINISHED_MS, CLOSING_SAID_MS) // 1000)
    assert say(k, "kiosk.booth.closing", seconds=seconds) in shown  # it says it will hide, and when
    shot(k, shots_dir, "closing")
    scene.clock.now += FINISHED_MS - 1
    k.process()
    assert isinstance(k.top, BoothScreen)
    assert say(k, "kiosk.booth.closing", seconds=1) in read_for(scene, "player:dao")
    scene.clock.now += 1
    k.process()
    assert isinstance(k.top, PlayScreen)
    scene.close()


def read_for(scene: Scene, audience: str) -> list[str]:
    k = scene.kiosk
    assert k.text.record is not None
    k._drawn = None
    k.text.record.clear()
    k.process()
    return [d.text for d in k.text.record if d.audience == audience]
