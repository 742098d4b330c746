"""The league's maths (docs/hall-league.md): points, ratings, standings and seating; pure functions, no I/O, no clock.

Every function takes results as `companion.hall.protocol.parse_result` gives them (and the hall's store
keeps them), in the order the hall stored them.
"""
