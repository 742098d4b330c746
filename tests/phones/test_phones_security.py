"""The security suite, against the real broker started here (the managed Mosquitto).

With each player's credentials: subscribe to `#` and to other seats' and the host's topics; publish to
the public topics and to other seats' command and view topics; reuse another player's client id (with
a right and a wrong password); log in with wrong, unknown, anonymous and expired credentials; send
malformed, oversized and flooding payloads. Then count: secrets received by anyone but their owner,
foreign commands applied, retained topics overwritten, sessions taken over, logins let in. All must be
zero, and the referee must keep serving the honest players. The counts are printed (docs/mqtt.md).
"""

from __future__ import annotations

import json
import queue
from pathlib import Path

import pytest

from companion.phones.credentials import GameCredentials
from tests.kits.phones_kit import (
    BROKERS,
    PLAYERS,
    WAIT_S,
    Phone,
    Running,
    as_sent,
    command,
    joined,
    reply,
    running_table,
)

ROLES = {"crow", "fox", "owl", "wolf"}
VOTES = {"ana": "ben", "ben": "chai", "chai": "dao", "dao": "ana"}  # all different: each vote is a marker
FLOOD = 300


def markers(run: Running, pid: str) -> set[str]:
    """Fragments of JSON that only `pid`'s own view may hold: its counter, its vote, its role."""
    private = run.referee.view(f"player:{pid}")["private"]
    return {
        f'"gold":{private["counters"]["gold"]}',
        f'"my_vote":"{private["ballots"]["exile"]["my_vote"]}"',
        f'"deal":"{private["roles"]["deal"]}"',
    }


def setup_secrets(run: Running, host: Phone, phones: dict[str, Phone]) -> None:
    for cid, move, args in [
        ("s1", "roles.deal", {"name": "deal", "roles": sorted(ROLES)}),
        ("s2", "counter.create", {"name": "gold"}),
        ("s3", "ballot.open", {"name": "exile", "options": PLAYERS}),
    ]:
        assert command(host, run, "host", cid, move, **args)["ok"]
    for i, pid in enumerate(PLAYERS):
        assert command(phones[pid], run, pid, "g1", "counter.adjust", name="gold", delta=101 + 111 * i)["ok"]
        assert command(phones[pid], run, pid, "v1", "ballot.vote", name="exile", option=VOTES[pid])["ok"]


def foreign_applied(run: Running) -> int:
    return sum(1 for ev in run.referee.log.events(run.referee.game_id) if (ev.input.id or "").startswith("attack-"))


