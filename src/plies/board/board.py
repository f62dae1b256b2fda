"""The ``Board`` users meet: the state plus move text (UCI, SAN), pictures and python-chess."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from plies.board.codes import core_to_move
from plies.board.errors import IllegalMoveError
from plies.board.move import Move
from plies.board.render import ascii_board, unicode_board
from plies.board.san import parse_san, san, variation_san
from plies.board.squares import KING, ROOK, PieceType, Square
from plies.board.state import BoardState

if TYPE_CHECKING:
    import chess

__all__ = ["Board", "core_to_move"]


class Board(BoardState):
    """A chess position and the moves that led to it (python-chess style API)."""

    # -- moves as text ----------------------------------------------------------

    def parse_uci(self, text: str) -> Move:
        """The legal move written in UCI notation; IllegalMoveError otherwise."""
        move = self._castling_alias(Move.from_uci(text.strip()))
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move: {text.strip()} in {self.fen()}")
        return move

    def _castling_alias(self, move: Move) -> Move:
        """``move`` in this board's castling notation when it is a king move from e1/e8 written
        the other way (``e1g1`` in Chess960, ``e1h1`` in standard chess), as python-chess
        reads them."""
        frm, to = move.from_square, move.to_square
        if move.promotion is not None or frm not in (4, 60) or self._kind_at(frm) != KING:
            return move
        rank = frm & 56
        rook_at = self._kind_at(to) == ROOK
        if self.chess960 and to in (rank + 6, rank + 2) and not rook_at:
            return Move(frm, rank + 7 if to == rank + 6 else rank)
        if not self.chess960 and to in (rank + 7, rank):
            return Move(frm, rank + 6 if to == rank + 7 else rank + 2)
        return move

    def _kind_at(self, sq: Square) -> PieceType:
        """Piece type on a square (0 if empty)."""
        piece = self.piece_at(sq)
        return 0 if piece is None else piece.piece_type

    def parse_san(self, text: str) -> Move:
        """The legal move written in SAN; IllegalMoveError if unknown or ambiguous."""
        return parse_san(self, text)

    def push_uci(self, text: str) -> Move:
        """Play a move given in UCI notation and return it."""
        return self._push_returned(self.parse_uci(text))

    def push_san(self, text: str) -> Move:
        """Play a move given in SAN and return it."""
        return self._push_returned(self.parse_san(text))

    def _push_returned(self, move: Move) -> Move:
        """Play a move just read from text and hand it back (python-chess's ``push_*``)."""
        self.push(move)
        return move

    def san(self, move: Move) -> str:
        """Standard algebraic notation of a legal move, with ``+`` or ``#``."""
        return san(self, move)

    def variation_san(self, moves: Iterable[Move]) -> str:
        """A line of moves in SAN with move numbers (``"1. e4 e5 2. Nf3"``)."""
        return variation_san(self, moves)

    # -- rendering and conversion ---------------------------------------------

    def __str__(self) -> str:
        """Unicode board, white at the bottom, files and ranks labelled."""
        return unicode_board(self)

    def ascii(self) -> str:
        """Plain-letter board (FEN letters, ``.`` for empty squares), labelled."""
        return ascii_board(self)

    def _repr_svg_(self) -> str:
        """The board as SVG, the last move marked: how Jupyter shows a board."""
        # Imported here, not at the top: it loads python-chess's piece drawings, which only
        # a notebook showing the board needs.
        from plies.board.svg import render_board

        last = self.peek() if self.move_stack else None
        return render_board(self, last_move=last, standalone=True)

    def __repr__(self) -> str:
        """``Board('<fen>')`` (``Board('<fen>', chess960=True)`` in Chess960)."""
        if self.chess960:
            return f"Board({self.fen()!r}, chess960=True)"
        return f"Board({self.fen()!r})"

    def __eq__(self, other: object) -> bool:
        """Boards are equal when their positions (FEN) and histories are equal."""
        if not isinstance(other, Board):
            return NotImplemented
        return self.fen() == other.fen() and self.move_stack == other.move_stack

    __hash__ = None  # type: ignore[assignment]

    def to_chess(self) -> chess.Board:
        """The equivalent python-chess board, move history included."""
        import chess  # only a caller who converts pays for loading python-chess

        board = chess.Board(self._root_fen, chess960=self.chess960)
        for move in self.move_stack:
            board.push(chess.Move.from_uci(move.uci()))
        return board

    @classmethod
    def from_chess(cls, board: chess.Board) -> Board:
        """A plies board from a python-chess board, move history included."""
        result = cls(board.root().fen(), chess960=board.chess960)
        for move in board.move_stack:
            result.push(Move.from_uci(move.uci()))
        return result
