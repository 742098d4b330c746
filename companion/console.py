"""The console output: tells a terminal what the table sees, in the table's language."""

from __future__ import annotations

import json
from typing import Any, TextIO

from companion import i18n
from companion.core.referee import Outcome
from companion.naming import PLAYER_PARAMS, Namer
from companion.table.views import Views

#: Params that name a sender or a player (the one list: companion/naming.py); the phone page's js/i18n.js
#: has the same list for a view that did not come through `naming.said_view`.
WHO_PARAMS = PLAYER_PARAMS


def with_names(announcement: dict[str, Any], players: list[dict[str, str]], game: str = "") -> dict[str, Any]:
    """The announcement with every id in words (`companion.naming.Namer`): players by name, senders as words."""
    return Namer(game, players).line(announcement)


def reason_text(lang: str, outcome: Outcome, namer: Namer | None = None) -> str:
    """A refusal in words: its ids said by `namer` (the game's players, moves, timers) when given."""
    assert outcome.reason is not None
    reason = (namer or Namer("", [])).describe(lang, outcome.reason.to_json())
    return i18n.translate(lang, "status.rejected", {"reason": reason})


class ConsoleOutput:
    """Prints each new public announcement once, translated. Built from the public view only."""

    def __init__(self, out: TextIO, lang: str, as_json: bool = False) -> None:
        self.out, self.lang, self.as_json = out, lang, as_json
        self._announced = 0
        self._corrections = 0
        self._number: int | None = None  # the game's number in the log: another game counts afresh
        self.namer: Namer | None = None  # the last view's game and players: says a refusal's ids in words

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        self.show(views.public)

    def show(self, public: dict[str, Any]) -> None:
        if public.get("number") != self._number:
            if self._number is not None:  # the host started another game (table.new_game)
                self._announced = self._corrections = 0
                params = {"title": i18n.translate(self.lang, f"game.{public['game']}.title"),
                          "number": public["number"]}
                self._print({"new_game": {"game": public["game"], "number": public["number"]}},
                            i18n.translate(self.lang, "console.new_game", params))
            self._number = public.get("number")
        namer = self.namer = Namer.of(public)
        total, recent = public["announced"], public["announcements"]
        fresh = recent[max(0, len(recent) - (total - self._announced)):] if total > self._announced else []
        self._announced = total
        for a in fresh:
            self._print({"announce": a}, namer.describe(self.lang, a))
        if public["corrections"] > self._corrections:
            notice = {"msg": "announce.correction", "params": {"count": public["corrections"] - self._corrections}}
            self._corrections = public["corrections"]
            self._print({"announce": notice}, i18n.describe(self.lang, notice))

    def _print(self, obj: dict[str, Any], text: str) -> None:
        line = json.dumps(obj, ensure_ascii=False) if self.as_json else f"  » {text}"
        print(line, file=self.out, flush=True)
