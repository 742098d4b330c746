"""The hall sends a seating again until its table shows it started (companion/hall/seating_resend.py):
at least once on the way, once at the table (which answers a copy with nothing)."""

from __future__ import annotations

from typing import Any

from companion.hall.seating_resend import Resender, Sent


def table(tid: str, game: str, players: list[str], ended: bool = False) -> dict[str, Any]:
    return {"id": tid, "game": game, "ended": ended, "players": [{"id": p, "name": p.title()} for p in players]}


def test_a_seating_goes_again_until_its_table_plays_that_game_with_those_players() -> None:
    shown = {"tables": [table("t1", "jailbreak", ["ana", "ben"], ended=True), table("t2", "room25", ["cai"])]}
    sent: list[tuple[str, bytes]] = []
    resend = Resender(lambda: shown, lambda topic, payload: sent.append((topic, payload)))
    resend.track("t1", Sent("c/v1/t1/hall/seating", b"one", "lockdown", frozenset({"mai", "ton"})))
    resend.track("t2", Sent("c/v1/t2/hall/seating", b"two", "lockdown", frozenset({"cai", "dao"})))
    resend.check()
    assert sent == [("c/v1/t1/hall/seating", b"one"), ("c/v1/t2/hall/seating", b"two")]  # neither started
    shown["tables"][0] = table("t1", "lockdown", ["ton", "mai"])  # t1 started the hall's game: no more copies
    shown["tables"][1] = table("t2", "lockdown", ["cai"])  # t2 plays lockdown, but not with the hall's players
    sent.clear()
    resend.check()
    assert sent == [("c/v1/t2/hall/seating", b"two")] and resend.waiting == ["t2"]
    resend.track("t2", Sent("c/v1/t2/hall/seating", b"newer", "room25", frozenset({"cai"})))  # replaced
    shown["tables"][1] = table("t2", "room25", ["cai"])
    sent.clear()
    resend.check()
    assert sent == [] and resend.waiting == []


def test_an_ended_game_with_the_same_players_is_not_the_new_one() -> None:
    shown = {"tables": [table("t1", "lockdown", ["mai", "ton"], ended=True)]}
    sent: list[tuple[str, bytes]] = []
    resend = Resender(lambda: shown, lambda topic, payload: sent.append((topic, payload)))
    resend.track("t1", Sent("c/v1/t1/hall/seating", b"one", "lockdown", frozenset({"mai", "ton"})))
    resend.check()
    assert sent == [("c/v1/t1/hall/seating", b"one")] and resend.waiting == ["t1"]
