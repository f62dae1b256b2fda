"""Which positions of a finished game become training lines (``plies.learn.lines``)."""

from __future__ import annotations

import chess

from plies.arena.referee import GameRecord
from plies.engine.score import MATE_SCORE, score_int
from plies.learn.lines import RESULT_TEXT, format_line

# Scores at or beyond this (centipawns) are mates found by the search.
_MATE_THRESHOLD = MATE_SCORE - 10_000


def keep_position(
    board: chess.Board, move: chess.Move, score_cp: int | None, ply: int, skip_plies: int
) -> bool:
    """Whether the position ``board`` (about to play ``move``) passes the quiet filters."""
    if ply < skip_plies or board.is_check():
        return False
    if board.is_capture(move) or move.promotion is not None:
        return False
    if board.move_stack:
        last = board.peek()
        if last.promotion is not None:
            return False
        board.pop()
        captured = board.is_capture(last)
        board.push(last)
        if captured:
            return False
    return score_cp is None or abs(score_cp) < _MATE_THRESHOLD


def position_lines(record: GameRecord, skip_plies: int, with_scores: bool) -> list[str]:
    """A finished game's lines (none unless it ended by the rules or adjudication)."""
    result = RESULT_TEXT.get(record.result)
    if result is None or record.termination not in ("normal", "adjudication"):
        return []
    board = record.opening.chess_board()
    lines: list[str] = []
    for played in record.moves:
        ply = len(board.move_stack)
        mover_cp = None if played.score is None else score_int(played.score.relative)
        if keep_position(board, played.move, mover_cp, ply, skip_plies):
            score = None
            if with_scores:
                if played.score is None:
                    board.push(played.move)
                    continue  # a line without its score would break the file's layout
                score = score_int(played.score.white())
            lines.append(format_line(board.fen(), result, score))
        board.push(played.move)
    return lines
