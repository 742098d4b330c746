"""The play screen's pictures of the full games (Room 25's grid, Lockdown's buildings) and the booth's
lines for their private views. Registered in `companion.kiosk.boards`; drawn from the public view only.
"""
