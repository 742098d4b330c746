"""The toolkit game: setup, views per audience, deadlines and the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.core.contract import BoardPicture, Deadline, GameBase, Setup, State
from companion.core.host_controls import EndMove, HostControls, TimerMoves
from companion.core.prompts import Prompt
from companion.games.toolkit import MAX_PLAYERS, MENU_RANK, MIN_PLAYERS, lines, tokens
from companion.games.toolkit import prompts as toolkit_prompts
from companion.games.toolkit.options import ToolkitOptions
from companion.parts import ballot, roles, tallies, timers


class Toolkit(GameBase):
    id = "toolkit"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    Options = ToolkitOptions
    moves = tokens.GAME_MOVES
    menu_rank = MENU_RANK
    #: its timers are named by the host; the host ends the session (`game.end`, unranked from the menu)
    host_controls = HostControls(TimerMoves(named=True), (EndMove(),))
    private_lines = staticmethod(lines.private_lines)  # the booth's lines (the page draws its own)
    page_draws_views = True  # the phone page draws its timers, ballots, counters and roles part by part
    on_token = staticmethod(tokens.on_token)  # what a tapped token means: see tokens.py
    tokens = staticmethod(tokens.enrollable)  # what a tag can be enrolled as (companion/taps/kinds.py)

    def setup(self, setup: Setup, options: Any) -> State:
        return {"timers": {}, "ballots": {}, "counters": {}, "deals": {}, "rolls": [], "finished": None}

    def view_public(self, state: State) -> dict[str, Any]:
        return {
            "timers": {n: timers.public(t) for n, t in state["timers"].items()},
            "ballots": {n: ballot.public(b) for n, b in state["ballots"].items()},
            "counters": {n: tallies.public(t) for n, t in state["counters"].items()},
            "deals": {n: roles.public(d) for n, d in state["deals"].items()},
            "rolls": state["rolls"][-5:],
        }

    def view_player(self, state: State, pid: str) -> dict[str, Any]:
        return {
            "ballots": {n: ballot.private(b, pid) for n, b in state["ballots"].items()},
            "counters": {
                n: tallies.private(t, pid) for n, t in state["counters"].items() if pid in t["values"]
            },
            "roles": {n: roles.private(d, pid) for n, d in state["deals"].items()},
        }

    def view_host(self, state: State) -> dict[str, Any]:
        """The host runs the session but is not told secrets: who has voted is all it learns of ballots,
        and not even that of a ballot whose voters are secret (a playing host would learn the wolves)."""
        return {
            "ballots_waiting_for": {
                n: ballot.waiting_for(b)
                for n, b in state["ballots"].items()
                if b["open"] and not b.get("secret_voters")
            },
        }

    def view_moderator(self, state: State) -> dict[str, Any]:
        """A moderator who does not play (`Setup.moderator`) sees what a human one would: the deals
        (who has which role, the roles left face down), each ballot's voters and, once it is closed,
        its votes as cast, and every hidden counter's values."""
        return {
            "deals": {n: roles.moderator(d) for n, d in state["deals"].items()},
            "ballots": {n: ballot.as_cast(b) for n, b in state["ballots"].items()},
            "counters": {n: dict(t["values"]) for n, t in state["counters"].items()},
        }

    def deadlines(self, state: State) -> Sequence[Deadline]:
        out: list[Deadline] = []
        for name, t in state["timers"].items():
            out.extend(timers.deadlines(name, t, "timer.warn", "timer.expire"))
        return out

    def on_resume(self, state: State) -> Sequence[tuple[str, dict[str, Any]]]:
        return [("timer.pause", {"name": n}) for n, t in state["timers"].items() if t["running"]]

    def prompts(self, state: State, actor: str) -> Sequence[Prompt]:
        return toolkit_prompts.prompts(state, actor)

    def board(self) -> BoardPicture | None:
        from companion.games.toolkit import picture  # pygame is imported only where a screen draws

        return picture.draw_board


GAME = Toolkit()
