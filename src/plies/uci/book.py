"""The UCI side of opening books: the OwnBook, BookFile and BookMode options and their state.

With ``OwnBook`` on and a ``BookFile`` loaded, ``go`` in a book position
answers at once with a book move (an ``info string`` names it) instead of
searching; ``go infinite``, ``go ponder`` and ``searchmoves`` always search.
A ``BookFile`` that cannot be read is refused with its reason and the
previous book stays in use.  Modules are imported on first use so that
``uci`` is still answered at once.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from plies.options import BOOK_OPTIONS, OptionValue

if TYPE_CHECKING:
    from plies.board import Board, Move
    from plies.board.polyglot import OpeningBook

_NAMES = frozenset(o.name for o in BOOK_OPTIONS)


class UciBook:
    """Which book, whether to use it, and how to pick its moves."""

    def __init__(self, seed: int | None = None) -> None:
        """No book, OwnBook off, weighted picks."""
        self.own_book = False
        """Whether ``go`` may answer from the book."""
        self.mode = "weighted"
        """``weighted`` or ``best``."""
        self.book: OpeningBook | None = None
        """The loaded book, if any."""
        self._rng = random.Random(seed)

    @staticmethod
    def handles(name: str) -> bool:
        """Whether ``name`` (as declared) is a book option."""
        return name in _NAMES

    def set_option(self, name: str, value: OptionValue) -> None:
        """Apply a checked option value; a bad book file raises ValueError and changes nothing."""
        if name == "OwnBook":
            self.own_book = bool(value)
        elif name == "BookMode":
            self.mode = str(value).lower()
        elif name == "BookFile":
            path = str(value or "").strip()
            new = None
            if path:
                from plies.board.polyglot import OpeningBook

                new = OpeningBook(path)  # raises BookError (a ValueError) with the reason
            if self.book is not None:
                self.book.close()
            self.book = new

    def move(self, board: Board) -> Move | None:
        """The book move to play in ``board``, or None (no book, OwnBook off, out of book)."""
        if not self.own_book or self.book is None:
            return None
        from plies.board import Move

        found = self.book.choose(board, self.mode, self._rng)
        return None if found is None else Move.from_uci(found.uci())
