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

Coverage is asked of FreeType per character and remembered (see `Face`), only when the fonts before
it lack the character, so an English screen never even opens the CJK font.
"""

from __future__ import annotations

import hashlib
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


def debian_faces() -> list[FaceSource]:
    """The chain, in order, with the Debian package that ships each file."""
    return [
        FaceSource("latin", NOTO / "NotoSans-Regular.ttf", NOTO / "NotoSans-Bold.ttf", "fonts-noto-core"),
        FaceSource("thai", TLWG / "Loma.ttf", TLWG / "Loma-Bold.ttf", "fonts-thai-tlwg"),
        FaceSource("sc", NOTO_CJK / "NotoSansCJK-Regular.ttc", NOTO_CJK / "NotoSansCJK-Bold.ttc",
                   "fonts-noto-cjk", SC_FACE),
        FaceSource("symbols", NOTO / "NotoSansSymbols2-Regular.ttf", NOTO / "NotoSansSymbols2-Regular.ttf",
                   "fonts-noto-core"),
    ]


def default_cache_dir(env: dict[str, str] | None = None) -> Path:
    env = dict(os.environ) if env is None else env
    base = env.get("XDG_CACHE_HOME") or str(Path(env.get("HOME") or Path.home()) / ".cache")
    return Path(base) / "companion" / "fonts"


def extract_face(collection: Path, index: int, cache_dir: Path) -> Path:
    """The face `index` of a .ttc as its own font file in `cache_dir` (made once, atomically).

    fontTools runs in a child process: parsing a CJK font leaves ~50 MB in the process that did it,
    which the kiosk should not carry all night.
    """
    stat = collection.stat()
    tag = hashlib.sha1(f"{collection}:{stat.st_size}:{stat.st_mtime_ns}:{index}".encode()).hexdigest()[:12]
    target = cache_dir / f"{collection.stem}-{index}-{tag}.otf"
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
    """One font of the chain: its files (bold and regular) and what it covers, asked lazily.

    Coverage is asked of FreeType (`pygame.freetype` returns no metrics for a glyph the font lacks),
    one character at a time and remembered, so only the characters a screen shows are looked up;
    reading a whole CJK cmap with fontTools would cost ~35 MB.
    """

    name: str
    regular: Path
    bold: Path
    _probe: pygame.freetype.Font | None = field(default=None, repr=False)
    _known: dict[str, bool] = field(default_factory=dict, repr=False)

    def covers(self, ch: str) -> bool:
        known = self._known.get(ch)
        if known is None:
            if self._probe is None:
                if not pygame.freetype.get_init():
                    pygame.freetype.init()
                self._probe = pygame.freetype.Font(str(self.regular), size=12)
            known = self._probe.get_metrics(ch)[0] is not None
            self._known[ch] = known
        return known


def load_chain(cache_dir: Path, sources: list[FaceSource] | None = None) -> list[Face]:
    """The chain's faces, extracting collection faces into `cache_dir`; FontMissing names the package."""
    faces = []
    for src in sources or debian_faces():
        for path in (src.regular, src.bold):
            if not path.exists():
                raise FontMissing(f"{path} is missing: install the Debian package {src.package}")
        if src.ttc_index is not None:
            faces.append(Face(src.name, extract_face(src.regular, src.ttc_index, cache_dir),
                              extract_face(src.bold, src.ttc_index, cache_dir)))
        else:
            faces.append(Face(src.name, src.regular, src.bold))
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
    write_face(Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
