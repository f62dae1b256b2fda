"""A set of Syzygy tables found on a ``SyzygyPath``, ready for the compiled prober."""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from plies.board.board import core_to_move
from plies.core.encoding import MAX_MOVES, NO_SQUARE
from plies.core.position import Position, new_position, position_arrays, position_state
from plies.syzygy.dtz import probe_dtz, probe_root_dtz
from plies.syzygy.files import DTZ_SUFFIX, WDL_SUFFIX, TableError, TableInfo, read_table
from plies.syzygy.format import (
    P_BASE,
    P_SYMLEN,
    PAIRS_WIDTH,
    S_PAIRS,
    SLOT_WIDTH,
    SLOTS,
    T_FILE,
    TABLE_HEAD,
    TABLE_WIDTH,
)
from plies.syzygy.probe import probe_wdl, set_position
from plies.syzygy.tables import MAX_PROBE_MEN, Tables, new_scratch, new_tables, share

if TYPE_CHECKING:
    import chess

    from plies.board.board import Board


class Linked(NamedTuple):
    """The table files and the arrays linking them, as the compiled probes read them."""

    files: list[np.ndarray]
    """One read-only ``uint8`` array per table file (memory-mapped): keep it alive."""
    addresses: np.ndarray
    """``int64[n, 2]``: each file's address and length."""
    keys: np.ndarray
    """Sorted lookup keys, ``material_key * 2 + (1 if DTZ else 0)`` (int64)."""
    entries: np.ndarray
    """``int64[n, 2]``: table row and own-key flag of each key."""
    rows: np.ndarray
    """``int64[t, TABLE_WIDTH]`` table rows."""
    pairs: np.ndarray
    """``int64[p, PAIRS_WIDTH]`` block-set rows."""
    symlen: np.ndarray
    """Symbol lengths of all block sets (int64)."""
    base: np.ndarray
    """Canonical code bases of all block sets (uint64)."""


def split_path(path: str) -> list[str]:
    """The directories of a ``SyzygyPath`` (``:`` separated, ``;`` on Windows), no empty ones."""
    if path.strip() in ("", "<empty>"):
        return []
    return [part for part in path.split(os.pathsep) if part.strip()]


class Tablebase:
    """Syzygy WDL and DTZ tables from one or more directories.

    Files that cannot be used (bad size, magic bytes, layout) and directories
    that do not exist are skipped and described in ``problems``; nothing raises.
    """

    def __init__(self, path: str = "") -> None:
        """Open every table in the directories of ``path`` (a ``SyzygyPath`` string)."""
        self.tables: dict[tuple[str, bool], TableInfo] = {}
        """Parsed tables by (name, is DTZ); a later directory's file replaces an earlier one's."""
        self.problems: list[str] = []
        """One line per directory or file that was skipped, saying why."""
        self._linked: Linked | None = None
        self._tables: Tables | None = None
        self._position: Position | None = None
        self._out_moves = np.zeros(MAX_MOVES, dtype=np.int64)
        self._out_dtz = np.zeros(MAX_MOVES, dtype=np.int64)
        if path:
            self.add_path(path)

    def add_path(self, path: str) -> int:
        """Add the tables of every directory in a ``SyzygyPath`` string; the files added."""
        return sum(self.add_directory(directory) for directory in split_path(path))

    def add_directory(self, directory: str) -> int:
        """Add the ``.rtbw`` / ``.rtbz`` files of one directory; the number added."""
        try:
            names = sorted(os.listdir(directory))
        except OSError as exc:
            self.problems.append(f"{directory}: cannot list directory ({exc.strerror})")
            return 0
        tables = [name for name in names if name.endswith((WDL_SUFFIX, DTZ_SUFFIX))]
        _room_for_files(len(self.tables) + len(tables))
        return sum(self.add_file(os.path.join(directory, name)) for name in tables)

    def add_file(self, path: str) -> int:
        """Add one table file: 1 if it was usable, else 0 with the reason in ``problems``."""
        try:
            info = read_table(path)
        except TableError as exc:
            self.problems.append(str(exc))
            return 0
        self.tables[(info.name, info.dtz)] = info
        self._linked = self._tables = None
        return 1

    @property
    def max_men(self) -> int:
        """Men (kings included) of the largest WDL table, 0 without tables."""
        return max((t.men for t in self.tables.values() if not t.dtz), default=0)

    def names(self, dtz: bool = False) -> list[str]:
        """Names of the loaded WDL (or DTZ) tables, sorted."""
        return sorted(name for name, is_dtz in self.tables if is_dtz == dtz)

    def linked(self) -> Linked:
        """The files and arrays the compiled probes read (built once per change of tables)."""
        if self._linked is None:
            self._linked = _link(list(self.tables.values()))
        return self._linked

    def compiled(
        self, moves: np.ndarray | None = None, limits: np.ndarray | None = None
    ) -> Tables:
        """A ``Tables`` value over these tables with its own scratch (or ``moves``/``limits``).

        The value reads the files through their addresses: keep this ``Tablebase`` (or
        its ``linked()``) alive as long as the value is used.
        """
        if self._tables is None:
            a = self.linked()
            self._tables = new_tables(a.addresses, a.keys, a.entries, a.rows, a.pairs,
                                      a.symlen, a.base)  # fmt: skip
        if moves is None and limits is None:
            return self._tables
        own_moves, own_limits = new_scratch()
        return share(self._tables, own_moves if moves is None else moves,
                     own_limits if limits is None else limits)  # fmt: skip

    def _load(self, board: chess.Board | Board) -> Position | None:
        """The probes' own position set to ``board``; None if the tables cannot hold it."""
        if hasattr(board, "core_position"):
            own = board.core_position()
            side, castling, ep = (int(x) for x in position_state(own)[:3])
            bbs = position_arrays(own)[0]
        else:
            castling = board.castling_rights
            bbs, side, ep = board_arrays(board)
        if castling:
            return None
        if int(bbs[0] | bbs[8]).bit_count() > MAX_PROBE_MEN:
            return None
        if self._position is None:
            self._position = new_position([0] * 64, 0, 0, NO_SQUARE, 0, 1)
        set_position(self._position, bbs, side, ep)
        return self._position

    def probe_wdl(self, board: chess.Board | Board) -> int | None:
        """WDL (-2 loss ... 2 win) of a board for the side to move; None if not in the tables.

        As python-chess's ``probe_wdl``: the position is taken as just after a zeroing
        move (the fifty-move counter is not considered). One probe at a time per
        ``Tablebase`` (its scratch is shared).
        """
        pos = self._load(board)
        if pos is None:
            return None
        wdl, ok = probe_wdl(self.compiled(), pos)
        return int(wdl) if ok else None

    def probe_dtz(self, board: chess.Board | Board) -> int | None:
        """DTZ of a board (python-chess's ``probe_dtz``: sign and rounding); None if unknown."""
        pos = self._load(board)
        if pos is None:
            return None
        dtz, ok = probe_dtz(self.compiled(), pos)
        return int(dtz) if ok else None

    def root_dtz(self, board: chess.Board | Board) -> dict[str, int] | None:
        """Each legal move (UCI) of a board and its DTZ from the root; None if unknown.

        See ``plies.syzygy.dtz.probe_root_dtz`` for the values.
        """
        pos = self._load(board)
        if pos is None:
            return None
        n = probe_root_dtz(self.compiled(), pos, self._out_moves, self._out_dtz)
        if n < 0:
            return None
        return {core_to_move(m).uci(): dtz
                for m, dtz in zip(self._out_moves[:n].tolist(), self._out_dtz[:n].tolist(),
                                  strict=True)}  # fmt: skip


