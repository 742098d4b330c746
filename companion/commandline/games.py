"""`companion games [ID]`: the games, or one game's options and moves; and the checks that name the
nearest game, option or value when one is mistyped (`run --game/--option`, `demo --game`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from companion import config as configuration
from companion import i18n
from companion.commandline import schema
from companion.commandline.nearest import nearest
from companion.core.contract import Game, Move
from companion.games import registry

INDENT = "  "


def language(ctx: click.Context, given: str | None) -> str:
    """The language asked for, else the table's (`table.language`), else English."""
    if given is not None:
        return given
    try:
        return configuration.load(extra_file=(ctx.find_root().obj or {}).get("config_file")).table.language
    except configuration.ConfigError:
        return i18n.FALLBACK  # a broken config is `config check`'s to report, not a listing's


def title(lang: str, game_id: str) -> str:
    return i18n.translate(lang, f"game.{game_id}.title")


def _known(lang: str, msgid: str) -> bool:
    return msgid in i18n.msgids(lang) or msgid in i18n.msgids(i18n.FALLBACK)


# -- mistyped names -------------------------------------------------------------------------------------

def unknown_game(lang: str, word: str, games: Mapping[str, Game]) -> str:
    """What to say about a game id this companion does not have: the nearest ones, then all of them."""
    by_title = {title(other, g).casefold(): g for g in games for other in i18n.LANGUAGES}
    close = [by_title[word.casefold()]] if word.casefold() in by_title else []  # a title typed for the id
    close += [g for g in nearest(word, games) if g not in close]
    params = {"game": word[:40], "games": list(games)}
    if close:
        return i18n.translate(lang, "cli.unknown_game", {**params, "nearest": close})
    return i18n.translate(lang, "cli.unknown_game_list", params)


def new_game_problem(lang: str, game_id: str, options: Mapping[str, Any],
                     games: Mapping[str, Game] | None = None) -> str | None:
    """What is wrong with starting `game_id` with `options`, naming the nearest names; None when the
    id, each option's name and each choice's value exist (the game's own check does the rest)."""
    games = registry() if games is None else games
    if game_id not in games:
        return unknown_game(lang, game_id, games)
    game_title = title(lang, game_id)
    known = {f.name: f for f in schema.fields(games[game_id].Options, lang)}
    for key, given in options.items():
        if key not in known:
            if not known:
                return i18n.translate(lang, "cli.no_options", {"title": game_title, "option": key[:40]})
            close = nearest(key, known)
            params = {"title": game_title, "option": key[:40], "options": list(known), "nearest": close}
            return i18n.translate(lang, "cli.unknown_option" if close else "cli.unknown_option_list", params)
        allowed = known[key].choices
        if allowed and isinstance(given, str) and given not in allowed:
            close = nearest(given, allowed)
            params = {"value": given[:40], "option": key, "values": list(allowed), "nearest": close}
            return i18n.translate(lang, "cli.bad_choice" if close else "cli.bad_choice_list", params)
    return None


# -- one game in words ----------------------------------------------------------------------------------

def _table(rows: list[tuple[str, str, str | None]]) -> list[str]:
    """Name, what it is, and an optional description on the line below."""
    width = max((len(name) for name, _, _ in rows), default=0)
    out = []
    for name, what, described in rows:
        out.append(f"{INDENT}{name:<{width}}  {what}")
        if described:
            out.append(f"{INDENT}{' ' * width}  {described}")
    return out


def _option_rows(lang: str, game: Game) -> list[tuple[str, str, str | None]]:
    rows = []
    for f in schema.fields(game.Options, lang):
        default = (i18n.translate(lang, "cli.games.required") if f.default is None
                   else i18n.translate(lang, "cli.games.default", {"value": f.default}))
        described = f"{game.id}.option.{f.name}"
        text = i18n.translate(lang, described) if _known(lang, described) else None
        rows.append((f.name, f"{f.kind}; {default}", text))
    return rows


def _move_lines(lang: str, game: Game, name: str, move: Move, width: int) -> list[str]:
    who = [i18n.translate(lang, f"sender.{role}") for role in sorted(move.who)]
    facts = [i18n.translate(lang, "cli.games.by", {"who": who})]
    if move.secret:
        facts.append(i18n.translate(lang, "cli.games.secret"))
    if move.on_turn:
        facts.append(i18n.translate(lang, "cli.games.on_turn"))
    if move.phases:
        phases = [i18n.translate(lang, f"phase.{game.id}.{p}") for p in sorted(move.phases)]
        facts.append(i18n.translate(lang, "cli.games.phases", {"phases": phases}))
    lines = [f"{INDENT}{name:<{width}}  " + "; ".join(facts)]
    args = [f"{f.name}: {f.kind}" + ("" if f.default is None else ", " + i18n.translate(
        lang, "cli.games.default", {"value": f.default})) for f in schema.fields(move.args, lang)]
    pad = INDENT * 3
    lines.append(pad + ("; ".join(args) if args else i18n.translate(lang, "cli.games.no_args")))
    described = f"{game.id}.move.{name}"
    if _known(lang, described):
        lines.append(pad + i18n.translate(lang, described))
    return lines


def describe(lang: str, game: Game) -> list[str]:
    """What `companion games ID` prints: the game, its options and its moves."""
    lines = [f"{game.id}  {title(lang, game.id)}: {i18n.translate(lang, f'game.{game.id}.summary')}",
             i18n.translate(lang, "cli.games.players", {"low": game.min_players, "high": game.max_players}),
             "", i18n.translate(lang, "cli.games.options", {"game": game.id})]
    lines += _table(_option_rows(lang, game)) or [INDENT + i18n.translate(lang, "cli.games.no_options")]
    lines += ["", i18n.translate(lang, "cli.games.moves")]
    width = max(len(name) for name in game.moves)
    for name, move in game.moves.items():
        lines += _move_lines(lang, game, name, move, width)
    return lines


@click.command()
@click.argument("game_id", metavar="[ID]", required=False)
@click.option("--lang", type=click.Choice(i18n.LANGUAGES), help="Language (default: the table's, table.language).")
@click.pass_context
def games(ctx: click.Context, game_id: str | None, lang: str | None) -> None:
    """List the games this companion referees; with an ID, that game's options and moves."""
    lang = language(ctx, lang)
    known = registry()
    if game_id is not None:
        if game_id not in known:
            raise click.UsageError(unknown_game(lang, game_id, known), ctx)
        click.echo("\n".join(describe(lang, known[game_id])))
        return
    for game in known.values():
        summary = i18n.translate(lang, f"game.{game.id}.summary")
        players = i18n.translate(lang, "cli.games.players", {"low": game.min_players, "high": game.max_players})
        click.echo(f"{game.id:<12} {players}  {title(lang, game.id)}: {summary}")
    click.echo(i18n.translate(lang, "cli.games.more"))
