"""The bench: a fixed search over varied positions whose node count is a behaviour signature.

Each position is searched to the same depth by one engine whose tables are
cleared first (``new_game``), so the total node count depends only on the
engine's code: a change in it means the search changed.  The speed
(nodes per second) is the figure the engine benchmark compares with Stockfish.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from plies.core import Net
    from plies.uci.jobs import Canceller

# Depth for ``plies bench`` and the UCI ``bench`` command.
DEFAULT_DEPTH = 13

MAX_BENCH_DEPTH = 64
"""The deepest bench the UCI ``bench`` command accepts (as ``plies bench``)."""

# Hash size for the bench: fixed, so the signature does not depend on the Hash option.
BENCH_HASH_MB = 16

BENCH_POSITIONS: tuple[tuple[str, str], ...] = (
    ("start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("Italian game", "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
    ("Queen's Gambit Declined", "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4"),
    ("Sicilian Najdorf", "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6"),
    ("closed middlegame", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("tactical middlegame", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("promotion tactics", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
    ("rook and pawns", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("Lucena-like rook ending", "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1"),
    ("king and pawn", "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1"),
    ("pawn majority ending", "8/pp3k2/8/8/8/8/PP3K2/8 w - - 0 1"),
)  # fmt: skip
"""(name, FEN) of every bench position: openings, middlegames and endgames."""


@dataclass(frozen=True)
class BenchPosition:
    """The outcome of one bench search."""

    name: str
    fen: str
    nodes: int
    time_s: float
    best_move: str


@dataclass(frozen=True)
class BenchResult:
    """All bench searches: the depth, the per-position outcomes, and the totals."""

    depth: int
    positions: tuple[BenchPosition, ...]

    @property
    def nodes(self) -> int:
        """Total nodes searched (the behaviour signature)."""
        return sum(p.nodes for p in self.positions)

    @property
    def time_s(self) -> float:
        """Total search time in seconds."""
        return sum(p.time_s for p in self.positions)

    @property
    def nps(self) -> int:
        """Nodes per second over the whole bench."""
        return int(self.nodes / self.time_s) if self.time_s > 0 else 0


def run_bench(
    depth: int = DEFAULT_DEPTH,
    on_position: Callable[[BenchPosition], None] | None = None,
    hash_mb: int = BENCH_HASH_MB,
    canceller: Canceller | None = None,
    net: Net | None = None,
) -> BenchResult:
    """Search every bench position to ``depth`` with a fresh, warmed-up engine.

    Once ``canceller`` is cancelled the search in progress stops and the result
    holds only the positions finished before. With ``net`` the engine evaluates
    with it (another node count: the signature is the classical engine's).
    """
    from plies.board import Board
    from plies.engine import Engine, Limit

    if depth < 1:
        raise ValueError(f"bench depth must be at least 1, got {depth}")
    engine = Engine(hash_mb)
    engine.warm_up()
    if net is not None:
        engine.set_net(net)
    if canceller is not None:
        canceller.watch(engine)
    done: list[BenchPosition] = []
    for name, fen in BENCH_POSITIONS:
        engine.new_game()
        board = Board(fen)
        start = time.perf_counter()
        engine.start(board, Limit(depth=depth))
        # Checked after start() cleared the stop flag, so a cancel is never lost.
        if canceller is not None and canceller.cancelled:
            engine.stop()
        result = engine.wait()
        elapsed = time.perf_counter() - start
        if result is None or (canceller is not None and canceller.cancelled):
            break
        best = result.move.uci() if result.move is not None else "0000"
        position = BenchPosition(name, fen, result.nodes, elapsed, best)
        done.append(position)
        if on_position is not None:
            on_position(position)
    return BenchResult(depth, tuple(done))


def bench_lines(result: BenchResult) -> list[str]:
    """The closing lines: total time, nodes (the signature) and nodes per second."""
    return [
        f"Total time (ms): {result.time_s * 1000:.0f}",
        f"Nodes searched: {result.nodes}",
        f"Nodes/second: {result.nps}",
    ]
