"""`companion hall ...`: the organiser's commands for a league night (docs/hall.md).

`hall run` runs the hall headless until SIGTERM (or Ctrl-C); `hall table add` gives a table its login
and prints the config it needs; `hall player add` issues a league id; `hall standings` prints the
league; `hall acl` prints the ACL an organiser's own central broker needs. What they say comes from the
catalogs (companion/hall/locale) in `--lang`, else the config's `table.language`, as `companion games`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
from pathlib import Path
from typing import Any

import click

from companion import config as configuration
from companion import i18n
from companion.commandline.games import language
from companion.hall import hooks, protocol
from companion.hall.central import DEFAULT_PORT, BrokerUrlError, acl_text
from companion.hall.model import row_dict
from companion.hall.run import Hall, HallOptions, announced, external, league_state, running_hall
from companion.hall.table_login import config_text, good_name, table_id_for

db_option = click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
                         help="The hall's league file (SQLite); default: hall.sqlite3 in the state directory.")


def _db(db: Path | None) -> Path:
    path = db or configuration.default_storage_path().with_name("hall.sqlite3")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


@click.group(name="hall")
@click.option("--lang", type=click.Choice(i18n.LANGUAGES), help="Language (default: the config's table.language).")
@click.pass_context
def hall_group(ctx: click.Context, lang: str | None) -> None:
    """The hall: many tables, one league night (a central broker, the hall screen, the league)."""
    ctx.ensure_object(dict)
    ctx.obj["hall_lang"] = language(ctx, lang)


def _say(msgid: str, **params: Any) -> str:
    return i18n.translate(click.get_current_context().obj["hall_lang"], msgid, params)


@hall_group.command(name="run")
@db_option
@click.option("--port", default=DEFAULT_PORT, show_default=True, help="The central broker's MQTT port.")
@click.option("--host", default="0.0.0.0", show_default=True, help="Where the central broker listens.")
@click.option("--page-port", default=8090, show_default=True, help="The hall's pages (HTTP); 0: none.")
@click.option("--broker", type=click.Choice(["managed", "external"]), default="managed", show_default=True)
@click.option("--url", help="The external central broker: mqtt://companion-hall:PASSWORD@host:port.")
@click.option("--name", default="Hall", show_default=True, help="The hall's name on its screen.")
@click.option("--prefix", default="companion", show_default=True, help="The tables' MQTT prefix (mqtt.prefix).")
@click.option("--score", type=click.Choice(["rounds", "every-game"]),
              help="What the league scores: the games its rounds seated (the default), or every game; kept in "
                   "the league file.")
@click.option("--new-organiser-key", is_flag=True,
              help="Make a new organiser's link (the old one then gives 403); else it survives restarts.")
def run_command(db: Path | None, port: int, host: str, page_port: int, broker: str, url: str | None,
                name: str, prefix: str, score: str | None, new_organiser_key: bool) -> None:
    """Run the hall until stopped (SIGTERM or Ctrl-C); SIGHUP reads the tables again."""
    options = HallOptions(name=name, prefix=prefix, host=host, port=port, page_port=page_port or None, broker=broker,
                          url=url, language=click.get_current_context().obj["hall_lang"],
                          score=None if score is None else score.replace("-", "_"),
                          new_organiser_key=new_organiser_key)
    try:
        if broker == "external":
            external(options)  # before anything is opened
    except BrokerUrlError as err:
        raise click.ClickException(_say(err.code)) from None
    path = _db(db)
    other = running_hall(path)
    if other is not None:
        raise click.ClickException(_say("hall.cli.already_running", pid=other, path=str(path)))
    lang = click.get_current_context().obj["hall_lang"]  # the watcher's thread has no click context
    hall = Hall(hooks.open_store(path), hooks.league(), options,
                say=lambda msgid, params: click.echo(i18n.translate(lang, msgid, params), err=True))
    wake, stopping, reloading = threading.Event(), threading.Event(), threading.Event()

    def on_signal(signum: int, _frame: Any) -> None:
        (reloading if signum == signal.SIGHUP else stopping).set()
        wake.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    try:
        with announced(path):
            try:
                hall.start()
            except RuntimeError as err:  # the central broker did not start (its own words)
                hall.stop()
                raise click.ClickException(str(err)) from None
            where = f"{hall.address.host}:{hall.address.port}"
            click.echo(_say("hall.cli.running", name=name, broker=broker, where=where, path=str(path)), err=True)
            if hall.serving_pages:
                shown = socket.gethostname() if host in ("0.0.0.0", "") else host
                click.echo(_say("hall.cli.pages", host=shown, port=hall.page_port), err=True)
                click.echo(_say("hall.cli.organiser", host=shown, port=hall.page_port, key=hall.organiser_key),
                           err=True)
            while not stopping.is_set():
                wake.wait()
                wake.clear()
                if reloading.is_set():
                    reloading.clear()
                    hall.reload_tables()
                    click.echo(_say("hall.cli.tables_read", count=len(hall.store.table_passwords())), err=True)
            hall.stop()
            click.echo(_say("hall.cli.stopped"), err=True)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _tell_running_hall(db: Path) -> bool:
    """SIGHUP to the hall running on `db` (its pid file), if one is: it gives the new table a login."""
    pid = running_hall(db)
    if pid is None:
        return False
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGHUP)
        return True
    return False


@hall_group.group(name="table")
def table_group() -> None:
    """The tables of the hall."""


@table_group.command(name="add")
@click.argument("name")
@db_option
@click.option("--id", "table_id", help="The table id (default: from the name, e.g. table-3).")
@click.option("--url", help="The central broker as the table reaches it (default: this machine, port 1884).")
def table_add(name: str, db: Path | None, table_id: str | None, url: str | None) -> None:
    """Give a table its login on the central broker and print its config (keep it secret)."""
    if not good_name(name):
        raise click.BadParameter(_say("hall.cli.bad_table_name", most=protocol.MAX_NAME), param_hint="NAME")
    path = _db(db)
    store = hooks.open_store(path)
    taken = set(store.table_passwords())
    chosen = table_id or table_id_for(name, taken)
    if not protocol.TABLE_ID.match(chosen) or chosen == protocol.HALL_USER:
        raise click.BadParameter(_say("hall.cli.bad_table_id"), param_hint="--id")
    if chosen in taken:
        raise click.ClickException(_say("hall.cli.table_exists", id=chosen))
    password = store.add_table(chosen)
    address = url or f"mqtt://{socket.gethostname()}:{DEFAULT_PORT}"
    click.echo(config_text(chosen, name, address, password, _say("hall.cli.table_config", name=name)))
    if _tell_running_hall(path):
        click.echo(_say("hall.cli.hall_told"), err=True)


@hall_group.group(name="player")
def player_group() -> None:
    """The league's players."""


@player_group.command(name="add")
@click.argument("name")
@db_option
def player_add(name: str, db: Path | None) -> None:
    """Issue a league id (for the league card): a table uses it as the player id."""
    click.echo(hooks.open_store(_db(db)).add_player(name))


@hall_group.command(name="standings")
@db_option
@click.option("--csv", "as_csv", is_flag=True, help="As CSV (for a spreadsheet).")
def standings_command(db: Path | None, as_csv: bool) -> None:
    """The league's standings: points, then rating."""
    store, league = hooks.open_store(_db(db)), hooks.league()
    state = league_state(store)
    rows = league.standings(state.scored, store.players(), state.applied.scoring)
    if as_csv:
        click.echo(league.to_csv(rows), nl=False)
        return
    for row in map(row_dict, rows):
        shown = {k: row[k] for k in ("rank", "name", "id", "games", "wins", "points")}
        click.echo(_say("hall.cli.standings_row", **shown, rating=f"{row['ordinal']:.2f}"))


@hall_group.command(name="acl")
@click.option("--prefix", default="companion", show_default=True)
def acl_command(prefix: str) -> None:
    """The ACL an organiser's own central broker needs (Mosquitto's acl_file format)."""
    click.echo(acl_text(prefix), nl=False)
