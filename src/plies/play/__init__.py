"""Playing a game against the computer: the game session, and the terminal's front end.

- ``human_game``: one game of a person against a computer side (board, moves, taking back,
  endings, the PGN record); the terminal and the browser (:mod:`plies.web.play`) both
  keep their game in it;
- ``session``: the terminal's loop (``plies play``), its commands (undo, hint, flip, pgn...);
- ``render``: the board in Unicode with colours, or in plain letters.
"""
