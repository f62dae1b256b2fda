"""Precomputed attack tables (leapers, magic sliders, rays) and Zobrist keys.

Small tables are module globals, which numba freezes into compiled code as
constants. The big slider table ``SLIDER_ATTACKS`` (860 KB) is passed to the
compiled functions as an argument instead, as the numba notes advise.

Slider attacks use "fancy" magic bitboards: for a square, the blockers on its
relevant rays (``*_MASK``) are multiplied by a magic number and shifted, giving
a dense index into that square's slice of ``SLIDER_ATTACKS``. The magic numbers
were found by ``tools/find_magics.py`` (seeded random search) and are checked at
import: a wrong magic makes ``_square_table`` raise. The tables are built with
numpy rather than numba so that importing them costs no compilation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import U64
from plies.core.encoding import BLACK, KING, PAWN, PIECE_SLOTS, WHITE

ROOK_DIRS = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]], dtype=np.int64)
BISHOP_DIRS = np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]], dtype=np.int64)

# fmt: off
ROOK_MAGICS = np.array([
    0x9080001184204004, 0x00C01008A0004000, 0x0500081100C12000, 0x4700090084203000,
    0x9200060068210410, 0x0080020014000980, 0x00801A0001005080, 0x0900018021450002,
    0x3000800220400480, 0x2000400042201000, 0x2201001020010940, 0x8000801000800800,
    0x09010008020C1100, 0x0602001012000884, 0x0441002402000100, 0x0140800244802100,
    0x9220608000C00090, 0x0090054000C82000, 0x0001010010406001, 0x4801848018003000,
    0x0404050010080100, 0x0001010006040008, 0x0900040048900621, 0x000102000A81004C,
    0x1C0440008004208C, 0x1020100340042040, 0x8D02002200348040, 0x0000080080100080,
    0x1084240080080280, 0x14890C0080020080, 0x0081284400223001, 0x0100884600108114,
    0x0002400020800880, 0x0002814000802000, 0x0020806000801004, 0x800A002112004008,
    0x02C2800400800803, 0x0040800400800200, 0x08408A2804000110, 0x040280C582000104,
    0x0080044460044004, 0x6200A01000404001, 0x0101002000450010, 0x408A00C008120020,
    0x0201002800110004, 0x2002008084008002, 0x0813000600110004, 0x0801000040810002,
    0xA001014024800500, 0x02C0A08240090100, 0x0C0A20001106C100, 0x00A8000880100480,
    0x200908020C008080, 0x020200504804C200, 0x01010042000C1100, 0x000580010000D080,
    0x0400209201048042, 0x4A01015080400721, 0x0702091020010045, 0x0888100100082045,
    0x0013001004080023, 0xC022000425081002, 0xC201000200008401, 0xC0000510E4440082,
], dtype=np.uint64)
BISHOP_MAGICS = np.array([
    0x0088A00C04420420, 0x0002840902021000, 0x0008008102002000, 0x0114124200105200,
    0x00051040400910C0, 0x0042051008231410, 0x00184C0444C01000, 0x0000420050080400,
    0x0000102018430442, 0x1080200444104440, 0x0003280805002000, 0x000108060B480010,
    0x0608011040800024, 0x00020D1016500040, 0x100904040C040601, 0x0C04410900900400,
    0x4108000C08081842, 0x4402001010021088, 0x101000080081A228, 0x0008094882044040,
    0x0084000081A00050, 0x0001002210008401, 0x0001002044022000, 0x0600271100821000,
    0x4108200040840104, 0x1004A00042080B00, 0x80910100100408A2, 0x220500C00C004200,
    0x08410040A4054000, 0x0848060110C10088, 0x10A4008704088C00, 0x0423120001098980,
    0x0041041002202000, 0x0284100C11488104, 0x2012034040240100, 0xA020120080080080,
    0x8802008400020160, 0x0A05014200010500, 0x0202020050040444, 0x4304108028328410,
    0x0204090C40101001, 0x0182008420004404, 0x0000082088013000, 0x7000204200806800,
    0x2033400811400202, 0x0001100102000110, 0x0345412602002400, 0x0031240400810048,
    0x014300D004200480, 0x0202048601108000, 0x0018305200901080, 0x0880058105882002,
    0x0008045082020000, 0x1004303010012000, 0x204002821C01000A, 0x0804108400408144,
    0x0001008210030400, 0x00001A0A12120611, 0x0081008042080C00, 0x1002002044840400,
    0x2820040010020202, 0x2008024052041101, 0x8000206002888100, 0x0028020400440100,
], dtype=np.uint64)
# fmt: on


def _on_board(f: int, r: int) -> bool:
    """Whether file/rank coordinates lie on the board."""
    return 0 <= f < 8 and 0 <= r < 8


def _leaper_table(steps: list[tuple[int, int]]) -> np.ndarray:
    """Attack bitboards of a piece that jumps by the given (file, rank) steps."""
    table = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        f, r = sq % 8, sq // 8
        b = 0
        for df, dr in steps:
            if _on_board(f + df, r + dr):
                b |= 1 << ((r + dr) * 8 + f + df)
        table[sq] = b
    return table


KNIGHT_ATTACKS = _leaper_table(
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
)
KING_ATTACKS = _leaper_table(
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
)
# PAWN_ATTACKS[color, sq]: squares a pawn of that colour on sq attacks.
PAWN_ATTACKS = np.stack([_leaper_table([(-1, 1), (1, 1)]), _leaper_table([(-1, -1), (1, -1)])])


def _ray_tables() -> tuple[np.ndarray, np.ndarray]:
    """BETWEEN[a, b]: squares strictly between aligned a and b; LINE[a, b]: the full line."""
    between = np.zeros((64, 64), dtype=np.uint64)
    line = np.zeros((64, 64), dtype=np.uint64)
    dirs = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    for a in range(64):
        fa, ra = a % 8, a // 8
        for df, dr in dirs:
            full = 1 << a
            f, r = fa + df, ra + dr
            while _on_board(f, r):
                full |= 1 << (r * 8 + f)
                f, r = f + df, r + dr
            f, r = fa - df, ra - dr
            while _on_board(f, r):
                full |= 1 << (r * 8 + f)
                f, r = f - df, r - dr
            f, r = fa + df, ra + dr
            passed = 0
            while _on_board(f, r):
                b = r * 8 + f
                between[a, b] = passed
                line[a, b] = full
                passed |= 1 << b
                f, r = f + df, r + dr
    return between, line


BETWEEN, LINE = _ray_tables()


def _rays(sq: int, dirs: np.ndarray) -> list[list[int]]:
    """Squares along each direction from ``sq`` to the edge, nearest first."""
    rays = []
    f0, r0 = sq % 8, sq // 8
    for df, dr in dirs.tolist():
        ray = []
        f, r = f0 + df, r0 + dr
        while _on_board(f, r):
            ray.append(r * 8 + f)
            f, r = f + df, r + dr
        rays.append(ray)
    return rays


def slider_mask(sq: int, dirs: np.ndarray) -> int:
    """Relevant blocker squares of a slider: its rays without the edge squares."""
    mask = 0
    for ray in _rays(sq, dirs):
        for s in ray[:-1]:
            mask |= 1 << s
    return mask


def _square_table(sq: int, dirs: np.ndarray, magic: np.uint64) -> tuple[int, np.ndarray]:
    """Mask bit count and the magic-indexed attack slice of one square, built with numpy."""
    mask = slider_mask(sq, dirs)
    bits = [s for s in range(64) if mask >> s & 1]
    n = len(bits)
    index = np.arange(1 << n, dtype=np.uint64)
    # Subset i of the mask has mask bit j set when bit j of i is set.
    present = ((index[:, None] >> np.arange(n, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    values = np.array([1 << s for s in bits], dtype=np.uint64)
    subsets = np.bitwise_or.reduce(np.where(present, values, np.uint64(0)), axis=1)
    attacks = np.zeros(1 << n, dtype=np.uint64)
    for ray in _rays(sq, dirs):
        blocked = np.zeros(1 << n, dtype=bool)
        for s in ray:
            attacks |= np.where(blocked, np.uint64(0), np.uint64(1 << s))
            if s in bits:
                blocked |= present[:, bits.index(s)]
    slots = (subsets * magic) >> np.uint64(64 - n)
    table = np.zeros(1 << n, dtype=np.uint64)
    table[slots.astype(np.int64)] = attacks
    if not np.array_equal(table[slots.astype(np.int64)], attacks):
        raise RuntimeError(f"bad magic number for square {sq}")
    return n, table


def _build_sliders() -> tuple[np.ndarray, ...]:
    """Build masks, shifts, offsets and the shared attack table for rooks and bishops."""
    masks, shifts, offsets, slices = [], [], [], []
    total = 0
    for dirs, magics in ((ROOK_DIRS, ROOK_MAGICS), (BISHOP_DIRS, BISHOP_MAGICS)):
        for sq in range(64):
            n, table = _square_table(sq, dirs, magics[sq])
            masks.append(slider_mask(sq, dirs))
            shifts.append(64 - n)
            offsets.append(total)
            slices.append(table)
            total += table.shape[0]
    m = np.array(masks, dtype=np.uint64)
    s = np.array(shifts, dtype=np.int64)
    o = np.array(offsets, dtype=np.int64)
    return m[:64], s[:64], o[:64], m[64:], s[64:], o[64:], np.concatenate(slices)


(
    ROOK_MASKS, ROOK_SHIFTS, ROOK_OFFSETS,
    BISHOP_MASKS, BISHOP_SHIFTS, BISHOP_OFFSETS, SLIDER_ATTACKS,
) = _build_sliders()  # fmt: skip


# Slider attacks on an empty board: a slider that is not on one of these lines
# cannot attack the square, whatever stands between (a cheap test before a lookup).
ROOK_PSEUDO = SLIDER_ATTACKS[ROOK_OFFSETS].copy()
BISHOP_PSEUDO = SLIDER_ATTACKS[BISHOP_OFFSETS].copy()


@njit(cache=True, inline="always")
def rook_attacks(sq: int, occ: np.uint64, att: np.ndarray) -> np.uint64:
    """Squares a rook on ``sq`` attacks given occupancy ``occ``."""
    idx = ((occ & ROOK_MASKS[sq]) * ROOK_MAGICS[sq]) >> U64(ROOK_SHIFTS[sq])
    return att[ROOK_OFFSETS[sq] + int(idx)]


@njit(cache=True, inline="always")
def bishop_attacks(sq: int, occ: np.uint64, att: np.ndarray) -> np.uint64:
    """Squares a bishop on ``sq`` attacks given occupancy ``occ``."""
    idx = ((occ & BISHOP_MASKS[sq]) * BISHOP_MAGICS[sq]) >> U64(BISHOP_SHIFTS[sq])
    return att[BISHOP_OFFSETS[sq] + int(idx)]


def _zobrist() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.uint64]:
    """Fixed-seed random keys: pieces (by code) on squares, castling, ep file, side to move."""
    rng = np.random.Generator(np.random.PCG64(0x706C696573))
    pieces = rng.integers(0, 2**64 - 1, size=(12, 64), dtype=np.uint64, endpoint=True)
    castle = rng.integers(0, 2**64 - 1, size=16, dtype=np.uint64, endpoint=True)
    ep = rng.integers(0, 2**64 - 1, size=8, dtype=np.uint64, endpoint=True)
    side = rng.integers(0, 2**64 - 1, size=1, dtype=np.uint64, endpoint=True)[0]
    castle[0] = 0
    # Rows by piece code (colour * 8 + kind); the draws above keep their old order
    # (colour * 6 + kind - 1) so that keys, and with them the search, stay the same.
    by_code = np.zeros((PIECE_SLOTS, 64), dtype=np.uint64)
    for color in (WHITE, BLACK):
        for kind in range(PAWN, KING + 1):
            by_code[color * 8 + kind] = pieces[color * 6 + kind - 1]
    return by_code, castle, ep, side


ZOBRIST_PIECE, ZOBRIST_CASTLE, ZOBRIST_EP, ZOBRIST_SIDE = _zobrist()
