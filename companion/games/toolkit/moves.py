"""The toolkit's inputs: thin moves over the generic referee parts."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, StringConstraints, field_validator

from companion.core.contract import Args, Ctx, Move
from companion.core.rejection import Rejected
from companion.games.toolkit import checks
from companion.parts import ballot, dice, roles, tallies, timers

Name = Annotated[str, StringConstraints(min_length=1, max_length=32, pattern=r"^[^\x00-\x1f]+$")]
Label = Annotated[str, StringConstraints(min_length=1, max_length=40)]
HOST_ONLY = frozenset({"host"})
CLOCK_ONLY = frozenset({"clock"})
ANYONE = frozenset({"host", "player", "table"})
ROLLS_KEPT = 20  # the table sees the last few; older rolls were announced and are in the log


def _players(ctx: Ctx, chosen: list[str] | None = None) -> list[str]:
    """Every player, or the `chosen` ones after checking that each is playing."""
    everyone = [p["id"] for p in ctx.state["players"]]
    if chosen is None:
        return everyone
    stray = [p for p in chosen if p not in everyone]
    if stray:
        raise Rejected("reject.not_a_player", player=stray[0][:32])
    return chosen


KIND_WORDS = {"timers": "kind.timer", "ballots": "kind.ballot", "counters": "kind.counter", "deals": "kind.deal"}


def _get(ctx: Ctx, kind: str, name: str) -> dict[str, Any]:
    found: dict[str, Any] | None = ctx.state[kind].get(name)
    if found is None:
        raise Rejected("reject.no_such", kind=KIND_WORDS[kind], name=name)
    return found


def _fresh(ctx: Ctx, kind: str, name: str) -> None:
    if name in ctx.state[kind]:
        raise Rejected("reject.name_taken", kind=KIND_WORDS[kind], name=name)


# -- timers ---------------------------------------------------------------------------------------------


SECONDS_MOST = 24 * 3600  # the longest timer: a day


class TimerCreate(Args):
    name: Name
    seconds: int = Field(ge=1, le=SECONDS_MOST)
    warnings: list[Annotated[int, Field(ge=1, le=SECONDS_MOST - 1)]] = Field(default_factory=list, max_length=5)

    @field_validator("warnings", mode="before")
    @classmethod
    def _one_warning(cls, value: Any) -> Any:
        """A form's single number: a warning that many seconds before the end; 0 is none."""
        if isinstance(value, int) and not isinstance(value, bool):
            return [] if value == 0 else [value]
        return value


class Named(Args):
    """Arguments of a move on one named thing (a timer, a ballot, a counter)."""

    name: Name


class TimerExtend(Args):
    name: Name
    seconds: int = Field(ge=1, le=3600)


class TimerWarn(Args):
    name: Name
    at_seconds: int = Field(ge=1)


def timer_create(ctx: Ctx, a: TimerCreate) -> None:
    _fresh(ctx, "timers", a.name)
    ctx.state["timers"][a.name] = timers.new(a.seconds, a.warnings)


def timer_start(ctx: Ctx, a: Named) -> None:
    checks.startable(_get(ctx, "timers", a.name))
    timers.start(_get(ctx, "timers", a.name), ctx.at)
    ctx.announce("toolkit.timer_started", name=a.name)


def timer_pause(ctx: Ctx, a: Named) -> None:
    timers.pause(_get(ctx, "timers", a.name), ctx.at)
    ctx.announce("toolkit.timer_paused", name=a.name)


def timer_resume(ctx: Ctx, a: Named) -> None:
    timers.resume(_get(ctx, "timers", a.name), ctx.at)
    ctx.announce("toolkit.timer_resumed", name=a.name)


def timer_extend(ctx: Ctx, a: TimerExtend) -> None:
    timers.extend(_get(ctx, "timers", a.name), a.seconds, ctx.at)
    ctx.announce("toolkit.timer_extended", name=a.name, seconds=a.seconds)


def timer_warn(ctx: Ctx, a: TimerWarn) -> None:
    timers.warn(_get(ctx, "timers", a.name), a.at_seconds, ctx.at)
    ctx.announce("toolkit.timer_warning", name=a.name, seconds=a.at_seconds)


def timer_expire(ctx: Ctx, a: Named) -> None:
    timers.expire(_get(ctx, "timers", a.name), ctx.at)
    ctx.announce("toolkit.timer_expired", name=a.name)


