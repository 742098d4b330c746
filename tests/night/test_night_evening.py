"""Issue 21's acceptance: a whole evening on ONE running table (the same process, broker, kiosk and
log all evening, no restart), by touches on the kiosk, taps in phone pages (headless Chromium) and tags
on the simulated reader only. It is docs/game-night.md's walk-through; its pictures are that page's.

Power on: the attract loop plays, marked as a demo (the table was set up for the toolkit, with last
time's players). The host touches the screen, then Room 25 on the game list: the seating screen (Ana, Ben and Chai
seated), the options set by touch to those of Room 25's shortest demo script (cooperation-3), Start.
Ana's figure is enrolled, Ben and Chai and the host join by the links their seats' QR codes hold, and
the script is played to its end by touch (tests/kits/night_follow.py; a game the host starts gets the
night's seed, `Table.new_seed`). The reveal; "Another game": Lockdown, seated on the seating screen (Ana
and Chai unseated by touch, Ana seated again by her figure on the reader, a new player typed on the
on-screen keyboard), one option changed, Start. Ben's phone follows on its own, Chai's says his seat
was released; the new player joins by the new code. Ben prepares on his phone, the host undoes it from
the host menu; all three prepare; the host pauses, resumes and extends the free phase's timer, then
ends the game from the host menu; the reveal; "Play again" starts the same Lockdown table once more.

Every screen the kiosk shows on the way is checked for the 7" panel (tests/kits/layout_check.py's
`LayoutWatch`, once per distinct screen state): text under 14 px, a touch target under 48 px, text cut,
out of its box or overlapping fails the evening, named by screen and widget (issue 28).

Languages: NIGHT_EVENING_LANGS (comma separated, default "en"; CI runs English only). Pictures go to
NIGHT_DOC_SHOTS when set (docs/screenshots/night), else to a temporary folder.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.kiosk.screens.host_menu import HostMenuScreen
from companion.parts.timers import remaining as timer_remaining
from tests.kits.layout_check import watch_layout
from tests.kits.night_album import Album
from tests.kits.night_follow import FIGURE_UID, Follower
from tests.kits.night_forms import plain
from tests.kits.night_kiosk import Finger, enroll_figure
from tests.kits.night_play import ranked_names
from tests.kits.night_script import HandClock, Step, demo
from tests.kits.night_table import Night, night
from tests.kits.phone_page_kit import WAIT_MS, PhonePage

LANGS = [lang for lang in os.environ.get("NIGHT_EVENING_LANGS", "en").split(",") if lang]
LOCALES = {"en": "en-US", "th": "th-TH", "zh": "zh-CN"}
NEW_NAME = {"en": "Mia", "th": "นิด", "zh": "Mia"}  # typed on the kiosk's keyboard (Chinese: on a phone)
#: Layout violations on the evening's screens not fixed yet: (screen, kind, widget). Each entry is a bug
#: still to fix; remove it with its fix (a violation not listed here fails the test).
KNOWN: set[tuple[str, str, str]] = set()
PREPARES = {pid: Step("lockdown.prepare", f"player:{pid}", args, 0) for pid, args in (  # lockdown-5p's
    ("ben", {"spawn": "B604", "force": 3, "speed": 5, "load": 2}),
    ("ana", {"spawn": "B201", "force": 0, "speed": 4, "load": 6}),
    ("p1", {"spawn": "B102", "force": 1, "speed": 2, "load": 7}))}


@pytest.fixture
def pictures(tmp_path: Path) -> Path:
    where = os.environ.get("NIGHT_DOC_SHOTS")
    path = Path(where) if where else tmp_path / "pictures"
    path.mkdir(parents=True, exist_ok=True)
    return path


def tr(lang: str, msgid: str, **params: Any) -> str:
    return i18n.translate(lang, msgid, params)


def menu(finger: Finger) -> HostMenuScreen:
    finger.open_menu()  # Menu, then the host's PIN on the PIN pad
    top = finger.night.kiosk.top
    assert isinstance(top, HostMenuScreen), finger.screen()
    return top


def press_control(finger: Finger, prefix: str) -> str:
    """The host menu's control whose key starts with `prefix` (a timer's pause, its +30 s, undo); the
    move it sent."""
    controls = menu(finger).controls()
    control = next((c for c in controls if c.key.startswith(prefix)), None)
    assert control is not None, f"the host menu offers no {prefix!r}: {[c.key for c in controls]}"
    finger.press_key(control.key)
    finger.night.sync()
    return control.move


def shows(phone: PhonePage, words: str) -> None:
    """Wait until the phone's page reads `words` (a person looks again)."""
    phone.page.wait_for_function("(w) => document.body.innerText.includes(w)", arg=words, timeout=WAIT_MS)


