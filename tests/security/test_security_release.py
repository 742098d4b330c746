"""A released seat cannot be retaken by the old code (issue 32), on the managed Mosquitto.

A phone that keeps its join connection open and keeps claiming the seat with the password it made,
while the host releases the seat, does not get it back: the release makes a new join user, the broker
drops every connection of the old join user and of the seat, the old join user logs in no more, and a
claim that still arrives from it is refused in words (`reject.seat_code_replaced`).
"""

from __future__ import annotations

import json
import queue
import threading
from pathlib import Path

from companion.phones.topics import parse_user
from tests.kits.phones_kit import WAIT_S, running_table
from tests.security.test_security_seats import (
    PLAYERS,
    claim,
    code,
    host_command,
    logged_in,
    new_password,
    refused,
    take,
)


def test_a_phone_keeping_the_old_code_open_does_not_get_the_released_seat_back(tmp_path: Path) -> None:
    with running_table(tmp_path, "mosquitto", players=PLAYERS) as run:
        t = run.phones.topics
        host, _ = take(run, "host")
        _, mine = take(run, "ana")  # the phone that will be put out
        old = code(run, "ana")
        keeper = logged_in(run, old.user, old.password)  # ... and keeps the code's connection open
        keeper.subscribe(t.reply(old.user))
        while not keeper.acks.empty():
            keeper.acks.get_nowait()

        # It claims again and again with its own password, each claim after the last one's reply.
        replies: queue.Queue[dict[str, object]] = queue.Queue()
        stop = threading.Event()

        def keep_claiming() -> None:
            n = 0
            while not stop.is_set() and keeper.client.is_connected():
                n += 1
                cid = f"again-{n}"
                command = {"id": cid, "move": "seat.claim", "args": {"password": mine}}
                keeper.publish(t.cmd(old.user), json.dumps(command))
                try:
                    replies.put(keeper.wait_for(lambda m, c=cid: m.topic == t.reply(old.user) and m.json()["id"] == c,
                                                timeout=2.0).json())
                except queue.Empty:  # dropped meanwhile: no reply comes on this connection
                    return

        claimer = threading.Thread(target=keep_claiming, daemon=True)
        claimer.start()
        first = replies.get(timeout=WAIT_S)
        assert first["ok"] is True  # before the release: the same phone again, still its seat

        assert host_command(run, host, "h1", "seat.release", player="ana")["ok"]
        assert keeper.acks.get(timeout=WAIT_S)[0] == "disconnect"  # the old code's connection is dropped at once
        claimer.join(WAIT_S)
        stop.set()
        assert not claimer.is_alive()
        assert not run.phones.seating.holds("ana")  # the seat stays free
        assert refused(run, old.user, old.password)  # the old code logs in no more
        assert refused(run, run.cred("ana").user, mine)  # nor does the old seat password

        # Had a claim of the old code still reached the referee, it is refused in words.
        refusal = run.phones.seating.command(old.user, parse_user(old.user), json.dumps(  # type: ignore[arg-type]
            {"id": "late", "move": "seat.claim", "args": {"password": mine}}).encode())
        assert refusal is not None and refusal.reason is not None
        assert refusal.reason.code == "reject.seat_code_replaced"
        assert not run.phones.seating.holds("ana")

        # The seat's new code takes a new phone.
        new = code(run, "ana")
        assert new.user != old.user and parse_user(new.user) == parse_user(old.user)
        assert claim(run, new, new_password())["ok"]
        assert run.phones.seating.holds("ana")
        keeper.close()
