"""Reading a table's bytes: byte readers, Huffman decoding, the index encoding, one table's value.

Everything here works on one position's 16-slot bitboards (``pos.pieces`` of the
core's ``Position``: ``bbs[color * 8 + kind]``, kinds ``PAWN = 1`` ... ``KING = 6``,
colour occupancy in ``bbs[color * 8]``); Syzygy files code their men the same
way. ``probe_table`` is the one look-up: it finds the table of the position's
material in ``Tables``, encodes the men into the table's index and decodes the
value there. Capture resolution and en passant, which a table alone cannot answer,
are ``plies.syzygy.probe``'s.

Each read is checked against the file's length where a corrupt file could send
it outside (``plies.syzygy.files`` checked the header's regions when it read it).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from plies.core.bits import lsb, popcount
from plies.syzygy.format import (
    DIAG,
    FILE_TO_FILE,
    FLAP,
    KK_IDX,
    LOWER,
    MAX_MEN,
    P_BASE,
    P_BLOCKS,
    P_BLOCKSIZE,
    P_CONST,
    P_DATA,
    P_IDXBITS,
    P_INDEXTABLE,
    P_MAXLEN,
    P_MINLEN,
    P_NUMSYMS,
    P_OFFSET,
    P_SIZEBLOCKS,
    P_SIZETABLE,
    P_SYMLEN,
    P_SYMPAT,
    P_TBSIZE,
    PAWNIDX,
    PTWIST,
    S_FACTOR,
    S_FLAGS,
    S_MAPIDX,
    S_NORM,
    S_PAIRS,
    S_PIECES,
    SLOT_WIDTH,
    T_ENC,
    T_FILE,
    T_LEAD,
    T_MAP,
    T_MEN,
    T_OTHER,
    T_PAWNS,
    T_SYMMETRIC,
    TABLE_HEAD,
    TRIANGLE,
    binomial,
)
from plies.syzygy.tables import MOVE_ROWS, Tables

_U64 = np.uint64

_DTZ_MAP = np.array([1, 3, 0, 2, 0], dtype=np.int64)
"""Which DTZ value map serves each WDL value (index ``wdl + 2``)."""
_DTZ_PLIES_FLAG = np.array([8, 0, 0, 0, 4], dtype=np.int64)
"""The DTZ flag saying a loss / win is stored in plies (index ``wdl + 2``)."""


_FILE = types.Array(types.uint8, 1, "C", readonly=True)


@intrinsic
def file_data(typingctx, addresses, t):  # type: ignore[no-untyped-def]
    """The bytes of table file ``t``, a view over ``addresses[t]`` (its address and length).

    A function compiled without reference counting cannot take an array out of a
    list (nor return one from a function), so the view is built here in place,
    with no owner to count: whoever keeps the mapping alive owns it.
    """

    def by_address(context, builder, signature, args):  # type: ignore[no-untyped-def]
        """A view of ``length`` bytes at ``address``."""
        row = types.UniTuple(types.int64, 2)(addresses, t)
        pair = context.compile_internal(builder, lambda a, i: (a[i, 0], a[i, 1]), row, args)
        ary = make_array(_FILE)(context, builder)
        data = builder.inttoptr(builder.extract_value(pair, 0),
                                context.get_value_type(types.CPointer(types.uint8)))
        one = context.get_constant(types.intp, 1)
        populate_array(ary, data=data,
                       shape=cgutils.pack_array(builder, [builder.extract_value(pair, 1)]),
                       strides=cgutils.pack_array(builder, [one]), itemsize=one,
                       meminfo=None)  # fmt: skip
        return ary._getvalue()

    return _FILE(addresses, t), by_address


@njit(cache=True, nogil=True, inline="always")
def _u16(data: np.ndarray, at: int) -> int:
    """Little-endian 16-bit value at byte ``at``."""
    return np.int64(data[at]) | (np.int64(data[at + 1]) << 8)


@njit(cache=True, nogil=True, inline="always")
def _u32(data: np.ndarray, at: int) -> int:
    """Little-endian 32-bit value at byte ``at``."""
    return _u16(data, at) | (_u16(data, at + 2) << 16)


@njit(cache=True, nogil=True, inline="always")
def _u32be(data: np.ndarray, at: int) -> np.uint64:
    """Big-endian 32-bit value at byte ``at``."""
    return (
        (_U64(data[at]) << _U64(24))
        | (_U64(data[at + 1]) << _U64(16))
        | (_U64(data[at + 2]) << _U64(8))
        | _U64(data[at + 3])
    )


@njit(cache=True, nogil=True, _nrt=False)
def material_key(bbs: np.ndarray) -> int:
    """Material of a position as an integer: 3 bits per count of white, then black, P to Q."""
    key = 0
    for color in range(2):
        for kind in range(1, 6):
            key |= popcount(bbs[color * 8 + kind]) << (3 * (color * 5 + kind - 1))
    return key


@njit(cache=True, nogil=True, _nrt=False)
def _lookup(keys: np.ndarray, key: int) -> int:
    """Index of ``key`` in the sorted ``keys``, -1 if absent."""
    low, high = 0, keys.shape[0]
    while low < high:
        mid = (low + high) >> 1
        if keys[mid] < key:
            low = mid + 1
        else:
            high = mid
    if low < keys.shape[0] and keys[low] == key:
        return low
    return -1


@njit(cache=True, nogil=True, _nrt=False)
def decompress(
    data: np.ndarray, pairs: np.ndarray, row: int, symlen: np.ndarray, base: np.ndarray, idx: int
) -> int:
    """The value stored at index ``idx`` of block set ``row``; -1 if a read would leave the file."""
    pr = pairs[row]
    if pr[P_CONST]:
        return pr[P_MINLEN]
    if idx < 0 or idx >= pr[P_TBSIZE]:
        return -1
    idxbits = pr[P_IDXBITS]
    mainidx = idx >> idxbits
    litidx = (idx & ((1 << idxbits) - 1)) - (1 << (idxbits - 1))
    entry = pr[P_INDEXTABLE] + 6 * mainidx
    block = _u32(data, entry)
    litidx += _u16(data, entry + 4)
    sizetable = pr[P_SIZETABLE]
    sizeblocks = pr[P_SIZEBLOCKS]
    if block >= sizeblocks:
        return -1
    # The index table points near the value; step through block sizes to reach it.
    if litidx < 0:
        while litidx < 0:
            block -= 1
            if block < 0:
                return -1
            litidx += _u16(data, sizetable + 2 * block) + 1
    else:
        while litidx > _u16(data, sizetable + 2 * block):
            litidx -= _u16(data, sizetable + 2 * block) + 1
            block += 1
            if block >= sizeblocks:
                return -1
    if block >= pr[P_BLOCKS]:
        return -1
    ptr = pr[P_DATA] + (block << pr[P_BLOCKSIZE])
    end = data.shape[0]
    if ptr + 8 > end:
        return -1
    minlen = pr[P_MINLEN]
    maxlen = pr[P_MAXLEN]
    bases = pr[P_BASE]
    lens = pr[P_SYMLEN]
    offset = pr[P_OFFSET]
    numsyms = pr[P_NUMSYMS]
    code = (_u32be(data, ptr) << _U64(32)) | _u32be(data, ptr + 4)
    ptr += 8
    bitcnt = 0
    # Canonical Huffman: find the code length, then the symbol; skip whole symbols
    # (each stands for symlen + 1 values) until the one holding litidx.
    while True:
        length = minlen
        while code < base[bases + length - minlen]:
            length += 1
            if length > maxlen:
                return -1
        sym = _u16(data, offset + 2 * length) + np.int64(
            (code - base[bases + length - minlen]) >> _U64(64 - length)
        )
        if sym >= numsyms:
            return -1
        if litidx < symlen[lens + sym] + 1:
            break
        litidx -= symlen[lens + sym] + 1
        code <<= _U64(length)
        bitcnt += length
        if bitcnt >= 32:
            bitcnt -= 32
            if ptr + 4 > end:
                return -1
            code |= _u32be(data, ptr) << _U64(bitcnt)
            ptr += 4
    sympat = pr[P_SYMPAT]
    # Symbols are pairs of smaller symbols: descend to the single value.
    while symlen[lens + sym]:
        w = sympat + 3 * sym
        left = ((np.int64(data[w + 1]) & 0xF) << 8) | np.int64(data[w])
        if litidx < symlen[lens + left] + 1:
            sym = left
        else:
            litidx -= symlen[lens + left] + 1
            sym = (np.int64(data[w + 2]) << 4) | (np.int64(data[w + 1]) >> 4)
    w = sympat + 3 * sym
    return ((np.int64(data[w + 1]) & 0xF) << 8) | np.int64(data[w])


@njit(cache=True, nogil=True, inline="always")
def _offdiag(sq: int) -> int:
    """Rank minus file: 0 on the a1-h8 diagonal, positive above it."""
    return (sq >> 3) - (sq & 7)


@njit(cache=True, nogil=True, inline="always")
def _flipdiag(sq: int) -> int:
    """Mirror a square in the a1-h8 diagonal."""
    return ((sq >> 3) | (sq << 3)) & 63


@njit(cache=True, nogil=True, _nrt=False)
def _encode_rest(row: np.ndarray, slot: int, pos: np.ndarray, men: int, start: int) -> int:
    """Index contribution of the groups of like men from position ``start`` on."""
    idx = 0
    i = start
    while i < men:
        t = row[slot + S_NORM + i]
        for j in range(i, i + t):
            for k in range(j + 1, i + t):
                if pos[j] > pos[k]:
                    pos[j], pos[k] = pos[k], pos[j]
        s = 0
        for m in range(i, i + t):
            p = pos[m]
            below = 0
            for q in range(i):
                below += 1 if p > pos[q] else 0
            s += binomial(p - below, m - i + 1)
        idx += s * row[slot + S_FACTOR + i]
        i += t
    return idx


@njit(cache=True, inline="always")
def _flip(pos: np.ndarray, men: int, mask: int) -> None:
    """Mirror the first ``men`` squares of ``pos``: files (``mask`` 7) or ranks (0x38)."""
    for i in range(men):
        pos[i] ^= mask


@njit(cache=True, inline="always")
def _left_half(pos: np.ndarray, men: int) -> None:
    """Mirror the files of the first ``men`` squares if the first stands on files e-h."""
    if pos[0] & 4:
        _flip(pos, men, 7)


@njit(cache=True, nogil=True, _nrt=False)
def encode_piece(row: np.ndarray, slot: int, pos: np.ndarray) -> int:
    """Index of a pawnless position whose men (table order) are in ``pos``; -1 for no index."""
    men = row[T_MEN]
    enc = row[T_ENC]
    # Bring the first man into the a1-d1-d4 triangle, then under the diagonal.
    _left_half(pos, men)
    if pos[0] & 0x20:
        _flip(pos, men, 0x38)
    i = 0
    while i < men and _offdiag(pos[i]) == 0:
        i += 1
    if i < men and i < (3 if enc == 0 else 2) and _offdiag(pos[i]) > 0:
        for k in range(men):
            pos[k] = _flipdiag(pos[k])
    if enc == 0:
        a = 1 if pos[1] > pos[0] else 0
        b = (1 if pos[2] > pos[0] else 0) + (1 if pos[2] > pos[1] else 0)
        if _offdiag(pos[0]):
            idx = TRIANGLE[pos[0]] * 63 * 62 + (pos[1] - a) * 62 + (pos[2] - b)
        elif _offdiag(pos[1]):
            idx = 6 * 63 * 62 + DIAG[pos[0]] * 28 * 62 + LOWER[pos[1]] * 62 + pos[2] - b
        elif _offdiag(pos[2]):
            idx = (
                6 * 63 * 62
                + 4 * 28 * 62
                + DIAG[pos[0]] * 7 * 28
                + (DIAG[pos[1]] - a) * 28
                + LOWER[pos[2]]
            )
        else:
            idx = (
                6 * 63 * 62
                + 4 * 28 * 62
                + 4 * 7 * 28
                + DIAG[pos[0]] * 7 * 6
                + (DIAG[pos[1]] - a) * 6
                + (DIAG[pos[2]] - b)
            )
        start = 3
    else:
        idx = KK_IDX[TRIANGLE[pos[0]] * 64 + pos[1]]
        if idx < 0:
            return -1
        start = 2
    return idx * row[slot + S_FACTOR] + _encode_rest(row, slot, pos, men, start)


@njit(cache=True, nogil=True, _nrt=False)
def encode_pawn(row: np.ndarray, slot: int, pos: np.ndarray) -> int:
    """Index of a position with pawns whose men (table order, leading pawn first) are in ``pos``."""
    men = row[T_MEN]
    _left_half(pos, men)
    lead = row[T_LEAD]
    for i in range(1, lead):
        for j in range(i + 1, lead):
            if PTWIST[pos[i]] < PTWIST[pos[j]]:
                pos[i], pos[j] = pos[j], pos[i]
    t = lead - 1
    idx = PAWNIDX[t, FLAP[pos[0]]]
    for i in range(t, 0, -1):
        idx += binomial(PTWIST[pos[i]], t - i + 1)
    idx *= row[slot + S_FACTOR]
    i = lead
    end = lead + row[T_OTHER]
    if end > i:
        for j in range(i, end):
            for k in range(j + 1, end):
                if pos[j] > pos[k]:
                    pos[j], pos[k] = pos[k], pos[j]
        s = 0
        for m in range(i, end):
            p = pos[m]
            below = 0
            for q in range(i):
                below += 1 if p > pos[q] else 0
            s += binomial(p - below - 8, m - i + 1)
        idx += s * row[slot + S_FACTOR + i]
        i = end
    return idx + _encode_rest(row, slot, pos, men, i)


@njit(cache=True, nogil=True, _nrt=False)
def _fill(bbs: np.ndarray, code: int, flip: int, square_flip: int, pos: np.ndarray, at: int) -> int:
    """Append the squares of piece ``code ^ flip`` to ``pos`` from ``at``; the new end."""
    b = bbs[code ^ flip]
    while b:
        if at >= MAX_MEN:
            return MAX_MEN + 1
        pos[at] = lsb(b) ^ square_flip
        at += 1
        b &= b - _U64(1)
    return at


@njit(cache=True, nogil=True, _nrt=False)
def probe_table(tables: Tables, bbs: np.ndarray, side: int, dtz: int, wdl: int) -> tuple[int, int]:
    """Value of a position in its WDL (``dtz`` 0) or DTZ (1) table; DTZ needs its ``wdl``.

    Returns ``(value, status)``: status 1 found, 0 missing or unreadable, -1 (DTZ
    only) stored for the other side to move. WDL values come back as -2..2; DTZ
    values as stored (before the caller's WDL-dependent scaling).
    """
    pos = tables.moves[MOVE_ROWS]
    pairs = tables.pairs
    e = _lookup(tables.keys, material_key(bbs) * 2 + dtz)
    if e < 0:
        return 0, 0
    row = tables.rows[tables.entries[e, 0]]
    own = tables.entries[e, 1]
    data = file_data(tables.addresses, row[T_FILE])
    if row[T_SYMMETRIC]:
        flip = side * 8
        square_flip = side * 0x38
        bside = 0
    elif own:
        flip = 0
        square_flip = 0
        bside = side
    else:
        flip = 8
        square_flip = 0x38
        bside = side ^ 1
    men = row[T_MEN]
    if not row[T_PAWNS]:
        slot = TABLE_HEAD + (0 if dtz else bside) * SLOT_WIDTH
        if dtz and (row[slot + S_FLAGS] & 1) != bside and not row[T_SYMMETRIC]:
            return 0, -1
        at = 0
        while at < men:
            at = _fill(bbs, row[slot + S_PIECES + at], flip, 0, pos, at)
            if at > men:
                return 0, 0
        idx = encode_piece(row, slot, pos)
    else:
        lead_code = row[TABLE_HEAD + S_PIECES]
        at = _fill(bbs, lead_code, flip, square_flip, pos, 0)
        if at > men or at == 0:
            return 0, 0
        # The leading pawn with the smallest FLAP picks the file group.
        for i in range(1, row[T_LEAD]):
            if FLAP[pos[0]] > FLAP[pos[i]]:
                pos[0], pos[i] = pos[i], pos[0]
        f = FILE_TO_FILE[pos[0] & 7]
        slot = TABLE_HEAD + (f if dtz else 2 * f + bside) * SLOT_WIDTH
        if dtz and (row[slot + S_FLAGS] & 1) != bside:
            return 0, -1
        while at < men:
            at = _fill(bbs, row[slot + S_PIECES + at], flip, square_flip, pos, at)
            if at > men:
                return 0, 0
        idx = encode_pawn(row, slot, pos)
    prow = row[slot + S_PAIRS]
    if idx < 0 or prow < 0:
        return 0, 0
    value = decompress(data, pairs, prow, tables.symlen, tables.base, idx)
    if value < 0:
        return 0, 0
    if not dtz:
        return (value & 0xFF) - 2, 1
    flags = row[slot + S_FLAGS]
    if flags & 2:
        # Mapped tables store an index into the value map of the position's WDL class.
        at = row[T_MAP] + row[slot + S_MAPIDX + _DTZ_MAP[wdl + 2]] * (2 if flags & 16 else 1)
        if flags & 16:
            at += 2 * value
            if at < 0 or at + 2 > data.shape[0]:
                return 0, 0
            value = _u16(data, at)
        else:
            at += value
            if at < 0 or at + 1 > data.shape[0]:
                return 0, 0
            value = np.int64(data[at])
    if not (flags & _DTZ_PLIES_FLAG[wdl + 2]) or (wdl & 1):
        value *= 2
    return value, 1


@njit(cache=True, nogil=True)
def symbol_lengths(data: np.ndarray, sympat: int, count: int, out: np.ndarray) -> int:
    """Fill ``out[:count]`` with how many values beyond one each symbol stands for.

    Symbols are leaves or pairs of other symbols (12 bits each, three bytes per
    symbol at ``sympat``). Returns 0, or -1 if a pair names a symbol past ``count``
    or contains itself (a corrupt file). Used once per block set when a file is read.
    """
    state = np.zeros(count, dtype=np.int8)  # 0 new, 1 open, 2 done
    todo = np.empty(count + 1, dtype=np.int64)
    for first in range(count):
        if state[first]:
            continue
        top = 0
        todo[0] = first
        while top >= 0:
            s = todo[top]
            w = sympat + 3 * s
            right = (np.int64(data[w + 2]) << 4) | (np.int64(data[w + 1]) >> 4)
            if right == 0xFFF:
                out[s] = 0
                state[s] = 2
                top -= 1
                continue
            left = ((np.int64(data[w + 1]) & 0xF) << 8) | np.int64(data[w])
            if left >= count or right >= count:
                return -1
            state[s] = 1
            if state[left] == 2 and state[right] == 2:
                out[s] = out[left] + out[right] + 1
                state[s] = 2
                top -= 1
                continue
            for c in (left, right):
                if state[c] == 1:
                    return -1
            # Each symbol is pushed once while open, so the stack never exceeds count.
            if state[left] != 2:
                top += 1
                todo[top] = left
                state[left] = 1
            elif state[right] != 2:
                top += 1
                todo[top] = right
                state[right] = 1
    return 0
