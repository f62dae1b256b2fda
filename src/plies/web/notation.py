"""Engine reports as JSON for the pages: scores from White's side, lines in SAN."""

from __future__ import annotations

from typing import Any

from plies.board import Board
from plies.engine import Info
from plies.engine.score import PovScore, score_text


def score_fields(score: PovScore | None) -> dict[str, Any]:
    """A score for the pages, from White's side: ``score`` as people read it (``+0.35``,
    ``#3``, ``#-2``; ``?`` for none), ``score_cp`` or ``score_mate`` (in moves)."""
    if score is None:
        return {"score": "?", "score_cp": None, "score_mate": None}
    white = score.white()
    mate = white.mate()
    return {
        "score": score_text(white),
        "score_cp": white.score() if mate is None else None,
        "score_mate": mate,
    }


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
    return {
        "depth": info.depth,
        "seldepth": info.seldepth,
        **score_fields(info.score),
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": info.time_ms,
        "pv": line,
        "pv_uci": [m.uci() for m in info.pv],
    }
