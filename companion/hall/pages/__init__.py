"""The hall's pages: the hall screen, spectators, the league standings and the organiser's seating."""