def _room_for_files(count: int) -> None:
    """Raise the soft open-file limit (up to the hard one) so that ``count`` mapped tables fit.

    Each mapping keeps a file descriptor open; a full 6-man set has over a thousand
    files, more than many systems' default soft limit of 1024. Where the limit stays
    too low, the files beyond it are reported as problems ("Too many open files").
    """
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def board_arrays(board: chess.Board) -> tuple[np.ndarray, int, int]:
    """The 16-slot bitboards, side to move (0 white) and en-passant square (64: none) of a board."""
    bbs = np.zeros(16, dtype=np.uint64)
    for color in range(2):
        mask = board.occupied_co[color == 0]
        bbs[color * 8] = mask
        for kind in range(1, 7):
            bbs[color * 8 + kind] = board.pieces_mask(kind, color == 0)
    ep = board.ep_square if board.ep_square is not None else NO_SQUARE
    return bbs, 0 if board.turn else 1, ep


def _link(infos: list[TableInfo]) -> Linked:
    """Join parsed tables into the flat arrays, making local row and offset numbers global."""
    files: list[np.ndarray] = []
    rows = np.zeros((max(1, len(infos)), TABLE_WIDTH), dtype=np.int64)
    pair_rows: list[np.ndarray] = []
    symlens: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    bases: list[np.ndarray] = [np.zeros(0, dtype=np.uint64)]
    sym_at = base_at = 0
    lookup: dict[int, tuple[int, int]] = {}
    for t, info in enumerate(infos):
        files.append(info.data.view(np.ndarray))
        row = info.row.copy()
        row[T_FILE] = t
        first_pair = len(pair_rows)
        for slot in range(SLOTS):
            at = TABLE_HEAD + slot * SLOT_WIDTH + S_PAIRS
            if row[at] >= 0:
                row[at] += first_pair
        for pr in info.pairs:
            linked = pr.copy()
            linked[P_SYMLEN] += sym_at
            linked[P_BASE] += base_at
            pair_rows.append(linked)
        for s in info.symlen:
            symlens.append(s)
        for b in info.base:
            bases.append(b)
        sym_at += sum(len(s) for s in info.symlen)
        base_at += sum(len(b) for b in info.base)
        rows[t] = row
        kind = 1 if info.dtz else 0
        lookup[info.mirrored_key * 2 + kind] = (t, 0)
        lookup[info.key * 2 + kind] = (t, 1)
    keys = np.array(sorted(lookup), dtype=np.int64)
    entries = np.array([lookup[k] for k in sorted(lookup)], dtype=np.int64).reshape(-1, 2)
    pairs = np.array(pair_rows, dtype=np.int64).reshape(-1, PAIRS_WIDTH)
    addresses = np.array([(f.ctypes.data, f.size) for f in files], dtype=np.int64).reshape(-1, 2)
    return Linked(files, addresses, keys, entries, rows, pairs, np.concatenate(symlens),
                  np.concatenate(bases))  # fmt: skip

