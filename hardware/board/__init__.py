"""Reader board driver: an RP2040 (or any USB-serial board) with 1-8 readers speaking firmware_protocol."""

from hardware.board.driver import BoardDriver

__all__ = ["BoardDriver"]
