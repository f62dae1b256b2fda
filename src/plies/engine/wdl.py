"""Win/draw/loss chances from a search score (``UCI_ShowWDL``).

The model is Stockfish's ``win_rate_model`` shape: the chance to win is a
logistic curve in the score, ``1 / (1 + exp((a - score) / b))``, the chance to
lose is the same curve at ``-score``, and a draw is what is left. ``a`` (the
score that wins half the time) and ``b`` (how steep the curve is) grow with
the material on the board, since a pawn is worth more in an endgame.

The coefficients were fitted by maximum likelihood to plies' own self-play
games (``tools/fit_wdl.py``): 331 games at 2,000 nodes per move, each opened
with 6 random plies, 32,801 positions from ply 16 on with |score| <= 15
pawns. The fit raised the mean log-likelihood of the results from -1.054
(ignoring the score) to -0.651. A small sample of fast games: scores of a
2,000-node search are noisy, which flattens the curves, and the material
terms rest on few endgames. Refit with more and longer games when they exist.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from plies.engine.score import Cp, Score

if TYPE_CHECKING:
    from plies.board import Board

# a = A0 + A1 * m and b = B0 + B1 * m, m = material / 58 (see ``material``).
A0, A1 = 225.6, -122.7
B0, B1 = 68.8, 130.2

MATERIAL_MIN = 17
"""Material below this is treated as this (the fit saw few such positions)."""
MATERIAL_MAX = 78
"""All pieces on the board: 16 pawns, 8 minors, 4 rooks, 2 queens."""
_MATERIAL_SCALE = 58.0
"""Material of the typical middlegame the model is normalised around."""
_PIECE_POINTS = {1: 1, 2: 3, 3: 3, 4: 5, 5: 9}
"""Points per piece type (pawn, knight, bishop, rook, queen); kings count nothing."""


def material(board: Board) -> int:
    """Material of both sides in pawn points (pawn 1, minor 3, rook 5, queen 9)."""
    return sum(_PIECE_POINTS.get(piece.piece_type, 0) for piece in board.piece_map().values())


def _win_rate(score_cp: float, material_points: int) -> float:
    """Chance (0..1) that the side with ``score_cp`` wins, given the material."""
    m = min(max(material_points, MATERIAL_MIN), MATERIAL_MAX) / _MATERIAL_SCALE
    a = max(A0 + A1 * m, 0.0)  # a >= 0 keeps P(win) + P(loss) <= 1
    b = max(B0 + B1 * m, 1.0)
    x = (a - score_cp) / b
    if x > 700:  # exp would overflow; the chance is 0 to double precision anyway
        return 0.0
    return 1.0 / (1.0 + math.exp(x))


def wdl(score: Score, material_points: int) -> tuple[int, int, int]:
    """Win, draw and loss per mille for the side ``score`` is from; the three sum to 1000."""
    if score.is_mate():
        return (1000, 0, 0) if score > Cp(0) else (0, 0, 1000)
    value = float(score.score() or 0)
    win = round(1000 * _win_rate(value, material_points))
    loss = min(round(1000 * _win_rate(-value, material_points)), 1000 - win)
    return win, 1000 - win - loss, loss
