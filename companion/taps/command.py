"""`companion tokens ...`: which NFC tag is which token. Enroll (tap, then say what it is), list,
forget, and export/import a box's tags as a JSON file so a second Pi knows them (docs/readers.md)."""

from __future__ import annotations

import contextlib
import json
import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

import click

from companion import config as configuration
from companion import i18n, statedir
from companion.statedir import make_private_dir
from companion.taps.readers import open_readers
from companion.taps.registry import PLAYER, Registry, RegistryError, Token, check, registry_path
from hardware.events import DeviceEvent, ReaderStatus, TagPlaced


def _config(ctx: click.Context) -> configuration.Config:
    root = ctx.find_root()
    try:
        return configuration.load(extra_file=(root.obj or {}).get("config_file"))
    except configuration.ConfigError as err:
        raise click.ClickException(str(err)) from None


def _open(ctx: click.Context, path: Path | None, writes: bool = False) -> Registry:
    """The registry; one that `writes` refuses while a table runs on the state directory or on the
    registry's own directory (companion/statedir.py), until the command ends."""
    cfg = _config(ctx)
    target = path or registry_path(cfg.storage.path)
    if writes:
        ctx.with_resource(_guarded(cfg.table.language, cfg.storage.path.parent, target.parent))
    make_private_dir(target.parent)
    return Registry(target)


@contextlib.contextmanager
def _guarded(lang: str, *directories: Path) -> Iterator[None]:
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(statedir.guarded(*directories))
        except statedir.StateDirError as err:
            message = i18n.describe(lang, err.to_json()) if isinstance(err, statedir.AlreadyRunning) else str(err)
            raise click.ClickException(message) from None
        yield


def _describe(token: Token) -> str:
    return f"{token.uid}  {token.game}  {token.kind}  {token.id}  “{token.label}”"


registry_option = click.option(
    "--registry", "registry_file", type=click.Path(dir_okay=False, path_type=Path),
    help="The registry file (default: next to the game log, storage.path with .tokens.sqlite3).")


@click.group(name="tokens")
def tokens() -> None:
    """NFC tokens: which tag is which game token (enroll, list, forget, export, import)."""


def wait_for_tap(cfg: configuration.Config, reader: str | None, timeout: float, out: TextIO | None = None) -> str:
    """Start the configured readers (or emulators), wait for a tag to be placed, stop them; the UID."""
    events: queue.Queue[DeviceEvent] = queue.Queue()
    sim_dir = cfg.storage.path.parent / "readers"
    readers = open_readers(cfg.readers, sim_dir, events.put, only=reader)
    if not readers.drivers:
        readers.stop()
        raise click.ClickException(f"no reader named {reader!r} in [readers]" if reader else "no reader configured")
    try:
        for name, control in readers.controls.items():
            click.echo(f"Reader {name} is simulated: tap with `python -m hardware.pn532 --send {control.path} "
                       "place UID`", file=out)
        click.echo("Tap the tag on a reader...", file=out)
        while True:
            try:
                event = events.get(timeout=timeout)
            except queue.Empty:
                raise click.ClickException(f"no tag was tapped within {timeout:g} s") from None
            if isinstance(event, TagPlaced):
                return event.uid
            if isinstance(event, ReaderStatus) and event.state != "ok":
                click.echo(f"(reader {event.reader}: {event.state}; {event.detail})", file=out)
    finally:
        readers.stop()


@tokens.command()
@click.option("--uid", help="Enroll this UID (hex) instead of waiting for a tap.")
@click.option("--game", help="The game the token belongs to (default: game.default).")
@click.option("--kind", help=f"What kind of token: {PLAYER} (a player's own figure) or the game's kind "
                             "(toolkit: dice, timer).")
