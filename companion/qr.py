"""QR codes of join links (python-qrcode): the matrix of modules, and its drawing on a terminal.

One place chooses how a code is made, so the kiosk's codes and the host terminal's are the same:
error correction **M** (a phone reads a code off a screen at an angle), raised to Q or H when the text
still fits the same version (the code stays as large, and survives more glare). `qrcode` is pure Python
and imports only the standard library's basics (no `xml`, `urllib.request`, `email` or `ssl`, which
cost the kiosk's process about 2.6 MiB of RSS with the previous library; docs/perf/rss.md).
"""

from __future__ import annotations

from typing import TextIO

import qrcode
from qrcode.constants import ERROR_CORRECT_H, ERROR_CORRECT_M, ERROR_CORRECT_Q
from qrcode.exceptions import DataOverflowError

STANDARD_QUIET = 4  # modules of light border the QR standard asks for

Matrix = list[list[bool]]  # rows of modules, True for dark, the quiet zone included


def _code(text: str, level: int, border: int, version: int | None = None) -> qrcode.QRCode:
    code = qrcode.QRCode(version=version, error_correction=level, border=border)
    code.add_data(text)
    code.make(fit=version is None)
    return code


def matrix(text: str, border: int = STANDARD_QUIET) -> Matrix:
    """The modules of `text`'s QR code with `border` light modules around (level M, raised if free)."""
    code = _code(text, ERROR_CORRECT_M, border)
    for level in (ERROR_CORRECT_H, ERROR_CORRECT_Q):  # the strongest level that keeps the version
        try:
            code = _code(text, level, border, version=code.version)
            break
        except DataOverflowError:
            continue
    return [[bool(dark) for dark in row] for row in code.get_matrix()]


def terminal(modules: Matrix, out: TextIO) -> None:
    """The code in half-block characters, two rows of modules per line, light modules drawn (for a
    terminal's dark background; a camera reads the code dark on light). An odd last row pads dark."""
    blocks = {(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}
    for top in range(0, len(modules), 2):
        upper = modules[top]
        lower = modules[top + 1] if top + 1 < len(modules) else [True] * len(upper)
        out.write("".join(blocks[(a, b)] for a, b in zip(upper, lower, strict=True)) + "\n")
