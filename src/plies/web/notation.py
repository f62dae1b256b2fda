"""Engine reports as JSON for the pages: scores from White's side, lines in SAN."""

from __future__ import annotations

from typing import Any

from plies.board import WHITE, Board, Color
from plies.engine import Info


def white_score(info: Info, turn: Color) -> tuple[int | None, int | None]:
    """The score of ``info`` (centipawns, mate in moves) from White's point of view."""
    sign = 1 if turn == WHITE else -1
    cp = None if info.score_cp is None else sign * info.score_cp
    mate = None if info.score_mate is None else sign * info.score_mate
    return cp, mate


def score_text(cp: int | None, mate: int | None) -> str:
    """A score as people read it: ``+0.35``, ``-1.20``, ``#3`` or ``#-2``."""
    if mate is not None:
        return f"#{mate}"
    if cp is None:
        return "?"
    return f"{cp / 100:+.2f}"


def pv_san(board: Board, info: Info) -> str:
    """The principal variation of ``info`` in SAN from ``board`` (stops at a bad move)."""
    scratch = board.copy()
    words: list[str] = []
    for move in info.pv:
        if not scratch.is_legal(move):
            break
        words.append(scratch.san(move))
        scratch.push(move)
    return " ".join(words)


def info_json(board: Board, info: Info) -> dict[str, Any]:
    """One search iteration as JSON: depth, White's score, nodes, nodes/s and the line."""
    line = pv_san(board, info)
    cp, mate = white_score(info, board.turn)
    return {
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": score_text(cp, mate),
        "score_cp": cp,
        "score_mate": mate,
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": info.time_ms,
        "pv": line,
        "pv_uci": [m.uci() for m in info.pv],
    }
