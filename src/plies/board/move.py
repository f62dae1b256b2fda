"""Small frozen values: ``Piece`` and ``Move``."""

from __future__ import annotations

from dataclasses import dataclass

from plies.board.errors import IllegalMoveError
from plies.board.squares import (
    BLACK,
    PIECE_SYMBOLS,
    SQUARE_NAMES,
    WHITE,
    Color,
    PieceType,
    Square,
)

_UNICODE = {
    "P": "♙", "N": "♘", "B": "♗", "R": "♖", "Q": "♕", "K": "♔",
    "p": "♟", "n": "♞", "b": "♝", "r": "♜", "q": "♛", "k": "♚",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece: its type (``PAWN`` .. ``KING``) and colour."""

    piece_type: PieceType
    """``PAWN`` (1) to ``KING`` (6)."""
    color: Color
    """``WHITE`` (0) or ``BLACK`` (1)."""

    def symbol(self) -> str:
        """FEN letter: upper case for white, lower case for black."""
        s = PIECE_SYMBOLS[self.piece_type]
        return s.upper() if self.color == WHITE else s

    def unicode_symbol(self) -> str:
        """Unicode chess figure of the piece."""
        return _UNICODE[self.symbol()]

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """Piece from a FEN letter such as ``"N"`` or ``"q"``."""
        kind = PIECE_SYMBOLS.index(symbol.lower()) if symbol.lower() in "pnbrqk" else -1
        if kind <= 0 or len(symbol) != 1:
            raise ValueError(f"not a piece symbol: {symbol!r}")
        return cls(kind, WHITE if symbol.isupper() else BLACK)

    def __str__(self) -> str:
        """The FEN letter."""
        return self.symbol()


@dataclass(frozen=True, slots=True)
class Move:
    """A move from one square to another, with an optional promotion piece type."""

    from_square: Square
    """Square the piece leaves."""
    to_square: Square
    """Square the piece arrives on (for castling: the king's destination)."""
    promotion: PieceType | None = None
    """Piece type a pawn promotes to, or None."""

    def uci(self) -> str:
        """UCI notation, e.g. ``"e2e4"``, ``"e7e8q"``; ``"0000"`` for the null move."""
        if not self:
            return "0000"
        text = SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]
        if self.promotion:
            text += PIECE_SYMBOLS[self.promotion]
        return text

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse UCI notation; IllegalMoveError if it is not well formed."""
        if text == "0000":
            return cls.null()
        if len(text) not in (4, 5):
            raise IllegalMoveError(f"invalid uci move: {text!r}")
        try:
            frm = SQUARE_NAMES.index(text[0:2])
            to = SQUARE_NAMES.index(text[2:4])
        except ValueError:
            raise IllegalMoveError(f"invalid uci move: {text!r}") from None
        promotion = None
        if len(text) == 5:
            if text[4] not in "nbrq":
                raise IllegalMoveError(f"invalid promotion piece in uci move: {text!r}")
            promotion = PIECE_SYMBOLS.index(text[4])
        if frm == to:
            raise IllegalMoveError(f"invalid uci move (from equals to): {text!r}")
        return cls(frm, to, promotion)

    @classmethod
    def null(cls) -> Move:
        """The null move (``"0000"``), which is falsy."""
        return cls(0, 0)

    def __bool__(self) -> bool:
        """False only for the null move."""
        return self.from_square != self.to_square or self.promotion is not None

    def __str__(self) -> str:
        """UCI notation."""
        return self.uci()

