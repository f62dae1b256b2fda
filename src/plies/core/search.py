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
history update and the table store), each a small inlined function; move scoring
and the quiet-move reward are separate compiles, since inlining them cost compile
time and bought no measurable speed.

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
from plies.core.bits import ZERO, popcount
from plies.core.encoding import (
    BISHOP,
    BLACK,
    FLAG_EP,
    KNIGHT,
    NO_PIECE,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    is_noisy,
    is_promotion,
    kind_of,
    move_flag,
    move_from,
    move_to,
    piece_code,
    promotion_kind,
)
from plies.core.info import SearchInfo
from plies.core.movegen import gen_moves
from plies.core.position import (
    Position,
    in_check,
    make_move,
    make_null,
    unmake_move,
    unmake_null,
)
from plies.core.see import SEE_VALUES, piece_value, see_ge
from plies.core.stack import MAX_PLY, QUIETS_PER_PLY, SearchStack
from plies.core.tbprobe import TB_DEPTH, TB_HITS, TB_MEN, TB_RULE50, probe_search
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
    store,
)
from plies.core.undo import UNDO_MOVE
from plies.params import (
    FUTILITY_BASE,
    FUTILITY_MARGIN,
    HISTORY_BONUS,
    HISTORY_BONUS_MAX,
    HISTORY_PER_PLY,
    HISTORY_PRUNE,
    LMP_BASE,
    NULL_EVAL_DIV,
    QSEARCH_DELTA,
    RAZOR_MARGIN,
    RFP_IMPROVING,
    RFP_MARGIN,
    SEE_CAPTURE_MARGIN,
    SINGULAR_MARGIN,
)

INF = 32500

# Move-ordering tiers (scores compared within one node only).
_TT_MOVE = 2_000_000_000
_GOOD_CAPTURE = 1_000_000_000
_KILLER_1 = 900_000_000
_KILLER_2 = 800_000_000
_COUNTER = 700_000_000
_BAD_CAPTURE = -1_000_000_000
_UNDERPROMOTION = -2_000_000_000

_HISTORY_MAX = 16384
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


@njit(cache=True, nogil=True, _nrt=False)
def _is_draw(pos: Position) -> bool:
    """Fifty-move rule, any repetition (game history included), or bare minor pieces.

    The caller must still rule out checkmate when the halfmove clock reached 100.
    """
    half = pos.halfmove
    if half >= 100:
        return True
    p = pos.ply
    key = pos.keys[p]
    undo = pos.undo
    low = max(p - half, 0)
    i = p - 2
    while i >= low:
        # A null move (recorded as move 0) breaks the line: positions before it
        # were not reached by moves, so the same key there is no repetition.
        if undo[i + 1, UNDO_MOVE] == 0 or undo[i, UNDO_MOVE] == 0:
            break
        if i <= p - 4 and pos.keys[i] == key:
            return True
        i -= 2
    bb = pos.pieces
    heavy = ZERO
    for kind in (PAWN, ROOK, QUEEN):
        heavy |= bb[piece_code(WHITE, kind)] | bb[piece_code(BLACK, kind)]
    if heavy == ZERO:
        minors = ZERO
        for kind in (KNIGHT, BISHOP):
            minors |= bb[piece_code(WHITE, kind)] | bb[piece_code(BLACK, kind)]
        if popcount(minors) <= 1:
            return True
    return False


@njit(cache=True, inline="always")
def _mated_at_fifty(pos: Position, scratch: np.ndarray) -> bool:
    """A mate given by the move that reaches the fifty-move limit is still a mate."""
    # gen_moves, not count_moves: the search compiles gen_moves anyway, and a second
    # generator cost about 11 s of a cold start for a check that almost never runs.
    # ``scratch`` is this node's own move buffer, filled only later.
    return pos.halfmove >= 100 and in_check(pos) and gen_moves(pos, scratch, np.bool_(False)) == 0


@njit(cache=True, inline="always")
def _victim_value(pos: Position, m: int) -> int:
    """Material value of the piece a move captures (a pawn for en passant)."""
    if move_flag(m) == FLAG_EP:
        return SEE_VALUES[PAWN]
    return piece_value(pos.squares[move_to(m)])


