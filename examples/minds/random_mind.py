"""The floor of the ladder: any legal move, all equally likely.

Play it:  plies arena examples/minds/random_mind.py capture --games 10 --depth 1
"""

import random


def choose(board):
    """A uniformly random legal move."""
    return random.choice(board.legal_moves)
