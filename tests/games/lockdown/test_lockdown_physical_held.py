"""Physical item cards the player already holds (issue 31): a move that names a held card takes its kind
(all a real card, a tapped tag or a player says), and a tap of a held card is read as what the rules allow
with it now (drop it, use it) instead of always as a new draw.

Rule text (seeds/001): items are drawn in draw rooms and used ("pill +2 HP" at settlement, declared during
the player's own turn, ruling L7.4); the excess is dropped into the room's stock (L3.3); used cards go to the
consumed pile (L3.4). Ruling L3 (docs/games/lockdown.md "physical cards"): cards of one kind are
interchangeable, so the referee picks one of that kind the player holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games.lockdown import GAME
from tests.kits.lockdown_script import host, play, prepare, setup_line


def kinds(cards: list[str]) -> list[str]:
    return sorted(c.rsplit("-", 1)[0] for c in cards)


def at_the_pharmacy(tmp_path: Path, pills: int = 1) -> tuple[Referee, str]:
    """Both players start next to the pharmacy (B301: pills and adrenaline, 2 a visit); the first on turn
    walks in holding `pills` pills from earlier rounds (taken from the stock, so every card stays in one place)."""
    setup = setup_line(["ana", "ben"], seed=4, items="physical")
    ref = play(tmp_path / "p.db", setup, [prepare("ana", 4, 3, 3, "B302"), prepare("ben", 4, 3, 3, "B302"),
                                           host("begin_actions")])
    me = ref.view("public")["turn"]
    assert isinstance(me, str)
    stock = ref.state["stocks"]["B301"]
    for _ in range(pills):
        pill = next(c for c in stock if c.startswith("pill-"))
        stock.remove(pill)
        ref.state["people"][me]["items"].append(pill)
    assert ref.submit(Input("lockdown.move", f"player:{me}", {"path": ["B301"]})).accepted
    return ref, me


def held(ref: Referee, me: str) -> Any:
    return ref.state["people"][me]


def send(ref: Referee, me: str, move: str, **args: Any) -> Any:
    return ref.submit(Input(move, f"player:{me}", args))


def test_declare_takes_a_kind_and_picks_a_held_card_of_it(tmp_path: Path) -> None:
    """L7.4: the player declares the pill they hold by saying "pill"; two pills said are two held pills."""
    ref, me = at_the_pharmacy(tmp_path, pills=2)
    out = send(ref, me, "lockdown.declare", cards=["pill"])
    assert out.accepted, out.reason
    p = ref.state["people"][me]
    assert len(p["declared"]) == 1 and p["declared"][0] in p["items"] and kinds(p["declared"]) == ["pill"]
    assert send(ref, me, "lockdown.declare", cards=["pill", "pill"]).accepted
    p = held(ref, me)
    assert len(set(p["declared"])) == 2
    three = send(ref, me, "lockdown.declare", cards=["pill", "pill", "pill"])  # only two are held
    assert not three.accepted and three.reason.code == "reject.lockdown_kind_not_held"
    assert len(held(ref, me)["declared"]) == 2  # a refusal changes nothing


def test_drop_takes_a_kind_into_the_rooms_stock(tmp_path: Path) -> None:
    """L3.3: the dropped card goes into the room's stock; a kind not held is refused and changes nothing."""
    ref, me = at_the_pharmacy(tmp_path)
    hand = list(held(ref, me)["items"])
    before = len(ref.state["stocks"]["B301"])
    knife = send(ref, me, "lockdown.drop", cards=["knife"])
    assert not knife.accepted and knife.reason.code == "reject.lockdown_kind_not_held"
    assert held(ref, me)["items"] == hand and len(ref.state["stocks"]["B301"]) == before
    assert send(ref, me, "lockdown.drop", cards=["pill"]).accepted
    assert held(ref, me)["items"] == [] and len(ref.state["stocks"]["B301"]) == before + 1


def test_drop_by_kind_gives_back_the_card_just_drawn(tmp_path: Path) -> None:
    """L3.3 "after drawing ... drops the excess": of two cards of a kind, the one drawn this turn goes back."""
    ref, me = at_the_pharmacy(tmp_path)
    p = ref.state["people"][me]
    old = p["items"][0]
    assert send(ref, me, "lockdown.draw", cards=["pill"]).accepted
    assert send(ref, me, "lockdown.drop", cards=["pill"]).accepted
    assert held(ref, me)["items"] == [old]


