"""An agent with an opening book: book moves while the book knows the position, then its own.

Wraps any agent.  While a Polyglot book (:class:`plies.board.polyglot.OpeningBook`)
has a legal move for the position, that move is played at once (picked
``weighted`` at random by the agent's seeded RNG, or the ``best``); after
that, the wrapped agent thinks as usual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.agents.base import Agent, Budget

if TYPE_CHECKING:
    from plies.board import Board, Move
    from plies.board.polyglot import OpeningBook


class BookAgent(Agent):
    """``inner`` with an opening book in front of it."""

    def __init__(self, inner: Agent, book: OpeningBook, mode: str = "weighted",
                 seed: int | None = None) -> None:
        """Play from ``book`` (owned: closed with the agent), then let ``inner`` choose."""
        super().__init__(seed)
        self.inner = inner
        self.book = book
        self.mode = mode
        self.name = inner.name
        self.from_book = False
        """Whether the last move came from the book."""

    def choose(self, board: Board, budget: Budget | None = None) -> Move:
        """The book move if there is one, else the wrapped agent's choice."""
        from plies.board import Move

        found = self.book.choose(board, self.mode, self.rng)
        self.from_book = found is not None
        if found is not None:
            self.last = None
            return Move.from_uci(found.uci())
        self.inner.on_info = self.on_info
        move = self.inner.choose(board, budget)
        self.last = self.inner.last
        return move

    def reset(self, seed: int | None = None) -> None:
        """New game for both the book's RNG and the wrapped agent."""
        super().reset(seed)
        self.inner.reset(seed)

    def warm_up(self) -> None:
        """Warm up the wrapped agent."""
        self.inner.warm_up()

    def stop(self) -> None:
        """Stop the wrapped agent's search."""
        super().stop()
        self.inner.stop()

    def close(self) -> None:
        """Close the wrapped agent and the book."""
        self.inner.close()
        self.book.close()
