"""Fuzz the phones' door: a million hostile payloads through the intake and the reply, then a live
table taking hostile phones on both real brokers. Nothing may raise, stop a thread or break a reply.

    python bench/fuzz_intake.py [--payloads 1000000] [--seed 1] [--live-seconds 60] [--brokers mosquitto]

Offline (`--payloads`): each payload goes through what the mirror does with a command,
`intake.command_id`, `intake.decode` and `intake.reply`; the reply must be strict JSON (as the page's
JSON.parse reads it) and an accepted input must be JSON the log and the views can carry. The payloads:

- random: random bytes, 0-200 of them;
- mutated: a real command with 1-6 edits (bit flip, byte set, a hostile token inserted, delete,
  truncate, duplicate a piece);
- hostile: a command with a hostile value (a lone surrogate as an escape or as raw bytes, NaN,
  Infinity, 1e400, a 300-digit integer, a 3,000-character string, nesting 33-4,000 deep) as its id, its
  move, an argument's key or an argument's value;
- deep: bare nesting of any depth up to 4,000, of arrays, objects or both;
- oversized: a real command padded past 4,096 bytes.

Live (`--live-seconds`, per broker): a real table (toolkit, 12 players and the host, a real SQLite
log, the real mirror) and one MQTT client per seat sending hostile payloads from the same generator on
its own command topic at 9 a second (under the rate limit, so every one reaches the door). Every
payload must be answered once, with strict JSON; then a new phone's valid command must be answered.
Counted as crashes: an exception logged by the mirror or the table's loop, a dead table loop or mirror
thread, a restarted mirror, a payload left unanswered.

Prints markdown; exits 1 on any crash.
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from benchlib import peak_rss_mib

from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Outcome, Referee
from companion.core.rejection import Rejected
from companion.games import registry
from companion.phones import intake
from companion.phones.runner import start_phones
from companion.phones.topics import COMMAND_MAX_BYTES
from companion.table.loop import Table

PLAYERS = [f"p{n}" for n in range(1, 13)]  # the toolkit's most
SEAT_RATE = 9.0  # commands a second per seat, under intake.RATE_PER_S
WATCHED_LOGS = ("companion.phones.mirror", "companion.table.loop")  # where a caught exception is logged

REAL = [
    b'{"id":"c1","move":"dice.roll","args":{}}',
    b'{"id":"c2","move":"dice.roll","args":{"count":2,"sides":6}}',
    b'{"id":"c3","move":"counter.adjust","args":{"name":"gold","delta":3}}',
    b'{"id":"c4","move":"ballot.vote","args":{"name":"exile","option":"p2"}}',
    b'{"id":"c5","move":"counter.create","args":{"name":"hp","low":0,"high":20}}',
]
HOSTILE = [
    b'"\\ud800"', b'"\\udfff"', b'"a\\ud83d"', b'"\xed\xa0\x80"', b'"\xf4\x90\x80\x80"', b"NaN", b"Infinity",
    b"-Infinity", b"1e400", b"-1e999", b"9" * 300, b"-" + b"1" * 40, b'"' + b"x" * 3000 + b'"',
    b"[" * 33 + b"]" * 33, b"[" * 4000, b'{"a":' * 600, b"\xff", b"\x00", b'"\\', b"\\u", b'"\\u12"',
]
TOKENS = [*HOSTILE, b"[", b"]", b"{", b"}", b'"', b":", b",", b"null", b"true", b'"id"', b'"args"', b"0", b" "]


class Generator:
    """Hostile payloads from one seeded random generator, each with its kind."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def random(self) -> bytes:
        return self.rng.randbytes(self.rng.randint(0, 200))

    def mutated(self) -> bytes:
        rng = self.rng
        data = bytearray(rng.choice(REAL))
        for _ in range(rng.randint(1, 6)):
            op, at = rng.randrange(6), rng.randrange(len(data) + 1)
            if op == 0 and at < len(data):
                data[at] ^= 1 << rng.randrange(8)
            elif op == 1 and at < len(data):
                data[at] = rng.randrange(256)
            elif op == 2:
                data[at:at] = rng.choice(TOKENS)
            elif op == 3:
                del data[at:at + rng.randint(1, 8)]
            elif op == 4:
                del data[at:]
            else:
                data[at:at] = data[rng.randrange(len(data) + 1):][:rng.randint(1, 40)]
        return bytes(data[:COMMAND_MAX_BYTES + 64])

    def hostile(self) -> bytes:
        rng, bad = self.rng, self.rng.choice(HOSTILE)
        if rng.random() < 0.2:
            bad = b"[" * rng.randint(33, 1500) + bad + b"]" * rng.randint(0, 1500)
        where = rng.randrange(4)
        if where == 0:
            return b'{"id":' + bad + b',"move":"dice.roll","args":{}}'
        if where == 1:
            return b'{"id":"h1","move":' + bad + b',"args":{}}'
        if where == 2 and bad.startswith(b'"'):
            return b'{"id":"h2","move":"dice.roll","args":{' + bad + b":1}}"
        return b'{"id":"h3","move":"counter.adjust","args":{"name":"gold","delta":' + bad + b"}}"

    def deep(self) -> bytes:
        n, unit = self.rng.randint(0, 4000), self.rng.choice([b"[", b"{", b'{"a":', b"[{", b'[{"a":'])
        return (unit * n)[:COMMAND_MAX_BYTES] + (b"]" * self.rng.randint(0, n) if unit == b"[" else b"")

    def oversized(self) -> bytes:
        head = self.rng.choice(REAL)[:-2]
        return head + b',"pad":"' + b"x" * self.rng.randint(COMMAND_MAX_BYTES, 3 * COMMAND_MAX_BYTES) + b'"}}'

    def next(self) -> tuple[str, bytes]:
        roll = self.rng.random()
        kind = ("random" if roll < 0.15 else "mutated" if roll < 0.55 else "hostile" if roll < 0.85
                else "deep" if roll < 0.97 else "oversized")
        payload: bytes = getattr(self, kind)()
        return kind, payload


