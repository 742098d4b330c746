"""The `companion` command: run a table, play the demo, replay scripts, list games, check config."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import click

from companion import config as configuration
from companion import i18n, scripting, statedir
from companion.commandline.games import games as games_command
from companion.commandline.games import language, new_game_problem, title, unknown_game
from companion.console import ConsoleOutput, reason_text
from companion.core.eventlog import EventLog, LogError
from companion.core.referee import PUBLIC, Outcome, Referee
from companion.core.rejection import Rejected
from companion.games import demo_script, registry
from companion.hall.command import hall_group
from companion.kiosk.detect import screen_choice
from companion.naming import Namer
from companion.table.opening import open_table
from companion.taps.command import tokens as tokens_group
from companion.wiring import ScreenRequired, run_table, signals_stop

VIEW_HELP = "Whose view to print: public, host, or player:ID (e.g. player:ana)."


def _load_config(ctx: click.Context, flags: dict[str, Any]) -> configuration.Config:
    try:
        return configuration.load(flags={k: v for k, v in flags.items() if v is not None},
                                  extra_file=ctx.obj.get("config_file"))
    except configuration.ConfigError as err:
        raise click.ClickException(str(err)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path),
              help="An extra config file, read after the system and user files.")
@click.version_option(package_name="companion")
@click.pass_context
def main(ctx: click.Context, config_file: Path | None) -> None:
    """The tabletop companion: a referee for physical board games.

    It keeps what a human referee would (hidden HP, secret votes, roles, timers and the rules'
    bookkeeping) while players report the real table by tapping tokens, pressing buttons or using
    their phones. Start with `companion demo`, then `companion run`.
    """
    ctx.ensure_object(dict)
    ctx.obj["config_file"] = config_file
    # What the companion writes holds secrets: private by default, whatever the terminal's umask. The
    # state directory's files are also created 0600 on purpose (companion/statedir.py); this is the
    # second line of defence, for anything else (an export, a replayed log).
    previous = os.umask(0o077)
    ctx.call_on_close(lambda: os.umask(previous))


@main.command()
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path),
              help="An extra config file, as `companion --config FILE run` takes it.")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), help="The game log (SQLite file).")
@click.option("--game", "game_id", help="Game for a new session (see `companion games`).")
@click.option("--players", help="Comma-separated player ids for a new session, e.g. ana,ben,chai.")
@click.option("--new", "force_new", is_flag=True, help="Start a new game even if one is unfinished.")
@click.option("--moderator", is_flag=True, default=None,
              help="The host moderates the new game and does not play: the host sees the deal, votes and counters.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="An option of the new game, e.g. --option items=physical (repeatable; JSON values allowed).")
@click.option("--lang", type=click.Choice(i18n.LANGUAGES), help="Language of what the table is told.")
@click.option("--jsonl", is_flag=True, help="Machine mode: one JSON reply per input line, JSON announcements.")
@click.option("--no-display", is_flag=True, help="Keep to the console even when a screen is available.")
@click.pass_context
def run(ctx: click.Context, config_file: Path | None, db: Path | None, game_id: str | None, players: str | None,
        force_new: bool, moderator: bool | None, options: tuple[str, ...], lang: str | None, jsonl: bool,
        no_display: bool) -> None:
    """Run the referee for the table.

    Resumes the unfinished game in the log (after a power cut nothing acknowledged is lost), or
    starts a new one. Inputs are JSON lines on standard input, the same format as scripts
    (docs/scripting.md), e.g. {"by": "player:ana", "move": "ballot.vote", "args": {...}}.
    Readers, buttons, the kiosk screen and phones attach here as they are configured.
    """
    if config_file is not None:
        given = ctx.obj.get("config_file")
        if given is not None and given != config_file:
            raise click.UsageError(f"--config given twice: {given} and {config_file}")
        ctx.obj["config_file"] = config_file
    flags = {"storage.path": db and str(db), "game.default": game_id, "table.language": lang,
             "game.players": players.split(",") if players else None,
             "game.options": _parse_options(options) or None,
             "game.moderator": True if moderator else None,
             "display.enabled": False if no_display else None}
    cfg = _load_config(ctx, flags)
    lang = cfg.table.language
    if game_id is not None or options or force_new:  # a new game asked for: check it before opening anything
        problem = new_game_problem(lang, cfg.game.default, cfg.game.options)
        if problem is not None:
            raise click.ClickException(problem)
    ctx.with_resource(_claimed(cfg))  # before anything is opened: one companion per state directory
    out = sys.stdout
    try:
        table, resumed = open_table(cfg, force_new=force_new)
    except LogError as err:
        raise click.ClickException(str(err)) from None
    except Rejected as err:  # a new game from the config's game.default and game.options
        problem = new_game_problem(lang, cfg.game.default, cfg.game.options)
        raise click.ClickException(problem or _explain(lang, err)) from None
    console = ConsoleOutput(out, cfg.table.language, as_json=jsonl)
    console.namer = Namer.of(table.views.public)  # a refusal before any change still names its players
    if not jsonl:
        _banner(table.referee, cfg, resumed, out)
    screen = screen_choice(cfg, os.environ, machine_mode=jsonl)  # the kiosk's driver, the console, or headless
    try:
        with signals_stop():  # SIGTERM, SIGHUP, SIGINT: everything started is stopped, the broker too
            run_table(table, cfg, console, sys.stdin, _replier(out, cfg.table.language, jsonl, console),
                      resumed=resumed, screen=screen, out=None if jsonl else out, journal=out)
    except ScreenRequired as err:  # display.enabled = true and no screen: no fallback
        raise click.ClickException(i18n.translate(cfg.table.language, "status.no_screen_error",
                                                  {"reason": str(err)})) from None


@contextlib.contextmanager
def _claimed(cfg: configuration.Config) -> Iterator[None]:
    """The state directory, locked and private until the command ends (companion/statedir.py)."""
    lang = cfg.table.language
    try:
        claim = statedir.claim(cfg.storage.path)
    except statedir.StateDirError as err:
        raise click.ClickException(_state_refusal(lang, err)) from None
    with claim:
        if claim.changes:
            print(i18n.translate(lang, "state.made_private", {
                "dir": str(claim.directory), "changes": statedir.describe(claim.directory, claim.changes)}),
                file=sys.stderr, flush=True)
        yield


@contextlib.contextmanager
def _guarded(lang: str, directory: Path) -> Iterator[None]:
    """Refuse to write into `directory` while a companion runs on it (companion/statedir.py)."""
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(statedir.guarded(directory))
        except statedir.StateDirError as err:
            raise click.ClickException(_state_refusal(lang, err)) from None
        yield


def _state_refusal(lang: str, err: statedir.StateDirError) -> str:
    return i18n.describe(lang, err.to_json()) if isinstance(err, statedir.AlreadyRunning) else str(err)


def _parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """`key=value` pairs; a value that reads as JSON (60, true, "x") is taken as such, else as text."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint="--option")
        try:
            out[key] = json.loads(text)
        except json.JSONDecodeError:
            out[key] = text
    return out


