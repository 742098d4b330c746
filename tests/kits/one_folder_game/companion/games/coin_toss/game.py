"""Coin toss: each player secretly holds a lucky side; the table tosses a real coin on the reader (its
heads or tails token), and the player whose turn it is scores when it lands on their lucky side."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from companion.core.contract import Args, BoardPicture, Ctx, GameBase, Move, Setup, State, base_state

from . import lines

SIDES = ("heads", "tails")


class CoinOptions(Args):
    rounds: int = 2


class TossArgs(Args):
    side: Literal["heads", "tails"]


def toss(ctx: Ctx, args: TossArgs) -> None:
    s = ctx.state
    order = [p["id"] for p in s["players"]]
    player = order[s["tosses"] % len(order)]
    if s["lucky"][player] == args.side:
        s["scores"][player] += 1
    s["tosses"] += 1
    ctx.announce("coin_toss.landed", side=f"kind.coin_toss.side.{args.side}")
    s["ended"] = s["tosses"] >= s["rounds"] * len(order)


class CoinToss(GameBase):
    id = "coin_toss"
    min_players = 2
    max_players = 4
    Options = CoinOptions
    moves: Mapping[str, Move] = {"coin.toss": Move("coin.toss", toss, TossArgs, frozenset({"table", "host"}))}
    menu_rank = 50
    moments: Mapping[str, tuple[str, int]] = {"coin_toss": ("coin-2p.jsonl", 2)}
    public_lines = staticmethod(lines.public_lines)
    private_lines = staticmethod(lines.private_lines)

    def setup(self, setup: Setup, options: Any) -> State:
        state = base_state(setup)
        rng = random.Random(setup.seed)
        state.update({"rounds": options.rounds, "tosses": 0,
                      "scores": {p.id: 0 for p in setup.players},
                      "lucky": {p.id: rng.choice(SIDES) for p in setup.players}})
        return state

    def view_public(self, state: State) -> dict[str, Any]:
        return {"tosses": state["tosses"], "scores": dict(state["scores"]), "current": self.current_player(state)}

    def view_player(self, state: State, pid: str) -> dict[str, Any]:
        return {"lucky": state["lucky"][pid]}

    def result(self, state: State) -> dict[str, Any] | None:
        if not state["ended"]:
            return None
        best = sorted(set(state["scores"].values()), reverse=True)
        return {"ranking": [[p for p, v in state["scores"].items() if v == score] for score in best]}

    def current_player(self, state: State) -> str | None:
        if state["ended"]:
            return None
        order = [p["id"] for p in state["players"]]
        return order[state["tosses"] % len(order)]

    def tokens(self, state: State) -> Mapping[str, Sequence[str]]:
        return {"coin": list(SIDES)}

    def on_token(self, state: State, kind: str, token_id: str, actor: str) -> tuple[str, dict[str, Any]] | None:
        return ("coin.toss", {"side": token_id}) if kind == "coin" and token_id in SIDES else None

    def board(self) -> BoardPicture | None:
        from . import picture

        return picture.draw_board


GAME = CoinToss()
