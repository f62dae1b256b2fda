"""The compiled search: principal-variation alpha-beta with quiescence.

One call of ``search_root`` searches the root moves to one depth inside an
(alpha, beta) window; the Python engine layer runs iterative deepening and
aspiration windows around it, so it can report each iteration and decide when
to stop. Every function here is ``nogil``: the search runs in a Python thread
while another thread may set ``info[I_STOP]`` (stop, time out) at any moment.

The search state lives in arrays owned by the engine (see ``SearchArrays`` in
``plies.engine.state``): killers, history, countermoves, the triangular PV
table, per-ply move buffers, static evaluations and the info counters.

Recursive calls pass no bare literals (``1``, ``True``): numba then casts the
literal at the call, and a cached recursive function with such a cast crashes
when loaded from the cache (numba issues 6061/6713). ``np.int64(1)`` and
``np.bool_(True)`` carry exact types and avoid it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from plies.core.bits import ZERO, popcount
from plies.core.evaluate import evaluate
from plies.core.movegen import count_moves, gen_moves
from plies.core.position import in_check, make_move, make_null, unmake_move, unmake_null
from plies.core.see import SEE_VALUES, see_ge
from plies.core.tt import (
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    MATE,
    MATE_BOUND,
    NO_EVAL,
    P_BOUND,
    P_DEPTH,
    P_EVAL,
    P_MOVE,
    P_SCORE,
    probe,
    store,
)
from plies.core.types import (
    BISHOP,
    EMPTY,
    FLAG_EP,
    H_MOVE,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    ST_HALFMOVE,
    ST_PLY,
    ST_SIDE,
)

MAX_PLY = 128
INF = 32500

# Indices of the info array shared with the engine layer.
I_NODES = 0
I_SELDEPTH = 1
I_STOP = 2
I_NODE_LIMIT = 3
I_AGE = 4
I_ROOT_UPDATED = 5
I_SIZE = 8

# Move-ordering tiers (scores compared within one node only).
_TT_MOVE = 2_000_000_000
_GOOD_CAPTURE = 1_000_000_000
_KILLER_1 = 900_000_000
_KILLER_2 = 800_000_000
_COUNTER = 700_000_000
_BAD_CAPTURE = -1_000_000_000
_UNDERPROMOTION = -2_000_000_000

_HISTORY_MAX = 16384


def _lmr_table() -> np.ndarray:
    """Late-move reductions by depth and move number (log-log, as in most engines)."""
    table = np.zeros((64, 64), dtype=np.int64)
    for d in range(1, 64):
        for m in range(1, 64):
            table[d, m] = int(0.8 + math.log(d) * math.log(m) / 2.2)
    return table


LMR = _lmr_table()


@njit(cache=True, nogil=True)
def _is_draw(bb: np.ndarray, st: np.ndarray, hist: np.ndarray, keys: np.ndarray) -> bool:
    """Fifty-move rule, any repetition (game history included), or bare minor pieces.

    The caller must still rule out checkmate when the halfmove clock reached 100.
    """
    half = st[ST_HALFMOVE]
    if half >= 100:
        return True
    p = st[ST_PLY]
    key = keys[p]
    low = max(p - half, 0)
    i = p - 2
    while i >= low:
        # A null move (H_MOVE 0) breaks the line: positions before it were not
        # reached by moves, so the same key there is no repetition.
        if hist[i + 1, H_MOVE] == 0 or hist[i, H_MOVE] == 0:
            break
        if i <= p - 4 and keys[i] == key:
            return True
        i -= 2
    heavy = bb[PAWN] | bb[6 + PAWN] | bb[ROOK] | bb[6 + ROOK] | bb[QUEEN] | bb[6 + QUEEN]
    if heavy == ZERO:
        minors = bb[KNIGHT] | bb[6 + KNIGHT] | bb[BISHOP] | bb[6 + BISHOP]
        if popcount(minors) <= 1:
            return True
    return False


@njit(cache=True, nogil=True)
def _poll(info: np.ndarray) -> bool:
    """Count a node and say whether the search must stop (flag or node limit).

    A stopped search counts nothing more and the limit is checked at every node,
    so ``info[I_NODES]`` never exceeds ``info[I_NODE_LIMIT]`` (``go nodes`` is exact).
    """
    if info[I_STOP]:
        return True
    info[I_NODES] += 1
    limit = info[I_NODE_LIMIT]
    if limit > 0 and info[I_NODES] >= limit:
        info[I_STOP] = 1
    return info[I_STOP] != 0


@njit(cache=True, nogil=True)
def _victim_value(mb: np.ndarray, m: int) -> int:
    """Material value of the piece a move captures (a pawn for en passant)."""
    if (m >> 12) & 15 == FLAG_EP:
        return SEE_VALUES[PAWN]
    victim = mb[(m >> 6) & 63]
    return 0 if victim == EMPTY else SEE_VALUES[victim % 6]


@njit(cache=True, nogil=True)
def _pick(moves: np.ndarray, scores: np.ndarray, i: int, n: int) -> None:
    """Swap the best-scored move of ``i..n-1`` into slot ``i`` (lazy selection sort)."""
    best = i
    for j in range(i + 1, n):
        if scores[j] > scores[best]:
            best = j
    if best != i:
        m = moves[i]
        moves[i] = moves[best]
        moves[best] = m
        s = scores[i]
        scores[i] = scores[best]
        scores[best] = s


@njit(cache=True, nogil=True)
def _update_pv(pv: np.ndarray, pv_len: np.ndarray, ply: int, m: int) -> None:
    """Make ``m`` followed by the child's PV the PV of this ply."""
    pv[ply, ply] = m
    end = pv_len[ply + 1]
    for k in range(ply + 1, end):
        pv[ply, k] = pv[ply + 1, k]
    pv_len[ply] = max(end, ply + 1)


