"""Where a line of text may break: between words, never inside a grapheme cluster.

Thai is written without spaces between words, so its break opportunities need a dictionary. Debian's
ICU (`libicuuc`, installed with libxml2 and most desktops) has one; it is called through ctypes (no
Python binding is installed), and only for a text that has Thai in it (`needs_dictionary`): loading
ICU's line breaker and its data costs the process about 2.3 MiB (docs/performance.md, "Pi Zero 2 W
budget"), which a Chinese or English table never pays. Every other text, and every text where ICU is
absent, is broken here: after spaces and dashes, and between any two CJK characters except before
a closing sign nor after an opening one (`CLOSING`, `OPENING`: the kinsoku rules of Chinese); a Thai
run too wide for its line is then cut between grapheme clusters (`clusters`), which may split a Thai
word but never a base from its marks.

Either way a piece never starts with a combining mark (Thai vowels above and below, tone marks, or
any Unicode mark), so a line can never begin with one.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re
import unicodedata
from collections.abc import Callable
from functools import cache

#: Thai signs that attach to the character before them: the vowels above/below and the tone marks
#: (U+0E31, U+0E34-0E3A, U+0E47-0E4E), plus the following vowels and repeat sign no line may begin with.
THAI_MARKS = "\u0e31" + "".join(map(chr, range(0x0E34, 0x0E3B))) + "".join(map(chr, range(0x0E47, 0x0E4F)))
THAI_FOLLOWING = "\u0e30\u0e32\u0e33\u0e45\u0e46"
THAI_LEADING = "\u0e40\u0e41\u0e42\u0e43\u0e44"
#: Kinsoku: no line may begin with these (closing brackets and quotes, stops and commas, the ellipsis,
#: the middle dot, the iteration marks), nor end with an `OPENING` sign.
CLOSING = "，。、：；！？）」』】〉》〕〗〙〛｝］”’…‥·・〜～々〻ー,.:;!?)]}%"
OPENING = "（「『【〈《〔〖〘〚｛［“‘([{"
UBRK_LINE = 2


def attaches(ch: str) -> bool:
    """True for a character that belongs to the one before it (no break may come before it)."""
    return ch in THAI_MARKS or ch in THAI_FOLLOWING or unicodedata.category(ch) in ("Mn", "Mc", "Me") \
        or ch in "\u200d\ufe0f"


def pieces(text: str, dictionary: bool = True) -> list[str]:
    """`text` cut at its break opportunities: each piece keeps its trailing spaces. With `dictionary`
    (the default) a text with Thai in it goes through ICU's line breaker where it is installed."""
    found = _icu_pieces(text) if dictionary and needs_dictionary(text) else None
    return _attached(found if found is not None else _own_pieces(text))


def needs_dictionary(text: str) -> bool:
    """True for a text with Thai letters in it (the only script here whose words need a dictionary)."""
    return any("\u0e00" <= ch <= "\u0e7f" for ch in text)


def clusters(text: str) -> list[str]:
    """Grapheme clusters: a base with the marks that follow it (the last-resort break points)."""
    out: list[str] = []
    for ch in text:
        if out and (attaches(ch) or out[-1][-1] == "\u200d"):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def narrow(text: str) -> list[str]:
    """The last-resort pieces of a word wider than its line: its grapheme clusters, a closing
    punctuation sign kept with the cluster before it and an opening one with the cluster after it."""
    out: list[str] = []
    for cluster in clusters(text):
        if out and (cluster[0] in CLOSING or cluster[0].isspace() or _opens(out[-1])):
            out[-1] += cluster
        else:
            out.append(cluster)
    return out


def _attached(found: list[str]) -> list[str]:
    out: list[str] = []
    for piece in found:
        if out and piece and (attaches(piece[0]) or piece[0] in CLOSING or out[-1][-1] in THAI_LEADING
                              or _opens(out[-1])):
            out[-1] += piece
        elif piece:
            out.append(piece)
    return out


def _opens(piece: str) -> bool:
    """True when `piece` ends with an opening sign, spaces after it aside ("（ " keeps to what follows)."""
    last = piece.rstrip()
    return bool(last) and last[-1] in OPENING


def _cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" or "\uf900" <= ch <= "\ufaff"


def _own_pieces(text: str) -> list[str]:
    """Break opportunities without a dictionary: after spaces and dashes, around CJK characters (no
    break before closing nor after opening punctuation). A Thai run is one piece: the wrap cuts it
    between grapheme clusters only when it is wider than the line."""
    out: list[str] = []
    for cluster in clusters(text):
        ch = cluster[0]
        if not out:
            out.append(cluster)
            continue
        prev = out[-1][-1]
        may_break = (
            (prev.isspace() and not ch.isspace())
            or ((_cjk(ch) or _cjk(prev)) and not ch.isspace())
            or (prev in "-/" and ch.isalnum())
        )
        if may_break and ch not in CLOSING and not _opens(out[-1]) and prev not in THAI_LEADING:
            out.append(cluster)
        else:
            out[-1] += cluster
    return out


_Breaker = tuple[Callable[..., int], Callable[..., int], Callable[..., None]]


@cache
def _icu() -> _Breaker | None:
    """ICU's ubrk_open/ubrk_next/ubrk_close from the system's libicuuc, or None where it is absent."""
    name = ctypes.util.find_library("icuuc")
    if name is None:
        return None
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return None
    version = re.search(r"\.so\.(\d+)", name)
    for suffix in ([f"_{version.group(1)}"] if version else []) + [""]:
        try:
            open_, next_, close = (getattr(lib, f"ubrk_{f}{suffix}") for f in ("open", "next", "close"))
        except AttributeError:
            continue
        open_.restype, open_.argtypes = ctypes.c_void_p, [ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p,
                                                           ctypes.c_int32, ctypes.POINTER(ctypes.c_int)]
        next_.restype, next_.argtypes = ctypes.c_int32, [ctypes.c_void_p]
        close.restype, close.argtypes = None, [ctypes.c_void_p]
        return open_, next_, close
    return None


def _icu_pieces(text: str) -> list[str] | None:
    breaker = _icu()
    if breaker is None or not text:
        return None
    open_, next_, close = breaker
    data = text.encode("utf-16-le", "surrogatepass")  # a lone surrogate (JSON allows "\\ud800") too
    status = ctypes.c_int(0)
    handle = open_(UBRK_LINE, b"th", data, len(data) // 2, ctypes.byref(status))
    if not handle or status.value > 0:  # a positive UErrorCode is a failure (negative ones are warnings)
        return None
    try:
        ends = []
        while (end := next_(handle)) != -1:
            ends.append(end)
    finally:
        close(handle)
    out, start = [], 0
    for end in ends:  # UTF-16 offsets: a character beyond the BMP counts twice
        out.append(data[start * 2:end * 2].decode("utf-16-le", "surrogatepass"))
        start = end
    return out if "".join(out) == text else None
