"""The game contract: what every game module declares, and the context a move runs in.

Modelled on declarative games: a game has a setup, moves (inputs it accepts, who may send them, an
argument schema and a pure apply), views per audience, deadlines the clock must turn into inputs, and
an end with a ranking. It also declares how it is shown: its tokens, the lines that say its public and
private views in words (the booth, the phones), and an optional board picture for the table's screen;
`GameBase` holds the defaults, so a game overrides only what it has, and delegates its views, phase,
turn, prompts and timers to the modules it names (`companion.core.modules`).

A move receives a private deep copy of the state and returns it changed; to refuse, it raises `Rejected`
and the referee throws the copy away.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from companion.core import rng
from companion.core.host_controls import HostControls
from companion.core.lines import Lines
from companion.core.modules import Modules
from companion.core.prompts import Prompt

State = dict[str, Any]
#: A game's board picture: ``draw(surface, rect, canvas, lang, public_view, now)`` paints the public view
#: into `rect` of the table's screen (a pygame surface and rect, a `companion.drawing.canvas.Canvas`),
#: typed loosely here so the core never imports pygame.
BoardPicture = Callable[[Any, Any, Any, str, dict[str, Any], int], None]
#: Announcements kept in the state (older ones were shown and are in the log); keeps each step cheap.
ANNOUNCEMENTS_KEPT = 50


class Args(BaseModel):
    """Base for move arguments: unknown keys are refused, values are checked strictly."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class NoArgs(Args):
    pass


@dataclass(frozen=True)
class Player:
    id: str
    name: str


@dataclass(frozen=True)
class Setup:
    """Everything a game starts from; stored as the first record of a game in the log.

    `moderator`: the host does not play but runs the table, as a human moderator would (a Werewolf
    night's): the host's view then holds the game's moderator view (`Game.view_moderator`: the deal,
    votes as cast, hidden counters), and the public view says the table has a moderator. False (the
    host also plays, or there is no such distinction): the host's view stays redacted."""

    game: str
    players: tuple[Player, ...]
    options: Mapping[str, Any]
    seed: int
    moderator: bool = False

    def to_json(self) -> dict[str, Any]:
        out = {
            "game": self.game,
            "players": [{"id": p.id, "name": p.name} for p in self.players],
            "options": dict(self.options),
            "seed": self.seed,
        }
        if self.moderator:  # absent: a playing host (the records of games before moderators read the same)
            out["moderator"] = True
        return out


@dataclass
class Ctx:
    """What a move may know besides the state: who sent it and the table time it was stamped with."""

    state: State
    by: str
    role: str
    player: str | None
    at: int

    def rng(self) -> random.Random:
        """A seeded generator for one random operation (a roll, a shuffle, a deal)."""
        return rng.stream(self.state["rng"])

    def announce(self, msg: str, **params: Any) -> None:
        """A public announcement, for the screen and every phone. Never put a secret in it."""
        kept = self.state["announcements"]
        kept.append({"at": self.at, "msg": msg, "params": params})
        del kept[:-ANNOUNCEMENTS_KEPT]
        self.state["announced"] += 1


@dataclass(frozen=True)
class Move:
    """An input a game accepts.

    `who` lists the roles that may send it (host, player, clock, table). `secret` marks a move whose
    arguments are private (a vote, a programmed action): its arguments never appear in the host's
    history or any correction notice. `phases` limits it to those phases (empty: any phase), and
    `on_turn` to the player whose turn it is; the referee refuses both before the move runs.
    """

    name: str
    apply: Callable[[Ctx, Any], None]
    args: type[Args] = NoArgs
    who: frozenset[str] = frozenset({"host"})
    secret: bool = False
    phases: frozenset[str] = frozenset()
    on_turn: bool = False


@dataclass(frozen=True)
class Deadline:
    """A clock input that becomes due at `at` (table ms)."""

    at: int
    move: str
    args: Mapping[str, Any] = field(default_factory=dict)


class GameBox(Protocol):
    """What a game's box says, read before it is played: how many play, what the host may choose, where it
    stands in the menus. The new-game screens need only this, so a game's package offers it without
    importing its rules (`companion.games.box`); every `Game` is one."""

    @property
    def id(self) -> str: ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def Options(self) -> type[Args]: ...

    @property
    def menu_rank(self) -> int:
        """Where the game stands in the menus (lower first; ties by id)."""
        ...


