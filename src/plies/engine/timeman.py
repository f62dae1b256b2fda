"""Time management: how long to think, from the clock, increment and moves to go."""

from __future__ import annotations

from dataclasses import dataclass

from plies.engine.limits import Limit

# Moves assumed left in a sudden-death game; a fixed horizon keeps early moves
# from spending too much while the increment carries the late game.
_HORIZON = 30


@dataclass(frozen=True, slots=True)
class TimeBudget:
    """Soft target and hard ceiling for one move, in milliseconds (None: no limit)."""

    soft_ms: float | None
    """Do not start a new iteration past (a scaled) this."""
    hard_ms: float | None
    """Abort the search at this point, whatever it is doing."""


def allocate(limit: Limit, white_to_move: bool, overhead_ms: int) -> TimeBudget:
    """Time budget for one move under ``limit`` with ``overhead_ms`` kept in reserve."""
    if limit.infinite:
        return TimeBudget(None, None)
    if limit.movetime is not None:
        # "Search exactly movetime": no early stop, only the hard deadline.
        t = max(1.0, float(limit.movetime - overhead_ms))
        return TimeBudget(None, t)
    remaining = limit.wtime if white_to_move else limit.btime
    if remaining is None:
        return TimeBudget(None, None)
    inc = (limit.winc if white_to_move else limit.binc) or 0
    available = max(1.0, float(remaining - overhead_ms))
    moves_left = min(limit.movestogo, 50) if limit.movestogo else _HORIZON
    moves_left = max(1, moves_left)
    soft = available / moves_left + 0.75 * inc
    # With one move to go the whole clock may be used; otherwise keep a reserve.
    hard = available * 0.9 if moves_left == 1 else min(available * 0.35, soft * 5.0)
    # Low on time: never plan past a fraction of what is left.
    hard = max(1.0, min(hard, available * 0.8))
    soft = max(1.0, min(soft, hard))
    return TimeBudget(soft, hard)


@dataclass(slots=True)
class Stability:
    """Tracks best-move changes and score drops between iterations to scale the soft limit."""

    best_move: int = 0
    """Core code of the last iteration's best move."""
    changes: float = 0.0
    """Decaying count of best-move changes."""
    last_score: int | None = None
    """The last iteration's score."""
    scale: float = 1.0
    """Current factor applied to the soft limit."""

    def update(self, move: int, score: int, depth: int) -> float:
        """Record an iteration; return the factor for the soft limit."""
        if depth > 1 and move != self.best_move:
            self.changes += 1.0
        self.changes *= 0.6
        self.best_move = move
        drop = 0 if self.last_score is None else self.last_score - score
        self.last_score = score
        factor = 0.7 + 0.9 * self.changes
        if drop > 30:
            factor *= 1.0 + min(drop, 200) / 200.0
        self.scale = max(0.5, min(factor, 2.5))
        return self.scale
