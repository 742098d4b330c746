"""Issue 21's acceptance, one game at a time, played to its natural end: each game's shortest demo
script that ends it (or the shortest without a timer) is followed input by input by players who say
each scripted input through what their screen offers (tests/kits/night_follow.py): the kiosk's booth
for the first seat, the phones for the others and the host, the kiosk's host menu for the host's
controls, the simulated reader for what the table turns up. The table starts with the script's setup
(players, options, seed) and runs on the script's time. An input no screen offers fails the test with
the move, its args and what was offered (a reachability bug).

What a person checks: the reveal draws the result the public view holds (the winners' names), every
input in the log came from a touch on the kiosk, a tap on a phone or a tag on the reader, and the log's
inputs are the script's (same moves, args and senders, in order; the clock's own inputs aside), and
every screen the kiosk shows reads on the 7" panel (tests/kits/layout_check.py, issue 28).
Screenshots go to NIGHT_SHOTS (or a temporary folder); each test prints its wall time.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from tests.kits.layout_check import watch_layout
from tests.kits.night_follow import Follower, counted
from tests.kits.night_forms import Unreachable, plain
from tests.kits.night_kiosk import Finger
from tests.kits.night_play import ranked_names, revealed
from tests.kits.night_script import HandClock, Step, demo
from tests.kits.night_table import night

#: game -> its shortest demo script that plays the game to its end.
SCRIPTS = {
    "room25": "cooperation-3",
    "lockdown": "lockdown-2p",
    "jailbreak": "jailbreak-5p-by-hand",
    "lab_escape": "lab-escape-2p",
    "betrayal": "no-traitor-3",
}


UNREACHABLE: dict[str, str] = {}
#: Betrayal's moves whose real dice the forms take as totals (B1.3): each dice list -> its total.
TOTALLED = {"haunt.roll": {"dice": "total"}, "trait.roll": {"dice": "total"},
            "attack": {"dice": "total", "target_dice": "target_total"},
            "monster.attack": {"dice": "total", "target_dice": "target_total"}}


def dice_as_total(step: Step) -> Step:
    """Betrayal's real dice are reported by their total where the forms ask for one (B1.3; an attack: one
    total a side, B4.1); a recording that kept each die's face (0, 1 or 2) is told as the sum of its faces."""
    told = {faces: total for faces, total in TOTALLED.get(step.move, {}).items()
            if isinstance(step.args.get(faces), list)}
    if not told:
        return step
    args = {k: v for k, v in step.args.items() if k not in told}
    return replace(step, args={**args, **{total: sum(step.args[faces]) for faces, total in told.items()}})


#: Lockdown's moves whose forms list the held cards by kind (issue 31): a player says "pill", never "pill-3".
BY_KIND = ("lockdown.drop", "lockdown.declare", "lockdown.discard")


def cards_by_kind(step: Step) -> Step:
    """Lockdown's held cards are said by their kind where the forms list kinds (issue 31: cards of one kind
    are interchangeable, ruling L3); a recording that named card ids ("food-8") is told as kinds ("food")."""
    if step.move not in BY_KIND:
        return step
    return replace(step, args={**step.args, "cards": [c.rsplit("-", 1)[0] for c in step.args.get("cards", [])]})


HOW_TOLD: dict[str, Callable[[Step], Step]] = {"betrayal": dice_as_total, "lockdown": cards_by_kind}
GAMES = [pytest.param(g, marks=pytest.mark.xfail(strict=True, raises=Unreachable, reason=UNREACHABLE[g]))
         if g in UNREACHABLE else g for g in sorted(SCRIPTS)]


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    where = os.environ.get("NIGHT_SHOTS")
    path = Path(where) if where else tmp_path / "shots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.mark.parametrize("game", GAMES)
def test_a_scripted_game_is_played_to_its_end_by_touch_alone(game: str, tmp_path: Path, shots: Path,
                                                             browser: Any) -> None:
    script = demo(game, SCRIPTS[game])
    if game in HOW_TOLD:
        script = script.told(HOW_TOLD[game])
    clock = HandClock()
    ids = [pid for pid, _ in script.players]
    with night(tmp_path / "state", game, ids, script.options, seed=script.seed, names=dict(script.players),
               clock=clock) as table:
        watch = watch_layout(table)  # the 7" layout check on each screen the kiosk shows (issue 28)
        follower = Follower(table, Finger(table, shots), script, clock)
        try:
            follower.seat(browser)
            follower.play()
            by_where = counted(follower.sent)
            print(f"\n{game} ({script.path.name}): {len(script.inputs())} inputs {by_where}, "
                  f"{follower.finger.touches} kiosk touches, {len(table.taps)} reader taps, "
                  f"{follower.wall_s:.1f} s; {watch.said()}")
            public = table.kiosk.public
            assert public.get("ended"), f"{game}: the script's last input did not end the game"
            drawn = revealed(follower.finger, list(follower.phones.values()))
            for place, names in enumerate(ranked_names(public), start=1):
                for name in names:  # a row per player, a shared place on each (issue 28: 24-letter names)
                    words = i18n.translate(table.kiosk.lang, "kiosk.reveal.place", {"place": place, "names": name})
                    assert words in drawn, (words, drawn)
            logged = [e.input for e in table.accepted() if e.input.by != "clock"]
            assert [(i.by, i.move, plain(dict(i.args))) for i in logged] == [
                (s.by, s.move, plain(s.args)) for s in script.inputs()]
            assert sum(by_where.values()) == len(logged), by_where  # each from a touch, a tap or a tag
            assert by_where.get("reader", 0) == sum(1 for i in logged if i.by == "table"), by_where
            watch.check()
        finally:
            watch.tell_so_far()
            follower.close()
