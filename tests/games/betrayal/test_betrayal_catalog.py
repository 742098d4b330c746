"""Everything Betrayal shows a player is translated: every announcement, prompt label and choice the
bot's random games produce, and every kind.* word passed as a parameter, in en, zh and th."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.fold import initial, step
from companion.core.inputs import HOST
from companion.games.betrayal import bot
from tests.kits.betrayal_table import GAME, NAMES


@functools.cache
def seen_ids() -> frozenset[str]:
    ids: set[str] = set()

    def prompt_ids(prompts: list[dict[str, Any]]) -> None:
        for p in prompts:
            ids.add(p["label"])
            ids.update(v for v in p["params"].values() if isinstance(v, str) and v.startswith("kind."))
            for f in p["fields"]:
                ids.add(f["label"])
                ids.update(c["label"] for c in f["choices"] if not c["plain"])

    for seed in range(5):
        s = Setup("betrayal", tuple(Player(p, p.title()) for p in NAMES[:4]), {"today": "06-01"}, seed)
        state = initial(GAME, s)
        rnd = random.Random(seed)
        for n in range(700):
            actors = [HOST, *(f"player:{p}" for p in state["seats"])]
            for actor in actors:
                prompt_ids([p.to_json() for p in GAME.prompts(state, actor)])
            inp = bot.BOT(state, rnd, 1000 * (n + 1))
            if inp is None:
                break
            before = state["announced"]
            state = step(GAME, state, inp)
            for a in state["announcements"][len(state["announcements"]) - (state["announced"] - before):]:
                ids.add(a["msg"])
                ids.update(v for v in a["params"].values() if isinstance(v, str) and v.startswith("kind."))
        if state["finished"] is not None:
            ids.add(f"betrayal.won.{state['finished']['winner']}")
    return frozenset(ids)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_word_the_games_show_is_translated(lang: str) -> None:
    ids = seen_ids()
    assert {"betrayal.haunt_revealed", "betrayal.prompt.move", "kind.betrayal.trait.might"} <= ids
    missing = sorted(i for i in ids if i not in i18n.msgids(lang))
    assert not missing, missing
    for side in ("heroes", "traitor", "none"):
        assert f"betrayal.won.{side}" in i18n.msgids(lang)
