"""Secret ballots: eligible voters, one vote each, weights, a change-vote policy and a tie rule.

Only the tally is ever revealed; who voted for what stays in the voters' own private views (and, once
the vote is closed, in a moderator's view: `as_cast`). A ballot among chosen voters may keep *who votes*
secret too (`secret_voters`: a Werewolf night's wolves-only vote): the public view then says only how
many may vote, never who, nor their weights.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from companion.core.rejection import Rejected

Ballot = dict[str, Any]
ChangePolicy = Literal["until_close", "final"]
TieRule = Literal["no_winner", "random", "host_decides"]


def new(
    options: list[str],
    voters: list[str],
    weights: dict[str, int] | None = None,
    change: ChangePolicy = "until_close",
    tie: TieRule = "no_winner",
    secret_voters: bool = False,
) -> Ballot:
    if len(options) < 2 or len(set(options)) != len(options):
        raise Rejected("reject.ballot_options")
    if not voters:
        raise Rejected("reject.ballot_no_voters")
    if len(set(voters)) != len(voters):
        raise Rejected("reject.ballot_duplicate_voter")
    weights = weights or {}
    unknown = set(weights) - set(voters)
    if unknown:
        raise Rejected("reject.ballot_weight_not_voter", player=sorted(unknown)[0])
    return {
        "options": list(options),
        "voters": list(voters),
        "weights": {v: int(weights.get(v, 1)) for v in voters},
        "change": change,
        "tie": tie,
        "votes": {},
        "open": True,
        "result": None,
        **({"secret_voters": True} if secret_voters else {}),
    }


def cast(b: Ballot, voter: str, option: str) -> None:
    if not b["open"]:
        raise Rejected("reject.ballot_closed")
    if voter not in b["voters"]:
        raise Rejected("reject.ballot_not_eligible")
    if option not in b["options"]:
        raise Rejected("reject.ballot_unknown_option", option=option[:40])
    if voter in b["votes"] and b["change"] == "final":
        raise Rejected("reject.ballot_already_voted")
    b["votes"][voter] = option


def close(b: Ballot, rng: random.Random) -> None:
    """Close and tally. Ties follow the ballot's rule; `host_decides` leaves the winner open."""
    if not b["open"]:
        raise Rejected("reject.ballot_closed")
    totals = {opt: 0 for opt in b["options"]}
    for voter, opt in b["votes"].items():
        totals[opt] += b["weights"][voter]
    top = max(totals.values())
    leaders = [opt for opt in b["options"] if totals[opt] == top] if top > 0 else []
    winner: str | None = None
    if len(leaders) == 1:
        winner = leaders[0]
    elif leaders and b["tie"] == "random":
        winner = rng.choice(leaders)
    b["open"] = False
    b["result"] = {
        "totals": totals,
        "cast": len(b["votes"]),
        "tied": leaders if len(leaders) > 1 else [],
        "winner": winner,
        "awaiting_host": winner is None and len(leaders) > 1 and b["tie"] == "host_decides",
    }


def decide(b: Ballot, option: str) -> None:
    """The host breaks a tie, among the tied options only."""
    result = b["result"]
    if result is None or not result["awaiting_host"]:
        raise Rejected("reject.ballot_no_tie")
    if option not in result["tied"]:
        raise Rejected("reject.ballot_unknown_option", option=option[:40])
    result.update(winner=option, awaiting_host=False)


def public(b: Ballot) -> dict[str, Any]:
    """Options, how many may vote and who (unless who votes is secret), how many have voted; the tally
    once closed. Never a single vote."""
    out = {
        "options": b["options"],
        "voter_count": len(b["voters"]),
        "open": b["open"],
        "cast": len(b["votes"]),
        "change": b["change"],
        "tie": b["tie"],
        "result": b["result"],
    }
    if b.get("secret_voters"):
        out["secret_voters"] = True
    else:
        out["voters"] = b["voters"]
        out["weights"] = b["weights"]
    return out


def waiting_for(b: Ballot) -> list[str]:
    """The voters who have not voted yet (never what anyone voted)."""
    return [v for v in b["voters"] if v not in b["votes"]]


def as_cast(b: Ballot) -> dict[str, Any]:
    """What a moderator who does not play knows of a ballot: who votes, who it still waits for, and,
    once it is closed, each vote as cast (never while it is open: a vote may still change)."""
    return {
        "voters": b["voters"],
        "weights": b["weights"],
        "waiting_for": waiting_for(b) if b["open"] else [],
        "votes": None if b["open"] else dict(b["votes"]),
    }


def private(b: Ballot, voter: str) -> dict[str, Any]:
    return {"eligible": voter in b["voters"], "my_vote": b["votes"].get(voter)}
