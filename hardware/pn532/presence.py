"""What one reader has on it, from the answers to its polls: tap vs place, repeat window, removal.

The rules a table expects (docs/readers.md):

- A new tag becomes `TagPlaced` only when `confirm` polls in a row read the same UID (the first
  sighting asks for the next poll at once, so this costs one round trip). A reply corrupted in a way
  the 8-bit checksums miss would have to repeat itself exactly to become a tap: never a false tap.
- A tag left on the reader is one event, however long it stays.
- It is gone after `misses` polls in a row saw no tag, and its `TagRemoved` is reported once it has
  stayed gone for `repeat_window` seconds; seen again within the window (lifted a hair, slid across
  the antenna) it never left: no removal, no second tap. After the window, the same tag is a new tap.
- A different tag replacing it removes it at once.
- A poll that got no usable answer (timeout, dropped frame, unplugged) says nothing either way.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.events import Emit, TagPlaced, TagRemoved


@dataclass
class _Seen:
    uid: str
    tag_type: str
    times: int = 1


class Presence:
    def __init__(self, reader: str, emit: Emit, *, slot: int = 0, confirm: int = 2, misses: int = 2,
                 repeat_window: float = 0.3) -> None:
        self.reader, self.slot, self._emit = reader, slot, emit
        self.confirm, self.misses, self.repeat_window = confirm, misses, repeat_window
        self.current: str | None = None  # the UID reported placed and not yet removed
        self._candidate: _Seen | None = None
        self._missed = 0
        self._gone_since: float | None = None

    def seen(self, uid: str | None, tag_type: str, now: float) -> bool:
        """One poll's answer (None: no tag). True when the next poll should be sent at once."""
        if uid is None:
            self._candidate = None
            if self.current is not None:
                self._missed += 1
                if self._missed >= self.misses and self._gone_since is None:
                    self._gone_since = now
            self.tick(now)
            return False
        if uid == self.current:
            self._missed, self._gone_since, self._candidate = 0, None, None
            return False
        if self._candidate is not None and self._candidate.uid == uid:
            self._candidate.times += 1
        else:
            self._candidate = _Seen(uid, tag_type)
        if self._candidate.times < self.confirm:
            return True
        if self.current is not None:
            self._emit(TagRemoved(self.reader, self.slot, self.current))
        self.current, self._candidate = uid, None
        self._missed, self._gone_since = 0, None
        self._emit(TagPlaced(self.reader, self.slot, uid, tag_type))
        return False

    def tick(self, now: float) -> None:
        """Report a removal whose repeat window has passed."""
        if self.current is not None and self._gone_since is not None and now - self._gone_since >= self.repeat_window:
            self._emit(TagRemoved(self.reader, self.slot, self.current))
            self.current, self._gone_since, self._missed = None, None, 0
