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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from plies.board import Board
from plies.board.board import core_to_move
from plies.core import TB_HITS, position_arrays, position_state
from plies.core.search import TB_WIN
from plies.core.syzygy import MAX_PROBE_MEN, new_scratch
from plies.core.syzygy_dtz import new_dtz_scratch, probe_root_dtz
from plies.core.syzygy_moves import MAX_MOVES, PROMOTION_SHIFT
from plies.options import SYZYGY_PROBE_DEPTH, SYZYGY_PROBE_LIMIT
from plies.tb import NO_SQUARE, Tablebase

if TYPE_CHECKING:
    from plies.engine.state import SearchArrays

MAX_DTZ = 1 << 18
"""A rank above any DTZ, so that the kinds of outcome never mix (Stockfish's value)."""
_WARM_FEN = "8/8/8/4k3/8/8/8/K7 w - - 0 1"
"""A position whose probes load the compiled prober (no table needed)."""
_WDL_RANK = (-MAX_DTZ, -MAX_DTZ + 101, 0, MAX_DTZ - 101, MAX_DTZ)
"""Root rank of a move by the WDL (index ``wdl + 2``) it leaves, when DTZ is unknown."""


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
        self.hits = 0
        """Tablebase probes answered in the current (or last) search."""
        self._out_moves = np.zeros(MAX_MOVES, dtype=np.int64)
        self._out_dtz = np.zeros(MAX_MOVES, dtype=np.int64)
        self._scratch = (*new_scratch(), *new_dtz_scratch())

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
            self.tablebase, self.problems, self.options.path = None, [], ""
            return
        tablebase = Tablebase(path)
        self.tablebase = tablebase
        self.problems = list(tablebase.problems)
        self.options.path = path
        # Load (or compile) the probes now, while the GUI waits for readyok, rather than
        # on the clock of the first search that reaches the tables.
        warm = Board(_WARM_FEN)
        self._dtz_ranks(position_arrays(warm.core_position())[0], 0, NO_SQUARE, 0)
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

    def attach(self, threads: list[SearchArrays]) -> None:
        """Give each search thread the tables and the current options (or no tables)."""
        men = self.cardinality
        tables = self.tablebase.arrays() if self.tablebase is not None and men > 0 else None
        limits = [men, self.options.probe_depth, 1 if self.options.rule50 else 0]
        for arrays in threads:
            arrays.attach_tables(tables, limits)

    def search_hits(self, threads: list[SearchArrays]) -> int:
        """Probes answered so far in this search: at the root and by every thread."""
        return self.hits + sum(int(a.tb_limits[TB_HITS]) for a in threads)

    def rank_root(self, board: Board, root: list[int]) -> RootRanking | None:
        """The root moves of the best tablebase rank; None when the tables cannot tell.

        ``root`` holds core move codes (all legal moves, or the ``searchmoves``).
        Called once at the start of each search: it restarts the hit count.
        """
        self.hits = 0
        tb = self.tablebase
        if tb is None or not root:
            return None
        pos = board.core_position()
        pieces = position_arrays(pos)[0]
        side, castling, ep, halfmove = (int(x) for x in position_state(pos)[:4])
        if castling or int(pieces[0] | pieces[8]).bit_count() > self.cardinality:
            return None
        ranks = self._dtz_ranks(pieces, side, ep, halfmove)
        if ranks is None:
            ranks = self._wdl_ranks(board)
        if ranks is None:
            return None
        by_move = {_key(m): ranks[_key(m)] for m in root if _key(m) in ranks}
        if len(by_move) != len(root):
            return None
        best = max(by_move.values())
        kept = [m for m in root if by_move[_key(m)] == best]
        self.hits = len(root)
        return RootRanking(kept, self._score(best), len(root))

    def _dtz_ranks(
        self, pieces: np.ndarray, side: int, ep: int, halfmove: int
    ) -> dict[tuple[int, int, int], int] | None:
        """Each legal move's rank by its DTZ (Stockfish's ``root_probe`` with ``rankDTZ``);
        None without DTZ."""
        assert self.tablebase is not None
        a = self.tablebase.arrays()
        n = probe_root_dtz(a.files, a.keys, a.entries, a.tables, a.pairs, a.symlen, a.base,
                           pieces, side, ep, self._out_moves, self._out_dtz,
                           *self._scratch)  # fmt: skip
        if n < 0:
            return None
        ranks = {}
        for m, dtz in zip(self._out_moves[:n].tolist(), self._out_dtz[:n].tolist(), strict=True):
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
            ranks[(m & 63, (m >> 6) & 63, m >> PROMOTION_SHIFT)] = rank
        return ranks

    def _wdl_ranks(self, board: Board) -> dict[tuple[int, int, int], int] | None:
        """Each legal move's rank by the WDL it leaves (``root_probe_wdl``); None if unknown."""
        assert self.tablebase is not None
        ranks = {}
        for code in board.core_legal().tolist():
            after = board.copy()
            after.push(board.move_of(code))
            pos = after.core_position()
            side, _, ep = (int(x) for x in position_state(pos)[:3])
            wdl = self.tablebase.probe_wdl_bitboards(position_arrays(pos)[0], side, ep)
            if wdl is None:
                return None
            ranks[_key(code)] = _WDL_RANK[2 - wdl]
        return ranks

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


def _key(code: int) -> tuple[int, int, int]:
    """``(from, to, promotion kind)`` of a core move, as the root probe writes moves."""
    move = core_to_move(code)
    return move.from_square, move.to_square, move.promotion or 0
