"""The "mind" protocol: a FEN in, one action ``"from,to"`` out, for any agent of the ladder.

The course practical plies grew from defines a chess *mind* as a function from a
position (a FEN) to an action written ``"from,to"``, with squares numbered 0 to 63
(a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63), the same numbering as
:mod:`plies.board`.  Two rules complete it:

- **Forfeit.** ``"0,0"`` (a1 to a1, never a real move) gives the game up.  A mind
  answers it when the FEN cannot be read, and when the position has no legal move
  (checkmate or stalemate: the game is already over, there is nothing to play).
  Whenever a legal move exists, a legal move is answered: the mind does not claim
  draws (fifty moves, repetition) on its own.
- **Promotion.** The action names no piece, so the receiver must assume a **queen**.
  If the agent prefers an under-promotion (say ``e7e8n``), the action is still just
  the two squares (``"52,60"``) and the game continues with ``e7e8q``:
  :func:`action_move` is exactly what a receiver plays for an action.

Castling is the king's move (e1g1 is ``"4,6"``), en passant the pawn's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from plies.agents.base import Agent, Budget

if TYPE_CHECKING:
    from collections.abc import Callable

    import chess

    from plies.board import Board, Move

#: The action that gives the game up (also the answer to an unreadable FEN).
FORFEIT = "0,0"

# The highest square number (h8).
_LAST_SQUARE = 63


def move_action(move: Move) -> str:
    """Write ``move`` as the action ``"from,to"`` (any promotion piece is dropped)."""
    if not move:
        return FORFEIT
    return f"{move.from_square},{move.to_square}"


def parse_action(text: str) -> tuple[int, int]:
    """Read ``"from,to"`` into two square numbers; ``ValueError`` with a reason if malformed."""
    parts = text.strip().split(",")
    if len(parts) != 2 or not all(p.strip().isdecimal() for p in parts):
        raise ValueError(f"not an action: {text!r} (expected from,to with squares 0-63)")
    frm, to = (int(p) for p in parts)
    if frm > _LAST_SQUARE or to > _LAST_SQUARE:
        raise ValueError(f"not an action: {text!r} (squares are numbered 0-63)")
    return frm, to


def action_move(board: Board, text: str) -> Move | None:
    """Return the move a receiver plays for action ``text`` in ``board``; None for a forfeit.

    A pawn reaching the last rank promotes to a queen, since the action names no piece.
    Raises ``ValueError`` if the action is malformed or names no legal move.
    """
    from plies.board import QUEEN

    frm, to = parse_action(text)
    if (frm, to) == (0, 0):
        return None
    for move in board.legal_moves:
        if (move.from_square, move.to_square) == (frm, to) and move.promotion in (None, QUEEN):
            return move
    raise ValueError(f"action {text} is not a legal move in {board.fen()}")


def action_chess_move(board: chess.Board, text: str) -> chess.Move | None:
    """The move action ``text`` plays on a python-chess ``board``; None for ``0,0`` (resign).

    As :func:`action_move`: a promotion is a queen's, castling is the king's two-square
    move.  Raises ``ValueError`` if the action is malformed or names no legal move.
    """
    import chess

    frm, to = parse_action(text)
    if (frm, to) == (0, 0):
        return None
    for move in board.legal_moves:
        if move.from_square != frm or move.promotion not in (None, chess.QUEEN):
            continue
        if move.to_square == to:
            return move
        if board.is_castling(move):  # python-chess may write castling as king-takes-rook
            rank = chess.square_rank(frm)
            file = 6 if board.is_kingside_castling(move) else 2
            if to == chess.square(file, rank):
                return move
    raise ValueError(f"action {text.strip()} is not a legal move in {board.fen()}")


@dataclass
class Mind:
    """An agent answering FENs with actions: ``Mind(agent)(fen) -> "from,to"``.

    ``budget`` is the thinking allowed per position (None: the agent's own default).
    The agent keeps what it learnt between calls (the engine its hash table), but
    every FEN is treated as a fresh position.  ``last_error`` says why the last
    answer was a forfeit (None after a real move).
    """

    agent: Agent
    budget: Budget | None = None
    last_error: str | None = field(default=None, init=False)
    #: Called with the move the agent chose (promotion piece included), for logs.
    on_move: Callable[[Move], None] | None = field(default=None, repr=False)

    def __call__(self, fen: str) -> str:
        """Return the action for ``fen``, or ``"0,0"`` when it cannot be read or has no move."""
        from plies.board import Board, InvalidFenError

        self.last_error = None
        text = fen.strip()
        if not text:
            return self._forfeit("empty line")
        try:
            board = Board(text)
            board.check_playable()
        except InvalidFenError as exc:
            return self._forfeit(f"bad FEN: {exc}")
        legal = list(board.legal_moves)  # this position's, whatever the agent does to board
        if not legal:
            reason = "checkmate" if board.is_check() else "stalemate"
            return self._forfeit(f"no legal move ({reason})")
        move = self.agent.choose(board, self.budget)
        if move not in legal:
            # A ladder agent never does this; a plugged-in function might.
            return self._forfeit(f"the agent answered {move.uci()}, which is not legal")
        if self.on_move is not None:
            self.on_move(move)
        return move_action(move)

    def _forfeit(self, reason: str) -> str:
        """Remember ``reason`` and return the forfeit action."""
        self.last_error = reason
        return FORFEIT


def mind_action(agent: Agent, fen: str, budget: Budget | None = None) -> str:
    """Answer one FEN with ``agent``: the action ``"from,to"``, or ``"0,0"`` (see the module)."""
    return Mind(agent, budget)(fen)
