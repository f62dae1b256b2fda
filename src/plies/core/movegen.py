"""Legal move generation, done directly with check and pin masks.

No move is made and tested: the generator computes the checkers of our king,
a mask of squares that resolve a single check, the pinned pieces with the
line each may move along, and the squares the enemy attacks with our king
removed from the board (so the king cannot step back along a checking ray).
En passant, whose two vanishing pawns can expose the king along a rank, is
the one case verified by looking at the board after the capture.

``gen_moves`` writes moves into ``out`` (at least ``MAX_MOVES`` long) and
returns their count. With ``noisy_only`` it produces only captures and
promotions (quiescence search); when in check it still produces every evasion,
as quiescence needs them. ``count_moves`` only counts (perft's last ply).

No write lands past the end of ``out``: ``_add_targets`` checks once per
piece that its moves fit (and otherwise only counts them), single moves go
through ``_add``, which clamps the slot to the last one; counting goes on, and
``gen_moves`` raises ``IndexError`` when the count exceeds the buffer. (A
bounds test before every single write would slow generation several times over;
a test per piece costs next to nothing.) Buffers of ``MAX_MOVES`` cannot overflow for
any position the board's validation accepts (see ``encoding.MAX_LEGAL_MOVES``):
the guard is there so that a future change fails loudly instead of corrupting
memory.

``_generate`` is a compiled function that ``gen_moves`` and ``count_moves`` call
with a literal ``count_only``, so numba compiles a copy specialised on it for each
(one copy for both, with ``count_only`` a run-time flag, makes perft slower). It is
not inlined into them: with no argument reference counted the call costs nothing
measurable, while numba's IR inlining types the whole body again in each caller and
made the first-run compile half as long again. ``count_moves`` counts unpinned
pawns set-wise (the move lists keep their per-pawn order, which the search's
move ordering, and so its node counts, depend on). That counter is a separate
function, not inlined: inlining it would add to every cold compile for little
perft speed.

The entry points are compiled with ``_nrt=False`` (no reference counting; see
``plies.jitstruct``), as make/unmake are: reference counting in these loops
would cost a large share of perft speed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import ALL, ONE, U64, ZERO, lsb, popcount
from plies.core.encoding import (
    BISHOP,
    FLAG_CAPTURE,
    FLAG_DOUBLE,
    FLAG_EP,
    FLAG_KING_CASTLE,
    FLAG_PROMO,
    FLAG_PROMO_CAPTURE,
    FLAG_QUEEN_CASTLE,
    FLAG_QUIET,
    FLAG_SHIFT,
    KNIGHT,
    NO_SQUARE,
    PAWN,
    PROMOTION_BIT,
    QUEEN,
    ROOK,
    WHITE,
    piece_code,
)
from plies.core.makemove import make_move, unmake_move
from plies.core.position import (
    Position,
    attackers_to,
    king_square,
    occupancy,
    reserve,
    square_attacked,
)
from plies.core.tables import (
    BETWEEN,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    bishop_attacks,
    rook_attacks,
)

RANK_1 = U64(0x00000000000000FF)
RANK_3 = U64(0x0000000000FF0000)
RANK_6 = U64(0x0000FF0000000000)
RANK_8 = U64(0xFF00000000000000)
FILE_A = U64(0x0101010101010101)
FILE_H = U64(0x8080808080808080)


@njit(cache=True, inline="always")
def _has(b: np.uint64, sq: int) -> bool:
    """Whether square ``sq`` is set in ``b``."""
    return (b >> U64(sq)) & ONE != ZERO


@njit(cache=True, inline="always")
def _safe_squares(pos: Position, squares: np.uint64, occ: np.uint64, them: int) -> np.uint64:
    """The subset of ``squares`` that colour ``them`` does not attack with occupancy ``occ``."""
    safe = ZERO
    while squares:
        sq = lsb(squares)
        squares &= squares - ONE
        # square_attacked skips the slider lookups when no slider is on a line through sq.
        if not square_attacked(pos, sq, occ, them):
            safe |= ONE << U64(sq)
    return safe


@njit(cache=True, inline="always")
def _add(out: np.ndarray, n: int, frm: int, to: int, flag: int, count_only: bool) -> int:
    """Append one move (unless only counting; the last slot if full: the caller raises)."""
    if not count_only:
        out[min(n, out.shape[0] - 1)] = frm | (to << 6) | (flag << FLAG_SHIFT)
    return n + 1


@njit(cache=True, inline="always")
def _add_promotions(
    out: np.ndarray, n: int, frm: int, to: int, capture: bool, count_only: bool
) -> int:
    """Append the four promotions of one pawn move, queen first."""
    base = FLAG_PROMO_CAPTURE if capture else FLAG_PROMO
    for offset in range(3, -1, -1):
        n = _add(out, n, frm, to, base + offset, count_only)
    return n


@njit(cache=True, inline="always")
def _add_targets(
    out: np.ndarray, n: int, frm: int, targets: np.uint64, enemy: np.uint64, count_only: bool
) -> int:
    """Append the moves from ``frm`` to each target (captures flagged), or count them.

    If they do not all fit, nothing is written and only the count grows.
    """
    if count_only or n + popcount(targets) > out.shape[0]:
        return n + popcount(targets)
    while targets:
        to = lsb(targets)
        targets &= targets - ONE
        flag = FLAG_CAPTURE if _has(enemy, to) else FLAG_QUIET
        out[n] = frm | (to << 6) | (flag << FLAG_SHIFT)
        n += 1
    return n


@njit(cache=True, inline="always")
def _pinned(pos: Position, ksq: int, us: int, occ: np.uint64) -> np.uint64:
    """Our pieces pinned to our king (each may move only along its pin line)."""
    them = 1 - us
    bb = pos.pieces
    queens = bb[piece_code(them, QUEEN)]
    enemy = occupancy(pos, them)
    snipers = (rook_attacks(ksq, enemy, pos.sliders) & (bb[piece_code(them, ROOK)] | queens)) | (
        bishop_attacks(ksq, enemy, pos.sliders) & (bb[piece_code(them, BISHOP)] | queens)
    )
    own = occupancy(pos, us)
    pinned = ZERO
    while snipers:
        s = lsb(snipers)
        snipers &= snipers - ONE
        blockers = BETWEEN[ksq, s] & occ
        if blockers != ZERO and (blockers & (blockers - ONE)) == ZERO and (blockers & own):
            pinned |= blockers
    return pinned


@njit(cache=True, inline="always")
def _piece_moves(
    pos: Position, out: np.ndarray, n: int, mover: tuple[int, int, np.uint64], occ: np.uint64,
    move_mask: np.uint64, count_only: bool,
) -> int:  # fmt: skip
    """Knight, bishop, rook and queen moves (a pinned knight can never move); ``mover`` is
    the side to move, its king's square and its pinned pieces."""
    us, ksq, pinned = mover
    bb = pos.pieces
    enemy = occupancy(pos, 1 - us)
    b = bb[piece_code(us, KNIGHT)] & ~pinned
    while b:
        frm = lsb(b)
        b &= b - ONE
        n = _add_targets(out, n, frm, KNIGHT_ATTACKS[frm] & move_mask, enemy, count_only)
    own_queens = bb[piece_code(us, QUEEN)]
    # Bishop and rook lines each get their own loop: a shared one would branch on the
    # slider kind for every piece in the generator's hottest loop.
    b = bb[piece_code(us, BISHOP)] | own_queens
    while b:
        frm = lsb(b)
        b &= b - ONE
        t = bishop_attacks(frm, occ, pos.sliders) & move_mask
        if _has(pinned, frm):
            t &= LINE[ksq, frm]
        n = _add_targets(out, n, frm, t, enemy, count_only)
    b = bb[piece_code(us, ROOK)] | own_queens
    while b:
        frm = lsb(b)
        b &= b - ONE
        t = rook_attacks(frm, occ, pos.sliders) & move_mask
        if _has(pinned, frm):
            t &= LINE[ksq, frm]
        n = _add_targets(out, n, frm, t, enemy, count_only)
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _count_free_pawn_moves(
    pawns: np.uint64, us: int, occ: np.uint64, enemy: np.uint64, evasion: np.uint64
) -> int:
    """Number of moves of unpinned ``pawns``, counted set-wise (en passant excepted).

    Perft's bulk counting: no pawn is visited one by one (a promotion counts four).
    """
    empty = ~occ
    if us == WHITE:
        one = (pawns << U64(8)) & empty
        two = ((one & RANK_3) << U64(8)) & empty & evasion
        left = ((pawns & ~FILE_A) << U64(7)) & enemy & evasion
        right = ((pawns & ~FILE_H) << U64(9)) & enemy & evasion
        promo = RANK_8
    else:
        one = (pawns >> U64(8)) & empty
        two = ((one & RANK_6) >> U64(8)) & empty & evasion
        left = ((pawns & ~FILE_A) >> U64(9)) & enemy & evasion
        right = ((pawns & ~FILE_H) >> U64(7)) & enemy & evasion
        promo = RANK_1
    one &= evasion
    n = popcount(one & ~promo) + popcount(two) + popcount(left & ~promo) + popcount(right & ~promo)
    return n + 4 * (popcount(one & promo) + popcount(left & promo) + popcount(right & promo))