@njit(cache=True, inline="always")
def _mvv_lva(pos: Position, m: int) -> int:
    """Most valuable victim first, then least valuable attacker."""
    return _victim_value(pos, m) * 16 - kind_of(pos.squares[move_from(m)])


@njit(cache=True, inline="always")
def _pick(moves: np.ndarray, scores: np.ndarray, i: int, n: int) -> None:
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
def _score_noisy(pos: Position, moves: np.ndarray, scores: np.ndarray, n: int) -> None:
    """Order captures by MVV-LVA, queen promotions by their gain, under-promotions last."""
    for i in range(n):
        m = moves[i]
        value = _mvv_lva(pos, m)
        if is_promotion(m):
            kind = promotion_kind(m)
            value += 16 * (SEE_VALUES[kind] - 100) if kind == QUEEN else _UNDERPROMOTION
        scores[i] = value


@njit(cache=True, inline="always")
def _qsearch_skips(
    pos: Position, m: int, order: int, stand: int, alpha: int, delta: int
) -> bool:
    """Skip under-promotions, captures that cannot reach alpha by ``delta``, and losing
    exchanges."""
    if order <= _UNDERPROMOTION // 2:
        return True
    if not is_promotion(m) and stand + _victim_value(pos, m) + delta <= alpha:
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
                store(table, key, ply, zero, stand, zero, np.int64(BOUND_LOWER), info.age, stand)
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
    _score_noisy(pos, buf, sc, n)
    delta = stack.params[QSEARCH_DELTA]

    # Step 4: search them, skipping the hopeless ones unless in check.
    best_move = 0
    for i in range(n):
        _pick(buf, sc, i, n)
        m = buf[i]
        if not checked and _qsearch_skips(pos, m, sc[i], stand, alpha, delta):
            continue
        make_move(pos, m)
        prefetch(table, pos.keys[pos.ply])
        score = -_qsearch(pos, stack, table, info, -beta, -alpha, ply + 1, unknown)
        unmake_move(pos)
        if info.stop:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = m
                _update_pv(stack, ply, m)
                if alpha >= beta:
                    break

    # Step 5: store the result.
    bound = _bound(best, alpha, beta, old_alpha)
    store(table, key, ply, best_move, best, zero, bound, info.age, stand)
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


@njit(cache=True, inline="always")
def _reverse_futility(
    params: np.ndarray, static: int, beta: int, depth: int, improving: bool
) -> bool:
    """Far above beta at low depth: assume the node holds (reverse futility pruning)."""
    margin = params[RFP_MARGIN] * depth - (params[RFP_IMPROVING] if improving else 0)
    return depth <= 7 and static - margin >= beta and abs(beta) < MATE_BOUND


@njit(cache=True, inline="always")
def _null_move_reduction(
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
def _previous_move(pos: Position) -> tuple[int, int]:
    """Piece and target square of the move that led here (NO_PIECE after a null move)."""
    if pos.ply > 0:
        prev = pos.undo[pos.ply - 1, UNDO_MOVE]
        if prev != 0:
            to = move_to(prev)
            return pos.squares[to], to
    return NO_PIECE, 0


@njit(cache=True, inline="always")
def _played_index(pos: Position, m: int) -> int:
    """The (piece, to) index of a move about to be made (continuation-history row/column)."""
    return pos.squares[move_from(m)] * 64 + move_to(m)


@njit(cache=True, inline="always")
def _followed(stack: SearchStack, ply: int, back: int) -> int:
    """The (piece, to) index of the move made ``back`` plies before ``ply`` (0: none)."""
    return stack.played[ply - back] if ply >= back else 0


@njit(cache=True, inline="always")
def _quiet_score(pos: Position, stack: SearchStack, m: int, prev1: int, prev2: int) -> int:
    """A quiet move's history: colour-from-to plus its 1- and 2-ply continuation histories."""
    idx = _played_index(pos, m)
    return (stack.history[pos.side, move_from(m), move_to(m)]
            + stack.conthist[prev1, idx] + stack.conthist[prev2, idx])  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False)
