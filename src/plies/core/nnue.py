"""The learnt evaluation ("net"): loading, quantising, accumulators and output, compiled.

The contract with the trainer (``plies train``) is ``docs/nnue-spec.md``,
summarised here. The net is (768 -> H) x 2 perspectives -> SCReLU -> 1 of B output
buckets:

    feature(p, piece of colour c and kind k on square s)
        = (0 if c == p else 384) + (k - 1) * 64 + (s if p == WHITE else s ^ 56)
    acc_p = ft_bias + sum of ft_weight[feature(p, ...)] over the pieces
    b     = clamp((pieces on the board - 2) * B // 32, 0, B - 1)
    eval  = SCALE * (out_bias[b] + out_weight[b, :H] . screlu(acc_stm)
                                 + out_weight[b, H:] . screlu(acc_other)),
    screlu(x) = clamp(x, 0, 1)^2

B = 8 gives (pieces - 2) // 4: 32 pieces bucket 7, 2-5 pieces bucket 0. A file
of the first format version (``out_weight`` [2H], ``out_bias`` [1]) is B = 1.

The core runs it in exact integers (QA = 255, QB = 256): int16 accumulators
(``ft_* * QA``), int16 output weights (``* QB``) and int64 output biases
(``* QA * QB``). With every float weight in [-1.98, 1.98] (the file is refused
otherwise) an accumulator of 32 pieces stays below 1.98 * 255 * 33 < 2^15 and
the output sum fits int64 for any H.

A residual net (file entry ``base`` = 1) learnt a correction to the classical
evaluation: the search then evaluates with ``classical + output``, clamped
below the mate scores (``residual_sum``; a correction that makes a side that cannot
win the side ahead is divided by 16) and faded by the fifty-move clock as the search
fades the classical evaluation (``faded``), and nothing else added: a net whose
output is 0 plays exactly as the classical engine. ``Position.use_net``
says which: 0 classical, ``USE_NET`` the pure net, ``USE_RESIDUAL`` the sum.

The accumulators live in the position (``Position.acc``, int16[cap + 1, 2, H],
one row pair per ply), next to the quantised weights (fields, not compile-time
constants: a new net needs no recompile). ``make_move`` only marks ply + 1's
accumulators pending; ``catch_up``, run by ``output`` before it reads them,
derives each pending row from the one below with the few ``add_sub*`` row
updates its move needs; ``unmake_move`` just returns to the lower ply. The
search refreshes the root's accumulators (``refresh``) before it starts, so
callers need not maintain them.

Every per-node function is ``_nrt=False`` (no reference counting, see
``plies.core.structs``) and works on whole contiguous int16 rows so LLVM
vectorises the loops. The functions below take the position as ``pos`` without
importing its type: ``core/position.py`` imports this module for its
make/unmake hooks.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from plies.core.bits import popcount
from plies.core.encoding import (
    ALL_KINDS,
    BISHOP,
    BLACK,
    FLAG_EP,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    KNIGHT,
    NO_PIECE,
    PAWN,
    QUEEN,
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
from plies.core.tt import MATE_BOUND
from plies.core.undo import UNDO_CAPTURED, UNDO_MOVE, UNDO_MOVED, UNDO_PENDING

if TYPE_CHECKING:
    from plies.core.position import Position

QA = 255
"""Quantisation of the feature transformer (weights, biases, accumulators)."""
QB = 256
"""Quantisation of the output weights (64 cost a trained net about 10 cp of rounding)."""
SCALE = 400
"""Centipawns per unit of the net's raw output."""
FORMAT = 1
"""The only file format this reader accepts (the ``format`` entry)."""
N_INPUTS = 768
"""Input features per perspective: 2 colours x 6 kinds x 64 squares."""
WEIGHT_LIMIT = np.float32(1.98)
"""Largest magnitude of any weight or bias (the trainer clips to it)."""
MAX_HIDDEN = 1024
"""Widest hidden layer accepted (its accumulators are copied with every position)."""
MAX_BUCKETS = 32
"""Most output buckets accepted (one per piece count of 2..33 at most)."""
BUCKET_SPAN = 32
"""Piece counts (from 2 up) that the B buckets split into equal parts."""
MAX_EVAL = MATE_BOUND - 1
"""The net's evaluation is clamped to this, so it never reads as a mate score."""
CANNOT_WIN_DIVISOR = 16
"""A side with no pawns and at most one minor piece keeps 1/16 of its advantage."""
FIFTY_MOVE_SPAN = 200
"""The evaluation fades by halfmove / FIFTY_MOVE_SPAN (half gone at the fifty-move draw)."""
BASE_KEY = "base"
"""The optional file entry saying what the net's output is added to (absent: BASE_NONE)."""
BASE_NONE = 0
"""A pure net: its output is the evaluation."""
BASE_HCE = 1
"""A residual net: its output is a correction added to the classical evaluation."""
USE_NET = 1
"""``Position.use_net`` of a position searched with a pure net."""
USE_RESIDUAL = 2
"""``Position.use_net`` of a position searched with the classical evaluation plus a residual net."""