@njit(cache=True, nogil=True)
def _qsearch(
    bb: np.ndarray,
    mb: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    keys: np.ndarray,
    att: np.ndarray,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    pv: np.ndarray,
    pv_len: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    probes: np.ndarray,
    info: np.ndarray,
    alpha: int,
    beta: int,
    ply: int,
) -> int:
    """Quiescence search: captures and promotions until the position is quiet."""
    pv_len[ply] = ply
    if _poll(info):
        return 0
    if ply > info[I_SELDEPTH]:
        info[I_SELDEPTH] = ply
    if ply >= MAX_PLY - 1:
        return evaluate(bb, mb, st, att)

    # Step 1: transposition table cut-off in non-PV nodes.
    key = keys[st[ST_PLY]]
    pr = probes[ply]
    hit = probe(tt_keys, tt_data, key, ply, pr)
    if hit and beta - alpha == 1:
        s = pr[P_SCORE]
        b = pr[P_BOUND]
        if (
            b == BOUND_EXACT
            or (b == BOUND_LOWER and s >= beta)
            or (b == BOUND_UPPER and s <= alpha)
        ):
            return s

    # Step 2: stand pat, unless in check (then every evasion is searched).
    checked = in_check(bb, st, att)
    if checked:
        best = -INF
        stand = -INF
    else:
        stand = pr[P_EVAL] if hit and pr[P_EVAL] != NO_EVAL else evaluate(bb, mb, st, att)
        if stand >= beta:
            if not hit:
                store(tt_keys, tt_data, key, ply, 0, stand, 0, BOUND_LOWER, info[I_AGE], stand)
            return stand
        best = stand
        if stand > alpha:
            alpha = stand
    old_alpha = alpha

    buf = moves[ply]
    sc = scores[ply]
    n = gen_moves(bb, mb, st, att, buf, True)
    if n == 0:
        return -MATE + ply if checked else best

    # Step 3: order by most valuable victim, least valuable attacker.
    for i in range(n):
        m = buf[i]
        value = _victim_value(mb, m) * 16 - mb[m & 63] % 6
        if (m >> 15) & 1:
            kind = ((m >> 12) & 3) + 1
            value += 16 * (SEE_VALUES[kind] - 100) if kind == QUEEN else _UNDERPROMOTION
        sc[i] = value

    best_move = 0
    for i in range(n):
        _pick(buf, sc, i, n)
        m = buf[i]
        if not checked:
            # Step 4: skip under-promotions, hopeless captures and losing exchanges.
            if sc[i] <= _UNDERPROMOTION // 2:
                continue
            if not (m >> 15) & 1 and stand + _victim_value(mb, m) + 200 <= alpha:
                continue
            if not see_ge(bb, mb, att, m, 0):
                continue
        make_move(bb, mb, st, hist, keys, m)
        score = -_qsearch(bb, mb, st, hist, keys, att, tt_keys, tt_data, pv, pv_len, moves,
                          scores, probes, info, -beta, -alpha, ply + 1)  # fmt: skip
        unmake_move(bb, mb, st, hist, keys)
        if info[I_STOP]:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = m
                _update_pv(pv, pv_len, ply, m)
                if alpha >= beta:
                    break

    if best >= beta:
        bound = BOUND_LOWER
    elif alpha > old_alpha:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    store(tt_keys, tt_data, key, ply, best_move, best, 0, bound, info[I_AGE], stand)
    return best