def _replier(out: TextIO, lang: str, jsonl: bool,
             console: ConsoleOutput | None = None) -> Callable[[int], Callable[[Outcome], None]]:
    def reply_for(line: int) -> Callable[[Outcome], None]:
        def reply(outcome: Outcome) -> None:
            if jsonl:
                print(json.dumps({"line": line, **outcome.to_json()}, ensure_ascii=False), file=out, flush=True)
            elif outcome.accepted:
                print(i18n.translate(lang, "status.accepted", {"seq": outcome.seq}), file=out, flush=True)
            else:
                print(reason_text(lang, outcome, console.namer if console is not None else None), file=out, flush=True)

        return reply

    return reply_for


def _banner(referee: Referee, cfg: configuration.Config, resumed: bool, out: TextIO) -> None:
    lang = cfg.table.language
    params = {
        "title": i18n.translate(lang, f"game.{referee.setup.game}.title"),
        "number": referee.game_id,
        "players": [p.name for p in referee.setup.players],
        "log": str(cfg.storage.path),
    }
    print(i18n.translate(lang, "status.resumed" if resumed else "status.started", params), file=out)
    print(i18n.translate(lang, "status.console_help"), file=out, flush=True)


def _explain(lang: str, err: Exception) -> str:
    return i18n.describe(lang, err.to_json()) if isinstance(err, Rejected) else str(err)