DEFAULT_NET = Path(__file__).resolve().parent / "nets" / "default.npz"
"""Where the packaged net lives (absent until one is trained and shipped)."""

_SHAPES = ("ft_weight", "ft_bias", "out_weight", "out_bias", "scale", "format")
"""Every entry a net file must hold."""


@dataclass(frozen=True)
class Net:
    """A quantised net, ready for the core (arrays C-contiguous, never written)."""

    ft_weight: np.ndarray
    """int16 [768, H]: feature-transformer weights times QA, one row per feature."""
    ft_bias: np.ndarray
    """int16 [H]: feature-transformer biases times QA."""
    out_weight: np.ndarray
    """int16 [B, 2H]: each bucket's output weights times QB (side to move's half first)."""
    out_bias: np.ndarray
    """int64 [B]: each bucket's output bias times QA * QB."""
    source: str
    """Where the net came from (its path)."""
    base: int = BASE_NONE
    """BASE_NONE (a pure net) or BASE_HCE (a correction to the classical evaluation)."""

    @property
    def hidden(self) -> int:
        """H, the width of one perspective's accumulator."""
        return int(self.ft_bias.shape[0])

    @property
    def buckets(self) -> int:
        """B, the number of output buckets (1: a single output)."""
        return int(self.out_bias.shape[0])

    @property
    def residual(self) -> bool:
        """Whether the net corrects the classical evaluation (is added to it)."""
        return self.base == BASE_HCE

    def describe(self) -> str:
        """The net for a user: its file, width and kind."""
        kind = ", residual on the classical evaluation" if self.residual else ""
        buckets = f", {self.buckets} output buckets" if self.buckets > 1 else ""
        return f"net {self.source} (hidden {self.hidden}{buckets}{kind})"


def _refuse(source: str, reason: str) -> ValueError:
    """The one-line error for a net file that cannot be used."""
    return ValueError(f"net file {source!r}: {reason}")


def _float_array(arrays: dict[str, np.ndarray], name: str, shape: tuple[int, ...],
                 source: str) -> np.ndarray:  # fmt: skip
    """Entry ``name`` as float32 of exactly ``shape``, finite and within the weight limit."""
    raw = arrays[name]
    if raw.shape != shape:
        raise _refuse(source, f"{name} has shape {raw.shape}, expected {shape}")
    if raw.dtype.kind not in "fiu":
        raise _refuse(source, f"{name} has dtype {raw.dtype}, expected float32")
    values = raw.astype(np.float32)
    # NaN fails this comparison too.
    if not bool(np.all(np.abs(values) <= WEIGHT_LIMIT)):
        raise _refuse(source, f"{name} has values outside [-{WEIGHT_LIMIT}, {WEIGHT_LIMIT}]")
    return values


def _single(arrays: dict[str, np.ndarray], name: str, source: str) -> float:
    """The one number held by entry ``name``."""
    raw = arrays[name]
    if raw.size != 1 or raw.dtype.kind not in "fiu":
        raise _refuse(source, f"{name} must hold one number, got shape {raw.shape} {raw.dtype}")
    return float(raw.reshape(-1)[0])


