"""What a search tells its caller: an ``Info`` per finished line, and one at the end.

Lines come from the compiled search as move codes; here they become legal
``Move`` lists, scores become ``Cp`` or ``Mate`` values, and the MultiPV lines of
an unfinished iteration are completed from the iteration before.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import plies.core as core
from plies.board import Board, Move
from plies.engine.limits import Info
from plies.engine.score import Cp, Mate, pov
from plies.engine.wdl import wdl


def mate_moves(score: int) -> int | None:
    """Moves to mate for a mate score (negative when being mated), else None."""
    if score > core.MATE_BOUND:
        return (core.MATE - score + 1) // 2
    if score < -core.MATE_BOUND:
        return -((core.MATE + score) // 2)
    return None


def legal_line(board: Board, line: list[int]) -> list[Move]:
    """The longest legal prefix of a line of core moves, as Moves.

    Checked in one compiled call on a copy of the position (it runs at every
    iteration; replaying the line on a Board copy would take a share of the search).
    """
    if not line:
        return []
    pos = board.core_position()  # a copy already: no second one on every iteration
    scratch = np.zeros(core.MAX_MOVES, dtype=np.int64)
    n = core.legal_prefix(pos, np.array(line, dtype=np.int64), scratch)
    return [board.move_of(code) for code in line[:n]]


def make_info(
    board: Board, depth: int, score: int, line: list[int], multipv: int, points: int,
    seldepth: int, nodes: int, elapsed_s: float, hashfull: int,
    tb_score: int | None = None, tbhits: int | None = None,
) -> Info:
    """The Info of one finished line (``points``: the material on the board, for WDL;
    ``tb_score``: the tables' score of the root, shown unless the line is a mate)."""
    elapsed = max(elapsed_s, 1e-6)
    mate = mate_moves(score)
    if mate is None and tb_score is not None:
        score = tb_score  # the tables know better than the evaluation
    value = Mate(mate) if mate is not None else Cp(score)
    return Info(
        depth=depth,
        seldepth=max(int(seldepth), depth),
        score=pov(value, board.turn),
        nodes=nodes,
        nps=int(nodes / elapsed),
        time_ms=int(elapsed * 1000),
        hashfull=hashfull,
        pv=legal_line(board, line),
        multipv=multipv,
        wdl=wdl(value, points),
        tbhits=tbhits,
    )


def merge_lines(fresh: list[Info], previous: list[Info]) -> list[Info]:
    """The lines to report: those finished at this depth, then the rest from the depth before.

    All lines finished: ``fresh`` alone, best first. A search stopped after
    some lines: those, then the previous iteration's other lines, so the last
    report of every line stays the freshest one.
    """
    seen = {x.pv[0] for x in fresh if x.pv}
    missing = max(0, len(previous) - len(fresh))
    older = [x for x in previous if x.pv and x.pv[0] not in seen][:missing]
    return fresh + [replace(x, multipv=len(fresh) + i + 1) for i, x in enumerate(older)]


def hash_reply(table: core.Table, board: Board, move: Move) -> Move | None:
    """The table's best reply after ``move``, if it is legal."""
    after = board.copy()
    after.push(move)
    key = np.uint64(after.zobrist_key())
    hit, move_code, _, _, _, _ = core.probe(table, key, 0)
    if hit and move_code:
        reply = after.move_of(int(move_code))
        if after.is_legal(reply):
            return reply
    return None


def finish(
    board: Board, table: core.Table, best_code: int, line: list[int], last: Info | None,
    lines: list[Info],
) -> Info:
    """The search's report: a legal best move, a legal ponder move if one is known, every
    line, and the rest from the best line's last report (``last``; none: no iteration
    finished)."""
    best = board.move_of(best_code)
    if not board.is_legal(best):
        best = board.legal_moves[0]
    pv = legal_line(board, line)
    ponder = pv[1] if len(pv) >= 2 and pv[0] == best else hash_reply(table, board, best)
    return replace(last or Info(), move=best, ponder=ponder, lines=list(lines))
