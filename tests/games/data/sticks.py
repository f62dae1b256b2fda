"""Two stick games as a reader writes them, both with plain integers for actions.

No base class, no heuristic, no key, no picture: the protocol's required methods only.
"""


class Sticks:
    """A heap of 15 sticks: take 1, 2 or 3; whoever takes the last stick wins."""

    def __init__(self, sticks=15):
        """Start with ``sticks`` on the heap."""
        self.sticks = sticks

    def initial_state(self):
        """Return (sticks left, player to move)."""
        return (self.sticks, 0)

    def to_move(self, state):
        """Return the player to move."""
        return state[1]

    def actions(self, state):
        """Return how many sticks can be taken."""
        return [n for n in (1, 2, 3) if n <= state[0]]

    def result(self, state, action):
        """Take ``action`` sticks."""
        return (state[0] - action, 1 - state[1])

    def is_terminal(self, state):
        """Return whether the heap is empty."""
        return state[0] == 0

    def utility(self, state, player):
        """The player who took the last stick won: the one not to move now."""
        return -1.0 if state[1] == player else 1.0


class Pins:
    """A row of pins numbered from 0; a move knocks over a standing pin and its right-hand
    neighbour, named by the left one; whoever cannot move loses."""

    def __init__(self, pins=8):
        """Stand ``pins`` pins in a row."""
        self.pins = pins

    def initial_state(self):
        """Return (the standing pins, player to move)."""
        return (tuple(range(self.pins)), 0)

    def to_move(self, state):
        """Return the player to move."""
        return state[1]

    def actions(self, state):
        """Return every standing pin whose right-hand neighbour stands too."""
        standing = state[0]
        return [p for p in standing if p + 1 in standing]

    def result(self, state, action):
        """Knock over pins ``action`` and ``action + 1``."""
        standing = tuple(p for p in state[0] if p not in (action, action + 1))
        return (standing, 1 - state[1])

    def is_terminal(self, state):
        """Return whether no two neighbouring pins stand."""
        return not self.actions(state)

    def utility(self, state, player):
        """Whoever cannot move has lost."""
        return -1.0 if state[1] == player else 1.0
