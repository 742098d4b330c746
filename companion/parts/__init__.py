"""Generic referee parts that every game can use: pure functions over plain, JSON-ready dicts."""
