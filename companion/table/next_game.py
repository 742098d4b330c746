"""Another game at the same table, without a restart: the host's `table.new_game` (issue 21).

    {"by": "host", "move": "table.new_game",
     "args": {"game": "room25", "players": [{"id": "ana", "name": "Ana"}, ...], "options": {...},
              "moderator": false}}

`moderator` (optional, false when absent): the host does not play but moderates (`Setup.moderator`).

The table handles it, not a game (`Table.handle`): `setup_of` checks the arguments into a `Setup`
(pure: the seed is handed in, drawn from `secrets` by the caller), and the table starts that game in the
same event log (`Referee.start`) and runs it from then on. Only while the current game has ended or
has not begun (no input in force, no correction: what a setup announces by itself, as Jailbreak's and
Escape the Lab's do, is not a start): otherwise `reject.game_in_progress`.

Player ids are what the kiosk and the host's page keep from earlier games (a figure token still means
its player); names are free text (any script), 1 to `NAME_MAX` characters once stripped. An option
whose default is None names something the table was set up with (a map file, a data directory): a
new game may keep the value the current game has ("play again"), never bring a new one, so no phone
can point the referee at a file. Every refusal is a message id with its parameters (companion/locale).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.commandline import schema
from companion.commandline.nearest import nearest
from companion.core.contract import Game, Player, Setup
from companion.core.fold import initial
from companion.core.identity import SEAT_ID, SEAT_NAME_MAX
from companion.core.rejection import Rejected

MOVE = "table.new_game"
PLAYERS = "a list of players, each with an id and a name"
PLAYER_ID = SEAT_ID  # one limit for the table and the hall (companion/core/identity.py)
NAME_MAX = SEAT_NAME_MAX
ARGS = frozenset({"game", "players", "options", "moderator"})


def _mistyped(code: str, word: str, names: list[str], **params: Any) -> Rejected:
    """A name that is not one of `names`: `code` naming the nearest ones, or `code`_list naming them all."""
    close = nearest(word, names)
    if close:
        return Rejected(code, nearest=close, **params)
    return Rejected(f"{code}_list", names=names, **params)


def in_progress(public: Mapping[str, Any]) -> bool:
    """Whether the game of this public view is under way: an input in force or a correction, not ended."""
    if public.get("ended"):
        return False
    return bool(public.get("begun") or public.get("corrections"))


def _players(raw: Any) -> tuple[Player, ...]:
    if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
        raise Rejected("reject.bad_argument", field="players", problem=PLAYERS)
    players = []
    for p in raw:
        pid, name = p.get("id"), p.get("name")
        if set(p) != {"id", "name"} or not isinstance(pid, str) or not isinstance(name, str):
            raise Rejected("reject.bad_argument", field="players", problem=PLAYERS)
        if PLAYER_ID.fullmatch(pid) is None:
            raise Rejected("reject.new_game.player_id", id=pid[:20])
        shown = name.strip()
        if not 0 < len(shown) <= NAME_MAX:
            raise Rejected("reject.new_game.player_name", id=pid, most=NAME_MAX)
        players.append(Player(pid, shown))
    return tuple(players)


def _options(game: Game, raw: Any, current: Mapping[str, Any]) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise Rejected("reject.bad_argument", field="options", problem="an object")
    known = {f.name: f for f in schema.fields(game.Options, "en")}
    for key, value in raw.items():
        if key not in known:
            raise _mistyped("reject.new_game.unknown_option", key, list(known), game=game.id, option=key[:40])
        allowed = known[key].choices
        if allowed and isinstance(value, str) and value not in allowed:
            raise _mistyped("reject.new_game.bad_choice", value, list(allowed), option=key, value=value[:40])
        declared = game.Options.model_fields[key]
        if declared.is_required() or declared.get_default(call_default_factory=True) is not None or value is None:
            continue
        if key not in current or current[key] != value:  # a set-up file: only the one already in use
            raise Rejected("reject.new_game.option_set_up", option=key)
    return dict(raw)


def setup_of(args: Mapping[str, Any], games: Mapping[str, Game], seed: int,
             current: Setup | None = None) -> Setup:
    """The `Setup` the host's arguments describe, checked as the referee checks a setup (Rejected:
    the first thing wrong). `current` is the table's game now: its options are the ones a new game of
    the same game may keep."""
    extra = sorted(set(args) - ARGS)
    if extra:
        raise Rejected("reject.bad_argument", field=str(extra[0])[:40], problem="not an argument of table.new_game")
    game_id = args.get("game")
    if not isinstance(game_id, str):
        raise Rejected("reject.bad_argument", field="game", problem="a game id")
    if game_id not in games:
        raise _mistyped("reject.new_game.unknown_game", game_id, list(games), game=game_id[:40])
    game = games[game_id]
    players = _players(args.get("players"))
    same = current is not None and current.game == game_id
    options = _options(game, args.get("options"), current.options if same and current is not None else {})
    moderator = args.get("moderator", False)
    if not isinstance(moderator, bool):
        raise Rejected("reject.bad_argument", field="moderator", problem="true or false")
    setup = Setup(game=game_id, players=players, options=options, seed=seed, moderator=moderator)
    initial(game, setup)  # the player count, duplicate ids, each option's value: the referee's own check
    return setup