# -- ballots --------------------------------------------------------------------------------------------


class BallotOpen(Args):
    name: Name
    options: list[Label] = Field(min_length=2, max_length=12)
    voters: list[str] | None = None
    weights: dict[str, Annotated[int, Field(ge=0, le=100)]] = Field(default_factory=dict)
    #: seated players whose vote counts twice, if they vote (a Werewolf sheriff's): the host's form for weights
    double: list[str] = Field(default_factory=list, max_length=64)
    change: ballot.ChangePolicy = "until_close"
    tie: ballot.TieRule = "no_winner"
    #: instead of `voters`: the players dealt this role in the deal `deal` (the only deal when there is one),
    #: found by the referee, so a host who plays opens the wolves' vote without learning who the wolves are
    role: Label | None = None
    deal: Name | None = None


class BallotVote(Args):
    name: Name
    option: Label


class BallotDecide(Args):
    name: Name
    option: Label


def ballot_open(ctx: Ctx, a: BallotOpen) -> None:
    """A vote among the chosen voters (every player when none are named). Among some of the players
    only (a Werewolf night's wolves), who votes is secret: the table is told how many, never who."""
    _fresh(ctx, "ballots", a.name)
    voters = _players(ctx, a.voters) if a.role is None else _dealt(ctx, a)
    doubled = {pid: 2 for pid in _players(ctx, a.double) if pid in voters} if a.double else {}
    chosen = a.role is not None or set(voters) != set(_players(ctx))
    ctx.state["ballots"][a.name] = ballot.new(a.options, voters, {**doubled, **a.weights}, a.change, a.tie,
                                              secret_voters=chosen)
    ctx.announce("toolkit.ballot_opened", name=a.name)


def _dealt(ctx: Ctx, a: BallotOpen) -> list[str]:
    """The players dealt `a.role` in `a.deal` (or in the only deal), in seat order."""
    if a.voters is not None:
        raise Rejected("reject.bad_argument", field="voters", problem="either voters or a role, not both")
    deals = ctx.state["deals"]
    if a.deal is None and len(deals) != 1:
        raise Rejected("reject.bad_argument", field="deal", problem="the deal whose role votes")
    d = _get(ctx, "deals", a.deal if a.deal is not None else next(iter(deals)))
    dealt = [p["id"] for p in ctx.state["players"] if d["assigned"].get(p["id"]) == a.role]
    if not dealt:  # a role of the pool left face down, or not in the deal: nobody votes
        raise Rejected("reject.ballot_no_voters")
    return dealt


def ballot_vote(ctx: Ctx, a: BallotVote) -> None:
    assert ctx.player is not None
    ballot.cast(_get(ctx, "ballots", a.name), ctx.player, a.option)


def ballot_close(ctx: Ctx, a: Named) -> None:
    b = _get(ctx, "ballots", a.name)
    ballot.close(b, ctx.rng())
    result = b["result"]
    if result["winner"] is not None:
        ctx.announce("toolkit.ballot_result", name=a.name, winner=result["winner"])
    elif result["awaiting_host"]:
        ctx.announce("toolkit.ballot_tie_host", name=a.name)
    else:
        ctx.announce("toolkit.ballot_no_winner", name=a.name)


def ballot_decide(ctx: Ctx, a: BallotDecide) -> None:
    ballot.decide(_get(ctx, "ballots", a.name), a.option)
    ctx.announce("toolkit.ballot_result", name=a.name, winner=a.option)


# -- hidden counters ------------------------------------------------------------------------------------


class CounterCreate(Args):
    name: Name
    initial: int = 0
    low: int = -999
    high: int = 999
    players: list[str] | None = None
    secret: bool = True  # False: everyone sees the values from the start (as after counter.reveal)


class CounterAdjust(Args):
    name: Name
    player: str | None = None
    delta: int = Field(ge=-999, le=999)


def counter_create(ctx: Ctx, a: CounterCreate) -> None:
    _fresh(ctx, "counters", a.name)
    owners = _players(ctx, a.players)
    ctx.state["counters"][a.name] = tallies.new(owners, a.initial, a.low, a.high)
    if not a.secret:
        ctx.state["counters"][a.name]["revealed"] = True


