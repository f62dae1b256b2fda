"""One step up: take something whenever possible, otherwise move at random.

Play it:  plies arena examples/minds/capture_first.py random --games 10 --depth 1
"""

import random


def choose(board):
    """A random capture if there is one, else a random legal move."""
    moves = board.legal_moves
    captures = [move for move in moves if board.is_capture(move)]
    return random.choice(captures or moves)
