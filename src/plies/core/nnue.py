"""The net's compiled inference: accumulators kept move by move, and the output.

The net and its file are ``plies.core.netfile`` (the spec: ``docs/nnue-spec.md``);
what the search does with the output (fade, the cannot-win rule, a residual net's
sum with the classical evaluation) is ``plies.core.static_eval``.

The accumulators live in the position (``Position.acc``, int16[cap + 1, 2, H],
one row pair per ply), next to the quantised weights (fields, not compile-time
constants: a new net needs no recompile). ``make_move`` only marks ply + 1's
accumulators pending; ``catch_up``, run by ``output`` before it reads them,
derives each pending row from the one below with the few ``add_sub*`` row
updates its move needs; ``unmake_move`` just returns to the lower ply. The
search refreshes the root's accumulators (``refresh``) before it starts, so
callers need not maintain them.

With king buckets (``Position.king_map``) a perspective's features depend on its
own king's square: each row is derived with the *current* board's king views,
which is right as long as no move since the last computed row changed a king's
bucket or mirror side. When one did (a rare king move), ``catch_up`` rebuilds the
current row from the board instead and leaves the rows between pending, so a
later evaluation at one of those plies rebuilds that ply from its own board.

Every per-node function is ``_nrt=False`` (no reference counting, see
``plies.jitstruct``) and works on whole contiguous int16 rows so LLVM
vectorises the loops.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import lsb, popcount
from plies.core.encoding import (
    ALL_KINDS,
    BLACK,
    FLAG_EP,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    KING,
    NO_PIECE,
    ROOK,
    WHITE,
    color_of,
    is_promotion,
    move_flag,
    move_from,
    move_to,
    piece_code,
    promotion_kind,
    rook_castle_squares,
)
from plies.core.netfile import BUCKET_SPAN, QA, QB, SCALE
from plies.core.position import Position
from plies.core.undo import UNDO_CAPTURED, UNDO_MOVE, UNDO_MOVED, UNDO_PENDING


@njit(cache=True, inline="always")
def feature(persp: int, piece: int, sq: int, view: int) -> int:
    """Input index of ``piece`` on ``sq`` seen from perspective ``persp`` (spec's ``index``)
    whose king view (``king_view``) is ``view``."""
    color = piece >> 3
    kind_row = ((piece & 7) - 1) * 64
    base = view >> 3
    flip = view & 7
    if persp == WHITE:
        return base + color * 384 + kind_row + (sq ^ flip)
    return base + (1 - color) * 384 + kind_row + (sq ^ 56 ^ flip)


@njit(cache=True, inline="always")
def square_view(king_map: np.ndarray, persp: int, king_sq: int) -> int:
    """The king view of perspective ``persp`` with its own king on ``king_sq``: the feature
    offset of the king's bucket times 8 plus the file mirror (0 without king buckets)."""
    if king_map.shape[0] == 0:
        return 0
    ks = king_sq if persp == WHITE else king_sq ^ 56
    return king_map[0, ks] * 8 + king_map[1, ks]


@njit(cache=True, inline="always")
def king_view(pos: Position, persp: int) -> int:
    """``square_view`` of perspective ``persp`` on the current board."""
    if pos.king_map.shape[0] == 0:
        return 0
    return square_view(pos.king_map, persp, lsb(pos.pieces[piece_code(persp, KING)]))


# One kernel per move shape (quiet move, capture, castling), not one loop over a list of
# features: each is a single fused pass over the row that LLVM vectorises, per node.
@njit(cache=True, nogil=True, _nrt=False)
def add_sub(acc: np.ndarray, ply: int, w: np.ndarray, views: tuple[int, int],
            added: tuple[int, int], removed: tuple[int, int]) -> None:  # fmt: skip
    """acc[ply + 1] = acc[ply] + one feature - another, both perspectives (a quiet move);
    each feature a (piece, square) pair."""
    add_piece, add_sq = added
    sub_piece, sub_sq = removed
    for p in range(2):
        src = acc[ply, p]
        dst = acc[ply + 1, p]
        v = views[p]
        a = w[feature(p, add_piece, add_sq, v)]
        s = w[feature(p, sub_piece, sub_sq, v)]
        for j in range(src.shape[0]):
            dst[j] = src[j] + a[j] - s[j]


@njit(cache=True, nogil=True, _nrt=False)
def add_sub_sub(acc: np.ndarray, ply: int, w: np.ndarray, views: tuple[int, int],
                added: tuple[int, int], removed: tuple[int, int],
                removed2: tuple[int, int]) -> None:  # fmt: skip
    """acc[ply + 1] = acc[ply] + one feature - two (a capture)."""
    add_piece, add_sq = added
    sub_piece, sub_sq = removed
    sub2_piece, sub2_sq = removed2
    for p in range(2):
        src = acc[ply, p]
        dst = acc[ply + 1, p]
        v = views[p]
        a = w[feature(p, add_piece, add_sq, v)]
        s = w[feature(p, sub_piece, sub_sq, v)]
        s2 = w[feature(p, sub2_piece, sub2_sq, v)]
        for j in range(src.shape[0]):
            dst[j] = src[j] + a[j] - s[j] - s2[j]


@njit(cache=True, nogil=True, _nrt=False)
def add_add_sub_sub(acc: np.ndarray, ply: int, w: np.ndarray, views: tuple[int, int],
                    added: tuple[int, int], added2: tuple[int, int], removed: tuple[int, int],
                    removed2: tuple[int, int]) -> None:  # fmt: skip
    """acc[ply + 1] = acc[ply] + two features - two (castling: king and rook move)."""
    add_piece, add_sq = added
    add2_piece, add2_sq = added2
    sub_piece, sub_sq = removed
    sub2_piece, sub2_sq = removed2
    for p in range(2):
        src = acc[ply, p]
        dst = acc[ply + 1, p]
        v = views[p]
        a = w[feature(p, add_piece, add_sq, v)]
        a2 = w[feature(p, add2_piece, add2_sq, v)]
        s = w[feature(p, sub_piece, sub_sq, v)]
        s2 = w[feature(p, sub2_piece, sub2_sq, v)]
        for j in range(src.shape[0]):
            dst[j] = src[j] + a[j] + a2[j] - s[j] - s2[j]


@njit(cache=True, nogil=True, _nrt=False)
def copy_up(acc: np.ndarray, ply: int) -> None:
    """acc[ply + 1] = acc[ply] (a null move changes no piece)."""
    for p in range(2):
        src = acc[ply, p]
        dst = acc[ply + 1, p]
        for j in range(src.shape[0]):
            dst[j] = src[j]


@njit(cache=True, inline="always")
def _derive(pos: Position, ply: int, views: tuple[int, int]) -> None:
    """acc[ply + 1] from acc[ply] by the move recorded in ``pos.undo[ply]``, both rows
    seen with the king ``views``."""
    rec = pos.undo[ply]
    m = rec[UNDO_MOVE]
    acc = pos.acc
    if m == 0:
        copy_up(acc, ply)
        return
    w = pos.ft_w
    moved = rec[UNDO_MOVED]
    captured = rec[UNDO_CAPTURED]
    frm = move_from(m)
    to = move_to(m)
    flag = move_flag(m)
    placed = piece_code(color_of(moved), promotion_kind(m)) if is_promotion(m) else moved
    if flag == FLAG_KING_CASTLE or flag == FLAG_QUEEN_CASTLE:
        rook = piece_code(color_of(moved), ROOK)
        r_from, r_to = rook_castle_squares(pos.castle_rooks, to, flag)
        add_add_sub_sub(acc, ply, w, views, (placed, to), (rook, r_to), (moved, frm),
                        (rook, r_from))  # fmt: skip
    elif captured != NO_PIECE:
        cap_sq = to
        if flag == FLAG_EP:
            cap_sq = to - 8 if color_of(moved) == WHITE else to + 8
        add_sub_sub(acc, ply, w, views, (placed, to), (moved, frm), (captured, cap_sq))
    else:
        add_sub(acc, ply, w, views, (placed, to), (moved, frm))


@njit(cache=True, inline="always")
def _changes_view(pos: Position, ply: int) -> bool:
    """Whether the move recorded at ``ply`` moved a king to another bucket or mirror side."""
    rec = pos.undo[ply]
    m = rec[UNDO_MOVE]
    moved = rec[UNDO_MOVED]
    if m == 0 or moved & 7 != KING:
        return False
    color = color_of(moved)
    king_map = pos.king_map
    return square_view(king_map, color, move_from(m)) != square_view(king_map, color, move_to(m))


@njit(cache=True, nogil=True, _nrt=False)
def _catch_up_from(pos: Position) -> None:
    """Derive every pending accumulator row up to the current ply (``catch_up``'s slow part)."""
    undo = pos.undo
    top = pos.ply
    k = top - 1
    while k > 0 and undo[k - 1, UNDO_PENDING]:
        k -= 1
    if pos.king_map.shape[0]:
        for j in range(k, top):
            if _changes_view(pos, j):
                # Rows k + 1 .. top - 1 stay pending: each is rebuilt from its own
                # board if the search returns to it and evaluates there.
                refresh(pos)
                return
    views = (king_view(pos, WHITE), king_view(pos, BLACK))
    for j in range(k, top):
        _derive(pos, j, views)
        undo[j, UNDO_PENDING] = 0


@njit(cache=True, inline="always")
def catch_up(pos: Position) -> None:
    """Make the current ply's accumulators current: moves only mark them pending, and the
    rows are derived here, from the last computed ply (a refresh, or the search root's)."""
    ply = pos.ply
    if ply > 0 and pos.undo[ply - 1, UNDO_PENDING]:
        _catch_up_from(pos)


@njit(cache=True, nogil=True, _nrt=False)
def refresh(pos: Position) -> None:
    """Recompute the accumulators of the current ply from the board."""
    w = pos.ft_w
    bias = pos.ft_b
    squares = pos.squares
    if pos.ply > 0:
        pos.undo[pos.ply - 1, UNDO_PENDING] = 0
    for p in range(2):
        row = pos.acc[pos.ply, p]
        view = king_view(pos, p)
        for j in range(row.shape[0]):
            row[j] = bias[j]
        for sq in range(64):
            piece = squares[sq]
            if piece != NO_PIECE:
                f = w[feature(p, piece, sq, view)]
                for j in range(row.shape[0]):
                    row[j] += f[j]


@njit(cache=True, inline="always")
def _half(acc: np.ndarray, w: np.ndarray, offset: int) -> int:
    """sum over j of clamp(acc[j], 0, QA)^2 * w[offset + j], in int64."""
    total = np.int64(0)
    for j in range(acc.shape[0]):
        v = min(max(np.int64(acc[j]), 0), QA)
        total += v * v * w[offset + j]
    return total


@njit(cache=True, inline="always")
def bucket(pieces: int, buckets: int) -> int:
    """The output bucket of a position with ``pieces`` pieces on the board, of ``buckets``."""
    return min(max((pieces - 2) * buckets // BUCKET_SPAN, 0), buckets - 1)


@njit(cache=True, nogil=True, _nrt=False)
def output(pos: Position) -> int:
    """The spec's quantised output at the current ply, centipawns for the side to move."""
    catch_up(pos)
    ply = pos.ply
    us = pos.acc[ply, pos.side]
    buckets = pos.out_w.shape[0]
    b = 0
    if buckets > 1:
        pieces = popcount(pos.pieces[piece_code(WHITE, ALL_KINDS)]
                          | pos.pieces[piece_code(BLACK, ALL_KINDS)])  # fmt: skip
        b = bucket(pieces, buckets)
    w = pos.out_w[b]
    total = _half(us, w, 0) + _half(pos.acc[ply, 1 - pos.side], w, us.shape[0])
    return ((total // QA) + pos.out_b[b]) * SCALE // (QA * QB)


@njit(cache=True, nogil=True)
def install(pos: Position, ft_w: np.ndarray, ft_b: np.ndarray, out_w: np.ndarray,
            out_b: np.ndarray, king_map: np.ndarray, use: int) -> None:  # fmt: skip
    """Give the position these weights and king map, accumulators as deep as its undo stack
    (none for ``use`` 0) and its ``use_net`` (``plies.core.static_eval``)."""
    pos.ft_w = ft_w
    pos.ft_b = ft_b
    pos.out_w = out_w
    pos.out_b = out_b
    pos.king_map = king_map
    rows = pos.undo.shape[0] + 1 if use else 1
    pos.acc = np.zeros((rows, 2, ft_b.shape[0]), dtype=np.int16)
    pos.use_net = use


@njit(cache=True, nogil=True)
def _refreshed_output(pos: Position) -> int:
    """``output`` after a refresh (the reference-counted entry point for Python)."""
    refresh(pos)
    return output(pos)


@njit(cache=True)
def accumulators(pos: Position) -> np.ndarray:
    """The live accumulator stack (not a copy; rows up to the current ply derived),
    for tests and tools."""
    if pos.use_net:
        catch_up(pos)
    return pos.acc


def net_output(pos: Position) -> int:
    """The spec's quantised output of the position's net, centipawns for the side to move."""
    return int(_refreshed_output(pos))


