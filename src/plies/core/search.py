"""The compiled search: principal-variation alpha-beta with quiescence.

One call of ``search_root`` searches the root moves to one depth inside an
(alpha, beta) window; the Python engine layer runs iterative deepening and
aspiration windows around it, so it can report each iteration and decide when
to stop. Every function here is ``nogil``: the search runs in a Python thread
while another thread may set the info block's ``stop`` at any moment.

Every search function takes the same four objects: the ``Position``, the
thread's ``SearchStack`` (move ordering, PV, per-ply buffers), the shared
transposition ``Table`` and the ``SearchInfo`` block (counters and limits).
``_negamax`` reads as the usual steps (draws, table probe, static evaluation,
pruning, move generation and ordering, the move loop with reductions, the
history update and the table store), each a small inlined function. Move ordering
and the history it learns from live in ``movepick``, the pruning, reduction and
extension rules in ``pruning``, draw detection in ``draws``.

Calls of compiled (not inlined) functions pass no bare literals (``0``,
``True``, a module constant): numba compiles a separate copy of the callee for
each literal value, which multiplied the first-run compile, and a cached
recursive function whose recursive call casts a literal crashes when loaded from
the cache (numba issues 6061/6713). ``np.int64(0)`` and ``np.bool_(True)`` carry
exact, non-literal types.

The pruning margins, reduction terms and history steps are read from the stack's
``params`` (named in ``plies.params``) rather than written in as constants, so a tuner
sets them between searches; a load from a small array costs nothing measurable.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from plies.core import static_eval
from plies.core.bits import popcount
from plies.core.draws import is_draw, mated_at_fifty
from plies.core.encoding import (
    NO_PIECE,
    is_noisy,
    is_promotion,
)
from plies.core.info import SearchInfo
from plies.core.makemove import after_null, make_move, make_null, unmake_move, unmake_null
from plies.core.movegen import gen_moves
from plies.core.movepick import (
    UNDERPROMOTION,
    pick,
    played_index,
    previous_move,
    reward_quiet,
    score_moves,
    score_noisy,
    victim_value,
)
from plies.core.position import Position, in_check
from plies.core.pruning import (
    losing_capture,
    null_move_reduction,
    quiet_prunable,
    reduction,
    reverse_futility,
    safe_check,
)
from plies.core.see import see_ge
from plies.core.stack import MAX_PLY, QUIETS_PER_PLY, SearchStack
from plies.core.tt import (
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    MATE,
    MATE_BOUND,
    NO_EVAL,
    Table,
    prefetch,
    probe,
    score_to_tt,
    store,
)
from plies.params import (
    LMP_BASE,
    QSEARCH_DELTA,
    RAZOR_MARGIN,
    SINGULAR_MARGIN,
)
from plies.syzygy.probe import probe_wdl
from plies.syzygy.tables import TB_DEPTH, TB_HITS, TB_MEN, TB_RULE50

INF = 32500

_SINGULAR_DEPTH = 7
"""Shallowest depth at which the table move is tested for singularity."""
TB_WIN = MATE_BOUND - 2 * MAX_PLY
"""A tablebase win at ply 0 (``TB_WIN - ply`` deeper): above any evaluation, below every
mate score."""


# -- bookkeeping ---------------------------------------------------------------


@njit(cache=True, inline="always")
def _poll(info: SearchInfo) -> bool:
    """Count a node and say whether the search must stop (flag or node limit).

    A stopped search counts nothing more and the limit is checked at every node,
    so ``info.nodes`` never exceeds ``info.node_limit`` (``go nodes`` is exact).
    """
    if info.stop:
        return True
    info.nodes += 1
    limit = info.node_limit
    if limit > 0 and info.nodes >= limit:
        info.stop = 1
    return info.stop != 0


@njit(cache=True, inline="always")
def _note_ply(info: SearchInfo, ply: int) -> None:
    """Record the deepest ply reached (the reported selective depth)."""
    if ply > info.seldepth:
        info.seldepth = ply


@njit(cache=True, inline="always")
def _update_pv(stack: SearchStack, ply: int, m: int) -> None:
    """Make ``m`` followed by the child's PV the PV of this ply."""
    pv = stack.pv
    pv_len = stack.pv_len
    pv[ply, ply] = m
    end = pv_len[ply + 1]
    for k in range(ply + 1, end):
        pv[ply, k] = pv[ply + 1, k]
    pv_len[ply] = max(end, ply + 1)


