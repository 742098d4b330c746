"""A child process's output read line by line on a thread of its own, and waited on for a line with one
overall deadline (however many other lines come first): what a person watching the terminal would see."""

from __future__ import annotations

import queue
import threading
import time
from typing import IO


class OutputLines:
    """The lines of `stream` as they come; `said` keeps every line waited past, for a failure's message."""

    def __init__(self, stream: IO[str], deadline_s: float) -> None:
        self.deadline_s = deadline_s
        self.said: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def wait_for(self, text: str) -> str:
        """The first line from here holding `text`; fails with what was said if none comes in time."""
        end = time.monotonic() + self.deadline_s
        while (left := end - time.monotonic()) > 0:
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.said.append(line)
            if text in line:
                return line
        raise AssertionError(f"never said {text!r}; said: {self.said}")

    def rest(self) -> list[str]:
        """Every line left until the stream ends (the process exited), kept in `said` too."""
        rest: list[str] = []
        while (line := self._lines.get(timeout=self.deadline_s)) is not None:
            rest.append(line)
        self.said.extend(rest)
        return rest
