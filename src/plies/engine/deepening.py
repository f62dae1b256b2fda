"""The main thread's iterative deepening: aspiration windows, MultiPV lines and when to stop.

Each iteration searches the root to one more ply in a narrow window around
the last score, widening it on a fail; with several lines (MultiPV) line K is
the best move once lines 1..K-1 are excluded from the root (as Stockfish
does). After each iteration the clock, the node budgets and proven mates
decide whether another one is worth starting.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import plies.core as core
from plies.board import Board
from plies.core import INF
from plies.engine.control import SearchClock
from plies.engine.limits import Info, Limit
from plies.engine.reporting import make_info, mate_moves, merge_lines
from plies.engine.state import SearchArrays
from plies.engine.timeman import STOP_SHARE, Stability, node_scale
from plies.engine.wdl import material

InfoCallback = Callable[[Info], None]

ASPIRATION_DELTA = 18
"""The first half-width of an aspiration window (centipawns)."""
ASPIRATION_MIN_DEPTH = 5
"""Shallower iterations search with the full window."""


@dataclass
class Deepening:
    """One search's deepening on the main thread's arrays, and the lines it reported."""

    arrays: SearchArrays
    position: core.Position
    board: Board
    limit: Limit
    clock: SearchClock
    age: int
    lines_wanted: int
    """Lines searched per iteration (more than shown when a weaker engine picks among them)."""
    shown: int
    """Lines reported through ``on_info`` (``MultiPV``)."""
    node_budget: int | None
    """A strength-limited search's nodes: no iteration starts that would overrun it."""
    nodes: Callable[[], int]
    """Nodes searched so far over all threads."""
    on_info: InfoCallback | None
    ponder: bool
    lines: list[Info] = field(default_factory=list)
    """The last reported line of each MultiPV rank, best first."""
    tb_score: int | None = None
    """The tablebase score of a root in the tables (shown instead of a non-mate score)."""
    tb_hits: Callable[[], int] | None = None
    """Tablebase probes so far over all threads (None: no tables loaded)."""

    def root_search(self, first: int, n_root: int, depth: int, alpha: int, beta: int) -> int:
        """One compiled search of ``root_moves[first:n_root]``: the lines before are excluded.

        The compiled search reads the first ``n`` root moves, so the excluded
        ones are rotated behind the searched ones for the call and back after
        it; the searched moves keep the order the search gave them.
        """
        a = self.arrays
        moves = a.root_moves
        if first:
            held = moves[:n_root].copy()
            moves[: n_root - first] = held[first:]
            moves[n_root - first : n_root] = held[:first]
        try:
            return int(core.search_root(self.position, a.stack, a.table, a.info, n_root - first,
                                        depth, alpha, beta))  # fmt: skip
        finally:
            if first:
                searched = moves[: n_root - first].copy()
                moves[:first] = held[:first]
                moves[first:n_root] = searched

    def aspirate(
        self, first: int, n_root: int, depth: int, previous: int | None
    ) -> tuple[int | None, int | None]:
        """Search one line to ``depth`` in windows around ``previous``.

        Returns the score (None if the search was stopped) and the move of the
        last fail-high, which is good enough to play if time runs out.
        """
        delta = ASPIRATION_DELTA
        if previous is not None and depth >= ASPIRATION_MIN_DEPTH and mate_moves(previous) is None:
            alpha, beta = max(previous - delta, -INF), min(previous + delta, INF)
        else:
            alpha, beta = -INF, INF
        fail_high: int | None = None
        while True:
            value = self.root_search(first, n_root, depth, alpha, beta)
            if self.arrays.stopped():
                return None, fail_high
            if value <= alpha:
                beta = (alpha + beta) // 2
                alpha = max(value - delta, -INF)
            elif value >= beta:
                beta = min(value + delta, INF)
                fail_high = int(self.arrays.pv[0, 0])
            else:
                return value, fail_high
            delta += delta // 2 + 5

    def run(
        self, n_root: int, max_depth: int, root: list[int]
    ) -> tuple[int, list[int], Info | None]:
        """Deepen until a limit says stop; returns the best move, its line and the last Info."""
        a = self.arrays
        limit = self.limit
        stability = Stability()
        best_code = root[0]
        best_line = [root[0]]
        last_info: Info | None = None
        score = 0
        n_lines = min(self.lines_wanted, n_root)
        previous: list[int | None] = [None] * n_lines
        effort = 1.0
        for depth in range(1, max_depth + 1):
            done: list[tuple[int, list[int]]] = []
            stopped = False
            for k in range(n_lines):
                value, fail_high = self.aspirate(k, n_root, depth, previous[k])
                if k == 0:
                    counts = a.counts()
                    effort = node_scale(counts.best_nodes, counts.root_nodes, depth)
                if k == 0 and fail_high is not None:
                    best_code, best_line = fail_high, [fail_high]
                if value is None:
                    stopped = True
                    break
                line = [int(x) for x in a.pv[0, : a.pv_len[0]]] or [int(a.root_moves[k])]
                done.append((value, line))
            if stopped and not done:
                # A move that beat the previous best in the unfinished iteration is trusted.
                if a.counts().root_updated and a.pv_len[0] > 0 and depth > 1:
                    best_code = int(a.pv[0, 0])
                    best_line = [int(x) for x in a.pv[0, : a.pv_len[0]]]
                break
            # Later lines can (rarely) outscore earlier ones: report them best first.
            done.sort(key=lambda item: -item[0])
            for k, (value, line) in enumerate(done):
                a.root_moves[k] = line[0]
                previous[k] = value
            score, best_line = done[0]
            best_code = best_line[0]
            last_info = self.report(depth, done)
            if stopped:
                break

            if limit.mate is not None:
                mate = mate_moves(score)
                if mate is not None and 0 < mate <= limit.mate:
                    break
            clock = self.clock
            if clock.soft_ms is not None and not clock.pondering:
                elapsed = clock.elapsed_ms()
                scale = stability.update(best_code, score, depth)
                if n_root == 1 and depth >= 4:
                    break
                if elapsed > clock.soft_ms * scale * effort * STOP_SHARE:
                    break
            counts = a.counts()
            if counts.node_limit and counts.nodes >= counts.node_limit:
                break
            if self.node_budget is not None and 2 * self.nodes() >= self.node_budget:
                break  # the next iteration would overrun the strength budget
            proven = mate_moves(score) is not None and depth > 2 * (core.MATE - abs(score)) + 6
            if proven and not (limit.is_unbounded() or self.ponder):
                # A mate well inside the horizon cannot change with more depth.
                break
        if last_info is None and self.tb_score is not None:
            # Stopped before any iteration finished, the root already settled by the tables:
            # report what they said (and the probes it took), as a depth-0 line.
            last_info = self.report(0, [(self.tb_score, best_line)])
        return best_code, best_line, last_info

    def report(self, depth: int, done: list[tuple[int, list[int]]]) -> Info:
        """Report the lines finished at ``depth`` (with the rest from the depth before)."""
        points = material(self.board)
        a = self.arrays
        fresh = []
        for k, (value, line) in enumerate(done):
            # Read per line, as each line's report is made (nodes and time move on).
            seldepth = a.counts().seldepth
            elapsed_s = self.clock.elapsed_ms() / 1000.0
            nodes = self.nodes()
            hashfull = int(core.hashfull(a.table, self.age))
            tbhits = None if self.tb_hits is None else self.tb_hits()
            fresh.append(make_info(self.board, depth, value, line, k + 1, points, seldepth,
                                   nodes, elapsed_s, hashfull, self.tb_score,
                                   tbhits))  # fmt: skip
        self.lines = merge_lines(fresh, self.lines)
        if self.on_info is not None:
            for item in self.lines[: self.shown]:
                self.on_info(item)
        return self.lines[0]
