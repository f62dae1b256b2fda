"""A set of Syzygy tables found on a ``SyzygyPath``, ready for the compiled prober."""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import typed

from plies.core.syzygy import (
    MAX_PROBE_MEN,
    P_BASE,
    P_SYMLEN,
    PAIRS_WIDTH,
    S_PAIRS,
    SLOT_WIDTH,
    SLOTS,
    T_FILE,
    TABLE_HEAD,
    TABLE_WIDTH,
    new_scratch,
    probe_wdl,
)
from plies.core.syzygy_dtz import new_dtz_scratch, probe_dtz, probe_root_dtz
from plies.core.syzygy_moves import MAX_MOVES, PROMOTION_SHIFT
from plies.tb.files import DTZ_SUFFIX, WDL_SUFFIX, TableError, TableInfo, read_table

if TYPE_CHECKING:
    import chess

NO_SQUARE = 64
"""The en-passant argument when no en-passant capture is possible."""


class ProbeArrays(NamedTuple):
    """Everything the compiled probes take besides the position, in argument order."""

    files: typed.List
    """One read-only ``uint8`` array per table file (memory-mapped)."""
    keys: np.ndarray
    """Sorted lookup keys, ``material_key * 2 + (1 if DTZ else 0)`` (int64)."""
    entries: np.ndarray
    """``int64[n, 2]``: table row and own-key flag of each key."""
    tables: np.ndarray
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
        self._arrays: ProbeArrays | None = None
        self._scratch = new_scratch()
        self._dtz_scratch = new_dtz_scratch()
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
        self._arrays = None
        return 1

    @property
    def max_men(self) -> int:
        """Men (kings included) of the largest WDL table, 0 without tables."""
        return max((t.men for t in self.tables.values() if not t.dtz), default=0)

    def names(self, dtz: bool = False) -> list[str]:
        """Names of the loaded WDL (or DTZ) tables, sorted."""
        return sorted(name for name, is_dtz in self.tables if is_dtz == dtz)

    def arrays(self) -> ProbeArrays:
        """The compiled probes' table arguments (built once per change of the table set)."""
        if self._arrays is None:
            self._arrays = _link(list(self.tables.values()))
        return self._arrays

    def probe_wdl_bitboards(self, bbs: np.ndarray, side: int, ep: int = NO_SQUARE) -> int | None:
        """WDL (-2..2) of a 16-slot bitboard position, ``side`` to move; None if not in the tables.

        One probe at a time per ``Tablebase`` (its scratch is shared): threads use their own.
        """
        a = self.arrays()
        stack, moves = self._scratch
        wdl, ok = probe_wdl(
            a.files,
            a.keys,
            a.entries,
            a.tables,
            a.pairs,
            a.symlen,
            a.base,
            bbs,
            int(side),
            int(ep),
            stack,
            moves,
        )
        return int(wdl) if ok else None

    def probe_dtz_bitboards(self, bbs: np.ndarray, side: int, ep: int = NO_SQUARE) -> int | None:
        """DTZ of a 16-slot bitboard position (python-chess's sign and rounding); None if unknown.

        One probe at a time per ``Tablebase`` (its scratch is shared): threads use their own.
        """
        a = self.arrays()
        stack, moves = self._scratch
        dboards, dmoves = self._dtz_scratch
        dtz, ok = probe_dtz(
            a.files,
            a.keys,
            a.entries,
            a.tables,
            a.pairs,
            a.symlen,
            a.base,
            bbs,
            int(side),
            int(ep),
            stack,
            moves,
            dboards,
            dmoves,
        )
        return int(dtz) if ok else None

    def probe_dtz(self, board: chess.Board) -> int | None:
        """DTZ of a python-chess board (as ``chess.syzygy``'s ``probe_dtz``); None if unknown."""
        if board.castling_rights:
            return None
        bbs, side, ep = board_arrays(board)
        if int(bbs[0] | bbs[8]).bit_count() > MAX_PROBE_MEN:
            return None
        return self.probe_dtz_bitboards(bbs, side, ep)

    def root_dtz(self, board: chess.Board) -> dict[str, int] | None:
        """Each legal move (UCI) of a python-chess board and its DTZ from the root; None if unknown.

        See ``plies.core.syzygy_dtz.probe_root_dtz`` for the values.
        """
        if board.castling_rights:
            return None
        bbs, side, ep = board_arrays(board)
        a = self.arrays()
        out_moves = np.zeros(MAX_MOVES, dtype=np.int64)
        out_dtz = np.zeros(MAX_MOVES, dtype=np.int64)
        n = probe_root_dtz(
            a.files,
            a.keys,
            a.entries,
            a.tables,
            a.pairs,
            a.symlen,
            a.base,
            bbs,
            side,
            ep,
            out_moves,
            out_dtz,
            *self._scratch,
            *self._dtz_scratch,
        )
        if n < 0:
            return None
        result = {}
        for m, dtz in zip(out_moves[:n], out_dtz[:n], strict=True):
            promo = int(m) >> PROMOTION_SHIFT
            uci = _square_name(int(m) & 63) + _square_name((int(m) >> 6) & 63)
            result[uci + (" pnbrqk"[promo] if promo else "")] = int(dtz)
        return result

    def probe_wdl(self, board: chess.Board) -> int | None:
        """WDL of a python-chess board (taken as just after a zeroing move); None if unknown."""
        if board.castling_rights:
            return None
        bbs, side, ep = board_arrays(board)
        if int(bbs[0] | bbs[8]).bit_count() > MAX_PROBE_MEN:
            return None
        return self.probe_wdl_bitboards(bbs, side, ep)


def _square_name(sq: int) -> str:
    """``a1`` ... ``h8``."""
    return "abcdefgh"[sq & 7] + str(sq // 8 + 1)


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


def _link(infos: list[TableInfo]) -> ProbeArrays:
    """Join parsed tables into the flat arrays, making local row and offset numbers global."""
    files = typed.List()
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
    if not infos:
        # An empty list cannot be typed; one empty file that no key reaches keeps the types fixed.
        placeholder = np.zeros(0, dtype=np.uint8)
        placeholder.setflags(write=False)
        files.append(placeholder)
    keys = np.array(sorted(lookup), dtype=np.int64)
    entries = np.array([lookup[k] for k in sorted(lookup)], dtype=np.int64).reshape(-1, 2)
    pairs = np.array(pair_rows, dtype=np.int64).reshape(-1, PAIRS_WIDTH)
    return ProbeArrays(
        files, keys, entries, rows, pairs, np.concatenate(symlens), np.concatenate(bases)
    )
