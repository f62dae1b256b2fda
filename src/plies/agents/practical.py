"""Chess as the practical's ladder plays it: :class:`ChessGame` with the practical's evaluation.

The minimax and alpha-beta agents of :mod:`plies.agents` are the generic searches of
:mod:`plies.games` run on this game. What it adds to plain chess:

* the evaluation of :mod:`plies.agents.evaluation` (material, piece squares, castling),
  kept up to date move by move in each state;
* a checkmate worth ``MATE - ply`` to the winner (sooner is better), so the search plays
  the quickest mate and delays being mated;
* the draws the ladder knows: stalemate, the fifty-move rule, insufficient material, and
  a position already seen in the game or on the way down (a repetition).

Scores are centipawns divided by :data:`SCALE`, inside (-1, 1) as the protocol asks, so
a generic search compares them exactly as integers would compare; :func:`centipawns`
turns a value back. The root (``ply`` 0) is searched even at a fifty-move or dead
position: the agent owes a move whenever one is legal.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from plies.agents.evaluation import PIECE_VALUES, EvalState
from plies.games.chessgame import ChessGame
from plies.games.protocol import BaseGame

if TYPE_CHECKING:
    from plies.board import Board, Move

#: A checkmate found ``ply`` plies from the root is worth ``MATE - ply`` centipawns.
MATE = 100_000
#: Values are centipawns divided by this: every score lies inside (-1, 1).
SCALE = 1_000_000


class PracticalState(NamedTuple):
    """A position with what the ladder's search knows about it."""

    board: Board
    #: The evaluation terms of ``board``.
    evaluation: EvalState
    #: Plies from the root of the search.
    ply: int
    #: Zobrist keys of the positions below the root on the way here, this one included.
    path: tuple[int, ...]
    #: Whether this position already occurred (in the game, or on the way here): a draw.
    repeated: bool = False


def centipawns(value: float) -> int:
    """Return a searched value as the integer centipawn score it stands for."""
    return round(value * SCALE)


def capture_order_key(board: Board, move: Move) -> int:
    """Sort key (lower first): captures of big pieces by small ones, promotions, then the rest."""
    key = 0
    victim = board.piece_at(move.to_square)
    if victim is not None:
        attacker = board.piece_at(move.from_square)
        key -= 10 * PIECE_VALUES[victim.piece_type] - (
            PIECE_VALUES[attacker.piece_type] // 10 if attacker else 0
        )
    if move.promotion:
        key -= PIECE_VALUES[move.promotion]
    return key


def ordered_moves(board: Board, moves: Sequence[Move]) -> list[Move]:
    """``moves`` sorted by :func:`capture_order_key` (stable, so ties keep their order)."""
    return sorted(moves, key=lambda m: capture_order_key(board, m))


class PracticalChess(BaseGame[PracticalState, "Move"]):
    """The ladder's chess, searched from one root: :class:`ChessGame`'s rules (see the module)."""

    def __init__(
        self,
        history: frozenset[int] = frozenset(),
        seed: int | None = None,
        captures_first: bool = True,
    ) -> None:
        """Search with ``history`` (keys of the game's earlier positions) counting as repeats.

        ``seed`` shuffles the root's moves (before captures are put first); with
        ``captures_first`` every node below the root tries captures first too.
        """
        self.chess = ChessGame()
        self.history = history
        self.seed = seed
        self.captures_below_root = captures_first

    def root(self, board: Board, castled: tuple[bool, bool] = (False, False)) -> PracticalState:
        """Return the state to search from: ``board`` (not copied; not changed by a search)."""
        return PracticalState(board, EvalState.from_board(board, castled), 0, ())

    def initial_state(self) -> PracticalState:
        """Return the usual starting position as a root."""
        from plies.board import Board

        return self.root(Board())

    def to_move(self, state: PracticalState) -> int:
        """Return the side to move: 0 White, 1 Black."""
        return 0 if state.board.turn else 1

    def actions(self, state: PracticalState) -> Sequence[Move]:
        """Return the legal moves, or nothing once the game is over."""
        if self.is_terminal(state):
            return []
        return list(state.board.legal_moves)

    def result(self, state: PracticalState, action: Move) -> PracticalState:
        """Play ``action`` on a copy; note whether the new position is a repetition."""
        board = state.board
        evaluation = state.evaluation.after(board, action)
        after = board.copy()
        after.push(action)
        key = after.zobrist_key()
        if key in self.history or key in state.path:
            return PracticalState(after, evaluation, state.ply + 1, state.path, True)
        return PracticalState(after, evaluation, state.ply + 1, (*state.path, key))

    def is_terminal(self, state: PracticalState) -> bool:
        """Mate, stalemate, repetition; below the root also fifty moves and dead material."""
        if state.repeated:
            return True
        board = state.board
        if not board.legal_moves:
            return True
        if state.ply == 0:
            return False
        return board.halfmove_clock >= 100 or board.is_insufficient_material()

    def utility(self, state: PracticalState, player: int) -> float:
        """A checkmate is worth ``MATE - ply`` to the winner; every other end is a draw."""
        board = state.board
        if state.repeated or board.legal_moves or not board.is_check():
            return 0.0
        mated = (state.ply - MATE) / SCALE  # for the side to move, who is mated
        return mated if player == self.to_move(state) else -mated

    def evaluate(self, state: PracticalState, player: int) -> float:
        """The practical's evaluation for ``player``."""
        return state.evaluation.score(player == 0) / SCALE  # player 0 is White

    def key(self, state: PracticalState) -> Hashable:
        """Return the Zobrist key of the position."""
        return state.board.zobrist_key()

    def order(self, state: PracticalState, actions: Sequence[Move]) -> Sequence[Move]:
        """The ladder's move order: at the root a seeded shuffle then captures first, below
        it captures first (or the legal order)."""
        board = state.board
        if state.ply == 0:
            moves = list(actions)
            if self.seed is not None:
                random.Random(self.seed * 1_000_003 + board.zobrist_key()).shuffle(moves)
            return ordered_moves(board, moves)
        if self.captures_below_root:
            return ordered_moves(board, actions)
        return actions

    def render(self, state: PracticalState) -> str:
        """Return the board's picture."""
        return state.board.pretty()

    def action_text(self, action: Move) -> str:
        """Return the move in UCI notation."""
        return self.chess.action_text(action)

    def parse_action(self, state: PracticalState, text: str) -> Move:
        """Read a move in SAN or UCI."""
        return self.chess.parse_action(state.board, text)
