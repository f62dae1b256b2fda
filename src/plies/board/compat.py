"""``PythonChessSurface``: the rest of python-chess's ``Board``, computed by python-chess.

What a search calls per node is the board's own compiled work. The set-up editors (pieces,
castling rights, EPD, Chess960 numbers), the pseudo-legal move generators, ``status()``,
xboard and long algebraic notation are python-chess's own methods, run on python-chess's
board of the same position: they answer exactly as python-chess does, including for
positions the rules cannot apply to, and an editor's result is taken back into the board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Self

import chess
from chess import Move

from plies.board.rules import GameRules

READS = (
    "board_fen_with_promoted", "chess960_pos", "clean_castling_rights", "epd",
    "generate_castling_moves", "generate_legal_captures", "generate_legal_ep",
    "generate_pseudo_legal_captures", "generate_pseudo_legal_ep", "generate_pseudo_legal_moves",
    "has_chess960_castling_rights", "has_legal_en_passant", "has_pseudo_legal_en_passant",
    "is_pseudo_legal", "lan", "parse_xboard", "status",
    "was_into_check", "xboard",
)  # fmt: skip
"""python-chess methods answered by python-chess's board of the position (no history)."""

EDITS = (
    "apply_mirror", "apply_transform", "clear", "clear_board", "remove_piece_at", "reset",
    "reset_board", "set_board_fen", "set_castling_fen", "set_chess960_pos", "set_epd",
    "set_piece_at", "set_piece_map",
)  # fmt: skip
"""python-chess editors: run on python-chess's board, the result taken back (history cleared,
as python-chess's own editors clear it)."""


_CASTLING_KING_MOVES = {
    (chess.E1, chess.H1): chess.G1, (chess.E1, chess.A1): chess.C1,
    (chess.E8, chess.H8): chess.G8, (chess.E8, chess.A8): chess.C8,
}  # fmt: skip
"""A king on its home square "taking" a corner, as python-chess's ``find_move`` reads it."""


