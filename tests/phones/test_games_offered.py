"""What the host's "New game" form offers (`/games.json`, companion/phones/offered.py): every game this
companion referees, each option a new game may set, and each choice of it; and the referee takes every
one of them (`table.new_game`'s own check, companion/table/next_game.py): the form offers only what the
referee accepts. Each word it shows is a message id of the catalogs, in every language."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.games import registry
from companion.phones.pageserver import PageServer
from companion.table.next_game import setup_of


@pytest.fixture(scope="module")
def offered() -> Iterator[list[dict[str, Any]]]:
    server = PageServer("127.0.0.1", 0, default_language="en").start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/games.json")
        response = conn.getresponse()
        assert response.status == 200 and response.getheader("Content-Type") == "application/json; charset=utf-8"
        yield json.loads(response.read())
        conn.close()
    finally:
        server.stop()


def players(n: int) -> list[dict[str, str]]:
    return [{"id": f"p{i}", "name": f"P{i}"} for i in range(1, n + 1)]


def test_every_game_is_offered_with_its_title_and_player_range(offered: list[dict[str, Any]]) -> None:
    games = registry()
    assert sorted(g["id"] for g in offered) == sorted(games)
    for g in offered:
        assert (g["low"], g["high"]) == (games[g["id"]].min_players, games[g["id"]].max_players)
        for lang in i18n.LANGUAGES:
            assert g["title"] in i18n.msgids(lang)
    assert "seed" not in json.dumps(offered)


def test_the_referee_takes_every_choice_and_default_the_form_offers(offered: list[dict[str, Any]]) -> None:
    games = registry()
    for g in offered:
        base = {o["name"]: o["default"] for o in g["options"]}
        tries = [base] + [{**base, o["name"]: c["value"]} for o in g["options"] if o["kind"] == "choice"
                          for c in o["choices"]]
        tries += [{**base, o["name"]: o[end]} for o in g["options"] if o["kind"] == "integer"
                  for end in ("minimum", "maximum") if end in o]
        for options in tries:
            # a count the game takes with these options (Room 25's modes take different counts)
            taken = []
            for n in range(g["low"], g["high"] + 1):
                try:
                    setup_of({"game": g["id"], "players": players(n), "options": options}, games, 1)
                    taken.append(n)
                except Exception as err:
                    assert getattr(err, "code", "").endswith("players") or "player" in getattr(err, "code", ""), err
            assert taken, (g["id"], options)


def test_every_word_of_the_form_is_in_every_catalog(offered: list[dict[str, Any]]) -> None:
    for g in offered:
        for o in g["options"]:
            ids = [o["label"]] + [c["label"] for c in o.get("choices", [])]
            for lang in i18n.LANGUAGES:
                assert all(mid in i18n.msgids(lang) for mid in ids), (g["id"], o["name"])


OFFER_PROBE = """
import json, sys
from companion.games import registry
from companion.phones.offered import offered
listed = offered(registry())
rules = sorted(m for m in sys.modules if m.startswith("companion.games.") and m.count(".") >= 3
               and not m.endswith(".options"))
print(json.dumps({"ids": [g["id"] for g in listed], "rules": rules}))
"""


def test_the_host_pages_game_list_imports_no_games_rules(offered: list[dict[str, Any]]) -> None:
    """The host's "New game" list is made from each game's box (docs/perf/rss.md): a companion serving
    the page carries no rules of the games nobody plays; the list is the one the page is served."""
    out = subprocess.run([sys.executable, "-c", OFFER_PROBE], cwd=Path(__file__).resolve().parents[2],
                         capture_output=True, text=True, check=True)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["ids"] == [g["id"] for g in offered] == list(registry())
    assert seen["rules"] == []