def quantise(arrays: dict[str, np.ndarray], source: str = "<arrays>") -> Net:
    """Check a net's float arrays against the spec and quantise them (ValueError if unfit)."""
    missing = [name for name in _SHAPES if name not in arrays]
    if missing:
        raise _refuse(source, f"missing {', '.join(missing)}")
    fmt = _single(arrays, "format", source)
    if fmt != FORMAT:
        raise _refuse(source, f"format {fmt:g} is not the supported format {FORMAT}")
    scale = _single(arrays, "scale", source)
    if scale != SCALE:
        raise _refuse(source, f"scale {scale:g}, expected {SCALE}")
    ft_shape = arrays["ft_weight"].shape
    if len(ft_shape) != 2 or ft_shape[0] != N_INPUTS or not 1 <= ft_shape[1] <= MAX_HIDDEN:
        raise _refuse(source, f"ft_weight has shape {ft_shape}, expected ({N_INPUTS}, H) "
                              f"with 1 <= H <= {MAX_HIDDEN}")  # fmt: skip
    base = BASE_NONE
    if BASE_KEY in arrays:
        raw_base = arrays[BASE_KEY]
        if raw_base.size != 1 or raw_base.dtype.kind not in "iu":
            raise _refuse(source, f"base must hold one integer, got shape {raw_base.shape} "
                                  f"{raw_base.dtype}")  # fmt: skip
        base = int(raw_base.reshape(-1)[0])
        if base not in (BASE_NONE, BASE_HCE):
            raise _refuse(source, f"base {base} is unknown (0: a pure net, 1: residual on "
                                  f"the classical evaluation)")  # fmt: skip
    hidden = int(ft_shape[1])
    ft_weight = _float_array(arrays, "ft_weight", (N_INPUTS, hidden), source)
    ft_bias = _float_array(arrays, "ft_bias", (hidden,), source)
    out_shape = arrays["out_weight"].shape
    if len(out_shape) == 1:
        # The first version's single output: one bucket.
        out_weight = _float_array(arrays, "out_weight", (2 * hidden,), source).reshape(1, -1)
        out_bias = _float_array(arrays, "out_bias", (1,), source)
    else:
        buckets = int(out_shape[0]) if len(out_shape) == 2 else 0
        if len(out_shape) != 2 or out_shape[1] != 2 * hidden or not 1 <= buckets <= MAX_BUCKETS:
            raise _refuse(source, f"out_weight has shape {out_shape}, expected ({2 * hidden},) "
                                  f"or (B, {2 * hidden}) with 1 <= B <= {MAX_BUCKETS}")  # fmt: skip
        out_weight = _float_array(arrays, "out_weight", (buckets, 2 * hidden), source)
        out_bias = _float_array(arrays, "out_bias", (buckets,), source)
    out_bias_q = np.rint(out_bias.astype(np.float64) * QA * QB).astype(np.int64)
    return Net(
        ft_weight=np.ascontiguousarray(np.rint(ft_weight * QA).astype(np.int16)),
        ft_bias=np.ascontiguousarray(np.rint(ft_bias * QA).astype(np.int16)),
        out_weight=np.ascontiguousarray(np.rint(out_weight * QB).astype(np.int16)),
        out_bias=np.ascontiguousarray(out_bias_q),
        source=source,
        base=base,
    )


