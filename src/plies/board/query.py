"""``PositionQueries``: what stands where and what attacks what, as python-chess asks it.

The piece bitboards are read from the compiled position once per position; attacks use
python-chess's precomputed attack tables over them, so every answer (a ``SquareSet``, a
mask, a ``Piece``) is python-chess's own value.
"""

from __future__ import annotations

import chess
from chess import KING, PAWN, ROOK, Bitboard, Color, Move, Piece, PieceType, Square, SquareSet

from plies.board.codes import CODE_OF_ID, PIECE_CODE
from plies.board.state import BoardState
from plies.core.encoding import (
    CAPTURE_BIT,
    CASTLE_BK,
    CASTLE_BQ,
    CASTLE_WK,
    CASTLE_WQ,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    FLAG_SHIFT,
    NO_PIECE,
)

_CODE_OF = CODE_OF_ID.get
_RIGHT_BITS = (CASTLE_WK, CASTLE_WQ, CASTLE_BK, CASTLE_BQ)
# One Piece value per core piece code: the board hands these out, as values (python-chess's
# Piece is a plain dataclass: treat it as read-only, as one treats python-chess's constants).
_PIECES: tuple[Piece | None, ...] = tuple(
    Piece(code & 7, code < 8) if code & 7 and code & 7 <= KING else None for code in range(16)
)
# The move flags of captures: the capture bit set, castling (which a Chess960 king may write
# as taking its own rook) excepted.
_CASTLING_FLAGS = (FLAG_KING_CASTLE, FLAG_QUEEN_CASTLE)
_CAPTURE_FLAGS = frozenset(flag for flag in range(16)
                           if flag << FLAG_SHIFT & CAPTURE_BIT
                           and flag & 0b1011 not in _CASTLING_FLAGS)  # fmt: skip


