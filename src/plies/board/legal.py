"""``LegalMoveGenerator``: ``board.legal_moves``, python-chess's live view of the legal moves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from chess import Move

if TYPE_CHECKING:
    from plies.board.state import BoardState


class LegalMoveGenerator:
    """The legal moves of a board's current position: iterate, ``len``, ``in``, ``count()``.

    As python-chess's, it is a view: it always shows the board's position of the moment.
    Iterating gives the moves of the position when iteration began, so a loop may push and
    pop moves as it goes.
    """

    __slots__ = ("board",)

    def __init__(self, board: BoardState) -> None:
        """A view of ``board``'s legal moves."""
        self.board = board

    def __iter__(self) -> Iterator[Move]:
        """The legal moves, in the core's generation order."""
        return iter(self.board._legal_list())

    def __len__(self) -> int:
        """Number of legal moves."""
        return self.board._legal_count()

    def count(self) -> int:
        """Number of legal moves."""
        return self.board._legal_count()

    def __bool__(self) -> bool:
        """Whether there is a legal move."""
        return self.board._legal_count() > 0

    def any(self) -> bool:
        """Whether there is a legal move."""
        return self.board._legal_count() > 0

    def __contains__(self, move: object) -> bool:
        """Whether ``move`` is legal."""
        return isinstance(move, Move) and self.board.is_legal(move)

    def __getitem__(self, index: int) -> Move:
        """The legal move at ``index`` of the generation order (a plies convenience)."""
        return self.board._legal_list()[index]

    def __repr__(self) -> str:
        """``<LegalMoveGenerator at 0x... (Nh3, Nf3, ...)>``, as python-chess."""
        board = self.board
        sans = ", ".join(board.san(move) for move in self)  # type: ignore[attr-defined]
        return f"<LegalMoveGenerator at {id(self):#x} ({sans})>"
