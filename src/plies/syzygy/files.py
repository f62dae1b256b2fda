"""Read one Syzygy table file's header into the flat rows the compiled prober uses.

A table file is a header (magic, flags, the order and encoding of the men for
each side and pawn file group), one or two compressed block sets per group
(canonical Huffman codes over paired symbols), their index and size tables and
the 64-byte-aligned data blocks. ``read_table`` checks the magic bytes, the size
and that every region lies inside the file, so that the compiled code, which has
no bounds checks of its own beyond a few cheap ones, never reads outside it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import numpy as np

from plies.syzygy.decode import symbol_lengths
from plies.syzygy.format import (
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
    PAIRS_WIDTH,
    PFACTOR,
    PIVFAC,
    S_FACTOR,
    S_FLAGS,
    S_MAPIDX,
    S_NORM,
    S_PAIRS,
    S_PIECES,
    SLOT_WIDTH,
    T_DTZ,
    T_ENC,
    T_FILE,
    T_LEAD,
    T_MAP,
    T_MEN,
    T_OTHER,
    T_PAWNS,
    T_SYMMETRIC,
    TABLE_HEAD,
    TABLE_WIDTH,
    binomial,
)

WDL_SUFFIX = ".rtbw"
"""File name ending of a win/draw/loss table."""
DTZ_SUFFIX = ".rtbz"
"""File name ending of a distance-to-zeroing table."""
WDL_MAGIC = bytes((0x71, 0xE8, 0x23, 0x5D))
"""First four bytes of every WDL file."""
DTZ_MAGIC = bytes((0xD7, 0x66, 0x0C, 0xA5))
"""First four bytes of every DTZ file."""

PIECE_ORDER = "KQRBNP"
"""Piece letters in the order table names list them."""
_NAME = re.compile(r"^K[QRBNP]*vK[QRBNP]*$")
# Piece kind of each letter in plies' numbering (PAWN = 1 ... KING = 6).
_KIND = {"P": 1, "N": 2, "B": 3, "R": 4, "Q": 5, "K": 6}


class TableError(ValueError):
    """A table file that cannot be used: bad name, size, magic bytes or layout."""


def normalize(name: str) -> str:
    """The canonical name of an ending: stronger side first, pieces in KQRBNP order."""
    white, black = name.split("v", 1)
    white = "".join(sorted(white, key=PIECE_ORDER.index))
    black = "".join(sorted(black, key=PIECE_ORDER.index))
    w_rank = (len(white), [PIECE_ORDER.index(c) for c in black])
    b_rank = (len(black), [PIECE_ORDER.index(c) for c in white])
    return black + "v" + white if w_rank < b_rank else white + "v" + black


def material_key_of(white: str, black: str) -> int:
    """The compiled ``material_key`` of a position with these pieces (letters, kings ignored)."""
    key = 0
    for color, letters in enumerate((white, black)):
        for letter in letters:
            if letter != "K":
                key += 1 << (3 * (color * 5 + _KIND[letter] - 1))
    return key


def _key_of_codes(codes: list[int], mirror: bool) -> int:
    """Material key of a table's piece codes (colour bit 8), colours swapped when ``mirror``."""
    sides = ["", ""]
    for code in codes:
        sides[(code >> 3) ^ int(mirror)] += " PNBRQK"[code & 7]
    return material_key_of(sides[0], sides[1])


@dataclass
class TableInfo:
    """One parsed table file: its compiled row and the block sets it owns."""

    path: str
    """The file read."""
    name: str
    """Canonical ending name, e.g. ``KRvKP``."""
    dtz: bool
    """True for a ``.rtbz`` DTZ table, False for ``.rtbw`` WDL."""
    data: np.ndarray
    """The file, memory-mapped read-only (``uint8``)."""
    row: np.ndarray
    """The table's row (``TABLE_WIDTH`` int64); pairs and symbol offsets are local until linked."""
    pairs: list[np.ndarray] = field(default_factory=list)
    """Block-set rows (``PAIRS_WIDTH`` int64), symbol/base starts local to this table."""
    symlen: list[np.ndarray] = field(default_factory=list)
    """Symbol lengths of each block set."""
    base: list[np.ndarray] = field(default_factory=list)
    """Canonical code bases of each block set."""
    key: int = 0
    """Material key of the position as the table stores it (white = the table's first side)."""
    mirrored_key: int = 0
    """Material key with colours swapped."""

    @property
    def men(self) -> int:
        """Men on the board, kings included."""
        return int(self.row[T_MEN])


