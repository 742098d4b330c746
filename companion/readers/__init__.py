"""The table's NFC readers: opening the configured drivers (or emulators in their place) and the starter
that `companion run` uses to route their taps to the table (docs/readers.md)."""
