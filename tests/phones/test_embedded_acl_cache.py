"""The embedded broker's cache of ACL verdicts (issue 20): as strict as asking the ACL every time.

The ACL (`access`) is a pure function of user and topic, so the embedded broker caches its verdicts,
one cache per set of credentials: new credentials (a new game, a seat claimed or released) start an
empty one. A phone of the game before is refused from the moment the credentials change, even on a
connection not yet closed and on a topic it could write a moment before; a phone trying endless topic
names is refused each time, and the cache stays bounded. Real broker, real MQTT clients.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Iterator

import pytest
from amqtt.contexts import Action
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.phones import access
from companion.phones.credentials import GameCredentials
from companion.phones.embedded import ACL_CACHE_MAX, EmbeddedBroker, Logins, SeatBroker
from companion.phones.topics import REFEREE_USER, Topics
from tests.kits.phones_kit import WAIT_S, Phone, embedded_broker

PREFIX = "companion"
PLAYERS = ["ana", "ben"]


@pytest.fixture
def broker() -> Iterator[EmbeddedBroker]:
    with embedded_broker(PREFIX) as b:
        yield b


def logged_in(b: EmbeddedBroker, user: str, password: str) -> Phone:
    p = Phone("127.0.0.1", b.port, user, password)
    assert not p.connect().is_failure, f"{user} was refused"
    return p


def sent(p: Phone, topic: str, payload: str) -> None:
    """Publish at QoS 1 and wait for the broker's PUBACK (the broker has read it)."""
    p.client.publish(topic, payload, qos=1).wait_for_publish(WAIT_S)


def test_a_phone_of_the_game_before_is_refused_as_soon_as_the_credentials_change(broker: EmbeddedBroker) -> None:
    old = GameCredentials.issue("table1", 1, PLAYERS)
    new = GameCredentials.issue("table1", 2, PLAYERS)
    broker.set_game(old)
    t = Topics(PREFIX, "table1")
    referee = logged_in(broker, REFEREE_USER, "referee-password")
    referee.subscribe(f"{t.base}/seat/+/cmd")
    ana = logged_in(broker, old.players["ana"].user, old.players["ana"].password)
    sent(ana, t.cmd(ana.user or ""), "before")  # allowed, and its verdict now cached
    referee.wait_for(lambda m: m.payload == b"before")

    broker.logins.set_game(new)  # the moment the credentials change, before her connection is closed
    sent(ana, t.cmd(ana.user or ""), "after")
    ben = logged_in(broker, new.players["ben"].user, new.players["ben"].password)
    sent(ben, t.cmd(ben.user or ""), "marker")
    referee.wait_for(lambda m: m.payload == b"marker")
    assert [m.payload for m in referee.seen] == [b"before", b"marker"]
    for p in (ana, ben, referee):
        p.close()


def test_a_phone_trying_endless_topic_names_is_refused_each_time_and_the_cache_stays_bounded(
        broker: EmbeddedBroker) -> None:
    game = GameCredentials.issue("table1", 1, PLAYERS)
    broker.set_game(game)
    t = Topics(PREFIX, "table1")
    referee = logged_in(broker, REFEREE_USER, "referee-password")
    referee.subscribe(f"{t.base}/#")
    ana = logged_in(broker, game.players["ana"].user, game.players["ana"].password)
    ben_cmd = t.cmd(game.players["ben"].user)
    for n in range(ACL_CACHE_MAX + 300):
        ana.client.publish(f"{ben_cmd}/{n}", json.dumps({"id": f"x{n}", "move": "dice.roll"}), qos=0)
    sent(ana, ben_cmd, "foreign")
    sent(ana, t.cmd(ana.user or ""), "own")
    referee.wait_for(lambda m: m.payload == b"own")
    assert [m.payload for m in referee.seen] == [b"own"]
    assert len(broker.logins.now.verdicts) <= ACL_CACHE_MAX
    ana.close()
    referee.close()


# -- the cached verdicts against the ACL itself ----------------------------------------------------------

GAMES = [GameCredentials.issue("table1", g, PLAYERS, spectators=1) for g in (1, 2)]
USERS = sorted({c.user for g in GAMES for c in g.all()} | {REFEREE_USER, "stranger", "a/b", ""})
TOPICS = st.one_of(
    st.builds(lambda u, leaf: f"{PREFIX}/v1/table1/seat/{u}/{leaf}", st.sampled_from(USERS),
              st.sampled_from(["cmd", "view", "reply"])),
    st.sampled_from([f"{PREFIX}/v1/table1/public", f"{PREFIX}/v1/table1/status", f"{PREFIX}/v1/table1/events",
                     f"{PREFIX}/v1/table1/#", f"{PREFIX}/v1/table1/seat/+/view", "#", "$SYS/x", "", "other/v1/x"]),
)
ACTIONS = st.sampled_from([Action.SUBSCRIBE, Action.PUBLISH, Action.RECEIVE])
STEPS = st.lists(st.one_of(st.sampled_from([0, 1]), st.tuples(st.sampled_from(USERS), TOPICS, ACTIONS)), max_size=60)


def expected(game: GameCredentials, user: str, topic: str, action: Action) -> bool:
    """The ACL asked afresh: a user of this game (or the referee), then `access`."""
    if not user or not topic or (user != REFEREE_USER and game.seat_of(user) is None):
        return False
    if action == Action.SUBSCRIBE:
        return access.may_subscribe(PREFIX, user, topic)
    if action == Action.RECEIVE:
        return access.may_receive(PREFIX, user, topic)
    return not (topic.startswith("$") or "+" in topic or "#" in topic) and access.may_publish(PREFIX, user, topic)


@functools.cache
def seat_broker() -> SeatBroker:
    """A SeatBroker never started: its ACL is asked directly (it answers without the event loop)."""
    async def make() -> SeatBroker:
        config = {"listeners": {"default": {"type": "tcp", "bind": "127.0.0.1:0"}}, "plugins": {}}
        return SeatBroker(config, Logins(PREFIX, "referee-password"))

    return asyncio.run(make())


@settings(max_examples=200)
@given(STEPS)
def test_every_cached_verdict_is_the_one_the_acl_gives_for_the_credentials_of_that_moment(
        steps: list[int | tuple[str, str, Action]]) -> None:
    broker, game = seat_broker(), GAMES[0]
    broker.logins.set_game(game)
    for step in steps:
        if isinstance(step, int):
            game = GAMES[step]
            broker.logins.set_game(game)
            continue
        user, topic, action = step
        assert broker._allowed(user, topic, action) == expected(game, user, topic, action), step
