"""A new game is one folder: a game package from outside the source tree (tests/kits/one_folder_game, laid out
as ``companion/games/coin_toss/``) is found by the menus, the kiosk's play screen and board, the booth, the
enroll screen, the phones' lines and the demos, from its package alone (companion/games/__init__.py,
docs/adding-a-game.md). It runs in its own process, with the folder on PYTHONPATH as an installed game
would be."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "kits" / "one_folder_game"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(FOLDER)}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


@pytest.fixture(scope="module")
def found() -> dict[str, dict]:
    out = {}
    for lang in ("en", "th"):
        done = run("-m", "tests.kits.game_folder_checks", "coin_toss", lang)
        assert done.returncode == 0, done.stderr
        out[lang] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def test_the_menus_list_it_after_the_bundled_games(found: dict[str, dict]) -> None:
    games = found["en"]["games"]
    assert games[-1] == "coin_toss" and {"lockdown", "room25", "toolkit"} <= set(games)
    assert found["en"]["title"] == "Coin toss" and found["th"]["title"] == "โยนเหรียญ"


def test_the_play_screen_draws_its_board_in_the_screens_language(found: dict[str, dict]) -> None:
    assert found["en"]["screen"] == "play"
    assert found["en"]["board"] == ["Scores", "Ana: 1", "Ben: 0"]
    assert found["th"]["board"][0] == "คะแนน"


def test_the_booth_shows_the_player_their_own_lucky_side(found: dict[str, dict]) -> None:
    mine = found["en"]["player_view"]["private"]["lucky"]
    assert found["en"]["booth_screen"] == "booth"
    assert f"Your lucky side: {mine}" in found["en"]["booth"]


def test_the_enroll_screen_offers_its_tokens(found: dict[str, dict]) -> None:
    assert {"coin: heads", "coin: tails", "Ana's figure", "Ben's figure"} <= set(found["en"]["enroll"])


def test_the_phones_get_its_lines_and_the_public_view_holds_no_secret(found: dict[str, dict]) -> None:
    seat, public = found["en"]["player_view"], found["en"]["public_view"]
    assert seat["lines"] == [{"msg": "summary.coin_toss.lucky",
                              "params": {"side": f"kind.coin_toss.side.{seat['private']['lucky']}"}}]
    assert public["table_lines"] == [{"msg": "summary.coin_toss.tosses", "params": {"count": 2}}]
    assert "lines" not in public and "lucky" not in json.dumps(public)


def test_the_demo_plays_its_recorded_game() -> None:
    done = run("-m", "companion", "demo", "--game", "coin_toss", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("The coin landed on") == 4
    assert "Final ranking" in done.stdout
