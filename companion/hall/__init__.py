"""The hall: many tables, one league night (docs/hall.md)."""