def _score_moves(
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
            sc[i] = _UNDERPROMOTION
        elif is_noisy(m):
            value = _mvv_lva(pos, m)
            if is_promotion(m):
                value += 16 * 800
            sc[i] = (_GOOD_CAPTURE if see_ge(pos, m, zero) else _BAD_CAPTURE) + value
        elif m == stack.killers[ply, 0]:
            sc[i] = _KILLER_1
        elif m == stack.killers[ply, 1]:
            sc[i] = _KILLER_2
        elif m == counter_move:
            sc[i] = _COUNTER
        else:
            sc[i] = _quiet_score(pos, stack, m, prev1, prev2)


@njit(cache=True, inline="always")
def _quiet_prunable(
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
def _losing_capture(params: np.ndarray, pos: Position, m: int, order: int, depth: int) -> bool:
    """A capture that loses material at shallow depth, beyond a small allowance."""
    margin = params[SEE_CAPTURE_MARGIN]
    return order < _GOOD_CAPTURE and depth <= 6 and not see_ge(pos, m, -margin * depth)


@njit(cache=True, inline="always")
def _safe_check(pos: Position, m: int) -> int:
    """1 if checking move ``m`` (just made) loses no material by SEE, else 0; ``pos`` is
    back after the move on return."""
    unmake_move(pos)
    safe = see_ge(pos, m, np.int64(0))
    make_move(pos, m)
    return 1 if safe else 0


@njit(cache=True, inline="always")
def _reduction(
    stack: SearchStack, depth: int, searched: int, gives_check: bool, noisy: bool, order: int,
    pv_node: bool, improving: bool, new_depth: int,
) -> int:  # fmt: skip
    """Late-move reduction of a move, less for PV nodes, killers and good history."""
    if depth < 3 or searched < 2 or gives_check or (noisy and order >= 0):
        return 0
    r = stack.lmr[min(depth, 63), min(searched, 63)]
    if pv_node:
        r -= 1
    if not improving:
        r += 1
    if order >= _COUNTER:
        r -= 1
    elif not noisy:
        r -= order // stack.params[HISTORY_PER_PLY]
    return max(0, min(r, new_depth - 1))


@njit(cache=True, inline="always")
def _nudge_continuations(
    pos: Position, stack: SearchStack, ply: int, m: int, bonus: int
) -> None:
    """Move the 1- and 2-ply continuation histories of quiet ``m`` by ``bonus`` (gravity)."""
    cont = stack.conthist
    idx = _played_index(pos, m)
    for back in range(1, 3):
        prev = _followed(stack, ply, back)
        if prev != 0:
            h = np.int64(cont[prev, idx])
            cont[prev, idx] = h + bonus - h * abs(bonus) // _HISTORY_MAX


@njit(cache=True, nogil=True, _nrt=False)
def _reward_quiet(
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
    wdl, ok = probe_search(tb, pos.pieces, pos.side, pos.ep)
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
    store(table, key, ply, np.int64(0), score, min(MAX_PLY - 1, depth + 6), bound, info.age,
          np.int64(NO_EVAL))  # fmt: skip
    return score


@njit(cache=True, nogil=True, _nrt=False)
def _negamax(
    pos: Position, stack: SearchStack, table: Table, info: SearchInfo,
    depth: int, alpha: int, beta: int, ply: int, allow_null: bool, known_check: int,
) -> int:  # fmt: skip
    """Principal-variation search below the root; returns a fail-soft score.

    ``known_check``: 1 or 0 if the caller knows whether the side to move is in check
    (the parent tests every move it makes for check anyway), else -1.
    """
    yes = np.bool_(True)
    no = np.bool_(False)
    unknown = np.int64(-1)
    stack.pv_len[ply] = ply
    if depth <= 0:
        return _qsearch(pos, stack, table, info, alpha, beta, ply, known_check)
    if _poll(info):
        return 0
    _note_ply(info, ply)
    pv_node = beta - alpha > 1
    params = stack.params

    # Step 1: draws, and mate-distance pruning (no line can beat a shorter mate).
    if _is_draw(pos):
        return -MATE + ply if _mated_at_fifty(pos, stack.moves[ply]) else 0
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
        if _reverse_futility(params, static, beta, depth, improving):
            return static
        # Step 5: null move: if passing still fails high, a real move will too.
        r = _null_move_reduction(params, pos, static, beta, depth) if allow_null else 0
        if r > 0:
            stack.played[ply] = 0
            make_null(pos)
            score = -_negamax(pos, stack, table, info, depth - 1 - r, -beta, -beta + 1,
                              ply + 1, no, unknown)  # fmt: skip
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
        score = _negamax(pos, stack, table, info, (depth - 1) // 2, s_beta - 1, s_beta, ply, no,
                         known)  # fmt: skip
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
    prev_piece, prev_to = _previous_move(pos)
    counter_move = stack.counter[prev_piece, prev_to] if prev_piece != NO_PIECE else 0
    _score_moves(pos, stack, ply, n, tt_move, counter_move)

    # Step 10: search the moves, best-looking first, pruning hopeless ones.
    best = -INF
    best_move = 0
    searched = 0
    n_quiets = 0
    old_alpha = alpha
    lmp_limit = (params[LMP_BASE] + depth * depth) // (1 if improving else 2)
    for i in range(n):
        _pick(buf, sc, i, n)
        m = buf[i]
        if m == excluded:
            continue
        order = sc[i]
        noisy = is_noisy(m)
        prunable = False
        if best > -MATE_BOUND and not checked:
            if not noisy:
                # Checks are exempt, which is only known after making the move.
                prunable = _quiet_prunable(params, depth, searched, lmp_limit, static, alpha,
                                           order)  # fmt: skip
            elif _losing_capture(params, pos, m, order, depth):
                continue
        stack.played[ply] = _played_index(pos, m)
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
            new_depth += _safe_check(pos, m)
        if searched == 0:
            score = -_negamax(pos, stack, table, info, new_depth, -beta, -alpha, ply + 1, yes,
                              child_check)  # fmt: skip
        else:
            # Step 11: late-move reductions, then a null window, then the full window.
            r = _reduction(stack, depth, searched, gives_check, noisy, order, pv_node,
                           improving, new_depth)  # fmt: skip
            score = -_negamax(pos, stack, table, info, new_depth - r, -alpha - 1, -alpha,
                              ply + 1, yes, child_check)  # fmt: skip
            if score > alpha and r > 0:
                score = -_negamax(pos, stack, table, info, new_depth, -alpha - 1, -alpha,
                                  ply + 1, yes, child_check)  # fmt: skip
            if score > alpha and score < beta:
                score = -_negamax(pos, stack, table, info, new_depth, -beta, -alpha, ply + 1,
                                  yes, child_check)  # fmt: skip
        unmake_move(pos)
        if info.stop:
            return 0
        searched += 1
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = m
                _update_pv(stack, ply, m)
                if alpha >= beta:
                    break
        if not noisy and n_quiets < QUIETS_PER_PLY:
            stack.quiets[ply, n_quiets] = m
            n_quiets += 1

    # Step 12: a quiet move that refuted the node teaches killers, counters, history.
    if best == -INF:
        return alpha  # the only move was the excluded one
    if best >= beta and not is_noisy(best_move):
        _reward_quiet(pos, stack, ply, best_move, prev_piece, prev_to, depth, n_quiets)

    # Step 13: store the result (not from a singular-extension search, which left a move out).
    if excluded != 0:
        return best
    bound = _bound(best, alpha, beta, old_alpha)
    store(table, key, ply, best_move, best, depth, bound, info.age, static)
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
    one = np.int64(1)
    yes = np.bool_(True)
    root_moves = stack.root_moves
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
        stack.played[0] = _played_index(pos, m)
        make_move(pos, m)
        gives_check = in_check(pos)
        known = np.int64(1) if gives_check else np.int64(0)
        child = depth - 1 + (_safe_check(pos, m) if gives_check else 0)
        if i == 0:
            score = -_negamax(pos, stack, table, info, child, -beta, -alpha, one, yes, known)
        else:
            score = -_negamax(pos, stack, table, info, child, -alpha - 1, -alpha, one, yes, known)
            if score > alpha and score < beta and not info.stop:
                score = -_negamax(pos, stack, table, info, child, -beta, -alpha, one, yes, known)
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
        store(table, pos.keys[pos.ply], np.int64(0), stack.pv[0, 0], best, depth, bound, info.age,
              stack.evals[0])  # fmt: skip
    info.root_nodes = info.nodes - start_nodes
    return best
