"""Nim as a reader writes it: piles of objects, take any number from one pile, last take wins.

No base class, no heuristic, no key, no picture: the protocol's required methods only.
"""


class Nim:
    """Normal-play Nim from the piles given (1, 3, 5 by default)."""

    def __init__(self, piles=(1, 3, 5)):
        """Start from ``piles``."""
        self.piles = tuple(piles)

    def initial_state(self):
        """Return (piles, player to move)."""
        return (self.piles, 0)

    def to_move(self, state):
        """Return the player to move."""
        return state[1]

    def actions(self, state):
        """Return every (pile, how many) that can be taken."""
        piles, _ = state
        return [(i, n) for i, size in enumerate(piles) for n in range(1, size + 1)]

    def result(self, state, action):
        """Take ``action[1]`` objects from pile ``action[0]``."""
        piles, player = state
        pile, taken = action
        left = list(piles)
        left[pile] -= taken
        return (tuple(left), 1 - player)

    def is_terminal(self, state):
        """Return whether every pile is empty."""
        return not any(state[0])

    def utility(self, state, player):
        """The player who took the last object won: the one not to move now."""
        return -1.0 if state[1] == player else 1.0


#: An instance, for the ``FILE.py:NAME`` form with an object.
small = Nim((1, 2))
