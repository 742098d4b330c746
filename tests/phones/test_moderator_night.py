"""A Werewolf night with a moderator who does not play (issue 28, item 5), end to end in headless Chromium
on a real Mosquitto.

Seven players; the host said at setup that they moderate. On the host's page the moderator deals the
Werewolf preset (the toolkit's form), reads on the page who has which role, opens the wolves' vote among
the two wolves only (unticking everyone else under "Who votes"), and the wolves vote from their own
phones; a villager's phone has nothing to vote in it. The moderator closes the vote: the page shows each
wolf's vote, and the result is public as any vote's. Meanwhile no player's phone, no spectator, nothing on
the public topic and no log line carries a role before the moderator reveals it; the reveal at the end
shows that the same check sees a role once it is public. Screenshots go to KIOSK_SHOTS (or a temporary
folder).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from companion import games, i18n, scripting
from companion.core.eventlog import EventLog
from companion.games.toolkit import presets
from tests.kits import phones_kit
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, StillClock, serving
from tests.kits.phones_kit import Phone

__all__ = ["shots_dir"]

SEVEN = ["ana", "ben", "chai", "dao", "eve", "fon", "gus"]
NAMES = {p: p.title() for p in SEVEN}
SETUP = {"game": "toolkit", "players": [{"id": p, "name": NAMES[p]} for p in SEVEN], "seed": 28, "moderator": True}
ROLE_WORDS = sorted(set(presets.werewolf(len(SEVEN)) or []))


def say(msgid: str, **params: object) -> str:
    return i18n.translate("en", msgid, params)


def pairs(pid: str, role: str) -> list[bytes]:
    """How a player's role reads in any JSON the table sends (compact, or spaced as Python writes it)."""
    return [f'"{pid}":"{role}"'.encode(), f'"{pid}": "{role}"'.encode()]


def carries_a_role(blobs: list[bytes], assigned: dict[str, str], skip: str | None = None) -> list[str]:
    """The players whose role some blob carries (never `skip`'s own, which their phone may show), and any
    whole deal or list of the wolves' vote's voters."""
    found = [pid for pid, role in assigned.items() if pid != skip and any(
        needle in blob for blob in blobs for needle in pairs(pid, role))]
    whole = [b'"assigned"', b'"moderator":{', b'"moderator": {', b'"moderator_lines"']
    found += [w.decode() for w in whole if any(w in blob for blob in blobs)]
    return found


