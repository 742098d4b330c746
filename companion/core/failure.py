"""An exception as the journal may show it: its type and where it was raised, never its message.

A message may quote what a phone sent ("'utf-8' codec can't encode character '\\ud800' ...") or a
secret the code was holding (a KeyError naming a role), and the journal is readable by whoever runs the
Pi. Every place that logs an unexpected exception from hostile input says it through `failure`.
"""

from __future__ import annotations

import os
import traceback


def failure(err: BaseException) -> str:
    """`TypeError at moves.py:42 in vote`: the type and the innermost frame, not the message."""
    frames = traceback.extract_tb(err.__traceback__)
    if not frames:
        return type(err).__name__
    last = frames[-1]
    return f"{type(err).__name__} at {os.path.basename(last.filename)}:{last.lineno} in {last.name}"
