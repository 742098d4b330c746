"""Fonts from Debian packages and a fallback chain by glyph coverage.

No font falls back by itself (SDL_ttf draws tofu for a missing glyph), so text is split into runs,
each drawn with the first font of the chain that has its glyphs:

1. Noto Sans (`fonts-noto-core`): Latin, digits, punctuation.
2. Loma (`fonts-thai-tlwg`): Thai. Noto Sans Thai clips stacked tone marks under SDL_ttf and has no
   digits; Loma renders them whole. `pygame.font` shapes Thai with HarfBuzz (`pygame.freetype`
   does not, so it is never used for text).
3. Noto Sans CJK SC (`fonts-noto-cjk`): the Simplified Chinese face is index 2 of the .ttc, which
   `pygame.font` cannot pick; it is extracted once with fontTools into a cache directory.
4. Noto Sans Symbols 2 (`fonts-noto-core`): arrows, check marks, shapes.

Coverage is read from each face's character map, once, in a child process, into a small file of
code-point ranges in the cache directory (see `Face`), and only when the fonts before it lack a
character, so an English screen never even reads the CJK face's map. No FreeType face is opened to
ask (each open CJK face costs ~2.3 MB; docs/performance.md, "Pi Zero 2 W budget").

Memory: the CJK face is opened once for both weights (`FaceSource.synthetic_bold`: its bold is
SDL_ttf's emboldening of the regular face), saving a second ~2.3 MB face.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pygame
import pygame.freetype

NOTO = Path("/usr/share/fonts/truetype/noto")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto")
TLWG = Path("/usr/share/fonts/truetype/tlwg")
SC_FACE = 2  # index of "Noto Sans CJK SC" in NotoSansCJK-*.ttc (0 is JP)
#: Characters that join the run they are in when its font has them (so "，" stays Chinese and
#: Thai marks stay on their base): spaces, punctuation, combining marks, format characters.
NEUTRAL = frozenset({"Zs", "Po", "Pd", "Ps", "Pe", "Pi", "Pf", "Mn", "Mc", "Me", "Cf"})


class FontMissing(RuntimeError):
    """A font file the kiosk needs is not installed (install the Debian package named)."""


@dataclass(frozen=True)
class FaceSource:
    name: str
    regular: Path
    bold: Path
    package: str
    ttc_index: int | None = None  # a face inside a collection, extracted to the cache
    synthetic_bold: bool = False  # bold drawn by emboldening the regular face (one open face, not two)


def debian_faces() -> list[FaceSource]:
    """The chain, in order, with the Debian package that ships each file."""
    return [
        FaceSource("latin", NOTO / "NotoSans-Regular.ttf", NOTO / "NotoSans-Bold.ttf", "fonts-noto-core"),
        FaceSource("thai", TLWG / "Loma.ttf", TLWG / "Loma-Bold.ttf", "fonts-thai-tlwg"),
        FaceSource("sc", NOTO_CJK / "NotoSansCJK-Regular.ttc", NOTO_CJK / "NotoSansCJK-Regular.ttc",
                   "fonts-noto-cjk", SC_FACE, synthetic_bold=True),
        FaceSource("symbols", NOTO / "NotoSansSymbols2-Regular.ttf", NOTO / "NotoSansSymbols2-Regular.ttf",
                   "fonts-noto-core", synthetic_bold=True),
    ]


def default_cache_dir(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ) if env is None else env
    base = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".cache")
    return Path(base) / "companion" / "fonts"


def _tag(path: Path, extra: str) -> str:
    stat = path.stat()
    return hashlib.sha1(f"{path}:{stat.st_size}:{stat.st_mtime_ns}:{extra}".encode()).hexdigest()[:12]


def coverage_file(font: Path, cache_dir: Path) -> Path:
    """The code points `font` maps, as ranges in a JSON file in `cache_dir` (made once, in a child:
    fontTools would leave the parsed table in the kiosk's process)."""
    target = cache_dir / f"{font.stem}-{_tag(font, 'cmap')}.cmap.json"
    if not target.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "companion.drawing.fonts", "--cmap", str(font), str(target)],
                       check=True)
    return target


def write_coverage(font: Path, target: Path) -> None:
    """Write the ranges [first, last] of the code points of `font`'s best Unicode map to `target`."""
    from fontTools.ttLib import TTFont

    tt = TTFont(str(font), lazy=True)
    try:
        points = sorted((tt.getBestCmap() or {}).keys())
    finally:
        tt.close()
    ranges: list[list[int]] = []
    for cp in points:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    with os.fdopen(fd, "w") as out:
        json.dump(ranges, out, separators=(",", ":"))
    os.chmod(tmp, 0o644)
    os.replace(tmp, target)


