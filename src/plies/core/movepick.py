"""Move ordering and the history that feeds it (what Stockfish keeps in ``movepick``).

The search scores a node's moves once into ``stack.scores`` and picks them
best-first lazily, so a cut-off after the first few moves skips sorting the rest.
The order: the table move, good captures (MVV-LVA, won or even by SEE), the two
killers, the counter-move, quiet moves by history (colour-from-to plus the 1- and
2-ply continuation histories), losing captures, under-promotions. A quiet move
that refutes a node becomes a killer and counter-move and its histories grow while
the quiet moves tried before it shrink (``reward_quiet``).

``score_moves`` and ``reward_quiet`` are separate compiles, not inlined: inlining
them cost compile time and bought no measurable speed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core.encoding import (
    FLAG_EP,
    NO_PIECE,
    PAWN,
    QUEEN,
    is_noisy,
    is_promotion,
    kind_of,
    move_flag,
    move_from,
    move_to,
    promotion_kind,
)
from plies.core.position import Position
from plies.core.see import SEE_VALUES, piece_value, see_ge
from plies.core.stack import SearchStack
from plies.core.undo import UNDO_MOVE
from plies.params import HISTORY_BONUS, HISTORY_BONUS_MAX

# Move-ordering tiers (scores compared within one node only).
_TT_MOVE = 2_000_000_000
GOOD_CAPTURE = 1_000_000_000
_KILLER_1 = 900_000_000
_KILLER_2 = 800_000_000
COUNTER = 700_000_000
_BAD_CAPTURE = -1_000_000_000
UNDERPROMOTION = -2_000_000_000

_HISTORY_MAX = 16384
"""History and continuation-history values stay within +-this (the gravity update)."""


@njit(cache=True, inline="always")
def victim_value(pos: Position, m: int) -> int:
    """Material value of the piece a move captures (a pawn for en passant)."""
    if move_flag(m) == FLAG_EP:
        return SEE_VALUES[PAWN]
    return piece_value(pos.squares[move_to(m)])


@njit(cache=True, inline="always")
def _mvv_lva(pos: Position, m: int) -> int:
    """Most valuable victim first, then least valuable attacker."""
    return victim_value(pos, m) * 16 - kind_of(pos.squares[move_from(m)])


@njit(cache=True, inline="always")
def pick(moves: np.ndarray, scores: np.ndarray, i: int, n: int) -> None:
    """Swap the best-scored move of ``i..n-1`` (the first of equals) into slot ``i``
    (lazy selection sort)."""
    # The maximum first, then its first slot: the reduction vectorises, which the
    # single loop keeping the best index did not (a quarter of _negamax's own time).
    # Indexed from 0 through a view, the loads are provably non-negative and stay plain
    # vector loads (with ``scores[j]``, j from i, numba's negative-index wrap made gathers).
    tail = scores[i:n]
    top = tail[0]
    for j in range(1, tail.shape[0]):
        top = max(top, tail[j])
    best = i
    while scores[best] != top:
        best += 1
    if best != i:
        m = moves[i]
        moves[i] = moves[best]
        moves[best] = m
        s = scores[i]
        scores[i] = scores[best]
        scores[best] = s


@njit(cache=True, inline="always")
def score_noisy(pos: Position, moves: np.ndarray, scores: np.ndarray, n: int) -> None:
    """Order captures by MVV-LVA, queen promotions by their gain, under-promotions last."""
    for i in range(n):
        m = moves[i]
        value = _mvv_lva(pos, m)
        if is_promotion(m):
            kind = promotion_kind(m)
            value += 16 * (SEE_VALUES[kind] - 100) if kind == QUEEN else UNDERPROMOTION
        scores[i] = value


@njit(cache=True, inline="always")
def previous_move(pos: Position) -> tuple[int, int]:
    """Piece and target square of the move that led here (NO_PIECE after a null move)."""
    if pos.ply > 0:
        prev = pos.undo[pos.ply - 1, UNDO_MOVE]
        if prev != 0:
            to = move_to(prev)
            return pos.squares[to], to
    return NO_PIECE, 0


@njit(cache=True, inline="always")
def played_index(pos: Position, m: int) -> int:
    """The (piece, to) index of a move about to be made (continuation-history row/column)."""
    return pos.squares[move_from(m)] * 64 + move_to(m)


@njit(cache=True, inline="always")
def _followed(stack: SearchStack, ply: int, back: int) -> int:
    """The (piece, to) index of the move made ``back`` plies before ``ply`` (0: none)."""
    return stack.played[ply - back] if ply >= back else 0


@njit(cache=True, inline="always")
def _quiet_score(pos: Position, stack: SearchStack, m: int, prev1: int, prev2: int) -> int:
    """A quiet move's history: colour-from-to plus its 1- and 2-ply continuation histories."""
    idx = played_index(pos, m)
    return (stack.history[pos.side, move_from(m), move_to(m)]
            + stack.conthist[prev1, idx] + stack.conthist[prev2, idx])  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False)
