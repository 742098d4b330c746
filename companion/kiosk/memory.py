"""Handing freed memory back to the system (issue 20: a Pi Zero 2 W has 512 MB for everything).

glibc keeps the memory a process frees at the top of its heaps for the next allocation; start-up
(imports, the first screen's fonts and words, the catalogs parsed) frees a good deal of it, which the
kiosk would then carry all night. `give_back` asks glibc to return it (`malloc_trim(0)`, about a
millisecond): the kiosk calls it after its first frame and after the first frame in a new language
(when the old language's faces and lines were let go). Elsewhere than glibc it does nothing.

`MALLOC_ARENA_MAX=2` (fewer per-thread arenas) was measured in the load bench and changed nothing
(maximum RSS 69.5 MiB with and without it), so the systemd unit does not set it (docs/performance.md).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:  # the symbols already loaded in the process (the C library among them): no search, no subprocess
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None
    return trim


def give_back() -> bool:
    """Return the free memory at the top of glibc's heaps to the system; False where there is no glibc."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