class _Reader:
    """Bounds-checked little/big-endian reads from a table file."""

    def __init__(self, data: np.ndarray, path: str) -> None:
        """Wrap the mapped bytes of ``path``."""
        self.data = data
        self.path = path
        self.size = int(data.shape[0])

    def need(self, end: int, what: str) -> None:
        """Raise unless bytes up to ``end`` exist."""
        if end > self.size or end < 0:
            raise TableError(
                f"{self.path}: truncated or corrupt ({what} ends at byte {end}, "
                f"file has {self.size})"
            )

    def u8(self, at: int) -> int:
        """Byte at ``at``."""
        self.need(at + 1, "header")
        return int(self.data[at])

    def u16(self, at: int) -> int:
        """Little-endian 16-bit value at ``at``."""
        self.need(at + 2, "header")
        return int(self.data[at]) | (int(self.data[at + 1]) << 8)

    def u32(self, at: int) -> int:
        """Little-endian 32-bit value at ``at``."""
        return self.u16(at) | (self.u16(at + 2) << 16)


class _Shape:
    """The material of a table name: men, pawns, pawnless encoding."""

    def __init__(self, name: str) -> None:
        """Derive the counts from ``name`` (canonical, ``KQvKR``)."""
        self.name = name
        self.men = len(name) - 1
        first, second = name.split("v")
        self.has_pawns = "P" in name
        self.symmetric = first == second
        lead, other = second.count("P"), first.count("P")
        if other > 0 and (lead == 0 or other < lead):
            lead, other = other, lead
        self.lead, self.other = lead, other
        unique = sum((first.count(p) == 1) + (second.count(p) == 1) for p in PIECE_ORDER)
        self.enc = 0 if unique >= 3 else 2
        if not self.has_pawns and unique < 2:
            raise TableError(f"{name}: no two unique men (not a chess ending plies can probe)")

    def norm_piece(self, pieces: list[int]) -> list[int]:
        """Group sizes of a pawnless piece order (the leading group is the first 3 or 2 men)."""
        norm = [0] * self.men
        norm[0] = 3 if self.enc == 0 else 2
        self._group(norm, pieces, norm[0])
        return norm

    def norm_pawn(self, pieces: list[int]) -> list[int]:
        """Group sizes of a piece order with pawns (leading pawns, other pawns, then like men)."""
        norm = [0] * self.men
        norm[0] = self.lead
        if self.other:
            norm[self.lead] = self.other
        self._group(norm, pieces, self.lead + self.other)
        return norm

    def _group(self, norm: list[int], pieces: list[int], start: int) -> None:
        """Fill ``norm`` with the runs of equal pieces from ``start`` on."""
        i = start
        while i < self.men:
            j = i
            while j < self.men and pieces[j] == pieces[i]:
                norm[i] += 1
                j += 1
            i += norm[i]

    def factors_piece(self, norm: list[int], order: int) -> tuple[list[int], int]:
        """Index multipliers of a pawnless order and the index count."""
        return self._factors(norm, norm[0], {order: (0, int(PIVFAC[self.enc]))})

    def factors_pawn(
        self, norm: list[int], order: int, order2: int, file: int
    ) -> tuple[list[int], int]:
        """Index multipliers of an order with pawns for file group ``file``; the index count."""
        lead = norm[0]
        first = lead
        groups = {}
        if order2 < 0x0F:
            first += norm[lead]
            groups[order2] = (lead, binomial.py_func(48 - lead, norm[lead]))
        groups[order] = (0, int(PFACTOR[lead - 1, file]))
        return self._factors(norm, first, groups)

    def _factors(
        self, norm: list[int], first: int, groups: dict[int, tuple[int, int]]
    ) -> tuple[list[int], int]:
        """Index multipliers and the index count of an order: a leading group (by its
        place in the order: its factor slot and placements) multiplies in at its turn,
        the runs of men from ``first`` on share the squares left."""
        factor = [0] * MAX_MEN
        n = 64 - first
        f, i, k = 1, first, 0
        while i < self.men or k in groups:
            if k in groups:
                slot, placements = groups[k]
                factor[slot] = f
                f *= placements
            else:
                factor[i] = f
                f *= binomial.py_func(n, norm[i])
                n -= norm[i]
                i += norm[i]
            k += 1
        return factor, f


def _symbol_lengths(rd: _Reader, sympat: int, count: int) -> np.ndarray:
    """How many values beyond one each symbol stands for, checking the pair tree is sound."""
    rd.need(sympat + 3 * count, "symbol table")
    lengths = np.zeros(count, dtype=np.int64)
    if symbol_lengths(rd.data, sympat, count, lengths) != 0:
        raise TableError(f"{rd.path}: corrupt symbol table")
    return lengths


