"""A seat's code on the shared screen is worth nothing once a phone took the seat (issue 16, item 8).

Against both real brokers: the QR code the setup screen shows carries a seat's join credential, which
reads no seat's view; the first phone to use it takes the seat with a password of its own; a second
phone using a photo of the code is refused and never receives the seat's view; the host releases the
seat (the old phone is dropped and stays out) and a new phone takes it with the seat's new code; a
restart of the same game keeps the seat with its phone. Hostile claims change nothing.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.phones.credentials import GameCredentials
from companion.phones.join import JoinLink, seat_links
from companion.phones.runner import KEPT_FILE, ExternalBroker
from companion.phones.seating import PASSWORD, Seating, claimed_password
from companion.phones.topics import Topics, host_user, join_user, parse_user, player_user
from tests.kits import acl_model as access
from tests.kits.phones_kit import BROKERS, WAIT_S, Phone, Running, running_table, serving

PAGE = "http://127.0.0.1:8080/"
TABLE_IDS = st.from_regex(r"\A[a-z0-9][a-z0-9_-]{0,31}\Z")
PIDS = st.from_regex(r"\A[a-z0-9_-]{1,32}\Z")
PLAYERS = ["ana", "ben", "chai"]


def code(run: Running, who: str) -> JoinLink:
    """The join link a seat's QR code holds right now (what the setup screen or the host menu shows)."""
    return seat_links(run.phones, PAGE)[who]


def new_password() -> str:
    """What the phone page makes for itself (crypto.getRandomValues, base64url)."""
    return secrets.token_urlsafe(18)


def logged_in(run: Running, user: str, password: str) -> Phone:
    p = Phone(run.phones.address.host, run.phones.address.port, user, password)
    assert not p.connect().is_failure, f"{user} was refused"
    return p


def refused(run: Running, user: str, password: str) -> bool:
    return bool(Phone(run.phones.address.host, run.phones.address.port, user, password).connect().is_failure)


def claim(run: Running, link: JoinLink, password: Any, cid: str = "claim-1", move: str = "seat.claim",
          **extra: Any) -> dict[str, Any]:
    """A phone opening the join link: it logs in as the join user and claims the seat with `password`."""
    p = logged_in(run, link.user, link.password)
    try:
        reply_topic = run.phones.topics.reply(link.user)
        p.subscribe(reply_topic)
        args = {"password": password, **extra}
        p.publish(run.phones.topics.cmd(link.user), json.dumps({"id": cid, "move": move, "args": args}))
        got: dict[str, Any] = p.wait_for(lambda m: m.topic == reply_topic and m.json().get("id") == cid).json()
        return got
    finally:
        p.close()


def seated(run: Running, who: str, password: str) -> Phone:
    """The phone that took `who`'s seat, logged in as the seat with its own password and subscribed."""
    user = run.cred(who).user
    p = logged_in(run, user, password)
    t = run.phones.topics
    p.subscribe(t.status, t.public, t.view(user), t.reply(user))
    return p


def own_view(run: Running, p: Phone, who: str) -> dict[str, Any]:
    topic = run.phones.topics.view(run.cred(who).user)
    got: dict[str, Any] = p.got(lambda m: m.topic == topic).json()
    return got


def take(run: Running, who: str) -> tuple[Phone, str]:
    password = new_password()
    assert claim(run, code(run, who), password)["ok"]
    return seated(run, who, password), password


def host_command(run: Running, host: Phone, cid: str, move: str, **args: Any) -> dict[str, Any]:
    user = run.cred("host").user
    topic = run.phones.topics.reply(user)
    host.publish(run.phones.topics.cmd(user), json.dumps({"id": cid, "move": move, "args": args}))
    got: dict[str, Any] = host.wait_for(lambda m: m.topic == topic and m.json().get("id") == cid).json()
    return got


def a_change(run: Running, watcher: Phone, n: int) -> None:
    """The host changes the table; wait until `watcher` has the new public view (deliveries happened)."""
    run.table.put({"by": "host", "move": "counter.create", "args": {"name": f"c{n}"}})
    watcher.wait_for(lambda m: m.topic == run.phones.topics.public and f'"c{n}"' in m.payload.decode())


