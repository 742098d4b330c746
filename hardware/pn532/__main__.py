"""`python -m hardware.pn532`: run a PN532 emulator, or send it a command (see hardware.pn532.control)."""

import sys

from hardware.pn532.control import main

sys.exit(main())
