"""The compiled heart of the connect-four solver: null-window negamax on 7 x 6 bitboards.

Everything here is plain numba over ``uint64`` bitboards in the layout of
:mod:`plies.games.connect4` (column ``c`` holds bits ``7c .. 7c+5``, bit ``7c+6`` is an
always-empty guard).  A position is ``current`` (the discs of the player to move) and
``mask`` (all discs); its key ``current + mask`` is unique.  The driver, which picks
the null windows and owns the tables, is :mod:`plies.games.connect4_solver`.

Scores follow Pascal Pons' convention: a win for the player to move with their
``k``-th disc scores ``22 - k`` (1 to 18 on 7 x 6), a loss the negative, a draw 0.

Transposition table: one ``uint64`` array of prime length, an entry per slot::

    bits  0-48   the position's key (current + mask)
    bits 49-55   the bound: score + 32 (below 64) is an upper bound on the score,
                 score + 96 (64 and up) a lower bound; every score lies in [-21, 21]
    bits 56-63   the generation (1-255) that wrote it; 0 = never written

The generation lets the driver empty the table in O(1) between positions.  One
array for the table and one for the sorted moves (threat count in bits 56-63 above
the move's bit) are faster than separate arrays for keys, bounds, moves and scores.
They travel with the generation and the count of positions visited as one
``Tables`` value (a numba structref), so the recursive call takes the position, the
window and that one value.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.experimental import structref

from plies.blas import answer_blas_probe
from plies.jitcache import install
from plies.jitstruct import CoreStruct, register

answer_blas_probe()
install()  # before the compiled functions below: their cache is keyed on their sources

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)

WIDTH = 7
HEIGHT = 6
#: Cells on the board (and the most discs a game can have).
SIZE = WIDTH * HEIGHT
#: The generations a table entry can record (the driver wipes the table after the last).
GENERATIONS = 255

# Bits per column, the guard bit included.
_H1 = HEIGHT + 1
_S1 = U64(1)
_S2 = U64(2)
_S3 = U64(3)
_SV = U64(_H1)
_SD1 = U64(_H1 - 1)
_SD2 = U64(_H1 + 1)
_BOTTOM = U64(sum(1 << (c * _H1) for c in range(WIDTH)))
_BOARD = U64(sum(((1 << HEIGHT) - 1) << (c * _H1) for c in range(WIDTH)))
_COLUMN = np.array([((1 << HEIGHT) - 1) << (c * _H1) for c in range(WIDTH)], dtype=np.uint64)
# Columns from the centre outwards (3, 4, 2, 5, 1, 6, 0): central discs join more lines.
_ORDER = np.array(
    [WIDTH // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2 for i in range(WIDTH)], dtype=np.int64
)
# Offsets of the two bound encodings: the ranges [11, 53] and [75, 117] never meet
# and fit the entry's 7 bits.
_UPPER_OFFSET = 32
_LOWER_OFFSET = 96
_LOWER_FROM = 64
_KEY_MASK = U64((1 << 49) - 1)
_BOUND_SHIFT = U64(49)
_BOUND_MASK = U64(127)
_GENERATION_SHIFT = U64(56)
# Sorted moves: the threat count above the move's bit (at most bit 47).
_SCORE_SHIFT = U64(56)
_MOVE_MASK = U64((1 << 56) - 1)
_M1 = U64(0x5555555555555555)
_M2 = U64(0x3333333333333333)
_M4 = U64(0x0F0F0F0F0F0F0F0F)
_H01 = U64(0x0101010101010101)
_POP_SHIFT = U64(56)


@register
class TablesType(CoreStruct):
    """numba type of ``Tables``."""


class Tables(structref.StructRefProxy):
    """The solver's memory (Python handle): ``table`` (the transposition table),
    ``sorted_moves`` (each ply's ordered moves, row = discs played), ``generation`` (the
    tag of the current position's entries) and ``nodes`` (positions visited). Built and
    read by the cached functions below: numba's Python-side accessors compile anew in
    every process."""

    table: np.ndarray
    sorted_moves: np.ndarray
    generation: np.uint64
    nodes: np.int64


# numba ships no types: these two calls are untyped.
structref.define_proxy(  # type: ignore[no-untyped-call]
    Tables, TablesType, ["table", "sorted_moves", "generation", "nodes"]
)


@njit(cache=True)
def new_tables(entries: int) -> Tables:
    """Tables with a transposition table of ``entries`` slots, every page touched now (the
    first solves should not pay the page faults)."""
    table = np.zeros(entries, dtype=np.uint64)
    for i in range(entries):
        table[i] = ZERO
    sorted_moves = np.zeros((SIZE + 1, WIDTH), dtype=np.uint64)
    return Tables(table, sorted_moves, ONE, np.int64(0))  # type: ignore[no-untyped-call]


@njit(cache=True)
def next_generation(tables: Tables) -> None:
    """Forget every stored position (a new generation; after the last one, a wiped table)
    and zero the count of positions visited."""
    tables.generation += ONE
    if tables.generation > U64(GENERATIONS):
        table = tables.table
        for i in range(len(table)):
            table[i] = ZERO
        tables.generation = ONE
    tables.nodes = np.int64(0)


@njit(cache=True)
def visited(tables: Tables) -> int:
    """Positions visited since the last new generation."""
    return int(tables.nodes)


@njit(cache=True)
def table_state(tables: Tables) -> tuple[np.ndarray, np.uint64]:
    """The transposition table and the current generation (to look at, not to write)."""
    return tables.table, tables.generation


@njit(cache=True, inline="always")
def popcount(b: np.uint64) -> int:
    """Count the set bits of ``b`` (SWAR; numba has no popcount builtin)."""
    b = b - ((b >> _S1) & _M1)
    b = (b & _M2) + ((b >> _S2) & _M2)
    b = (b + (b >> U64(4))) & _M4
    return int((b * _H01) >> _POP_SHIFT)


@njit(cache=True, inline="always")
def winning_cells(discs: np.uint64, mask: np.uint64) -> np.uint64:
    """Empty cells where one more disc gives ``discs`` four in a row (playable or not)."""
    # Vertical: three discs directly below.
    r = (discs << _S1) & (discs << _S2) & (discs << _S3)
    # Horizontal and both diagonals: the gap may be at either end or inside the line.
    for s in (_SV, _SD1, _SD2):
        p = (discs << s) & (discs << (s + s))
        r |= p & (discs << (s + s + s))
        r |= p & (discs >> s)
        p = (discs >> s) & (discs >> (s + s))
        r |= p & (discs << s)
        r |= p & (discs >> (s + s + s))
    return r & (_BOARD ^ mask)


@njit(cache=True, inline="always")
def playable(mask: np.uint64) -> np.uint64:
    """The cell each open column would receive a disc in."""
    return (mask + _BOTTOM) & _BOARD


@njit(cache=True)
def can_win_now(current: np.uint64, mask: np.uint64) -> bool:
    """Whether the player to move completes four with their next disc."""
    return bool((winning_cells(current, mask) & playable(mask)) != ZERO)


# Without NRT the field reads of ``tables`` take no reference counts (two atomic updates per
# array per call otherwise, a tenth of the solver's time); negamax allocates nothing.
@njit(cache=True, _nrt=False)  # type: ignore[call-overload, untyped-decorator]
def negamax(
    current: np.uint64,
    mask: np.uint64,
    moves: np.int64,
    alpha: np.int64,
    beta: np.int64,
    tables: Tables,
) -> np.int64:
    """Fail-soft negamax score of a position whose mover cannot win at once, in (alpha, beta).

    Scores at or below alpha are upper bounds, at or above beta lower bounds; ``tables``
    counts the position as visited.
    """
    tables.nodes += 1
    # Step 1: moves that do not hand the opponent a four at once.  Two threats the
    # opponent can play now cannot both be blocked; one must be.
    possible = playable(mask)
    threats = winning_cells(current ^ mask, mask)
    forced = possible & threats
    if forced != ZERO:
        if (forced & (forced - ONE)) != ZERO:
            return np.int64(-((SIZE - moves) // 2))
        possible = forced
    # Never play just below an opponent's threat: it would fill the cell under it.
    safe = possible & ~(threats >> _S1)
    if safe == ZERO:
        return np.int64(-((SIZE - moves) // 2))
    if moves >= SIZE - 2:
        return np.int64(0)

    # Step 2: bounds from the rules.  The opponent cannot win with their next disc,
    # and we cannot win with our next one (the caller checked).
    low = np.int64(-((SIZE - 2 - moves) // 2))
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = np.int64((SIZE - 1 - moves) // 2)

    # Step 3: bounds remembered from earlier visits.
    key = current + mask
    table = tables.table
    generation = tables.generation
    slot = np.int64(key % U64(table.shape[0]))
    entry = table[slot]
    if (entry & _KEY_MASK) == key and (entry >> _GENERATION_SHIFT) == generation:
        stored = np.int64((entry >> _BOUND_SHIFT) & _BOUND_MASK)
        if stored >= _LOWER_FROM:
            bound = stored - _LOWER_OFFSET
            if alpha < bound:
                alpha = bound
                if alpha >= beta:
                    return alpha
        else:
            bound = stored - _UPPER_OFFSET
            if beta > bound:
                high = min(high, bound)
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta

    # Step 4: order the moves by how many threats they create; equal counts keep the
    # order of insertion, so the most central of them is searched first.
    sorted_moves = tables.sorted_moves
    n = 0
    for i in range(WIDTH - 1, -1, -1):
        move = safe & _COLUMN[_ORDER[i]]
        if move != ZERO:
            score = U64(popcount(winning_cells(current | move, mask)))
            j = n
            n += 1
            while j > 0 and (sorted_moves[moves, j - 1] >> _SCORE_SHIFT) > score:
                sorted_moves[moves, j] = sorted_moves[moves, j - 1]
                j -= 1
            sorted_moves[moves, j] = (score << _SCORE_SHIFT) | move

    # Step 5: search them best first; the opponent's discs become the mover's.
    tag = generation << _GENERATION_SHIFT
    for k in range(n - 1, -1, -1):
        move = sorted_moves[moves, k] & _MOVE_MASK
        value: np.int64 = -negamax(
            current ^ mask, mask | move, moves + np.int64(1), -beta, -alpha, tables
        )
        if value >= beta:
            table[slot] = key | (U64(value + _LOWER_OFFSET) << _BOUND_SHIFT) | tag
            return value
        if value > alpha:
            alpha = value
    table[slot] = key | (U64(alpha + _UPPER_OFFSET) << _BOUND_SHIFT) | tag
    return alpha