def test_a_moderator_runs_a_werewolf_night_and_no_role_leaks(tmp_path: Path, browser: Browser, shots_dir: Path,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="companion")
    referee = scripting.run(games.registry(), EventLog(tmp_path / "game.sqlite3"), [json.dumps(SETUP)])
    with phones_kit.serving(referee, tmp_path, "mosquitto", clock=StillClock(0), spectators=1) as run, \
            serving(run) as (_, links):
        cred = run.phones.game.spectators[0]
        spy = Phone(run.phones.address.host, run.phones.address.port, cred.user, cred.password)
        assert not spy.connect().is_failure
        assert spy.subscribe(f"{run.phones.mirror.topics.base}/#")  # all it may read: the public topics
        moderator = PhonePage.open(browser, links["host"].url())
        pages = {p: PhonePage.open(browser, links[p].url()) for p in SEVEN}
        fan = PhonePage.open(browser, links["spectator1"].url())
        try:
            moderator.online()
            for page in (*pages.values(), fan):
                page.online()
            # everyone is told the table has a moderator
            moderator.page.wait_for_selector(f"#moderated:has-text('{say('phone.moderator.you')}')", timeout=WAIT_MS)
            for page in (pages["ana"], fan):
                page.page.wait_for_selector(f"#moderated:has-text('{say('phone.moderator.table')}')", timeout=WAIT_MS)

            # the moderator deals the Werewolf preset from the page's form
            deal = moderator.page.locator(moderator.form("roles.deal")).first
            deal.locator("button.send").click()
            moderator.toast("Done.")
            moderator.page.wait_for_selector("#moderator .deal li[data-player]", timeout=WAIT_MS)
            rows = moderator.page.locator("#moderator .deal li[data-player]")
            assert rows.count() == len(SEVEN)
            shown = {rows.nth(i).get_attribute("data-player"): rows.nth(i).locator("span").nth(1).inner_text()
                     for i in range(rows.count())}
            assigned = dict(run.referee.state["deals"]["roles"]["assigned"])
            assert shown == {p: say(f"toolkit.role.{r}") for p, r in assigned.items()}  # the deal, in words
            for i in range(rows.count()):  # each row names its player
                pid = str(rows.nth(i).get_attribute("data-player"))
                assert rows.nth(i).locator("span").first.inner_text() == NAMES[pid]
            wolves = [p for p, word in shown.items() if word == say("toolkit.role.werewolf")]
            assert len(wolves) == 2
            villager = next(p for p in SEVEN if assigned[p] == "villager")
            target = next(p for p in SEVEN if p not in wolves and p != villager)

            # the wolves' vote: only the wolves vote (the host's form, "Who votes" unticked for the others)
            form = moderator.page.locator(moderator.form("ballot.open")).first
            form.locator("fieldset[data-kind='text'] input").fill("wolves")
            voters = form.locator("fieldset[data-kind='subset']", has_text=say("toolkit.prompt.voters"))
            for p in SEVEN:
                if p not in wolves:
                    voters.locator("label.choice", has_text=NAMES[p]).locator("input").uncheck()
            form.locator("button.send").click()
            moderator.toast("Done.")
            moderator.page.wait_for_selector("#moderator .ballot-cast[data-ballot='wolves']", timeout=WAIT_MS)
            wolves_vote = run.referee.state["ballots"]["wolves"]
            assert wolves_vote["voters"] == wolves

            pages[villager].page.wait_for_selector(".ballot[data-ballot='wolves']", timeout=WAIT_MS)
            assert not pages[villager].page.locator("form[data-move='ballot.vote']").count()
            for wolf in wolves:
                pages[wolf].choose_and_send("ballot.vote", NAMES[target])
                pages[wolf].toast("Done.")
            moderator.page.wait_for_selector(f"#moderator .ballot-cast:has-text('{say('phone.moderator.all_voted')}')",
                                             timeout=WAIT_MS)
            moderator.page.screenshot(path=str(shots_dir / "moderator-night-roles.png"), full_page=True)
            moderator.page.locator(moderator.form("ballot.close")).locator("button.send").click()
            moderator.toast("Done.")
            cast = moderator.page.locator("#moderator .ballot-cast[data-ballot='wolves'] .votes li")
            cast.first.wait_for(timeout=WAIT_MS)
            assert sorted(cast.nth(i).inner_text().replace("\n", " ").replace("\t", " ") for i in range(cast.count())) \
                == sorted(f"{NAMES[w]} {NAMES[target]}" for w in wolves)  # votes as cast, once closed
            result = say("phone.ballot.winner", winner=NAMES[target])
            for page in (pages[villager], fan):  # the result is public, as any vote's
                page.page.wait_for_selector(f".ballot[data-ballot='wolves'] .winner:has-text('{result}')",
                                            timeout=WAIT_MS)
            pages[villager].page.screenshot(path=str(shots_dir / "moderator-night-villager.png"), full_page=True)
            assert pages[villager].page.locator(".ballot[data-ballot='wolves'] .meta").first.inner_text().endswith(
                say("phone.ballot.cast", cast=2, voters=2))

            # nothing of the deal reached any player's phone but their own role, nor anything public
            for p, page in pages.items():
                assert carries_a_role(page.frames, assigned, skip=p) == [], p
                assert not page.page.locator("#moderator").count()
            assert carries_a_role(fan.frames, assigned) == []
            public = [m.payload for m in spy.seen]
            assert public and carries_a_role(public, assigned) == []
            assert not any(b'"voters":["' + wolves[0].encode() in blob for blob in public)
            assert not any(w in line for line in (r.getMessage() for r in caplog.records) for w in ROLE_WORDS)
            assert carries_a_role(moderator.frames, assigned) != []  # the moderator's page did get them

            # the reveal: from now on the public carries that wolf's role, and the same check sees it
            run.table.put({"by": "host", "move": "roles.reveal", "args": {"name": "roles", "player": wolves[0]}})
            fan.page.wait_for_selector(f"#roles:has-text('{NAMES[wolves[0]]}')", timeout=WAIT_MS)
            spy.wait_for(lambda m: any(n in m.payload for n in pairs(wolves[0], "werewolf")))
            assert carries_a_role([m.payload for m in spy.seen], assigned) == [wolves[0]]
            assert carries_a_role(fan.frames, assigned) == [wolves[0]]
        finally:
            for page in (moderator, *pages.values(), fan):
                page.close()
            spy.close()


def test_the_host_says_on_the_phone_that_they_moderate_the_next_game(tmp_path: Path, browser: Browser) -> None:
    """A toolkit table not begun, the host playing: the host's page's new-game form, "I moderate and do not
    play" ticked, Start. The new game is moderated (its setup, in the log), the host's page says "You
    moderate", a player's page says the table has a moderator."""
    plain = {**SETUP, "players": SETUP["players"][:4], "moderator": False}
    referee = scripting.run(games.registry(), EventLog(tmp_path / "game.sqlite3"), [json.dumps(plain)])
    with phones_kit.serving(referee, tmp_path, "mosquitto", clock=StillClock(0)) as run, \
            serving(run) as (_, links):
        first = run.referee.game_id
        chief = PhonePage.open(browser, links["host"].url())
        ana = PhonePage.open(browser, links["ana"].url())
        try:
            chief.online()
            ana.online()
            assert not chief.page.locator("#moderated").count()  # a playing host: nothing to say
            form = chief.page.locator("#new-game")
            form.wait_for(timeout=WAIT_MS)
            form.locator("summary").click()  # the form is folded while the game has not begun
            tick = form.locator("#new-game-moderator")
            assert not tick.is_checked()
            assert form.locator("[data-option='moderator']").inner_text().strip() == say("phone.new_game.moderator")
            tick.check()
            form.locator("#new-game-start").click()
            chief.page.wait_for_selector(f"#moderated:has-text('{say('phone.moderator.you')}')", timeout=WAIT_MS)
            ana.page.wait_for_selector(f"#moderated:has-text('{say('phone.moderator.table')}')", timeout=WAIT_MS)
            assert run.referee.game_id != first and run.referee.setup.moderator is True
            assert EventLog(tmp_path / "game.sqlite3", read_only=True).game(run.referee.game_id).setup.moderator  # type: ignore[union-attr]
        finally:
            chief.close()
            ana.close()
