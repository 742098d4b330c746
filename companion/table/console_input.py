"""The console's input: each line of a stream (standard input, a pipe) is one JSON input to the table."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from companion.core.rejection import Rejected
from companion.table.loop import Reply, Table


def read_lines(stream: Any, table: Table, reply_for: Callable[[int], Reply]) -> threading.Thread:
    """A console adapter: each line of `stream` is one JSON input; EOF stops the table."""

    def pump() -> None:
        for number, line in enumerate(stream, start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            try:
                raw: Any = json.loads(text)
            except json.JSONDecodeError as err:
                raw = Rejected("reject.malformed", problem=f"not JSON: {err.msg}")
            table.put(raw, reply_for(number))
        table.stop()

    thread = threading.Thread(target=pump, name="console", daemon=True)
    thread.start()
    return thread