def counter_adjust(ctx: Ctx, a: CounterAdjust) -> None:
    """The host adjusts anyone's counter; a player only their own (e.g. spending hidden coins)."""
    target = a.player if ctx.role == "host" else ctx.player
    if ctx.role == "player" and a.player not in (None, ctx.player):
        raise Rejected("reject.not_yours")
    if target is None:
        raise Rejected("reject.bad_argument", field="player", problem="the host must name a player")
    if ctx.role == "player":
        checks.own_change(_get(ctx, "counters", a.name), target, a.delta)
    tallies.adjust(_get(ctx, "counters", a.name), target, a.delta)


def counter_reveal(ctx: Ctx, a: Named) -> None:
    t = _get(ctx, "counters", a.name)
    t["revealed"] = True
    ctx.announce("toolkit.counter_revealed", name=a.name)


# -- roles ----------------------------------------------------------------------------------------------


class RolesDeal(Args):
    name: Name
    roles: list[Label] = Field(min_length=1, max_length=20)


class RolesReveal(Args):
    name: Name
    player: str | None = None


def roles_deal(ctx: Ctx, a: RolesDeal) -> None:
    _fresh(ctx, "deals", a.name)
    ctx.state["deals"][a.name] = roles.deal(_players(ctx), a.roles, ctx.rng())
    ctx.announce("toolkit.roles_dealt", name=a.name)


def roles_reveal(ctx: Ctx, a: RolesReveal) -> None:
    d = _get(ctx, "deals", a.name)
    before = set(d["revealed"])
    checks.hidden_role(d, a.player)
    roles.reveal(d, a.player)
    for pid in d["revealed"]:
        if pid not in before:
            ctx.announce("toolkit.role_revealed", name=a.name, player=pid, role=d["assigned"][pid])


# -- dice and the end -----------------------------------------------------------------------------------


class DiceRoll(Args):
    count: int = Field(default=1, ge=1, le=20)
    sides: int = Field(default=6, ge=2, le=100)


class GameEnd(Args):
    rank_by: Name | None = None


def dice_roll(ctx: Ctx, a: DiceRoll) -> None:
    values = dice.roll(ctx.rng(), a.count, a.sides)
    rolls = ctx.state["rolls"]
    rolls.append({"by": ctx.by, "sides": a.sides, "values": values})
    del rolls[:-ROLLS_KEPT]
    ctx.announce("toolkit.dice_rolled", by=ctx.by, values=values, total=sum(values))


def game_end(ctx: Ctx, a: GameEnd) -> None:
    """End the session; optionally rank players by a counter (highest first), which reveals it."""
    ranking: list[list[str]] = []
    if a.rank_by is not None:
        t = _get(ctx, "counters", a.rank_by)
        t["revealed"] = True
        for value in sorted(set(t["values"].values()), reverse=True):
            ranking.append(sorted(p for p, v in t["values"].items() if v == value))
    ctx.state["finished"] = {"ranking": ranking, "rank_by": a.rank_by}
    ctx.announce("toolkit.game_ended")


MOVES: dict[str, Move] = {
    m.name: m
    for m in (
        Move("timer.create", timer_create, TimerCreate, HOST_ONLY),
        Move("timer.start", timer_start, Named, HOST_ONLY),
        Move("timer.pause", timer_pause, Named, HOST_ONLY),
        Move("timer.resume", timer_resume, Named, HOST_ONLY),
        Move("timer.extend", timer_extend, TimerExtend, HOST_ONLY),
        Move("timer.warn", timer_warn, TimerWarn, CLOCK_ONLY),
        Move("timer.expire", timer_expire, Named, CLOCK_ONLY),
        Move("ballot.open", ballot_open, BallotOpen, HOST_ONLY),
        Move("ballot.vote", ballot_vote, BallotVote, frozenset({"player"}), secret=True),
        Move("ballot.close", ballot_close, Named, HOST_ONLY),
        Move("ballot.decide", ballot_decide, BallotDecide, HOST_ONLY),
        Move("counter.create", counter_create, CounterCreate, HOST_ONLY),
        Move("counter.adjust", counter_adjust, CounterAdjust, frozenset({"host", "player"}), secret=True),
        Move("counter.reveal", counter_reveal, Named, HOST_ONLY),
        Move("roles.deal", roles_deal, RolesDeal, HOST_ONLY, secret=True),
        Move("roles.reveal", roles_reveal, RolesReveal, HOST_ONLY),
        Move("dice.roll", dice_roll, DiceRoll, ANYONE),
        Move("game.end", game_end, GameEnd, HOST_ONLY),
    )
}
