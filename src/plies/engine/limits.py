"""What a search is asked for (``Limit``), how it keeps to it (``Meter``), and what it
reports (``Info``): one of each for the engine, the ladder, the arena and the games."""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # For annotations only: the UCI parser reads ``go`` into a ``Limit`` before the board
    # (and numba under it) has loaded.
    from chess.engine import PovScore

    from plies.board import Move

#: A Limit's clock share keeps this much back for lag (a slow Python move must not flag).
_LAG_MS = 20
#: Moves a sudden-death clock is spread over.
_MOVES_LEFT_GUESS = 40
#: Milliseconds a move gets when nothing bounds it: an engine, an outside player or the
#: web page's opponent told nothing would think forever.
DEFAULT_MOVETIME_MS = 1000
#: Milliseconds an analysis gives each position when no limit is asked for (``plies
#: analyse --pgn``, the web app's Analyse page).
ANALYSIS_MOVETIME_MS = 500


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

    def allotment_seconds(self, white: bool = True) -> float | None:
        """Seconds to aim for on this move (for the side ``white`` says), or None if untimed.

        A fixed ``movetime`` is the answer; else the mover's clock is spread over the moves
        to come plus half the increment, never more than a fifth of what is left, less a
        little for lag.
        """
        if self.movetime is not None:
            return self.movetime / 1000.0
        left = self.wtime if white else self.btime
        if left is None:
            return None
        inc = (self.winc if white else self.binc) or 0
        left = max(0, left)
        moves = self.movestogo + 1 if self.movestogo else _MOVES_LEFT_GUESS
        share = min(left / max(1, moves) + 0.5 * inc, 0.2 * left) - _LAG_MS
        return max(0.001, share / 1000.0)

    def is_timed(self) -> bool:
        """Whether a clock or move time bounds the search."""
        return self.movetime is not None or self.wtime is not None or self.btime is not None

    def is_unbounded(self) -> bool:
        """Whether nothing but ``stop`` ends the search."""
        return self.infinite or not (
            self.is_timed() or self.depth is not None or self.nodes is not None
            or self.mate is not None
        )  # fmt: skip


class SearchStoppedError(Exception):
    """Raised inside a search when its limit is spent or it was told to stop."""


class Meter:
    """One search's spending against a :class:`Limit`: nodes counted, the clock, ``stop()``."""

    # Reading the clock at every node would cost more than most nodes do.
    _CLOCK_EVERY = 16
    #: Nodes between two looks at ``stop()`` when no limit needs the clock read that often
    #: (the look costs more than a quick game's node).
    STOP_EVERY = 1024

    def __init__(self, limit: Limit | None = None, white: bool = True) -> None:
        """Start the clock for the side ``white`` says; refuse a negative limit."""
        self.start = time.perf_counter()
        nodes = None if limit is None else limit.nodes
        seconds = None if limit is None else limit.allotment_seconds(white)
        if nodes is not None and nodes < 0:
            raise ValueError(f"limit nodes must be >= 0, not {nodes}")
        if seconds is not None and seconds < 0:
            raise ValueError(f"limit time must be >= 0, not {seconds} s")
        self.max_nodes = sys.maxsize if nodes is None else nodes
        self.deadline = float("inf") if seconds is None else self.start + seconds
        # Past the soft deadline a new (several times longer) iteration is not started.
        self.soft_deadline = float("inf") if seconds is None else self.start + 0.5 * seconds
        self.nodes = 0
        self._stop = threading.Event()
        #: Whether there is a limit to watch (``stop()`` can still end an unlimited search).
        self.limited = self.max_nodes != sys.maxsize or self.deadline != float("inf")
        self._every = self._CLOCK_EVERY if self.limited else self.STOP_EVERY
        self._armed = True

    @property
    def armed(self) -> bool:
        """While False the limit is not enforced (a search must finish its first step)."""
        return self._armed

    @armed.setter
    def armed(self, value: bool) -> None:
        """Arm or disarm the limit."""
        self._armed = value

    def stop(self) -> None:
        """Ask the search to stop at its next check (safe from another thread)."""
        self._stop.set()

    def tick(self) -> None:
        """Count one node; raise :class:`SearchStoppedError` instead if the search must end."""
        if self._armed and (
            self.nodes >= self.max_nodes
            or (self.nodes % self._every == 0 and self.out_of_time())
        ):
            raise SearchStoppedError
        self.nodes += 1

    def out_of_time(self) -> bool:
        """Whether ``stop()`` was called or the deadline passed (nodes not counted)."""
        return self._stop.is_set() or time.perf_counter() >= self.deadline

    def spent(self) -> bool:
        """Whether the limit is spent or the search was stopped, without counting a node."""
        return self.nodes >= self.max_nodes or self.out_of_time()

    def past_soft_deadline(self) -> bool:
        """Whether starting another iteration would probably overrun the move's time."""
        return self._stop.is_set() or time.perf_counter() >= self.soft_deadline

    def elapsed(self) -> float:
        """Seconds since the meter started."""
        return time.perf_counter() - self.start


@dataclass(frozen=True, slots=True)
class Info:
    """What a search or a player reports: the move, its score, depth, nodes and line.

    The engine reports one per finished iteration (and per MultiPV line), and its search
    returns one: ``move`` the best move, ``ponder`` the expected reply, ``lines`` every
    MultiPV line, the rest the best line's last report. A player's answer to ``play`` is
    one, its ``move`` set; the generic game searches return one with ``move`` the game's
    action.  Everything is optional: a player that says
    nothing but its move reports ``Info(move=m)``.
    """

    move: Any = None
    """The move chosen (a ``chess.Move``; a game's action), or None: no move."""
    ponder: Any = None
    """The expected reply, if known."""
    score: PovScore | None = None
    """The score from the mover's side (``.relative``) and White's (``.white()``)."""
    depth: int = 0
    """Nominal depth of the (last finished) iteration."""
    seldepth: int = 0
    """Deepest ply reached (quiescence included)."""
    nodes: int = 0
    """Nodes searched so far in this search."""
    nps: int = 0
    """Nodes per second so far."""
    time_ms: int = 0
    """Milliseconds since the search started."""
    hashfull: int = 0
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
    lines: list[Info] = field(default_factory=list)
    """The last report of every line searched (MultiPV), best first."""
    resigned: bool = False
    """The player gives the game up (``move`` is None)."""
    value: float | None = None
    """A generic game's value for the player to move, in [-1, 1] (+1 a proven win, 0 a
    draw or no idea); None from a chess search, whose measure is ``score``."""
    exact: bool = False
    """Whether ``value`` is proven: the search saw every line to its end."""
    cutoffs: int = 0
    """Alpha-beta cutoffs (a move refuted before its siblings were searched)."""
    tt_hits: int = 0
    """Transposition-table probes that answered outright."""
    iterations: int = 0
    """Monte Carlo playouts (0 for the depth-first searches)."""

