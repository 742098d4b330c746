"""A real-dice form's number field has exactly the bounds the referee accepts for that roll (B1.3, B3.1):
the highest total it offers is accepted, one more is refused (issue 21: "a form's words must match")."""

from __future__ import annotations

from tests.kits.betrayal_table import GAME, Table

FOUR = ["vera", "mina", "tobias", "lin"]  # seats ana, ben, chai, dao


def _real_rolls(t: Table, actor: str, voluntary: bool = False) -> list:
    return [p for p in GAME.prompts(t.state, actor) if p.move == "trait.roll" and p.fields
            and p.fields[0].name == "total" and bool(p.fixed.get("voluntary")) == voluntary]


def test_b1_3_each_real_dice_roll_offers_only_the_totals_its_dice_can_show() -> None:
    t = Table(FOUR, today="03-01")
    for actor in ("ana", "ben"):  # the one whose turn it is, and one the house forces to roll
        rolls = _real_rolls(t, f"player:{actor}")
        assert sorted(p.fixed["trait"] for p in rolls) == sorted(["might", "speed", "sanity", "knowledge"])
        for p in rolls:
            trait, most = p.fixed["trait"], p.fields[0].max
            assert p.fields[0].min == 0 and most == 2 * min(t.value(actor, trait), 8)
            assert p.params["dice"] * 2 == most
            assert t.refused(actor, "trait.roll", trait=trait, total=most + 1) == "reject.betrayal_dice_total"
    forced = {p.fixed["trait"]: (p.fields[0].max, p.params["dice"]) for p in _real_rolls(t, "player:ana")}
    chosen = {p.fixed["trait"]: (p.fields[0].max, p.params["dice"]) for p in _real_rolls(t, "player:ana", True)}
    assert chosen == forced  # a voluntary roll with real dice, on her own turn: the same dice (issue 21)
    assert _real_rolls(t, "player:ben", True) == []  # not his turn: no voluntary roll
    t.do("ana", "trait.roll", trait="might", total=6)  # vera: might 3, three dice show at most 6
    assert t.state["last_roll"]["total"] == 6
    t.do("ana", "trait.roll", trait="speed", total=2 * chosen["speed"][1], voluntary=True)
    assert t.state["last_roll"]["voluntary"] is True


def test_b3_1_the_haunt_roll_offers_the_totals_six_dice_can_show() -> None:
    t = Table(FOUR, today="03-01")
    t.explore("conservatory").do("table", "card.reveal", card="lantern").do("ana", "turn.end")
    real = [p for p in GAME.prompts(t.state, "player:ana") if p.fields and p.move == "haunt.roll"]
    assert [(f.min, f.max) for p in real for f in p.fields] == [(0, 12)]
    assert {p.move for p in GAME.prompts(t.state, "player:ana")} == {"haunt.roll", "trait.roll"}  # forced rolls too