@main.command()
@click.argument("script", type=click.File("r", encoding="utf-8"))
@click.option("--view", default=PUBLIC, show_default=True, help=VIEW_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the view as JSON.")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
              help="Keep the replayed game in this log file (default: in memory).")
@click.option("--lang", type=click.Choice(i18n.LANGUAGES), default="en", show_default=True)
@click.option("--all-announcements", "whole", is_flag=True,
              help="Give every announcement of the game in the view, not only the last ones.")
def replay(script: TextIO, view: str, as_json: bool, db: Path | None, lang: str, whole: bool) -> None:
    """Play a JSONL script headless and print a view after its last line.

    A rejected line prints its line number and reason on standard error, the view just before it on
    standard output, and exits with status 1. Relative file options (map_file, data) are read from the
    script's folder.
    """
    if db is not None:  # never into the log of a table running there
        click.get_current_context().with_resource(_guarded(lang, db.parent))
    log = EventLog(db or ":memory:")
    folder = None if script.name in ("<stdin>", "-") else Path(script.name).resolve().parent
    try:
        referee = scripting.run(registry(), log, script, folder=folder)
        shown = _told(referee, view, whole)
    except scripting.ScriptError as err:
        click.echo(f"{script.name}:{err.line}: {i18n.describe(lang, err.reason.to_json())} [{err.reason.code}]",
                   err=True)
        if err.referee is not None:  # the game as it stood before the refused line (issue 31)
            try:
                click.echo(json.dumps(_told(err.referee, view, whole), ensure_ascii=False,
                                      indent=None if as_json else 2))
            except Rejected as bad_view:
                click.echo(_explain(lang, bad_view), err=True)
        sys.exit(1)
    except Rejected as err:
        raise click.ClickException(_explain(lang, err)) from None
    finally:
        log.close()
    click.echo(json.dumps(shown, ensure_ascii=False, indent=None if as_json else 2))


def _told(referee: Referee, view: str, whole: bool) -> dict[str, Any]:
    """`view` of the game, with every announcement it made when `whole` (issue 31)."""
    shown = referee.view(view)
    return {**shown, "announcements": referee.story()} if whole else shown


@main.command()
@click.option("--lang", type=click.Choice(i18n.LANGUAGES), help="Language (default: the table's, table.language).")
@click.option("--script", type=click.File("r", encoding="utf-8"),
              help="Another script to show (default: the toolkit demo).")
@click.option("--game", "game_id", help="Play this game's recorded demo game instead (see `companion games`).")
@click.pass_context
def demo(ctx: click.Context, lang: str | None, script: TextIO | None, game_id: str | None) -> None:
    """Show what the referee does: play a recorded game and print what the table is told."""
    lang = language(ctx, lang)
    if game_id is not None and script is None:
        games = registry()
        if game_id not in games:
            raise click.UsageError(unknown_game(lang, game_id, games), ctx)
        found = demo_script(game_id)
        if found is None:
            with_one = [g for g in games if demo_script(g)]
            raise click.UsageError(i18n.translate(lang, "cli.no_demo", {"title": title(lang, game_id),
                                                                        "games": with_one}), ctx)
        lines = found
    else:
        lines = script.readlines() if script else _demo_lines()
    folder = Path(script.name).resolve().parent if script is not None and script.name not in ("<stdin>", "-") else None
    console = ConsoleOutput(sys.stdout, lang)
    log = EventLog(":memory:")
    try:
        public = scripting.run(registry(), log, lines, folder=folder).view(PUBLIC)
    except scripting.ScriptError as err:
        raise click.ClickException(f"line {err.line}: {i18n.describe(lang, err.reason.to_json())}") from None
    finally:
        log.close()
    console.show(public)
    if public["result"]:
        names = {p["id"]: p["name"] for p in public["players"]}
        places = " > ".join("/".join(names[pid] for pid in group) for group in public["result"].get("ranking", []))
        click.echo(i18n.translate(lang, "status.ranking", {"ranking": places}))


