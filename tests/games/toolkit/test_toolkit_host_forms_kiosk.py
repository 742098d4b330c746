"""The host opens a secret vote, deals roles and makes and starts a timer from the kiosk's host menu,
by touch only (issue 21): SDL mouse events at the buttons' positions on the real kiosk (dummy driver),
the buttons found by the words a person reads. No JSON, no console: the forms come from the toolkit's
host prompts (companion/games/toolkit/host_forms.py). The public screen never shows a role or a vote.
Screenshots go to KIOSK_SHOTS (or a temporary folder)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from tests.kiosk.test_host_controls_kiosk import draw, labels, open_menu, press, say, table_of, touch
from tests.kits.kiosk_fixtures import shots_dir, text, text_cache, text_problems

__all__ = ["shots_dir", "text", "text_cache"]

ROLE_WORDS = ("werewolf", "seer", "villager")


def to_forms(scene: object, k: object) -> None:
    """The host menu's "Game forms" (after a form is sent the forms stay open, showing what was sent:
    then Back to their list)."""
    if k.top.name == "host_forms":  # type: ignore[attr-defined]
        if k.top.sent is not None:  # type: ignore[attr-defined]
            press(scene, say(k, "kiosk.form.back"))  # type: ignore[arg-type]
        return
    open_menu(scene)  # type: ignore[arg-type]
    press(scene, say(k, "kiosk.menu.host_forms"))  # type: ignore[arg-type]
    assert k.top.name == "host_forms"  # type: ignore[attr-defined]


def press_listed(scene: object, k: object, words: str) -> None:
    """Turn the list's pages (More) until the button that says `words` shows, and press it."""
    back, more = say(k, "kiosk.form.back"), say(k, "kiosk.form.more")  # type: ignore[arg-type]
    for _ in range(5):  # to the first page
        if words in labels(k) or back not in labels(k):  # type: ignore[arg-type]
            break
        press(scene, back)  # type: ignore[arg-type]
    for _ in range(5):
        if words in labels(k):  # type: ignore[arg-type]
            press(scene, words)  # type: ignore[arg-type]
            return
        press(scene, more)  # type: ignore[arg-type]
    raise AssertionError(f"no button {words!r} on any page")


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_the_host_opens_a_vote_deals_roles_and_starts_a_timer_by_touch(
        tmp_path: Path, lang: str, text: TextCache, shots_dir: Path) -> None:
    scene = table_of(tmp_path, "toolkit", text, lang=lang)
    k = scene.kiosk
    to_forms(scene, k)
    draw(k, text)
    pygame.image.save(k.surface, str(shots_dir / f"host-forms-{lang}.png"))
    assert not text_problems(text.record)

    # a secret exile vote among the seated players; the tie goes to the host
    press_listed(scene, k, say(k, "toolkit.prompt.ballot_players"))
    press(scene, say(k, "kiosk.form.open"))  # the first row: the name, among the suggested names
    press(scene, say(k, "toolkit.name.exile"))
    tie_row = [b for b in k.top.buttons() if b.key == ("open", "tie")]
    touch(k, tie_row[0].rect.center)
    press(scene, say(k, "toolkit.tie.host_decides"))
    draw(k, text)
    pygame.image.save(k.surface, str(shots_dir / f"host-forms-vote-{lang}.png"))
    assert not text_problems(text.record)
    press(scene, say(k, "kiosk.booth.send"))
    exile = k.public["table"]["ballots"]["exile"]
    assert exile["open"] and exile["options"] == ["ana", "ben", "chai", "dao"]
    assert exile["tie"] == "host_decides"
    draw(k, text)  # what was sent and the referee's answer, in words, where the form was
    shown = [d.text for d in text.record]
    assert say(k, "kiosk.booth.you_sent", what=say(k, "toolkit.prompt.ballot_players")) in shown
    assert say(k, "kiosk.host_forms.accepted") in shown and say(k, "kiosk.booth.send") not in labels(k)
    pygame.image.save(k.surface, str(shots_dir / f"host-forms-sent-{lang}.png"))
    assert not text_problems(text.record)

    # the name "exile" is taken now: the next vote's form no longer suggests it
    to_forms(scene, k)
    press_listed(scene, k, say(k, "toolkit.prompt.ballot_players"))
    press(scene, say(k, "kiosk.form.open"))
    assert say(k, "toolkit.name.exile") not in labels(k)
    press(scene, say(k, "kiosk.form.close"))
    press(scene, say(k, "kiosk.form.back"))

    # Werewolf roles for the four seated players, from the preset
    press_listed(scene, k, say(k, "toolkit.prompt.deal_preset", count=4))
    press(scene, say(k, "kiosk.booth.send"))
    assert k.public["table"]["deals"]["roles"]["pool"] == ["seer", "villager", "villager", "werewolf"]

    # a "day" timer of 4 minutes, then started from the host menu
    to_forms(scene, k)
    press_listed(scene, k, say(k, "toolkit.prompt.timer_create"))
    press(scene, "+60")
    press(scene, say(k, "kiosk.booth.send"))
    day = k.public["table"]["timers"]["day"]
    assert day["duration"] == 240_000 and day["warnings"] == [30] and not day["running"]
    press(scene, say(k, "kiosk.form.back"))  # from what was sent to the list
    press(scene, say(k, "kiosk.menu.close"))  # the forms closed: back at the table
    open_menu(scene)
    press(scene, say(k, "host.menu.start", timer=say(k, "timer.toolkit.day")))
    assert k.public["table"]["timers"]["day"]["running"]

    # the players vote (as their phones would); the public screen shows who has voted, never what or a role
    for pid, choice in (("ana", "ben"), ("ben", "chai"), ("chai", "ben")):
        scene.play({"by": f"player:{pid}", "move": "ballot.vote", "args": {"name": "exile", "option": choice}})
    while k.top.name != "play":
        k.pop()
    draw(k, text)
    pygame.image.save(k.surface, str(shots_dir / f"host-forms-public-{lang}.png"))
    shown = " ".join(d.text for d in text.record).lower()
    roles = {i18n.translate(lang, f"toolkit.role.{r}").lower() for r in ROLE_WORDS} | set(ROLE_WORDS)
    assert not [w for w in roles if w in shown]
    table = k.public["table"]
    assert "assigned" not in table["deals"]["roles"] and "votes" not in table["ballots"]["exile"]


