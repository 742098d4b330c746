"""Issue 21's acceptance, one game at a time: a complete short game played only by touches on the real
kiosk (SDL events at its buttons, the dummy driver), taps in the real phone page (headless Chromium)
and taps on the simulated NFC reader, by players who tap what their screen offers (tests/kits/night_bot.py:
they read the widgets, never the rules). No JSON line, no console input, no call into the referee.

Each game at its smallest player count with its shortest options, from the setup screen to the reveal.
What a person checks: the reveal names the ranking the public view holds, every input in the log came
from a Send on a screen or a tap on the reader, and the screens seldom offered what the referee refused
(each refusal is printed: it is a bug in what the screen offered), and every screen the kiosk shows reads
on the 7" panel (tests/kits/layout_check.py, issue 28). Screenshots go to NIGHT_SHOTS (or a
temporary folder); each test prints its wall time and its refusal rate.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from tests.kits.layout_check import watch_layout
from tests.kits.night_play import inputs_by, play, reveal, seat
from tests.kits.night_table import night

#: game -> (seats, options): the smallest table and the shortest game each game allows.
SHORT: dict[str, tuple[list[str], dict[str, Any]]] = {
    "room25": (["ana", "ben"], {"mode": "cooperation"}),
    "lockdown": (["ana", "ben"], {"free_seconds": 0, "turn_seconds": 0}),
    "jailbreak": (["ana", "ben", "chai"], {}),
    "lab_escape": (["ana", "ben"], {}),
    "betrayal": (["ana", "ben", "chai"], {}),
}
MOST_REFUSED = 0.25  # a widget-reading player's sends the referee may refuse (a few, never most)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    where = os.environ.get("NIGHT_SHOTS")
    path = Path(where) if where else tmp_path / "shots"
    path.mkdir(parents=True, exist_ok=True)
    return path


# Lockdown's random evening can wait minutes on a form no random pick completes: its whole game is
# played by tests/night/test_night_scripts.py instead.
GAMES = [g for g in sorted(SHORT) if g != "lockdown"]


@pytest.mark.parametrize("game", GAMES)
def test_a_short_game_is_played_to_its_reveal_by_touch_alone(game: str, tmp_path: Path, shots: Path,
                                                              browser: Any) -> None:
    players, options = SHORT[game]
    with night(tmp_path / "state", game, players, options) as table:
        watch = watch_layout(table)  # the 7" layout check on each screen the kiosk shows (issue 28)
        evening = seat(table, browser, shots, seed=21)
        try:
            play(evening, seed=21)
            tally = evening.tally
            print(f"\n{game}: {evening.rounds} rounds, {tally.sends} sends, {tally.accepted} accepted, "
                  f"refusal rate {tally.refusal_rate():.0%}, {evening.finger.touches} kiosk touches, "
                  f"{tally.phone_taps} phone taps, {len(table.taps)} reader taps, {evening.wall_s:.1f} s, "
                  f"{'ended by the host' if evening.ended_by_host else 'played to its end'}; {watch.said()}")
            for line in tally.refused + tally.stuck:
                print("  ", line)
            public = table.kiosk.public
            assert public.get("ended"), f"{game}: not ended after {evening.rounds} rounds: {tally.stuck[-3:]}"
            drawn = reveal(evening)
            ranking = [[{p["id"]: p["name"] for p in public["players"]}[pid] for pid in group]
                       for group in public["result"]["ranking"]]
            for place, names in enumerate(ranking, start=1):
                for name in names:  # a row per player, a shared place on each (issue 28: 24-letter names)
                    words = i18n.translate(table.kiosk.lang, "kiosk.reveal.place", {"place": place, "names": name})
                    assert words in drawn, (words, drawn)
            if not ranking:
                assert i18n.translate(table.kiosk.lang, "kiosk.reveal.no_ranking") in drawn
            by = inputs_by(table)
            host = by.pop("host", 0)
            assert host == (1 if evening.ended_by_host else 0), by  # the host's one touch: "End the game"
            assert set(by) <= {f"player:{p}" for p in players}, by  # no console, no clock: the seats' screens
            assert sum(by.values()) <= tally.accepted + len(table.taps), (by, tally.accepted, table.taps)
            assert tally.refusal_rate() <= MOST_REFUSED, tally.refused
            watch.check()
        finally:
            watch.tell_so_far()
            evening.close()
