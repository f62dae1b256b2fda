"""The static evaluation the search uses: which evaluation, and the rules on top of it.

A position says which evaluation it is searched with (``Position.use_net``, set by
``attach_net``):

    USE_CLASSICAL  the classical evaluation (``plies.core.evaluate``), faded by the
                   fifty-move clock;
    USE_NET        a pure net's output (``plies.core.nnue``), faded, a side that
                   cannot win held near zero, clamped below the mate scores;
    USE_RESIDUAL   classical + a residual net's output, clamped below the mate
                   scores (a correction that makes a side that cannot win the side
                   ahead keeps 1/16 of itself), then faded like the classical one.

A residual net whose output is 0 therefore plays exactly as the classical engine.
``evaluate`` is that choice for the search (inlined in it); ``static_evaluate`` is
the same choice for the Python layers, which report the classical and residual
evaluations before the fade.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import popcount
from plies.core.encoding import BISHOP, KNIGHT, PAWN, QUEEN, ROOK, piece_code
from plies.core.evaluate import evaluate as classical
from plies.core.netfile import Net
from plies.core.nnue import install, output, refresh
from plies.core.position import NO_KING_MAP, NO_NET_BIAS, NO_NET_ROW, NO_NET_WEIGHT, Position
from plies.core.tt import MATE_BOUND

USE_CLASSICAL = 0
"""``Position.use_net`` of a position searched with the classical evaluation."""
USE_NET = 1
"""``Position.use_net`` of a position searched with a pure net."""
USE_RESIDUAL = 2
"""``Position.use_net`` of a position searched with the classical evaluation plus a residual net."""
MAX_EVAL = MATE_BOUND - 1
"""A net's evaluation is clamped to this, so it never reads as a mate score."""
CANNOT_WIN_DIVISOR = 16
"""A side with no pawns and at most one minor piece keeps 1/16 of its advantage."""
FIFTY_MOVE_SPAN = 200
"""The evaluation fades by halfmove / FIFTY_MOVE_SPAN (half gone at the fifty-move draw)."""


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
def pure(pos: Position) -> int:
    """A pure net's evaluation: ``output``, faded by the fifty-move clock, a side
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
    a bare king. Nothing is faded here, so a zero net leaves the classical evaluation."""
    v = classical + correction
    if v != 0 and (v > 0) == (correction > 0):
        ahead = pos.side if v > 0 else 1 - pos.side
        if _cannot_win(pos.pieces, ahead):
            v = classical + _toward_zero(correction, 1, CANNOT_WIN_DIVISOR)
    return min(max(v, -MAX_EVAL), MAX_EVAL)


@njit(cache=True, inline="always")
def evaluate(pos: Position) -> int:
    """The static evaluation every search step uses, centipawns for the side to move."""
    if pos.use_net == USE_RESIDUAL:
        return faded(residual_sum(pos, classical(pos), output(pos)), pos.halfmove)
    if pos.use_net:
        return pure(pos)
    return faded(classical(pos), pos.halfmove)


@njit(cache=True, inline="always")
def prepare(pos: Position) -> None:
    """Ready a search root for ``evaluate``: callers keep no accumulators, so a net's
    are computed here from the board."""
    if pos.use_net:
        refresh(pos)


@njit(cache=True, nogil=True)
def net_static(pos: Position, classical: int) -> int:
    """A net's static evaluation after a refresh: a residual net's ``residual_sum`` on
    ``classical``, else the pure net's (the reference-counted entry point for Python;
    on a position without a net it reads the empty net, 0)."""
    refresh(pos)
    if pos.use_net == USE_RESIDUAL:
        return residual_sum(pos, classical, output(pos))
    return pure(pos)


@njit(cache=True)
def _use(pos: Position) -> int:
    """The position's ``use_net`` (the Python handle does not show the field)."""
    return pos.use_net


def attach_net(pos: Position, net: Net | None) -> None:
    """Make ``pos`` evaluate with ``net`` in the search (None: back to the classical one).

    Only a position the caller owns should get a net: every move made on it
    then also updates its accumulators.
    """
    if net is None:
        install(pos, NO_NET_WEIGHT, NO_NET_ROW, NO_NET_WEIGHT, NO_NET_BIAS, NO_KING_MAP,
                np.int64(USE_CLASSICAL))  # fmt: skip
    else:
        use = USE_RESIDUAL if net.residual else USE_NET
        install(pos, net.ft_weight, net.ft_bias, net.out_weight, net.out_bias, net.king_map,
                np.int64(use))  # fmt: skip


def static_evaluate(pos: Position) -> int:
    """The static evaluation in centipawns for the side to move, as the engine reports
    it: the classical evaluation, a pure net's (faded, as in the search) or a residual
    net's ``residual_sum`` (before the fade the search applies)."""
    use = _use(pos)
    if use == USE_CLASSICAL:
        return int(classical(pos))
    return int(net_static(pos, classical(pos) if use == USE_RESIDUAL else 0))
