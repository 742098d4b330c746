"""A card is picked once (issue 21): in Lockdown's multi-card fields (drop, declare, discard, the trade's
give) a card already picked is not offered again, on the booth (FormState), in the shared picker
(prompts.next_steps) and on the phone page (js/steps.js, in headless Chromium); a path still passes a room
again (ruling L2.1 counts steps, not rooms), since only a field marked `distinct` drops what was picked."""

from __future__ import annotations

from playwright.sync_api import Browser

from companion.core.prompts import Field, Prompt, next_steps
from companion.games.lockdown import forms
from companion.kiosk.screens.forms import FormState
from companion.phones.pageserver import PageServer

CARDS = ("knife-1", "knife-2", "pill-1")

STEPS = """async ([field, prefixes]) => {
  const steps = await import("/js/steps.js");
  return prefixes.map((picks) => steps.nextSteps(field, picks).map((i) => field.choices[i].value));
}"""


def drop_field() -> dict:
    field = Field("cards", "choices", "lockdown.field.cards", tuple(forms.card_choice(c) for c in CARDS), min=1,
                  distinct=True)
    return Prompt("lockdown.drop", "lockdown.prompt.drop", (field,)).to_json()


def test_the_booth_offers_a_picked_card_no_more_and_gives_it_back_on_take_back() -> None:
    form = FormState(drop_field())
    form.choose("cards", "knife-1")
    assert [c["value"] for c in form.offered("cards")] == ["knife-2", "pill-1"]
    form.choose("cards", "knife-1")  # a second tap on the same card adds nothing
    assert form.values["cards"] == ["knife-1"]
    form.take_back("cards")
    assert [c["value"] for c in form.offered("cards")] == list(CARDS)


def test_two_cards_of_a_kind_take_two_picks_of_it() -> None:
    """The trade's give lists a kind per card held (offers are by kind): two food cards, food twice, no more."""
    field = {"name": "give", "kind": "choices", "choices": [{"value": "food"}, {"value": "food"}, {"value": "pill"}],
             "min": 1, "max": 10, "distinct": True}
    assert next_steps(field, ["food"]) == ["food", "pill"]
    assert next_steps(field, ["food", "food"]) == ["pill"]
    form = FormState({"move": "lockdown.offer", "fields": [field], "fixed": {}})
    for _ in range(3):
        form.choose("give", "food")
    assert form.values["give"] == ["food", "food"]


def test_a_path_may_pass_a_room_again() -> None:
    loop = {"name": "path", "kind": "path", "choices": [{"value": r} for r in ("a", "b")], "min": 1, "max": 3,
            "start": "a", "first": ["b"], "after": {"a": ["b"], "b": ["a"]}}
    assert next_steps(loop, ["b", "a"]) == ["b"]


def test_the_phone_offers_the_same_cards_as_the_booth(browser: Browser) -> None:
    field = drop_field()["fields"][0]
    prefixes = [[], ["knife-1"], ["knife-1", "pill-1"], list(CARDS)]
    server = PageServer("127.0.0.1", 0).start()
    page = browser.new_page()
    try:
        page.goto(f"http://127.0.0.1:{server.port}/")
        assert page.evaluate(STEPS, [field, prefixes]) == [next_steps(field, q) for q in prefixes]
        assert page.evaluate(STEPS, [field, [["knife-2"]]]) == [["knife-1", "pill-1"]]
        food = {"choices": [{"value": "food"}, {"value": "food"}, {"value": "pill"}], "max": 10, "distinct": True}
        assert page.evaluate(STEPS, [food, [["food"], ["food", "food"]]]) == [["food", "pill"], ["pill"]]
    finally:
        page.close()
        server.stop()