@njit(cache=True, inline="always")
def _take_score(
    stack: SearchStack, ply: int, m: int, score: int, best: int, alpha: int, best_move: int
) -> tuple[int, int, int]:
    """Take in move ``m``'s score: the node's best score, alpha and best move after it (a
    move that raises alpha becomes this ply's PV)."""
    if score > best:
        best = score
        if score > alpha:
            alpha = score
            best_move = m
            _update_pv(stack, ply, m)
    return best, alpha, best_move


@njit(cache=True, inline="always")
def _tt_cutoff(score: int, bound: int, alpha: int, beta: int) -> bool:
    """Whether a stored score with this bound settles the (alpha, beta) window."""
    return (
        bound == BOUND_EXACT
        or (bound == BOUND_LOWER and score >= beta)
        or (bound == BOUND_UPPER and score <= alpha)
    )


@njit(cache=True, inline="always")
def _bound(best: int, alpha: int, beta: int, old_alpha: int) -> int:
    """The bound a node's result is: failed high, exact, or failed low."""
    if best >= beta:
        return BOUND_LOWER
    if alpha > old_alpha:
        return BOUND_EXACT
    return BOUND_UPPER


# -- quiescence ----------------------------------------------------------------


@njit(cache=True, inline="always")
def _qsearch_skips(
    pos: Position, m: int, order: int, stand: int, alpha: int, delta: int
) -> bool:
    """Skip under-promotions, captures that cannot reach alpha by ``delta``, and losing
    exchanges."""
    if order <= UNDERPROMOTION // 2:
        return True
    if not is_promotion(m) and stand + victim_value(pos, m) + delta <= alpha:
        return True
    return not see_ge(pos, m, np.int64(0))


@njit(cache=True, nogil=True, _nrt=False)
def _qsearch(
    pos: Position, stack: SearchStack, table: Table, info: SearchInfo,
    alpha: int, beta: int, ply: int, known_check: int,
) -> int:  # fmt: skip
    """Quiescence search: captures and promotions until the position is quiet.

    ``known_check`` is 1 or 0 when the caller already knows whether the side to move
    is in check (the parent's gives-check test), else -1.
    """
    zero = np.int64(0)
    unknown = np.int64(-1)
    stack.pv_len[ply] = ply
    if _poll(info):
        return 0
    _note_ply(info, ply)
    if ply >= MAX_PLY - 1:
        return static_eval.evaluate(pos)

    # Step 1: transposition table cut-off in non-PV nodes.
    key = pos.keys[pos.ply]
    hit, _, tt_score, _, tt_bound, tt_eval = probe(table, key, ply)
    if hit and beta - alpha == 1 and _tt_cutoff(tt_score, tt_bound, alpha, beta):
        return tt_score

    # Step 2: stand pat, unless in check (then every evasion is searched).
    checked = in_check(pos) if known_check < 0 else known_check != 0
    if checked:
        best = -INF
        stand = -INF
    else:
        stand = tt_eval if hit and tt_eval != NO_EVAL else static_eval.evaluate(pos)
        if stand >= beta:
            if not hit:
                store(table, key, zero, score_to_tt(stand, ply), zero, np.int64(BOUND_LOWER),
                      info.age, stand)  # fmt: skip
            return stand
        best = stand
        if stand > alpha:
            alpha = stand
    old_alpha = alpha

    # Step 3: generate the noisy moves (every evasion in check) and order them.
    buf = stack.moves[ply]
    sc = stack.scores[ply]
    n = gen_moves(pos, buf, np.bool_(True))
    if n == 0:
        return -MATE + ply if checked else best
    score_noisy(pos, buf, sc, n)
    delta = stack.params[QSEARCH_DELTA]

    # Step 4: search them, skipping the hopeless ones unless in check.
    best_move = 0
    for i in range(n):
        pick(buf, sc, i, n)
        m = buf[i]
        if not checked and _qsearch_skips(pos, m, sc[i], stand, alpha, delta):
            continue
        make_move(pos, m)
        prefetch(table, pos.keys[pos.ply])
        score = -_qsearch(pos, stack, table, info, -beta, -alpha, ply + 1, unknown)
        unmake_move(pos)
        if info.stop:
            return 0
        best, alpha, best_move = _take_score(stack, ply, m, score, best, alpha, best_move)
        if alpha >= beta:
            break

    # Step 5: store the result.
    bound = _bound(best, alpha, beta, old_alpha)
    store(table, key, best_move, score_to_tt(best, ply), zero, bound, info.age, stand)
    return best


