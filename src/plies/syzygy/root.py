"""Syzygy tablebases in the engine: which root moves keep the best outcome.

A user enables them through UCI (several directories separated by ``:``, by
``;`` on Windows, as Stockfish does)::

    setoption name SyzygyPath value /path/to/syzygy
    setoption name Syzygy50MoveRule value true    # a win beyond the fifty-move rule is a draw
    setoption name SyzygyProbeLimit value 7       # probe positions of at most this many men
    setoption name SyzygyProbeDepth value 1       # depth from which the search may probe

or from Python with ``Engine.set_option("SyzygyPath", "/path/to/syzygy")``.
Files that cannot be used are skipped and described (``problems``); the
search goes on with whatever tables remain, or without any.

When the root position is in the tables (no castling rights, no more men than
the probe limit and the largest table), every legal root move is ranked by
its DTZ (WDL when a DTZ table is missing) as Stockfish's ``root_probe`` does
with ``rankDTZ``, and only the moves of the best rank are searched: a win takes
the shortest way to the next capture, pawn move or mate (so a won ending is
converted well inside the fifty-move rule, even where the evaluation sees no
progress), a draw keeps every drawing move, and a loss the longest resistance.
With ``Syzygy50MoveRule`` (the default) a win that the clock would turn into a
draw is shown as one, though its fastest moves are still played.

Below the root the compiled search probes WDL itself (``plies.core.search``,
step 2b) just after a capture or pawn move, with at most ``cardinality`` men
and ``SyzygyProbeDepth`` plies left: ``attach`` hands each search thread the
tables and these limits at the start of every search. Without tables the
search runs exactly as before (it never probes).

``tbhits`` counts every probe of a search: each root move the root filtering
ranks (as Stockfish counts them), and every probe of every search thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

import plies.core as core
from plies.board import Board
from plies.core.encoding import MAX_MOVES
from plies.core.search import TB_WIN
from plies.options import SYZYGY_PROBE_DEPTH, SYZYGY_PROBE_LIMIT
from plies.syzygy.dtz import probe_root_dtz, probe_root_wdl
from plies.syzygy.tablebase import Tablebase
from plies.syzygy.tables import MAX_PROBE_MEN, PROBE_ROOM, TB_HITS, Tables

MAX_DTZ = 1 << 18
"""A rank above any DTZ, so that the kinds of outcome never mix (Stockfish's value)."""
_WARM_FEN = "8/8/8/4k3/8/8/8/K7 w - - 0 1"
"""A position whose probes load the compiled prober (no table needed)."""
_WDL_RANK = (-MAX_DTZ, -MAX_DTZ + 101, 0, MAX_DTZ - 101, MAX_DTZ)
"""Root rank of a move by the WDL (index ``wdl + 2``) it leaves, when DTZ is unknown."""


class ProbingThread(Protocol):
    """A search thread as the tables see it (the engine's ``SearchArrays``): it takes the
    tables with their limits, and counts its probes in ``tb_limits[TB_HITS]``."""

    tb_limits: np.ndarray

    def attach_tables(self, tablebase: Tablebase | None, limits: list[int]) -> None:
        """Search probing ``tablebase`` (None: none) under ``limits`` (men, depth, rule50)."""


@dataclass(frozen=True, slots=True)
class RootRanking:
    """The root moves a tablebase-aware search keeps, and what the tables say of them."""

    moves: list[int]
    """Core move codes of the best rank, in the order they were given."""
    score: int
    """The tablebase score of the kept moves (TB_WIN, a small cursed-win value, 0...)."""
    probes: int
    """Root moves probed (counted as tablebase hits)."""


@dataclass
class SyzygyOptions:
    """The ``Syzygy*`` UCI options."""

    path: str = ""
    """``SyzygyPath``: the table directories ("": none)."""
    probe_depth: int = SYZYGY_PROBE_DEPTH.spin_default()
    """``SyzygyProbeDepth``: the least remaining depth at which the search probes."""
    rule50: bool = True
    """``Syzygy50MoveRule``: a win or loss beyond the fifty-move rule counts as a draw."""
    probe_limit: int = SYZYGY_PROBE_LIMIT.spin_default()
    """``SyzygyProbeLimit``: probe positions of at most this many men (0: never)."""


class Tablebases:
    """The engine's tablebases: the options, the loaded tables and the hits counted."""

    def __init__(self) -> None:
        """No tables until ``SyzygyPath`` names some."""
        self.options = SyzygyOptions()
        """The current option values."""
        self.tablebase: Tablebase | None = None
        """The loaded tables (None: ``SyzygyPath`` is empty)."""
        self.problems: list[str] = []
        """Why directories or files of the last ``SyzygyPath`` were skipped, one line each."""
        self._root: Tables | None = None
        """The root filtering's own probe state (its ``limits[TB_HITS]`` counts root probes)."""
        self._root_limits = np.zeros(4, dtype=np.int64)
        self._out_moves = np.zeros(MAX_MOVES, dtype=np.int64)
        self._out_values = np.zeros(MAX_MOVES, dtype=np.int64)

    @property
    def loaded(self) -> bool:
        """Whether any table is loaded."""
        return self.tablebase is not None and bool(self.tablebase.tables)

    @property
    def cardinality(self) -> int:
        """The most men a probed position may have (0: no probing)."""
        if self.tablebase is None:
            return 0
        return min(self.options.probe_limit, self.tablebase.max_men, MAX_PROBE_MEN)

    def set_path(self, path: str) -> None:
        """Load the tables of a ``SyzygyPath`` string (replacing any loaded ones)."""
        path = path.strip()
        if path in ("", "<empty>"):
            self.tablebase, self._root, self.problems, self.options.path = None, None, [], ""
            return
        tablebase = Tablebase(path)
        self.tablebase = tablebase
        self._root = tablebase.compiled(limits=self._root_limits)
        self.problems = list(tablebase.problems)
        self.options.path = path
        # Load (or compile) the probes now, while the GUI waits for readyok, rather than
        # on the clock of the first search that reaches the tables.
        warm = Board(_WARM_FEN).core_position()
        self._dtz_ranks(warm, 0)
        self._wdl_ranks(warm)

    def report(self) -> list[str]:
        """Lines for a user: what was loaded, then one line per problem."""
        if self.tablebase is None:
            return []
        tb = self.tablebase
        wdl, dtz = len(tb.names()), len(tb.names(dtz=True))
        found = f"found {wdl} WDL and {dtz} DTZ tablebases (up to {tb.max_men} men)"
        return [found, *(f"tablebase problem: {p}" for p in self.problems)]

    def set_option(self, name: str, value: str | int | bool | None) -> None:
        """Set ``SyzygyPath``, ``SyzygyProbeDepth``, ``Syzygy50MoveRule``, ``SyzygyProbeLimit``."""
        key = name.strip().lower()
        text = "" if value is None else str(value).strip()
        if key == "syzygypath":
            self.set_path(text)
        elif key == "syzygyprobedepth":
            self.options.probe_depth = _bounded(name, text, *SYZYGY_PROBE_DEPTH.spin_range())
        elif key == "syzygyprobelimit":
            self.options.probe_limit = _bounded(name, text, *SYZYGY_PROBE_LIMIT.spin_range())
        elif key == "syzygy50moverule":
            if text.lower() not in ("true", "false"):
                raise ValueError(f"Syzygy50MoveRule must be true or false, got {value!r}")
            self.options.rule50 = text.lower() == "true"
        else:
            raise ValueError(f"unknown option {name!r}")

    def attach(self, threads: Sequence[ProbingThread]) -> None:
        """Give each search thread the tables and the current options (or no tables)."""
        men = self.cardinality
        tablebase = self.tablebase if men > 0 else None
        limits = [men, self.options.probe_depth, 1 if self.options.rule50 else 0]
        for arrays in threads:
            arrays.attach_tables(tablebase, limits)

    @property
    def root_hits(self) -> int:
        """Root moves probed by the last ``rank_root``."""
        return int(self._root_limits[TB_HITS])

    def search_hits(self, threads: Sequence[ProbingThread]) -> int:
        """Probes answered so far in this search: at the root and by every thread."""
        return self.root_hits + sum(int(a.tb_limits[TB_HITS]) for a in threads)

    def rank_root(self, board: Board, root: list[int]) -> RootRanking | None:
        """The root moves of the best tablebase rank; None when the tables cannot tell.

        ``root`` holds core move codes (all legal moves, or the ``searchmoves``).
        Called once at the start of each search: it restarts the hit count, then
        counts each root move probed.
        """
        self._root_limits[TB_HITS] = 0
        if self.tablebase is None or self._root is None or not root:
            return None
        pos = board.core_position()
        pieces = core.position_arrays(pos)[0]
        castling, _, halfmove = (int(x) for x in core.position_state(pos)[1:4])
        if castling or int(pieces[0] | pieces[8]).bit_count() > self.cardinality:
            return None
        core.reserve(pos, PROBE_ROOM)
        ranks = self._dtz_ranks(pos, halfmove)
        if ranks is None:
            ranks = self._wdl_ranks(pos)
        if ranks is None or any(m not in ranks for m in root):
            return None
        best = max(ranks[m] for m in root)
        kept = [m for m in root if ranks[m] == best]
        return RootRanking(kept, self._score(best), self.root_hits)

    def _dtz_ranks(self, pos: core.Position, halfmove: int) -> dict[int, int] | None:
        """Each legal move's rank by its DTZ (Stockfish's ``root_probe`` with ``rankDTZ``);
        None without DTZ."""
        assert self._root is not None
        n = probe_root_dtz(self._root, pos, self._out_moves, self._out_values)
        if n < 0:
            return None
        ranks = {}
        for m, dtz in zip(self._out_moves[:n].tolist(), self._out_values[:n].tolist(),
                          strict=True):  # fmt: skip
            # Stockfish also ranks a win by its shortness only after a repetition; ranking
            # it so always converts faster and can never repeat (DTZ falls every move).
            if dtz > 0:
                fits = dtz + halfmove <= 99
                rank = MAX_DTZ - dtz if fits else MAX_DTZ // 2 - (dtz + halfmove)
            elif dtz < 0:
                lasts = -dtz * 2 + halfmove < 100
                rank = -MAX_DTZ - dtz if lasts else -MAX_DTZ // 2 + (-dtz + halfmove)
            else:
                rank = 0
            ranks[m] = rank
        return ranks

    def _wdl_ranks(self, pos: core.Position) -> dict[int, int] | None:
        """Each legal move's rank by the WDL it leaves (``root_probe_wdl``); None if unknown."""
        assert self._root is not None
        n = probe_root_wdl(self._root, pos, self._out_moves, self._out_values)
        if n < 0:
            return None
        return {m: _WDL_RANK[wdl + 2]
                for m, wdl in zip(self._out_moves[:n].tolist(), self._out_values[:n].tolist(),
                                  strict=True)}  # fmt: skip

    def _score(self, rank: int) -> int:
        """The score a rank stands for (Stockfish's ``tbScore``, in plies' units)."""
        # A win past the clock ranks MAX_DTZ // 2 - (dtz + clock): it reaches the bound only
        # when its zeroing move (a mate, say) lands on the hundredth half-move, still in time.
        bound = MAX_DTZ // 2 - 100 if self.options.rule50 else 1
        if rank >= bound:
            return TB_WIN
        if rank <= -bound:
            return -TB_WIN
        if rank > 0:
            return max(3, rank - (MAX_DTZ // 2 - 200)) // 2
        if rank < 0:
            return min(-3, rank + (MAX_DTZ // 2 - 200)) // 2
        return 0


def _bounded(name: str, text: str, low: int, high: int) -> int:
    """``text`` as an int within ``low..high``, or ValueError naming the option."""
    value = int(text)
    if not low <= value <= high:
        raise ValueError(f"{name} must be {low}..{high}, got {value}")
    return value
