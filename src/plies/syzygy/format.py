"""The Syzygy file format as plies holds it: the index tables and the rows describing a table.

The index tables hold the values of the format's reference prober (tbprobe,
also quoted by python-chess's ``chess/syzygy.py``), computed here from what they
mean (the symmetry classes of squares, the orders of pawns, the placements of two
kings); the pawn index bases and factors are computed with ``binomial``, the one
binomial of the package (compiled code calls it, Python calls ``binomial.py_func``).
Squares are ``A1 = 0 ... H8 = 63``.

``plies.syzygy.files`` reads a file's header into one ``int64`` row of
``TABLE_WIDTH`` (a fixed head, then one slot per pawn file group and side) and
one row of ``PAIRS_WIDTH`` per compressed block set; the offsets below name
their columns.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

# One table row: a fixed head, then one slot per (pawn file group, side) pair.
T_FILE = 0
"""Index of the table's file among the linked files."""
T_MEN = 1
"""Men on the board, kings included."""
T_PAWNS = 2
"""1 if the table has pawns."""
T_SYMMETRIC = 3
"""1 if both sides hold the same material (the table is stored from white's view only)."""
T_ENC = 4
"""Pawnless encoding: 0 (three or more unique men) or 2 (only the kings are unique)."""
T_LEAD = 5
"""Pawns of the leading colour (the smaller nonzero pawn count)."""
T_OTHER = 6
"""Pawns of the other colour."""
T_DTZ = 7
"""1 for a DTZ table, 0 for WDL."""
T_MAP = 8
"""DTZ: byte offset of the value maps in the file."""
TABLE_HEAD = 9

S_PIECES = 0
"""Slot: the piece codes in encoding order (seven entries)."""
S_NORM = 7
"""Slot: the size of the group starting at each position (seven entries)."""
S_FACTOR = 14
"""Slot: the index multiplier of each group (seven entries)."""
S_PAIRS = 21
"""Slot: row in ``pairs`` of this slot's blocks, -1 if the file holds none."""
S_FLAGS = 22
"""Slot (DTZ): flags (bit 0 side stored, 1 mapped, 2/3 win/loss in plies, 4 wide map)."""
S_MAPIDX = 23
"""Slot (DTZ): start of the four value maps (win, loss, cursed win, blessed loss)."""
SLOT_WIDTH = 27
SLOTS = 8
TABLE_WIDTH = TABLE_HEAD + SLOTS * SLOT_WIDTH

P_IDXBITS = 0
P_BLOCKSIZE = 1
P_MINLEN = 2
"""Shortest code length, or the constant value of a constant table."""
P_MAXLEN = 3
P_INDEXTABLE = 4
P_SIZETABLE = 5
P_DATA = 6
P_OFFSET = 7
"""Byte offset of the first-symbol table, already moved back by ``2 * min_len``."""
P_SYMPAT = 8
P_SYMLEN = 9
"""Start of this block set's symbol lengths in ``symlen``."""
P_BASE = 10
"""Start of this block set's ``max_len - min_len + 1`` code bases in ``base``."""
P_NUMSYMS = 11
P_BLOCKS = 12
"""Blocks holding data (the size table may list more)."""
P_SIZEBLOCKS = 13
"""Entries of the size table."""
P_CONST = 14
"""1 if every position of the block set has the value ``P_MINLEN``."""
P_TBSIZE = 15
"""Number of indices the block set covers."""
PAIRS_WIDTH = 16

def _board(value: Callable[[int, int], int]) -> np.ndarray:
    """An int64 table over the squares of ``value(file, rank)``."""
    return np.array([value(sq & 7, sq >> 3) for sq in range(64)], dtype=np.int64)


def _triangle(file: int, rank: int) -> int:
    """A square's class under the board's eight symmetries: the a1-d1-d4 triangle square it
    folds onto, numbered off the diagonal first (b1 c1 d1 c2 d2 d3: 0-5), then on it (a1 b2
    c3 d4: 6-9)."""
    file, rank = min(file, 7 - file), min(rank, 7 - rank)
    low, high = min(file, rank), max(file, rank)
    if low == high:
        return 6 + low
    return sum(3 - k for k in range(low)) + high - low - 1


def _lower(file: int, rank: int) -> int:
    """A square's index below the a1-h8 diagonal after folding over it: off the diagonal
    0-27, rank by rank (b1..h1, c2..h2, ...), on it 28-35."""
    if file == rank:
        return 28 + file
    low, high = min(file, rank), max(file, rank)
    return sum(7 - k for k in range(low)) + high - low - 1


