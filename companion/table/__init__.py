"""The running table: the one loop that owns the referee, and everything `companion run` puts around it.

- `loop`: `Table`, the main loop (inputs and device events in, deadlines, outputs told after a change);
- `views`: `Views`, every audience's view of one state, computed once and shared by every output;
- `clock`: the table's clock (steady against a wall clock that NTP sets mid-game);
- `opening`: the table from the config (the game to resume, or a new one);
- `console_input`: JSON lines from a stream (standard input) into the table.

Which outputs and starters `companion run` attaches, in which order, is `companion/wiring.py`, beside
this package rather than in it: every output builds on the table, and the wiring builds on every output,
so inside it the folders would use each other in a ring (tests/core/test_import_graph.py).
"""
