"""The attract loop shows the table's own game: each game's recorded demo games (docs/games/<id>/,
shipped as companion/games/<id>/demo_games/) replay on the demo's own in-memory referee."""

from __future__ import annotations

import pytest

from companion.games import registry
from companion.kiosk.demo import Demo, demo_script

GAMES = sorted(set(registry()) - {"toolkit"})


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_demo_that_plays_on_the_attract_loop(game: str) -> None:
    lines = demo_script(game)
    assert lines, f"{game} has no demo game for the attract loop"
    demo = Demo(registry(), lines)
    try:
        assert demo.public()["game"] == game
        said_before = demo.public()["announced"]
        while not demo.finished:
            demo.advance()
        end = demo.public()
        assert end["announced"] > said_before  # the screen had something to show
        assert end["ended"] and end["result"]["ranking"]  # the recorded game runs to its end here too
        demo.advance()  # then the loop starts over
        assert demo.public()["announced"] == said_before
    finally:
        demo.close()


def test_a_game_without_demos_falls_back_to_the_toolkit_demo() -> None:
    assert demo_script("toolkit") is None
    demo = Demo(registry(), None)
    try:
        assert demo.public()["game"] == "toolkit"
    finally:
        demo.close()
