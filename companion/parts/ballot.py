"""Secret ballots: eligible voters, one vote each, weights, a change-vote policy and a tie rule.

Only the tally is ever revealed; who voted for what stays in the voters' own private views.
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
    """Options, eligible voters, how many have voted; the tally once closed. Never a single vote."""
    return {
        "options": b["options"],
        "voters": b["voters"],
        "weights": b["weights"],
        "open": b["open"],
        "cast": len(b["votes"]),
        "change": b["change"],
        "tie": b["tie"],
        "result": b["result"],
    }


def private(b: Ballot, voter: str) -> dict[str, Any]:
    return {"eligible": voter in b["voters"], "my_vote": b["votes"].get(voter)}