def type_on_keyboard(scene: object, k: object, word: str) -> None:
    """The host types `word` on the on-screen keyboard, key by key (lower case), then Done."""
    assert k.top.name == "keyboard"  # type: ignore[attr-defined]
    if word[:1] not in labels(k):  # type: ignore[arg-type]  # a Thai keyboard: its Latin letters first
        switch = next(b for b in k.top.buttons() if b.key == "switch")  # type: ignore[attr-defined]
        press(scene, switch.label)  # type: ignore[arg-type]
    for char in word:
        press(scene, char)  # type: ignore[arg-type]
        if k.top.shifted:  # type: ignore[attr-defined]
            press(scene, say(k, "kiosk.keyboard.shift"))  # type: ignore[arg-type]
    press(scene, say(k, "kiosk.keyboard.done"))  # type: ignore[arg-type]


def test_the_host_types_a_votes_name_and_options_on_the_kiosks_keyboard(tmp_path: Path, text: TextCache) -> None:
    """A vote on typed options from the kiosk alone: each option typed on the on-screen keyboard (a
    `texts` list gains a line per Done); the vote opens with exactly what was typed."""
    scene = table_of(tmp_path, "toolkit", text, lang="en")
    k = scene.kiosk
    to_forms(scene, k)
    press_listed(scene, k, say(k, "toolkit.prompt.ballot_typed"))
    press(scene, say(k, "kiosk.form.open"))  # the name, among the suggested names
    press(scene, say(k, "toolkit.name.vote"))
    for option in ("margherita", "funghi"):
        press(scene, say(k, "kiosk.form.type_more"))
        type_on_keyboard(scene, k, option)
    draw(k, text)
    assert not text_problems(text.record)
    press(scene, say(k, "kiosk.booth.send"))
    pizza = k.public["table"]["ballots"]["vote"]
    assert pizza["open"] and pizza["options"] == ["margherita", "funghi"]


