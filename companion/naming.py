"""Names, never ids: the one place that turns the ids in what a screen says into the words a person reads.

The referee keeps ids (a player ``p2``, a vote ``exile``, a role ``werewolf``, a move ``attack.take``):
they are stable, short and safe in a log. Everything a person reads (an announcement, a view's lines, a
prompt's words, the host's menu and history, a refusal) is a message id with params; before any screen
fills it in, `Namer` turns each param that holds an id into the words for it, by the param's name:

- a player (``by``, ``player``, ``players``, ``target``, ``attacker`` ... `PLAYER_PARAMS`, a list too):
  the player's seat name; a sender (``host``, ``table``, ``clock``) its word (``sender.*``);
- a timer (``timer``), or a thing the host named (``name``: a timer, vote, counter or deal of the view's
  table; which one says a ``kind`` param beside it (``kind.timer``, ``kind.ballot`` ...), else the table
  (the kind that has a thing of that name), else the message id (``...timer...``, ``...ballot...``)): the
  name the host gave it, which is its id when typed; a name the host picked from the game's suggestions
  (the toolkit's ``exile``, ``day``) reads as the catalog's words for it (``timer.<game>.<id>``,
  ``<game>.name.<id>``);
- a role (``role``, ``roles``): ``<game>.role.<id>`` in the catalog, else as typed;
- a move (``move``): ``move.<game>.<id>`` or ``move.<id>`` in the catalog, else "that action";
- a phase (``phase``): ``phase.<game>.<id>``.

The result holds no language: a name is a plain string (the same in every language), a catalog word is
``{"en": ..., "zh": ..., "th": ...}``, which `companion.i18n.translate_line` and the phone page's `t` show in
the reader's language. So a view is named once and every screen (kiosk, booth, console, phones, the
host's page) shows it in its own language: `said_view` names a whole view as the table hands it out
(companion/table/views.py), `Namer.text` says one message. See docs/referee.md, "Names, never ids".
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from companion import i18n
from companion.core.rejection import Rejected

#: Params that hold a player's id (or a list of them; ``ranking`` a list of groups of tied players, said as
#: "Ana = Ben"), or a sender's word.
#: ``winner`` and ``option`` are a vote's: a seated player when the vote is among the players.
PLAYER_PARAMS = ("by", "player", "players", "target", "attacker", "defender", "loser", "sheriff", "ranking",
                 "winner", "option", "names", "owner", "victim", "first", "second", "holder", "giver", "receiver",
                 "to", "from", "with", "who")
SENDERS = ("host", "table", "clock")
#: A ``kind`` param's word -> the views' key of the things of that kind (the toolkit's table).
KINDS = {"kind.timer": "timers", "kind.ballot": "ballots", "kind.counter": "counters", "kind.deal": "deals"}
THING_PARAMS = {"timer": "timers", "ballot": "ballots", "counter": "counters", "deal": "deals"}
#: A message id's word -> the kind of the thing its ``name`` param names, when the table cannot tell.
MSGID_KINDS = (("timer", "timers"), ("ballot", "ballots"), ("vote", "ballots"), ("counter", "counters"),
               ("role", "deals"), ("deal", "deals"))
#: Top-level view keys whose entries are message-id lines (``{"msg"|"code", "params"}``).
LINE_KEYS = ("announcements", "story", "table_lines", "lines", "history")
UNKNOWN_MOVE = "move.unknown"

Words = dict[str, str]


@functools.lru_cache(maxsize=2048)  # bounded: a hostile phone's refused names are looked up too
def words(msgid: str) -> Words | None:
    """A catalog message in every language, or None when no catalog has it."""
    if msgid not in i18n.msgids(i18n.FALLBACK):
        return None
    return {lang: i18n.translate(lang, msgid) for lang in i18n.LANGUAGES}


def _joined(items: Sequence[Any]) -> Any:
    """A list of said values as one: names joined, or words joined in each language."""
    if not any(isinstance(v, dict) for v in items):
        return list(items)

    def one(value: Any, lang: str) -> str:
        return str(value.get(lang) or value.get(i18n.FALLBACK, "")) if isinstance(value, dict) else str(value)

    return {lang: ", ".join(one(v, lang) for v in items) for lang in i18n.LANGUAGES}


class Namer:
    """Says the ids of one game, with its players, in words (language-free, see the module's doc)."""

    def __init__(self, game: str, players: Sequence[Mapping[str, Any]],
                 table: Mapping[str, Any] | None = None) -> None:
        self.game = game
        self.names = {str(p["id"]): str(p["name"]) for p in players if "id" in p and "name" in p}
        #: the names of the things in the table, by kind (the toolkit's timers, ballots, counters, deals)
        self.kinds = {kind: {str(n) for n in found} for kind in THING_PARAMS.values()
                      if isinstance(found := (table or {}).get(kind), Mapping)}

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> Namer:
        """The namer of a view (any audience's: they all carry ``game``, ``players`` and ``table``)."""
        players, table = view.get("players"), view.get("table")
        return cls(str(view.get("game") or ""), players if isinstance(players, list) else [],
                   table if isinstance(table, Mapping) else None)

    def kind_of(self, name: Any, msgid: str, kind: Any) -> str | None:
        """Which kind of thing a ``name`` param names (see the module's doc), or None: not a thing's."""
        if isinstance(kind, str) and kind in KINDS:
            return KINDS[kind]
        having = [k for k, names in self.kinds.items() if str(name) in names]
        if len(having) == 1:
            return having[0]
        said = [k for word, k in MSGID_KINDS if word in msgid and (not having or k in having)]
        return said[0] if said else None

    # -- one id ---------------------------------------------------------------------------------------

    def player(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.player(v) for v in value]
        if not isinstance(value, str):
            return value
        pid = value.removeprefix("player:")
        if pid in self.names:
            return self.names[pid]
        return f"sender.{value}" if value in SENDERS else value

    def thing(self, kind: str, name: Any) -> Any:
        """A timer, vote, counter or deal (`kind`: the views' key) by the name the host gave it."""
        if not isinstance(name, str):
            return name
        msgid = f"timer.{self.game}.{name}" if kind == "timers" else f"{self.game}.name.{name}"
        return words(msgid) or name

    def role(self, role: Any) -> Any:
        if isinstance(role, list):
            return _joined([self.role(r) for r in role])
        return (words(f"{self.game}.role.{role}") or role) if isinstance(role, str) else role

    def move(self, move: Any) -> Any:
        if not isinstance(move, str):
            return move
        return words(f"move.{self.game}.{move}") or words(f"move.{move}") or words(UNKNOWN_MOVE) or move

    def phase(self, phase: Any) -> Any:
        return (words(f"phase.{self.game}.{phase}") or phase) if isinstance(phase, str) else phase

    # -- a message's params ----------------------------------------------------------------------------

    def params(self, params: Mapping[str, Any] | None, msgid: str = "") -> dict[str, Any]:
        """`params` of message `msgid` with every id in words (see the module's doc); other params as they are."""
        out = dict(params or {})
        kind = self.kind_of(out["name"], msgid, out.get("kind")) if isinstance(out.get("name"), str) else None
        for key, value in out.items():
            if key in PLAYER_PARAMS:
                said = self.player(value)
                out[key] = [" = ".join(map(str, g)) if isinstance(g, list) else g for g in said] \
                    if key == "ranking" and isinstance(said, list) else said
            elif key in THING_PARAMS:
                out[key] = self.thing(THING_PARAMS[key], value)
            elif key == "name" and kind is not None:
                out[key] = self.thing(kind, value)
            elif key in ("role", "roles"):
                out[key] = self.role(value)
            elif key == "move":
                out[key] = self.move(value)
            elif key == "phase":
                out[key] = self.phase(value)
        return out

    def line(self, line: Mapping[str, Any]) -> dict[str, Any]:
        """A line, an announcement or a reason (``{"msg"|"code": id, "params": {...}}``) with its params said."""
        params, msgid = line.get("params"), line.get("msg", line.get("code"))
        return {**line, "params": self.params(params if isinstance(params, Mapping) else None, str(msgid or ""))}

    def text(self, lang: str, msgid: str, params: Mapping[str, Any] | None = None) -> str:
        """One message in `lang`, its ids in words."""
        return i18n.translate_line(lang, msgid, self.params(params, msgid))

    def describe(self, lang: str, obj: Mapping[str, Any]) -> str:
        """An announcement's or a reason's text in `lang` (`i18n.describe`), its ids in words."""
        return i18n.describe(lang, self.line(obj))

    def reason(self, reason: Rejected) -> Rejected:
        """A refusal with its ids in words, for the one who was refused."""
        return Rejected(reason.code, **self.params(reason.params, reason.code))

    # -- prompts and the host's menu -------------------------------------------------------------------

    def prompt(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        """A prompt (as JSON) with its words' params said; its move, values and fixed args untouched."""
        return {**prompt, "params": self.params(prompt.get("params"), str(prompt.get("label", ""))),
                "fields": [self._field(f) for f in prompt.get("fields") or ()]}

    def _field(self, field: Mapping[str, Any]) -> dict[str, Any]:
        return {**field, "choices": [{**c, "params": self.params(c.get("params"), str(c.get("label", ""))),
                                      "group_params": self.params(c.get("group_params"), str(c.get("group", "")))}
                                     for c in field.get("choices") or ()]}

    def control(self, control: Mapping[str, Any]) -> dict[str, Any]:
        """A host menu control: the timer it acts on said by name (``params.timer``)."""
        params = dict(control.get("params") or {})
        if control.get("timer") is not None:
            params["timer"] = control["timer"]
        return {**control, "params": self.params(params, str(control.get("label", "")))}

    def things(self, table: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The names of the things in a table view (``timers``, ``ballots``, ``counters``, ``deals``) and of
        the roles in its deals: what a page that draws them itself titles them with (``names`` in a view)."""
        out: dict[str, dict[str, Any]] = {}
        for kind in ("timers", "ballots", "counters", "deals"):
            found = table.get(kind)
            if isinstance(found, Mapping) and found:
                out[kind] = {str(n): self.thing(kind, str(n)) for n in found}
        roles = {str(r) for d in (table.get("deals") or {}).values() if isinstance(d, Mapping)
                 for r in [*(d.get("pool") or ()), *((d.get("revealed") or {}).values())]}
        if roles:
            out["roles"] = {r: self.role(r) for r in sorted(roles)}
        return out


def said_lines(namer: Namer, lines: Any) -> Any:
    return [namer.line(x) if isinstance(x, Mapping) else x for x in lines] if isinstance(lines, list) else lines


def said_view(view: Mapping[str, Any], namer: Namer | None = None,
              shared: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A view (any audience's, with its lines) with every id in what it says in words: its announcements,
    lines and history, its prompts' words, the host's menu; plus ``names``, the names of the things the
    game's table shows (the toolkit's votes, deals, timers and roles). `shared` are values already said
    for the same public view (the same objects, so the JSON of the public part is made once)."""
    namer = namer or Namer.of(view)
    out = dict(view)
    for key in LINE_KEYS:
        if key in out:
            out[key] = shared[key] if shared is not None and key in shared else said_lines(namer, out[key])
    if isinstance(out.get("moderator_lines"), Mapping):  # a moderator's view: each seat's own lines
        out["moderator_lines"] = {pid: said_lines(namer, lines) for pid, lines in out["moderator_lines"].items()}
    if isinstance(out.get("prompts"), list):
        out["prompts"] = [namer.prompt(p) if isinstance(p, Mapping) else p for p in out["prompts"]]
    if isinstance(out.get("host_menu"), list):
        out["host_menu"] = [namer.control(c) if isinstance(c, Mapping) else c for c in out["host_menu"]]
    if shared is not None and "names" in shared:
        out["names"] = shared["names"]
    elif isinstance(out.get("table"), Mapping):
        out["names"] = namer.things(out["table"])
    return out
