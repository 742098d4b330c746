"""What a Lockdown player's phone offers is what the referee accepts now (issue 33), in the states a real
game reaches that the choices property once missed: a trade the receiver can no longer answer, a draw room
whose stock ran out (the morgue starts empty), the gene console's redistribution, and a gold bar's pick.

Each state is checked the way tests/kits/picker_checks.py does: every form the player's prompts let be
sent (as the phone receives them) goes to the referee, and none is refused."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.core.contract import Player, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.rejection import Rejected
from companion.games.lockdown import GAME, bot, items
from tests.kits.lockdown_script import bare, hand, place, room, turn_of
from tests.kits.picker_checks import offered_but_refused, phone_prompts

SETUP = Setup("lockdown", (Player("ana", "Ana"), Player("ben", "Ben")), {"free_seconds": 0, "turn_seconds": 0}, 3)


def prompts(state: State, pid: str, move: str) -> list[dict[str, Any]]:
    return [p for p in phone_prompts(GAME, SETUP, state, f"player:{pid}") if p["move"] == move]


def refused(state: State, move: str | None = None) -> list[Any]:
    """The forms offered now that the referee refuses (of one move, or all)."""
    return [f for f in offered_but_refused(GAME, SETUP, state, random.Random(0)) if move in (None, f[1])]


def send(state: State, pid: str, move: str, **args: Any) -> State:
    return step(GAME, state, Input(move, f"player:{pid}", args, int(state.get("now", 0))))


def free_phase() -> State:
    """A real game played by the bot up to its first free phase."""
    state = initial(GAME, SETUP)
    rng = random.Random(3)
    while state["phase"] != "free":
        s = bot.next_step(state, rng)
        state = step(GAME, state, Input(s["move"], s["by"], s["args"], 0))
    return state


# -- a trade that can no longer go through -------------------------------------------------------------------

def test_a_trade_asking_for_a_card_the_receiver_does_not_hold_is_not_offered_for_acceptance() -> None:
    state = free_phase()
    for p in state["people"].values():
        p["items"] = []
    hand(state, "ana", "knife")
    state = send(state, "ana", "lockdown.offer", to="ben", give=["knife"], get=["water"], swap_order=False)
    assert not prompts(state, "ben", "lockdown.accept"), "Accept on a trade Ben cannot answer"
    off = prompts(state, "ben", "lockdown.withdraw")
    assert [p["label"] for p in off] == ["lockdown.prompt.trade_stale"], "Ben is told why, and may call it off"
    assert off[0]["params"]["player"] == "ana"
    assert off[0]["params"]["give"]["zh"] == "刀" and off[0]["params"]["get"]["th"] == "น้ำ", "names, never ids"
    assert not refused(state)
    hand(state, "ben", "water")  # once Ben holds what is asked, Accept is back and goes through
    (accept,) = prompts(state, "ben", "lockdown.accept")
    after = send(state, "ben", "lockdown.accept", **accept["fixed"])
    assert [items.kind_of(c) for c in after["people"]["ben"]["items"]] == ["knife"]
    assert not refused(state)


def test_a_trade_whose_giver_no_longer_holds_the_card_is_not_offered_for_acceptance() -> None:
    state = free_phase()
    for p in state["people"].values():
        p["items"] = []
    hand(state, "ana", "knife")
    state = send(state, "ana", "lockdown.offer", to="ben", give=["knife"], get=[], swap_order=False)
    assert prompts(state, "ben", "lockdown.accept")
    state["people"]["ana"]["items"] = []  # given away in another trade
    assert not prompts(state, "ben", "lockdown.accept")
    assert not refused(state)


# -- a draw room with fewer cards than its limit -------------------------------------------------------------

@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_no_draw_is_offered_from_the_empty_morgue_and_never_more_than_the_stock_holds(mode: str) -> None:
    state = bare(["ana", "ben"])
    state["options"]["items"] = mode
    place(state, ana=room(state, "morgue"))
    turn_of(state, "ana")
    assert state["stocks"][room(state, "morgue")] == []
    assert not prompts(state, "ana", "lockdown.draw"), "Draw cards offered from an empty stock"
    assert not refused(state)
    state["stocks"][room(state, "morgue")] = ["knife-1", "water-1"]  # a shadow's cards, from the next round
    (draw,) = prompts(state, "ana", "lockdown.draw")
    assert draw["params"]["left"] == 2 and draw["fields"][0]["max"] == 2
    if mode == "digital":
        assert not refused(state)


# -- the gene console -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("pocket", [False, True])
def test_the_gene_console_states_its_total_and_the_load_the_hand_needs(pocket: bool) -> None:
    state = bare(["ana", "ben"], {"ana": (2, 3, 5)})
    place(state, ana=room(state, "gene_console"))
    hand(state, "ana", "water", "food", "knife", *(["pocket"] if pocket else []))
    turn_of(state, "ana")
    (console,) = prompts(state, "ana", "lockdown.gene_console")
    assert list(console["summed"]) == ["force", "speed", "load"] and console["total"] == 10
    load = next(f for f in console["fields"] if f["name"] == "load")
    assert load["min"] == (0 if pocket else 3)
    assert not refused(state), "a redistribution the form lets be sent is refused"


def test_the_gene_console_is_not_offered_when_no_redistribution_fits_the_hand() -> None:
    state = bare(["ana", "ben"], {"ana": (0, 1, 2)})
    place(state, ana=room(state, "gene_console"))
    hand(state, "ana", "water", "food", "knife")  # 3 cards, a total of 3: speed 1 leaves a load of 2
    turn_of(state, "ana")
    assert not prompts(state, "ana", "lockdown.gene_console")
    state["people"]["ana"]["items"].pop()  # 2 cards: speed 1 and load 2 is the one way, and it is offered
    (console,) = prompts(state, "ana", "lockdown.gene_console")
    assert [(f["min"], f["max"]) for f in console["fields"]] == [(0, 0), (1, 1), (2, 2)]
    assert not refused(state)


# -- a gold bar -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_a_gold_bar_shows_the_stock_first_then_offers_only_what_is_there(mode: str) -> None:
    """Item 6: spend the bar, see the room's cards, take one more that is not a gold bar. The pick is no
    longer blind: it offers the kinds the player now sees, every one of which the referee gives."""
    state = bare(["ana", "ben"])
    state["options"]["items"] = mode
    here = room(state, "warehouse")
    place(state, ana=here)
    bar = hand(state, "ana", "gold")
    turn_of(state, "ana")
    state["stocks"][here] = ["knife-1", "gold-2", "water-1", "water-2"]
    (spend,) = prompts(state, "ana", "lockdown.gold")
    assert [f["kind"] for f in spend["fields"]] == ["confirm"], "spending asks nothing before the cards are seen"
    with pytest.raises(Rejected, match="gold_look_first"):
        send(state, "ana", "lockdown.gold", card="knife")  # a blind pick is not taken
    state = send(state, "ana", "lockdown.gold")
    assert state["turn_state"]["peek"] == ["gold-2", "knife-1", "water-1", "water-2"]
    assert state["consumed"] == bar
    (pick,) = prompts(state, "ana", "lockdown.gold")
    assert sorted(c["value"] for c in pick["fields"][0]["choices"]) == ["knife", "water"]
    assert not refused(state, "lockdown.gold")
    state = send(state, "ana", "lockdown.gold", card="water")
    assert [items.kind_of(c) for c in state["people"]["ana"]["items"]] == ["water"]
    assert not prompts(state, "ana", "lockdown.gold")


def test_a_gold_bar_is_kept_when_the_stock_holds_nothing_it_may_buy() -> None:
    state = bare(["ana", "ben"])
    here = room(state, "vault")
    place(state, ana=here)
    hand(state, "ana", "gold")
    turn_of(state, "ana")
    assert all(items.kind_of(c) == "gold" for c in state["stocks"][here])
    state = send(state, "ana", "lockdown.gold")
    assert state["turn_state"]["peek"] and items.holds(state["people"]["ana"], "gold")
    assert not state["consumed"] and not prompts(state, "ana", "lockdown.gold")  # seen: nothing to buy
    with pytest.raises(Rejected, match="gold_nothing_to_take"):
        send(state, "ana", "lockdown.gold")
    assert not refused(state)


# -- the control room -----------------------------------------------------------------------------------------

def test_the_control_rooms_ten_votes_can_be_sent_before_any_floor_is_poisonous() -> None:
    """Found by the long walks: the form asked for a poisonous room even for ten votes, and with none yet
    it could not be sent at all. Ten votes and detox are two forms; detox only once a room is poisonous."""
    state = bare(["ana", "ben"])
    place(state, ana=room(state, "control_room"))
    turn_of(state, "ana")
    (votes,) = prompts(state, "ana", "lockdown.control_room")
    assert votes["fixed"] == {"mode": "ten_votes"}
    after = send(state, "ana", "lockdown.control_room", **votes["fixed"])
    assert after["turn_state"]["used_room"]
    state["poison"] = ["B1"]
    assert sorted(p["fixed"]["mode"] for p in prompts(state, "ana", "lockdown.control_room")) == ["detox", "ten_votes"]
    assert not refused(state)
