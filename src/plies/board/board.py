"""The ``Board`` users meet: python-chess's ``Board``, its per-node work compiled."""

from __future__ import annotations

from collections.abc import Iterable

import chess
from chess import KING, ROOK, SQUARE_NAMES, Move

from plies.board.codes import core_to_move
from plies.board.compat import PythonChessSurface
from plies.board.errors import IllegalMoveError
from plies.board.render import ascii_board, unicode_board
from plies.board.san import parse_san, san, variation_san

__all__ = ["Board", "core_to_move"]


class Board(PythonChessSurface):
    """A chess position and the moves that led to it, with python-chess's ``Board`` API.

    ``WHITE`` is True, moves and pieces are python-chess's own ``Move`` and ``Piece``, and a
    program written for ``chess.Board`` runs on it unchanged (``docs/chess-core.md`` lists
    where it differs): pushes, pops, legal moves, check and the game's end are each one
    compiled step.
    """

    # -- moves as text ----------------------------------------------------------

    def parse_uci(self, text: str) -> Move:
        """The legal move written in UCI notation (``"0000"``: the null move);
        InvalidMoveError if it is not UCI, IllegalMoveError if it is not legal here."""
        move = Move.from_uci(text.strip())
        if not move:
            return move
        move = self._castling_alias(move)
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal uci: {text.strip()!r} in {self.fen()}"
                                   f"{self._why_illegal(move)}")  # fmt: skip
        return move

    def _castling_alias(self, move: Move) -> Move:
        """``move`` in this board's castling notation when it is a king move from e1/e8 written
        the other way (``e1g1`` in Chess960, ``e1h1`` in standard chess), as python-chess
        reads them."""
        frm, to = move.from_square, move.to_square
        if move.promotion is not None or frm not in (4, 60) or self.piece_type_at(frm) != KING:
            return move
        rank = frm & 56
        rook_at = self.piece_type_at(to) == ROOK
        if self.chess960 and to in (rank + 6, rank + 2) and not rook_at:
            return Move(frm, rank + 7 if to == rank + 6 else rank)
        if not self.chess960 and to in (rank + 7, rank):
            return Move(frm, rank + 6 if to == rank + 7 else rank + 2)
        return move

    def _why_illegal(self, move: Move) -> str:
        """``": reason"`` for an error message (see ``why_illegal``)."""
        reason = self.why_illegal(move)
        return f": {reason}" if reason else ""

    def why_illegal(self, move: Move) -> str:
        """Which rule ``move`` breaks here, in a few words ("no piece on e2", "it would leave
        the king in check"); ``""`` when it is legal."""
        if self.is_legal(move):
            return ""
        frm, to = move.from_square, move.to_square
        piece = self.piece_at(frm)
        if piece is None:
            return f"no piece on {SQUARE_NAMES[frm]}"
        if piece.color != self.turn:
            side = "White" if self.turn else "Black"
            return f"the piece on {SQUARE_NAMES[frm]} is not {side}'s, and {side} is to move"
        if self.color_at(to) == self.turn and not self.is_castling(move):
            return f"{SQUARE_NAMES[to]} holds a piece of the same colour"
        view = self._python_chess_view(stack=False)
        if view.is_pseudo_legal(move):
            if self.is_check():
                return "it does not get the king out of check"
            return "it would leave the king in check"
        if self.is_castling(move):
            return "castling is not possible here (rights, pieces between, or check)"
        name = chess.piece_name(piece.piece_type)
        return f"a {name} cannot move from {SQUARE_NAMES[frm]} to {SQUARE_NAMES[to]}"

    def parse_san(self, text: str) -> Move:
        """The legal move written in SAN (``"--"``: the null move); InvalidMoveError,
        IllegalMoveError or AmbiguousMoveError (all ValueErrors) otherwise."""
        if self._pc is not None:
            return self._pc.parse_san(text)
        return parse_san(self, text)

    def push_uci(self, text: str) -> Move:
        """Play a move given in UCI notation and return it."""
        move = self.parse_uci(text)
        self.push(move)
        return move

    def push_san(self, text: str) -> Move:
        """Play a move given in SAN and return it."""
        move = self.parse_san(text)
        self.push(move)
        return move

    def san(self, move: Move) -> str:
        """Standard algebraic notation of a legal move, with ``+`` or ``#`` (``--`` for the
        null move)."""
        if self._pc is not None:
            return self._pc.san(move)
        return san(self, move)

    def uci(self, move: Move, *, chess960: bool | None = None) -> str:
        """UCI notation of ``move``, castling written as this board (or ``chess960``) plays."""
        return self._python_chess_view(stack=False).uci(move, chess960=chess960)

    def variation_san(self, moves: Iterable[Move]) -> str:
        """A line of moves in SAN with move numbers (``"1. e4 e5 2. Nf3"``)."""
        if self._pc is not None:
            return self._pc.variation_san(moves)
        return variation_san(self, moves)

    # -- rendering and comparison ---------------------------------------------

    def __str__(self) -> str:
        """The board as python-chess prints it: FEN letters and dots, White at the bottom."""
        return str(self._python_chess_view(stack=False))

    def unicode(self, *, invert_color: bool = False, borders: bool = False,
                empty_square: str = "⭘", orientation: bool = chess.WHITE) -> str:  # fmt: skip
        """The board in Unicode figures, as python-chess's ``unicode()``."""
        return self._python_chess_view(stack=False).unicode(
            invert_color=invert_color, borders=borders, empty_square=empty_square,
            orientation=orientation)  # fmt: skip

    def pretty(self) -> str:
        """Unicode board, White at the bottom, files and ranks labelled (for terminals)."""
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
        """Boards are equal when their positions are (placement, side, castling rights, a
        legal en-passant square, clocks), as python-chess compares them; histories aside."""
        if not isinstance(other, (Board, chess.Board)):
            return NotImplemented
        return self.fen() == other.fen() and self.promoted == other.promoted

    __hash__ = None  # type: ignore[assignment]
