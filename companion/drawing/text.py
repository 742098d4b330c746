"""Cached text: a string at a size becomes one surface, made of runs in the chain's fonts.

Opening a Font costs ~20 ms and rendering a line ~0.5 ms, so both are cached (fonts forever, lines in
a bounded LRU). Every line drawn is also recorded (`Drawn`: the text, the rectangle it went to, the
region it had to fit, and the surface), which the tests use to find clipped or missing glyphs and any
secret on a public screen.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

import pygame

from companion.drawing import breaks
from companion.drawing.fonts import Face, split_runs

Color = tuple[int, int, int]
Align = Literal["left", "center", "right"]
LINES_KEPT = 600
#: Pixels of rendered lines kept, in bytes: 600 lines of a screen full of Chinese and Thai were ~4 MiB
#: of surfaces, which the process keeps once allocated; 1 MiB holds the lines of the screen in use
#: (every screen drawn in zh then th kept 132 lines in 1.49 MiB; docs/performance.md, RSS row).
LINE_BYTES_KEPT = 2**20


@dataclass(frozen=True)
class Drawn:
    text: str
    rect: pygame.Rect  # where the text went on the screen
    region: pygame.Rect  # where it had to fit
    surface: pygame.Surface
    audience: str  # "public" or "player:<id>" (the booth)
    size: int = 0  # the font's pixel size it was drawn at (after shrinking to fit)
    widget: str = ""  # the kiosk region that drew it (TextCache.widget while it drew)


def _bytes(surf: pygame.Surface) -> int:
    return surf.get_pitch() * surf.get_height()


class TextCache:
    def __init__(self, chain: list[Face]) -> None:
        self.chain = chain
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._lines: OrderedDict[tuple[str, int, bool, Color], pygame.Surface] = OrderedDict()
        self._line_bytes = 0
        self._fits: dict[tuple[str, int, int, int | None, bool], int] = {}
        self._wraps: dict[tuple[str, int, int, bool, bool], list[str]] = {}
        self.dictionary = True  # Thai words from ICU where installed (False: breaks.pieces' own rules)
        self.missing: set[str] = set()  # characters no font of the chain has
        self.record: list[Drawn] | None = None  # set to a list to record what is drawn
        self.audience = "public"
        self.widget = ""  # the region being drawn (set by the kiosk's render), named in records
        self.cut: list[tuple[str, str]] = []  # (widget, first line left out) while recording: text cut short

    def note_cut(self, text: str) -> None:
        """A wrapped text ran out of room and `text` onwards was left out (recorded only)."""
        if self.record is not None:
            self.cut.append((self.widget, text))

    def font(self, face: int, size: int, bold: bool = False) -> pygame.font.Font:
        """The face's font set to `size`: one Font per face and weight, resized as needed (each open
        Font of the CJK face costs ~2.5 MB, and a screen uses a dozen sizes)."""
        f = self.chain[face]
        key = (face, bold and not f.synthetic_bold)
        font = self._fonts.get(key)
        if font is None:
            font = pygame.font.Font(str(f.bold if key[1] else f.regular), size)
            self._fonts[key] = font
        elif font.point_size != size:
            font.point_size = size
        if f.synthetic_bold and font.bold != bold:
            font.bold = bold  # one face for both weights: the caller uses it right away
        return font

    def forget_faces(self) -> None:
        """Close every open font and forget the lines rendered, measured and wrapped: at a change of
        language the old one's faces (the CJK face is the largest) and words go; the faces the new
        language draws open again as its words need them (~20 ms each, once)."""
        self._fonts.clear()
        self._lines.clear()
        self._line_bytes = 0
        self._fits.clear()
        self._wraps.clear()

    def render(self, text: str, size: int, color: Color, bold: bool = False) -> pygame.Surface:
        """One line of `text` (runs aligned on a common baseline), transparent background."""
        key = (text, size, bold, color)
        surf = self._lines.get(key)
        if surf is not None:
            self._lines.move_to_end(key)
            return surf
        runs = split_runs(text, self.chain, self.missing)
        parts = []
        for run in runs:
            font = self.font(run.face, size, bold)
            parts.append((font, font.render(run.text, True, color)))
        ascent = max((f.get_ascent() for f, _ in parts), default=size)
        descent = max((-f.get_descent() for f, _ in parts), default=0)
        height = max([ascent + descent, *(s.get_height() for _, s in parts)])
        surf = pygame.Surface((max(1, sum(s.get_width() for _, s in parts)), height), pygame.SRCALPHA)
        x = 0
        for font, part in parts:
            surf.blit(part, (x, ascent - font.get_ascent()))
            x += part.get_width()
        self._lines[key] = surf
        self._line_bytes += _bytes(surf)
        while len(self._lines) > 1 and (len(self._lines) > LINES_KEPT or self._line_bytes > LINE_BYTES_KEPT):
            self._line_bytes -= _bytes(self._lines.popitem(last=False)[1])
        return surf

    def fit(self, text: str, size: int, width: int, bold: bool = False, smallest: int = 10,
            height: int | None = None) -> int:
        """The largest size up to `size` at which `text` fits in `width` (and `height`) pixels."""
        key = (text, size, width, height, bold)
        fitted = self._fits.get(key)
        if fitted is not None:
            return fitted
        if len(self._fits) > LINES_KEPT:
            self._fits.clear()
        asked = size
        runs = split_runs(text, self.chain)
        while size > smallest:
            fonts = [self.font(r.face, size, bold) for r in runs]
            w = sum(f.size(r.text)[0] for f, r in zip(fonts, runs, strict=True))
            h = max((f.get_height() for f in fonts), default=0)
            if w <= width and (height is None or h <= height):
                break
            size = max(smallest, int(size * 0.9))
        self._fits[(text, asked, width, height, bold)] = size
        return size

    def draw(self, target: pygame.Surface, text: str, region: pygame.Rect, size: int, color: Color,
             bold: bool = False, align: Align = "left", shrink: bool = True) -> pygame.Rect:
        """Draw `text` in `region` (vertically centred), shrinking it to fit; returns where it went."""
        if shrink:
            size = self.fit(text, size, region.width, bold, height=region.height)
        surf = self.render(text, size, color, bold)
        rect = surf.get_rect()
        rect.centery = region.centery
        if align == "center":
            rect.centerx = region.centerx
        elif align == "right":
            rect.right = region.right
        else:
            rect.left = region.left
        target.blit(surf, rect)
        if self.record is not None:
            self.record.append(Drawn(text, rect.copy(), region.copy(), surf, self.audience, size, self.widget))
        return rect

    def draw_counter(self, target: pygame.Surface, text: str, region: pygame.Rect, size: int, color: Color,
                     bold: bool = True) -> pygame.Rect:
        """Draw a changing number ("12:05") centred in `region` from cached single characters, so a
        countdown renders nothing new each second. Sized once for its shape (every digit as "0";
        the digits of the Latin font are tabular, so the width does not jump)."""
        shape = "".join("0" if ch.isdigit() else ch for ch in text)
        size = self.fit(shape, size, region.width, bold, height=region.height)
        chars = [self.render(ch, size, color, bold) for ch in text]
        width = sum(c.get_width() for c in chars)
        height = max((c.get_height() for c in chars), default=0)
        rect = pygame.Rect(0, 0, width, height)
        rect.center = region.center
        whole = pygame.Surface(rect.size, pygame.SRCALPHA) if self.record is not None else None
        x = 0
        for surf in chars:
            target.blit(surf, (rect.left + x, rect.top))
            if whole is not None:
                whole.blit(surf, (x, 0))
            x += surf.get_width()
        if self.record is not None and whole is not None:
            self.record.append(Drawn(text, rect.copy(), region.copy(), whole, self.audience, size, self.widget))
        return rect

    def wrap(self, text: str, size: int, width: int, bold: bool = False) -> list[str]:
        """`text` broken into lines no wider than `width`, at break opportunities (`breaks.pieces`: between
        words, Thai words too where ICU is installed), never inside a grapheme cluster.

        Remembered (a line is measured once per break opportunity, so a long Chinese line costs as many
        measures as it has characters): a region redrawn with the same text does not measure it again."""
        key = (text, size, width, bold, self.dictionary)
        found = self._wraps.get(key)
        if found is None:
            if len(self._wraps) > LINES_KEPT:
                self._wraps.clear()
            found = self._wraps[key] = self._wrap(text, size, width, bold)
        return list(found)

    def _wrap(self, text: str, size: int, width: int, bold: bool) -> list[str]:
        if self._width(text.rstrip(), size, bold) <= width:  # fits whole: no break looked for (no ICU
            return [text.rstrip()] if text.strip() else []  # loaded for a short Thai name on a zh screen)
        lines: list[str] = []
        line = ""
        for chunk in self._fitting(breaks.pieces(text, self.dictionary), size, width, bold):
            trial = line + chunk
            if line.strip() and self._width(trial.rstrip(), size, bold) > width:
                lines.append(line.rstrip())
                line = chunk.lstrip()
            else:
                line = trial
        if line.strip():
            lines.append(line.rstrip())
        return lines

    def _fitting(self, chunks: list[str], size: int, width: int, bold: bool) -> list[str]:
        """The break opportunities, with a word wider than the whole line cut between its grapheme
        clusters (the last resort: a long Thai word in a narrow box, a URL)."""
        out: list[str] = []
        for chunk in chunks:
            if len(chunk) > 1 and self._width(chunk.rstrip(), size, bold) > width:
                out.extend(breaks.narrow(chunk))
            else:
                out.append(chunk)
        return out

    def width(self, text: str, size: int, bold: bool = False) -> int:
        """How wide `text` is on one line at `size` (measured, not rendered)."""
        return self._width(text, size, bold)

    def _width(self, text: str, size: int, bold: bool) -> int:
        return sum(self.font(r.face, size, bold).size(r.text)[0] for r in split_runs(text, self.chain))