def _demo_lines() -> list[str]:
    return (Path(__file__).parent / "scripts" / "toolkit-demo.jsonl").read_text(encoding="utf-8").splitlines()


main.add_command(games_command)  # companion games [ID] (companion/commandline/games.py)


@contextlib.contextmanager
def _latest_game(ctx: click.Context, db: Path | None) -> Iterator[tuple[Referee, str]]:
    """The latest game in the log (`--db`, else the config's `storage.path`), replayed, with the table's
    language; the file is read only (a table may be running on it) and closed afterwards."""
    cfg = _load_config(ctx.find_root(), {"storage.path": db and str(db)})
    path, lang = cfg.storage.path, cfg.table.language
    if not path.is_file():
        raise click.ClickException(i18n.translate(lang, "cli.no_log", {"path": str(path)}))
    try:
        log = EventLog(path, read_only=True)
        referee = Referee.resume(registry(), log)
    except LogError as err:
        raise click.ClickException(str(err)) from None
    try:
        if referee is None:
            raise click.ClickException(i18n.translate(lang, "cli.empty_log", {"path": str(path)}))
        yield referee, lang
    finally:
        log.close()


LOG_HELP = "The game log (SQLite file); default: the config's storage.path, where `companion run` writes."


@main.command()
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), help=LOG_HELP)
@click.option("--view", default=PUBLIC, show_default=True, help=VIEW_HELP)
@click.option("--all-announcements", "whole", is_flag=True,
              help="Give every announcement of the game (its whole story), not only the last ones.")
@click.pass_context
def show(ctx: click.Context, db: Path | None, view: str, whole: bool) -> None:
    """Print a view of the latest game in a log, as JSON (replays the log; changes nothing)."""
    with _latest_game(ctx, db) as (referee, lang):
        try:
            click.echo(json.dumps(_told(referee, view, whole), ensure_ascii=False))
        except Rejected as err:
            raise click.ClickException(_explain(lang, err)) from None


@main.command()
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), help=LOG_HELP)
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-")
@click.pass_context
def export(ctx: click.Context, db: Path | None, output: TextIO) -> None:
    """Write the latest game in a log as a script (it holds secrets: keep it to the host)."""
    with _latest_game(ctx, db) as (referee, _):
        output.write("\n".join(scripting.export(referee)) + "\n")


@main.group(name="config")
def config_group() -> None:
    """Inspect the configuration."""


@config_group.command()
@click.pass_context
def check(ctx: click.Context) -> None:
    """Validate every config layer and print the result; exit 1 naming each bad key and value.
    A managed Mosquitto that is not installed is no config error (the table runs without phones): it is
    said on standard error, with how to install it."""
    from companion.phones import mosquitto

    cfg = _load_config(ctx.find_root(), {})
    for line in configuration.describe_sources(cfg):
        click.echo(line)
    click.echo(json.dumps(cfg.model_dump(mode="json"), indent=2, ensure_ascii=False))
    managed = cfg.mqtt.broker == "mosquitto" or (cfg.mqtt.broker == "auto" and not cfg.mqtt.url)
    if managed and not mosquitto.available():
        click.echo(i18n.translate(cfg.table.language, "phones.mosquitto_missing",
                                  {"command": mosquitto.INSTALL_COMMAND}), err=True)


main.add_command(tokens_group)  # companion tokens enroll|list|forget|export|import (companion/taps/command.py)
main.add_command(hall_group)  # companion hall run|table add|player add|standings|acl (companion/hall/command.py)