# -- the steps of a full-width node ----------------------------------------------


@njit(cache=True, inline="always")
def _static_eval(pos: Position, checked: bool, hit: bool, tt_eval: int) -> int:
    """The node's static evaluation: none in check, the table's if stored, else computed."""
    if checked:
        return -INF
    if hit and tt_eval != NO_EVAL:
        return tt_eval
    return static_eval.evaluate(pos)


@njit(cache=True, inline="always")
def _improving(stack: SearchStack, ply: int, static: int) -> bool:
    """Whether the evaluation rose since our last move (or the one before, if we were in
    check then); with no evaluation to compare, assume it did."""
    evals = stack.evals
    if ply >= 2 and evals[ply - 2] != -INF:
        return static > evals[ply - 2]
    if ply >= 4 and evals[ply - 4] != -INF:
        return static > evals[ply - 4]
    return True


_REDUCED = 0
"""A later move's first search: reduced depth, null window."""
_NULL_WINDOW = 1
"""Its search again at full depth, still with a null window."""
_FULL = 2
"""A search with the full window (the first move's only one)."""

_NO_CUT = INF + 1
"""What ``_tb_cut`` returns when the tables do not settle the node."""


@njit(cache=True, nogil=True, _nrt=False)
def _tb_cut(
    stack: SearchStack, table: Table, info: SearchInfo, pos: Position, key: np.uint64,
    depth: int, ply: int,
) -> int:  # fmt: skip
    """The node's tablebase score, stored in the table; ``_NO_CUT`` if the tables lack it.

    A win scores just below the mate scores (nearer wins higher), a draw 0 (+-2 for a
    cursed win or blessed loss when the fifty-move rule counts). Unlike Stockfish the
    node always ends here, also where a win is only a lower bound (a mate could be
    nearer) and the window lies above it: a PV node would otherwise search on and
    report the evaluation, and the outcome, not the mate distance, is what counts.
    """
    tb = stack.tb
    wdl, ok = probe_wdl(tb, pos)
    if not ok:
        return _NO_CUT
    limits = tb.limits
    limits[TB_HITS] += 1
    draw = limits[TB_RULE50]
    if wdl < -draw:
        score, bound = -TB_WIN + ply, BOUND_UPPER
    elif wdl > draw:
        score, bound = TB_WIN - ply, BOUND_LOWER
    else:
        score, bound = 2 * wdl * draw, BOUND_EXACT
    store(table, key, np.int64(0), score_to_tt(score, ply), min(MAX_PLY - 1, depth + 6), bound,
          info.age, np.int64(NO_EVAL))  # fmt: skip
    return score


