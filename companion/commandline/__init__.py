"""The command line's help with games: what a game takes (`companion games ID`), and the nearest names
when a game id, an option or an option's value is mistyped. Its text is in `locale/` (en, zh, th)."""
