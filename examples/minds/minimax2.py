"""Minimax to depth 2 (in its negamax form) over material and piece-square tables.

Play it:  plies arena examples/minds/minimax2.py capture --games 10 --depth 1
"""

from evaluation import MATE, evaluate

DEPTH = 2


def negamax(board, depth):
    """The value of ``board`` for the side to move, looking ``depth`` plies ahead."""
    moves = board.legal_moves
    if depth == 0 or not moves:
        return evaluate(board)
    best = -MATE - 1
    for move in moves:
        board.push(move)
        best = max(best, -negamax(board, depth - 1))
        board.pop()
    return best


def choose(board):
    """The move with the best minimax value."""
    best_move, best = None, -MATE - 1
    for move in board.legal_moves:
        board.push(move)
        value = -negamax(board, DEPTH - 1)
        board.pop()
        if value > best:
            best_move, best = move, value
    return best_move