def extract_face(collection: Path, index: int, cache_dir: Path) -> Path:
    """The face `index` of a .ttc as its own font file in `cache_dir` (made once, atomically).

    fontTools runs in a child process: parsing a CJK font leaves ~50 MB in the process that did it,
    which the kiosk should not carry all night.
    """
    target = cache_dir / f"{collection.stem}-{index}-{_tag(collection, str(index))}.otf"
    if not target.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "companion.drawing.fonts", str(collection), str(index), str(target)],
                       check=True)
    return target


def write_face(collection: Path, index: int, target: Path) -> None:
    """Write face `index` of `collection` to `target` (through a temporary file, then renamed)."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(collection), fontNumber=index, lazy=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            font.save(out)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        font.close()
        if os.path.exists(tmp):
            os.unlink(tmp)


@dataclass
class Face:
    """One font of the chain: its files (bold and regular) and what it covers, read lazily.

    With a `cache_dir`, coverage comes from the face's character map as code-point ranges
    (`coverage_file`), read when the face is first asked about a character. Without one (a face made
    by hand), FreeType is asked per character (`pygame.freetype` returns no metrics for a glyph the
    font lacks). Answers are remembered either way.
    """

    name: str
    regular: Path
    bold: Path
    synthetic_bold: bool = False
    cache_dir: Path | None = None
    _starts: list[int] | None = field(default=None, repr=False)
    _ends: list[int] = field(default_factory=list, repr=False)
    _probe: pygame.freetype.Font | None = field(default=None, repr=False)
    _known: dict[str, bool] = field(default_factory=dict, repr=False)

    def covers(self, ch: str) -> bool:
        known = self._known.get(ch)
        if known is None:
            known = self._ask(ord(ch)) if self.cache_dir is not None else self._ask_freetype(ch)
            self._known[ch] = known
        return known

    def _ask(self, cp: int) -> bool:
        if self._starts is None:
            assert self.cache_dir is not None
            ranges = json.loads(coverage_file(self.regular, self.cache_dir).read_text())
            self._starts, self._ends = [r[0] for r in ranges], [r[1] for r in ranges]
        i = bisect.bisect_right(self._starts, cp) - 1
        return i >= 0 and cp <= self._ends[i]

    def _ask_freetype(self, ch: str) -> bool:
        if self._probe is None:
            if not pygame.freetype.get_init():
                pygame.freetype.init()
            self._probe = pygame.freetype.Font(str(self.regular), size=12)
        return self._probe.get_metrics(ch)[0] is not None


def load_chain(cache_dir: Path, sources: list[FaceSource] | None = None) -> list[Face]:
    """The chain's faces, extracting collection faces into `cache_dir`; FontMissing names the package."""
    faces = []
    for src in sources or debian_faces():
        for path in (src.regular, src.bold):
            if not path.exists():
                raise FontMissing(f"{path} is missing: install the Debian package {src.package}")
        if src.ttc_index is not None:
            regular = extract_face(src.regular, src.ttc_index, cache_dir)
            bold = regular if src.bold == src.regular else extract_face(src.bold, src.ttc_index, cache_dir)
            faces.append(Face(src.name, regular, bold, src.synthetic_bold, cache_dir))
        else:
            faces.append(Face(src.name, src.regular, src.bold, src.synthetic_bold, cache_dir))
    return faces


@dataclass(frozen=True)
class Run:
    face: int  # index into the chain
    text: str


def split_runs(text: str, chain: list[Face], missing: set[str] | None = None) -> list[Run]:
    """`text` as runs, each in the first face that has its characters.

    A neutral character (space, punctuation, a combining mark) stays in the current run when that
    face has it. A character no face has goes to face 0 (it will be tofu) and into `missing`.
    """
    runs: list[Run] = []
    face, chars = -1, []
    for ch in text:
        if face >= 0 and unicodedata.category(ch) in NEUTRAL and chain[face].covers(ch):
            chars.append(ch)
            continue
        chosen = next((i for i, f in enumerate(chain) if f.covers(ch)), None)
        if chosen is None:
            if missing is not None and not ch.isspace():
                missing.add(ch)
            chosen = face if face >= 0 else 0
        if chosen != face and chars:
            runs.append(Run(face, "".join(chars)))
            chars = []
        face = chosen
        chars.append(ch)
    if chars:
        runs.append(Run(face, "".join(chars)))
    return runs


if __name__ == "__main__":  # python -m companion.drawing.fonts COLLECTION INDEX TARGET (see extract_face)
    if sys.argv[1] == "--cmap":  # python -m companion.drawing.fonts --cmap FONT TARGET (see coverage_file)
        write_coverage(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        write_face(Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
