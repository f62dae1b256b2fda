"""``BoardState``: a chess position, its move history, and the moves: one compiled step each.

A position the rules apply to lives in the compiled core (``Position``); a push or a pop is
one call into it, and what the core already knows (the legal moves, the state fields) is
read once per position and kept until the next move. A position the rules cannot apply to
(no king, pawns on the back rank: what ``Board(None)`` or a half-set-up board holds) is kept
by a python-chess board instead, as python-chess keeps it, until it is playable again.
"""

from __future__ import annotations

from typing import Any, Self

import chess
import numpy as np
from chess import SQUARE_NAMES, Color, Move, Square

from plies.board.build import build_position
from plies.board.calls import GREW, Calls, buffers, calls
from plies.board.chess960 import chess960_fen
from plies.board.codes import CODE_OF_ID, MOVES, core_to_move, core_to_move_960
from plies.board.errors import IllegalMoveError, InvalidFenError
from plies.board.fen import (
    STARTING_FEN,
    castling_field,
    parse_fen,
    validate,
)
from plies.board.legal import LegalMoveGenerator
from plies.core import Position, opponent_in_check
from plies.core.encoding import (
    FLAG_EP,
    FLAG_KING_CASTLE,
    FLAG_QUEEN_CASTLE,
    FLAG_SHIFT,
    NO_SQUARE,
)
from plies.core.position import new_position

_GREW = GREW
# Standard chess writes its castling rights as the letters of the rights bits (K, Q, k, q).
_STANDARD_CASTLING = tuple("".join(c for bit, c in enumerate("KQkq") if bits >> bit & 1) or "-"
                           for bits in range(16))  # fmt: skip
_EP_FLAG = FLAG_EP << FLAG_SHIFT
_FLAGS = 15 << FLAG_SHIFT
_CASTLE_FLAGS = 0b1011 << FLAG_SHIFT
# The castling rooks of each set of standard castling rights (NO_SQUARE where absent).
_STANDARD_ROOKS = tuple(tuple(sq if bits >> right & 1 else NO_SQUARE
                              for right, sq in enumerate((7, 0, 63, 56)))
                        for bits in range(16))  # fmt: skip
_template: tuple[Position, int] | None = None


def _template_handle() -> int:
    """Handle of the position whose shared tables (sliders, the empty net) every position a
    FEN is read into shares: built once, kept alive here."""
    global _template
    if _template is None:
        pos = new_position([0] * 64, 0, 0, NO_SQUARE, 0, 1)
        _template = (pos, calls().handle_of(pos))
    return _template[1]
_MOVE_OF = MOVES.__getitem__
_CODE_OF = CODE_OF_ID.get


class Known:
    """What was read about one position: kept while it is on the board or under a pushed move,
    so a search that pops back finds its moves still known."""

    __slots__ = ("bbs", "codes", "legal", "moves", "names", "st", "status")

    def __init__(self) -> None:
        """Nothing known yet."""
        self.st: tuple[int, int, int, int, int, int] | None = None
        self.codes: list[int] | None = None
        self.moves: list[Move] | None = None
        self.legal: set[int] | None = None
        """The legal move integers a shared ``Move`` (``CODE_OF_ID``) may stand for here:
        all of them, but castling in Chess960, where the shared move is a king's step."""
        self.bbs: list[int] | None = None
        self.names: dict[int, int] | None = None
        self.status = -1


