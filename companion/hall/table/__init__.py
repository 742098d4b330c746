"""The table's side of the hall (issue 18, docs/hall.md): the bridge to the hall's central Mosquitto
(`bridge`), the finished games' results and the table's about (`results`), and the next round's
seating arriving from the hall (`seating`); `starter` wires them into `companion run`."""
