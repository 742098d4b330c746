"""The PN532 NFC reader on a UART (HSU), e.g. the Pi's /dev/serial0: our own framer and driver.

- `frames`: the HSU frame format, encoder and resynchronising decoder (no I/O).
- `targets`: InListPassiveTarget replies, parsed strictly.
- `presence`: tap vs place, the same-tag repeat window, removal (no I/O, no clock of its own).
- `driver`: `Pn532Driver`, a `hardware.events.ReaderDriver` over `hardware.serial_link.SerialLink`.
- `emulator`: a PN532 on a pseudo-terminal, for tests, benchmarks and a laptop without a reader.
"""
