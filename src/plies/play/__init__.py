"""The terminal game (``plies play``): a session against an agent, and how its board is drawn.

- ``session``: the game loop, its commands (undo, hint, flip, pgn...) and its PGN;
- ``render``: the board in Unicode with colours, or in plain letters.
"""
