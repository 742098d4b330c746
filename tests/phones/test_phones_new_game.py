"""Another game on the phones (issue 21, NEWGAME_IFACE.md), on both real brokers: the host's phone ends the
game and sends `table.new_game` with other players; the new players' seats get credentials and codes, a
removed player's phone is dropped and logs in no more (neither as the last game's seat nor as the new
game's), a player who plays on keeps their phone (it logs in as the new game's seat with the password
it made), the retained public view is the new game's, and a spectator subscribed to `#` never sees a
seat topic. A seat that sends `table.new_game` is refused, as a hostile phone would try."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.phones.credentials import GameCredentials
from companion.phones.join import seat_links
from companion.phones.runner import KEPT_FILE
from companion.phones.seating import CLAIM
from companion.phones.serve import KioskSeats, Served
from tests.kits.phones_kit import BROKERS, WAIT_S, Message, Phone, Running, command, running_table

NEW_PLAYERS = [{"id": "ana", "name": "Ana"}, {"id": "p1", "name": "Eve"}]


def claim(run: Running, who: str, password: str) -> None:
    """A phone takes `who`'s seat with its code's join credential and a password of its own."""
    game = run.phones.game
    seat = game.host if who == "host" else game.players[who]
    join = game.joins[seat.user]
    p = Phone(run.phones.address.host, run.phones.address.port, join.user, join.password)
    assert not p.connect().is_failure
    t = run.phones.topics
    p.subscribe(t.reply(join.user))
    p.publish(t.cmd(join.user), json.dumps({"id": "c1", "move": CLAIM, "args": {"password": password}}))
    assert p.wait_for(lambda m: m.topic == t.reply(join.user)).json()["ok"]
    p.close()


def seated(run: Running, user: str, password: str) -> Phone:
    p = Phone(run.phones.address.host, run.phones.address.port, user, password)
    rc = p.connect()
    assert not rc.is_failure, rc
    t = run.phones.topics
    p.subscribe(t.status, t.public, t.events, t.view(user), t.reply(user))
    return p


def logs_in(run: Running, user: str, password: str) -> bool:
    p = Phone(run.phones.address.host, run.phones.address.port, user, password)
    try:
        return not p.connect().is_failure
    finally:
        p.close()


def dropped(p: Phone) -> None:
    while True:
        kind, _ = p.acks.get(timeout=WAIT_S)
        if kind == "disconnect":
            return


def public_of(m: Message) -> bool:
    return m.topic.endswith("/public") and bool(m.payload)


@pytest.mark.parametrize("broker", BROKERS)
def test_a_new_game_seats_its_players_and_drops_the_removed_ones(tmp_path: Path, broker: str) -> None:
    passwords = {who: f"{who}-own-password-made-by-the-phone"[:30].ljust(24, "x") for who in ("host", "ana", "ben")}
    with running_table(tmp_path, broker, spectators=1) as run:
        t = run.phones.topics
        old = run.phones.game
        for who, password in passwords.items():
            claim(run, who, password)
        host = seated(run, old.host.user, passwords["host"])
        ben = seated(run, old.players["ben"].user, passwords["ben"])
        spectator = Phone(run.phones.address.host, run.phones.address.port, old.spectators[0].user,
                          old.spectators[0].password)
        assert not spectator.connect().is_failure
        spectator.subscribe("#")
        spectator.subscribe(t.public)
        # a seat tries the host's power, as a hostile phone would: refused at the door, no game started
        refused = command(ben, run, "ben", "b2", "table.new_game", game="toolkit", players=[NEW_PLAYERS[0]])
        assert refused["reason"]["code"] == "reject.not_allowed" and run.referee.game_id == old.game
        under_way = command(host, run, "host", "h0", "dice.roll", sides=6, count=1)
        assert under_way["ok"]
        early = command(host, run, "host", "h1", "table.new_game", game="lab_escape", players=NEW_PLAYERS)
        assert early["reason"]["code"] == "reject.game_in_progress"
        assert command(host, run, "host", "h2", "game.end")["ok"]

        host.publish(t.cmd(old.host.user), json.dumps({"id": "h3", "move": "table.new_game", "args": {
            "game": "lab_escape", "players": NEW_PLAYERS, "options": {"deck": "physical"}}}))
        dropped(host)  # the last game's host is out: the new game has its seats on the broker
        new = run.phones.game
        ana = seated(run, new.players["ana"].user, passwords["ana"])  # plays on: the same phone, the new seat
        fresh = ana.got(public_of).json()
        assert (fresh["game"], fresh["options"], [p["name"] for p in fresh["players"]]) == (
            "lab_escape", {"deck": "physical"}, ["Ana", "Eve"])
        assert new.game == fresh["number"] == run.referee.game_id and set(new.players) == {"ana", "p1"}

        # the removed player: dropped, and refused as the last game's seat and as any of the new game's
        dropped(ben)
        assert not logs_in(run, old.players["ben"].user, passwords["ben"])
        assert not logs_in(run, new.players["ana"].user, passwords["ben"])
        assert "ben" not in new.players
        # the player who plays on and the host: their phones log in as the new game's seats
        mine = ana.got(lambda m: m.topic == t.view(new.players["ana"].user)).json()
        assert mine["me"] == "ana" and mine["number"] == new.game and mine["game"] == "lab_escape"
        host2 = seated(run, new.host.user, passwords["host"])
        assert host2.got(lambda m: m.topic == t.view(new.host.user)).json()["phone_seats"]["players"] == {
            "ana": True, "p1": False}
        assert not logs_in(run, old.host.user, passwords["host"])  # the last game's users are gone
        # the new player's seat has a code (a join link) and the removed one has none
        links = seat_links(run.phones, "http://127.0.0.1:1/")
        assert set(links) == {"ana", "p1", "host", "spectator1"}
        assert links["p1"].user == new.joins[new.players["p1"].user].user
        kiosk = KioskSeats(Served(run.phones, None, "http://127.0.0.1:1/"))  # what the setup screen draws
        assert kiosk.join_url("p1") == links["p1"].url() and kiosk.join_url("ben") is None
        assert kiosk.bound("ana") and not kiosk.bound("p1") and kiosk.join_url("ana") is None
        # kept across a power cut: the new game's seats, bound phones and all
        kept = GameCredentials.kept(tmp_path / KEPT_FILE, new.table, new.game, ["ana", "p1"], 1)
        assert kept == new

        # the spectator: dropped with the last game, back in with the new game's name, never a seat topic
        dropped(spectator)
        back = Phone(run.phones.address.host, run.phones.address.port, new.spectators[0].user,
                     new.spectators[0].password)
        assert not back.connect().is_failure
        back.subscribe("#")  # a broker may refuse '#' to a phone, or grant it filtered by the ACL
        back.subscribe(t.public)
        assert back.got(public_of).json()["number"] == new.game
        assert command(host2, run, "host", "n1", "dice.roll", sides=6, count=1)["ok"] is False  # not a toolkit move
        assert not any("/seat/" in m.topic for m in spectator.seen + back.seen)
        # nothing the removed phone received is of the new game, but the public view
        assert not any(f".g{new.game}." in m.topic for m in ben.seen)
        assert not any(m.topic == t.view(old.players["ben"].user) and b'"number":%d' % new.game in m.payload
                       for m in ben.seen)


@pytest.mark.parametrize("broker", BROKERS)
def test_a_new_games_codes_are_shown_only_once_the_broker_takes_them(tmp_path: Path, broker: str) -> None:
    """Every code the table shows logs in the moment it is shown. A new game's seats are issued before the
    mirror hands their passwords to the broker (the last game's phones first hear of the new game): in
    between, the kiosk says the codes are coming and shows none, the host's page gets none, and no link is
    made. (A phone that scanned the setup screen's code as it came up was refused by the broker, then told
    its code had been replaced: the evening test, on a loaded machine.)"""
    with running_table(tmp_path, broker, spectators=1) as run:
        served = Served(run.phones, None, "http://127.0.0.1:1/")
        kiosk = KioskSeats(served)  # what the setup screen asks
        old = run.phones.game
        assert not kiosk.codes_coming(old.game) and kiosk.join_url("ana", old.game) is not None
        new, to_broker = run.phones.seating.new_game(old.game + 1, ["ana", "ben"])
        join = new.joins[new.players["ana"].user]
        assert not logs_in(run, join.user, join.password)  # not on the broker yet
        assert kiosk.codes_coming(new.game) and kiosk.join_url("ana", new.game) is None
        assert served.links() == {} and run.phones.seating.bound()["codes"] == {}
        to_broker()
        assert not kiosk.codes_coming(new.game) and kiosk.codes_coming(old.game)  # the screen's game's codes only
        links = served.links()
        assert set(links) == {"ana", "ben", "host", "spectator1"}
        assert links["ana"].url() == kiosk.join_url("ana", new.game)
        assert all(logs_in(run, link.user, link.password) for link in links.values())
        assert set(run.phones.seating.bound()["codes"]) == {"ana", "ben"}
