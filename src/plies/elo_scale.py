"""The ``UCI_Elo`` scale plies offers: its range and default, on Stockfish 15.1's scale.

One home for the numbers that both the strength-limited engine
(``plies.engine.strength``) and the UCI loop's option declaration use; it
imports nothing, so the loop can declare ``UCI_Elo`` before numba loads.
The range is what ``benchmarks/calibrate_elo.py`` measured (README, UCI section).
"""

MIN_ELO = 1350
"""The weakest level offered (Stockfish 15.1's lowest ``UCI_Elo`` too)."""
MAX_ELO = 2000
"""The top of the scale: the engine at full strength (only its clock limits it).

At 10+0.1 on the shared 2-core machine (load average about 13), full strength
scored 58.8% against Stockfish 15.1 at ``UCI_Elo`` 2000 and 20% at 2200 (40
games each): 2000 is backed, 2200 is not."""
DEFAULT_ELO = 1800
"""``UCI_Elo`` before a GUI sets it."""