@njit(cache=True, inline="always")
def _pawn_moves(
    pos: Position, out: np.ndarray, n: int, mover: tuple[int, int, np.uint64], occ: np.uint64,
    evasion: np.uint64, noisy: bool, count_only: bool,
) -> int:  # fmt: skip
    """Pawn captures, pushes and promotions (en passant excepted); ``mover`` as
    ``_piece_moves`` takes it."""
    us, ksq, pinned = mover
    enemy = occupancy(pos, 1 - us)
    promo_rank = RANK_8 if us == WHITE else RANK_1
    push_dir = 8 if us == WHITE else -8
    start_rank = 1 if us == WHITE else 6
    b = pos.pieces[piece_code(us, PAWN)]
    if count_only and not noisy:
        # Only the pinned pawns go through the loop below.
        n += _count_free_pawn_moves(b & ~pinned, us, occ, enemy, evasion)
        b &= pinned
    while b:
        frm = lsb(b)
        b &= b - ONE
        line_ok = LINE[ksq, frm] if _has(pinned, frm) else ALL
        caps = PAWN_ATTACKS[us, frm] & enemy & evasion & line_ok
        while caps:
            to = lsb(caps)
            caps &= caps - ONE
            if _has(promo_rank, to):
                n = _add_promotions(out, n, frm, to, True, count_only)
            else:
                n = _add(out, n, frm, to, FLAG_CAPTURE, count_only)
        one = frm + push_dir
        if _has(occ, one) or not _has(line_ok, one):
            continue
        if _has(promo_rank, one):
            if _has(evasion, one):
                n = _add_promotions(out, n, frm, one, False, count_only)
            continue
        if noisy:
            continue
        if _has(evasion, one):
            n = _add(out, n, frm, one, FLAG_QUIET, count_only)
        if frm >> 3 == start_rank:
            two = one + push_dir
            if not _has(occ, two) and _has(evasion, two):
                n = _add(out, n, frm, two, FLAG_DOUBLE, count_only)
    return n