def _setup_pairs(
    rd: _Reader, ptr: int, tb_size: int, wdl: bool, info: TableInfo
) -> tuple[int, int, list[int], int]:
    """Read a block set's header at ``ptr``: pairs row, next offset, region sizes, flags."""
    row = np.zeros(PAIRS_WIDTH, dtype=np.int64)
    flags = rd.u8(ptr)
    row[P_TBSIZE] = tb_size
    if flags & 0x80:
        row[P_CONST] = 1
        row[P_MINLEN] = rd.u8(ptr + 1) if wdl else 0
        return (
            _add_pairs(info, row, np.zeros(0, np.int64), np.zeros(0, np.uint64)),
            ptr + 2,
            [0, 0, 0],
            flags,
        )
    blocksize = rd.u8(ptr + 1)
    idxbits = rd.u8(ptr + 2)
    real_blocks = rd.u32(ptr + 4)
    blocks = real_blocks + rd.u8(ptr + 3)
    max_len = rd.u8(ptr + 8)
    min_len = rd.u8(ptr + 9)
    if not (1 <= min_len <= max_len < 64) or not (1 <= idxbits < 40) or blocksize >= 40:
        raise TableError(f"{rd.path}: corrupt block header (code lengths {min_len}-{max_len})")
    h = max_len - min_len + 1
    num_syms = rd.u16(ptr + 10 + 2 * h)
    offset = ptr + 10
    sympat = ptr + 12 + 2 * h
    nxt = sympat + 3 * num_syms + (num_syms & 1)
    rd.need(nxt, "block header")
    symlen = _symbol_lengths(rd, sympat, num_syms)
    bases = [0] * h
    for i in range(h - 2, -1, -1):
        bases[i] = (bases[i + 1] + rd.u16(offset + 2 * i) - rd.u16(offset + 2 * i + 2)) // 2
    shifted = []
    for i in range(h):
        value = bases[i] << (64 - (min_len + i))
        if not 0 <= value < 1 << 64:
            raise TableError(f"{rd.path}: corrupt code table")
        shifted.append(value)
    num_indices = (tb_size + (1 << idxbits) - 1) >> idxbits
    row[P_IDXBITS] = idxbits
    row[P_BLOCKSIZE] = blocksize
    row[P_MINLEN] = min_len
    row[P_MAXLEN] = max_len
    row[P_OFFSET] = offset - 2 * min_len
    row[P_SYMPAT] = sympat
    row[P_NUMSYMS] = num_syms
    row[P_BLOCKS] = real_blocks
    row[P_SIZEBLOCKS] = blocks
    sizes = [6 * num_indices, 2 * blocks, (1 << blocksize) * real_blocks]
    return _add_pairs(info, row, symlen, np.array(shifted, dtype=np.uint64)), nxt, sizes, flags


def _add_pairs(info: TableInfo, row: np.ndarray, symlen: np.ndarray, base: np.ndarray) -> int:
    """Append a block set to ``info`` (offsets local to the table); its local index."""
    row[P_SYMLEN] = sum(len(s) for s in info.symlen)
    row[P_BASE] = sum(len(b) for b in info.base)
    info.pairs.append(row)
    info.symlen.append(symlen)
    info.base.append(base)
    return len(info.pairs) - 1


def _place(rd: _Reader, info: TableInfo, sets: list[tuple[int, list[int]]], ptr: int) -> None:
    """Place the index, size and data regions of ``sets`` (pairs, sizes) from ``ptr``."""
    for p, sizes in sets:
        info.pairs[p][P_INDEXTABLE] = ptr
        ptr += sizes[0]
    for p, sizes in sets:
        info.pairs[p][P_SIZETABLE] = ptr
        ptr += sizes[1]
    for p, sizes in sets:
        ptr = (ptr + 0x3F) & ~0x3F
        info.pairs[p][P_DATA] = ptr
        ptr += sizes[2]
    rd.need(ptr, "block data")


def _set_slot(
    row: np.ndarray, slot: int, pieces: list[int], norm: list[int], factor: list[int]
) -> None:
    """Write one slot's piece order, group sizes and multipliers."""
    if any(f < 0 or f >= 1 << 62 for f in factor):
        raise OverflowError("index factor out of range")
    at = TABLE_HEAD + slot * SLOT_WIDTH
    row[at + S_PIECES : at + S_PIECES + len(pieces)] = pieces
    row[at + S_NORM : at + S_NORM + len(norm)] = norm
    row[at + S_FACTOR : at + S_FACTOR + len(factor)] = factor


