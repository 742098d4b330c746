"""Lockdown on the phone page, in headless Chromium against the real table (issue 21, rulings L1.3, L2):
the 70 spawn rooms come folded by building and floor (not one long column); the path is built one step at
a time, each step showing only the rooms one hop on, grouped by floor, with "Remove the last" to take a
step back; Send moves the player. The host's "begin the actions" is the host's part, put on the table."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser

from companion import games, i18n
from companion.core.contract import Player, Setup
from companion.core.fold import initial
from companion.core.prompts import Prompt, next_steps, path_ready
from companion.games.lockdown import GAME, forms, mapgraph
from companion.phones.pageserver import PageServer
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, running_game, serving


def setup_only() -> list[str]:
    script = games.demo_script("lockdown")
    assert script is not None
    head = json.loads(script[2])
    head["options"] = {**head["options"], "free_seconds": 0, "turn_seconds": 0}
    return [*script[:2], json.dumps(head)]


def floor(name: str) -> str:
    return i18n.translate("en", "lockdown.group.floor", {"building": name[0], "floor": name})


def test_a_player_chooses_a_spawn_room_by_floor_and_a_path_step_by_step(tmp_path: Path, browser: Browser) -> None:
    with running_game(tmp_path, setup_only()) as run, serving(run) as (_, links):
        phones = {pid: PhonePage.open(browser, links[pid].url()) for pid in ("ana", "ben")}
        try:
            for pid, genes in (("ana", (3, 4, 3)), ("ben", (2, 4, 4))):
                page = phones[pid].page
                phones[pid].online()
                form = page.locator(phones[pid].form("lockdown.prepare"))
                groups = form.locator("details.group > summary")
                assert groups.all_inner_texts() == [floor(f) for f in ("A1", "A2", *(f"B{i}" for i in range(1, 8)))]
                assert form.locator("label.choice:visible").count() == 0  # folded: no 4,600-pixel column
                for box, value in zip(form.locator("input[type='number']").all(), genes, strict=True):
                    box.fill(str(value))
                form.locator("details.group > summary", has_text=floor("B1")).click()
                assert form.locator("label.choice:visible").count() == 7  # the seven rooms of B1
                if pid == "ana":
                    page.screenshot(path=str(tmp_path / "phone-spawn-by-floor.png"), full_page=True)
                form.locator("label.choice", has_text="B107").click()
                form.locator("button.send").click()
                page.wait_for_selector("#you:has-text('B107')", timeout=WAIT_MS)
            run.table.put({"by": "host", "move": "lockdown.begin_actions", "args": {}})
            phones["ana"].page.wait_for_selector("body:has-text('Action phase')", timeout=WAIT_MS)
            first = run.referee.state["action_order"][0]
            phone = phones[first]
            form = phone.page.locator(phone.form("lockdown.move"))
            path = form.locator("fieldset[data-kind='path']")

            def offered() -> list[str]:
                return sorted(path.locator("button:visible:not(:text('Remove the last'))").all_inner_texts())

            def step(room: str) -> None:
                path.locator("button:visible", has_text=room).click()

            assert offered() == ["Room B106"]  # the armory's only door
            step("B106")
            assert offered() == sorted(["B105 Recycling station", "B107 Armory"])
            step("B107")
            path.get_by_role("button", name="Remove the last").click()  # take the step back
            step("B105")
            assert "B503 Junkyard" in offered()  # the chute down (ruling L2.4)
            shown = path.locator("details.group:visible > summary").all_inner_texts()
            assert floor("B1") in shown and floor("B5") in shown  # the steps grouped by floor
            step("B503")
            chosen = path.locator(".chosen").inner_text()
            assert chosen == "Your order: Room B106, B105 Recycling station, B503 Junkyard"
            phone.page.screenshot(path=str(tmp_path / "phone-path-3-steps.png"), full_page=True)
            form.locator("button.send").click()
            phone.page.wait_for_selector("#you:has-text('B503')", timeout=WAIT_MS)
            assert run.referee.state["people"][first]["room"] == "B503"
        finally:
            for p in phones.values():
                p.close()


STEPS = """async ([field, prefixes]) => {
  const steps = await import("/js/steps.js");
  return prefixes.map((picks) => [steps.nextSteps(field, picks).map((i) => field.choices[i].value),
                                  steps.pathReady(field, picks)]);
}"""


def test_the_page_offers_the_same_steps_as_the_booth_from_every_room(browser: Browser) -> None:
    """The phone's picker (js/steps.js) and the booth's (prompts.next_steps, path_ready) offer the same
    rooms after every prefix of up to two steps, from every room, with and without the rope."""
    state = initial(GAME, Setup("lockdown", (Player("a", "A"), Player("b", "B")), {}, 3))
    state["phase"], state["action_order"] = "action", ["a", "b"]
    state["turn_state"] = {"moved": False, "path": [], "used_room": False, "drawn": [], "recycled": False,
                           "airdrop_taken": False, "peek": None}
    p = state["people"]["a"]
    p["genes"] = {"force": 3, "speed": 3, "load": 4}
    server = PageServer("127.0.0.1", 0).start()
    page = browser.new_page()
    try:
        page.goto(f"http://127.0.0.1:{server.port}/")
        for rope in (False, True):
            p["items"] = ["rope-1"] if rope else []
            for room in sorted(mapgraph.rooms(state)):
                p["room"] = room
                field = forms.path_field(state, "a")
                data = Prompt("lockdown.move", "lockdown.prompt.move", (field,)).to_json()["fields"][0]
                prefixes = [[], *([r] for r in next_steps(data, []))]
                prefixes += [[*q, r] for q in prefixes[1:] for r in next_steps(data, q)]
                expected = [[next_steps(data, q), path_ready(data, q)] for q in prefixes]
                assert page.evaluate(STEPS, [data, prefixes]) == expected, room
    finally:
        page.close()
        server.stop()