@njit(cache=True, inline="always")
def _en_passant(
    pos: Position, out: np.ndarray, n: int, us: int, ksq: int, occ: np.uint64,
    checkers: np.uint64, count_only: bool,
) -> int:  # fmt: skip
    """En-passant captures, verified on the board after the capture."""
    ep = pos.ep
    if ep == NO_SQUARE:
        return n
    them = 1 - us
    bb = pos.pieces
    cap_sq = ep - 8 if us == WHITE else ep + 8
    candidates = PAWN_ATTACKS[them, ep] & bb[piece_code(us, PAWN)]
    queens = bb[piece_code(them, QUEEN)]
    rq = bb[piece_code(them, ROOK)] | queens
    bq = bb[piece_code(them, BISHOP)] | queens
    while candidates:
        frm = lsb(candidates)
        candidates &= candidates - ONE
        after = (occ ^ (ONE << U64(frm)) ^ (ONE << U64(cap_sq))) | (ONE << U64(ep))
        if rook_attacks(ksq, after, pos.sliders) & rq:
            continue
        if bishop_attacks(ksq, after, pos.sliders) & bq:
            continue
        # A non-slider checker must be the captured pawn itself.
        if checkers & ~(ONE << U64(cap_sq)) & ~(rq | bq):
            continue
        n = _add(out, n, frm, ep, FLAG_EP, count_only)
    return n


