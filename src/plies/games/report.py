"""What a generic search reports: one :class:`~plies.engine.limits.Info`, its ``move`` the
game's action and its ``value`` the game value for the player to move (+1 a proven win)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plies.engine.limits import Info
from plies.games.line import Line, unroll
from plies.games.protocol import WIN


def report(
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
    """The search's :class:`Info`: the root's value, the line (its first action the move;
    none at the end of the game), the counts, and ``seconds`` as milliseconds and nodes per
    second."""
    return Info(
        move=pv[0] if pv else None,
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


def line_report(
    value: float, line: Line[Any], depth: int | None, nodes: int, seconds: float, horizon: bool
) -> Info:
    """Report a full-width search's root ``value`` and ``line``: exact unless an evaluation
    stood in for the game's end somewhere (``horizon``) and the value is no proven result."""
    pv = unroll(line)
    return report(
        value,
        pv,
        nodes=nodes,
        seconds=seconds,
        depth=len(pv) if depth is None else depth,
        exact=not horizon or abs(value) >= WIN,
    )
