"""The organiser's corrections (docs/hall-league.md, "Corrections"), applied to what the tables sent.

The league file keeps every result and seating as it arrived, and every correction beside them, in order,
with who made it and when (the audit trail); the standings are always computed from the results and
seatings with the corrections applied here, so a correction can be seen, and the night replayed.

    void_result     {table, key}              the result no longer counts (kept, shown as void)
    edit_result     {table, key, ranking}     the ranking as the organiser says it was (same players)
    cancel_seating  {seating, table}          that table's seating in its round is cancelled: its game,
                                              if played, is casual
    merge_players   {player, into}            one person with two ids: `player`'s games become `into`'s
    drop_player     {player}                  left the night: not offered for the next rounds
    reenter_player  {player}                  back again
    scoring         {scoring}                 the league's scoring from now on (league/scoring.py)
    undo            {seq}                     an earlier correction (one of UNDOABLE, by its log `seq`) is
                                              taken back: applied as if it had never been made

Renaming and removing a player change the roster itself (the store) and are logged here too
(`rename_player`, `remove_player`), as are every re-seating (`reseat`) and a player added from the
organiser's page (`add_player`, a late entry).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.hall.league.scoring import Scoring, from_json

KINDS = ("void_result", "edit_result", "cancel_seating", "rename_player", "merge_players", "remove_player",
         "drop_player", "reenter_player", "scoring", "reseat", "add_player", "undo")
UNDOABLE = ("void_result", "edit_result", "cancel_seating", "rename_player", "merge_players", "remove_player")


@dataclass(frozen=True)
class Applied:
    results: list[dict[str, Any]]
    seatings: list[dict[str, Any]]
    voided: list[dict[str, Any]]
    dropped: frozenset[str]
    scoring: Scoring


def apply(results: Sequence[Mapping[str, Any]], seatings: Sequence[Mapping[str, Any]],
          corrections: Sequence[Mapping[str, Any]]) -> Applied:
    """The results and seatings with `corrections` ({"kind", "args", ...}, in order) applied."""
    out = [dict(r) for r in results]
    seats = [{**s, "tables": dict(s.get("tables", {}))} for s in seatings]
    voided: list[dict[str, Any]] = []
    dropped: set[str] = set()
    scoring = Scoring()
    undone = undone_seqs(corrections)
    for c in corrections:
        kind, args = c["kind"], c["args"]
        if c.get("seq") in undone:
            continue
        if kind == "void_result":
            voided += [r for r in out if (r["table"], r["key"]) == (args["table"], args["key"])]
            out = [r for r in out if (r["table"], r["key"]) != (args["table"], args["key"])]
        elif kind == "edit_result":
            out = [{**r, "ranking": [list(g) for g in args["ranking"]]}
                   if (r["table"], r["key"]) == (args["table"], args["key"]) else r for r in out]
        elif kind == "cancel_seating":
            for s in seats:
                if s.get("seating") == args["seating"]:
                    s["tables"].pop(args["table"], None)
        elif kind == "merge_players":  # in the results and in the seatings they were played from
            out = [_renamed(r, args["player"], args["into"]) for r in out]
            for s in seats:
                s["tables"] = {table: _chairs_renamed(chairs, args["player"], args["into"])
                               for table, chairs in s["tables"].items()}
            dropped.discard(args["player"])
        elif kind == "drop_player":
            dropped.add(args["player"])
        elif kind == "reenter_player":
            dropped.discard(args["player"])
        elif kind == "scoring":
            scoring = from_json(args["scoring"])
    return Applied(out, seats, voided, frozenset(dropped), scoring)


def undone_seqs(corrections: Sequence[Mapping[str, Any]]) -> set[int]:
    """The log's `seq` of every correction taken back by an `undo`."""
    return {c["args"]["seq"] for c in corrections if c["kind"] == "undo" and isinstance(c["args"].get("seq"), int)}


def _chairs_renamed(chairs: Any, old: str, new: str) -> Any:
    if not isinstance(chairs, list) or new in {p.get("id") for p in chairs if isinstance(p, dict)}:
        return chairs
    return [{**p, "id": new} if isinstance(p, dict) and p.get("id") == old else p for p in chairs]


def _renamed(result: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    ids = {p["id"] for p in result["players"]}
    if old not in ids or new in ids:  # never two seats for one person in one game (refused when asked)
        return result

    def swap(pid: str) -> str:
        return new if pid == old else pid

    return {**result, "players": [{**p, "id": swap(p["id"])} for p in result["players"]],
            "ranking": [[swap(pid) for pid in group] for group in result["ranking"]]}