@njit(cache=True, inline="always")
def _castling(
    pos: Position, out: np.ndarray, n: int, us: int, ksq: int, occ: np.uint64, count_only: bool
) -> int:
    """Castling moves, never out of, through or into check (the caller checked 'out of').

    Chess960 rules, which standard chess follows as a special case: the paths of
    king and rook are empty but for those two; the squares the king crosses are
    tested with the rook still in place, and its destination with both pieces
    moved (the rook may shield it there, or stop shielding it), as python-chess does.
    """
    rights = (pos.castling >> (2 * us)) & 3
    if rights == 0:
        return n
    them = 1 - us
    for side in range(2):
        # castle_empty leaves out the king's and the rook's own squares.
        right = 2 * us + side
        if not rights & (1 << side) or occ & pos.castle_empty[right]:
            continue
        king_bit = ONE << U64(ksq)
        rook_bit = ONE << U64(pos.castle_rooks[right])
        path = pos.castle_path[right]
        if _safe_squares(pos, path, occ ^ king_bit, them) != path:
            continue
        to = 56 * us + (2 if side else 6)
        rook_to = to + 1 if side else to - 1
        after = (occ ^ king_bit ^ rook_bit) | (ONE << U64(rook_to))
        if not square_attacked(pos, to, after, them):
            flag = FLAG_QUEEN_CASTLE if side else FLAG_KING_CASTLE
            n = _add(out, n, ksq, to, flag, count_only)
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _generate(pos: Position, out: np.ndarray, noisy_only: bool, count_only: bool) -> int:
    """Write (or just count) the legal moves, or only the captures and promotions."""
    us = pos.side
    them = 1 - us
    own = occupancy(pos, us)
    enemy = occupancy(pos, them)
    occ = own | enemy
    ksq = king_square(pos, us)
    checkers = attackers_to(pos, ksq, occ, them)
    check = checkers != ZERO

    # Step 1: king moves, tested with the king lifted off the board so that it
    # cannot retreat along the ray of a slider that checks it.
    targets = KING_ATTACKS[ksq] & ~own
    if noisy_only and not check:
        targets &= enemy
    targets = _safe_squares(pos, targets, occ ^ (ONE << U64(ksq)), them)
    n = _add_targets(out, 0, ksq, targets, enemy, count_only)
    if check and (checkers & (checkers - ONE)) != ZERO:
        return n  # double check: only the king may move

    # Step 2: the squares that answer a single check (capture the checker or block).
    evasion = checkers | BETWEEN[ksq, lsb(checkers)] if check else ALL
    noisy = noisy_only and not check
    move_mask = evasion & ~own
    if noisy:
        move_mask &= enemy

    # Steps 3-7: pins, pieces, pawns, en passant, castling.
    mover = (us, ksq, _pinned(pos, ksq, us, occ))
    n = _piece_moves(pos, out, n, mover, occ, move_mask, count_only)
    n = _pawn_moves(pos, out, n, mover, occ, evasion, noisy, count_only)
    n = _en_passant(pos, out, n, us, ksq, occ, checkers, count_only)
    if not check and not noisy_only:
        n = _castling(pos, out, n, us, ksq, occ, count_only)
    return n


@njit(cache=True, nogil=True, _nrt=False)
def gen_moves(pos: Position, out: np.ndarray, noisy_only: bool) -> int:
    """Write the legal moves (or only captures and promotions) into ``out``; return count.

    Raises IndexError, having written nothing out of bounds, when the moves do
    not fit in ``out``.
    """
    if out.shape[0] == 0:
        raise IndexError("move buffer overflow: the buffer has no room")
    # A literal ``count_only``: numba compiles a copy specialised on it.
    n = _generate(pos, out, noisy_only, False)
    if n > out.shape[0]:
        raise IndexError("move buffer overflow: more legal moves than the buffer holds")
    return n


@njit(cache=True, nogil=True, _nrt=False)
def count_moves(pos: Position, scratch: np.ndarray) -> int:
    """Number of legal moves, without writing them (perft's bulk counting)."""
    return _generate(pos, scratch, False, True)


@njit(cache=True, inline="always")
def _named_move(m: int) -> int:
    """What a move's name says (from, to, promotion, castling), its other flags left out."""
    if m & PROMOTION_BIT:
        return m & (0xFFF | PROMOTION_BIT | (3 << FLAG_SHIFT))
    if m & (FLAG_KING_CASTLE << FLAG_SHIFT):
        # Castling (flag 2 or 3, whatever its capture bit says): in Chess960 a king
        # step and a castling can share their squares (b1c1).
        return m & (0xFFF | (3 << FLAG_SHIFT))
    return m & 0xFFF


@njit(cache=True, nogil=True)
def legal_prefix(pos: Position, line: np.ndarray, scratch: np.ndarray) -> int:
    """How many moves of ``line`` can be played in turn from ``pos``.

    A move of the line is legal when a generated move has its squares and
    promotion (as ``Board.is_legal`` decides). One compiled call for a whole line
    (the engine checks each reported principal variation) instead of two calls per
    move. ``pos`` may grow its undo stack but is otherwise unchanged on return;
    ``scratch`` holds ``MAX_MOVES`` moves.
    """
    reserve(pos, line.shape[0])
    n = 0
    for i in range(line.shape[0]):
        count = gen_moves(pos, scratch, np.bool_(False))
        wanted = _named_move(line[i])
        found = 0
        for j in range(count):
            if _named_move(scratch[j]) == wanted:
                found = scratch[j]
                break
        if found == 0:
            break
        make_move(pos, found)
        n += 1
    for _ in range(n):
        unmake_move(pos)
    return n