class PositionQueries(BoardState):
    """Pieces, bitboards, attacks, pins and move properties of the current position."""

    __slots__ = ()

    def _bitboards(self) -> list[int]:
        """The core's 16 piece bitboards (slot 0: white's occupancy, 8: black's) as ints."""
        k = self._known()
        bbs = k.bbs
        if bbs is None:
            bbs = k.bbs = self._live()[0].tolist()
        return bbs

    def _kind_mask(self, kind: PieceType) -> Bitboard:
        """Both colours' pieces of type ``kind``."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.pieces_mask(kind, chess.WHITE) | self._pc.pieces_mask(kind, False)
        bbs = self._bitboards()
        return bbs[kind] | bbs[8 | kind]

    @property
    def pawns(self) -> Bitboard:
        """Squares of all pawns."""
        return self._kind_mask(chess.PAWN)

    @property
    def knights(self) -> Bitboard:
        """Squares of all knights."""
        return self._kind_mask(chess.KNIGHT)

    @property
    def bishops(self) -> Bitboard:
        """Squares of all bishops."""
        return self._kind_mask(chess.BISHOP)

    @property
    def rooks(self) -> Bitboard:
        """Squares of all rooks."""
        return self._kind_mask(chess.ROOK)

    @property
    def queens(self) -> Bitboard:
        """Squares of all queens."""
        return self._kind_mask(chess.QUEEN)

    @property
    def kings(self) -> Bitboard:
        """Squares of both kings."""
        return self._kind_mask(chess.KING)

    @property
    def occupied_co(self) -> tuple[Bitboard, Bitboard]:
        """Each colour's occupied squares, indexed by colour (``occupied_co[WHITE]``)."""
        if self._pos is None:
            assert self._pc is not None
            black, white = self._pc.occupied_co
            return black, white
        bbs = self._bitboards()
        return bbs[8], bbs[0]

    @property
    def occupied(self) -> Bitboard:
        """Every occupied square."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.occupied
        bbs = self._bitboards()
        return bbs[0] | bbs[8]

    @property
    def promoted(self) -> Bitboard:
        """Squares of pieces marked promoted (kept as set up; pushes do not track it)."""
        if self._pc is not None:
            return self._pc.promoted
        return self._promoted

    # -- pieces ---------------------------------------------------------------

    def piece_at(self, square: Square) -> Piece | None:
        """The piece on a square, or None."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.piece_at(square)
        squares = self._squares
        if squares is None:
            squares = self._live()[1]
        piece: Piece | None = _PIECES[squares[square]]
        return piece

    def piece_type_at(self, square: Square) -> PieceType | None:
        """The type of the piece on a square, or None."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.piece_type_at(square)
        squares = self._squares
        if squares is None:
            squares = self._live()[1]
        code = int(squares[square])
        return None if code == NO_PIECE else code & 7

    def color_at(self, square: Square) -> Color | None:
        """The colour of the piece on a square, or None."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.color_at(square)
        squares = self._squares
        if squares is None:
            squares = self._live()[1]
        code = int(squares[square])
        return None if code == NO_PIECE else code < 8

    def piece_map(self, *, mask: Bitboard = chess.BB_ALL) -> dict[Square, Piece]:
        """Every occupied square (within ``mask``) with its piece."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.piece_map(mask=mask)
        pieces = _PIECES
        squares = self._live()[1]
        if mask == chess.BB_ALL:
            return {sq: pieces[c] for sq, c in enumerate(squares.tolist()) if c}  # type: ignore[misc]
        return {sq: pieces[c] for sq, c in enumerate(squares.tolist())  # type: ignore[misc]
                if c and mask >> sq & 1}  # fmt: skip

    def pieces_mask(self, piece_type: PieceType, color: Color) -> Bitboard:
        """Bitboard of the pieces of a type and colour."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.pieces_mask(piece_type, color)
        return self._bitboards()[PIECE_CODE[color][piece_type]]

    def pieces(self, piece_type: PieceType, color: Color) -> SquareSet:
        """The squares of the pieces of a type and colour."""
        return SquareSet(self.pieces_mask(piece_type, color))

    def king(self, color: Color) -> Square | None:
        """Square of the king of ``color`` (None if it has none)."""
        mask = self.pieces_mask(KING, color)
        return mask.bit_length() - 1 if mask else None

    # -- attacks --------------------------------------------------------------

    def attacks_mask(self, square: Square) -> Bitboard:
        """Squares the piece on ``square`` attacks (0 if it is empty)."""
        piece = self.piece_at(square)
        if piece is None:
            return 0
        bb = chess.BB_SQUARES[square]
        kind = piece.piece_type
        if kind == PAWN:
            return chess.BB_PAWN_ATTACKS[piece.color][square]
        if kind == chess.KNIGHT:
            return chess.BB_KNIGHT_ATTACKS[square]
        if kind == KING:
            return chess.BB_KING_ATTACKS[square]
        occupied = self.occupied
        attacks = 0
        if kind in (chess.BISHOP, chess.QUEEN):
            attacks = chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
        if kind in (ROOK, chess.QUEEN):
            attacks |= (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
                        | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied])
        return attacks & ~bb if attacks else 0

    def attacks(self, square: Square) -> SquareSet:
        """The squares the piece on ``square`` attacks."""
        return SquareSet(self.attacks_mask(square))

    def attackers_mask(self, color: Color, square: Square,
                       occupied: Bitboard | None = None) -> Bitboard:  # fmt: skip
        """Pieces of ``color`` that attack ``square`` (through ``occupied``, if given)."""
        occ = self.occupied if occupied is None else occupied
        queens, rooks, bishops = self.queens, self.rooks, self.bishops
        straight = (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occ]
                    | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occ])
        diagonal = chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occ]
        attackers = ((chess.BB_KING_ATTACKS[square] & self.kings)
                     | (chess.BB_KNIGHT_ATTACKS[square] & self.knights)
                     | (straight & (queens | rooks))
                     | (diagonal & (queens | bishops))
                     | (chess.BB_PAWN_ATTACKS[not color][square] & self.pawns))
        return attackers & self.occupied_co[color] & occ

    def attackers(self, color: Color, square: Square,
                  occupied: Bitboard | None = None) -> SquareSet:  # fmt: skip
        """The pieces of ``color`` that attack ``square``."""
        return SquareSet(self.attackers_mask(color, square, occupied))

    def is_attacked_by(self, color: Color, square: Square,
                       occupied: Bitboard | None = None) -> bool:  # fmt: skip
        """Whether a piece of ``color`` attacks ``square``."""
        return bool(self.attackers_mask(color, square, occupied))

    def checkers_mask(self) -> Bitboard:
        """The pieces that give check to the side to move."""
        king = self.king(self.turn)
        return 0 if king is None else self.attackers_mask(not self.turn, king)

    def checkers(self) -> SquareSet:
        """The pieces that give check to the side to move."""
        return SquareSet(self.checkers_mask())

    def pin_mask(self, color: Color, square: Square) -> Bitboard:
        """The line a pinned piece of ``color`` on ``square`` may move along (every square
        when it is not pinned)."""
        king = self.king(color)
        if king is None:
            return chess.BB_ALL
        square_mask = chess.BB_SQUARES[square]
        occupied = self.occupied
        them = self.occupied_co[not color]
        for attacks, sliders in ((chess.BB_FILE_ATTACKS, self.rooks | self.queens),
                                 (chess.BB_RANK_ATTACKS, self.rooks | self.queens),
                                 (chess.BB_DIAG_ATTACKS, self.bishops | self.queens)):  # fmt: skip
            rays = attacks[king][0]
            if rays & square_mask:
                snipers = rays & sliders & them
                for sniper in chess.scan_reversed(snipers):
                    between = chess.between(sniper, king) & (occupied | square_mask)
                    if between == square_mask:
                        return chess.ray(king, sniper)
                break
        return chess.BB_ALL

    def pin(self, color: Color, square: Square) -> SquareSet:
        """The line a pinned piece may move along (all squares when it is not pinned)."""
        return SquareSet(self.pin_mask(color, square))

    def is_pinned(self, color: Color, square: Square) -> bool:
        """Whether the piece of ``color`` on ``square`` is pinned to its king."""
        return self.pin_mask(color, square) != chess.BB_ALL

    # -- castling rights ------------------------------------------------------

    @property
    def castling_rights(self) -> Bitboard:
        """The rooks that may still castle, as a mask (python-chess's ``castling_rights``)."""
        if self._pc is not None:
            return self._pc.castling_rights
        bits = self._state()[1]
        return sum(1 << sq for bit, sq in zip(_RIGHT_BITS, self._castle_rooks, strict=True)
                   if bits & bit)  # fmt: skip

    @castling_rights.setter
    def castling_rights(self, mask: Bitboard) -> None:
        """Set the castling rights (rights without king and rook at home are dropped)."""
        self._edit(lambda board: setattr(board, "castling_rights", mask))

    def has_castling_rights(self, color: Color) -> bool:
        """Whether ``color`` may still castle on either side."""
        return self.has_kingside_castling_rights(color) or self.has_queenside_castling_rights(
            color
        )

    def has_kingside_castling_rights(self, color: Color) -> bool:
        """Whether ``color`` may still castle king-side (now or later)."""
        if self._pc is not None:
            return self._pc.has_kingside_castling_rights(color)
        return bool(self._state()[1] & (CASTLE_WK if color else CASTLE_BK))

    def has_queenside_castling_rights(self, color: Color) -> bool:
        """Whether ``color`` may still castle queen-side (now or later)."""
        if self._pc is not None:
            return self._pc.has_queenside_castling_rights(color)
        return bool(self._state()[1] & (CASTLE_WQ if color else CASTLE_BQ))

    # -- move properties ------------------------------------------------------

    def is_capture(self, move: Move) -> bool:
        """Whether the move captures (en passant included; castling onto one's own rook not)."""
        k = self._k
        if k is not None and (legal := k.legal) is not None and (code := _CODE_OF(id(move), 0)) \
                in legal:  # fmt: skip
            return code >> FLAG_SHIFT in _CAPTURE_FLAGS  # a legal move: its integer says
        target = self.color_at(move.to_square)
        return (target is not None and target != self.turn) or self.is_en_passant(move)

    def is_en_passant(self, move: Move) -> bool:
        """Whether the move is an en-passant capture."""
        return (
            self.ep_square == move.to_square
            and self.piece_type_at(move.from_square) == PAWN
            and abs(move.to_square - move.from_square) in (7, 9)
            and self.piece_type_at(move.to_square) is None
        )

    def is_castling(self, move: Move) -> bool:
        """Whether the move is a castling move (a king moving two files or onto its own rook)."""
        if self.piece_type_at(move.from_square) != KING:
            return False
        if abs((move.to_square & 7) - (move.from_square & 7)) > 1:
            return True
        return self.piece_type_at(move.to_square) == ROOK and self.color_at(
            move.to_square
        ) == self.turn

    def is_kingside_castling(self, move: Move) -> bool:
        """Whether the move castles king-side."""
        return self.is_castling(move) and (move.to_square & 7) > (move.from_square & 7)

    def is_queenside_castling(self, move: Move) -> bool:
        """Whether the move castles queen-side."""
        return self.is_castling(move) and (move.to_square & 7) < (move.from_square & 7)

    def is_zeroing(self, move: Move) -> bool:
        """Whether the move resets the halfmove clock (a capture or pawn move)."""
        touched = chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[move.to_square]
        return bool(touched & self.pawns or touched & self.occupied_co[not self.turn])

    def is_irreversible(self, move: Move) -> bool:
        """Whether the move can never be undone by later moves (a capture, a pawn move, a
        castling, or a move that loses castling rights or an en-passant chance)."""
        return self._python_chess_view(stack=False).is_irreversible(move)
