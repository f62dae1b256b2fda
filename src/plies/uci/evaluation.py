"""The ``eval`` command's text: the static evaluation and, where the core offers it, its terms."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from plies.board import Board
    from plies.engine import Engine


def _pawns(cp: float) -> str:
    """Centipawns as signed pawns, e.g. ``+0.25``."""
    return f"{cp / 100:+.2f}"


def evaluation_lines(engine: Engine, board: Board) -> list[str]:
    """Lines for ``eval``: the total (side to move and White's view), then the per-term table."""
    score = engine.evaluate(board)
    white = score if board.turn == 0 else -score
    lines = [
        f"Static evaluation: {_pawns(score)} (side to move), {_pawns(white)} (White's view)",
    ]
    terms = term_values(board)
    if terms:
        lines += ["", f"{'term':<14}{'White':>9}"]
        lines += [f"{name:<14}{_pawns(value):>9}" for name, value in terms]
        lines.append(f"{'total':<14}{_pawns(sum(v for _, v in terms)):>9}")
    return lines


def term_values(board: Board) -> list[tuple[str, int]]:
    """Each evaluation term in centipawns from White's view (empty if the core lacks them)."""
    try:
        import numpy as np

        from plies.core.evaluate import TERM_NAMES, evaluate_terms
        from plies.core.tables import SLIDER_ATTACKS
    except ImportError:
        return []
    bb, mb, st, _, _ = board.core_arrays()
    out = np.zeros(len(TERM_NAMES) + 8, dtype=np.int64)
    evaluate_terms(bb, mb, st, SLIDER_ATTACKS, out)
    return [(str(name), int(out[i])) for i, name in enumerate(TERM_NAMES)]
