"""What every screen says of one state, in one language, and the ids it must never say (issue 28, item 1).

`shown` renders a state's views as the screens render them: the kiosk's news and board words, the
console's lines, the booth's lines and forms, the phones' lines, prompts, cards (`names`), the host's
menu and history (the kiosk's and the page's), and the refusals of every move this state refuses (as the
kiosk, the console and the phones' replies say them). `ids_in` finds the ids a text holds.

Ids are chosen so that they cannot be words: players ``p1``..``p9``; a move id with a dot or an
underscore is looked for anywhere; an id that is one plain word (``exile``, ``day``, ``werewolf``,
``attack``, a phase ``turn``) is an id in a zh or th text wherever it stands, and in an English one when
it stands quoted, or alone as a card's title, as nobody writes a name. Refusals of malformed input
(``reject.bad_argument``, ``reject.malformed``) carry the validator's English detail (which field) for
whoever wrote a script or a phone client (docs/referee.md, "Player-facing text"): a screen's forms never
send such input, so they are not said (`SCRIPT_WRITERS`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from companion import i18n
from companion.console import ConsoleOutput
from companion.core import host_controls
from companion.core.contract import Game
from companion.core.fold import step
from companion.core.inputs import HOST, Input
from companion.core.referee import HOST_VIEW, PUBLIC
from companion.core.rejection import Rejected
from companion.games import registry
from companion.games.toolkit import presets
from companion.kiosk.screens.forms import label
from companion.kiosk.screens.play import announcement_texts
from companion.naming import Namer
from companion.table.views import Views

#: Seat names that differ from their ids; one of 24 letters.
NAMES = ("Somchai", "Wanida", "Kittisak", "Mei Ling", "Narong", "Anong", "Chaiyaphruek Thanawatsin", "Li Wei",
         "Suda")
SCRIPT_WRITERS = ("reject.bad_argument", "reject.malformed")
PLAYER_ID = re.compile(r"(?<![A-Za-z0-9_])p[1-9](?![A-Za-z0-9_])")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def players(count: int) -> list[dict[str, str]]:
    return [{"id": f"p{i + 1}", "name": NAMES[i]} for i in range(count)]


def _catalog_ids(prefix: str) -> set[str]:
    """The last part of every catalog id under `prefix` (``timer.room25.programming`` -> programming)."""
    return {m.rsplit(".", 1)[1] for m in i18n.msgids("en") if m.startswith(prefix)}


@dataclass(frozen=True)
class Ids:
    """The ids no text may hold: dotted or underscored ones anywhere, plain words as the module says."""

    marked: frozenset[str]  # with a dot or an underscore: cannot be a word
    words: frozenset[str]  # plain words: ids in zh/th anywhere, in en when quoted or alone
    english: frozenset[str]  # words the English catalog itself gives a thing (Room 25's action "move")

    @classmethod
    def of_all_games(cls) -> Ids:
        every: set[str] = set()
        for gid, game in registry().items():
            every |= set(game.moves)
            every |= {m.split(".", 2)[2] for m in i18n.msgids("en") if m.startswith((f"timer.{gid}.", f"phase.{gid}."))}
        every |= {"host.undo", "host.amend", "table.new_game", "seat.claim", "seat.release"}
        every |= set(presets.TIMER_NAMES + presets.BALLOT_NAMES + presets.COUNTER_NAMES + presets.DEAL_NAMES)
        every |= set(presets.ROLES)
        english = {i18n.translate("en", m) for m in i18n.msgids("en") if m.startswith("kind.")}
        return cls(frozenset(i for i in every if "." in i or "_" in i),
                   frozenset(i for i in every if "." not in i and "_" not in i), frozenset(english))


def ids_in(text: str, lang: str, ids: Ids, title: bool = False) -> list[str]:
    """The ids `text` holds; a `title` (a card's name) is an id when it is one plain id word, even in English."""
    found = PLAYER_ID.findall(text)
    found += [i for i in ids.marked if i in text]
    if lang != "en":
        found += [w for w in LATIN_WORD.findall(text) if w in ids.words]
    else:
        found += [w for w in ids.words - ids.english if (title and text.strip() == w)
                  or any(f"{q}{w}{p}" in text for q, p in (("“", "”"), ("‘", "’"), ("'", "'"), ('"', '"')))]
    return found


def _prompt_texts(lang: str, prompt: dict[str, Any]) -> Iterator[str]:
    """A form's words as the booth and the host's forms show them (the phone page's are the same ids)."""
    yield label(lang, prompt)
    for f in prompt.get("fields") or ():
        yield label(lang, f)
        for choice in f.get("choices") or ():
            yield label(lang, choice)
            if choice.get("group"):
                yield i18n.translate_line(lang, choice["group"], choice.get("group_params") or {})


def _words(lang: str, value: Any) -> str:
    """A said value (`companion.naming`) as the phone page's `inWords` shows it."""
    return str(value.get(lang) or value.get("en")) if isinstance(value, dict) else str(value)


def shown(views: Views, game: Game, lang: str, announced_before: int) -> Iterator[tuple[str, str]]:
    """(surface, text) for everything the screens say of `views` in `lang`; the announcements since
    `announced_before` (the news the screens add now)."""
    public = views.with_lines(PUBLIC)
    namer = Namer.of(public)
    fresh = public["announced"] - announced_before
    for text in announcement_texts(lang, public, min(fresh, len(public["announcements"]))):
        yield "kiosk news", text
    for a in public["announcements"][-fresh:] if fresh > 0 else []:
        yield "phone news", i18n.describe(lang, a)
    for line in public.get("table_lines") or []:
        yield "phone table", i18n.describe(lang, line)
    for m, p in game.public_lines(views.public):
        yield "kiosk board words", namer.text(lang, m, p)
    for kind, said in (public.get("names") or {}).items():
        yield from ((f"phone card ({kind})", _words(lang, v)) for v in said.values())
    for p in public["players"]:
        seat = views.with_lines(f"player:{p['id']}")
        for line in seat.get("lines") or []:
            yield "phone lines", i18n.describe(lang, line)
        if seat.get("private"):
            for m, params in game.private_lines(seat["private"]):
                yield "booth lines", Namer.of(seat).text(lang, m, params)
        for prompt in seat.get("prompts") or []:
            yield from (("booth form", t) for t in _prompt_texts(lang, prompt))
    host = views.with_lines(HOST_VIEW)
    for prompt in host.get("prompts") or []:
        yield from (("host form", t) for t in _prompt_texts(lang, prompt))
    for c in host.get("host_menu") or []:  # the host's page: t(label, params)
        yield "host page menu", i18n.translate_line(lang, c["label"], c.get("params") or {})
    for c in host_controls.now(game.host_controls, game.moves, views.public):  # the kiosk's host menu
        params = {**c.params, **({"timer": c.timer} if c.timer is not None else {})}
        yield "kiosk host menu", namer.text(lang, c.label, params)
    for entry in host.get("history") or []:
        yield "host history", i18n.describe(lang, entry)


class Consoles:
    """The console's output in each language, fed every state shown: what it printed since last asked."""

    def __init__(self) -> None:
        self.out = {lang: io.StringIO() for lang in i18n.LANGUAGES}
        self.consoles = {lang: ConsoleOutput(self.out[lang], lang) for lang in i18n.LANGUAGES}

    def printed(self, views: Views, lang: str) -> list[tuple[str, str]]:
        self.consoles[lang].show(views.with_lines(PUBLIC))
        lines = self.out[lang].getvalue().splitlines()
        self.out[lang].seek(0)
        self.out[lang].truncate()
        return [("console", line) for line in lines]


def refusals(views: Views, game: Game, at: int) -> list[Rejected]:
    """What this state refuses of every move, sent with no arguments by a player and by the host."""
    out = []
    senders = [HOST, *(f"player:{p['id']}" for p in views.public["players"][:2])]
    for move in sorted(game.moves):
        for by in senders:
            try:
                step(game, views.state, Input(move, by, {}, at))
            except Rejected as refused:
                out.append(refused)
    return out


def refusal_texts(views: Views, reasons: list[Rejected], lang: str) -> Iterator[tuple[str, str]]:
    namer = Namer.of(views.public)
    for reason in reasons:
        if reason.code in SCRIPT_WRITERS:
            continue
        yield f"refusal {reason.code}", namer.describe(lang, reason.to_json())
