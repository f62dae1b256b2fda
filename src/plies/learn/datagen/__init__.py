"""Training positions from seeded self-play: ``plies datagen`` and the file format it writes.

Format (one position per line, UTF-8, ``\\n`` line ends)::

    FEN | result              (default)
    FEN | score | result      (with scores)

``FEN`` is the full six-field FEN of a position in which an engine moved;
``result`` is the game's result from White's side, written ``1.0``, ``0.5`` or
``0.0``; ``score`` is the mover's search score for that position turned to
White's side, in integer centipawns.  Fields are separated by `` | ``; a
reader splits on ``|``, takes the first field as the FEN, the last as the
result and a middle one, if present, as the score.  This is the layout Texel
tuners read (and what ``plies tune`` is to read).

Filters: positions before ply ``skip_plies`` of the game (the random opening
plies count), positions in check, positions whose played (best) move or whose
previous move is a capture or a promotion, and positions the mover scored as
a forced mate are not written.  Games lost by a player's fault (crash, hang,
illegal move, time) write nothing.

Resumption: game ``n`` (1, 2, ...) is played from a seed derived from the base
seed and ``n`` alone (:func:`plies.learn.datagen.selfplay.game_seed`), so any game
can be replayed on its own.  Games are appended in order, one flushed block
per game, and a small ``OUT.progress.json`` beside the output records the
settings, the number of games done and the byte length of the file after the
last complete game.  A re-run with the same settings truncates the file to
that length (dropping a game cut off mid-write) and continues with the next
game, so an interrupted and resumed run writes the same bytes as one that was
never interrupted.
"""

from __future__ import annotations

from plies.learn.datagen.output import DatagenFile, DatagenFileError
from plies.learn.datagen.positions import position_lines
from plies.learn.datagen.selfplay import DatagenSettings, game_seed, play_datagen_game
from plies.learn.lines import format_line, parse_line

__all__ = [
    "DatagenFile",
    "DatagenFileError",
    "DatagenSettings",
    "format_line",
    "game_seed",
    "parse_line",
    "play_datagen_game",
    "position_lines",
]
