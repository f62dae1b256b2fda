"""Games that each break one rule of the ``Game`` protocol (and one that breaks none).

The base game counts up: each player adds 1 or 2 to a running total; whoever reaches
``TARGET`` wins. States are lists ``[total, player]`` so that a ``result`` can mutate them.
"""

TARGET = 6


class CountingGame:
    """A sound game: every breach below is one change to it."""

    def initial_state(self):
        """Return total 0, player 0 to move."""
        return [0, 0]

    def to_move(self, state):
        """Return the player to move."""
        return state[1]

    def actions(self, state):
        """Return the amounts that can be added (none at the end)."""
        if self.is_terminal(state):
            return []
        return [n for n in (1, 2) if state[0] + n <= TARGET]

    def result(self, state, action):
        """Return a new state with ``action`` added."""
        return [state[0] + action, 1 - state[1]]

    def is_terminal(self, state):
        """Return whether the target is reached."""
        return state[0] >= TARGET

    def utility(self, state, player):
        """The player who reached the target (not the one to move) wins."""
        return -1.0 if state[1] == player else 1.0

    def evaluate(self, state, player):
        """Know nothing."""
        return 0.0

    def key(self, state):
        """Return the state as a tuple."""
        return tuple(state)

    def render(self, state):
        """Return the total and the mover."""
        return f"total {state[0]}, player {state[1] + 1} to move"


class NoActionsGame(CountingGame):
    """Offers nothing at total 3, which is not the end."""

    def actions(self, state):
        """Return no actions at 3."""
        return [] if state[0] == 3 else super().actions(state)


class ActionsAtEndGame(CountingGame):
    """Still offers actions after the end."""

    def actions(self, state):
        """Return 1 and 2 always."""
        return [1, 2]

    def result(self, state, action):
        """Add, past the target if asked."""
        return [state[0] + action, 1 - state[1]]


class MutatingGame(CountingGame):
    """``result`` changes the state it is given."""

    def result(self, state, action):
        """Add in place and return the same list."""
        state[0] += action
        state[1] = 1 - state[1]
        return state


class BigUtilityGame(CountingGame):
    """Scores a win as 100."""

    def utility(self, state, player):
        """Return +-100."""
        return 100 * super().utility(state, player)


class ProvenEvaluateGame(CountingGame):
    """A heuristic that claims a proven win."""

    def evaluate(self, state, player):
        """Return +1 before the end."""
        return 1.0


class IdentityKeyGame(CountingGame):
    """Keys states by identity, so equal states get different keys."""

    def key(self, state):
        """Return the object's id."""
        return id(state)


class EndlessGame(CountingGame):
    """Adds 0 or 1 modulo the target: it never reaches it."""

    def actions(self, state):
        """Return 0 and 1."""
        return [0, 1]

    def result(self, state, action):
        """Add modulo the target."""
        return [(state[0] + action) % TARGET, 1 - state[1]]


class RaisingGame(CountingGame):
    """``result`` raises at total 4."""

    def result(self, state, action):
        """Refuse to move from 4."""
        if state[0] == 4:
            raise RuntimeError("cannot move from 4")
        return super().result(state, action)


class BadMoverGame(CountingGame):
    """Numbers its players 1 and 2."""

    def to_move(self, state):
        """Return 1 or 2."""
        return state[1] + 1