class Game(GameBox, Protocol):
    """What a game module exports as `GAME`."""

    @property
    def moves(self) -> Mapping[str, Move]: ...

    def setup(self, setup: Setup, options: Any) -> State:
        """The initial state. Must include ``rng`` and ``announcements``; see `base_state`."""
        ...

    def view_public(self, state: State) -> dict[str, Any]: ...

    def view_player(self, state: State, pid: str) -> dict[str, Any]: ...

    def view_host(self, state: State) -> dict[str, Any]: ...

    def view_moderator(self, state: State) -> dict[str, Any]:
        """What a moderator who does not play sees (`Setup.moderator`): every secret a human moderator
        would know (who has which role, votes as cast once a vote is closed, hidden counters). Only
        ever in the host's view of a table whose host does not play."""
        ...

    def deadlines(self, state: State) -> Sequence[Deadline]: ...

    def result(self, state: State) -> dict[str, Any] | None:
        """None while the game goes on; else ``{"ranking": [[pid, ...], ...], ...}`` (ties share a place)."""
        ...

    def on_resume(self, state: State) -> Sequence[tuple[str, dict[str, Any]]]:
        """Host moves to make after a restart when the table chose to pause (e.g. pause running timers)."""
        ...

    def phase(self, state: State) -> str | None:
        """The current phase (public), or None for a game without phases."""
        ...

    def current_player(self, state: State) -> str | None:
        """Whose turn it is (public), or None when it is nobody's or everybody's."""
        ...

    def prompts(self, state: State, actor: str) -> Sequence[Prompt]:
        """What `actor` (``host`` or ``player:<id>``) may input now, as forms; shown only to that actor."""
        ...

    def player_view_keys(self, state: State) -> Mapping[str, object] | None:
        """For each player, what `view_player(state, pid)` and that player's `prompts` read of `state`,
        as a cheap value compared with ``==`` to the one of the last state (None: unknown, so every
        player's view and prompts are made after every change).

        An equal key promises an equal private view and equal prompts: the table then reuses the last
        ones (companion/table/views.py) instead of making them again. A key that misses a part the view
        reads shows a player old data, so it names everything read; a player missing from the mapping
        has their view made every time. Keys never leave the table's memory."""
        ...

    def on_token(self, state: State, kind: str, token_id: str, actor: str) -> tuple[str, dict[str, Any]] | None:
        """The input a tapped token of this game means now, as (move, args) sent by `actor`, or None.

        `actor` is ``player:<id>`` when a player is identified (in the booth), else ``table``. Tokens
        that are only screen gestures (a player's own figure opening the booth) never reach here.
        """
        ...

    def tokens(self, state: State) -> Mapping[str, Sequence[str]]:
        """The game's tokens by kind, ``{kind: [ids]}``: what the host may enroll a new tag as."""
        ...

    def public_lines(self, public: dict[str, Any]) -> Lines:
        """The public view as a short summary, message-id lines (the phones' table card)."""
        ...

    def private_lines(self, private: dict[str, Any]) -> Lines:
        """ONE player's private view as message-id lines (the booth, the player's phone)."""
        ...

    @property
    def fixed_state(self) -> frozenset[str]:
        """Top-level keys of the state that `setup` makes and no move ever changes (Lockdown's map):
        each step shares them with the state before instead of copying them (`fold.step`)."""
        ...

    @property
    def page_draws_views(self) -> bool:
        """True when the phone page draws the game's views itself, part by part, instead of their lines."""
        ...

    def board(self) -> BoardPicture | None:
        """The game's board picture for the play screen, or None to show its public lines there."""
        ...

    @property
    def host_controls(self) -> HostControls:
        """Which host inputs pause, resume and extend its timers and which end it (the kiosk's host menu
        and the host's phone page show them; `companion.core.host_controls`)."""
        ...

    @property
    def moments(self) -> Mapping[str, tuple[str, int]]:
        """Moments of its demo games worth a picture (screenshots, board tests): by name, a script in the
        package's ``demo_games/`` and how many of its inputs are played."""
        ...


class GameBase:
    """Defaults for the optional parts of the contract; a game overrides what it has.

    Its views, phase, whose turn it is, prompts, deadlines and resume come from the modules it names
    (`modules`); with none named it defines its views and has no phases, turns, prompts or timers. Its
    result is ``state["finished"]`` (None while the game goes on).
    """

    modules = Modules()

    def view_public(self, state: State) -> dict[str, Any]:
        return self.modules.public(state)

    def view_player(self, state: State, pid: str) -> dict[str, Any]:
        return self.modules.player(state, pid)

    def view_host(self, state: State) -> dict[str, Any]:
        return {}

    def view_moderator(self, state: State) -> dict[str, Any]:
        """By default every player's own view, by player id: what each seat is shown, the moderator sees."""
        return {"seats": {p["id"]: self.view_player(state, p["id"]) for p in state["players"]}}

    def result(self, state: State) -> dict[str, Any] | None:
        finished: dict[str, Any] | None = state["finished"]
        return finished

    def deadlines(self, state: State) -> Sequence[Deadline]:
        return self.modules.deadlines(state)

    def on_resume(self, state: State) -> Sequence[tuple[str, dict[str, Any]]]:
        return self.modules.on_resume(state)

    def phase(self, state: State) -> str | None:
        return self.modules.phase(state)

    def current_player(self, state: State) -> str | None:
        return self.modules.current_player(state)

    def prompts(self, state: State, actor: str) -> Sequence[Prompt]:
        return self.modules.prompts(state, actor)

    def player_view_keys(self, state: State) -> Mapping[str, object] | None:
        return None  # unknown: every player's view and prompts are made after every change

    def on_token(self, state: State, kind: str, token_id: str, actor: str) -> tuple[str, dict[str, Any]] | None:
        return None

    def tokens(self, state: State) -> Mapping[str, Sequence[str]]:
        return {}

    def public_lines(self, public: dict[str, Any]) -> Lines:
        return self.modules.public_lines(public)

    def private_lines(self, private: dict[str, Any]) -> Lines:
        return self.modules.private_lines(private)

    fixed_state: frozenset[str] = frozenset()
    page_draws_views = False
    menu_rank = 100
    host_controls = HostControls()

    def board(self) -> BoardPicture | None:
        return None

    moments: Mapping[str, tuple[str, int]] = {}


def base_state(setup: Setup) -> State:
    """The fields every game state starts with."""
    return {
        "players": [{"id": p.id, "name": p.name} for p in setup.players],
        "rng": rng.new(setup.seed),
        "announcements": [],
        "announced": 0,
        "ended": False,
    }