def score_moves(
    pos: Position, stack: SearchStack, ply: int, n: int, tt_move: int, counter_move: int
) -> None:
    """Order: table move, good captures, killers, counter-move, history, bad captures."""
    buf = stack.moves[ply]
    sc = stack.scores[ply]
    prev1 = _followed(stack, ply, 1)
    prev2 = _followed(stack, ply, 2)
    zero = np.int64(0)
    for i in range(n):
        m = buf[i]
        if m == tt_move:
            sc[i] = _TT_MOVE
        elif is_promotion(m) and promotion_kind(m) != QUEEN:
            sc[i] = UNDERPROMOTION
        elif is_noisy(m):
            value = _mvv_lva(pos, m)
            if is_promotion(m):
                value += 16 * 800
            sc[i] = (GOOD_CAPTURE if see_ge(pos, m, zero) else _BAD_CAPTURE) + value
        elif m == stack.killers[ply, 0]:
            sc[i] = _KILLER_1
        elif m == stack.killers[ply, 1]:
            sc[i] = _KILLER_2
        elif m == counter_move:
            sc[i] = COUNTER
        else:
            sc[i] = _quiet_score(pos, stack, m, prev1, prev2)


@njit(cache=True, inline="always")
def _nudge_continuations(
    pos: Position, stack: SearchStack, ply: int, m: int, bonus: int
) -> None:
    """Move the 1- and 2-ply continuation histories of quiet ``m`` by ``bonus`` (gravity)."""
    cont = stack.conthist
    idx = played_index(pos, m)
    for back in range(1, 3):
        prev = _followed(stack, ply, back)
        if prev != 0:
            h = np.int64(cont[prev, idx])
            cont[prev, idx] = h + bonus - h * abs(bonus) // _HISTORY_MAX


@njit(cache=True, nogil=True, _nrt=False)
def reward_quiet(
    pos: Position, stack: SearchStack, ply: int, best_move: int, prev_piece: int,
    prev_to: int, depth: int, n_quiets: int,
) -> None:  # fmt: skip
    """A quiet refutation becomes a killer and counter-move; histories reward it, blame the rest."""
    killers = stack.killers
    if killers[ply, 0] != best_move:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = best_move
    if prev_piece != NO_PIECE:
        stack.counter[prev_piece, prev_to] = best_move
    history = stack.history
    us = pos.side
    params = stack.params
    bonus = min(depth * depth * params[HISTORY_BONUS], params[HISTORY_BONUS_MAX])
    frm = move_from(best_move)
    to = move_to(best_move)
    h = history[us, frm, to]
    history[us, frm, to] = h + bonus - h * bonus // _HISTORY_MAX
    _nudge_continuations(pos, stack, ply, best_move, bonus)
    for k in range(n_quiets):
        q = stack.quiets[ply, k]
        frm = move_from(q)
        to = move_to(q)
        h = history[us, frm, to]
        history[us, frm, to] = h - bonus - h * bonus // _HISTORY_MAX
        _nudge_continuations(pos, stack, ply, q, -bonus)