@click.option("--id", "token_id", help="Which one: the player id, 2d6, the timer's name...")
@click.option("--label", help="The name shown on screen (default: the id).")
@click.option("--reader", help="Listen on this reader only (a name from [readers]).")
@click.option("--timeout", type=float, default=120.0, show_default=True, help="Seconds to wait for the tap.")
@click.option("--replace", is_flag=True, help="Re-enroll a tag that is already another token.")
@registry_option
@click.pass_context
def enroll(ctx: click.Context, uid: str | None, game: str | None, kind: str | None, token_id: str | None,
           label: str | None, reader: str | None, timeout: float, replace: bool, registry_file: Path | None) -> None:
    """Tap a tag, then say what it is.

    Without --uid, starts the configured readers (or simulated ones) and waits for a tap. A kind or
    id left out is asked for (then the label too; otherwise the label is the id).
    """
    cfg = _config(ctx)
    with _open(ctx, registry_file, writes=True) as registry:  # it drives the readers too
        if uid is None:
            uid = wait_for_tap(cfg, reader, timeout)
            click.echo(f"Tag {uid}")
        known = registry.lookup(uid)
        if known is not None and not replace:
            raise click.ClickException(f"this tag is already {_describe(known)}; use --replace to change it")
        game = game or cfg.game.default
        asking = kind is None or token_id is None  # a fully given token takes its id as its label
        kind = kind or click.prompt(f"What is it? Kind ({PLAYER}, or the game's: dice, timer, ...)")
        token_id = token_id or click.prompt("Which one? Id (a player id, 2d6, a timer's name, ...)")
        if label is None and asking:
            label = click.prompt("Label shown on screen", default=token_id)
        try:
            token = check(uid, game, kind, token_id, label)
            registry.enroll(token)
        except RegistryError as err:
            raise click.ClickException(str(err)) from None
        click.echo(f"Enrolled {_describe(token)}")


@tokens.command(name="list")
@click.option("--game", help="Only this game's tokens.")
@registry_option
@click.pass_context
def list_(ctx: click.Context, game: str | None, registry_file: Path | None) -> None:
    """List the enrolled tags: UID, game, kind, id, label."""
    with _open(ctx, registry_file) as registry:
        for token in registry.tokens(game):
            click.echo(_describe(token))


@tokens.command()
@click.argument("uid")
@registry_option
@click.pass_context
def forget(ctx: click.Context, uid: str, registry_file: Path | None) -> None:
    """Forget a tag (it becomes an unknown tag again)."""
    with _open(ctx, registry_file, writes=True) as registry:
        if not registry.forget(uid):
            raise click.ClickException(f"no tag {uid} is enrolled")
        click.echo(f"Forgot {uid}")


@tokens.command()
@click.option("-o", "--output", type=click.File("w", encoding="utf-8"), default="-")
@click.option("--game", help="Only this game's tokens (one box).")
@registry_option
@click.pass_context
def export(ctx: click.Context, output: TextIO, game: str | None, registry_file: Path | None) -> None:
    """Write the enrolled tags as a JSON file for `companion tokens import` on another Pi."""
    with _open(ctx, registry_file) as registry:
        json.dump(registry.export(game), output, ensure_ascii=False, indent=2)
        output.write("\n")


@tokens.command(name="import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--replace", is_flag=True, help="Let the file win where it names a known tag differently.")
@registry_option
@click.pass_context
def import_(ctx: click.Context, file: TextIO, replace: bool, registry_file: Path | None) -> None:
    """Add the tags of an export file. A tag known here as another token stops the import (nothing is
    changed) unless --replace."""
    try:
        data: Any = json.load(file)
    except json.JSONDecodeError as err:
        raise click.ClickException(f"{file.name}: not JSON: {err.msg} (line {err.lineno})") from None
    with _open(ctx, registry_file, writes=True) as registry:
        try:
            added, same, conflicts = registry.import_(data, replace=replace)
        except RegistryError as err:
            raise click.ClickException(f"{file.name}: {err}") from None
    if conflicts:
        lines = "\n".join(f"  here: {_describe(t)}" for t in conflicts)
        raise click.ClickException(f"{len(conflicts)} tag(s) are already other tokens here, nothing imported "
                                   f"(use --replace to take the file's):\n{lines}")
    click.echo(f"Imported {added} tag(s); {same} already known")
