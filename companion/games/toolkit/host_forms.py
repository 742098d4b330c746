"""The host's forms that make new things: a timer, a secret vote, a role deal, a hidden counter.

Each offers only what the referee accepts now: names already taken are not suggested (a typed one that
is taken is refused with ``reject.name_taken``), a vote among the seated players needs two of them, a
preset deal is offered only for a table it fits, and typed roles must number the seated players (the
form says how many). A name is a ``text`` field whose `choices` are suggested names: the kiosk offers
those by touch, the host's phone may also type one. See docs/games/toolkit.md.
"""

from __future__ import annotations

from companion.core.contract import State
from companion.core.prompts import Choice, Field, Prompt
from companion.games.toolkit import presets
from companion.games.toolkit.moves import SECONDS_MOST

TIE_RULES = ("no_winner", "random", "host_decides")


def _name(state: State, kind: str, offered: tuple[str, ...], words: str) -> Field:
    """A name for a new thing: the suggested names not yet taken, or typed on the host's phone."""
    free = [n for n in offered if n not in state[kind]]
    choices = tuple(Choice(n, f"{words}.{n}") for n in free)
    return Field("name", "text", "toolkit.prompt.name", choices, default=free[0] if free else None)


def _seated(state: State, name: str, label: str, least: int) -> Field:
    """Some of the seated players (all of them at first)."""
    everyone = tuple(Choice(p["id"], p["name"], plain=True) for p in state["players"])
    return Field(name, "subset", label, everyone, min=least, max=len(everyone),
                 default=[c.value for c in everyone])


def _tie() -> Field:
    return Field("tie", "choice", "toolkit.prompt.tie",
                 tuple(Choice(r, f"toolkit.tie.{r}") for r in TIE_RULES), default="no_winner")


def timer_form(state: State) -> Prompt:
    fields = (
        _name(state, "timers", presets.TIMER_NAMES, "timer.toolkit"),
        Field("seconds", "number", "toolkit.prompt.timer_seconds", min=1, max=SECONDS_MOST, default=180),
        Field("warnings", "number", "toolkit.prompt.timer_warning", min=0, max=SECONDS_MOST - 1, default=30),
    )
    return Prompt("timer.create", "toolkit.prompt.timer_create", fields)


def ballot_forms(state: State) -> list[Prompt]:
    """A secret vote among the seated players, and one on typed options (both: who votes, the tie rule)."""
    n = len(state["players"])
    name = _name(state, "ballots", presets.BALLOT_NAMES, "toolkit.name")
    voters = _seated(state, "voters", "toolkit.prompt.voters", 1)
    everyone = tuple(Choice(p["id"], p["name"], plain=True) for p in state["players"])
    double = Field("double", "subset", "toolkit.prompt.double_votes", everyone, min=0, max=len(everyone), default=[])
    out = []
    if n >= 2:
        candidates = _seated(state, "options", "toolkit.prompt.candidates", 2)
        out.append(Prompt("ballot.open", "toolkit.prompt.ballot_players", (name, candidates, voters, double, _tie())))
    typed = Field("options", "texts", "toolkit.prompt.options", min=2, max=12)
    out.append(Prompt("ballot.open", "toolkit.prompt.ballot_typed", (name, typed, voters, double, _tie())))
    if n >= 2:
        out += role_ballot_forms(state)
    return out


def role_ballot_forms(state: State) -> list[Prompt]:
    """A secret vote among the players dealt one role (the werewolves' vote), one form per deal: the
    referee finds the voters, so the form names roles of the pool only, never who holds them."""
    name = _name(state, "ballots", presets.ROLE_BALLOT_NAMES, "toolkit.name")
    out = []
    for deal, d in state["deals"].items():
        roles = sorted(set(d["pool"]))
        choices = tuple(Choice(r, f"toolkit.role.{r}") if r in presets.ROLES else Choice(r, r, plain=True)
                        for r in roles)
        default = "werewolf" if "werewolf" in roles else roles[0]
        role = Field("role", "choice", "toolkit.prompt.role_voters", choices, default=default)
        candidates = _seated(state, "options", "toolkit.prompt.candidates", 2)
        out.append(Prompt("ballot.open", "toolkit.prompt.ballot_role", (name, candidates, role, _tie()),
                          {"deal": deal}, {"deal": deal}))
    return out


def deal_forms(state: State) -> list[Prompt]:
    """Roles from a preset that fits the seated count, or typed: one per seated player (shown)."""
    n = len(state["players"])
    name = _name(state, "deals", presets.DEAL_NAMES, "toolkit.name")
    out = []
    fitting = [(k, deal(n)) for k, deal in presets.DEALS.items()]
    choices = tuple(Choice(roles, f"toolkit.preset.{k}", {"count": n, "roles": presets.deal_words(roles)})
                    for k, roles in fitting if roles is not None)
    if choices:
        field = Field("roles", "choice", "toolkit.prompt.preset", choices, default=choices[0].value)
        out.append(Prompt("roles.deal", "toolkit.prompt.deal_preset", (name, field), {"count": n}))
    typed = Field("roles", "texts", "toolkit.prompt.roles_typed", min=n, max=n)
    out.append(Prompt("roles.deal", "toolkit.prompt.deal_typed", (name, typed), {"count": n}))
    return out


def counter_form(state: State) -> Prompt:
    fields = (
        _name(state, "counters", presets.COUNTER_NAMES, "toolkit.name"),
        Field("initial", "number", "toolkit.prompt.initial", min=-999, max=999, default=0),
        Field("secret", "choice", "toolkit.prompt.secret",
              (Choice(True, "toolkit.prompt.secret_yes"), Choice(False, "toolkit.prompt.secret_no")), default=True),
        _seated(state, "players", "toolkit.prompt.owners", 1),
    )
    return Prompt("counter.create", "toolkit.prompt.counter_create", fields)


def creating(state: State) -> list[Prompt]:
    """Every form that makes something new, for a table with players seated."""
    if not state["players"]:
        return []
    return [timer_form(state), *ballot_forms(state), *deal_forms(state), counter_form(state)]

