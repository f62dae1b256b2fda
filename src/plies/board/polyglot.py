"""Polyglot opening books (``.bin``), read with python-chess's :mod:`chess.polyglot`.

A Polyglot book is a file of 16-byte entries sorted by position key: the
key (the Polyglot Zobrist hash of the position), the move, a weight and a
learn field.  :class:`OpeningBook` opens one after checking that it looks
like a book (a whole number of entries, at least one), lists the legal book
moves of a position and picks one: ``"weighted"`` at random in proportion
to the weights (variety), or ``"best"``, the heaviest (ties: the first in
the file).  Entries with weight 0 are never played, as in Polyglot.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

import chess
import chess.polyglot

if TYPE_CHECKING:
    from plies.board import Board

ENTRY_BYTES = 16
"""Size of one Polyglot entry: key (8), move (2), weight (2), learn (4)."""
BOOK_MODES = ("weighted", "best")
"""How a move is picked among a position's book moves."""


class BookError(ValueError):
    """The file is not a usable Polyglot book (missing, unreadable, empty or malformed)."""


def _as_chess(board: chess.Board | Board) -> chess.Board:
    """A python-chess board of the same position (the key needs no history)."""
    if isinstance(board, chess.Board):
        return board
    return chess.Board(board.fen(), chess960=board.chess960)


class OpeningBook:
    """An open Polyglot book; use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path) -> None:
        """Open ``path``, raising :class:`BookError` with a one-line reason if it is unusable."""
        p = Path(path)
        self.path = p
        """The book file."""
        if not p.exists():
            raise BookError(f"no such book file: {p}")
        if not p.is_file():
            raise BookError(f"not a book file: {p}")
        try:
            size = p.stat().st_size
        except OSError as exc:
            raise BookError(f"cannot read {p}: {exc.strerror or exc}") from None
        if size == 0:
            raise BookError(f"empty book file: {p}")
        if size % ENTRY_BYTES:
            raise BookError(
                f"not a Polyglot book: {p} is {size} bytes, not a multiple of {ENTRY_BYTES}"
            )
        try:
            self._reader = chess.polyglot.open_reader(p)
        except (OSError, ValueError) as exc:
            raise BookError(f"cannot read {p}: {exc}") from None
        self.entries = size // ENTRY_BYTES
        """Number of entries in the file."""

    def moves(self, board: chess.Board | Board) -> list[tuple[chess.Move, int]]:
        """The legal book moves of ``board`` with their weights, in file order."""
        return [(e.move, e.weight) for e in self._reader.find_all(_as_chess(board))]

    def choose(
        self, board: chess.Board | Board, mode: str = "weighted", rng: random.Random | None = None
    ) -> chess.Move | None:
        """A book move for ``board`` picked by ``mode``, or None when out of book."""
        if mode not in BOOK_MODES:
            raise ValueError(f"book mode must be one of {', '.join(BOOK_MODES)}, got {mode!r}")
        found = self.moves(board)
        if not found:
            return None
        if mode == "best":
            return max(found, key=lambda mw: mw[1])[0]
        chooser = rng or random.Random()
        return chooser.choices([m for m, _ in found], weights=[w for _, w in found])[0]

    def close(self) -> None:
        """Release the file."""
        self._reader.close()

    def __enter__(self) -> OpeningBook:
        """Use as a context manager."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close on leaving the ``with`` block."""
        self.close()
