"""The catalogs kept between runs (companion/catalog_cache.py): Babel reads a language's .po files
once, a kiosk started afterwards takes the same translations without importing Babel, and a changed,
broken or unwritable cache never shows a player stale or missing text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from companion import catalog_cache, i18n

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import hashlib, json, sys
from companion import i18n
texts = {lang: sorted(i18n._catalog(lang).items()) for lang in i18n.LANGUAGES}
print(json.dumps({"babel": any(m == "babel" or m.startswith("babel.") for m in sys.modules),
                  "digest": hashlib.sha1(json.dumps(texts).encode()).hexdigest()}))
"""


def _probe(cache_home: Path) -> dict[str, object]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_a_second_start_has_the_same_translations_without_importing_babel(tmp_path: Path) -> None:
    first, second = _probe(tmp_path), _probe(tmp_path)
    assert first["babel"] is True  # the first start reads the .po files with Babel
    assert second["babel"] is False
    assert first["digest"] == second["digest"]
    assert sorted(p.name.split("-")[0] for p in (tmp_path / "companion" / "catalogs").glob("*.json")) == sorted(
        i18n.LANGUAGES)


def test_the_kept_catalog_is_what_babel_reads(tmp_path: Path) -> None:
    for lang in i18n.LANGUAGES:
        files = i18n.catalog_files(lang)
        kept = catalog_cache.catalog(lang, files, i18n.read_catalogs, tmp_path)
        again = catalog_cache.catalog(lang, files, _refuse, tmp_path)
        assert kept == again == i18n.read_catalogs(files)


def _refuse(files: Sequence[Path]) -> dict[str, str]:
    raise AssertionError("read again although nothing changed")


class Reads:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, files: Sequence[Path]) -> dict[str, str]:
        self.count += 1
        return i18n.read_catalogs(files)


def _po(path: Path, text: str) -> Path:
    path.write_text(f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                    f'msgid "greeting"\nmsgstr "{text}"\n', encoding="utf-8")
    return path


def test_a_changed_po_file_is_read_again_and_the_old_copy_goes(tmp_path: Path) -> None:
    po, where, reads = _po(tmp_path / "en.po", "hello"), tmp_path / "cache", Reads()
    assert catalog_cache.catalog("en", [po], reads, where) == {"greeting": "hello"}
    assert catalog_cache.catalog("en", [po], reads, where) == {"greeting": "hello"}
    assert reads.count == 1
    _po(po, "hello again")
    os.utime(po, ns=(po.stat().st_atime_ns, po.stat().st_mtime_ns + 1_000_000))
    assert catalog_cache.catalog("en", [po], reads, where) == {"greeting": "hello again"}
    assert reads.count == 2
    assert len(list(where.glob("en-*.json"))) == 1


def test_an_added_catalog_file_is_read(tmp_path: Path) -> None:
    one, where, reads = _po(tmp_path / "a.po", "hello"), tmp_path / "cache", Reads()
    catalog_cache.catalog("en", [one], reads, where)
    other = tmp_path / "b.po"
    other.write_text('msgid "farewell"\nmsgstr "bye"\n', encoding="utf-8")
    assert catalog_cache.catalog("en", [one, other], reads, where) == {"greeting": "hello", "farewell": "bye"}
    assert reads.count == 2


@pytest.mark.parametrize("garbage", ["{not json", "[1, 2]", '{"greeting": 3}', ""])
def test_a_broken_kept_file_is_read_again(tmp_path: Path, garbage: str) -> None:
    po, where, reads = _po(tmp_path / "en.po", "hello"), tmp_path / "cache", Reads()
    catalog_cache.catalog("en", [po], reads, where)
    (kept,) = where.glob("en-*.json")
    kept.write_text(garbage, encoding="utf-8")
    assert catalog_cache.catalog("en", [po], reads, where) == {"greeting": "hello"}
    assert reads.count == 2


def test_an_unwritable_cache_still_gives_the_translations(tmp_path: Path) -> None:
    po, reads = _po(tmp_path / "en.po", "hello"), Reads()
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    assert catalog_cache.catalog("en", [po], reads, blocked / "cache") == {"greeting": "hello"}
    assert catalog_cache.catalog("en", [po], reads, blocked / "cache") == {"greeting": "hello"}
    assert reads.count == 2


def test_an_id_defined_in_two_files_is_still_refused(tmp_path: Path) -> None:
    one, two = _po(tmp_path / "a.po", "hello"), _po(tmp_path / "b.po", "hi")
    with pytest.raises(ValueError, match="already defined"):
        catalog_cache.catalog("en", [one, two], i18n.read_catalogs, tmp_path / "cache")
    assert not list((tmp_path / "cache").glob("*.json"))  # nothing kept of a refused read