def names_on(drawn: list[str], *names: str) -> bool:
    """Whether each name is in some text the screen drew ("Seat 1: Ana")."""
    return all(any(name in text for text in drawn) for name in names)


def new_game_on(table: Night, number: int) -> None:
    table.until(lambda: table.kiosk.public.get("number") == number and table.kiosk.top.name == "setup",
                f"game {number}'s setup screen")


def reveal(finger: Finger) -> None:
    assert finger.screen() == "reveal", finger.screen()
    while any(b.key == "next" for b in finger.buttons()):
        finger.press_key("next")


def type_name(finger: Finger, lang: str, name: str) -> None:
    """A name typed key by key on the on-screen keyboard (its Thai layout for a Thai name)."""
    if not any(b.key == ("key", name[0]) or b.key == ("key", name[0].lower()) for b in finger.buttons()):
        finger.press_key("switch")  # the other layout (Latin <-> Thai)
    for ch in name:
        if not any(b.key == ("key", ch) for b in finger.buttons()):
            finger.press_key("shift")
        finger.press_key(("key", ch))


@pytest.mark.parametrize("lang", LANGS)
def test_an_evening_from_the_attract_loop_to_play_again(lang: str, tmp_path: Path, pictures: Path,
                                                        browser: Any) -> None:
    started = time.monotonic()
    script = demo("room25", "cooperation-3")
    clock = HandClock()
    ids = [pid for pid, _ in script.players]
    with night(tmp_path / "state", "toolkit", ids, {}, seed=script.seed, lang=lang, names=dict(script.players),
               clock=clock) as table:
        finger = Finger(table, tmp_path)
        album = Album(finger, lang, pictures)
        follower = Follower(table, finger, script, clock)
        phones: list[PhonePage] = []
        watch = watch_layout(table)  # the 7" layout check on each screen the kiosk shows (issue 28)
        try:
            # Power on: the attract loop plays a recorded game, marked as a demo.
            assert finger.screen() == "attract"
            drawn = album.both("01-attract")
            title = tr(lang, "game.room25.title")
            assert tr(lang, "kiosk.attract.demo_banner", title=tr(lang, "game.toolkit.title")) in drawn
            finger.press_key("play")  # "Touch to play": the game list (issue 30)
            assert title in [b.label for b in finger.buttons()]
            # The host touches Room 25 on the list: last time's players are seated; its options are set
            # by touch to the script's (co-op, real room tiles, 90 s to program); Start.
            finger.press_words("game.room25.title")
            assert finger.screen() == "seating"
            seat = "kiosk.seating.seated_as"
            assert [b.label for b in finger.buttons()][:3] == [tr(lang, seat, number=n, name=m) for n, m in
                                                                ((1, "Ana"), (2, "Ben"), (3, "Chai"))]
            finger.press_key("next")
            assert finger.screen() == "options"
            finger.press_key(("choice", "mode", "cooperation"))
            finger.press_key(("choice", "tiles", "physical"))
            while table.kiosk.top.plan.options["program_seconds"] < 90:  # type: ignore[attr-defined]
                finger.press_key(("plus", "program_seconds"))
            assert table.kiosk.top.plan.options == script.options  # type: ignore[attr-defined]
            album.kiosk("02-options")
            finger.press_key("start")
            new_game_on(table, 2)
            # Its setup screen: the seats and their QR codes.
            urls = table.join_urls()
            for pid in ("ben", "chai", "host"):
                phone = PhonePage.open(browser, urls[pid], locale=LOCALES[lang])
                phone.online()
                phones.append(phone)
                follower.phones[pid] = phone
            album.phone = follower.phones["ben"]
            drawn = album.both("03-setup")
            assert names_on(drawn, "Ana", "Ben", "Chai"), drawn
            finger.press_key("start")
            assert finger.screen() == "play"
            enroll_figure(finger, FIGURE_UID, "Ana")
            album.both("04-play")

            follower.play()
            public = table.kiosk.public
            assert public.get("ended"), "Room 25's script did not end the game"
            logged = [e.input for e in table.accepted() if e.input.by != "clock"]
            assert [(i.by, i.move, plain(dict(i.args))) for i in logged] == [
                (s.by, s.move, plain(s.args)) for s in script.inputs()]
            reveal(finger)
            drawn = album.both("05-reveal")
            for place, names in enumerate(ranked_names(public), start=1):
                for name in names:  # a row per player, a shared place on each (issue 28: 24-letter names)
                    assert tr(lang, "kiosk.reveal.place", place=place, names=name) in drawn

            # Another game: Lockdown, seated on the kiosk.
            finger.press_key("another")
            assert finger.screen() == "games"
            album.kiosk("06-games")
            finger.press_words("game.lockdown.title")
            assert finger.screen() == "seating"
            assert [b.label for b in finger.buttons()][:3] == [tr(lang, seat, number=n, name=m) for n, m in
                                                                ((1, "Ana"), (2, "Ben"), (3, "Chai"))]
            finger.touch(finger.find(lambda b: b.label == tr(lang, seat, number=1, name="Ana"), "Ana"))
            finger.touch(finger.find(lambda b: b.label == tr(lang, seat, number=2, name="Chai"), "Chai"))
            table.tap_tag(FIGURE_UID)  # Ana's figure, enrolled in Room 25: she sits down again
            assert finger.screen() == "seating"
            finger.press_key("add")
            assert finger.screen() == "keyboard"
            type_name(finger, lang, NEW_NAME[lang])
            album.kiosk("07-keyboard")
            finger.press_words("kiosk.keyboard.done")
            seated = [tr(lang, seat, number=n, name=m) for n, m in ((1, "Ben"), (2, "Ana"), (3, NEW_NAME[lang]))]
            labels = [b.label for b in finger.buttons()]
            assert set(seated) <= set(labels) and "Chai" in labels, labels
            album.kiosk("08-seating")
            finger.press_key("next")
            assert finger.screen() == "options"
            finger.press_key(("plus", "free_seconds"))
            album.kiosk("09-options")
            finger.press_key("start")
            new_game_on(table, 3)
            lockdown = tr(lang, "game.lockdown.title")
            # Ben's phone follows to the new game on its own: it offers Lockdown's preparation
            album.phone.page.wait_for_selector("form[data-move='lockdown.prepare']", timeout=WAIT_MS)
            shows(album.phone, tr(lang, "phone.phase", phase=tr(lang, "phase.lockdown.setup")))  # in words
            shows(follower.phones["chai"], tr(lang, "phone.seat_released"))  # Chai sits this one out
            mia = PhonePage.open(browser, table.join_urls()["p1"], locale=LOCALES[lang])
            phones.append(mia)
            mia.online()
            follower.phones["p1"] = mia
            drawn = album.both("10-setup")
            assert names_on(drawn, "Ben", "Ana", NEW_NAME[lang]), drawn
            assert table.kiosk.public["options"]["free_seconds"] == 330
            finger.press_key("start")
            assert finger.screen() == "play"

            # Ben prepares on his phone (spawn room, force, speed, load); the host undoes it from the
            # kiosk's menu, and Ben prepares again. Ana prepares on the kiosk's booth, Mia on her phone.
            follower._say(PREPARES["ben"])
            album.both("11-prepared")
            finger.press_words("kiosk.button.menu")  # the host menu is locked: the PIN pad first
            assert finger.screen() == "pin", finger.screen()
            album.kiosk("12-pin")
            finger.host_pin()
            assert finger.screen() == "menu", finger.screen()
            album.kiosk("12-host-menu")
            finger.press_key("c")
            press_control(finger, "undo")
            made = [e.input for e in table.accepted()]
            assert [i.move for i in made if i.by == "host"] == ["host.undo"]
            assert table.kiosk.public.get("corrections"), "the undo is in the public view"
            album.phone.page.wait_for_selector("form[data-move='lockdown.prepare']", timeout=WAIT_MS)
            for pid in ("ben", "ana", "p1"):
                follower._say(PREPARES[pid])
            follower._booth_done()
            # The free phase's timer runs: the host pauses it, resumes it and gives 30 s more.
            assert table.kiosk.public.get("phase") == "free", table.kiosk.public.get("phase")
            clock.set(clock.now_ms() + 5000)  # five seconds of talk
            timed = [press_control(finger, "pause:free")]
            album.both("13-paused")
            timed.append(press_control(finger, "resume:free"))
            left = timer_remaining(table.kiosk.public["table"]["timers"]["free"], clock.now_ms())
            assert left == 330_000 - 5000  # paused and resumed: nothing lost
            timed.append(press_control(finger, "extend:free"))
            assert timer_remaining(table.kiosk.public["table"]["timers"]["free"], clock.now_ms()) == left + 30_000
            hosted = [e.input.move for e in table.accepted() if e.input.by == "host"]
            assert hosted == ["host.undo", *timed], hosted
            # The host ends it from the menu (its second step), takes the end back with Undo, and ends it
            # again: the reveal; Play again.
            menu(finger)
            finger.press_words("host.menu.end")
            assert finger.screen() == "confirm" and not table.kiosk.public["ended"], finger.screen()
            album.kiosk("14a-confirm-end")
            finger.press_words("kiosk.confirm.end.yes")
            table.until(lambda: table.kiosk.top.name == "reveal", "the reveal after the host's end")
            press_control(finger, "undo")  # Menu on the reveal, the PIN, Undo: the end is taken back
            table.until(lambda: not table.kiosk.public["ended"] and table.kiosk.top.name == "play",
                        "play again after the end was undone")
            assert table.kiosk.notice is not None
            assert table.kiosk.notice[0] == tr(lang, "kiosk.notice.end_undone"), table.kiosk.notice
            album.both("14b-end-undone")
            menu(finger)
            finger.press_words("host.menu.end")
            finger.press_words("kiosk.confirm.end.yes")
            table.until(lambda: table.kiosk.top.name == "reveal", "the reveal after the host's end")
            hosted = [e.input.move for e in table.accepted() if e.input.by == "host"]
            assert hosted[-3:] == ["game.end", "host.undo", "game.end"], hosted
            reveal(finger)
            album.both("14-reveal")
            finger.press_key("again")
            new_game_on(table, 4)
            album.phone.page.wait_for_selector("form[data-move='lockdown.prepare']", timeout=WAIT_MS)  # game 3
            drawn = album.both("15-play-again")
            assert lockdown in " ".join(drawn) and names_on(drawn, "Ben", "Ana", NEW_NAME[lang]), drawn

            # The log holds the whole evening: three games, one after the other, in one SQLite file.
            log = table.table.referee.log
            games = [log.game(n) for n in (1, 2, 3, 4)]
            assert [g.setup.game if g else None for g in games] == ["toolkit", "room25", "lockdown", "lockdown"]
            assert [(p.id, p.name) for p in games[3].setup.players] == [  # type: ignore[union-attr]
                ("ben", "Ben"), ("ana", "Ana"), ("p1", NEW_NAME[lang])]
            assert log.events(1) == [], "the table's first game (the toolkit) was never played"
            assert [e.input.move for e in log.events(3) if e.input.by == "host"][-1] == "game.end"
            watch.check(KNOWN)
            print(f"\nevening ({lang}): {finger.touches} kiosk touches, {len(table.taps)} reader taps, "
                  f"{album.taken} pictures, {time.monotonic() - started:.1f} s; {watch.said()}")
        finally:
            watch.tell_so_far(KNOWN)  # said even when the evening stopped short of its end
            follower.phones.clear()
            for phone in phones:
                phone.close()