def _pairs_of(row: np.ndarray, slot: int, pairs: int) -> None:
    """Point a slot at its block set."""
    row[TABLE_HEAD + slot * SLOT_WIDTH + S_PAIRS] = pairs


def read_table(path: str) -> TableInfo:
    """Map and parse a ``.rtbw`` or ``.rtbz`` file; raise ``TableError`` saying what is wrong."""
    base_name = os.path.basename(path)
    stem, suffix = os.path.splitext(base_name)
    if suffix not in (WDL_SUFFIX, DTZ_SUFFIX):
        raise TableError(f"{path}: not a Syzygy table (ending {suffix!r})")
    if not _NAME.match(stem) or normalize(stem) != stem or len(stem) - 1 > MAX_MEN:
        raise TableError(f"{path}: not a Syzygy table name ({stem!r})")
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise TableError(f"{path}: cannot read ({exc.strerror})") from exc
    if size % 64 != 16:
        raise TableError(
            f"{path}: invalid size {size} bytes (a Syzygy file has 16 more than a multiple of 64)"
        )
    try:
        data = np.memmap(path, dtype=np.uint8, mode="r")
    except (OSError, ValueError) as exc:
        raise TableError(f"{path}: cannot map ({exc})") from exc
    dtz = suffix == DTZ_SUFFIX
    magic = DTZ_MAGIC if dtz else WDL_MAGIC
    if bytes(data[:4]) != magic:
        raise TableError(
            f"{path}: bad magic bytes {bytes(data[:4]).hex()} (expected {magic.hex()})"
        )
    shape = _Shape(stem)
    row = np.full(TABLE_WIDTH, 0, dtype=np.int64)
    for slot in range(8):
        _pairs_of(row, slot, -1)
    row[T_FILE] = -1
    row[T_MEN] = shape.men
    row[T_PAWNS] = shape.has_pawns
    row[T_SYMMETRIC] = shape.symmetric
    row[T_ENC] = shape.enc
    row[T_LEAD] = shape.lead
    row[T_OTHER] = shape.other
    row[T_DTZ] = dtz
    info = TableInfo(path=path, name=stem, dtz=dtz, data=data, row=row)
    first, second = stem.split("v")
    info.key = material_key_of(first, second)
    info.mirrored_key = material_key_of(second, first)
    rd = _Reader(data, path)
    try:
        if dtz:
            _read_dtz(rd, shape, info)
        else:
            _read_wdl(rd, shape, info)
    except (IndexError, KeyError, OverflowError) as exc:
        raise TableError(f"{path}: corrupt header ({type(exc).__name__})") from exc
    return info


def _check_pieces(rd: _Reader, shape: _Shape, pieces: list[int]) -> None:
    """Raise unless a header's piece list is the table's material (either colour first)."""
    first, second = shape.name.split("v")
    own = sorted([_KIND[c] for c in first] + [8 | _KIND[c] for c in second])
    swapped = sorted([8 | _KIND[c] for c in first] + [_KIND[c] for c in second])
    if sorted(pieces) not in (own, swapped):
        raise TableError(f"{rd.path}: corrupt header (piece list does not match {shape.name})")
    if shape.has_pawns and (pieces[0] & 7 != 1 or pieces.count(pieces[0]) != shape.lead):
        raise TableError(f"{rd.path}: corrupt header (leading pawns do not match {shape.name})")


