"""What every search returns: the chosen action, its value and how the search got there."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic

from plies.games.protocol import A


@dataclass(frozen=True)
class SearchResult(Generic[A]):
    """The outcome of one search from one state.

    ``value`` is for the player to move at the searched state: +1 a proven win, -1 a
    proven loss, values in between are draws (0) or heuristic guesses.
    """

    #: The chosen action; None only when the searched state is terminal.
    action: A | None
    #: The value of ``action`` for the player to move at the root.
    value: float
    #: The expected line of play, starting with ``action``.
    pv: tuple[A, ...] = ()
    #: States visited (for MCTS: states touched by selection, expansion and playouts).
    nodes: int = 0
    #: Alpha-beta cutoffs (a move refuted before its siblings were searched).
    cutoffs: int = 0
    #: Transposition-table probes that found a usable entry.
    tt_hits: int = 0
    #: Wall-clock seconds spent.
    seconds: float = 0.0
    #: Depth of the last completed search (plies); MCTS reports its tree's depth.
    depth: int = 0
    #: MCTS playouts (0 for the depth-first searches).
    iterations: int = 0
    #: Whether the value is exact: the search saw every line to its end.
    exact: bool = field(default=False)


#: A principal variation as a linked list, cheap to extend at every node: (action, rest).
Line = tuple[A, "Line[A]"] | None


def unroll(line: Line[A]) -> tuple[A, ...]:
    """Turn a linked :data:`Line` into a tuple of actions."""
    out: list[A] = []
    while line is not None:
        action, line = line
        out.append(action)
    return tuple(out)
