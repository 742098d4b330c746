"""The firmware's main loop, without the RP2040 glue: scan each reader, debounce buttons, run the protocol.

`Firmware(readers, board, buttons).step(now_ms)` does one round: every reader is asked for a card
(`MFRC522.read_uid`), each result goes to `Board.seen`/`Board.missed`, buttons are debounced, and
`Board.poll` sends heartbeats and resends. A reader that does not answer with a known version at
start-up is reported with READER_STATE (not ok) and retried every `retry_ms`; it is skipped
meanwhile. main.py builds this from machine.SPI/Pin; tests build it on a fake SPI bus.
Runs on MicroPython and CPython.
"""

try:
    from firmware_protocol.firmware.board import Board
    from firmware_protocol.firmware.mfrc522 import MFRC522, tag_type
except ImportError:  # on the board the files sit side by side
    from board import Board  # type: ignore  # (import-not-found or -untyped: Blinka ships a `board`)
    from mfrc522 import MFRC522, tag_type  # type: ignore


class Firmware:
    def __init__(
        self,
        readers: "list[MFRC522]",
        board: "Board",
        buttons: "list[object]" = (),  # type: ignore[assignment]
        debounce_ms: int = 20,
        retry_ms: int = 2000,
    ) -> None:
        self.readers = readers
        self.board = board
        self.buttons = list(buttons)  # machine.Pin with a pull-up: value() == 0 while pressed
        self.debounce_ms = debounce_ms
        self.retry_ms = retry_ms
        self.ok = [False] * len(readers)
        self.retry_at = [0] * len(readers)
        self.button_state = [False] * len(self.buttons)
        self.button_since = [0] * len(self.buttons)

    def setup(self, now_ms: int) -> None:
        """Initialise every reader; one that does not answer is reported as faulty."""
        for i in range(len(self.readers)):
            self.ok[i] = self.readers[i].init()
            self.retry_at[i] = now_ms + self.retry_ms
            if not self.ok[i]:
                self.board.reader_state(i, False)

    def _retry(self, i: int, now_ms: int) -> None:
        self.retry_at[i] = now_ms + self.retry_ms
        if self.readers[i].init():
            self.ok[i] = True
            self.board.reader_state(i, True)

    def step(self, now_ms: int) -> None:
        self.board.now = now_ms  # events queued during this round are stamped with this time
        for i in range(len(self.readers)):
            if not self.ok[i]:
                if now_ms >= self.retry_at[i]:
                    self._retry(i, now_ms)
                continue
            found = self.readers[i].read_uid()
            if found is None:
                self.board.missed(i)
            else:
                self.board.seen(i, found[0], tag_type(found[1]))
        for b in range(len(self.buttons)):
            pressed = self.buttons[b].value() == 0  # type: ignore[attr-defined]
            if pressed == self.button_state[b]:
                self.button_since[b] = now_ms
            elif now_ms - self.button_since[b] >= self.debounce_ms:
                self.button_state[b] = pressed
                self.button_since[b] = now_ms
                self.board.button(b, pressed)
        self.board.poll(now_ms)