def strict(payload: bytes | bytearray) -> Any:
    """JSON as a browser's JSON.parse reads it: UTF-8, no NaN or Infinity."""
    def refuse(word: str) -> Any:
        raise ValueError(f"not JSON: {word}")
    return json.loads(payload.decode("utf-8"), parse_constant=refuse)


def problem_of(out: dict[str, Any] | Rejected) -> str:
    if not isinstance(out, Rejected):
        return "accepted at the door"
    problem = str(out.params.get("problem", ""))
    if problem.startswith(("unknown field", "missing field", "'")):
        problem = "schema: " + problem.split(" ", 1)[0].strip("':")
    elif problem.startswith("not JSON"):
        problem = "not JSON"
    return f"{out.code}: {problem}" if problem else out.code


def offline(payloads: int, seed: int) -> tuple[int, list[str]]:
    gen = Generator(seed)
    kinds: collections.Counter[str] = collections.Counter()
    outcomes: collections.Counter[str] = collections.Counter()
    crashes = 0
    started = time.perf_counter()
    for _ in range(payloads):
        kind, payload = gen.next()
        kinds[kind] += 1
        try:
            cid = intake.command_id(payload)
            out = intake.decode(payload, "player:p1")
            if isinstance(out, Rejected):
                outcome = Outcome(accepted=False, reason=out)
            else:
                strict(json.dumps(out, ensure_ascii=False, allow_nan=False).encode("utf-8"))  # what the log keeps
                outcome = Outcome(accepted=True, seq=1)
            answer = strict(intake.reply(cid, outcome))
            assert answer["id"] == cid and answer["ok"] is outcome.accepted
        except Exception as err:  # a crash is what we are counting
            crashes += 1
            if crashes <= 10:
                print(f"crash on {payload[:80]!r}: {err!r}", file=sys.stderr)
            continue
        outcomes[problem_of(out)] += 1
    elapsed = time.perf_counter() - started
    lines = [
        "### The intake, offline\n",
        f"`python bench/fuzz_intake.py --payloads {payloads} --seed {seed}`: {payloads:,} payloads in "
        f"{elapsed:.0f} s, {payloads / elapsed:,.0f} payloads/s (command_id + decode + reply + strict parse), "
        f"peak RSS {peak_rss_mib():.0f} MiB\n",
        "| payloads | count |", "|---|---:|",
        *(f"| {k} | {v:,} |" for k, v in sorted(kinds.items())),
        "", "| outcome at the door | count |", "|---|---:|",
        *(f"| {k} | {v:,} |" for k, v in outcomes.most_common()),
        "", f"- crashes (an exception, a reply that is not strict JSON or lost its id): {crashes}", "",
    ]
    return crashes, lines