@njit(cache=True, nogil=True)
def _negamax(
    bb: np.ndarray,
    mb: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    keys: np.ndarray,
    att: np.ndarray,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    counter: np.ndarray,
    pv: np.ndarray,
    pv_len: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    quiets: np.ndarray,
    evals: np.ndarray,
    probes: np.ndarray,
    info: np.ndarray,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    allow_null: bool,
) -> int:
    """Principal-variation search below the root; returns a fail-soft score."""
    yes = np.bool_(True)
    no = np.bool_(False)
    pv_len[ply] = ply
    if depth <= 0:
        return _qsearch(bb, mb, st, hist, keys, att, tt_keys, tt_data, pv, pv_len, moves,
                        scores, probes, info, alpha, beta, ply)  # fmt: skip
    if _poll(info):
        return 0
    if ply > info[I_SELDEPTH]:
        info[I_SELDEPTH] = ply
    pv_node = beta - alpha > 1

    # Step 1: draws, and mate-distance pruning (no line can beat a shorter mate).
    # A mate given by the move that reaches the fifty-move limit is still a mate.
    if _is_draw(bb, st, hist, keys):
        if st[ST_HALFMOVE] >= 100 and in_check(bb, st, att) and count_moves(bb, mb, st, att) == 0:
            return -MATE + ply
        return 0
    if ply >= MAX_PLY - 1:
        return evaluate(bb, mb, st, att)
    alpha = max(alpha, -MATE + ply)
    beta = min(beta, MATE - ply - 1)
    if alpha >= beta:
        return alpha

    # Step 2: transposition table; cut off in non-PV nodes with a deep enough bound.
    key = keys[st[ST_PLY]]
    pr = probes[ply]
    tt_move = 0
    hit = probe(tt_keys, tt_data, key, ply, pr)
    if hit:
        tt_move = pr[P_MOVE]
        if not pv_node and pr[P_DEPTH] >= depth:
            s = pr[P_SCORE]
            b = pr[P_BOUND]
            if (
                b == BOUND_EXACT
                or (b == BOUND_LOWER and s >= beta)
                or (b == BOUND_UPPER and s <= alpha)
            ):
                return s

    # Step 3: static evaluation; in check we extend and skip the pruning steps.
    us = st[ST_SIDE]
    checked = in_check(bb, st, att)
    if checked:
        static = -INF
        depth += 1
    elif hit and pr[P_EVAL] != NO_EVAL:
        static = pr[P_EVAL]
    else:
        static = evaluate(bb, mb, st, att)
    evals[ply] = static
    improving = not checked and ply >= 2 and static > evals[ply - 2]

    if not pv_node and not checked:
        # Step 4: reverse futility: far above beta at low depth, assume it holds.
        margin = 75 * depth - (50 if improving else 0)
        if depth <= 7 and static - margin >= beta and abs(beta) < MATE_BOUND:
            return static
        # Step 5: null move: if passing still fails high, a real move will too.
        # Skipped without pieces, where zugzwang makes passing a bad model.
        base = us * 6
        pieces = bb[base + KNIGHT] | bb[base + BISHOP] | bb[base + ROOK] | bb[base + QUEEN]
        if allow_null and depth >= 3 and static >= beta and pieces != ZERO:
            r = 3 + depth // 4 + min((static - beta) // 200, 3)
            make_null(bb, mb, st, hist, keys)
            score = -_negamax(bb, mb, st, hist, keys, att, tt_keys, tt_data, killers, history,
                              counter, pv, pv_len, moves, scores, quiets, evals, probes, info,
                              depth - 1 - r, -beta, -beta + 1, ply + 1, no)  # fmt: skip
            unmake_null(bb, mb, st, hist, keys)
            if info[I_STOP]:
                return 0
            if score >= beta:
                return beta if score >= MATE_BOUND else score
        # Step 6: razoring: hopeless at depth 1, verify with quiescence.
        if depth == 1 and static + 300 <= alpha:
            score = _qsearch(bb, mb, st, hist, keys, att, tt_keys, tt_data, pv, pv_len, moves,
                             scores, probes, info, alpha, alpha + 1, ply)  # fmt: skip
            if score <= alpha:
                return score

    # Step 7: without a hash move, deep nodes are searched one ply shallower.
    if tt_move == 0 and depth >= 4:
        depth -= 1

    # Step 8: generate and score the moves.
    buf = moves[ply]
    sc = scores[ply]
    n = gen_moves(bb, mb, st, att, buf, False)
    if n == 0:
        return -MATE + ply if checked else 0
    counter_move = 0
    game_ply = st[ST_PLY]
    prev_piece = EMPTY
    prev_to = 0
    if game_ply > 0:
        prev = hist[game_ply - 1, H_MOVE]
        if prev != 0:
            prev_to = (prev >> 6) & 63
            prev_piece = mb[prev_to]
            counter_move = counter[prev_piece, prev_to]
    for i in range(n):
        m = buf[i]
        frm = m & 63
        to = (m >> 6) & 63
        if m == tt_move:
            sc[i] = _TT_MOVE
        elif (m >> 15) & 1 and ((m >> 12) & 3) != 3:
            sc[i] = _UNDERPROMOTION
        elif (m >> 14) & 3:
            value = _victim_value(mb, m) * 16 - mb[frm] % 6
            if (m >> 15) & 1:
                value += 16 * 800
            if see_ge(bb, mb, att, m, 0):
                sc[i] = _GOOD_CAPTURE + value
            else:
                sc[i] = _BAD_CAPTURE + value
        elif m == killers[ply, 0]:
            sc[i] = _KILLER_1
        elif m == killers[ply, 1]:
            sc[i] = _KILLER_2
        elif m == counter_move:
            sc[i] = _COUNTER
        else:
            sc[i] = history[us, frm, to]

    # Step 9: search the moves, best-looking first.
    best = -INF
    best_move = 0
    searched = 0
    n_quiets = 0
    old_alpha = alpha
    lmp_limit = (3 + depth * depth) // (1 if improving else 2)
    for i in range(n):
        _pick(buf, sc, i, n)
        m = buf[i]
        order = sc[i]
        noisy = (m >> 14) & 3 != 0
        prunable = False
        if best > -MATE_BOUND and not checked:
            if not noisy:
                # Late-move and futility pruning of quiet moves (checks are exempt,
                # which is only known after making the move).
                late = depth <= 8 and searched >= lmp_limit
                futile = depth <= 6 and static + 100 + 100 * depth <= alpha
                prunable = late or futile
            elif order < _GOOD_CAPTURE and depth <= 6 and not see_ge(bb, mb, att, m, -90 * depth):
                # A losing capture at shallow depth, unless the loss is small.
                continue
        make_move(bb, mb, st, hist, keys, m)
        gives_check = in_check(bb, st, att)
        if prunable and not gives_check:
            unmake_move(bb, mb, st, hist, keys)
            continue
        new_depth = depth - 1
        if searched == 0:
            score = -_negamax(bb, mb, st, hist, keys, att, tt_keys, tt_data, killers, history,
                              counter, pv, pv_len, moves, scores, quiets, evals, probes, info,
                              new_depth, -beta, -alpha, ply + 1, yes)  # fmt: skip
        else:
            # Step 10: late-move reductions, then a null window, then the full window.
            r = 0
            if depth >= 3 and searched >= 2 and not gives_check and (not noisy or order < 0):
                r = LMR[min(depth, 63), min(searched, 63)]
                if pv_node:
                    r -= 1
                if not improving:
                    r += 1
                if order >= _COUNTER:
                    r -= 1
                elif not noisy:
                    r -= order // 6000
                r = max(0, min(r, new_depth - 1))
            score = -_negamax(bb, mb, st, hist, keys, att, tt_keys, tt_data, killers, history,
                              counter, pv, pv_len, moves, scores, quiets, evals, probes, info,
                              new_depth - r, -alpha - 1, -alpha, ply + 1, yes)  # fmt: skip
            if score > alpha and r > 0:
                score = -_negamax(bb, mb, st, hist, keys, att, tt_keys, tt_data, killers,
                                  history, counter, pv, pv_len, moves, scores, quiets, evals,
                                  probes, info, new_depth, -alpha - 1, -alpha, ply + 1,
                                  yes)  # fmt: skip
            if score > alpha and score < beta:
                score = -_negamax(bb, mb, st, hist, keys, att, tt_keys, tt_data, killers,
                                  history, counter, pv, pv_len, moves, scores, quiets, evals,
                                  probes, info, new_depth, -beta, -alpha, ply + 1, yes)  # fmt: skip
        unmake_move(bb, mb, st, hist, keys)
        if info[I_STOP]:
            return 0
        searched += 1
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = m
                _update_pv(pv, pv_len, ply, m)
                if alpha >= beta:
                    break
        if not noisy and n_quiets < quiets.shape[1]:
            quiets[ply, n_quiets] = m
            n_quiets += 1

    # Step 11: a quiet move that refuted the node teaches killers, counters, history.
    if best >= beta and (best_move >> 14) & 3 == 0:
        if killers[ply, 0] != best_move:
            killers[ply, 1] = killers[ply, 0]
            killers[ply, 0] = best_move
        if prev_piece != EMPTY:
            counter[prev_piece, prev_to] = best_move
        bonus = min(depth * depth * 16, 1600)
        frm = best_move & 63
        to = (best_move >> 6) & 63
        h = history[us, frm, to]
        history[us, frm, to] = h + bonus - h * bonus // _HISTORY_MAX
        for k in range(n_quiets):
            q = quiets[ply, k]
            frm = q & 63
            to = (q >> 6) & 63
            h = history[us, frm, to]
            history[us, frm, to] = h - bonus - h * bonus // _HISTORY_MAX

    if best >= beta:
        bound = BOUND_LOWER
    elif alpha > old_alpha:
        bound = BOUND_EXACT
    else:
        bound = BOUND_UPPER
    store(tt_keys, tt_data, key, ply, best_move, best, depth, bound, info[I_AGE], static)
    return best


