"""The ``UCI_Elo`` scale plies offers: its range and default, on Stockfish 15.1's scale.

One home for the numbers that both the strength-limited engine
(``plies.engine.strength``) and the UCI loop's option declaration use; it
imports nothing, so the loop can declare ``UCI_Elo`` before numba loads.
The range is what ``benchmarks/calibrate_elo.py`` measured (README, UCI section).
"""

MIN_ELO = 1350
"""The weakest level offered (Stockfish 15.1's lowest ``UCI_Elo`` too)."""
MAX_ELO = 2200
"""The top of the scale: the engine at full strength (only its clock limits it).

At 10+0.1 on an otherwise idle 2-core machine, full strength scored 45.0%
against Stockfish 15.1 at ``UCI_Elo`` 2200 (40 games) and 71.2% against 2000
(40 games). Under a load average of 14 the same engine had scored 20% at 2200:
the top of the scale needs the machine to itself."""
DEFAULT_ELO = 1800
"""``UCI_Elo`` before a GUI sets it."""
