# mypy: ignore-errors
"""Reference firmware for a Raspberry Pi Pico (RP2040) with 1-8 RC522 readers: copy to the board as main.py.

Wiring (edit the constants below to match yours): all readers share SPI0 (SCK GP18, MOSI GP19,
MISO GP16) and 3.3 V/GND; each reader's SDA/NSS pin goes to its own chip-select GPIO (CS_PINS, in
reader order 0, 1, ...); RST of every reader to 3.3 V. Buttons (optional) between a GPIO and GND.
The board talks protocol v1 (SPEC.md) over its USB serial port; flashing is in README.md.

Not importable on CPython (machine, micropython): the logic it wires is in board.py and scanner.py,
which the host tests run against a simulated MFRC522.
"""
# (main.py is MicroPython-only: machine/micropython do not exist on CPython, so mypy skips this file.)

import select
import sys
import time

import machine
import micropython
from board import Board
from mfrc522 import MFRC522
from scanner import Firmware

SPI_ID = 0
SCK, MOSI, MISO = 18, 19, 16
CS_PINS = (17, 20, 21, 22)  # one per reader, 1 to 8 of them
BUTTON_PINS = ()  # e.g. (2, 3)
LED_PIN = "LED"  # the Pico's own LED mirrors LED commands for reader 0 / all


def main() -> None:
    micropython.kbd_intr(-1)  # frames may hold 0x03: it must not stop the program as Ctrl-C
    spi = machine.SPI(SPI_ID, baudrate=1_000_000, sck=machine.Pin(SCK), mosi=machine.Pin(MOSI), miso=machine.Pin(MISO))
    readers = [MFRC522(spi, machine.Pin(pin, machine.Pin.OUT)) for pin in CS_PINS]
    buttons = [machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP) for pin in BUTTON_PINS]
    led = machine.Pin(LED_PIN, machine.Pin.OUT)
    out = sys.stdout.buffer
    board = Board(len(readers), machine.unique_id()[:8], out.write)
    board.on_led = lambda index, r, g, b, ms: led.value(1 if (index in (0, 0xFF) and (r or g or b)) else 0)
    firmware = Firmware(readers, board, buttons)
    incoming = select.poll()
    incoming.register(sys.stdin, select.POLLIN)
    now = 0  # a millisecond clock that does not wrap (ticks_ms wraps after ~12 days)
    last = time.ticks_ms()
    firmware.setup(now)
    board.boot(now)
    while True:
        while incoming.poll(0):
            board.received(sys.stdin.buffer.read(1))
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last)
        last = tick
        firmware.step(now)


main()
