"""``go perft N`` counted in small compiled pieces, so ``stop`` ends it within milliseconds.

The compiled perft holds the interpreter while it runs, and one call of depth
7 from the start position takes about a minute: the loop could neither read
``stop`` nor answer ``isready``.  Here the tree is walked in Python down to
subtrees small enough for one quick compiled call (estimated from the number
of moves), and the cancel flag is checked before each of them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plies.uci.jobs import Canceller

if TYPE_CHECKING:
    from plies.board import Board

MAX_CHUNK_LEAVES = 2_000_000
"""A subtree goes to the compiled perft in one call when ``moves ** depth`` is at
most this: a chunk short enough that ``stop`` is answered between chunks within
tens of milliseconds at the core's perft speed."""


@dataclass(frozen=True)
class PerftReport:
    """Leaf counts per root move (in the order counted) and whether the count finished."""

    counts: dict[str, int]
    complete: bool
    root_moves: int
    elapsed_s: float

    def lines(self) -> list[str]:
        """The ``divide`` lines, the total and the speed (as Stockfish prints them)."""
        total = sum(self.counts.values())
        lines = [f"{uci}: {self.counts[uci]}" for uci in sorted(self.counts)]
        nps = int(total / self.elapsed_s) if self.elapsed_s > 0 else 0
        if not self.complete:
            lines.append(f"perft stopped after {len(self.counts)} of {self.root_moves} root moves")
        lines += [
            "",
            f"Nodes searched: {total}",
            f"Time: {self.elapsed_s * 1000:.0f} ms ({nps} nodes/s)",
        ]
        return lines


def stoppable_divide(board: Board, depth: int, canceller: Canceller) -> PerftReport:
    """Perft split by root move, ending early (``complete`` False) once cancelled."""
    if depth < 1:
        raise ValueError(f"perft depth must be at least 1, got {depth}")
    start = time.perf_counter()
    scratch = board.copy()
    moves = scratch.legal_moves
    counts: dict[str, int] = {}
    complete = True
    for move in moves:
        scratch.push(move)
        count = _count(scratch, depth - 1, canceller)
        scratch.pop()
        if count is None:
            complete = False
            break
        counts[move.uci()] = count
    return PerftReport(counts, complete, len(moves), time.perf_counter() - start)


def _count(board: Board, depth: int, canceller: Canceller) -> int | None:
    """Leaves ``depth`` plies below ``board``; None once cancelled."""
    from plies.board import perft

    if canceller.cancelled:
        return None
    if depth == 0:
        return 1
    moves = board.legal_moves
    if depth == 1 or len(moves) ** depth <= MAX_CHUNK_LEAVES:
        return perft(board, depth)
    total = 0
    for move in moves:
        board.push(move)
        count = _count(board, depth - 1, canceller)
        board.pop()
        if count is None:
            return None
        total += count
    return total
