"""The tap sink of a table without a screen: prints what the screen would say, in the table's language.

The readers' starter uses it when it is handed no screen (companion/taps/starter.py).
"""

from __future__ import annotations

import threading
from typing import TextIO

from companion import i18n
from companion.core.rejection import Rejected
from companion.taps.sink import PUBLIC_REFUSALS


class ConsoleTapSink:
    def __init__(self, out: TextIO, lang: str, names: dict[str, str] | None = None) -> None:
        self.out, self.lang, self.names = out, lang, names or {}
        self._lock = threading.Lock()

    def player_tapped(self, player_id: str) -> None:
        self._say("tokens.player_tapped", player=self.names.get(player_id, player_id))

    def unknown_tag(self, uid: str, reader: str) -> None:
        self._say("tokens.unknown_tag", uid=uid, reader=reader)

    def token_refused(self, token_label: str, reason: Rejected) -> None:
        """The console is public (a log): a reason that may tell a secret becomes "not now" (see sink.py)."""
        if reason.code not in PUBLIC_REFUSALS:
            self._say("tokens.not_now", token=token_label)
            return
        self._say("tokens.refused", token=token_label, reason=i18n.describe(self.lang, reason.to_json()))

    def reader_status(self, reader: str, state: str) -> None:
        self._say("tokens.reader_status", reader=reader, state=i18n.translate(self.lang, f"reader.{state}"))

    def _say(self, msgid: str, **params: object) -> None:
        with self._lock:
            print(f"  » {i18n.translate(self.lang, msgid, params)}", file=self.out, flush=True)

