"""What a generic search reports: one :class:`~plies.engine.limits.Info`, its ``move`` the
game's action and its ``value`` the game value for the player to move (+1 a proven win)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plies.engine.limits import Info

#: Nodes between two looks at the meter's stop request when no limit needs each node
#: ticked (the look costs more than a quick game's node).
POLL_EVERY = 1024


def report(
    action: Any,
    value: float,
    pv: Sequence[Any] = (),
    nodes: int = 0,
    seconds: float = 0.0,
    depth: int = 0,
    exact: bool = False,
    cutoffs: int = 0,
    tt_hits: int = 0,
    iterations: int = 0,
) -> Info:
    """The search's :class:`Info`: ``action`` (None at the end of the game) and its value,
    the line, the counts, and ``seconds`` as milliseconds and nodes per second."""
    return Info(
        move=action,
        pv=list(pv),
        value=value + 0.0,  # turns a negated draw's -0.0 into 0.0
        exact=exact,
        depth=depth,
        nodes=nodes,
        nps=round(nodes / seconds) if seconds > 0 else 0,
        time_ms=round(seconds * 1000),
        cutoffs=cutoffs,
        tt_hits=tt_hits,
        iterations=iterations,
    )
