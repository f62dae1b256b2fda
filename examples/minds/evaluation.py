"""Material and piece-square tables: how good a position looks, in centipawns, for White.

Shared by minimax2.py and alphabeta4.py.  The tables are written as small formulas
(centre, advance, king shelter) rather than 64 numbers each.
"""

from plies.board import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE

VALUE = {PAWN: 100, KNIGHT: 320, BISHOP: 330, ROOK: 500, QUEEN: 900, KING: 0}
MATE = 100_000


def square_bonus(piece_type, square, color):
    """The piece-square table entry: what standing on ``square`` is worth to this piece."""
    file, rank = square % 8, square // 8
    if color != WHITE:
        rank = 7 - rank  # tables are written from White's side
    centre = 3 - max(abs(2 * file - 7), abs(2 * rank - 7)) // 2  # 0 at the rim, 3 in the middle
    if piece_type == PAWN:
        return 10 * rank - 10 + (10 if 2 <= file <= 5 and rank >= 3 else 0)
    if piece_type in (KNIGHT, BISHOP):
        return 10 * centre - 15
    if piece_type == ROOK:
        return 15 if rank == 6 else 0
    if piece_type == QUEEN:
        return 5 * centre
    return 20 if rank == 0 and file in (1, 2, 6) else -10 * rank  # king: stay home, castled


def evaluate(board):
    """The position's score for the side to move (checkmate and stalemate included)."""
    if not board.legal_moves:
        return -MATE if board.is_check() else 0
    score = 0
    for square, piece in board.piece_map().items():
        value = VALUE[piece.piece_type] + square_bonus(piece.piece_type, square, piece.color)
        score += value if piece.color == WHITE else -value
    return score if board.turn == WHITE else -score
