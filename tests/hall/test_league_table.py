"""The league table of one evening, worked out by hand: points by place (a tie shares its best place's
points), Lockdown's own 9..1 points (rulings L9.3), a stopped game and a guest (docs/hall-league.md)."""

from __future__ import annotations

import csv
import io

from companion.games.lockdown.ranking import points as lockdown_points
from companion.hall.league.points import league_points
from companion.hall.league.ratings import rate
from companion.hall.league.standings import standings, to_csv
from tests.kits.league_results import result

ROSTER = [{"id": "ana-2a", "name": "Ana"}, {"id": "ben-3b", "name": "Ben"}, {"id": "chai-4c", "name": "ชัย"},
          {"id": "dao-5d", "name": "Dao"}, {"id": "finn-6e", "name": "Finn"}, {"id": "eve-7f", "name": "Eve"}]
ANA, BEN, CHAI, DAO = "ana-2a", "ben-3b", "chai-4c", "dao-5d"
GUEST = "gus"  # typed in at table 2, not on the hall's roster

EVENING = [
    # 1. Toolkit at t1, 4 players: 4, 3, 2, 1.
    result("t1", 1, "toolkit", [[ANA], [BEN], [CHAI], [DAO]]),
    # 2. Room 25 at t2, 4 players with a guest; Ben and Chai tie first: both get 1st place's 4,
    #    the guest (two ahead of him) 2, Ana 1.
    result("t2", 1, "room25", [[BEN, CHAI], [GUEST], [ANA]]),
    # 3. Lockdown at t1 with its own points: Dao 9, Ana 8, Ben 7.
    result("t1", 2, "lockdown", [[DAO], [ANA], [BEN]], points={DAO: 9, ANA: 8, BEN: 7}),
    # 4. Lockdown at t2, stopped by the host: nothing for anyone.
    result("t2", 2, "lockdown", [], points={}, stopped=True, players=[ANA, DAO]),
]
# By hand:            game 1  game 2  game 3  game 4 | points games wins
#   Ana                  4       1       8       -   |   13     3    1
#   Ben                  3       4       7       -   |   14     3    1
#   Chai                 2       4       -       -   |    6     2    1
#   Dao                  1       -       9       -   |   10     2    1
#   Eve, Finn            -       -       -       -   |    0     0    0
# Order: Ben 14, Ana 13, Dao 10, Chai 6, then Eve and Finn (equal on points and rating: both 5th, by name).
# The guest is not listed.


def test_each_game_gives_the_points_worked_out_by_hand() -> None:
    assert [league_points(r) for r in EVENING] == [
        {ANA: 4, BEN: 3, CHAI: 2, DAO: 1},
        {BEN: 4, CHAI: 4, GUEST: 2, ANA: 1},
        {DAO: 9, ANA: 8, BEN: 7},
        {},
    ]


def test_lockdowns_points_are_the_games_own_rule() -> None:
    assert EVENING[2]["points"] == lockdown_points([[DAO], [ANA], [BEN]])  # L9.3: 9, 8, 7 ... by place


def test_the_league_table_matches_the_hand_computed_one() -> None:
    rows = standings(EVENING, ROSTER)
    table = [(r.rank, r.name, r.points, r.games, r.wins) for r in rows]
    assert table == [
        (1, "Ben", 14, 3, 1),
        (2, "Ana", 13, 3, 1),
        (3, "Dao", 10, 2, 1),
        (4, "ชัย", 6, 2, 1),
        (5, "Eve", 0, 0, 0),
        (5, "Finn", 0, 0, 0),
    ]
    assert GUEST not in {r.id for r in rows}


def test_the_table_shows_the_ratings_the_league_computes() -> None:
    ratings = rate(EVENING, [p["id"] for p in ROSTER])
    for row in standings(EVENING, ROSTER):
        assert (row.mu, row.sigma, row.ordinal) == (ratings[row.id].mu, ratings[row.id].sigma,
                                                    ratings[row.id].ordinal)
        assert abs(row.ordinal - (row.mu - 3 * row.sigma)) < 1e-9
    fresh = next(r for r in standings(EVENING, ROSTER) if r.name == "Eve")
    assert (round(fresh.mu, 6), round(fresh.sigma, 6), round(fresh.ordinal, 6)) == (25.0, 8.333333, 0.0)


def test_equal_points_are_ordered_by_rating() -> None:
    # Ana beats Ben (2, 1), then Ben beats Ana (2, 1): 3 points each; the ratings decide the order.
    games = [result("t1", 1, "toolkit", [[ANA], [BEN]]), result("t1", 2, "toolkit", [[BEN], [ANA]])]
    rows = standings(games, ROSTER[:2])
    assert [r.points for r in rows] == [3, 3]
    assert rows[0].ordinal > rows[1].ordinal
    assert [r.rank for r in rows] == [1, 2]


def test_the_csv_has_a_header_one_row_a_player_and_fixed_decimals() -> None:
    text = to_csv(standings(EVENING, ROSTER))
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0] == ["rank", "id", "name", "games", "wins", "points", "mu", "sigma", "ordinal"]
    assert [line[2] for line in lines[1:]] == ["Ben", "Ana", "Dao", "ชัย", "Eve", "Finn"]
    assert lines[5] == ["5", "eve-7f", "Eve", "0", "0", "0", "25.00", "8.33", "0.00"]
    for line in lines[1:]:
        for cell in line[6:]:
            whole, decimals = cell.lstrip("-").split(".")
            assert whole.isdigit() and len(decimals) == 2
    assert text.encode("utf-8").decode("utf-8") == text


def test_a_name_a_spreadsheet_would_run_is_written_as_text() -> None:
    rows = standings([], [{"id": "x-2a", "name": "=HYPERLINK(1)"}])
    assert list(csv.reader(io.StringIO(to_csv(rows))))[1][2] == "'=HYPERLINK(1)"
