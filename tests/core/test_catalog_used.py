"""Every catalog entry is used somewhere: a message no code says is dead weight that translators keep
translating (issue 28 left `kiosk.enroll.prompt`, `kiosk.booth.sent` and others behind when the screens
were redrawn).

"Used" means the id is in the code (Python, the phone and hall pages' JavaScript and HTML, the games'
data) as a quoted string, or an id built at run time matches it: an f-string or a JavaScript template
with id-like text around its holes (`f"game.{game}.title"`, `` `phone.${x}` ``, `f"{code}_list"`), or a
quoted prefix a value is added to (`"kiosk.device." + kind`). The tests count too (a test's own form may
label a field with a catalog id; this file's own samples do not). A built id must have three letters of
fixed text or more, so `f"{a}.{b}"` does not make every id used.
"""

from __future__ import annotations

import re
from pathlib import Path

from companion import i18n

ROOT = Path(i18n.__file__).parent.parent
SUFFIXES = {".py", ".js", ".mjs", ".html", ".json", ".jsonl", ".toml", ".txt", ".yaml", ".yml"}
ID = r"[\w.\-]+"
QUOTED = re.compile(r"""["'`]([A-Za-z][\w.\-]*)["'`]""")
#: An f-string's or a template's text with a hole in it, on one line.
BUILT = re.compile(r"""(["'`])((?:(?!\1)[^\n\\]){0,200}?\{[^\n]*?)\1""")
HOLE = re.compile(r"\$?\{[^{}]*\}")
PREFIX_PLUS = re.compile(r"""["'`]([A-Za-z][\w.\-]*\.)["'`]\s*\+""")


def code_files() -> list[Path]:
    out = []
    for top in (ROOT / "companion", ROOT / "tests"):
        for path in top.rglob("*"):
            if (path.suffix in SUFFIXES and path.is_file() and "node_modules" not in path.parts
                    and "locale" not in path.parts and ".venv" not in path.parts and path != Path(__file__)):
                out.append(path)
    return sorted(out)


def uses(text: str) -> tuple[set[str], re.Pattern[str] | None]:
    """The ids quoted in `text`, and one pattern matching every id built there."""
    quoted = set(QUOTED.findall(text))
    built = set()
    for match in BUILT.finditer(text):
        parts = HOLE.split(match.group(2))
        fixed = "".join(parts)
        if len(parts) < 2 or not re.fullmatch(ID + "?", fixed) or len(re.sub(r"[^A-Za-z]", "", fixed)) < 3:
            continue
        built.add(ID.join(re.escape(p) for p in parts))
    built |= {re.escape(p) + ID for p in PREFIX_PLUS.findall(text)}
    pattern = re.compile("|".join(f"(?:{b})" for b in sorted(built))) if built else None
    return quoted, pattern


def unused(ids: set[str], text: str) -> list[str]:
    quoted, pattern = uses(text)
    return sorted(i for i in ids if i not in quoted and not (pattern is not None and pattern.fullmatch(i)))


def test_the_scan_sees_each_way_an_id_is_used() -> None:
    # Guards the patterns: if they stopped matching, the next test would pass while finding nothing.
    sample = '''
        i18n.translate(lang, "kiosk.play.turn", {"player": name})
        title = tr(f"game.{game}.title")
        t(`phone.seat.${state}`)
        word = i18n.translate(lang, "kiosk.device." + kind)
        return Rejected(f"{code}_list", names=names)
        path = f"{folder}/{name}.png"
    '''
    ids = {"kiosk.play.turn", "game.lockdown.title", "phone.seat.free", "kiosk.device.reader",
           "reject.new_game.unknown_game_list", "kiosk.booth.sent", "game.lockdown.summary", "phone.waiting"}
    assert unused(ids, sample) == ["game.lockdown.summary", "kiosk.booth.sent", "phone.waiting"]


def test_every_catalog_entry_is_used() -> None:
    ids = set(i18n.msgids("en"))
    files = code_files()
    assert len(ids) > 1000 and len(files) > 300, (len(ids), len(files))
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)
    found = unused(ids, text)
    assert found == [], f"catalog entries no code uses (remove them from the zh, th and en catalogs): {found}"
