"""A language's merged catalogs kept between runs: Babel reads the ``.po`` files the first time, and
what it read is kept as JSON in the cache (``$XDG_CACHE_HOME/companion/catalogs``, as the fonts' cache).

A kiosk that starts with the cache warm never imports Babel, whose modules (its catalog, dates and
locale data) would stay in the kiosk's memory all evening for a read done once (about 1.3 MiB of the
RSS row, docs/performance.md). The kept file is named after every catalog file's path, size and
modification time, so a changed, added or removed ``.po`` is read by Babel again; a kept file that is
unreadable or not a catalog is read again too. Nothing is kept when the cache cannot be written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

Catalog = dict[str, str]


def default_dir(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ) if env is None else env
    base = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".cache")
    return Path(base) / "companion" / "catalogs"


def _tag(files: Sequence[Path]) -> str:
    parts = []
    for path in files:
        stat = path.stat()
        parts.append(f"{path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha1("\n".join(parts).encode()).hexdigest()[:16]


def _kept(target: Path) -> Catalog | None:
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        return None
    return data


def _keep(target: Path, catalog: Catalog, name: str) -> None:
    with contextlib.suppress(OSError):
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{name}-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(catalog, fh, ensure_ascii=False)
            os.replace(tmp, target)
        except OSError:
            os.unlink(tmp)
            raise
        for old in target.parent.glob(f"{name}-*.json"):  # the same language's earlier catalogs
            if old != target:
                old.unlink(missing_ok=True)


def catalog(name: str, files: Sequence[Path], read: Callable[[Sequence[Path]], Catalog], where: Path) -> Catalog:
    """The catalog `read` makes of `files`, kept in `where` under `name` and taken from there while the
    files are unchanged."""
    target = where / f"{name}-{_tag(files)}.json"
    kept = _kept(target)
    if kept is not None:
        return kept
    made = read(files)
    _keep(target, made, name)
    return made
