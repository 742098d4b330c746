"""`companion hall ...`: the organiser's commands for a league night (docs/hall.md).

`hall run` runs the hall headless until SIGTERM (or Ctrl-C); `hall table add` gives a table its login
and prints the config it needs; `hall player add` issues a league id; `hall standings` prints the
league; `hall acl` prints the ACL an organiser's own central broker needs. Like `companion tokens`, these
speak to the organiser in English; what a player or the hall screen shows comes from the catalogs.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import threading
from pathlib import Path
from typing import Any

import click

from companion import config as configuration
from companion.hall import hooks, protocol
from companion.hall.central import DEFAULT_PORT, acl_text
from companion.hall.model import row_dict
from companion.hall.run import Hall, HallOptions, announced, pid_file

db_option = click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
                         help="The hall's league file (SQLite); default: hall.sqlite3 in the state directory.")


def _db(db: Path | None) -> Path:
    path = db or configuration.default_storage_path().with_name("hall.sqlite3")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


@click.group(name="hall")
def hall_group() -> None:
    """The hall: many tables, one league night (a central broker, the hall screen, the league)."""


@hall_group.command(name="run")
@db_option
@click.option("--port", default=DEFAULT_PORT, show_default=True, help="The central broker's MQTT port.")
@click.option("--host", default="0.0.0.0", show_default=True, help="Where the central broker listens.")
@click.option("--page-port", default=8090, show_default=True, help="The hall's pages (HTTP); 0: none.")
@click.option("--broker", type=click.Choice(["managed", "external"]), default="managed", show_default=True)
@click.option("--url", help="The external central broker: mqtt://companion-hall:PASSWORD@host:port.")
@click.option("--name", default="Hall", show_default=True, help="The hall's name on its screen.")
@click.option("--prefix", default="companion", show_default=True, help="The tables' MQTT prefix (mqtt.prefix).")
def run_command(db: Path | None, port: int, host: str, page_port: int, broker: str, url: str | None,
                name: str, prefix: str) -> None:
    """Run the hall until stopped (SIGTERM or Ctrl-C); SIGHUP reads the tables again."""
    path = _db(db)
    options = HallOptions(name=name, prefix=prefix, host=host, port=port, page_port=page_port or None, broker=broker,
                          url=url)
    try:
        hall = Hall(hooks.open_store(path), hooks.league(), options)
    except ValueError as err:
        raise click.ClickException(str(err)) from None
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
            click.echo(f"Hall “{name}” running: central broker {broker} at {where}, league in {path}"
                       + (f", pages on port {page_port}" if page_port else ""), err=True)
            while not stopping.is_set():
                wake.wait()
                wake.clear()
                if reloading.is_set():
                    reloading.clear()
                    hall.reload_tables()
                    click.echo(f"Tables read again: {len(hall.store.table_passwords())}", err=True)
            hall.stop()
            click.echo("Hall stopped.", err=True)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def table_id_for(name: str, taken: set[str]) -> str:
    """A table id from its name (`Table 3` -> `table-3`); a name in another script gets `table-N`."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")[:32].strip("-")
    if protocol.TABLE_ID.match(slug) and slug not in taken:
        return slug
    n = len(taken) + 1
    while f"table-{n}" in taken:
        n += 1
    return f"table-{n}"


def _tell_running_hall(db: Path) -> bool:
    """SIGHUP to the hall running on `db` (its pid file), if one is: it gives the new table a login."""
    try:
        pid = int(pid_file(db).read_text(encoding="ascii"))
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return False
    args = cmdline.split(b"\0")
    if b"hall" not in args or b"run" not in args:
        return False  # a stale pid file naming another process
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
    if not 0 < len(name) <= protocol.MAX_NAME or not name.isprintable():
        raise click.BadParameter(f"a table's name is 1-{protocol.MAX_NAME} printable characters", param_hint="NAME")
    path = _db(db)
    store = hooks.open_store(path)
    taken = set(store.table_passwords())
    chosen = table_id or table_id_for(name, taken)
    if not protocol.TABLE_ID.match(chosen):
        raise click.BadParameter("1-32 small letters, digits, - or _, starting with a letter or a digit",
                                 param_hint="--id")
    if chosen in taken:
        raise click.ClickException(f"the hall already has a table {chosen}")
    password = store.add_table(chosen)
    address = url or f"mqtt://{socket.gethostname()}:{DEFAULT_PORT}"
    click.echo(f"# {name}: in the table's config (companion config check shows it); its login is its table id\n"
               f'[table]\nid = "{chosen}"\n\n[hall]\nurl = "{address}"\nname = {_toml(name)}\n'
               f'password = "{password}"')
    if _tell_running_hall(path):
        click.echo("(the running hall was told: the table can connect now)", err=True)


def _toml(text: str) -> str:
    """A TOML string (JSON's string escapes are TOML's, except for a raw DEL), as companion/config.py writes."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


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
    rows = league.standings(store.results(), store.players())
    if as_csv:
        click.echo(league.to_csv(rows), nl=False)
        return
    for row in map(row_dict, rows):
        click.echo(f"{row['rank']:>3}  {row['name']:<24} {row['id']:<20} games {row['games']:>3}  "
                   f"wins {row['wins']:>3}  points {row['points']:>4}  rating {row['ordinal']:.2f}")


@hall_group.command(name="acl")
@click.option("--prefix", default="companion", show_default=True)
def acl_command(prefix: str) -> None:
    """The ACL an organiser's own central broker needs (Mosquitto's acl_file format)."""
    click.echo(acl_text(prefix), nl=False)