@pytest.mark.parametrize("broker", BROKERS)
def test_no_credential_reads_writes_or_takes_over_what_is_not_its_own(tmp_path: Path, broker: str) -> None:
    counts: dict[str, int] = dict.fromkeys([
        "subscriptions tried", "subscriptions granted", "secrets received", "foreign publishes tried",
        "foreign commands applied", "retained topics overwritten", "client-id takeovers tried",
        "sessions taken over", "bad logins tried", "bad logins let in", "bad payloads sent",
        "bad payloads rejected", "flood commands sent", "flood commands applied", "others served during flood",
    ], 0)
    with running_table(tmp_path, broker) as run:
        t = run.phones.topics
        users = {pid: run.cred(pid).user for pid in PLAYERS}
        host_user = run.cred("host").user
        host = joined(run, "host")
        phones = {pid: joined(run, pid) for pid in PLAYERS}
        setup_secrets(run, host, phones)
        secret = {pid: markers(run, pid) for pid in PLAYERS}
        public_json = json.dumps(as_sent(run.referee, "public"), separators=(",", ":"), sort_keys=True)
        assert not any(m in public_json for s in secret.values() for m in s)  # the markers are secrets

        # 1. reading: '#', wildcards, other seats, the host's seat, $SYS
        for pid, p in phones.items():
            filters = ["#", "+/#", f"{t.base}/#", f"{t.base}/seat/+/view", f"{t.base}/seat/+/reply", "$SYS/#",
                       t.view(host_user), t.reply(host_user)]
            filters += [topic for other in PLAYERS if other != pid for topic in (t.view(users[other]),
                                                                                 t.reply(users[other]))]
            for f in filters:
                granted = p.subscribe(f)[0]
                counts["subscriptions tried"] += 1
                counts["subscriptions granted"] += not granted.is_failure

        # 2. writing: public topics, other seats' commands and views, the host's commands
        for pid, p in phones.items():
            for topic in (t.public, t.status, t.events):
                p.publish(topic, json.dumps({"forged_by": pid}), retain=True)
                counts["foreign publishes tried"] += 1
            for other in [*(o for o in PLAYERS if o != pid), "host"]:
                user = host_user if other == "host" else users[other]
                forged = {"id": f"attack-{pid}-{other}", "move": "game.end" if other == "host" else "counter.adjust",
                          "args": {} if other == "host" else {"name": "gold", "delta": 500}}
                p.publish(t.cmd(user), json.dumps(forged))
                p.publish(t.view(user), json.dumps({"forged_by": pid}), retain=True)
                p.publish(t.reply(user), json.dumps({"id": "v1", "ok": False, "forged_by": pid}))
                counts["foreign publishes tried"] += 3

        # 3. the live game goes on: every seat's view changes after the attacks subscribed
        for i, pid in enumerate(PLAYERS):
            assert command(phones[pid], run, pid, "g2", "counter.adjust", name="gold", delta=7 + i)["ok"]
            secret[pid] |= markers(run, pid)
        assert command(host, run, "host", "s4", "dice.roll")["ok"]

        # 4. another player's client id: with one's own login, and with the victim's name and a wrong password
        for pid in PLAYERS:
            victim = PLAYERS[(PLAYERS.index(pid) + 1) % len(PLAYERS)]
            cred = run.cred(pid)
            for user, password in ((cred.user, cred.password), (users[victim], "wrong-password")):
                thief = Phone(run.phones.address.host, run.phones.address.port, user, password,
                              client_id=users[victim])
                counts["client-id takeovers tried"] += 1
                while not phones[victim].acks.empty():  # count only what this attempt does to the victim
                    phones[victim].acks.get_nowait()
                if not thief.connect().is_failure:
                    thief.subscribe("#")
                    thief.close()
                vp = phones[victim]
                kicked = False
                while not kicked:
                    try:
                        kind, _ = vp.acks.get_nowait()
                    except queue.Empty:
                        break
                    kicked = kind == "disconnect"
                counts["sessions taken over"] += kicked
                # the victim's session and subscriptions are intact: its own view still reaches it
                delta = 1
                got = command(vp, run, victim, f"alive-{pid}", "counter.adjust", name="gold", delta=delta)
                assert got["ok"]
                vp.got(lambda m, v=victim: m.topic == t.view(users[v])
                       and markers(run, v) <= {x for x in markers(run, v) if x in m.payload.decode()})
                secret[victim] |= markers(run, victim)

        # 5. bad logins: wrong password, unknown user, no user, another table's name
        bad = [(users["ana"], "x" * 24), ("table1.g1.p.zed", "x"), (None, None), ("table9.g1.p.ana", "x"),
               (host_user, run.cred("ana").password)]
        for user, password in bad:
            counts["bad logins tried"] += 1
            counts["bad logins let in"] += not Phone(run.phones.address.host, run.phones.address.port, user,
                                                     password).connect().is_failure

        # 6. malformed and oversized payloads from every player
        before = run.events()
        for pid, p in phones.items():
            oversized = json.dumps({"id": "m3", "move": "dice.roll", "args": {"pad": "x" * 5000}}).encode()
            for n, payload in enumerate([b"\x00\xff", b"{", b"[]", b'{"id":"m1"}',
                                         b'{"id":"m2","move":"x","by":"host"}', oversized]):
                p.publish(t.cmd(users[pid]), payload)
                counts["bad payloads sent"] += 1
                cid = {3: "m1", 4: "m2", 5: "m3"}.get(n)
                counts["bad payloads rejected"] += reply(p, run, pid, cid)["ok"] is False
        assert run.events() == before

        # 7. a flood from ana while ben plays on
        received = run.phones.mirror.counts["received"]
        flood = {"ok": 0}
        for n in range(FLOOD):
            phones["ana"].publish(t.cmd(users["ana"]), json.dumps({"id": f"flood-{n}", "move": "dice.roll"}))
        counts["flood commands sent"] = FLOOD
        for n in range(5):
            counts["others served during flood"] += command(phones["ben"], run, "ben", f"calm-{n}", "dice.roll")["ok"]
        assert run.phones.mirror.wait_received(received + FLOOD + 5, WAIT_S)
        counts["flood commands applied"] = sum(1 for ev in run.referee.log.events(run.referee.game_id)
                                               if (ev.input.id or "").startswith("flood-"))
        flood["ok"] = counts["flood commands applied"]
        assert command(phones["ben"], run, "ben", "after-flood", "dice.roll")["ok"]

        # 8. what everyone received
        for pid, p in phones.items():
            allowed = {t.status, t.public, t.events, t.view(users[pid]), t.reply(users[pid])}
            others = set().union(*(secret[o] for o in PLAYERS if o != pid))
            for m in p.seen:
                text = m.payload.decode("utf-8", "replace")
                leak = (m.topic not in allowed) or any(s in text for s in others)
                if leak:
                    print("LEAK", pid, m.topic, text[:300])
                counts["secrets received"] += leak
            assert any(s in m.payload.decode() for m in p.seen for s in secret[pid])  # the check can see one
        counts["foreign commands applied"] = foreign_applied(run)
        watcher = joined(run, "ben")
        got_public = watcher.got(lambda m: m.topic == t.public).json()
        got_status = watcher.got(lambda m: m.topic == t.status).payload
        counts["retained topics overwritten"] += got_public != as_sent(run.referee, "public")
        counts["retained topics overwritten"] += got_status != b"online"
        for pid in PLAYERS:
            view = joined(run, pid).got(lambda m, u=users[pid]: m.topic == t.view(u)).json()
            counts["retained topics overwritten"] += view != as_sent(run.referee, f"player:{pid}")

        # 9. a new game: every credential of this one is refused
        run.phones.broker.set_game(GameCredentials.issue("table1", run.referee.game_id + 1, PLAYERS))
        for who in [*PLAYERS, "host"]:
            cred = run.cred(who)
            counts["bad logins tried"] += 1
            counts["bad logins let in"] += not Phone(run.phones.address.host, run.phones.address.port, cred.user,
                                                     cred.password).connect().is_failure

    print(f"\nsecurity counts, {broker}:\n" + "\n".join(f"| {k} | {v} |" for k, v in counts.items()))
    for must_be_zero in ("secrets received", "foreign commands applied", "retained topics overwritten",
                         "sessions taken over", "bad logins let in"):
        assert counts[must_be_zero] == 0, (must_be_zero, counts)
    assert counts["bad payloads rejected"] == counts["bad payloads sent"]
    assert counts["others served during flood"] == 5
    assert 0 < counts["flood commands applied"] < FLOOD  # the flood was cut down, and not to nothing

