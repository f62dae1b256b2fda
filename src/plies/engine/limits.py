"""What a search is asked for (``Limit``) and what it reports (``Info``, ``SearchResult``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # For annotations only: the UCI parser reads ``go`` into a ``Limit`` before the board
    # (and numba under it) has loaded.
    from plies.board import Move


@dataclass(frozen=True, slots=True)
class Limit:
    """When to stop searching; times in milliseconds, as in UCI. All unset = infinite."""

    depth: int | None = None
    """Stop after this many plies of iterative deepening."""
    nodes: int | None = None
    """Search at most this many nodes (all threads together)."""
    movetime: int | None = None
    """Think exactly this long (minus the move overhead)."""
    wtime: int | None = None
    """White's remaining clock time."""
    btime: int | None = None
    """Black's remaining clock time."""
    winc: int | None = None
    """White's increment per move."""
    binc: int | None = None
    """Black's increment per move."""
    movestogo: int | None = None
    """Moves until the next time control (None: sudden death)."""
    mate: int | None = None
    """Stop once a mate in this many moves (or fewer) is found."""
    infinite: bool = False
    """Search until stopped."""

    def is_timed(self) -> bool:
        """Whether a clock or move time bounds the search."""
        return self.movetime is not None or self.wtime is not None or self.btime is not None

    def is_unbounded(self) -> bool:
        """Whether nothing but ``stop`` ends the search."""
        return self.infinite or not (
            self.is_timed() or self.depth is not None or self.nodes is not None
            or self.mate is not None
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Info:
    """One finished iteration of the search."""

    depth: int
    """Nominal depth of the iteration."""
    seldepth: int
    """Deepest ply reached (quiescence included)."""
    score_cp: int | None
    """Score in centipawns from the side to move, or None for a mate score."""
    score_mate: int | None
    """Moves to mate (negative: getting mated), or None."""
    nodes: int
    """Nodes searched so far in this search."""
    nps: int
    """Nodes per second so far."""
    time_ms: int
    """Milliseconds since the search started."""
    hashfull: int
    """Transposition-table use in permille."""
    pv: list[Move] = field(default_factory=list)
    """The principal variation, best move first."""
    bound: str = ""
    """"lowerbound"/"upperbound" for an aspiration-window fail, "" for an exact score."""
    multipv: int = 1
    """Rank of this line among the root moves (1 = best; see ``Engine.multipv``)."""
    wdl: tuple[int, int, int] | None = None
    """Win, draw and loss chances per mille for the side to move (``plies.engine.wdl``)."""
    tbhits: int | None = None
    """Tablebase probes answered in this search (None: no tables loaded)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The outcome of a search."""

    best_move: Move | None
    """The move to play; None only when there is no legal move."""
    ponder_move: Move | None
    """The expected reply, if known."""
    info: Info | None
    """The last iteration's report (of the best line)."""
    lines: list[Info] = field(default_factory=list)
    """The last report of every line searched (MultiPV), best first."""