@settings(max_examples=200)
@given(TABLE_IDS, PIDS, st.integers(min_value=1, max_value=10**9))
def test_a_join_user_reads_the_public_topics_and_its_own_empty_seat_only(table: str, pid: str, game: int) -> None:
    """The same `%u` ACL every broker applies: a join user's own seat topics are not the seat's."""
    t = Topics("companion", table)
    for joins, seat in ((join_user(table, game, pid), player_user(table, game, pid)),
                        (join_user(table, game, None), host_user(table, game))):
        parsed = parse_user(joins)
        assert parsed is not None and parsed.kind == "join" and parsed.claims == seat and parsed.actor is None
        for topic in (t.status, t.public, t.events, t.view(joins), t.reply(joins)):
            assert access.may_receive("companion", joins, topic) and access.may_subscribe("companion", joins, topic)
        assert access.may_publish("companion", joins, t.cmd(joins))
        others = (t.view(seat), t.reply(seat), t.cmd(seat), t.view(host_user(table, game)), f"{t.base}/seat/+/view")
        for topic in others:
            assert not access.may_receive("companion", joins, topic)
            assert not access.may_subscribe("companion", joins, topic)
            assert not access.may_publish("companion", joins, topic)


@pytest.mark.parametrize("broker", BROKERS)
def test_the_code_on_the_shared_screen_reads_no_seat_before_or_after_a_claim(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker, players=PLAYERS) as run:
        t = run.phones.topics
        for who in ("ana", "host"):
            link = code(run, who)
            seat = run.cred(who).user
            assert link.user != seat and link.password != run.cred(who).password
            assert refused(run, seat, link.password)  # the code's password is no seat's password
            photo = logged_in(run, link.user, link.password)
            for f in ("#", f"{t.base}/seat/+/view", t.view(seat), t.reply(seat), t.view(link.user), t.public):
                photo.subscribe(f)
            a_change(run, photo, 1 if who == "ana" else 2)
            assert photo.got(lambda m: m.topic == t.public)  # the public view reached it: deliveries work
            assert not [m.topic for m in photo.seen if m.topic not in (t.public, t.status, t.events)]
            assert not any(b'"private"' in m.payload or b'"history"' in m.payload for m in photo.seen)
            photo.close()
        phone, _ = take(run, "ana")
        photo = logged_in(run, code(run, "ana").user, code(run, "ana").password)  # after the claim: the same
        for f in ("#", t.view(run.cred("ana").user), t.public):
            photo.subscribe(f)
        a_change(run, photo, 3)
        assert own_view(run, phone, "ana")["me"] == "ana"
        assert not [m.topic for m in photo.seen if m.topic not in (t.public, t.status, t.events)]


