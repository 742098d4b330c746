"""Player-facing text: message ids looked up in the zh/th/en gettext catalogs.

The core's catalog is ``companion/locale/<lang>.po``; each feature (a game, the kiosk, the phone mirror)
keeps its own beside its code, ``companion/<feature>/locale/<lang>.po`` or
``companion/games/<game>/locale/<lang>.po``, and they are merged (an id defined twice is an error).

Ids are dotted keys (``reject.ballot_closed``, ``toolkit.timer_expired``), never English sentences.
A message's ``{placeholders}`` are filled from its params; formatting never raises, so a wrong or
missing param shows up as ``{name}`` on screen instead of crashing the kiosk.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion import catalog_cache, games

LANGUAGES = ("en", "zh", "th")
FALLBACK = "en"
LOCALE_DIR = Path(__file__).parent / "locale"

_FORMATTER = string.Formatter()


def _check(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")


def catalog_files(lang: str) -> list[Path]:
    """Every catalog file of `lang`: the core's first, then each feature's, in path order."""
    _check(lang)
    package = LOCALE_DIR.parent
    in_games = (folder / f"{lang}.po" for folder in games.locale_folders())
    # a feature's catalog beside its code, one or two folders deep (companion/hall/pages/locale)
    nested = (*package.glob(f"*/locale/{lang}.po"), *package.glob(f"*/*/locale/{lang}.po"))
    features = sorted({*nested, *(p for p in in_games if p.is_file())})
    return [LOCALE_DIR / f"{lang}.po", *(p for p in features if p.parent != LOCALE_DIR)]


@functools.cache
def _catalog(lang: str) -> dict[str, str]:
    """Usable translations of one language, read once: no header, no empty or fuzzy entries (kept between
    runs by `catalog_cache`, so Babel is imported only when a catalog file changed)."""
    return catalog_cache.catalog(lang, catalog_files(lang), read_catalogs, catalog_cache.default_dir())


def read_catalogs(files: Sequence[Path]) -> dict[str, str]:
    """The translations of `files` merged, as Babel reads them; an id defined in two files is an error."""
    from babel.messages.pofile import read_po  # only when a catalog is read afresh (catalog_cache)

    out: dict[str, str] = {}
    for path in files:
        with path.open("rb") as fh:
            catalog = read_po(fh, ignore_obsolete=True)
        for message in catalog:
            if not message.id or not isinstance(message.id, str) or message.fuzzy:
                continue
            if message.id in out:
                raise ValueError(f"{path}: message id {message.id!r} is already defined in another catalog")
            if isinstance(message.string, str) and message.string:
                out[message.id] = message.string
    return out


def msgids(lang: str) -> set[str]:
    """The message ids that `lang` translates."""
    return set(_catalog(lang))


class _Missing:
    """What a placeholder without a param renders as: itself, whatever its format spec."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __format__(self, spec: str) -> str:
        return "{" + self.name + (":" + spec if spec else "") + "}"


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> _Missing:
        return _Missing(key)


def _shown(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    if isinstance(value, dict):  # words in every language that `translate_line` did not pick: English
        return str(value.get(FALLBACK, ""))
    return value


def _fill(template: str, params: Mapping[str, Any]) -> str:
    values = _Params({key: _shown(value) for key, value in params.items()})
    try:
        return template.format_map(values)
    except (ValueError, KeyError, IndexError, AttributeError, TypeError):
        # A broken template ("{", "{0}", "{x.y}") or a format spec the value refuses: show it unfilled.
        return template


TRANSLATED_PARAM_PREFIXES = ("kind.", "sender.", "reject.")


def _lookup(lang: str, msgid: str) -> str | None:
    return _catalog(lang).get(msgid) or _catalog(FALLBACK).get(msgid)


def translate(lang: str, msgid: str, params: Mapping[str, Any] | None = None) -> str:
    """The text of `msgid` in `lang` (else English, else the id itself) with its params filled in.

    A param whose value is itself a catalog id of a word (``kind.timer``, ``sender.host``) or a
    reason (``reject.ballot_closed``) is shown translated, so no internal word reaches a player; one given
    in every language (``{"en": ..., "zh": ..., "th": ...}``: `companion.naming`'s words) shows `lang`'s.
    """
    _check(lang)
    shown = {
        key: (_lookup(lang, value) or value)
        if isinstance(value, str) and value.startswith(TRANSLATED_PARAM_PREFIXES)
        else _in(lang, value) if isinstance(value, dict) else value
        for key, value in (params or {}).items()
    }
    return _fill(_lookup(lang, msgid) or msgid, shown)


def _in(lang: str, value: dict[str, Any]) -> Any:
    """A param given in every language, in `lang` (else English)."""
    return value.get(lang) or value.get(FALLBACK, "")


def describe(lang: str, obj: Mapping[str, Any]) -> str:
    """The text of a rejection (``{"code": id, "params": {...}}``) or an announcement (``{"msg": ...}``)."""
    msgid = obj.get("code", obj.get("msg"))
    if not isinstance(msgid, str):
        raise ValueError(f"expected a 'code' or 'msg' message id, got {sorted(obj)}")
    params = obj.get("params")
    return translate_line(lang, msgid, params if isinstance(params, Mapping) else {})


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a message uses (for the catalog checks)."""
    try:
        return {field for _, field, _, _ in _FORMATTER.parse(text) if field is not None}
    except ValueError:
        return {"<unparsable>"}


def translate_line(lang: str, msgid: str, params: Mapping[str, Any]) -> str:
    """A view's line in `lang` (`companion.core.lines`): like `translate`, and a param that a game's data
    file gives in every language (``{"en": ..., "zh": ..., "th": ...}``, a Betrayal side's goals) shows
    `lang`'s text, as the phone page's `t` does."""
    shown = {key: (value.get(lang) or value.get(FALLBACK, "")) if isinstance(value, dict) else value
             for key, value in params.items()}
    return translate(lang, msgid, shown)
