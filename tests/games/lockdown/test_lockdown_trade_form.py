"""Lockdown's trade form says what the referee accepts (issue 21): an offer may ask nothing in return (a
gift: lockdown-2p, Ana gives Ben her food), so the `get` field takes zero picks; the booth sends it and the
phone page (js/steps.js in headless Chromium) enables Send for it, and the referee accepts what they send."""

from __future__ import annotations

from playwright.sync_api import Browser

from companion.core.contract import Player, Setup
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.prompts import path_ready
from companion.games.lockdown import GAME, forms
from companion.kiosk.screens.forms import FormState
from companion.phones.pageserver import PageServer


def free_phase_with_food() -> dict:
    state = initial(GAME, Setup("lockdown", (Player("ana", "Ana"), Player("ben", "Ben")),
                                {"free_seconds": 0, "turn_seconds": 0}, 3))
    state["phase"] = "free"
    for pid, room in (("ana", "B107"), ("ben", "B108")):
        state["people"][pid].update(genes={"force": 3, "speed": 3, "load": 4}, room=room)
    state["people"]["ana"]["items"] = ["food-1"]
    return state


def offer_form(state: dict) -> dict:
    (prompt,) = [p for p in forms.free(state, "ana") if p.move == "lockdown.offer"]
    return prompt.to_json()


def test_a_gift_asks_nothing_in_return_and_the_booth_sends_it_to_the_referee() -> None:
    state = free_phase_with_food()
    prompt = offer_form(state)
    get = next(f for f in prompt["fields"] if f["name"] == "get")
    assert get["min"] == 0 and path_ready(get, [])
    form = FormState(prompt)
    form.values.update({"to": "ben", "give": ["food"], "swap_order": True})
    assert form.complete()  # the booth's Send is on with nothing asked in return
    sent = form.input("player:ana")
    assert sent["args"]["get"] == []
    after = step(GAME, state, Input(sent["move"], sent["by"], sent["args"], 1000))
    (trade,) = after["trades"].values()
    assert trade == {"from": "ana", "to": "ben", "give": ["food"], "get": [], "swap_order": True}
    form.values["give"] = []
    assert not form.complete()  # the form still needs something to give (it is offered to who holds a card)


READY = """async ([field, picks]) => (await import("/js/steps.js")).pathReady(field, picks)"""


def test_the_phone_page_sends_a_gift_too(browser: Browser) -> None:
    prompt = offer_form(free_phase_with_food())
    fields = {f["name"]: f for f in prompt["fields"]}
    server = PageServer("127.0.0.1", 0).start()
    page = browser.new_page()
    try:
        page.goto(f"http://127.0.0.1:{server.port}/")
        assert page.evaluate(READY, [fields["get"], []]) is True
        assert page.evaluate(READY, [fields["get"], ["water"]]) is True
        assert page.evaluate(READY, [fields["give"], []]) is False
        assert page.evaluate(READY, [fields["give"], ["food"]]) is True
    finally:
        page.close()
        server.stop()