@pytest.mark.parametrize("broker", BROKERS)
def test_a_photographed_code_is_refused_once_a_phone_took_the_seat(tmp_path: Path, broker: str,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with running_table(tmp_path, broker, players=PLAYERS) as run:
        link = code(run, "ana")  # what Ana scans, and what Ben photographs off the shared screen
        mine, theirs = new_password(), new_password()
        first = claim(run, link, mine)
        assert first == {"id": "claim-1", "ok": True, "seq": None, "duplicate": False}
        ana = seated(run, "ana", mine)
        assert own_view(run, ana, "ana")["me"] == "ana"

        second = claim(run, link, theirs, cid="photo-1")
        assert second["ok"] is False and second["reason"]["code"] == "reject.seat_taken"
        assert refused(run, run.cred("ana").user, theirs)  # the photo's own password opens nothing
        assert claim(run, link, mine, cid="claim-2")["ok"]  # Ana's phone again (a lost reply): still hers
        with contextlib.closing(Phone(run.phones.address.host, run.phones.address.port, run.cred("ana").user,
                                      theirs)) as thief:
            thief.connect()
            assert not thief.seen
        a_change(run, ana, 1)
        assert own_view(run, ana, "ana")["me"] == "ana"  # Ana is still served

        # The seat's password is the phone's own, and it is nowhere but the kept file (0600) and the broker.
        assert run.cred("ana").password == mine
        kept = tmp_path / KEPT_FILE
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and mine in kept.read_text()
        host_view = json.dumps(run.referee.view("host"))
        assert mine not in host_view and mine not in json.dumps(run.referee.view("public"))
        assert not any(mine in m.payload.decode() for m in ana.seen)
        ours = [r.getMessage() for r in caplog.records if r.name.startswith("companion") or r.levelno >= logging.INFO]
        assert any("seat of player ana" in line for line in ours)  # the claim was logged, without P
        assert not [line for line in ours if mine in line or theirs in line]
        seats = run.phones.seating.bound()
        assert (seats["players"], seats["host"]) == ({"ana": True, "ben": False, "chai": False}, False)
        game = run.phones.game  # the host's page gets the free seats' codes, never a held seat's
        joins = {pid: game.joins[game.players[pid].user] for pid in ("ben", "chai")}
        assert seats["codes"] == {pid: [j.user, j.password] for pid, j in joins.items()}


@pytest.mark.parametrize("broker", BROKERS)
def test_the_host_releases_a_seat_the_old_phone_stays_out_and_a_new_phone_takes_it(
        tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker, players=PLAYERS) as run:
        t = run.phones.topics
        host, _ = take(run, "host")
        host_view = t.view(run.cred("host").user)
        ana, old_password = take(run, "ana")
        old_code = code(run, "ana")
        host.got(lambda m: m.topic == host_view and m.json()["phone_seats"]["players"]["ana"])
        assert host.got(lambda m: m.topic == host_view).json()["phone_seats"]["host"] is True

        # Neither Ana's own seat nor her join code may release anything; only the host's seat does.
        user = run.cred("ana").user
        ana.publish(t.cmd(user), json.dumps({"id": "r0", "move": "seat.release", "args": {"player": "ana"}}))
        assert ana.wait_for(lambda m: m.topic == t.reply(user) and m.json()["id"] == "r0").json()["ok"] is False
        assert claim(run, old_code, old_password, cid="r1", move="seat.release")["reason"]["code"] == \
            "reject.seat_claim_only"
        assert run.phones.seating.holds("ana")

        while not ana.acks.empty():
            ana.acks.get_nowait()
        assert host_command(run, host, "h1", "seat.release", player="ana")["ok"]
        kind, _ = ana.acks.get(timeout=WAIT_S)
        assert kind == "disconnect"  # the bound phone is dropped at once ...
        assert refused(run, user, old_password)  # ... and its reconnection is refused
        assert refused(run, old_code.user, old_code.password)  # the old code (or a photo of it) too
        host.got(lambda m: m.topic == host_view and not m.json()["phone_seats"]["players"]["ana"])

        new_code = code(run, "ana")
        assert new_code.user != old_code.user and new_code.password != old_code.password  # a new join user
        assert parse_user(new_code.user) == parse_user(old_code.user)  # of the same seat
        fresh = new_password()
        assert claim(run, new_code, fresh)["ok"]
        newcomer = seated(run, "ana", fresh)
        assert own_view(run, newcomer, "ana")["me"] == "ana"
        a_change(run, newcomer, 1)
        assert refused(run, user, old_password)  # the old phone stays out
        refusals = {"player": "zed"}, {"player": 3}, {}, {"player": "ana", "x": 1}
        for n, args in enumerate(refusals):
            assert host_command(run, host, f"bad{n}", "seat.release", **args)["ok"] is False
        assert host_command(run, host, "h2", "seat.rename", player="ana")["reason"]["code"] == "reject.unknown_move"
        # a lone surrogate is refused at the door (intake), before the seating reads the player
        assert host_command(run, host, "h3", "seat.release", player="\ud800")["reason"]["code"] == "reject.malformed"
        assert run.phones.seating.holds("ana")


@contextlib.contextmanager
def resumed_table(tmp_path: Path, broker: str) -> Iterator[Running]:
    """The same game after a power cut: resumed from its log, phones started on the same state directory."""
    referee = Referee.resume(registry(), EventLog(tmp_path / "game.sqlite3"))
    assert referee is not None
    with serving(referee, tmp_path, broker) as run:
        yield run


@pytest.mark.parametrize("broker", BROKERS)
def test_a_restart_of_the_same_game_keeps_each_seat_with_its_phone(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker, players=PLAYERS) as run:
        mine = new_password()
        link, ben_code = code(run, "ana"), code(run, "ben")
        assert claim(run, link, mine)["ok"]
        game = run.referee.game_id
    with resumed_table(tmp_path, broker) as run:
        assert run.referee.game_id == game
        assert run.phones.seating.holds("ana") and not run.phones.seating.holds("ben")
        ana = seated(run, "ana", mine)  # Ana's phone rejoins by itself with the password it made
        assert own_view(run, ana, "ana")["me"] == "ana"
        assert claim(run, link, new_password())["reason"]["code"] == "reject.seat_taken"
        again = code(run, "ben")  # a seat nobody took keeps its code (the broker's ports are new ones)
        assert (again.user, again.password) == (ben_code.user, ben_code.password)
        assert claim(run, again, new_password())["ok"]
    # a new game on the same state directory: new credentials, nothing bound
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"),
                            Referee.resume(registry(), EventLog(tmp_path / "game.sqlite3")).setup,  # type: ignore[union-attr]
                            created_at=0)
    fresh = GameCredentials.kept(tmp_path / KEPT_FILE, "table1", referee.game_id, PLAYERS)
    referee.log.close()
    assert not fresh.bound and not fresh.check(f"table1.g{game}.p.ana", mine)