def _diag(file: int, rank: int) -> int:
    """A square's index on the a1-h8 diagonal (0-7) or the a8-h1 one (8-15), else 0."""
    if file == rank:
        return rank
    return 8 + rank if file + rank == 7 else 0


def _flap(file: int, rank: int) -> int:
    """A leading pawn's index: file a-d (e-h mirrored) times six plus its rank 2-7."""
    return min(file, 7 - file) * 6 + rank - 1 if 0 < rank < 7 else 0


def _ptwist(file: int, rank: int) -> int:
    """The order of a square for the other pawns of the leading colour: centre files and
    advanced ranks first, each file's e-h twin just before its a-d square."""
    if not 0 < rank < 7:
        return 0
    return 47 - 12 * min(file, 7 - file) - 2 * (rank - 1) - (1 if file > 3 else 0)


TRIANGLE = _board(_triangle)
"""Index of a square's class under the board's eight symmetries (0-9; the a1-h8 diagonal is 6-9)."""
LOWER = _board(_lower)
"""Index of a square on or below the a1-h8 diagonal (28-35 on it)."""
DIAG = _board(_diag)
"""Index of a square on the a1-h8 (0-7) or a8-h1 (8-15) diagonal."""
FLAP = _board(_flap)
"""Leading-pawn index on files a-d (ranks 2-7), mirrored onto e-h."""
PTWIST = _board(_ptwist)
"""Order of the squares for the other pawns of the leading colour."""
INVFLAP = np.array([(j % 6 + 1) * 8 + j // 6 for j in range(24)], dtype=np.int64)
"""Square of each leading-pawn index (the inverse of FLAP on files a-d)."""


def _king_pairs() -> np.ndarray:
    """``KK_IDX``: the index of each legal placement of two kings, the first folded into the
    a1-d1-d4 triangle (one row of 64 per ``TRIANGLE`` class of its square).

    A first king on the diagonal takes the second only on or below it; pairs with both
    on the diagonal come last. 462 placements in all (``PIVFAC[2]``).
    """
    table = np.full(10 * 64, -1, dtype=np.int64)
    first = {_triangle(f, r): r * 8 + f for f in range(4) for r in range(f + 1)}
    both_on_diagonal = []
    code = 0
    for cls in range(10):
        f1, r1 = first[cls] & 7, first[cls] >> 3
        for k2 in range(64):
            f2, r2 = k2 & 7, k2 >> 3
            if max(abs(f1 - f2), abs(r1 - r2)) <= 1 or (f1 == r1 and r2 > f2):
                continue
            if f1 == r1 and f2 == r2:
                both_on_diagonal.append(cls * 64 + k2)
            else:
                table[cls * 64 + k2] = code
                code += 1
    for at in both_on_diagonal:
        table[at] = code
        code += 1
    return table


KK_IDX = _king_pairs()
"""Index of a king pair, ``KK_IDX[TRIANGLE[k1] * 64 + k2]``; -1 where the kings touch or repeat,
or where a first king on the diagonal has the second above it."""

FILE_TO_FILE = np.array([0, 1, 2, 3, 3, 2, 1, 0], dtype=np.int64)
"""A pawn table's file group (a-d) for the leading pawn's file (e-h mirrored)."""

PIVFAC = np.array([31332, 28056, 462], dtype=np.int64)
"""Placements of the leading group, pawnless encodings 0 (three unique men), 1, 2 (two kings)."""

MAX_MEN = 7
"""Men (kings included) of the largest Syzygy table."""


@njit(cache=True, nogil=True)
def binomial(n: int, k: int) -> int:
    """n choose k: the number of ways to place k like men on n squares (0 if k > n or n < 0)."""
    if n < 0 or k > n:
        return 0
    value = 1
    for i in range(k):
        value = value * (n - i) // (i + 1)
    return value


def _pawn_index() -> tuple[np.ndarray, np.ndarray]:
    """Per count of leading pawns (1-5): index base of each FLAP value, size of each file group."""
    index = np.zeros((5, 24), dtype=np.int64)
    factor = np.zeros((5, 4), dtype=np.int64)
    for count in range(5):
        for group in range(4):
            total = 0
            for j in range(group * 6, group * 6 + 6):
                index[count, j] = total
                total += 1 if count == 0 else binomial.py_func(int(PTWIST[INVFLAP[j]]), count)
            factor[count, group] = total
    return index, factor


PAWNIDX, PFACTOR = _pawn_index()
"""``PAWNIDX[pawns - 1, FLAP[sq]]`` and ``PFACTOR[pawns - 1, file]`` for the leading pawns."""
