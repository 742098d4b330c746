"""The kiosk: the table's pygame screen (attract loop, setup, play, booth, reveal, host menu).

The kiosk owns the main thread; the Table's loop runs on its own thread and hands the kiosk public
views (and, while a booth is open, that one player's view) through `feed.KioskFeed`, which queues them
and wakes the kiosk's loop. Engine pieces: `fonts` (fallback chain by glyph coverage), `text` (cached,
recorded text), `layout` (one layout from 800x480 to 1920x1080), `wake` (a self-pipe), `sound`.
See docs/kiosk.md.
"""