BAD_CLAIMS: list[tuple[bytes, str]] = [
    (b'{"id":"b1","move":"dice.roll","args":{}}', "reject.seat_claim_only"),
    (b'{"id":"b2","move":"seat.release","args":{"player":"ana"}}', "reject.seat_claim_only"),
    (b'{"id":"b3","move":"seat.claim","args":{}}', "reject.seat_password"),
    (b'{"id":"b4","move":"seat.claim","args":{"password":"short"}}', "reject.seat_password"),
    (b'{"id":"b5","move":"seat.claim","args":{"password":"abcdefghijklmnopqrstuvwx:y"}}', "reject.seat_password"),
    (b'{"id":"b6","move":"seat.claim","args":{"password":"abcdefghijklmnopqrstuvwx\\nroot:x"}}',
     "reject.seat_password"),
    (b'{"id":"b7","move":"seat.claim","args":{"password":' + b'"' + b"a" * 65 + b'"}}', "reject.seat_password"),
    (b'{"id":"b8","move":"seat.claim","args":{"password":12345678901234567890123}}', "reject.malformed"),  # intake
    (b'{"id":"b8b","move":"seat.claim","args":{"password":1234567890}}', "reject.seat_password"),
    (b'{"id":"b9","move":"seat.claim","args":{"password":"abcdefghijklmnopqrstuvwx","by":"host"}}',
     "reject.seat_password"),
    (b'{"id":"b10","move":"seat.claim"', "reject.malformed"),
]


@pytest.mark.parametrize("broker", BROKERS)
def test_hostile_claims_are_refused_with_a_reason_and_take_no_seat(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker, players=PLAYERS) as run:
        link = code(run, "ana")
        t = run.phones.topics
        p = logged_in(run, link.user, link.password)
        p.subscribe(t.reply(link.user))
        before = run.events()
        for payload, reason in BAD_CLAIMS:
            cid = json.loads(payload + b"}")["id"] if payload.endswith(b'"') else json.loads(payload)["id"]
            p.publish(t.cmd(link.user), payload)
            got = p.wait_for(lambda m, c=cid: m.topic == t.reply(link.user) and m.json()["id"] in (c, None)).json()
            assert got["ok"] is False and got["reason"]["code"] == reason, (payload, got)
        assert run.events() == before  # nothing reached the game's referee
        assert run.phones.seating.holds("ana") is False
        p.close()
        assert claim(run, link, new_password())["ok"]  # the real phone still takes the seat


@settings(max_examples=300, deadline=None)
@given(payload=st.one_of(
    st.binary(max_size=200),
    st.builds(lambda move, args: json.dumps({"id": "x", "move": move, "args": args}).encode(),
              st.sampled_from(["seat.claim", "seat.release", "dice.roll"]),
              st.dictionaries(st.sampled_from(["password", "player", "by"]),
                              st.one_of(st.text(max_size=70), st.integers(), st.none()), max_size=3)),
))
def test_any_payload_of_a_join_user_either_claims_with_a_valid_password_or_changes_nothing(payload: bytes) -> None:
    game = GameCredentials.issue("table1", 1, PLAYERS)
    seating = Seating(game, ExternalBroker(None, None))  # a broker with nothing to provision
    user = game.joins[game.players["ana"].user].user
    join = parse_user(user)
    assert join is not None and join.kind == "join"
    outcome = seating.command(user, join, payload)
    assert outcome is not None
    password = claimed_password(payload)
    if outcome.accepted:
        assert isinstance(password, str) and PASSWORD.fullmatch(password)
        assert seating.game.players["ana"].password == password and seating.holds("ana")
    else:
        assert outcome.reason is not None and outcome.reason.code.startswith("reject.")
        assert seating.game == game
