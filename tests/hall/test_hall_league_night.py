"""Issue 18's acceptance, with real parts only: six table processes (`companion run`, each with its own
managed Mosquitto) bridged to a central Mosquitto, `companion hall run` on it, the hall screen in headless
Chromium. Each table plays a seeded demo game (docs/games) with the hall's league players in its seats.

The central broker is killed mid-game: the tables play on, and when it is back the hall has every result
once. A table is killed: the hall shows it offline; back, it sends its result again and nothing is
counted twice. The standings match a table computed by hand (points) and by the Plackett-Luce update
written out from its paper (ratings, tests/kits/plackett_luce.py). A client subscribed to `#` on the
central broker all night never receives a seat topic, a credential or a player's secret.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from companion.core.eventlog import EventLog
from companion.core.referee import PUBLIC, Referee
from companion.games import registry
from companion.hall.store import HallStore
from companion.phones.runner import free_port
from companion.scripting import run as run_script
from tests.kits import plackett_luce
from tests.kits.hall_kit import HALL_PASSWORD, PREFIX, Central
from tests.kits.hall_night import HallProcess, NightTable, hall_cli, table_password
from tests.kits.hall_pages_kit import PHONE, TV, opened
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.phone_page_kit import WAIT_MS

__all__ = ["shots_dir"]

# (table id, its name on the hall screen, the demo script it plays, who sits in the script's seats)
TABLES = [
    ("t1", "Table 1", "lockdown/lockdown-2p", {"ana": "Mai", "ben": "Ton"}),
    ("t2", "Table 2", "jailbreak/jailbreak-5p-by-hand",
     {"ana": "Ploy", "ben": "Lek", "chai": "Nok", "dao": "Fah", "eli": "Pim"}),
    ("t3", "Window table", "lockdown/lockdown-5p",
     {"ana": "Golf", "ben": "Bank", "chai": "Mint", "dao": "Joy", "eli": "Tong"}),
    ("t4", "โต๊ะ 4", "room25/suspicion-5", {"ana": "Wei", "ben": "Li", "chai": "Fang", "dao": "Jun", "eli": "Hui"}),
    ("t5", "桌子 5", "betrayal/haunt-4", {"ana": "Niran", "ben": "Kanya", "chai": "Dao", "dao": "Anan"}),
    ("t6", "Table 6", "lab_escape/lab-escape-3p", {"ana": "Sak", "ben": "Ying", "chai": "Bee"}),
]

# By hand, from each script's header (its ranking) and the league's rule (docs/hall-league.md): a game's
# own points where it has them (Lockdown: 9, 8, 7 ... by place, L9.3), else as many points as players
# in the game minus those placed ahead (4 players: 4, 3, 2, 1); a tied place shares its best place's.
RANKINGS = {
    "t1": [["Ton"], ["Mai"]],  # Lockdown 2p: Ben's seat wins
    "t2": [["Lek", "Nok", "Pim"], ["Ploy", "Fah"]],  # Jailbreak: Chai's seat escapes, the prisoners first
    "t3": [["Bank"], ["Joy"], ["Tong"], ["Mint"], ["Golf"]],  # Lockdown 5p
    "t4": [["Wei", "Li", "Fang", "Jun"], ["Hui"]],  # Room 25 suspicion: three out, Eli's seat the guard
    "t5": [["Anan"], ["Niran", "Kanya", "Dao"]],  # Betrayal: Dao's seat, the traitor, wins the haunt
    "t6": [["Bee"], ["Sak", "Ying"]],  # Escape the Lab 3p: Chai's seat walks into the Hall
}
POINTS = {
    "Ton": 9, "Mai": 8,
    "Lek": 5, "Nok": 5, "Pim": 5, "Ploy": 2, "Fah": 2,  # 5 players: three tied first get 5; 3 ahead of the last two
    "Bank": 9, "Joy": 8, "Tong": 7, "Mint": 6, "Golf": 5,
    "Wei": 5, "Li": 5, "Fang": 5, "Jun": 5, "Hui": 1,  # 5 players, four tied first; the guard behind four
    "Anan": 4, "Niran": 3, "Kanya": 3, "Dao": 3,  # 4 players, one ahead of the other three
    "Bee": 3, "Sak": 2, "Ying": 2,  # 3 players
}
WINNERS = {name for ranking in RANKINGS.values() for name in ranking[0]}  # first, a tie for first included
TOPIC = re.compile(rf"^{PREFIX}/v1/(t[1-6])/(status|public|events|about|results/[0-9]+|seated|bridge|hall/seating)$")


def kept_secrets(folder: Path) -> set[str]:
    """Every password a table keeps: its phones' credentials and its referee's login (its state files)."""
    found: set[str] = set()
    for path in folder.rglob("*.json"):
        with contextlib.suppress(ValueError, UnicodeDecodeError):
            found |= {s for s in _strings(json.loads(path.read_text(encoding="utf-8"))) if len(s) >= 12}
    return found


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):  # keys too: a public announcement's parameter may be named like a card
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def players_secrets(t: NightTable) -> set[str]:
    """The strings of each player's own view that no public view of the game ever shows, at any step of
    the script: what the hall must never hear."""
    lines = [json.dumps(t.setup)] + [json.dumps({k: v for k, v in m.items() if k != "id"}) for m in t.moves]
    shown: set[str] = set()
    private: set[str] = set()

    def look(referee: Referee) -> None:
        shown.update(_strings(referee.view(PUBLIC)))
        for p in t.setup["players"]:
            private.update(_strings(referee.view(f"player:{p['id']}")))

    run_script(registry(), EventLog(":memory:"), lines, after=look)
    return {s for s in private - shown if len(s) >= 4}


@pytest.fixture
def night(tmp_path: Path) -> Iterator[tuple[Path, Central, list[NightTable]]]:
    db = tmp_path / "hall.sqlite3"
    names = [name for *_, people in TABLES for name in people.values()]
    ids = {name: hall_cli(db, "player", "add", name).strip() for name in names}
    central_port = free_port()
    tables = [NightTable(tid, name, script, {old: (ids[who], who) for old, who in people.items()}, tmp_path / tid)
              for tid, name, script, people in TABLES]
    for t in tables:
        t.password = table_password(db, t.name, t.id, central_port)
    central = Central({t.id: t.password for t in tables}, port=central_port)
    central.start()
    try:
        yield db, central, tables
    finally:
        for t in tables:
            t.close()
        central.close()


def test_a_league_night_of_six_bridged_tables(night: tuple[Path, Central, list[NightTable]], browser: Browser,
                                              shots_dir: Path) -> None:
    db, central, tables = night
    by_id = {t.id: t for t in tables}
    hall = HallProcess(db, central, "Cafe Meeple league night")
    heard = central.hall_client()  # subscribed to `#`: everything that ever reaches the central broker
    try:
        for t in tables:
            t.start(central.port)
        snap = hall.until("six tables online with their names and games", lambda s: len(s["tables"]) == 6 and all(
            x["online"] and x["game"] == by_id[x["id"]].setup["game"] and x["name"] == by_id[x["id"]].name
            for x in s["tables"]))
        assert {x["id"]: x["name"] for x in snap["tables"]} == {t.id: t.name for t in tables}
        assert {x["id"]: [p["name"] for p in x["players"]] for x in snap["tables"]} == {
            t.id: [p["name"] for p in t.setup["players"]] for t in tables}

        with opened(browser, hall.url + "/", TV) as page:
            page.wait_for_function("() => document.querySelectorAll('.table-card').length === 6", timeout=WAIT_MS)
            for t in tables:
                card = page.locator(f".table-card[data-table='{t.id}']")
                assert card.locator("h2").inner_text() == t.name
                assert card.get_attribute("data-status") in ("online", "headless")
            for t in tables:
                t.play(len(t.moves) // 2)
            page.screenshot(path=shots_dir / "league-night-tv.png")

            # The hall's machine loses power mid-game: the tables play their games to the end regardless.
            central.kill()
            for t in tables:
                t.play(len(t.moves))
                assert t.child is not None and t.child.proc.poll() is None
            central.start()  # the `#` subscriber reconnects by itself, as every client does
            snap = hall.until("all six results", lambda s: sum(r["games"] for r in s["standings"]) == len(POINTS))
            page.wait_for_function("() => [...document.querySelectorAll('.table-card')].every("
                                   "c => c.dataset.status !== 'offline')", timeout=WAIT_MS)

            rows = {r["name"]: r for r in snap["standings"]}
            assert {name: r["points"] for name, r in rows.items()} == POINTS
            assert {name for name, r in rows.items() if r["wins"] == 1} == WINNERS
            assert all(r["games"] == 1 and r["wins"] in (0, 1) for r in rows.values())
            reference: dict[str, tuple[float, float]] = {}
            for ranking in RANKINGS.values():  # each player played once: the order of the games does not matter
                reference = plackett_luce.rate(reference, ranking)
            for name, r in rows.items():
                assert r["mu"] == pytest.approx(reference[name][0], abs=1e-9), name
                assert r["sigma"] == pytest.approx(reference[name][1], abs=1e-9), name
                assert r["ordinal"] == pytest.approx(plackett_luce.ordinal(reference[name]), abs=1e-9), name
            order = sorted(POINTS, key=lambda n: (-POINTS[n], -plackett_luce.ordinal(reference[n]), n.casefold()))
            assert [r["name"] for r in snap["standings"]] == order
            standings = snap["standings"]

            # A table is switched off at the plug: the hall shows it offline.
            by_id["t3"].kill()
            hall.until("t3 offline", lambda s: next(x for x in s["tables"] if x["id"] == "t3")["status"] == "offline")
            page.wait_for_selector(".table-card[data-table='t3'][data-status='offline'] .offline-since",
                                   timeout=WAIT_MS)
            page.screenshot(path=shots_dir / "league-night-table-offline.png")

            # Back on the same SQLite file: it sends its finished game's result again; it counts once.
            by_id["t3"].start(central.port, first=False)
            hall.wait_said("Table t3 sent game")
            snap = hall.until("t3 online again", lambda s: next(x for x in s["tables"] if x["id"] == "t3")["online"])
            assert snap["standings"] == standings
            assert len(HallStore(db).results()) == len(tables)
            assert sorted(r["table"] for r in HallStore(db).results()) == sorted(by_id)
            csv_text = hall.get("/standings.csv").decode("utf-8")
            assert all(name in csv_text for name in POINTS)

        # The next round: the organiser seats everyone for Lockdown on their phone; the tables start it.
        with opened(browser, hall.organiser_url, PHONE) as page:
            page.wait_for_selector("#present input", timeout=WAIT_MS)
            page.select_option("#game", "lockdown")
            page.locator("#all-players").click()
            page.locator("#seat").click()
            page.wait_for_selector("#done:not([hidden])", timeout=WAIT_MS)
            page.screenshot(path=shots_dir / "league-night-organiser.png", full_page=True)
        try:
            snap = hall.until("round 2 seated and started", lambda s: s["seating"] is not None and all(
                x["game"] == "lockdown" and x["number"] == 2 for x in s["tables"] if x["id"] in s["seating"]["tables"]))
        except AssertionError as err:  # say what the tables left behind heard and said
            shown = json.loads(hall.get("/hall.json"))
            behind = [x["id"] for x in shown["tables"] if x["id"] in (shown["seating"] or {}).get("tables", {})
                      and (x["game"], x["number"]) != ("lockdown", 2)]
            said = {t.id: t.child.console for t in tables if t.child is not None and t.id in behind}
            raise AssertionError(f"{err}\nthe tables behind said: {said}\nthe hall said: {hall.console[-8:]}") from None
        seated = snap["seating"]["tables"]
        assert len(seated) == 3 and sorted(len(group) for group in seated.values()) == [8, 8, 8]  # 24 in 2-9 seats
        assert sorted(p["name"] for group in seated.values() for p in group) == sorted(POINTS)
        for tid, group in seated.items():  # players just take their seats: the table's game has them
            shown = next(x for x in snap["tables"] if x["id"] == tid)
            assert sorted(p["id"] for p in shown["players"]) == sorted(p["id"] for p in group)
        # Repeat opponents as few as the counts allow, by hand: a round-1 table of k players spread over three
        # tables leaves at least the pairs of its ceil(k/3)-sized share: 5 players -> 2+2+1 -> 1+1 = 2 pairs
        # (Tables 2, 3, 4), 4 -> 2+1+1 -> 1 (Table 5), 3 and 2 -> none: 7 pairs at the least.
        met = {frozenset(r) for r in RANKINGS.values() for r in [[n for g in r for n in g]]}
        repeats = sum(1 for group in seated.values() for a, b in combinations([p["name"] for p in group], 2)
                      if any({a, b} <= m for m in met))
        assert repeats == 7
        with opened(browser, hall.url + "/seating", PHONE) as page:
            page.wait_for_selector("#players li", timeout=WAIT_MS)
            found = {li.locator(".who").inner_text(): li.locator(".where").inner_text()
                     for li in page.locator("#players li").all()}
            assert found == {p["name"]: by_id[tid].name for tid, group in seated.items() for p in group}
            page.screenshot(path=shots_dir / "league-night-seating.png", full_page=True)
    finally:
        assert hall.stop() == 0, "".join(hall.console)

    # Nothing but the tables' public topics ever reached the central broker: no seat topic, no
    # password a table keeps, no player's own secret.
    seen = heard.seen
    assert seen, "the `#` subscriber heard nothing"
    assert sorted({m.topic for m in seen if not TOPIC.match(m.topic)}) == []
    payloads = b"\n".join(m.payload for m in seen).decode("utf-8")
    credentials = set().union(*(kept_secrets(t.folder) for t in tables)) | {t.password for t in tables}
    assert credentials and [c for c in credentials if c in payloads] == []
    assert HALL_PASSWORD not in payloads
    for t in tables:  # a room that is one player's secret at this table can be public at another
        secrets = players_secrets(t)
        assert secrets, f"{t.id}: its players have secrets (spawn rooms, hands, roles, haunt goals) to keep"
        own = b"\n".join(m.payload for m in seen if m.topic.startswith(f"{PREFIX}/v1/{t.id}/")).decode("utf-8")
        leaked = sorted(s for s in secrets if json.dumps(s) in own)
        assert leaked == [], f"{t.id}: {leaked[:5]}"
