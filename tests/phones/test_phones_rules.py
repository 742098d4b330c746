"""The pure parts of the phone mirror: user names, the ACL, the door checks on commands, the rate limit,
and the shipped Mosquitto files staying in step with the code."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.rejection import Rejected
from companion.phones import intake
from companion.phones.credentials import GameCredentials
from companion.phones.mosquitto import MEMORY_LIMIT_BYTES, acl_text
from companion.phones.topics import COMMAND_MAX_BYTES, MAX_PACKET_BYTES, REFEREE_USER, Topics, parse_user, player_user
from tests.kits import acl_model as access

ROOT = Path(__file__).resolve().parents[2]
TABLE_IDS = st.from_regex(r"\A[a-z0-9][a-z0-9_-]{0,31}\Z")
PIDS = st.from_regex(r"\A[a-z0-9_-]{1,32}\Z")
GAMES = st.integers(min_value=1, max_value=10**9)


@given(TABLE_IDS, GAMES, PIDS)
def test_a_player_user_name_parses_back_to_its_seat(table: str, game: int, pid: str) -> None:
    seat = parse_user(player_user(table, game, pid))
    assert seat is not None
    assert (seat.table, seat.game, seat.kind, seat.pid, seat.actor) == (table, game, "player", pid, f"player:{pid}")


def test_host_and_spectator_names_and_the_referee_are_distinct_seats() -> None:
    creds = GameCredentials.issue("t1", 3, ["host", "ana"], spectators=2)
    seats = {c.user: c.seat for c in creds.all()}
    assert len(seats) == 8 and len({c.password for c in creds.all()}) == 8  # 5 seats and 3 join users
    assert seats["t1.g3.host"].actor == "host"
    assert seats["t1.g3.p.host"].actor == "player:host"  # a player called "host" is not the host
    assert seats["t1.g3.s1"].actor is None
    assert seats["t1.g3.j.host"].claims == "t1.g3.p.host"  # ... nor does that player's code claim the host's seat
    assert seats["t1.g3.host.j"].claims == "t1.g3.host"
    assert all(seats[u].actor is None for u in ("t1.g3.j.host", "t1.g3.j.ana", "t1.g3.host.j"))
    assert parse_user(REFEREE_USER) is None


def test_a_credential_of_another_game_or_table_is_not_a_seat_here() -> None:
    now = GameCredentials.issue("t1", 4, ["ana"])
    before = GameCredentials.issue("t1", 3, ["ana"])
    elsewhere = GameCredentials.issue("t2", 4, ["ana"])
    assert now.seat_of(before.players["ana"].user) is None
    assert now.seat_of(elsewhere.players["ana"].user) is None
    assert not now.check(before.players["ana"].user, before.players["ana"].password)
    assert not now.check(now.players["ana"].user, before.players["ana"].password)
    assert now.check(now.players["ana"].user, now.players["ana"].password)


@settings(max_examples=200)
@given(TABLE_IDS, PIDS, PIDS)
def test_a_player_reads_only_public_topics_and_its_own_seat(table: str, me: str, other: str) -> None:
    t = Topics("companion", table)
    mine, theirs = player_user(table, 1, me), player_user(table, 1, other)
    for topic in (t.status, t.public, t.events, t.view(mine), t.reply(mine)):
        assert access.may_receive("companion", mine, topic)
        assert access.may_subscribe("companion", mine, topic)
        assert not access.may_publish("companion", mine, topic)
    assert access.may_publish("companion", mine, t.cmd(mine))
    assert not access.may_receive("companion", mine, t.cmd(mine))
    if theirs != mine:
        for topic in (t.view(theirs), t.reply(theirs), t.cmd(theirs)):
            assert not access.may_receive("companion", mine, topic)
            assert not access.may_publish("companion", mine, topic)
    for wide in ("#", "+/#", f"{t.base}/#", f"{t.base}/seat/+/view", f"{t.base}/seat/{mine}/#", "$SYS/#"):
        assert not access.may_subscribe("companion", mine, wide)
    assert access.may_subscribe("companion", mine, "companion/v1/+/public")  # every table's public view


@given(st.binary(max_size=COMMAND_MAX_BYTES + 64))
def test_any_payload_decodes_to_an_input_from_the_seat_or_a_rejection(payload: bytes) -> None:
    out = intake.decode(payload, "player:ana")
    if isinstance(out, Rejected):
        assert out.code in {"reject.malformed", "reject.command_too_large"}
    else:
        assert out["by"] == "player:ana" and set(out) == {"move", "by", "args", "id"}


@given(st.text(min_size=1, max_size=64), st.text(min_size=1, max_size=64),
       st.dictionaries(st.text(max_size=8), st.integers(-intake.MAX_INT, intake.MAX_INT) | st.text(max_size=8),
                       max_size=4))
def test_a_well_formed_command_keeps_its_id_move_and_args(cid: str, move: str, args: dict[str, object]) -> None:
    payload = json.dumps({"id": cid, "move": move, "args": args}).encode()
    out = intake.decode(payload, "host")
    if len(payload) <= COMMAND_MAX_BYTES:
        assert out == {"id": cid, "move": move, "args": args, "by": "host"}


def test_a_payload_that_names_its_sender_is_refused() -> None:
    out = intake.decode(b'{"id": "1", "move": "game.end", "by": "host"}', "player:ana")
    assert isinstance(out, Rejected) and out.params["problem"] == "unknown field 'by'"


@given(st.lists(st.floats(min_value=0, max_value=0.5), min_size=1, max_size=300))
def test_the_rate_limit_never_lets_through_more_than_the_burst_plus_the_rate(gaps: list[float]) -> None:
    limit, now, allowed = intake.RateLimit(), 0.0, 0
    for gap in gaps:
        now += gap
        allowed += limit.allow(now)
    assert allowed <= intake.BURST + intake.RATE_PER_S * now + 1e-9
    assert allowed >= min(len(gaps), intake.BURST)  # and never refuses the first burst


def test_the_shipped_mosquitto_acl_is_the_one_the_code_generates() -> None:
    shipped = (ROOT / "systemd/companion.acl").read_text(encoding="utf-8")
    body = "\n".join(line for line in shipped.splitlines() if not line.startswith("#")).strip()
    assert body == acl_text("companion").strip()
    conf = (ROOT / "systemd/mosquitto-companion.conf").read_text(encoding="utf-8")
    assert conf.count("use_username_as_clientid true") == conf.count("\nlistener ") == 2
    assert "allow_anonymous false" in conf
    # the same limits as the managed broker (issue 16: a huge publish, even over WebSockets)
    assert f"\nmax_packet_size {MAX_PACKET_BYTES}\n" in conf
    assert f"\nmemory_limit {MEMORY_LIMIT_BYTES}\n" in conf