def test_discard_in_the_free_phase_takes_a_kind(tmp_path: Path) -> None:
    setup = setup_line(["ana", "ben"], seed=4, items="physical")
    ref = play(tmp_path / "d.db", setup, [prepare("ana", 4, 3, 3, "B302"), prepare("ben", 4, 3, 3, "B302")])
    stock = ref.state["stocks"]["B301"]
    p = ref.state["people"]["ana"]
    for _ in range(4):  # over her load of 3 (a trade, say)
        p["items"].append(stock.pop())
    before = kinds(p["items"])
    out = send(ref, "ana", "lockdown.discard", cards=[before[0]])
    assert out.accepted, out.reason
    assert kinds(ref.state["people"]["ana"]["items"]) == before[1:]


def test_a_tapped_held_card_is_offered_as_draw_drop_or_use(tmp_path: Path) -> None:
    """In the pharmacy with draws left, a tapped pill the player holds may be a new draw, the held one
    dropped (L3.3) or used (L7.4): the referee asks, and does what the player picks."""
    ref, me = at_the_pharmacy(tmp_path)
    meaning = GAME.on_token(ref.state, "item", "pill", f"player:{me}")
    assert meaning == ("lockdown.tap", {"card": "pill"})
    assert send(ref, me, *meaning[:1], **meaning[1]).accepted
    prompts = {p["move"]: p for p in ref.view(f"player:{me}")["prompts"]}
    offer = prompts["lockdown.use_tapped"]
    assert [c["value"] for c in offer["fields"][0]["choices"]] == ["draw", "drop", "declare"]
    assert offer["params"]["card"] == "kind.lockdown_item_pill"
    assert send(ref, me, "lockdown.use_tapped", use="declare").accepted
    p = ref.state["people"][me]
    assert kinds(p["declared"]) == ["pill"] and len(p["items"]) == 1  # used, not drawn again
    assert "lockdown.use_tapped" not in {q["move"] for q in ref.view(f"player:{me}")["prompts"]}
    again = send(ref, me, "lockdown.use_tapped", use="drop")  # the offer was answered
    assert not again.accepted and again.reason.code == "reject.lockdown_nothing_tapped"


def test_a_tapped_held_card_with_one_use_is_that_use(tmp_path: Path) -> None:
    """Out of draw rooms a held pill can only be used (no drop there): the tap declares it, after those
    already declared."""
    ref, me = at_the_pharmacy(tmp_path, pills=2)
    assert send(ref, me, "lockdown.draw", cards=["adrenaline"]).accepted
    assert send(ref, me, "lockdown.draw", cards=["pill"]).accepted  # the pharmacy's two draws are spent
    assert send(ref, me, "lockdown.declare", cards=["adrenaline"]).accepted
    meaning = GAME.on_token(ref.state, "item", "pill", f"player:{me}")
    assert meaning is not None and meaning[0] == "lockdown.tap"  # still drop or use: asked
    ref.state["people"][me]["room"] = "B302"  # an ordinary room (as if the move had ended there)
    meaning = GAME.on_token(ref.state, "item", "pill", f"player:{me}")
    assert meaning is not None and meaning[0] == "lockdown.declare"
    assert send(ref, me, meaning[0], **meaning[1]).accepted
    assert kinds(ref.state["people"][me]["declared"]) == ["adrenaline", "pill"]


def test_a_tapped_card_not_held_is_still_a_draw(tmp_path: Path) -> None:
    ref, me = at_the_pharmacy(tmp_path)
    assert GAME.on_token(ref.state, "item", "adrenaline", f"player:{me}") == (
        "lockdown.draw", {"cards": ["adrenaline"]})


def test_the_offer_refuses_a_use_the_rules_do_not_allow_now(tmp_path: Path) -> None:
    ref, me = at_the_pharmacy(tmp_path)
    assert send(ref, me, "lockdown.tap", card="pill").accepted
    ref.state["people"][me]["room"] = "B302"  # no drop or draw here
    out = send(ref, me, "lockdown.use_tapped", use="drop")
    assert not out.accepted and out.reason.code == "reject.lockdown_tap_use_not_now"
    assert len(ref.state["people"][me]["items"]) == 1


def test_the_command_line_describes_the_new_inputs_in_every_language() -> None:
    from companion.commandline.games import describe

    for lang in ("en", "zh", "th"):
        text = "\n".join(describe(lang, GAME))
        for move in ("lockdown.tap", "lockdown.use_tapped"):
            assert f"lockdown.move.{move}" not in text and move in text
        assert "lockdown.move.lockdown.drop" not in text
    en = "\n".join(describe("en", GAME))
    assert "card ids or kinds" in en and "use: one of draw, take, drop, declare" in en


