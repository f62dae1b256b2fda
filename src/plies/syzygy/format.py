"""The Syzygy file format as plies holds it: the index tables and the rows describing a table.

The index tables' values are those of the format's reference prober (tbprobe,
also quoted by python-chess's ``chess/syzygy.py``); the derived ones (pawn index
bases and factors) are computed here with ``binomial``, the one binomial of the
package (compiled code calls it, Python calls ``binomial.py_func``). Squares are
``A1 = 0 ... H8 = 63``.

``plies.syzygy.files`` reads a file's header into one ``int64`` row of
``TABLE_WIDTH`` (a fixed head, then one slot per pawn file group and side) and
one row of ``PAIRS_WIDTH`` per compressed block set; the offsets below name
their columns.
"""

from __future__ import annotations

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

TRIANGLE = np.array(
    [
          6,   0,   1,   2,   2,   1,   0,   6,
          0,   7,   3,   4,   4,   3,   7,   0,
          1,   3,   8,   5,   5,   8,   3,   1,
          2,   4,   5,   9,   9,   5,   4,   2,
          2,   4,   5,   9,   9,   5,   4,   2,
          1,   3,   8,   5,   5,   8,   3,   1,
          0,   7,   3,   4,   4,   3,   7,   0,
          6,   0,   1,   2,   2,   1,   0,   6,
    ],
    dtype=np.int64,
)  # fmt: skip
"""Index of a square's class under the board's eight symmetries (0-9; the a1-h8 diagonal is 6-9)."""

LOWER = np.array(
    [
         28,   0,   1,   2,   3,   4,   5,   6,
          0,  29,   7,   8,   9,  10,  11,  12,
          1,   7,  30,  13,  14,  15,  16,  17,
          2,   8,  13,  31,  18,  19,  20,  21,
          3,   9,  14,  18,  32,  22,  23,  24,
          4,  10,  15,  19,  22,  33,  25,  26,
          5,  11,  16,  20,  23,  25,  34,  27,
          6,  12,  17,  21,  24,  26,  27,  35,
    ],
    dtype=np.int64,
)  # fmt: skip
"""Index of a square on or below the a1-h8 diagonal (28-35 on it)."""

DIAG = np.array(
    [
          0,   0,   0,   0,   0,   0,   0,   8,
          0,   1,   0,   0,   0,   0,   9,   0,
          0,   0,   2,   0,   0,  10,   0,   0,
          0,   0,   0,   3,  11,   0,   0,   0,
          0,   0,   0,  12,   4,   0,   0,   0,
          0,   0,  13,   0,   0,   5,   0,   0,
          0,  14,   0,   0,   0,   0,   6,   0,
         15,   0,   0,   0,   0,   0,   0,   7,
    ],
    dtype=np.int64,
)  # fmt: skip
"""Index of a square on the a1-h8 (0-7) or a8-h1 (8-15) diagonal."""

