"""Taps: a tag on a reader, followed from the device's event to the table, in one place.

The drivers and emulators themselves are in `hardware/` (they emit `hardware.events`); here is the
companion's side of a tap (docs/readers.md):

- `readers`: opening the configured readers (a driver each, or an emulator in its place);
- `registry`: the token registry, which token each tag UID is (SQLite, beside the game log);
- `kinds`: what a new tag can be enrolled as at this table;
- `router`: a tap -> the registry -> the screen, or an input to the referee through the game's `on_token`;
- `sink`: what the screen hears from the router (`TapSink`, and `TapScreen`, the kiosk's side);
- `console_sink`: the words of a table without a screen, on standard error;
- `starter`: the readers' starter of `companion run` (drivers -> the table's inbox -> the router);
- `command`: `companion tokens ...` (enroll, list, forget, export, import).
"""
