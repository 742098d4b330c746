"""Power cut in a Lockdown game with phones connected: `kill -9` at random moments, restart, lose nothing.

The real `companion run --jsonl` process (console, no display, the managed Mosquitto on fixed
loopback ports) is fed the scripted 6-round Lockdown game and SIGKILLed at random kill points: each
point is an input index, and the kill lands after a random number of that stretch's replies were read,
so kills fall during start-up, during the resume, before, during and after appends. A player's phone
(a paho client with the credentials of its join link) stays subscribed throughout and must get the
current views back on its own after each restart. The test command runs a few kills; the long variant
(200 kills) is `python bench/fault_power_cut.py`.
"""

from __future__ import annotations

import os
import queue
import random
from pathlib import Path

import pytest

from companion.core.referee import PUBLIC
from companion.phones.credentials import GameCredentials
from companion.phones.runner import KEPT_FILE
from companion.table.views import with_lines
from tests.kits.fault_kit import (
    GUARD_S,
    Child,
    Ports,
    as_sent,
    child_env,
    drain,
    lockdown_game,
    player_phone,
    replayed,
    resumed,
    start_game,
)

KILLS = int(os.environ.get("FAULT_KILLS", "8"))
PID = "ana"


@pytest.mark.slow
def test_sigkill_through_a_lockdown_game_with_phones_loses_nothing_acknowledged(tmp_path: Path) -> None:
    setup, game = lockdown_game()
    db, ports = tmp_path / "table.sqlite3", Ports.pick()
    env = child_env(tmp_path, ports)
    rnd = random.Random(int(os.environ.get("FAULT_SEED", "2026")))
    # Never after the last input: a restart after the game has ended starts a new game, with new phone
    # credentials (docs/mqtt.md), which is a different story.
    kill_points = sorted(rnd.randrange(len(game) - 1) for _ in range(KILLS))

    start_game(db, setup)
    child = Child(db, env, setup)
    child.wait_said("ws://")  # the broker is up and this game's credentials are written
    phone, topics, user = player_phone(tmp_path, ports, PID)
    acked: set[str] = set()
    next_unacked = kills = 0
    try:
        for point in kill_points:
            stretch = game[next_unacked : point + 1]
            for cmd in stretch:
                child.send(cmd)
            for cmd in stretch[: len(stretch) - rnd.randint(0, min(2, len(stretch)))]:
                reply = child.reply()
                assert reply["ok"], reply
                acked.add(cmd["id"])
            child.kill()
            drain(phone.inbox)  # from here on, only the restarted companion can send the phone anything

            # The file holds every acknowledged input, in order, once; the state is the replay of the log.
            restarted = resumed(db)
            ids = [ev.input.id for ev in restarted.events]
            assert ids == [m["id"] for m in game[: len(ids)]]
            assert acked <= set(ids)
            assert restarted.log.integrity_ok()
            assert replayed(restarted).state == restarted.state
            next_unacked = len(ids)  # a phone re-sends what it has no reply for; the log says where that starts
            restarted.log.close()

            child = Child(db, env, setup)
            # The phone rejoins by itself (same credentials) and is given the current views again.
            public_view = restarted.view(PUBLIC)  # as the mirror sends it: with its message-id lines
            public = as_sent(with_lines(public_view, public_view))
            mine = as_sent(with_lines(restarted.view(f"player:{PID}"), public_view))
            try:
                phone.wait_for(lambda m, v=public: m.topic == topics.public and m.json() == v, timeout=GUARD_S)
                phone.got(lambda m, v=mine: m.topic == topics.view(user) and m.json() == v, timeout=GUARD_S)
            except queue.Empty:
                raise AssertionError(f"after kill {kills}: the phone did not get the views back; the companion "
                                     f"said: {''.join(child.console)!r}; the phone: {list(phone.acks.queue)!r}, "
                                     f"{[m.topic for m in phone.seen[-5:]]}") from None
            kills += 1

        assert kills == KILLS
        for cmd in game[next_unacked:]:
            child.send(cmd)
            reply = child.reply()
            assert reply["ok"], reply
        assert child.finish() == 0
    finally:
        phone.close()
        if child.proc.poll() is None:
            child.kill()

    survivor = resumed(db)
    assert [ev.input.id for ev in survivor.events] == [m["id"] for m in game]
    assert survivor.log.integrity_ok()
    assert survivor.state.get("ended"), "the scripted game plays to its end"
    uninterrupted = replayed(survivor)
    assert uninterrupted.state == survivor.state
    for audience in [PUBLIC, "host", *(f"player:{p['id']}" for p in setup["players"])]:
        assert uninterrupted.view(audience) == survivor.view(audience)


def test_a_games_phone_credentials_are_kept_for_that_game_only(tmp_path: Path) -> None:
    """A restart of the same game reuses its credentials (phones rejoin); a new game gets new ones."""
    path = tmp_path / KEPT_FILE
    first = GameCredentials.kept(path, "table1", 1, ["ana", "ben"], spectators=1)
    assert path.stat().st_mode & 0o777 == 0o600
    again = GameCredentials.kept(path, "table1", 1, ["ana", "ben"], spectators=1)
    assert again == first and again.referee_password == first.referee_password
    ana = first.players["ana"]
    assert again.check(ana.user, ana.password)
    nxt = GameCredentials.kept(path, "table1", 2, ["ana", "ben"], spectators=1)
    assert not nxt.check(ana.user, ana.password)
    assert nxt.players["ana"].password != ana.password
    path.write_text("{not json", encoding="utf-8")  # a damaged file: fresh credentials, no crash
    assert GameCredentials.kept(path, "table1", 2, ["ana", "ben"]).players["ana"].password != ana.password
