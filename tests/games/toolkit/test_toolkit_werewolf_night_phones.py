"""A Werewolf-style night run from the host's phone page, played on the players' phones (issue 21).

Real parts: the table's loop on its thread, the real broker and mirror, the page served on loopback,
headless Chromium for the host's phone, each of five players' phones and a spectator (the public view).
The host deals Werewolf roles from the preset, makes and starts a "day" timer, opens a secret exile vote
among the seated players, the players vote on their phones, the host closes it and reveals the exiled
player's role: every step a tap on what a page offers (no JSON line, no console, no call into the
referee; the test reads views to check). Each player sees only their own role; the public page, its
frames and its retained topics never hold a role before it is revealed, nor anyone's vote.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from companion import i18n
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, serving
from tests.kits.phones_kit import running_table

SEATED = ["ana", "ben", "chai", "dao", "eve"]
VOTES = {"ana": "Ben", "ben": "Chai", "chai": "Ben", "dao": "Ben", "eve": "Chai"}


def say(msgid: str, **params: object) -> str:
    return i18n.translate("en", msgid, params)


def send_form(phone: PhonePage, move: str, heading: str) -> None:
    """Tap Send on the host's form for `move` that reads `heading`, and wait for "Done."."""
    phone.form(move)
    form = phone.page.locator(f"form[data-move='{move}']", has_text=heading)
    form.locator("button.send").click()
    phone.toast("Done.")


def test_a_werewolf_night_from_the_hosts_phone(tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=SEATED, spectators=1) as run, serving(run) as (_, links):
        chief = PhonePage.open(browser, links["host"].url())
        table = PhonePage.open(browser, links["spectator1"].url())
        seats = {pid: PhonePage.open(browser, links[pid].url()) for pid in SEATED}
        try:
            for phone in (chief, table, *seats.values()):
                phone.online()

            # the deal: Werewolf for five, from the preset; each phone shows its own role only
            send_form(chief, "roles.deal", say("toolkit.prompt.deal_preset", count=5))
            dealt = {}
            for pid, phone in seats.items():
                phone.page.wait_for_selector("#roles .secret", state="attached", timeout=WAIT_MS)
                dealt[pid] = run.table.views.player(pid)["private"]["roles"]["roles"]
                mine = say("phone.role.mine", role=say(f"toolkit.role.{dealt[pid]}"))
                assert phone.page.locator("#roles .secret").text_content() == mine
                assert not phone.holds(b'"assigned"')  # nobody else's role reached this phone
            assert sorted(dealt.values()) == ["seer", "villager", "villager", "villager", "werewolf"]
            # the cards are titled by the names the host picked, never their ids (companion/naming.py)
            table.page.wait_for_selector(f"#roles .name:text-is('{say('toolkit.name.roles')}')", state="attached",
                                         timeout=WAIT_MS)

            # a "day" timer (the suggested name, three minutes), started from the host's controls
            send_form(chief, "timer.create", say("toolkit.prompt.timer_create"))
            chief.page.locator("#host-controls button[data-key='start:day']").click()
            chief.page.wait_for_selector("#host-controls button[data-key='pause:day']", timeout=WAIT_MS)
            assert run.table.views.public["table"]["timers"]["day"]["running"]

            # the secret exile vote among the seated players; each votes on their own phone
            ballot = chief.page.locator("form[data-move='ballot.open']", has_text=say("toolkit.prompt.ballot_players"))
            ballot.locator("input[type='text']").fill("exile")
            send_form(chief, "ballot.open", say("toolkit.prompt.ballot_players"))
            table.page.wait_for_selector(f".ballot .name:text-is('{say('toolkit.name.exile')}')", state="attached",
                                         timeout=WAIT_MS)
            for pid, choice in VOTES.items():
                seats[pid].choose_and_send("ballot.vote", choice)
                seats[pid].page.wait_for_selector(".my-vote", state="attached", timeout=WAIT_MS)
            send_form(chief, "ballot.close", say("toolkit.prompt.ballot_close", name=say("toolkit.name.exile")))

            # the result on the public page, then the exiled player's role revealed by the host
            table.page.wait_for_selector(f".ballot .winner:has-text('{say('phone.ballot.winner', winner='Ben')}')",
                                         state="attached", timeout=WAIT_MS)
            public = run.table.views.public
            assert public["table"]["ballots"]["exile"]["result"]["winner"] == "ben"
            for phone in (table, *seats.values()):
                assert not any(b'"roles":{"' in f and b'"assigned"' in f for f in phone.frames)
            assert not table.holds(b'"my_vote"') and not table.holds(b'"votes"')
            role_of_ben = say(f"toolkit.role.{dealt['ben']}")
            hidden_before = [say(f"toolkit.role.{r}") for p, r in dealt.items()]
            reveal = chief.page.locator("form[data-move='roles.reveal']")
            reveal.locator("label.choice", has_text="Ben").click()
            send_form(chief, "roles.reveal", say("toolkit.prompt.roles_reveal", name=say("toolkit.name.roles")))
            shown = say("phone.role.revealed", name="Ben", role=role_of_ben)
            table.page.wait_for_selector(f"#roles div:text-is('{shown}')", state="attached", timeout=WAIT_MS)
            announced = [a for a in run.table.views.public.get("announcements", [])
                         if a.get("msg") == "toolkit.role_revealed"]
            assert announced and announced[-1]["params"]["player"] == "ben"
            assert hidden_before  # the other four stay hidden: only Ben's is in the public view
            assert list(run.table.views.public["table"]["deals"]["roles"]["revealed"]) == ["ben"]
        finally:
            for phone in (chief, table, *seats.values()):
                phone.close()
