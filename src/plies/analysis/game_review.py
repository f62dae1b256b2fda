"""Analyse one game: search every position of its main line and judge every move.

Position ``i`` is the one before move ``i`` (the last one follows the final
move).  Each is searched once; a move is then judged by comparing the score
of the position before it (the best play there) with the score after it,
both from the mover's side (see :mod:`plies.analysis.judgement`).  The
engine's own best move is never flagged: with a fixed budget the position
after it is searched from a different root, and a small disagreement between
the two searches is noise, not a mistake.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess
import chess.engine
import chess.pgn

from plies.analysis.judgement import Judgement, capped_cp, judge, winning_chances
from plies.board import Board, Move
from plies.engine import Engine, Limit

PositionCallback = Callable[[], None]


@dataclass(frozen=True)
class PositionEval:
    """The engine's verdict on one position."""

    score: chess.engine.PovScore
    """The score (None-free: a finished game gets its exact result)."""
    best_line: tuple[chess.Move, ...] = ()
    """The principal variation, best move first (empty when the game is over)."""
    depth: int = 0
    """Depth of the last finished iteration (0: not searched)."""
    seconds: float = 0.0
    """Time spent searching this position."""


@dataclass(frozen=True)
class MoveReport:
    """One move of the game, judged."""

    ply: int
    """Index of the move in the main line (0 = the first move of the game)."""
    move: chess.Move
    """The move played."""
    san: str
    """The move played, in SAN."""
    color: chess.Color
    """The side that played it."""
    before: PositionEval
    """The position before the move: its score is what best play keeps."""
    after: PositionEval
    """The position after the move."""
    cp_loss: int
    """Centipawns the move gave away (capped scores, never negative)."""
    chances_drop: float
    """Drop in the mover's winning chances (negative if the move did better than expected)."""
    judgement: Judgement | None
    """Inaccuracy, mistake, blunder, or None."""

    @property
    def best_move(self) -> chess.Move | None:
        """The engine's choice in the position before the move."""
        return self.before.best_line[0] if self.before.best_line else None


@dataclass
class GameAnalysis:
    """A whole game, move by move."""

    game: chess.pgn.Game
    """The game as read (annotated in place by :mod:`plies.analysis.annotate`)."""
    number: int
    """1-based position of the game in its file."""
    moves: list[MoveReport] = field(default_factory=list)
    """One report per main-line move, in order."""
    seconds: float = 0.0
    """Total search time."""

    def positions(self) -> list[PositionEval]:
        """Every position's evaluation: the start, then after each move."""
        if not self.moves:
            return []
        return [self.moves[0].before, *(m.after for m in self.moves)]

    @property
    def white(self) -> str:
        """White's name from the headers."""
        return self.game.headers.get("White", "?")

    @property
    def black(self) -> str:
        """Black's name from the headers."""
        return self.game.headers.get("Black", "?")


def _terminal_score(board: chess.Board) -> chess.engine.PovScore | None:
    """The exact score of a finished position (mated or drawn), or None if play goes on."""
    if board.is_checkmate():
        return chess.engine.PovScore(chess.engine.Mate(0), board.turn)
    if board.is_stalemate() or board.is_insufficient_material():
        return chess.engine.PovScore(chess.engine.Cp(0), board.turn)
    return None


def evaluate_position(engine: Engine, board: Board, chess_board: chess.Board,
                      limit: Limit) -> PositionEval:
    """Search one position (``board`` and ``chess_board`` are the same, history included)."""
    exact = _terminal_score(chess_board)
    if exact is not None:
        return PositionEval(exact)
    start = time.perf_counter()
    result = engine.search(board, limit)
    seconds = time.perf_counter() - start
    score = result.score
    if score is None:  # no iteration finished: fall back on the static evaluation
        score = chess.engine.PovScore(chess.engine.Cp(engine.evaluate(board)), chess_board.turn)
    line = _legal_prefix(chess_board, result.pv)
    if not line and result.move is not None:
        line = _legal_prefix(chess_board, [result.move])
    return PositionEval(score, line, result.depth, seconds)


def _legal_prefix(board: chess.Board, pv: list[Move]) -> tuple[chess.Move, ...]:
    """The moves of ``pv`` as python-chess moves, up to the first one that is not legal."""
    probe = board.copy(stack=False)
    line: list[chess.Move] = []
    for move in pv:
        cm = chess.Move.from_uci(move.uci())
        if not probe.is_legal(cm):
            break
        line.append(cm)
        probe.push(cm)
    return tuple(line)


def judge_move(ply: int, board: chess.Board, move: chess.Move,
               before: PositionEval, after: PositionEval) -> MoveReport:
    """Judge ``move`` played in ``board`` from the evaluations around it."""
    mover = board.turn
    was = before.score.pov(mover)
    now = after.score.pov(mover)
    cp_loss = max(0, capped_cp(was) - capped_cp(now))
    drop = winning_chances(was) - winning_chances(now)
    judgement = judge(drop)
    if before.best_line and before.best_line[0] == move:
        cp_loss, judgement = 0, None
    return MoveReport(ply, move, board.san(move), mover, before, after, cp_loss, drop, judgement)


def analyse_game(
    game: chess.pgn.Game,
    engine: Engine,
    limit: Limit,
    number: int = 1,
    on_position: PositionCallback | None = None,
) -> GameAnalysis:
    """Search every position of ``game``'s main line and judge every move."""
    chess_board = game.board()
    board = Board.from_chess(chess_board)
    moves = list(game.mainline_moves())
    engine.new_game()
    analysis = GameAnalysis(game, number)
    evals = [evaluate_position(engine, board, chess_board, limit)]
    if on_position is not None:
        on_position()
    for ply, move in enumerate(moves):
        before_board = chess_board.copy(stack=False)
        chess_board.push(move)
        board.push(Move.from_uci(move.uci()))
        evals.append(evaluate_position(engine, board, chess_board, limit))
        if on_position is not None:
            on_position()
        analysis.moves.append(judge_move(ply, before_board, move, evals[-2], evals[-1]))
    analysis.seconds = sum(e.seconds for e in evals)
    return analysis


def positions_in(game: chess.pgn.Game) -> int:
    """How many positions :func:`analyse_game` searches (moves + 1), for progress bars."""
    return sum(1 for _ in game.mainline_moves()) + 1
