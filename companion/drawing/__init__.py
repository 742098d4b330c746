"""Drawing for every picture on the table's screen: fonts, text, the canvas, small marks (no kiosk, no game)."""