@njit(cache=True, nogil=True)
def search_root(
    bb: np.ndarray,
    mb: np.ndarray,
    st: np.ndarray,
    hist: np.ndarray,
    keys: np.ndarray,
    att: np.ndarray,
    tt_keys: np.ndarray,
    tt_data: np.ndarray,
    killers: np.ndarray,
    history: np.ndarray,
    counter: np.ndarray,
    pv: np.ndarray,
    pv_len: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    quiets: np.ndarray,
    evals: np.ndarray,
    probes: np.ndarray,
    info: np.ndarray,
    root_moves: np.ndarray,
    n_root: int,
    depth: int,
    alpha: int,
    beta: int,
) -> int:
    """Search ``root_moves[:n_root]`` to ``depth`` in (alpha, beta); best first afterwards.

    The best move found moves to the front of ``root_moves`` and its line is in
    ``pv[0, :pv_len[0]]``; ``info[I_ROOT_UPDATED]`` says a move beat alpha. A
    stopped search returns early; its partial result is only trusted for moves
    whose scores were completed.
    """
    one = np.int64(1)
    yes = np.bool_(True)
    pv_len[0] = 0
    info[I_ROOT_UPDATED] = 0
    best = -INF
    evals[0] = -INF if in_check(bb, st, att) else evaluate(bb, mb, st, att)
    for i in range(n_root):
        m = root_moves[i]
        make_move(bb, mb, st, hist, keys, m)
        if i == 0:
            score = -_negamax(bb, mb, st, hist, keys, att, tt_keys, tt_data, killers, history,
                              counter, pv, pv_len, moves, scores, quiets, evals, probes, info,
                              depth - 1, -beta, -alpha, one, yes)  # fmt: skip
        else:
            score = -_negamax(bb, mb, st, hist, keys, att, tt_keys, tt_data, killers, history,
                              counter, pv, pv_len, moves, scores, quiets, evals, probes, info,
                              depth - 1, -alpha - 1, -alpha, one, yes)  # fmt: skip
            if score > alpha and score < beta and not info[I_STOP]:
                score = -_negamax(bb, mb, st, hist, keys, att, tt_keys, tt_data, killers,
                                  history, counter, pv, pv_len, moves, scores, quiets, evals,
                                  probes, info, depth - 1, -beta, -alpha, one, yes)  # fmt: skip
        unmake_move(bb, mb, st, hist, keys)
        if info[I_STOP]:
            break
        if score > best:
            best = score
        if score > alpha:
            alpha = score
            _update_pv(pv, pv_len, 0, m)
            info[I_ROOT_UPDATED] = 1
            for k in range(i, 0, -1):
                root_moves[k] = root_moves[k - 1]
            root_moves[0] = m
            if score >= beta:
                break
    if not info[I_STOP] and pv_len[0] > 0:
        bound = BOUND_LOWER if best >= beta else BOUND_EXACT
        store(tt_keys, tt_data, keys[st[ST_PLY]], 0, pv[0, 0], best, depth, bound, info[I_AGE],
              evals[0])  # fmt: skip
    return best
