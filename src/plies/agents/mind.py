"""The "mind" protocol: a FEN in, one action ``"from,to"`` out, answered by any player.

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
  If the player prefers an under-promotion (say ``e7e8n``), the action is still just
  the two squares (``"52,60"``) and the game continues with ``e7e8q``:
  :func:`action_move` is exactly what a receiver plays for an action.

Castling is the king's move (e1g1 is ``"4,6"``), en passant the pawn's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import chess

    from plies.agents.player import Player
    from plies.board import Board, Move
    from plies.engine.limits import Limit

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


def action_move(board: Board | chess.Board, text: str) -> Move | None:
    """Return the move a receiver plays for action ``text`` in ``board``; None for a forfeit.

    ``board`` is a :class:`plies.board.Board` or a python-chess ``chess.Board`` (the same
    API).  A pawn reaching the last rank promotes to a queen, since the action names no
    piece; castling is the king's two-square move, whichever way the board writes it.
    Raises ``ValueError`` if the action is malformed or names no legal move.
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
        if board.is_castling(move):  # a Chess960 board writes castling as king-takes-rook
            file = 6 if board.is_kingside_castling(move) else 2
            if to == chess.square(file, chess.square_rank(frm)):
                return move
    raise ValueError(f"action {text.strip()} is not a legal move in {board.fen()}")


@dataclass(frozen=True)
class Answer:
    """A mind's answer to one FEN: the action, the move behind it and why it forfeited."""

    action: str
    #: The move the player chose (its promotion piece included), None for a forfeit.
    move: Move | None = None
    #: Why the answer is ``"0,0"`` (None after a real move).
    error: str | None = None


def mind_answer(player: Player, fen: str, limit: Limit | None = None) -> Answer:
    """Answer one FEN with ``player`` (see the module): its move as an action, or ``"0,0"``
    for an unreadable FEN, a position without moves, a fault or a resignation."""
    from plies.agents.player import PlayerError
    from plies.board import Board, InvalidFenError
    from plies.engine.limits import Limit

    text = fen.strip()
    if not text:
        return Answer(FORFEIT, error="empty line")
    try:
        board = Board(text)
        board.check_playable()
    except InvalidFenError as exc:
        return Answer(FORFEIT, error=f"bad FEN: {exc}")
    legal = list(board.legal_moves)  # this position's, whatever the player does to board
    if not legal:
        reason = "checkmate" if board.is_check() else "stalemate"
        return Answer(FORFEIT, error=f"no legal move ({reason})")
    try:
        info = player.play(board, limit or Limit())
    except PlayerError as exc:
        return Answer(FORFEIT, error=f"{exc.kind}: {exc.detail}")
    move = info.move
    if info.resigned or not move:
        return Answer(FORFEIT, error="resigned")
    if move not in legal:
        # A ladder player never does this; a plugged-in function might.
        return Answer(FORFEIT, error=f"the player answered {move.uci()}, which is not legal")
    return Answer(move_action(move), move)


def mind_action(player: Player, fen: str, limit: Limit | None = None) -> str:
    """Answer one FEN with ``player``: the action ``"from,to"``, or ``"0,0"`` (see the module)."""
    return mind_answer(player, fen, limit).action