def _read_wdl(rd: _Reader, shape: _Shape, info: TableInfo) -> None:
    """Parse a WDL file's header into ``info``."""
    row = info.row
    split = rd.u8(4) & 1
    groups = 4 if rd.u8(4) & 2 else 1
    ptr = 5
    sets: list[tuple[int, list[int]]] = []
    if not shape.has_pawns:
        sizes = []
        for bside in range(2):
            shift = 4 * bside
            pieces = [(rd.u8(ptr + 1 + i) >> shift) & 0x0F for i in range(shape.men)]
            _check_pieces(rd, shape, pieces)
            norm = shape.norm_piece(pieces)
            factor, tb_size = shape.factors_piece(norm, (rd.u8(ptr) >> shift) & 0x0F)
            _set_slot(row, bside, pieces, norm, factor)
            sizes.append(tb_size)
            if bside == 0:
                codes = pieces
        ptr += shape.men + 1
        ptr += ptr & 1
        for bside in range(1 + split):
            p, ptr, region, _ = _setup_pairs(rd, ptr, sizes[bside], True, info)
            _pairs_of(row, bside, p)
            sets.append((p, region))
        info.key = _key_of_codes(codes, False)
        info.mirrored_key = _key_of_codes(codes, True)
        _place(rd, info, sets, ptr)
        return
    width = 1 + (shape.other > 0)
    sizes = []
    for f in range(4):
        for bside in range(2):
            shift = 4 * bside
            order = (rd.u8(ptr) >> shift) & 0x0F
            order2 = (rd.u8(ptr + 1) >> shift) & 0x0F if shape.other else 0x0F
            pieces = [(rd.u8(ptr + i + width) >> shift) & 0x0F for i in range(shape.men)]
            _check_pieces(rd, shape, pieces)
            norm = shape.norm_pawn(pieces)
            factor, tb_size = shape.factors_pawn(norm, order, order2, f)
            _set_slot(row, 2 * f + bside, pieces, norm, factor)
            sizes.append(tb_size)
        ptr += shape.men + width
    ptr += ptr & 1
    for f in range(groups):
        for bside in range(1 + split):
            p, ptr, region, _ = _setup_pairs(rd, ptr, sizes[2 * f + bside], True, info)
            _pairs_of(row, 2 * f + bside, p)
            sets.append((p, region))
    _place(rd, info, sets, ptr)


def _read_dtz(rd: _Reader, shape: _Shape, info: TableInfo) -> None:
    """Parse a DTZ file's header (one side stored per group, plus value maps) into ``info``."""
    row = info.row
    groups = 4 if rd.u8(4) & 2 else 1
    ptr = 5
    if not shape.has_pawns:
        pieces = [rd.u8(ptr + 1 + i) & 0x0F for i in range(shape.men)]
        _check_pieces(rd, shape, pieces)
        norm = shape.norm_piece(pieces)
        factor, tb_size = shape.factors_piece(norm, rd.u8(ptr) & 0x0F)
        _set_slot(row, 0, pieces, norm, factor)
        ptr += shape.men + 1
        ptr += ptr & 1
        p, ptr, region, flags = _setup_pairs(rd, ptr, tb_size, False, info)
        _pairs_of(row, 0, p)
        row[TABLE_HEAD + S_FLAGS] = flags
        row[T_MAP] = ptr
        if flags & 2:
            ptr = _read_maps(rd, row, 0, flags, ptr, ptr, align=False)
        ptr += ptr & 1
        info.key = _key_of_codes(pieces, False)
        info.mirrored_key = _key_of_codes(pieces, True)
        _place(rd, info, [(p, region)], ptr)
        return
    width = 1 + (shape.other > 0)
    sizes = []
    for f in range(4):
        order = rd.u8(ptr) & 0x0F
        order2 = rd.u8(ptr + 1) & 0x0F if shape.other else 0x0F
        pieces = [rd.u8(ptr + i + width) & 0x0F for i in range(shape.men)]
        _check_pieces(rd, shape, pieces)
        norm = shape.norm_pawn(pieces)
        factor, tb_size = shape.factors_pawn(norm, order, order2, f)
        _set_slot(row, f, pieces, norm, factor)
        sizes.append(tb_size)
        ptr += shape.men + width
    ptr += ptr & 1
    sets = []
    all_flags = []
    for f in range(groups):
        p, ptr, region, flags = _setup_pairs(rd, ptr, sizes[f], False, info)
        _pairs_of(row, f, p)
        row[TABLE_HEAD + f * SLOT_WIDTH + S_FLAGS] = flags
        all_flags.append(flags)
        sets.append((p, region))
    start = ptr
    row[T_MAP] = start
    for f in range(groups):
        if all_flags[f] & 2:
            ptr = _read_maps(rd, row, f, all_flags[f], ptr, start, align=True)
    ptr += ptr & 1
    _place(rd, info, sets, ptr)


def _read_maps(
    rd: _Reader, row: np.ndarray, slot: int, flags: int, ptr: int, start: int, align: bool
) -> int:
    """Record where a slot's four DTZ value maps start; the offset after them."""
    at = TABLE_HEAD + slot * SLOT_WIDTH + S_MAPIDX
    if not flags & 16:
        for i in range(4):
            row[at + i] = ptr + 1 - start
            ptr += 1 + rd.u8(ptr)
    else:
        if align:
            ptr += ptr & 1
        for i in range(4):
            row[at + i] = (ptr + 2 - start) // 2
            ptr += 2 + 2 * rd.u16(ptr)
    rd.need(ptr, "value maps")
    return ptr
