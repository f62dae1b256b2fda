"""A principal variation as the searches build it: a linked list, cheap to extend at a node."""

from __future__ import annotations

from plies.games.protocol import A

#: A line of play as a linked list: (action, rest), None at its end.
Line = tuple[A, "Line[A]"] | None


def unroll(line: Line[A]) -> list[A]:
    """Turn a linked :data:`Line` into a list of actions."""
    out: list[A] = []
    while line is not None:
        action, line = line
        out.append(action)
    return out