class Failures(logging.Handler):
    """Counts the error lines the mirror and the table's loop write when something raised in them."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def live(broker: str, seconds: float, seed: int) -> tuple[int, list[str]]:
    failures = Failures()
    for name in WATCHED_LOGS:
        logger = logging.getLogger(name)
        logger.addHandler(failures)
        logger.setLevel(logging.ERROR)
        logger.propagate = False
    gen = Generator(seed)
    with tempfile.TemporaryDirectory(prefix="fuzz-intake-") as tmp:
        setup = Setup("toolkit", tuple(Player(p, p.upper()) for p in PLAYERS), {}, seed=seed)
        referee = Referee.start(registry(), EventLog(Path(tmp) / "game.sqlite3"), setup, created_at=0)
        table = Table(referee)
        phones = start_phones(table, broker=broker, state_dir=Path(tmp))
        loop = threading.Thread(target=table.run, name="table", daemon=True)
        loop.start()
        assert phones.mirror.connected.wait(10), "the mirror did not connect"
        seats = [phones.game.host, *phones.game.players.values()]
        lock = threading.Lock()
        answers: collections.Counter[str] = collections.Counter()
        codes: collections.Counter[str] = collections.Counter()
        bad_replies = 0
        clients = []
        for cred in seats:
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=cred.user)
            client.username_pw_set(cred.user, cred.password)
            subscribed = threading.Event()

            def on_message(c: mqtt.Client, u: Any, m: mqtt.MQTTMessage, user: str = cred.user) -> None:
                nonlocal bad_replies
                with lock:
                    try:
                        got = strict(m.payload)
                        codes["accepted" if got["ok"] else got["reason"]["code"]] += 1
                        answers[user] += 1
                    except (ValueError, KeyError, TypeError):
                        bad_replies += 1

            client.on_message = on_message
            client.on_subscribe = lambda c, u, mid, rcs, p=None, ev=subscribed: ev.set()
            reply_topic = phones.topics.reply(cred.user)
            client.on_connect = lambda c, u, f, rc, p=None, t=reply_topic: c.subscribe(t, 1)
            client.connect(phones.address.host, phones.address.port)
            client.loop_start()
            assert subscribed.wait(10), "a phone could not subscribe"
            clients.append((cred.user, client))
        sent: collections.Counter[str] = collections.Counter()
        kinds: collections.Counter[str] = collections.Counter()
        started = time.perf_counter()
        tick = 0
        while time.perf_counter() - started < seconds:
            for user, client in clients:
                kind, payload = gen.next()
                if len(payload) > COMMAND_MAX_BYTES * 2:
                    payload = payload[:COMMAND_MAX_BYTES + 100]  # over the limit is enough
                kinds[kind] += 1
                client.publish(phones.topics.cmd(user), payload, qos=1)
                sent[user] += 1
            tick += 1
            time.sleep(max(0.0, started + tick / SEAT_RATE - time.perf_counter()))
        elapsed = time.perf_counter() - started
        total = sum(sent.values())
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with lock:
                if sum(answers.values()) + bad_replies >= total:
                    break
            time.sleep(0.2)
        unanswered = total - sum(answers.values()) - bad_replies
        for _, client in clients:
            client.disconnect()
            client.loop_stop()
        # a phone that joins now (in p1's seat, p1's client gone) is answered
        cred = phones.game.players["p1"]
        fresh = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=cred.user)
        fresh.username_pw_set(cred.user, cred.password)
        answered = threading.Event()
        fresh.on_message = lambda c, u, m: answered.set() if strict(m.payload).get("id") == "final" else None
        fresh.on_connect = lambda c, u, f, rc, p=None: c.subscribe(phones.topics.reply(cred.user), 1)
        fresh.on_subscribe = lambda c, u, mid, rcs, p=None: c.publish(
            phones.topics.cmd(cred.user), b'{"id":"final","move":"dice.roll","args":{}}', qos=1)
        fresh.connect(phones.address.host, phones.address.port)
        fresh.loop_start()
        final = answered.wait(15)
        fresh.disconnect()
        fresh.loop_stop()
        table_alive, mirror_alive, restarts = loop.is_alive(), phones.mirror.alive(), phones.mirror.restarts
        events = len(referee.log.events(referee.game_id))
        table.stop()
        loop.join(10)
        phones.stop()
        referee.log.close()
    for name in WATCHED_LOGS:
        logging.getLogger(name).removeHandler(failures)
    crashes = (len(failures.lines) + bad_replies + max(0, unanswered) + (not table_alive) + (not mirror_alive)
               + restarts + (not final))
    for line in failures.lines[:10]:
        print(f"logged: {line}", file=sys.stderr)
    lines = [
        f"### Live, {broker}\n",
        f"{total:,} hostile payloads from {len(clients)} seats in {elapsed:.0f} s, {total / elapsed:,.0f} "
        f"payloads/s (each seat at {SEAT_RATE:g}/s, under the rate limit); peak RSS of the process (table, "
        f"mirror, clients) {peak_rss_mib():.0f} MiB; "
        f"{events:,} inputs in the log\n",
        "| payloads | count |", "|---|---:|", *(f"| {k} | {v:,} |" for k, v in sorted(kinds.items())),
        "", "| replies | count |", "|---|---:|", *(f"| {k} | {v:,} |" for k, v in codes.most_common()),
        "",
        f"- unanswered: {max(0, unanswered)}; replies that are not strict JSON: {bad_replies}",
        f"- errors logged by the mirror or the table's loop: {len(failures.lines)}",
        f"- table loop alive: {table_alive}; mirror thread alive: {mirror_alive}; mirror restarts: {restarts}",
        f"- a new phone's valid command answered afterwards: {final}",
        f"- crashes: {crashes}", "",
    ]
    return crashes, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--payloads", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--live-seconds", type=float, default=60.0, help="per broker; 0 skips the live part")
    parser.add_argument("--brokers", default="mosquitto")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)  # the counts say what happened; the clients' chatter is not news
    crashes = 0
    if args.payloads:
        found, lines = offline(args.payloads, args.seed)
        crashes += found
        print("\n".join(lines), flush=True)
    if args.live_seconds > 0:
        for broker in args.brokers.split(","):
            found, lines = live(broker, args.live_seconds, args.seed)
            crashes += found
            print("\n".join(lines), flush=True)
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
