"""Write an analysis into its PGN game: ``[%eval]`` comments, NAGs and the better line.

The evaluation after each move goes into the move's comment in the
``[%eval 0.17]`` / ``[%eval #-3]`` convention that lichess and chess GUIs
read (White's point of view, pawns); a finished game's last position gets
none, as on lichess.  Each inaccuracy, mistake or blunder gets its NAG
(``?!``, ``?``, ``??``), a comment like lichess's ("Mistake. Nf3 was best.")
and the engine's line from the position before it as a variation.
"""

from __future__ import annotations

import chess
import chess.pgn

from plies.analysis.game_review import GameAnalysis, MoveReport

ANNOTATOR = "plies"
"""The ``Annotator`` header written into analysed games."""


def annotate(analysis: GameAnalysis, engine_name: str = ANNOTATOR) -> chess.pgn.Game:
    """Annotate ``analysis.game`` in place (and return it)."""
    game = analysis.game
    game.headers["Annotator"] = engine_name
    node: chess.pgn.GameNode = game
    for report in analysis.moves:
        child = node.next()
        assert child is not None and child.move == report.move, "analysis and game differ"
        _annotate_move(node, child, report)
        node = child
    return game


def _annotate_move(parent: chess.pgn.GameNode, child: chess.pgn.GameNode,
                   report: MoveReport) -> None:
    """Eval comment on ``child``; NAG, comment and variation when the move is flagged."""
    child.set_eval(report.after.score)
    judgement = report.judgement
    if judgement is None:
        return
    child.nags.add(judgement.nag)
    best = report.best_move
    note = f"{judgement.label}."
    if best is not None:
        board = parent.board()
        note += f" {board.san(best)} was best."
        variation = parent.add_variation(best)
        variation.add_line(list(report.before.best_line[1:]))
    child.comment = f"{note} {child.comment}".strip()