class BoardState:
    """A chess position and the moves that led to it: set-up, state, push and pop, legal moves.

    :class:`plies.board.Board` adds the rules, queries, notation and python-chess's surface.
    """

    __slots__ = ("_c", "_castle_rooks", "_h", "_k", "_keys", "_pc", "_pieces", "_pop", "_pos",
                 "_promoted", "_push", "_root_fen", "_saved", "_squares", "_stack",
                 "_white_first", "_why", "chess960")  # fmt: skip

    STARTING_FEN = STARTING_FEN
    """FEN of the standard starting position."""

    def __init__(self, fen: str | None = STARTING_FEN, *, chess960: bool = False) -> None:
        """The starting position, the position of ``fen``, or an empty board for ``None``;
        ``chess960`` plays by Chess960's castling rules (castling written king takes rook)."""
        self.chess960 = bool(chess960)
        self._stack: list[Move] = []
        if fen is None:
            self._set_unplayable(chess.Board(None, chess960=self.chess960), "an empty board")
        else:
            self.set_fen(fen)

    # -- set-up ---------------------------------------------------------------

    @classmethod
    def empty(cls, *, chess960: bool = False) -> Self:
        """An empty board (no pieces, White to move): ``Board(None)``."""
        return cls(None, chess960=chess960)

    @classmethod
    def from_chess960_pos(cls, scharnagl: int) -> Self:
        """The Chess960 starting position number ``scharnagl`` (0-959; 518 is standard chess),
        in Scharnagl's numbering as python-chess, on a Chess960 board."""
        return cls(chess960_fen(scharnagl), chess960=True)

    def set_fen(self, fen: str) -> None:
        """Replace the position and clear the history; ``InvalidFenError`` (a ValueError, the
        board unchanged) for a malformed FEN. A well-formed position the rules cannot apply to
        is kept as python-chess keeps it (``is_valid()`` says False)."""
        if not self.chess960 and type(fen) is str:
            # The common case in one compiled call: a plainly written standard FEN.
            c = calls()
            fields = buffers()[2]
            if c.read_fen(fen, fields):
                pos, handle, info = c.build_board(_template_handle(), fields)
                if not info & 1:
                    self._castle_rooks = _STANDARD_ROOKS[info >> 2]
                    self._stack = []
                    self._adopt(pos, handle, info >> 1 & 1)
                    self._root_fen = fen.strip()
                    return
        parsed = parse_fen(fen)
        try:
            rights, rooks = validate(parsed, self.chess960)
        except InvalidFenError as exc:
            self._set_unplayable(self._python_chess_board(fen), str(exc))
            return
        ep = NO_SQUARE if parsed.ep_square is None else parsed.ep_square
        pos = build_position(parsed, rights, ep, rooks)
        if opponent_in_check(pos):  # before the board holds it
            self._set_unplayable(
                self._python_chess_board(fen),
                "invalid fen side to move: the side not to move is in check",
            )
            return
        self._castle_rooks = rooks
        self._stack = []
        self._adopt_position(pos)
        self._root_fen = fen.strip()

    def _python_chess_board(self, fen: str) -> chess.Board:
        """python-chess's board of ``fen`` (InvalidFenError if python-chess refuses it too)."""
        try:
            return chess.Board(fen, chess960=self.chess960)
        except ValueError as exc:
            raise InvalidFenError(f"invalid fen: {exc}") from None

    def _set_unplayable(self, board: chess.Board, why: str) -> None:
        """Keep a position the compiled core cannot hold in python-chess's board ``board``."""
        self._pos: Position | None = None
        self._pc: chess.Board | None = board
        self._why = why
        self._squares: np.ndarray | None = None
        self._promoted = 0
        self._stack = []
        self._forget()

    def _adopt_position(self, pos: Position) -> None:
        """Hold compiled position ``pos`` (its history becomes the board's)."""
        c = calls()
        handle = c.handle_of(pos)
        self._adopt(pos, handle, c.state(handle)[0])

    def _adopt(self, pos: Position, handle: int, side: int) -> None:
        """Hold compiled position ``pos`` of handle ``handle`` and side to move ``side`` (the
        core's: 0 white), its history the board's."""
        self._pos = pos
        self._pc = None
        self._why = ""
        self._promoted = 0
        self._c: Calls = calls()
        # The per-move calls take the position's address: the board keeps ``pos`` alive.
        self._h: int = handle
        self._push = self._c.push_at
        self._pop = self._c.pop_at
        self._read_arrays()
        # The side to move follows from the set-up's and the number of moves since.
        self._white_first = (side == 0) == (len(self._stack) % 2 == 0)
        self._forget()

    def _read_arrays(self) -> None:
        """Look at the position's arrays again when next asked (the undo stack was
        reallocated, or the position replaced): ``_live`` reads them."""
        self._squares = None

    def _live(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The position's live ``pieces, squares, keys`` arrays (views into the compiled
        position), read on the first use after a set-up or a reallocation: a FEN read and
        written needs none of them."""
        squares = self._squares
        if squares is None:
            self._pieces, squares, self._keys = self._c.arrays(self._pos)
            self._squares = squares
        return self._pieces, squares, self._keys

    def _forget(self) -> None:
        """Drop what was read about the position and the positions before it."""
        self._k: Known | None = None
        self._saved: list[Known | None] = [None] * len(self._stack)

    def _known(self) -> Known:
        """The record of what is known about the current position."""
        k = self._k
        if k is None:
            k = self._k = Known()
        return k

    def is_valid(self) -> bool:
        """Whether the rules apply to the position (python-chess's ``status()`` is clean
        of everything that would make it unplayable)."""
        return self._pos is not None

    def check_playable(self) -> None:
        """InvalidFenError with the reason unless the rules apply to the position (what the
        engine and every front end need before they search or play it)."""
        if self._pos is None:
            why = self._why
            raise InvalidFenError(why if why.startswith("invalid") else f"invalid position: {why}")

    def copy(self, *, stack: bool | int = True) -> Self:
        """An independent copy with the history (``stack=False``: none; an int: that many of
        the last moves), as python-chess's ``copy``."""
        other = type(self).__new__(type(self))
        other.chess960 = self.chess960
        if self._pos is None:
            assert self._pc is not None
            other._set_unplayable(self._pc.copy(stack=stack), self._why)
            return other
        other._castle_rooks = self._castle_rooks
        other._stack = list(self._stack)
        other._adopt_position(self._c.compact_copy(self._pos))
        other._root_fen = self._root_fen
        if stack is not True:
            keep = min(len(self.move_stack), max(0, int(stack)))
            tail = [other.pop() for _ in range(keep)]
            other.set_fen(other.fen(en_passant="fen"))
            for move in reversed(tail):
                other.push(move)
        return other

    def __copy__(self) -> Self:
        """``copy.copy(board)``: as ``board.copy()``."""
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """``copy.deepcopy(board)``: as ``board.copy()`` (moves are immutable)."""
        return self.copy()

    def root(self) -> Self:
        """The position the history starts from."""
        if self._pos is None:
            assert self._pc is not None
            other = type(self).__new__(type(self))
            other.chess960 = self.chess960
            other._set_unplayable(self._pc.root(), self._why)
            return other
        return type(self)(self._root_fen, chess960=self.chess960)

    def core_position(self) -> Position:
        """A fresh copy of the compiled position (history included), for searches and the core;
        InvalidFenError if the rules do not apply to the position.

        Callers may push moves on it or attach a net: the board never sees it. (The shared
        slider table and a net's weights are the core's, not the board's.)
        """
        self.check_playable()
        pos: Position = self._c.copy(self._pos)
        return pos

    # -- state ----------------------------------------------------------------

    def _status(self) -> int:
        """The rules' verdict bits on the position (``plies.core.board_entry.game_status``)."""
        k = self._known()
        status = k.status
        if status < 0:
            status = k.status = self._c.status(self._h)
        return status

    def _state(self) -> tuple[int, int, int, int, int, int]:
        """``(side, castling, ep, halfmove, fullmove, ply)`` of the compiled position."""
        k = self._known()
        st = k.st
        if st is None:
            st = k.st = self._c.state(self._h)
        return st

    @property
    def turn(self) -> Color:
        """The side to move: ``WHITE`` (True) or ``BLACK`` (False)."""
        if self._pos is None:
            assert self._pc is not None
            return bool(self._pc.turn)
        white: bool = self._white_first == (not len(self._stack) & 1)
        return white

    @turn.setter
    def turn(self, color: Color) -> None:
        """Hand the move to ``color`` (the history is kept only when nothing changes)."""
        if bool(color) != self.turn:
            self._edit(lambda board: setattr(board, "turn", bool(color)))

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture or pawn move."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.halfmove_clock
        return self._state()[3]

    @property
    def fullmove_number(self) -> int:
        """Move number, starting at 1 and growing after each black move."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.fullmove_number
        return self._state()[4]

    @property
    def ep_square(self) -> Square | None:
        """The square a pawn just skipped with a double push (whether or not a capture there
        is possible), or None."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.ep_square
        ep = self._state()[2]
        return None if ep == NO_SQUARE else ep

    def ply(self) -> int:
        """Number of half-moves played since the game began (python-chess's ``ply()``)."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.ply()
        return 2 * (self.fullmove_number - 1) + (not self.turn)

    def _edit(self, change: Any) -> None:
        """Apply ``change`` to python-chess's board of this position and adopt the result (the
        history is kept by python-chess's board while the position is unplayable)."""
        board = self._python_chess_view(stack=False)
        change(board)
        self._adopt_python_chess(board)

    def _python_chess_view(self, stack: bool = True) -> chess.Board:
        """python-chess's board of this position (its history too with ``stack``); the same
        object the board keeps while the position is unplayable."""
        if self._pc is not None:
            return self._pc
        if stack:
            board = chess.Board(self._root_fen, chess960=self.chess960)
            for move in self.move_stack:
                board.push(move)
        else:
            board = chess.Board(self.fen(en_passant="fen"), chess960=self.chess960)
        board.promoted = self._promoted
        return board

    def _adopt_python_chess(self, board: chess.Board) -> None:
        """Take the position of python-chess's ``board`` (its history is cleared unless the
        position stays unplayable)."""
        promoted = board.promoted
        if board.is_valid():
            fen = board.fen(en_passant="fen")
            self.set_fen(fen)
            self._promoted = promoted
            if self._pos is not None:
                return
        self._set_unplayable(board, _status_text(board))
        self._promoted = promoted

    def castling_xfen(self) -> str:
        """Castling field of the FEN in X-FEN (``"KQkq"``, ``"-"``, ``"Bq"`` for an inner rook)."""
        if self._pos is None:
            return self._python_chess_view().castling_xfen()
        return castling_field(self._live()[1].tolist(), self._state()[1], self._castle_rooks,
                              False)  # fmt: skip

    def castling_shredder_fen(self) -> str:
        """Castling field in Shredder-FEN: the rooks' files (``"HAha"``, ``"-"``)."""
        if self._pos is None:
            return self._python_chess_view().castling_shredder_fen()
        return castling_field(self._live()[1].tolist(), self._state()[1], self._castle_rooks,
                              True)  # fmt: skip

    def fen(self, *, shredder: bool = False, en_passant: chess.EnPassantSpec = "legal",
            promoted: bool | None = None) -> str:  # fmt: skip
        """FEN of the position: castling in X-FEN (Shredder-FEN with ``shredder``); the
        en-passant square when a legal capture exists (``en_passant="fen"``: after every
        double push; ``"xfen"``: when a pawn stands ready to capture), as python-chess."""
        if self._pos is None or promoted:
            return self._python_chess_view().fen(shredder=shredder, en_passant=en_passant,
                                                 promoted=promoted)  # fmt: skip
        if not (self.chess960 or shredder) and (en_passant == "legal" or en_passant == "fen"):
            out = buffers()[1]
            n = self._c.fen_text(self._h, out)
            text: str = out[: n & 255].tobytes().decode()
            if n >> 8 and en_passant == "legal" and not self._ep_capture():
                fields = text.split(" ")
                fields[3] = "-"
                text = " ".join(fields)
            return text
        side, rights, _, half, full, _ = self._state()
        out = buffers()[1]
        board = out[: self._c.placement(self._h, out)].tobytes().decode()
        if self.chess960 or shredder:
            castling = self.castling_shredder_fen() if shredder else self.castling_xfen()
        else:
            castling = _STANDARD_CASTLING[rights]
        ep = self._fen_ep(en_passant)
        return f"{board} {'b' if side else 'w'} {castling} {ep} {half} {full}"

    def _fen_ep(self, mode: str) -> str:
        """The FEN's en-passant field under python-chess's ``en_passant`` modes."""
        ep = self.ep_square
        if ep is None:
            return "-"
        if mode == "fen":
            return SQUARE_NAMES[ep]
        if mode == "xfen":
            return SQUARE_NAMES[ep] if self._pawn_ready_for_ep(ep) else "-"
        if mode != "legal":
            raise ValueError(f"en_passant must be 'legal', 'fen' or 'xfen', not {mode!r}")
        return SQUARE_NAMES[ep] if self._ep_capture() else "-"

    def _ep_capture(self) -> bool:
        """Whether an en-passant capture is among the legal moves."""
        return any((c & _FLAGS) == _EP_FLAG for c in self._legal_codes())

    def _pawn_ready_for_ep(self, ep: Square) -> bool:
        """Whether a pawn of the side to move attacks ``ep`` (pins aside: X-FEN's rule)."""
        own = 1 if self.turn else 9  # the core's pawn codes: white 1, black 9
        attackers = chess.BB_PAWN_ATTACKS[not self.turn][ep]
        squares = self._live()[1]
        return any(int(squares[sq]) == own for sq in chess.scan_forward(attackers))

    def zobrist_key(self) -> int:
        """64-bit Zobrist hash of the position (pieces, side, castling, en passant), the
        engine's key (python-chess's Polyglot key is ``chess.polyglot.zobrist_hash``)."""
        self.check_playable()
        return int(self._live()[2][self._state()[5]])

    def shredder_fen(self, *, en_passant: chess.EnPassantSpec = "legal") -> str:
        """FEN with the castling field in Shredder-FEN (``HAha``)."""
        return self.fen(shredder=True, en_passant=en_passant)

    def board_fen(self, *, promoted: bool | None = False) -> str:
        """Piece-placement field of the FEN."""
        if self._pos is None or promoted:
            return self._python_chess_view().board_fen(promoted=promoted)
        out = buffers()[1]
        return out[: self._c.placement(self._h, out)].tobytes().decode()

    # -- moves ----------------------------------------------------------------

    def _legal_codes(self) -> list[int]:
        """The legal moves as core move integers (read once per position)."""
        k = self._k
        if k is None:
            k = self._k = Known()
        codes = k.codes
        if codes is None:
            out = buffers()[0]
            codes = k.codes = out[: self._c.legal(self._h, out)].tolist()
        return codes

    def _legal_list(self) -> list[Move]:
        """The legal moves as ``Move`` values (built once per position; do not modify)."""
        k = self._k
        if k is not None and (moves := k.moves) is not None:
            return moves
        if self._pos is None:
            assert self._pc is not None
            return list(self._pc.legal_moves)
        codes = self._legal_codes()
        k = self._k
        assert k is not None
        if self.chess960:
            rooks = self._castle_rooks
            moves = [core_to_move_960(c, rooks) for c in codes]
            k.legal = self._shared_legal(codes)
        else:
            try:
                moves = list(map(_MOVE_OF, codes))
            except KeyError:  # a move integer met for the first time
                moves = [core_to_move(c) for c in codes]
            # Each listed move is the shared Move of its integer: a push of one of them
            # finds its integer by the object's id and checks it against this set.
            k.legal = set(codes)
        k.moves = moves
        return moves

    def _shared_legal(self, codes: list[int]) -> set[int]:
        """The legal integers a shared ``Move`` may be pushed as (``Known.legal``)."""
        if self.chess960:
            return {c for c in codes if not _is_castling_code(c)}
        return set(codes)

    def _legal_count(self) -> int:
        """Number of legal moves (no ``Move`` values built)."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.legal_moves.count()
        return len(self._legal_codes())

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """The legal moves: iterate, ``len``, ``in``, ``count()``, as python-chess's."""
        return LegalMoveGenerator(self)

    def move_of(self, code: int) -> Move:
        """The ``Move`` of a core move integer in this board's notation (castling in
        Chess960 as king takes rook)."""
        if self.chess960:
            return core_to_move_960(code, self._castle_rooks)
        return core_to_move(code)

    def core_legal(self) -> np.ndarray:
        """Legal moves as core move integers."""
        if self._pos is None:
            return np.zeros(0, dtype=np.int64)
        return np.array(self._legal_codes(), dtype=np.int64)

    def _code_of(self, move: Move) -> int:
        """Core integer of ``move`` if it is legal here, else 0."""
        if self._pos is None or not isinstance(move, chess.Move):
            return 0
        code = _CODE_OF(id(move), 0)
        if code:
            k = self._known()
            legal = k.legal
            if legal is None:
                legal = k.legal = self._shared_legal(self._legal_codes())
            if code in legal:
                return code
        if self.chess960:
            for code, listed in zip(self._legal_codes(), self._legal_list(), strict=True):
                if listed == move:
                    return code
            return 0
        k = self._known()
        names = k.names
        if names is None:
            names = k.names = {}
            for code in self._legal_codes():
                name = code & 0xFFF
                promotion = core_to_move(code).promotion
                names[name | (promotion << 12 if promotion else 0)] = code
        promotion = move.promotion
        name = move.from_square | move.to_square << 6 | (promotion << 12 if promotion else 0)
        return names.get(name, 0)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.is_legal(move)
        # python-chess reads king-takes-rook as castling in standard chess too (not the
        # king's two-square step in Chess960).
        return self._code_of(move) != 0 or (
            not self.chess960 and self._code_of(self._castling_alias(move)) != 0
        )

    def push(self, move: Move) -> None:
        """Play a legal move (a python-chess ``Move`` too, or ``Move.null()`` to pass);
        IllegalMoveError, the board unchanged, if it is not legal here."""
        k = self._k
        if k is not None and (legal := k.legal) is not None and (code := _CODE_OF(id(move), 0)) \
                in legal:  # fmt: skip
            # A shared move (as the legal moves are) whose integer is legal here.
            grew = self._push(self._h, code)
        else:
            pos = self._pos
            if pos is None or self.chess960:
                self._push_slow(move)
                return
            try:
                promotion = move.promotion
                name = move.from_square | move.to_square << 6 | (promotion << 12 if promotion
                                                                 else 0)  # fmt: skip
            except (AttributeError, TypeError):
                raise IllegalMoveError(f"not a move: {move!r}") from None
            # The null move's name (0) names no legal move: it takes the slow path too.
            grew = self._c.push_named(self._h, name)
            if grew == 0:
                self._push_slow(move)
                return
            grew &= _GREW
        if grew:
            self._read_arrays()
        self._saved.append(k)
        self._k = None
        self._stack.append(move)

    def _push_slow(self, move: Move) -> None:
        """``push`` for what the one-call path does not take: Chess960, the null move, king
        takes own rook written as castling, unplayable positions, and refusals."""
        if not isinstance(move, chess.Move):
            raise IllegalMoveError(f"not a move: {move!r}")
        if self._pos is None:
            assert self._pc is not None
            self._pc.push(move)
            return
        if not move:
            if self._c.in_check(self._pos):
                raise IllegalMoveError(f"illegal null move: the side to move is in check in "
                                       f"{self.fen()}")  # fmt: skip
            grew = self._c.push_pass(self._pos)
        else:
            code = self._code_of(self._castling_alias(move))
            if code == 0:
                raise IllegalMoveError(f"illegal move: {move.uci()} in {self.fen()}"
                                       f"{self._why_illegal(move)}")  # fmt: skip
            grew = self._c.push_code(self._pos, code)
        if grew:
            self._read_arrays()
        self._saved.append(self._k)
        self._k = None
        self._stack.append(move)

    def _castling_alias(self, move: Move) -> Move:
        """The move itself, or the castling it names in the other notation (overridden by
        the board, which knows the pieces)."""
        return move

    def _why_illegal(self, move: Move) -> str:
        """A short reason a move is not legal, beginning with ``": "`` (the board says more)."""
        return ""

    def pop(self) -> Move:
        """Take back the last move and return it; IndexError if there is none."""
        if self._pos is None:
            assert self._pc is not None
            return self._pc.pop()
        move = self._stack.pop()
        self._pop(self._h)
        self._k = self._saved.pop()
        return move

    @property
    def move_stack(self) -> list[Move]:
        """The moves played since the position was set up (the board's own list)."""
        if self._pc is not None:
            return self._pc.move_stack
        return self._stack

    def peek(self) -> Move:
        """The last move played; IndexError if there is none."""
        return self.move_stack[-1]

    def clear_stack(self) -> None:
        """Forget the history: the current position becomes the root (as python-chess)."""
        if self._pos is None:
            assert self._pc is not None
            self._pc.clear_stack()
            return
        self.set_fen(self.fen(en_passant="fen"))


def _is_castling_code(code: int) -> bool:
    """Whether a core move integer castles (flag 2 or 3, whatever its capture bit)."""
    flags = code & _CASTLE_FLAGS
    return flags in (FLAG_KING_CASTLE << FLAG_SHIFT, FLAG_QUEEN_CASTLE << FLAG_SHIFT)


def _status_text(board: chess.Board) -> str:
    """What makes python-chess's ``board`` unplayable, in words (its status flags)."""
    status = board.status()
    names = [flag.name.lower().replace("_", " ") for flag in chess.Status
             if flag and flag in status and flag.name]  # fmt: skip
    return ", ".join(names) or "not a valid position"