def _read(name: str) -> Callable[..., Any]:
    """A method answering as python-chess's ``Board.<name>`` on this position."""

    def method(self: PythonChessSurface, *args: Any, **kwargs: Any) -> Any:
        return getattr(self._python_chess_view(stack=False), name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"As python-chess's ``Board.{name}``, on this position."
    return method


def _edit(name: str) -> Callable[..., Any]:
    """A method editing the position as python-chess's ``Board.<name>`` does."""

    def method(self: PythonChessSurface, *args: Any, **kwargs: Any) -> Any:
        board = self._python_chess_view(stack=False)
        result = getattr(board, name)(*args, **kwargs)
        self._adopt_python_chess(board)
        return result

    method.__name__ = name
    method.__doc__ = f"As python-chess's ``Board.{name}``: edits the position, clears the history."
    return method


class PythonChessSurface(GameRules):
    """python-chess's ``Board`` methods beyond the per-node ones (see the module docstring)."""

    __slots__ = ()

    if TYPE_CHECKING:
        # Made from python-chess's methods below the class (READS, EDITS); typed here.
        def set_epd(self, epd: str) -> dict[str, Any]: ...
        def epd(self, **operations: Any) -> str: ...
        def parse_xboard(self, xboard: str) -> Move: ...
        def is_pseudo_legal(self, move: Move) -> bool: ...
        def status(self) -> chess.Status: ...
        def lan(self, move: Move) -> str: ...
        def xboard(self, move: Move, chess960: bool | None = None) -> str: ...
        def set_piece_at(self, square: int, piece: chess.Piece | None,
                         promoted: bool = False) -> None: ...  # fmt: skip
        def remove_piece_at(self, square: int) -> chess.Piece | None: ...
        def set_board_fen(self, fen: str) -> None: ...
        def set_piece_map(self, pieces: dict[int, chess.Piece]) -> None: ...
        def clear(self) -> None: ...
        def reset(self) -> None: ...
        def apply_mirror(self) -> None: ...
        def apply_transform(self, f: Callable[[int], int]) -> None: ...
        def set_chess960_pos(self, scharnagl: int) -> None: ...
        def chess960_pos(self) -> int | None: ...
        def clean_castling_rights(self) -> int: ...
        def set_castling_fen(self, castling_fen: str) -> None: ...

    uci_variant = "chess"
    """The UCI name of the variant (standard chess)."""
    xboard_variant = "normal"
    """The xboard name of the variant."""
    starting_fen = chess.STARTING_FEN
    """FEN of the variant's starting position."""
    aliases = chess.Board.aliases
    """Names of the variant (python-chess's)."""
    connected_kings = False
    """Whether the kings may touch (not in standard chess)."""
    one_king = True
    """Whether each side has exactly one king."""
    captures_compulsory = False
    """Whether captures are compulsory (not in standard chess)."""

    @property
    def pseudo_legal_moves(self) -> chess.PseudoLegalMoveGenerator:
        """The pseudo-legal moves (python-chess's generator, on this position)."""
        return self._python_chess_view(stack=False).pseudo_legal_moves

    def generate_legal_moves(self, from_mask: int = chess.BB_ALL,
                             to_mask: int = chess.BB_ALL) -> list[Move]:  # fmt: skip
        """The legal moves from ``from_mask`` to ``to_mask`` squares."""
        return [m for m in self._legal_list()
                if from_mask >> m.from_square & 1 and to_mask >> m.to_square & 1]  # fmt: skip

    @classmethod
    def from_epd(cls, epd: str, *, chess960: bool = False) -> tuple[Self, dict[str, Any]]:
        """A board from an EPD line and the line's operations (as python-chess)."""
        board = cls(None, chess960=chess960)
        return board, board.set_epd(epd)

    def mirror(self) -> Self:
        """The position with colours swapped and the board flipped (no history)."""
        board = self.copy(stack=False)
        board.apply_mirror()
        return board

    def transform(self, f: Callable[[int], int]) -> Self:
        """The position with every bitboard mapped through ``f`` (no history)."""
        board = self.copy(stack=False)
        board.apply_transform(f)
        return board

    def find_move(self, from_square: int, to_square: int,
                  promotion: int | None = None) -> Move:  # fmt: skip
        """As python-chess's ``Board.find_move``: the legal move between the squares, a pawn
        reaching the last rank promoting to a queen unless told, and (outside Chess960) a king
        on e1 or e8 taking its own rook's corner read as castling."""
        kind = self.piece_type_at(from_square)
        if promotion is None and kind == chess.PAWN and chess.square_rank(to_square) in (0, 7):
            promotion = chess.QUEEN
        target = to_square
        if not self.chess960 and promotion is None and kind == chess.KING:
            target = _CASTLING_KING_MOVES.get((from_square, to_square), to_square)
        move = Move(from_square, target, promotion)
        if not self.is_legal(move):
            raise chess.IllegalMoveError(
                f"no matching legal move for {move.uci()} ({chess.SQUARE_NAMES[from_square]} -> "
                f"{chess.SQUARE_NAMES[to_square]}) in {self.fen()}")
        return move

    def san_and_push(self, move: Move) -> str:
        """SAN of ``move``, then play it."""
        text: str = self.san(move)  # type: ignore[attr-defined]
        self.push(move)
        return text

    def push_xboard(self, text: str) -> Move:
        """Play a move in xboard notation and return it."""
        move = self.parse_xboard(text)
        self.push(move)
        return move

    def to_chess(self) -> chess.Board:
        """The equivalent python-chess board, move history included."""
        if self._pc is not None:
            return self._pc.copy()
        return self._python_chess_view(stack=True)

    @classmethod
    def from_chess(cls, board: chess.Board) -> Self:
        """A plies board from a python-chess board, move history included."""
        result = cls(None, chess960=board.chess960)
        root = board.root()
        result._adopt_python_chess(root)
        for move in board.move_stack:
            result.push(move)
        return result


for _name in READS:
    setattr(PythonChessSurface, _name, _read(_name))
for _name in EDITS:
    setattr(PythonChessSurface, _name, _edit(_name))
