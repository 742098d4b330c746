"""The pure referee core: inputs, rejections, the game contract, the fold, and the event log."""
