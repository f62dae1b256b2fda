"""A player with an opening book: book moves while the book knows the position, then its own.

Wraps any player.  While a Polyglot book (:class:`plies.board.polyglot.OpeningBook`)
has a legal move for the position, that move is played at once (picked
``weighted`` at random by the player's seeded RNG, or the ``best``); after
that, the wrapped player thinks as usual.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from plies.agents.player import Player
from plies.engine.limits import Info, Limit

if TYPE_CHECKING:
    from plies.board import Board
    from plies.board.polyglot import OpeningBook


class BookPlayer(Player):
    """``inner`` with an opening book in front of it."""

    def __init__(self, inner: Player, book: OpeningBook, mode: str = "weighted",
                 seed: int | None = None) -> None:
        """Play from ``book`` (owned: closed with the player), then let ``inner`` play."""
        self.inner = inner
        self.book = book
        self.mode = mode
        self.seed = seed
        self.rng = random.Random(seed)
        self.name = inner.name
        self.from_book = False
        """Whether the last move came from the book."""

    def play(self, board: Board, limit: Limit) -> Info:
        """The book move if there is one, else the wrapped player's."""
        found = self.book.choose(board, self.mode, self.rng)
        self.from_book = found is not None
        if found is not None:
            self.last = Info(move=found)
            return self.last
        self.inner.on_info = self.on_info
        try:
            self.last = self.inner.play(board, limit)
        finally:
            self.healthy = self.inner.healthy
        return self.last

    def new_game(self, seed: int | None = None) -> None:
        """New game for both the book's RNG and the wrapped player."""
        if seed is not None:
            self.seed = seed
        self.rng = random.Random(self.seed)
        self.last = None
        try:
            self.inner.new_game(seed)
        finally:
            self.healthy = self.inner.healthy

    def warm_up(self) -> None:
        """Warm up the wrapped player (if it has anything to warm up)."""
        from plies.agents.ladder import warm_up

        warm_up(self.inner)

    def stop(self) -> None:
        """Stop the wrapped player's search."""
        self.inner.stop()

    def close(self) -> None:
        """Close the wrapped player and the book."""
        self.inner.close()
        self.book.close()
