"""Time management: how long to think, from the clock, increment and moves to go.

The budget follows Stockfish's ``timeman.cpp``: the time for the rest of the
game (to a horizon of ``mtg`` moves) is the clock plus the increments still to
come, *minus the move overhead for every one of those moves* (and two more in
reserve), because each move loses that much outside the engine's own clock
(the pipe, the GUI, the client's parsing).  The overhead is charged per move,
not once: charged once, a bullet clock with little left and a small increment
allows a hard ceiling the overheads alone exceed, and the clock drains.

Two limits come out: a soft target (the engine does not start an iteration it
expects to overrun; see ``Engine._deepen``) and a hard ceiling at which the
search is aborted.  The hard ceiling is a few soft targets, and never more
than a share of what the clock holds after one overhead, so even a search
that always runs to the ceiling leaves the clock positive, and converges to
spending what the increment brings (``tests/engine/test_timeman.py`` plays
thousands of simulated moves to check it).
"""

from __future__ import annotations

from dataclasses import dataclass

from plies.engine.limits import Limit
from plies.options import SLOW_MOVER

DEFAULT_SLOW_MOVER = SLOW_MOVER.spin_default()
"""Percent of the planned time per move to aim at before ``Slow Mover`` is set."""

SUDDEN_DEATH_HORIZON = 40
"""Moves planned for in sudden death; a fixed horizon keeps early moves from
spending too much while the increment carries the late game."""

MAX_HORIZON = 50
"""With ``movestogo``, never plan for more moves than this (as Stockfish)."""

SPARE_OVERHEADS = 10
"""Move overheads kept in reserve beyond one per planned move (Stockfish keeps 2):
a cushion for the rare move that loses far more than the overhead (a loaded
machine, a pause), at the price of a clock that settles a little higher in bullet."""

MAX_SOFT_SHARE = 0.2
"""The soft target never exceeds this share of the clock (a big increment
inflates the pool beyond what the clock holds now)."""

HARD_PER_SOFT = 4.0
"""The hard ceiling is at most this many soft targets."""

MAX_HARD_SHARE = 0.5
"""... and at most this share of the clock left after one move overhead."""

LAST_MOVE_SHARE = 0.8
"""With one move to go, the hard ceiling may use this share of the clock (less one overhead)."""

MIN_HARD_MS = 1.0
"""The hard ceiling when the pool is empty: time for a depth-one search..."""

PANIC_SHARE = 0.05
"""... or this share of the clock if that is less, so a nearly empty clock is
never spent at once: with the loss per move below the increment it then
settles a few milliseconds above zero instead of draining."""


STOP_SHARE = 1.4
"""After an iteration, stop if the time spent exceeds this share of the soft target
(scaled by ``Stability`` and ``node_scale``): the next iteration would take longer."""

NODE_SCALE_BASE = 1.5
"""``node_scale`` is (this - the best move's share of the root's nodes) ..."""

NODE_SCALE_GAIN = 1.35
"""... times this: 0.74 when the best move took 95% of the effort, 1.35 at 50%."""

NODE_SCALE_DEPTH = 6
"""Below this depth the node shares are too small to mean anything."""


def node_scale(best_nodes: int, root_nodes: int, depth: int) -> float:
    """Factor on the soft target from the share of the last root search's nodes spent on
    its best move: a move that took nearly all of it is settled, one that took little is not."""
    if depth < NODE_SCALE_DEPTH or root_nodes <= 0 or best_nodes <= 0:
        return 1.0
    share = min(1.0, best_nodes / root_nodes)
    return (NODE_SCALE_BASE - share) * NODE_SCALE_GAIN


@dataclass(frozen=True, slots=True)
class TimeBudget:
    """Soft target and hard ceiling for one move, in milliseconds (None: no limit)."""

    soft_ms: float | None
    """Do not start a new iteration past (a scaled) this."""
    hard_ms: float | None
    """Abort the search at this point, whatever it is doing."""


def allocate(
    limit: Limit, white_to_move: bool, overhead_ms: int, slow_mover: int = DEFAULT_SLOW_MOVER
) -> TimeBudget:
    """Time budget for one move under ``limit`` with ``overhead_ms`` lost per move outside,
    the soft target scaled by ``slow_mover`` percent."""
    if limit.infinite:
        return TimeBudget(None, None)
    if limit.movetime is not None:
        # "Search exactly movetime": no early stop, only the hard deadline.
        t = max(MIN_HARD_MS, float(limit.movetime - overhead_ms))
        return TimeBudget(None, t)
    own, other = (limit.wtime, limit.btime) if white_to_move else (limit.btime, limit.wtime)
    # Only the opponent's clock given (a confused GUI): assume ours is the same
    # rather than search without any limit.
    remaining = own if own is not None else other
    if remaining is None:
        return TimeBudget(None, None)
    inc = (limit.winc if white_to_move else limit.binc) or 0
    return clock_budget(
        float(max(remaining, 0)), float(max(inc, 0)), limit.movestogo, float(max(overhead_ms, 0)),
        slow_mover / 100.0,
    )  # fmt: skip


def clock_budget(
    remaining_ms: float,
    inc_ms: float,
    movestogo: int | None,
    overhead_ms: float,
    slow_mover: float = DEFAULT_SLOW_MOVER / 100.0,
) -> TimeBudget:
    """Soft target and hard ceiling for a clock of ``remaining_ms`` (the core of ``allocate``);
    ``slow_mover`` scales this move's share of the pool (1.0 as planned)."""
    mtg = min(movestogo, MAX_HORIZON) if movestogo else SUDDEN_DEATH_HORIZON
    mtg = max(1, mtg)
    # Step 1: the time the next mtg moves can use, each move paying its overhead.
    pool = remaining_ms + inc_ms * (mtg - 1) - overhead_ms * (mtg + SPARE_OVERHEADS)
    pool = max(0.0, pool)
    # Step 2: the soft target is this move's share of the pool.
    soft = min(slow_mover * pool / mtg, MAX_SOFT_SHARE * remaining_ms)
    # Step 3: the hard ceiling, a few soft targets but always well inside the clock.
    after_overhead = max(0.0, remaining_ms - overhead_ms)
    if mtg == 1:
        hard = LAST_MOVE_SHARE * after_overhead
    else:
        hard = min(HARD_PER_SOFT * soft, MAX_HARD_SHARE * after_overhead)
    hard = max(min(MIN_HARD_MS, PANIC_SHARE * remaining_ms), hard)
    return TimeBudget(min(soft, hard), hard)


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