@pytest.mark.parametrize(("lang", "size"), [("en", "800x480"), ("th", "800x480"), ("zh", "1920x1080")])
def test_a_sent_host_form_shows_what_was_sent_and_a_refusal_can_be_changed(
        tmp_path: Path, lang: str, size: str, text: TextCache, shots_dir: Path) -> None:
    """A typed vote whose two options are the same: the host reads what was sent and, in words, why the
    referee refused it (issue 28: a form that clears after Send looks failed); Change it brings the form
    back as it was sent; the second option typed again, Send, and the receipt says it was accepted."""
    from tests.kits.kiosk_touch import double_tap
    from tests.kits.layout_check import violations

    scene = table_of(tmp_path, "toolkit", text, size=size, lang=lang)
    k = scene.kiosk
    to_forms(scene, k)
    press_listed(scene, k, say(k, "toolkit.prompt.ballot_typed"))
    press(scene, say(k, "kiosk.form.open"))
    press(scene, say(k, "toolkit.name.vote"))
    for option in ("pizza", "pizza"):
        press(scene, say(k, "kiosk.form.type_more"))
        type_on_keyboard(scene, k, option)
    send = next(b for b in k.top.buttons() if b.key == "send").rect
    press(scene, say(k, "kiosk.booth.send"))
    assert "vote" not in k.public["table"]["ballots"]
    draw(k, text)
    shown = [d.text for d in text.record]
    heading = say(k, "kiosk.booth.you_sent", what=say(k, "toolkit.prompt.ballot_typed"))
    assert heading in shown and any("pizza, pizza" in line for line in shown)
    refusal = say(k, "kiosk.booth.refused", reason=say(k, "reject.ballot_options"))
    assert refusal.replace(" ", "") in "".join(shown).replace(" ", "")  # wrapped, but whole
    change = next(b for b in k.top.buttons() if b.key == "change")
    assert change.rect == send, "Change it where Send was"
    pygame.image.save(k.surface, str(shots_dir / f"host-forms-refused-{lang}-{size}.png"))
    text.record = []
    assert violations(scene) == []

    press(scene, say(k, "kiosk.booth.change"))  # the form again, as it was sent
    assert k.top.form is not None and k.top.form.values["options"] == ["pizza", "pizza"]
    press(scene, say(k, "kiosk.form.clear"))
    for option in ("pizza", "funghi"):
        press(scene, say(k, "kiosk.form.type_more"))
        type_on_keyboard(scene, k, option)
    announced = int(k.public.get("announced") or 0)
    double_tap(k, key="send")  # an impatient finger: Send once, its receipt at once in the form's place
    assert "send" not in [b.key for b in k.top.buttons()]
    scene.pump()
    assert k.public["table"]["ballots"]["vote"]["options"] == ["pizza", "funghi"]
    assert k.public["announced"] == announced + 1, "one Send, one vote opened"
    assert k.notice_msgid == "kiosk.notice.done", "no second Send (refused: the name taken) came after"
    draw(k, text)
    shown = [d.text for d in text.record]
    assert say(k, "kiosk.host_forms.accepted") in shown and "change" not in [b.key for b in k.top.buttons()]
    pygame.image.save(k.surface, str(shots_dir / f"host-forms-accepted-{lang}-{size}.png"))
    press(scene, say(k, "kiosk.form.back"))  # Back: the list of forms
    assert k.top.name == "host_forms" and k.top.sent is None and k.top.form is None