@njit(cache=True, nogil=True, _nrt=False)
def _negamax(
    pos: Position, stack: SearchStack, table: Table, info: SearchInfo,
    depth: int, alpha: int, beta: int, known_check: int,
) -> int:  # fmt: skip
    """Principal-variation search below the root; returns a fail-soft score.

    ``known_check``: 1 or 0 if the caller knows whether the side to move is in check
    (the parent tests every move it makes for check anyway), else -1. Like Stockfish,
    the node reads its distance from the root and whether a null move may follow off
    the position and the stack instead of taking them as arguments.
    """
    unknown = np.int64(-1)
    ply = pos.ply - info.root_ply
    stack.pv_len[ply] = ply
    if depth <= 0:
        return _qsearch(pos, stack, table, info, alpha, beta, ply, known_check)
    if _poll(info):
        return 0
    _note_ply(info, ply)
    pv_node = beta - alpha > 1
    params = stack.params

    # Step 1: draws, and mate-distance pruning (no line can beat a shorter mate).
    if is_draw(pos):
        return -MATE + ply if mated_at_fifty(pos, stack.moves[ply]) else 0
    if ply >= MAX_PLY - 1:
        return static_eval.evaluate(pos)
    alpha = max(alpha, -MATE + ply)
    beta = min(beta, MATE - ply - 1)
    if alpha >= beta:
        return alpha

    # Step 2: transposition table; cut off in non-PV nodes with a deep enough bound.
    # A singular-extension search of this very node (one move excluded) must not be cut
    # by, nor overwrite, the node's own entry.
    key = pos.keys[pos.ply]
    excluded = stack.excluded[ply]
    hit, tt_move, tt_score, tt_depth, tt_bound, tt_eval = probe(table, key, ply)
    if (hit and excluded == 0 and not pv_node and tt_depth >= depth
            and _tt_cutoff(tt_score, tt_bound, alpha, beta)):  # fmt: skip
        return tt_score

    # Step 2b: endgame tables, just after a capture or pawn move (where the prober's
    # answer, given as if the fifty-move counter were zero, is exact).
    limits = stack.tb.limits
    if (limits[TB_MEN] > 0 and pos.halfmove == 0 and pos.castling == 0 and excluded == 0
            and depth >= limits[TB_DEPTH]
            and popcount(pos.pieces[0] | pos.pieces[8]) <= limits[TB_MEN]):  # fmt: skip
        score = _tb_cut(stack, table, info, pos, key, depth, ply)
        if score != _NO_CUT:
            return score

    # Step 3: static evaluation; in check we skip the pruning steps.
    checked = in_check(pos) if known_check < 0 else known_check != 0
    known = np.int64(1) if checked else np.int64(0)
    static = _static_eval(pos, checked, hit, tt_eval)
    stack.evals[ply] = static
    improving = not checked and _improving(stack, ply, static)

    if not pv_node and not checked:
        # Step 4: reverse futility pruning.
        if reverse_futility(params, static, beta, depth, improving):
            return static
        # Step 5: null move: if passing still fails high, a real move will too (never
        # two passes in a row, nor in a singular-extension search).
        r = 0
        if excluded == 0 and not after_null(pos):
            r = null_move_reduction(params, pos, static, beta, depth)
        if r > 0:
            stack.played[ply] = 0
            make_null(pos)
            score = -_negamax(pos, stack, table, info, depth - 1 - r, -beta, -beta + 1,
                              unknown)  # fmt: skip
            unmake_null(pos)
            if info.stop:
                return 0
            if score >= beta:
                return beta if score >= MATE_BOUND else score
        # Step 6: razoring: hopeless at depth 1, verify with quiescence.
        if depth == 1 and static + params[RAZOR_MARGIN] <= alpha:
            score = _qsearch(pos, stack, table, info, alpha, alpha + 1, ply, known)
            if score <= alpha:
                return score

    # Step 7: without a hash move, deep nodes are searched one ply shallower.
    if tt_move == 0 and depth >= 4:
        depth -= 1

    # Step 8: singular extension: a table move that beats every other by a margin is
    # searched one ply deeper; if the others beat beta too, the node is cut (multi-cut);
    # if only the table move's score does, it is searched one ply shallower.
    extension = 0
    if (excluded == 0 and depth >= _SINGULAR_DEPTH and tt_move != 0 and tt_depth >= depth - 3
            and (tt_bound & BOUND_LOWER) != 0 and abs(tt_score) < MATE_BOUND):  # fmt: skip
        s_beta = tt_score - params[SINGULAR_MARGIN] * depth
        stack.excluded[ply] = tt_move
        score = _negamax(pos, stack, table, info, (depth - 1) // 2, s_beta - 1, s_beta, known)
        stack.excluded[ply] = 0
        stack.pv_len[ply] = ply
        if info.stop:
            return 0
        if score < s_beta:
            extension = 1
        elif s_beta >= beta:
            return s_beta
        elif tt_score >= beta:
            extension = -1

    # Step 9: generate and order the moves.
    buf = stack.moves[ply]
    sc = stack.scores[ply]
    n = gen_moves(pos, buf, np.bool_(False))
    if n == 0:
        return -MATE + ply if checked else 0
    prev_piece, prev_to = previous_move(pos)
    counter_move = stack.counter[prev_piece, prev_to] if prev_piece != NO_PIECE else 0
    score_moves(pos, stack, ply, n, tt_move, counter_move)

    # Step 10: search the moves, best-looking first, pruning hopeless ones.
    best = -INF
    best_move = 0
    searched = 0
    n_quiets = np.int64(0)  # not a literal 0: that would compile reward_quiet twice
    old_alpha = alpha
    lmp_limit = (params[LMP_BASE] + depth * depth) // (1 if improving else 2)
    for i in range(n):
        pick(buf, sc, i, n)
        m = buf[i]
        if m == excluded:
            continue
        order = sc[i]
        noisy = is_noisy(m)
        prunable = False
        if best > -MATE_BOUND and not checked:
            if not noisy:
                # Checks are exempt, which is only known after making the move.
                prunable = quiet_prunable(params, depth, searched, lmp_limit, static, alpha,
                                           order)  # fmt: skip
            elif losing_capture(params, pos, m, order, depth):
                continue
        stack.played[ply] = played_index(pos, m)
        make_move(pos, m)
        # The child probes the table first thing: start loading its bucket now (before
        # the check test, so the load overlaps it; a pruned move wastes one prefetch).
        prefetch(table, pos.keys[pos.ply])
        gives_check = in_check(pos)
        child_check = np.int64(1) if gives_check else np.int64(0)
        if prunable and not gives_check:
            unmake_move(pos)
            continue
        new_depth = depth - 1 + (extension if m == tt_move else 0)
        if gives_check and not (m == tt_move and extension > 0):
            # A check that does not lose material is searched one ply deeper (unless
            # already extended as singular).
            new_depth += safe_check(pos, m)
        # Step 11: the first move with the full window; later ones reduced (late-move
        # reductions) with a null window, again unreduced if they beat alpha, then with
        # the full window if inside it. One call site for all of them: numba types each
        # recursive call by typing this whole function again.
        r = 0
        stage = _FULL
        child_depth = new_depth
        child_alpha = -beta
        if searched > 0:
            r = reduction(stack, depth, searched, (gives_check, noisy, order),
                          (pv_node, improving), new_depth)  # fmt: skip
            stage = _REDUCED
            child_depth = new_depth - r
            child_alpha = -alpha - 1
        while True:
            score = -_negamax(pos, stack, table, info, child_depth, child_alpha, -alpha,
                              child_check)  # fmt: skip
            if stage == _REDUCED and r > 0 and score > alpha:
                stage = _NULL_WINDOW
                child_depth = new_depth
            elif stage != _FULL and alpha < score < beta:
                stage = _FULL
                child_depth = new_depth
                child_alpha = -beta
            else:
                break
        unmake_move(pos)
        if info.stop:
            return 0
        searched += 1
        best, alpha, best_move = _take_score(stack, ply, m, score, best, alpha, best_move)
        if alpha >= beta:
            break
        if not noisy and n_quiets < QUIETS_PER_PLY:
            stack.quiets[ply, n_quiets] = m
            n_quiets += 1

    # Step 12: a quiet move that refuted the node teaches killers, counters, history.
    if best == -INF:
        return alpha  # the only move was the excluded one
    if best >= beta and not is_noisy(best_move):
        reward_quiet(pos, stack, ply, best_move, prev_piece, prev_to, depth, n_quiets)

    # Step 13: store the result (not from a singular-extension search, which left a move out).
    if excluded != 0:
        return best
    bound = _bound(best, alpha, beta, old_alpha)
    store(table, key, best_move, score_to_tt(best, ply), depth, bound, info.age, static)
    return best


@njit(cache=True, nogil=True)
def search_root(
    pos: Position, stack: SearchStack, table: Table, info: SearchInfo,
    n_root: int, depth: int, alpha: int, beta: int,
) -> int:  # fmt: skip
    """Search ``stack.root_moves[:n_root]`` to ``depth`` in (alpha, beta); best first afterwards.

    The entry point for Python, compiled with reference counting: called from Python,
    an ``_nrt=False`` function never releases its structref arguments, and the
    position copied for each search leaked (see ``plies.core.entry``).
    """
    return _search_root(pos, stack, table, info, n_root, depth, alpha, beta)


@njit(cache=True, nogil=True, _nrt=False)
def _search_root(
    pos: Position, stack: SearchStack, table: Table, info: SearchInfo,
    n_root: int, depth: int, alpha: int, beta: int,
) -> int:  # fmt: skip
    """The root search (see ``search_root``).

    The best move found moves to the front of the root moves and its line is in
    ``stack.pv[0, :stack.pv_len[0]]``; ``info.root_updated`` says a move beat
    alpha. A stopped search returns early; its partial result is only trusted
    for moves whose scores were completed.
    """
    root_moves = stack.root_moves
    info.root_ply = pos.ply
    stack.pv_len[0] = 0
    info.root_updated = 0
    info.best_nodes = 0
    start_nodes = info.nodes
    best = -INF
    static_eval.prepare(pos)
    stack.evals[0] = -INF if in_check(pos) else static_eval.evaluate(pos)
    for i in range(n_root):
        m = root_moves[i]
        before = info.nodes
        stack.played[0] = played_index(pos, m)
        make_move(pos, m)
        gives_check = in_check(pos)
        known = np.int64(1) if gives_check else np.int64(0)
        child = depth - 1 + (safe_check(pos, m) if gives_check else 0)
        if i == 0:
            score = -_negamax(pos, stack, table, info, child, -beta, -alpha, known)
        else:
            score = -_negamax(pos, stack, table, info, child, -alpha - 1, -alpha, known)
            if score > alpha and score < beta and not info.stop:
                score = -_negamax(pos, stack, table, info, child, -beta, -alpha, known)
        unmake_move(pos)
        if info.stop:
            break
        if score > best:
            best = score
        if score > alpha:
            alpha = score
            _update_pv(stack, 0, m)
            info.root_updated = 1
            info.best_nodes = info.nodes - before
            for k in range(i, 0, -1):
                root_moves[k] = root_moves[k - 1]
            root_moves[0] = m
            if score >= beta:
                break
    if not info.stop and stack.pv_len[0] > 0:
        bound = BOUND_LOWER if best >= beta else BOUND_EXACT
        store(table, pos.keys[pos.ply], stack.pv[0, 0], best, depth, bound, info.age,
              stack.evals[0])  # fmt: skip
    info.root_nodes = info.nodes - start_nodes
    return best
