"""Pruning, reductions and extensions: how much of the tree each move of a node gets.

Each rule is one small inlined predicate or amount the search's move loop asks
for; the margins and reduction terms are read from the stack's ``params``
(named in ``plies.params``), so a tuner sets them between searches.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.bits import ZERO
from plies.core.encoding import BISHOP, KNIGHT, QUEEN, ROOK, piece_code
from plies.core.makemove import make_move, unmake_move
from plies.core.movepick import COUNTER, GOOD_CAPTURE
from plies.core.position import Position
from plies.core.see import see_ge
from plies.core.stack import SearchStack
from plies.core.tt import MATE_BOUND
from plies.params import (
    FUTILITY_BASE,
    FUTILITY_MARGIN,
    HISTORY_PER_PLY,
    HISTORY_PRUNE,
    NULL_EVAL_DIV,
    RFP_IMPROVING,
    RFP_MARGIN,
    SEE_CAPTURE_MARGIN,
)


@njit(cache=True, inline="always")
def reverse_futility(
    params: np.ndarray, static: int, beta: int, depth: int, improving: bool
) -> bool:
    """Far above beta at low depth: assume the node holds (reverse futility pruning)."""
    margin = params[RFP_MARGIN] * depth - (params[RFP_IMPROVING] if improving else 0)
    return depth <= 7 and static - margin >= beta and abs(beta) < MATE_BOUND


@njit(cache=True, inline="always")
def null_move_reduction(
    params: np.ndarray, pos: Position, static: int, beta: int, depth: int
) -> int:
    """Depth reduction of a null-move search here, or 0 when none is tried.

    Passing must already fail high on the static evaluation, and the side to move
    needs pieces: with only pawns, zugzwang makes passing a bad model.
    """
    us = pos.side
    bb = pos.pieces
    pieces = (bb[piece_code(us, KNIGHT)] | bb[piece_code(us, BISHOP)]
              | bb[piece_code(us, ROOK)] | bb[piece_code(us, QUEEN)])  # fmt: skip
    if depth < 3 or static < beta or pieces == ZERO:
        return 0
    return 3 + depth // 4 + min((static - beta) // params[NULL_EVAL_DIV], 3)


@njit(cache=True, inline="always")
def quiet_prunable(
    params: np.ndarray, depth: int, searched: int, lmp_limit: int, static: int, alpha: int,
    order: int,
) -> bool:  # fmt: skip
    """Late-move, futility or bad-history pruning of a quiet move (checks are exempted by
    the caller); killers and the counter-move order above any history."""
    late = depth <= 8 and searched >= lmp_limit
    futile = (depth <= 6
              and static + params[FUTILITY_BASE] + params[FUTILITY_MARGIN] * depth <= alpha)
    unpromising = depth <= 4 and order < -params[HISTORY_PRUNE] * depth
    return late or futile or unpromising


@njit(cache=True, inline="always")
def losing_capture(params: np.ndarray, pos: Position, m: int, order: int, depth: int) -> bool:
    """A capture that loses material at shallow depth, beyond a small allowance."""
    margin = params[SEE_CAPTURE_MARGIN]
    return order < GOOD_CAPTURE and depth <= 6 and not see_ge(pos, m, -margin * depth)


@njit(cache=True, inline="always")
def safe_check(pos: Position, m: int) -> int:
    """1 if checking move ``m`` (just made) loses no material by SEE, else 0; ``pos`` is
    back after the move on return."""
    unmake_move(pos)
    safe = see_ge(pos, m, np.int64(0))
    make_move(pos, m)
    return 1 if safe else 0


@njit(cache=True, inline="always")
def reduction(
    stack: SearchStack, depth: int, searched: int, move: tuple[bool, bool, int],
    node: tuple[bool, bool], new_depth: int,
) -> int:  # fmt: skip
    """Late-move reduction of a move, less for PV nodes, killers and good history; ``move``
    is (gives check, noisy, ordering score), ``node`` (PV node, improving)."""
    gives_check, noisy, order = move
    pv_node, improving = node
    if depth < 3 or searched < 2 or gives_check or (noisy and order >= 0):
        return 0
    r = stack.lmr[min(depth, 63), min(searched, 63)]
    if pv_node:
        r -= 1
    if not improving:
        r += 1
    if order >= COUNTER:
        r -= 1
    elif not noisy:
        r -= order // stack.params[HISTORY_PER_PLY]
    return max(0, min(r, new_depth - 1))
