"""``BoardState``: a chess position, its move history and the rules, over the compiled core."""

from __future__ import annotations

from typing import Self

import numpy as np

from plies.board.chess960 import chess960_fen
from plies.board.codes import PIECE_CODE, core_to_move, core_to_move_960, piece_color, piece_kind
from plies.board.errors import IllegalMoveError, InvalidFenError
from plies.board.fen import (
    EMPTY,
    STARTING_FEN,
    castling_field,
    castling_rights,
    parse_fen,
    placement,
    validate,
)
from plies.board.move import Move, Piece
from plies.board.outcome import Outcome, Termination
from plies.board.squares import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    SQUARE_NAMES,
    WHITE,
    Color,
    PieceType,
    Square,
)
from plies.core import (
    Position,
    copy_position,
    in_check,
    key_after,
    legal_moves,
    new_position,
    opponent_in_check,
    position_arrays,
    position_state,
    push_move,
    reserve,
    unmake_move,
)
from plies.core.encoding import CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ, NO_SQUARE, promotion_of

_DARK_SQUARES = 0xAA55AA55AA55AA55


class BoardState:
    """A chess position and the moves that led to it: set-up, state, legal moves, game end.

    :class:`plies.board.Board` adds notation, pictures and python-chess conversion."""

    STARTING_FEN = STARTING_FEN
    """FEN of the standard starting position."""

    def __init__(self, fen: str | None = None, chess960: bool = False) -> None:
        """Set up the starting position, or the position of ``fen``; ``chess960`` plays by
        Chess960's castling rules and writes castling as king takes rook (``e1h1``)."""
        self.chess960 = bool(chess960)
        """Whether the board plays Chess960 (Fischer random chess)."""
        self._legal: np.ndarray | None = None
        self._legal_index: dict[Move, int] = {}
        self.move_stack: list[Move] = []
        """The moves played since the position was set up."""
        self.set_fen(STARTING_FEN if fen is None else fen)

    # -- set-up ---------------------------------------------------------------

    @classmethod
    def from_chess960_pos(cls, scharnagl: int) -> Self:
        """The Chess960 starting position number ``scharnagl`` (0-959; 518 is standard chess),
        in Scharnagl's numbering as python-chess, on a Chess960 board."""
        return cls(chess960_fen(scharnagl), chess960=True)

    def set_fen(self, fen: str) -> None:
        """Replace the position and clear the history; on error nothing changes."""
        parsed = parse_fen(fen)
        validate(parsed, self.chess960)
        castling, rooks = castling_rights(parsed, self.chess960)
        ep = NO_SQUARE if parsed.ep_square is None else parsed.ep_square
        pos = new_position(parsed.mailbox, parsed.side, castling, ep, parsed.halfmove,
                           parsed.fullmove, rooks)  # fmt: skip
        if opponent_in_check(pos):
            raise InvalidFenError(
                "invalid fen side to move: the side not to move is in check"
            )
        self._castle_rooks = rooks
        self._set_position(pos)
        self._root_fen = fen.strip()
        self.move_stack = []

    def _set_position(self, pos: Position) -> None:
        """Adopt a compiled position and look at its arrays."""
        self._pos = pos
        self._refresh()

    def _refresh(self) -> None:
        """Re-read the position's arrays (after the undo stack grew) and its state."""
        self._pieces, self._squares, self._keys = position_arrays(self._pos)
        self._changed()

    def _changed(self) -> None:
        """Forget what was cached about the position (legal moves, state fields)."""
        self._legal = None
        self._legal_index = {}
        side, castling, ep, half, full, ply = position_state(self._pos)
        self._side, self._castling, self._ep = int(side), int(castling), int(ep)
        self._half, self._full, self._ply = int(half), int(full), int(ply)

    def copy(self) -> Self:
        """An independent copy, history included."""
        other = type(self).__new__(type(self))
        other.chess960 = self.chess960
        other._castle_rooks = self._castle_rooks
        other._set_position(copy_position(self._pos))
        other._root_fen = self._root_fen
        other.move_stack = list(self.move_stack)
        other._legal = self._legal
        other._legal_index = self._legal_index
        return other

    def root(self) -> Self:
        """The position the history starts from."""
        return type(self)(self._root_fen, chess960=self.chess960)

    def core_position(self) -> Position:
        """A fresh copy of the compiled position (history included), for searches and the core.

        Callers may push moves on it or attach a net: the board never sees it. (The shared
        slider table and a net's weights are the core's, not the board's.)
        """
        return copy_position(self._pos)

    # -- state ----------------------------------------------------------------

    @property
    def turn(self) -> Color:
        """The side to move, ``WHITE`` or ``BLACK``."""
        return self._side

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture or pawn move."""
        return self._half

    @property
    def fullmove_number(self) -> int:
        """Move number, starting at 1 and growing after each black move."""
        return self._full

    @property
    def ep_square(self) -> Square | None:
        """The square a pawn just skipped with a double push, or None."""
        return None if self._ep == NO_SQUARE else self._ep

    @property
    def ply(self) -> int:
        """Number of moves in ``move_stack``."""
        return self._ply

    def castling_xfen(self) -> str:
        """Castling field of the FEN in X-FEN (``"KQkq"``, ``"-"``, ``"Bq"`` for an inner rook)."""
        return castling_field(self._squares.tolist(), self._castling, self._castle_rooks, False)

    def castling_shredder_fen(self) -> str:
        """Castling field in Shredder-FEN: the rooks' files (``"HAha"``, ``"-"``)."""
        return castling_field(self._squares.tolist(), self._castling, self._castle_rooks, True)

    def has_kingside_castling_rights(self, color: Color) -> bool:
        """Whether ``color`` may still castle king-side (now or later)."""
        return bool(self._castling & (CASTLE_WK if color == WHITE else CASTLE_BK))

    def has_queenside_castling_rights(self, color: Color) -> bool:
        """Whether ``color`` may still castle queen-side (now or later)."""
        return bool(self._castling & (CASTLE_WQ if color == WHITE else CASTLE_BQ))

    def piece_at(self, sq: Square) -> Piece | None:
        """The piece on a square, or None."""
        code = int(self._squares[sq])
        return None if code == EMPTY else Piece(piece_kind(code), piece_color(code))

    def piece_map(self) -> dict[Square, Piece]:
        """Every occupied square with its piece."""
        codes = enumerate(self._squares.tolist())
        return {sq: Piece(piece_kind(c), piece_color(c)) for sq, c in codes if c != EMPTY}

    def pieces(self, piece_type: PieceType, color: Color) -> list[Square]:
        """Squares holding pieces of a type and colour, in ascending order."""
        code = PIECE_CODE[color][piece_type]
        return [int(sq) for sq in np.flatnonzero(self._squares == code)]

    def king(self, color: Color) -> Square:
        """Square of the king of ``color``."""
        return int(np.flatnonzero(self._squares == PIECE_CODE[color][KING])[0])

    def zobrist_key(self) -> int:
        """64-bit Zobrist hash of the position (pieces, side, castling, en passant)."""
        return int(self._keys[self.ply])

    def fen(self, shredder: bool = False) -> str:
        """FEN of the position (castling in X-FEN, or Shredder-FEN with ``shredder``); the
        en-passant square only when a legal capture exists."""
        ep = "-"
        if self.ep_square is not None and any(self.is_en_passant(m) for m in self.legal_moves):
            ep = SQUARE_NAMES[self.ep_square]
        side = "w" if self.turn == WHITE else "b"
        board = placement(self._squares.tolist())
        castling = self.castling_shredder_fen() if shredder else self.castling_xfen()
        return (f"{board} {side} {castling} {ep} "
                f"{self.halfmove_clock} {self.fullmove_number}")  # fmt: skip

    def shredder_fen(self) -> str:
        """FEN with the castling field in Shredder-FEN (``HAha``)."""
        return self.fen(shredder=True)

    def board_fen(self) -> str:
        """Piece-placement field of the FEN."""
        return placement(self._squares.tolist())

    # -- moves ----------------------------------------------------------------

    def core_legal(self) -> np.ndarray:
        """Legal moves as core move integers (cached until the position changes)."""
        if self._legal is None:
            self._legal = legal_moves(self._pos)
        return self._legal

    def _index(self) -> dict[Move, int]:
        """Each legal Move with its position in ``core_legal()`` (built on demand)."""
        legal = self.core_legal()
        if not self._legal_index and len(legal):
            self._legal_index = {self.move_of(m): i for i, m in enumerate(legal.tolist())}
        return self._legal_index

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves, as a fresh list."""
        return list(self._index())

    def move_of(self, code: int) -> Move:
        """The ``Move`` of a core move integer in this board's notation (castling in
        Chess960 as king takes rook)."""
        if self.chess960:
            return core_to_move_960(code, self._castle_rooks)
        return core_to_move(code)

    def _find(self, move: Move) -> int:
        """Core integer of ``move`` if it is legal here, else 0."""
        legal = self.core_legal()
        if self.chess960:
            # A king step and a castling may share their squares here (b1c1): look moves up.
            i = self._index().get(move) if isinstance(move, Move) else None
            return 0 if i is None else int(legal[i])
        # Match from and to squares, then the promotion bits, without building Moves.
        hits = legal[(legal & 0xFFF) == (move.from_square | (move.to_square << 6))]
        for m in hits.tolist():
            if promotion_of(m) == move.promotion:
                return int(m)
        return 0

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here."""
        return isinstance(move, Move) and self._find(move) != 0

    def _core_move(self, move: Move) -> int:
        """Core integer of a legal move; IllegalMoveError otherwise."""
        code = self._find(move)
        if code == 0:
            raise IllegalMoveError(f"illegal move: {move.uci()} in {self.fen()}")
        return code

    def push(self, move: Move) -> None:
        """Play a legal move; IllegalMoveError (board unchanged) if it is not legal."""
        if not isinstance(move, Move):
            raise IllegalMoveError(f"not a move: {move!r}")
        m = self._core_move(move)
        if push_move(self._pos, m):
            self._refresh()
        else:
            self._changed()
        self.move_stack.append(move)

    def pop(self) -> Move:
        """Take back the last move and return it; IndexError if there is none."""
        if not self.move_stack:
            raise IndexError("pop from empty move stack")
        unmake_move(self._pos)
        self._changed()
        return self.move_stack.pop()

    def peek(self) -> Move:
        """The last move played; IndexError if there is none."""
        if not self.move_stack:
            raise IndexError("peek at empty move stack")
        return self.move_stack[-1]

    # -- move properties ------------------------------------------------------

    def is_capture(self, move: Move) -> bool:
        """Whether the move captures (en passant included; castling onto one's own rook not)."""
        code = int(self._squares[move.to_square])
        return (code != EMPTY and piece_color(code) != self.turn) or self.is_en_passant(move)

    def is_en_passant(self, move: Move) -> bool:
        """Whether the move is an en-passant capture."""
        return (
            self.ep_square == move.to_square
            and piece_kind(int(self._squares[move.from_square])) == PAWN
            and abs(move.to_square - move.from_square) in (7, 9)
        )

    def is_castling(self, move: Move) -> bool:
        """Whether the move is a castling move (a king moving two files or onto its own rook)."""
        code = int(self._squares[move.from_square])
        if piece_kind(code) != KING:
            return False
        onto = int(self._squares[move.to_square])
        own_rook = (onto != EMPTY and piece_kind(onto) == ROOK
                    and piece_color(onto) == piece_color(code))  # fmt: skip
        return abs((move.to_square & 7) - (move.from_square & 7)) > 1 or own_rook

    def is_zeroing(self, move: Move) -> bool:
        """Whether the move resets the halfmove clock (a capture or pawn move)."""
        return self.is_capture(move) or piece_kind(int(self._squares[move.from_square])) == PAWN

    def gives_check(self, move: Move) -> bool:
        """Whether the legal move puts the opponent in check."""
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    # -- game state -----------------------------------------------------------

    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        return bool(in_check(self._pos))

    def is_checkmate(self) -> bool:
        """Whether the side to move is checkmated."""
        return self.is_check() and len(self.core_legal()) == 0

    def is_stalemate(self) -> bool:
        """Whether the side to move has no legal move and is not in check."""
        return not self.is_check() and len(self.core_legal()) == 0

    def has_insufficient_material(self, color: Color) -> bool:
        """Whether ``color`` cannot possibly checkmate (python-chess's rule)."""
        bb = [int(x) for x in self._pieces]
        own = bb[PIECE_CODE[color][0]]
        other = bb[PIECE_CODE[1 - color][0]]

        def kind(k: PieceType) -> int:
            """Bitboard of both colours' pieces of type ``k``."""
            return bb[PIECE_CODE[WHITE][k]] | bb[PIECE_CODE[BLACK][k]]

        if own & (kind(PAWN) | kind(ROOK) | kind(QUEEN)):
            return False
        if own & kind(KNIGHT):
            return own.bit_count() <= 2 and not (other & ~kind(KING) & ~kind(QUEEN))
        if own & kind(BISHOP):
            bishops = kind(BISHOP)
            same_colour = not (bishops & _DARK_SQUARES) or not (bishops & ~_DARK_SQUARES)
            return same_colour and not kind(PAWN) and not kind(KNIGHT)
        return True

    def is_insufficient_material(self) -> bool:
        """Whether neither side can possibly checkmate."""
        return self.has_insufficient_material(WHITE) and self.has_insufficient_material(BLACK)

    def _repetitions(self) -> int:
        """How often the current position occurred, counting the current one."""
        ply = self.ply
        key = self._keys[ply]
        low = max(0, ply - self.halfmove_clock)
        window = self._keys[low : ply + 1]
        return int(np.count_nonzero(window == key))

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position occurred at least ``count`` times."""
        return self._repetitions() >= count

    def is_fivefold_repetition(self) -> bool:
        """Whether the position occurred five times (an automatic draw)."""
        return self._repetitions() >= 5

    def can_claim_threefold_repetition(self) -> bool:
        """Whether the position occurred three times, or a legal move makes it so."""
        if self._repetitions() >= 3:
            return True
        ply = self.ply
        low = max(0, ply - self.halfmove_clock)
        seen = self._keys[low : ply + 1].copy()
        if reserve(self._pos, 1):
            self._refresh()
        for m in self.core_legal().tolist():
            key = key_after(self._pos, m)
            if np.count_nonzero(seen == key) >= 2:
                return True
        return False

    def is_fifty_moves(self) -> bool:
        """Whether 50 moves passed without capture or pawn move and a move remains."""
        return self.halfmove_clock >= 100 and len(self.core_legal()) > 0

    def can_claim_fifty_moves(self) -> bool:
        """Whether the fifty-move rule can be claimed now or with the next move."""
        if self.is_fifty_moves():
            return True
        if self.halfmove_clock >= 99:
            return any(not self.is_zeroing(m) for m in self.legal_moves)
        return False

    def is_seventyfive_moves(self) -> bool:
        """Whether 75 moves passed without capture or pawn move (automatic draw)."""
        return self.halfmove_clock >= 150 and len(self.core_legal()) > 0

    def can_claim_draw(self) -> bool:
        """Whether a draw by fifty moves or threefold repetition can be claimed."""
        return self.can_claim_fifty_moves() or self.can_claim_threefold_repetition()

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        """How the game has ended, or None; claimable draws only with ``claim_draw``."""
        if self.is_checkmate():
            return Outcome(Termination.CHECKMATE, 1 - self.turn)
        if self.is_insufficient_material():
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        if len(self.core_legal()) == 0:
            return Outcome(Termination.STALEMATE, None)
        if self.is_seventyfive_moves():
            return Outcome(Termination.SEVENTYFIVE_MOVES, None)
        if self.is_fivefold_repetition():
            return Outcome(Termination.FIVEFOLD_REPETITION, None)
        if claim_draw:
            if self.can_claim_fifty_moves():
                return Outcome(Termination.FIFTY_MOVES, None)
            if self.can_claim_threefold_repetition():
                return Outcome(Termination.THREEFOLD_REPETITION, None)
        return None

    def is_game_over(self, claim_draw: bool = False) -> bool:
        """Whether the game has ended (claimable draws count with ``claim_draw``)."""
        return self.outcome(claim_draw) is not None

    def result(self, claim_draw: bool = False) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        outcome = self.outcome(claim_draw)
        return "*" if outcome is None else outcome.result()