class Heard:
    """The screen's side of the tap router, as words a person would see (refusals only here)."""

    def __init__(self) -> None:
        self.refused: list[tuple[str, str]] = []

    def player_tapped(self, player_id: str) -> None: ...

    def unknown_tag(self, uid: str, reader: str) -> None: ...

    def token_refused(self, token_label: str, reason: Any) -> None:
        self.refused.append((token_label, reason.code))


def test_real_taps_through_the_router_draw_then_ask_then_use(tmp_path: Path) -> None:
    """At the table: the player in the booth taps a pill they draw (a draw), taps it again (they hold it:
    asked), picks "use it at settlement" on the form; the booth never reads it as a second draw."""
    from companion.table.loop import Table
    from companion.taps.registry import Registry, Token
    from companion.taps.router import TapRouter
    from hardware.events import TagPlaced

    ref, me = at_the_pharmacy(tmp_path, pills=0)
    table = Table(ref)
    with Registry(tmp_path / "tokens.sqlite3") as registry:
        registry.enroll(Token("04A1B2C3D4E5F6", "lockdown", "item", "pill", "Pill card"))
        heard = Heard()
        router = TapRouter(table, registry, heard, identify=lambda: me)  # type: ignore[arg-type]
        tap = TagPlaced("main", 0, "04A1B2C3D4E5F6", "ntag")
        first = router.tapped(tap)
        assert first is not None and first.accepted
        assert kinds(table.referee.state["people"][me]["items"]) == ["pill"]
        second = router.tapped(tap)
        assert second is not None and second.accepted and heard.refused == []
        assert kinds(table.referee.state["people"][me]["items"]) == ["pill"]  # not a second draw
        view = table.referee.view(f"player:{me}")
        offer = next(p for p in view["prompts"] if p["move"] == "lockdown.use_tapped")
        assert [c["value"] for c in offer["fields"][0]["choices"]] == ["draw", "drop", "declare"]
        out = table.handle({"move": "lockdown.use_tapped", "by": f"player:{me}", "args": {"use": "declare"}})
        assert out.accepted, out.reason
        p = table.referee.state["people"][me]
        assert kinds(p["declared"]) == ["pill"] and kinds(p["items"]) == ["pill"]


def test_a_tap_to_use_after_a_declared_card_was_dropped_declares_what_is_held(tmp_path: Path) -> None:
    """A pill declared and then dropped is used no more (L7.4 uses what the player holds): a later tap of
    the other pill declares that one alone."""
    ref, me = at_the_pharmacy(tmp_path, pills=2)
    assert send(ref, me, "lockdown.declare", cards=["pill"]).accepted
    declared = held(ref, me)["declared"][0]
    assert send(ref, me, "lockdown.drop", cards=[declared]).accepted
    assert send(ref, me, "lockdown.tap", card="pill").accepted  # draw, drop or use: asked
    assert send(ref, me, "lockdown.use_tapped", use="declare").accepted
    p = held(ref, me)
    assert p["declared"] == p["items"] and kinds(p["items"]) == ["pill"]


def test_in_the_free_phase_a_held_card_tapped_over_the_load_is_thrown_away(tmp_path: Path) -> None:
    """L3.3 "outside the free phase nobody holds more than load": over the load in the free phase, a tapped
    card the player holds is discarded; within the load, or a card not held, the tap means nothing."""
    setup = setup_line(["ana", "ben"], seed=4, items="physical")
    ref = play(tmp_path / "f.db", setup, [prepare("ana", 4, 3, 3, "B302"), prepare("ben", 4, 3, 3, "B302")])
    stock = ref.state["stocks"]["B301"]
    hand = ref.state["people"]["ana"]["items"]
    hand += [c for c in stock if c.startswith("pill-")][:3]
    stock[:] = [c for c in stock if c not in hand]
    assert GAME.on_token(ref.state, "item", "pill", "player:ana") is None  # 3 of load 3: nothing to throw
    hand.append(next(c for c in stock if c.startswith("adrenaline-")))
    stock.remove(hand[-1])
    assert GAME.on_token(ref.state, "item", "knife", "player:ana") is None  # not held
    assert GAME.on_token(ref.state, "item", "pill", "table") is None  # nobody identified in the booth
    meaning = GAME.on_token(ref.state, "item", "pill", "player:ana")
    assert meaning == ("lockdown.discard", {"cards": ["pill"]})
    assert send(ref, "ana", meaning[0], **meaning[1]).accepted
    assert kinds(ref.state["people"]["ana"]["items"]) == ["adrenaline", "pill", "pill"]
