"""The ``eval`` command's text: the static evaluation and its terms."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from plies.board import Board
    from plies.core import Net
    from plies.engine import Engine


def _pawns(cp: float) -> str:
    """Centipawns as signed pawns, e.g. ``+0.25``."""
    return f"{cp / 100:+.2f}"


def evaluation_lines(engine: Engine, board: Board) -> list[str]:
    """Lines for ``eval``: the total (side to move and White's view), then the per-term table.

    With a net in use the total is the net's (a residual net's: the classical
    evaluation plus the net's correction, both shown), and the table (the classical
    evaluation's terms) is labelled as such.
    """
    score = engine.evaluate(board)
    white = score if board.turn else -score  # board.turn is True for White
    lines = [
        f"Static evaluation: {_pawns(score)} (side to move), {_pawns(white)} (White's view)",
    ]
    net = engine.net
    if net is not None:
        lines.append(f"Evaluated by: {net.describe()}")
        if net.residual:
            classical, correction = residual_parts(board, net)
            lines.append(
                f"Residual: classical {_pawns(classical)} + net {_pawns(correction)} "
                "(side to move)"
            )
    terms = term_values(board)
    if terms:
        title = "classical" if net is not None else "term"
        lines += ["", f"{title:<14}{'White':>9}"]
        lines += [f"{name:<14}{_pawns(value):>9}" for name, value in terms]
        lines.append(f"{'total':<14}{_pawns(sum(v for _, v in terms)):>9}")
    return lines


def residual_parts(board: Board, net: Net) -> tuple[int, int]:
    """A residual net's two summands: the classical evaluation and the net's output
    (centipawns, side to move)."""
    import plies.core as core

    pos = board.core_position()  # a copy: the net attached below stays off the board
    classical = int(core.evaluate_position(pos))
    core.attach_net(pos, net)
    return classical, core.net_output(pos)


def term_values(board: Board) -> list[tuple[str, int]]:
    """Each evaluation term in centipawns from White's view."""
    import plies.core as core

    return core.evaluation_terms(board.core_position())