def load_net(path: str | os.PathLike[str]) -> Net:
    """Read and quantise a ``.npz`` net file; a one-line ValueError if it is unusable."""
    source = str(path)
    if not source:
        raise ValueError("net file: no path given")
    if not os.path.isfile(source):
        raise _refuse(source, "no such file")
    try:
        data = np.load(source, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise _refuse(source, "not an .npz archive (a single array)")
        with data:
            arrays = {name: np.asarray(data[name]) for name in data.files}
    except (OSError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise _refuse(source, f"not a readable .npz archive ({type(exc).__name__})") from None
    except ValueError as exc:
        if str(exc).startswith("net file"):
            raise
        raise _refuse(source, "not a readable .npz archive (pickled or corrupt data)") from None
    return quantise(arrays, source)


def default_net_path() -> Path | None:
    """The packaged net, if this install ships one."""
    return DEFAULT_NET if DEFAULT_NET.is_file() else None


# -- the compiled part --------------------------------------------------------------------


NO_NET_WEIGHT = np.zeros((0, 0), dtype=np.int16)
"""Feature weights of a position without a net (never read: its ``use_net`` is 0)."""
NO_NET_ROW = np.zeros(0, dtype=np.int16)
"""Feature biases of a position without a net."""
NO_NET_BIAS = np.zeros(1, dtype=np.int64)
"""Output biases of a position without a net (its output weights: ``NO_NET_WEIGHT``)."""


def empty_accumulators() -> np.ndarray:
    """The accumulator stack of a position without a net (no room, never written)."""
    return np.zeros((1, 2, 0), dtype=np.int16)


@njit(cache=True, inline="always")
def feature(persp: int, piece: int, sq: int) -> int:
    """Input index of ``piece`` on ``sq`` seen from perspective ``persp`` (spec's ``index``)."""
    color = piece >> 3
    kind_row = ((piece & 7) - 1) * 64
    if persp == WHITE:
        return color * 384 + kind_row + sq
    return (1 - color) * 384 + kind_row + (sq ^ 56)


@njit(cache=True, nogil=True, _nrt=False)
def add_sub(acc: np.ndarray, ply: int, w: np.ndarray,
            add_piece: int, add_sq: int, sub_piece: int, sub_sq: int) -> None:  # fmt: skip
    """acc[ply + 1] = acc[ply] + one feature - another, both perspectives (a quiet move)."""
    for p in range(2):
        src = acc[ply, p]
        dst = acc[ply + 1, p]
        a = w[feature(p, add_piece, add_sq)]
        s = w[feature(p, sub_piece, sub_sq)]
        for j in range(src.shape[0]):
            dst[j] = src[j] + a[j] - s[j]


@njit(cache=True, nogil=True, _nrt=False)
def add_sub_sub(acc: np.ndarray, ply: int, w: np.ndarray, add_piece: int, add_sq: int,
                sub_piece: int, sub_sq: int, sub2_piece: int, sub2_sq: int) -> None:  # fmt: skip
    """acc[ply + 1] = acc[ply] + one feature - two (a capture)."""
    for p in range(2):
        src = acc[ply, p]
        dst = acc[ply + 1, p]
        a = w[feature(p, add_piece, add_sq)]
        s = w[feature(p, sub_piece, sub_sq)]
        s2 = w[feature(p, sub2_piece, sub2_sq)]
        for j in range(src.shape[0]):
            dst[j] = src[j] + a[j] - s[j] - s2[j]


@njit(cache=True, nogil=True, _nrt=False)
def add_add_sub_sub(acc: np.ndarray, ply: int, w: np.ndarray, add_piece: int, add_sq: int,
                    add2_piece: int, add2_sq: int, sub_piece: int, sub_sq: int,
                    sub2_piece: int, sub2_sq: int) -> None:  # fmt: skip
    """acc[ply + 1] = acc[ply] + two features - two (castling: king and rook move)."""
    for p in range(2):
        src = acc[ply, p]
        dst = acc[ply + 1, p]
        a = w[feature(p, add_piece, add_sq)]
        a2 = w[feature(p, add2_piece, add2_sq)]
        s = w[feature(p, sub_piece, sub_sq)]
        s2 = w[feature(p, sub2_piece, sub2_sq)]
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
def _derive(pos: Position, ply: int) -> None:
    """acc[ply + 1] from acc[ply] by the move recorded in ``pos.undo[ply]``."""
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
        add_add_sub_sub(acc, ply, w, placed, to, rook, r_to, moved, frm, rook, r_from)
    elif captured != NO_PIECE:
        cap_sq = to
        if flag == FLAG_EP:
            cap_sq = to - 8 if color_of(moved) == WHITE else to + 8
        add_sub_sub(acc, ply, w, placed, to, moved, frm, captured, cap_sq)
    else:
        add_sub(acc, ply, w, placed, to, moved, frm)


@njit(cache=True, nogil=True, _nrt=False)
def _catch_up_from(pos: Position) -> None:
    """Derive every pending accumulator row up to the current ply (``catch_up``'s slow part)."""
    undo = pos.undo
    top = pos.ply
    k = top - 1
    while k > 0 and undo[k - 1, UNDO_PENDING]:
        k -= 1
    for j in range(k, top):
        _derive(pos, j)
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
        for j in range(row.shape[0]):
            row[j] = bias[j]
        for sq in range(64):
            piece = squares[sq]
            if piece != NO_PIECE:
                f = w[feature(p, piece, sq)]
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


@njit(cache=True, inline="always")
def _toward_zero(v: int, num: int, den: int) -> int:
    """v * num / den rounded toward zero (so a colour-flipped position gets exactly -v)."""
    if v >= 0:
        return v * num // den
    return -((-v) * num // den)


@njit(cache=True, inline="always")
def faded(v: int, halfmove: int) -> int:
    """``v`` faded by the fifty-move clock: a lead that makes no progress is worth less,
    so the search prefers the pawn moves and captures that reset the clock."""
    return _toward_zero(v, FIFTY_MOVE_SPAN - min(halfmove, 100), FIFTY_MOVE_SPAN)


@njit(cache=True, inline="always")
def _cannot_win(bb: np.ndarray, color: int) -> bool:
    """Whether ``color`` has no pawn, rook or queen and at most one minor piece."""
    if bb[piece_code(color, PAWN)] | bb[piece_code(color, ROOK)] | bb[piece_code(color, QUEEN)]:
        return False
    return popcount(bb[piece_code(color, KNIGHT)] | bb[piece_code(color, BISHOP)]) <= 1


@njit(cache=True, nogil=True, _nrt=False)
def evaluate(pos: Position) -> int:
    """The search's net evaluation: ``output``, faded by the fifty-move clock, a side
    that cannot mate held near zero, clamped below the mate scores."""
    v = faded(output(pos), pos.halfmove)
    ahead = pos.side if v > 0 else 1 - pos.side
    if v != 0 and _cannot_win(pos.pieces, ahead):
        v = _toward_zero(v, 1, CANNOT_WIN_DIVISOR)
    return min(max(v, -MAX_EVAL), MAX_EVAL)


@njit(cache=True, inline="always")
def residual_sum(pos: Position, classical: int, correction: int) -> int:
    """A residual net's evaluation: the classical one plus the net's output, clamped
    below the mate scores. A correction that makes a side that cannot win (no pawn, rook
    or queen, at most one minor) the side ahead keeps 1/16 of itself, as the pure net's
    evaluation does: the net learnt its corrections on another classical evaluation
    (one without the wrong-bishop draw) and must not turn a known draw into a win for
    a bare king. Nothing is faded, so a zero net leaves the classical engine."""
    v = classical + correction
    if v != 0 and (v > 0) == (correction > 0):
        ahead = pos.side if v > 0 else 1 - pos.side
        if _cannot_win(pos.pieces, ahead):
            v = classical + _toward_zero(correction, 1, CANNOT_WIN_DIVISOR)
    return min(max(v, -MAX_EVAL), MAX_EVAL)


@njit(cache=True, nogil=True)
def _install(pos: Position, ft_w: np.ndarray, ft_b: np.ndarray, out_w: np.ndarray,
             out_b: np.ndarray, use: int) -> None:  # fmt: skip
    """Give the position these weights and accumulators as deep as its undo stack."""
    pos.ft_w = ft_w
    pos.ft_b = ft_b
    pos.out_w = out_w
    pos.out_b = out_b
    rows = pos.undo.shape[0] + 1 if use else 1
    pos.acc = np.zeros((rows, 2, ft_b.shape[0]), dtype=np.int16)
    pos.use_net = use


@njit(cache=True, nogil=True)
def _refreshed_output(pos: Position) -> int:
    """``output`` after a refresh (the reference-counted entry point for Python)."""
    refresh(pos)
    return output(pos)


@njit(cache=True, nogil=True)
def _refreshed_evaluate(pos: Position) -> int:
    """``evaluate`` after a refresh (the reference-counted entry point for Python)."""
    refresh(pos)
    return evaluate(pos)


@njit(cache=True, nogil=True)
def residual_evaluate(pos: Position, classical: int) -> int:
    """``residual_sum`` of the classical evaluation and the refreshed net output (the
    reference-counted entry point for Python)."""
    refresh(pos)
    return residual_sum(pos, classical, output(pos))


@njit(cache=True)
def _use(pos: Position) -> int:
    """The position's ``use_net`` (the Python handle does not show the field)."""
    return pos.use_net


@njit(cache=True)
def accumulators(pos: Position) -> np.ndarray:
    """The live accumulator stack (not a copy; rows up to the current ply derived),
    for tests and tools."""
    if pos.use_net:
        catch_up(pos)
    return pos.acc


def attach_net(pos: Position, net: Net | None) -> None:
    """Make ``pos`` evaluate with ``net`` in the search (None: back to the classical one).

    Only a position the caller owns should get a net: every move made on it
    then also updates its accumulators.
    """
    if net is None:
        _install(pos, NO_NET_WEIGHT, NO_NET_ROW, NO_NET_WEIGHT, NO_NET_BIAS, np.int64(0))
    else:
        use = USE_RESIDUAL if net.residual else USE_NET
        _install(pos, net.ft_weight, net.ft_bias, net.out_weight, net.out_bias, np.int64(use))


def net_output(pos: Position) -> int:
    """The spec's quantised output of the position's net, centipawns for the side to move."""
    return int(_refreshed_output(pos))


def net_evaluate(pos: Position) -> int:
    """The static evaluation with the position's net, centipawns for the side to move: a
    pure net's ``evaluate``, or a residual net's ``residual_sum`` (which the search then
    fades by the fifty-move clock, as the pure net's ``evaluate`` does itself)."""
    if _use(pos) == USE_RESIDUAL:
        # Imported here: the classical evaluation imports the position, which imports this.
        from plies.core.evaluate import evaluate as classical

        return int(residual_evaluate(pos, classical(pos)))
    return int(_refreshed_evaluate(pos))
