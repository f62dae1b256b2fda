"""Matches between agents and UCI engines: clocks, paired openings, Elo and SPRT, PGN, clusters."""