FLAP = np.array(
    [
          0,   0,   0,   0,   0,   0,   0,   0,
          0,   6,  12,  18,  18,  12,   6,   0,
          1,   7,  13,  19,  19,  13,   7,   1,
          2,   8,  14,  20,  20,  14,   8,   2,
          3,   9,  15,  21,  21,  15,   9,   3,
          4,  10,  16,  22,  22,  16,  10,   4,
          5,  11,  17,  23,  23,  17,  11,   5,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    dtype=np.int64,
)  # fmt: skip
"""Leading-pawn index on files a-d (ranks 2-7), mirrored onto e-h."""

PTWIST = np.array(
    [
          0,   0,   0,   0,   0,   0,   0,   0,
         47,  35,  23,  11,  10,  22,  34,  46,
         45,  33,  21,   9,   8,  20,  32,  44,
         43,  31,  19,   7,   6,  18,  30,  42,
         41,  29,  17,   5,   4,  16,  28,  40,
         39,  27,  15,   3,   2,  14,  26,  38,
         37,  25,  13,   1,   0,  12,  24,  36,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    dtype=np.int64,
)  # fmt: skip
"""Order of the squares for the other pawns of the leading colour."""

INVFLAP = np.array(
    [
          8,  16,  24,  32,  40,  48,
          9,  17,  25,  33,  41,  49,
         10,  18,  26,  34,  42,  50,
         11,  19,  27,  35,  43,  51,
    ],
    dtype=np.int64,
)  # fmt: skip
"""Square of each leading-pawn index (the inverse of FLAP on files a-d)."""

KK_IDX = np.array(
    [
         -1,  -1,  -1,   0,   1,   2,   3,   4,
         -1,  -1,  -1,   5,   6,   7,   8,   9,
         10,  11,  12,  13,  14,  15,  16,  17,
         18,  19,  20,  21,  22,  23,  24,  25,
         26,  27,  28,  29,  30,  31,  32,  33,
         34,  35,  36,  37,  38,  39,  40,  41,
         42,  43,  44,  45,  46,  47,  48,  49,
         50,  51,  52,  53,  54,  55,  56,  57,
         58,  -1,  -1,  -1,  59,  60,  61,  62,
         63,  -1,  -1,  -1,  64,  65,  66,  67,
         68,  69,  70,  71,  72,  73,  74,  75,
         76,  77,  78,  79,  80,  81,  82,  83,
         84,  85,  86,  87,  88,  89,  90,  91,
         92,  93,  94,  95,  96,  97,  98,  99,
        100, 101, 102, 103, 104, 105, 106, 107,
        108, 109, 110, 111, 112, 113, 114, 115,
        116, 117,  -1,  -1,  -1, 118, 119, 120,
        121, 122,  -1,  -1,  -1, 123, 124, 125,
        126, 127, 128, 129, 130, 131, 132, 133,
        134, 135, 136, 137, 138, 139, 140, 141,
        142, 143, 144, 145, 146, 147, 148, 149,
        150, 151, 152, 153, 154, 155, 156, 157,
        158, 159, 160, 161, 162, 163, 164, 165,
        166, 167, 168, 169, 170, 171, 172, 173,
        174,  -1,  -1,  -1, 175, 176, 177, 178,
        179,  -1,  -1,  -1, 180, 181, 182, 183,
        184,  -1,  -1,  -1, 185, 186, 187, 188,
        189, 190, 191, 192, 193, 194, 195, 196,
        197, 198, 199, 200, 201, 202, 203, 204,
        205, 206, 207, 208, 209, 210, 211, 212,
        213, 214, 215, 216, 217, 218, 219, 220,
        221, 222, 223, 224, 225, 226, 227, 228,
        229, 230,  -1,  -1,  -1, 231, 232, 233,
        234, 235,  -1,  -1,  -1, 236, 237, 238,
        239, 240,  -1,  -1,  -1, 241, 242, 243,
        244, 245, 246, 247, 248, 249, 250, 251,
        252, 253, 254, 255, 256, 257, 258, 259,
        260, 261, 262, 263, 264, 265, 266, 267,
        268, 269, 270, 271, 272, 273, 274, 275,
        276, 277, 278, 279, 280, 281, 282, 283,
        284, 285, 286, 287, 288, 289, 290, 291,
        292, 293,  -1,  -1,  -1, 294, 295, 296,
        297, 298,  -1,  -1,  -1, 299, 300, 301,
        302, 303,  -1,  -1,  -1, 304, 305, 306,
        307, 308, 309, 310, 311, 312, 313, 314,
        315, 316, 317, 318, 319, 320, 321, 322,
        323, 324, 325, 326, 327, 328, 329, 330,
        331, 332, 333, 334, 335, 336, 337, 338,
         -1,  -1, 339, 340, 341, 342, 343, 344,
         -1,  -1, 345, 346, 347, 348, 349, 350,
         -1,  -1, 441, 351, 352, 353, 354, 355,
         -1,  -1,  -1, 442, 356, 357, 358, 359,
         -1,  -1,  -1,  -1, 443, 360, 361, 362,
         -1,  -1,  -1,  -1,  -1, 444, 363, 364,
         -1,  -1,  -1,  -1,  -1,  -1, 445, 365,
         -1,  -1,  -1,  -1,  -1,  -1,  -1, 446,
         -1,  -1,  -1, 366, 367, 368, 369, 370,
         -1,  -1,  -1, 371, 372, 373, 374, 375,
         -1,  -1,  -1, 376, 377, 378, 379, 380,
         -1,  -1,  -1, 447, 381, 382, 383, 384,
         -1,  -1,  -1,  -1, 448, 385, 386, 387,
         -1,  -1,  -1,  -1,  -1, 449, 388, 389,
         -1,  -1,  -1,  -1,  -1,  -1, 450, 390,
         -1,  -1,  -1,  -1,  -1,  -1,  -1, 451,
        452, 391, 392, 393, 394, 395, 396, 397,
         -1,  -1,  -1,  -1, 398, 399, 400, 401,
         -1,  -1,  -1,  -1, 402, 403, 404, 405,
         -1,  -1,  -1,  -1, 406, 407, 408, 409,
         -1,  -1,  -1,  -1, 453, 410, 411, 412,
         -1,  -1,  -1,  -1,  -1, 454, 413, 414,
         -1,  -1,  -1,  -1,  -1,  -1, 455, 415,
         -1,  -1,  -1,  -1,  -1,  -1,  -1, 456,
        457, 416, 417, 418, 419, 420, 421, 422,
         -1, 458, 423, 424, 425, 426, 427, 428,
         -1,  -1,  -1,  -1,  -1, 429, 430, 431,
         -1,  -1,  -1,  -1,  -1, 432, 433, 434,
         -1,  -1,  -1,  -1,  -1, 435, 436, 437,
         -1,  -1,  -1,  -1,  -1, 459, 438, 439,
         -1,  -1,  -1,  -1,  -1,  -1, 460, 440,
         -1,  -1,  -1,  -1,  -1,  -1,  -1, 461,
    ],
    dtype=np.int64,
)  # fmt: skip
"""Index of a king pair, ``KK_IDX[TRIANGLE[k1] * 64 + k2]``; -1 where the kings touch or repeat."""

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
