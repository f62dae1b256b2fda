"""One engine search at a time, its callbacks delivered on the owner's thread, stale ones dropped.

The engine searches in its own thread and calls back from there. A session's state
lives on the event loop's thread, so every callback is handed over with ``post`` (e.g.
``loop.call_soon_threadsafe``) and dropped on arrival when the session has moved on
(a newer search, an undo, a closed tab): each search carries a generation number.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from plies.board import Board
from plies.engine import Engine, Info, Limit, SearchResult

Post = Callable[[Callable[[], None]], None]

#: Transposition table per browser tab, in MB: small, since a tab may open several.
HASH_MB = 8


class SearchRunner:
    """Owns one engine; starts, stops and forgets searches for one session."""

    def __init__(self, post: Post) -> None:
        """Create the runner; the engine is built on first use."""
        self._post = post
        self._engine: Engine | None = None
        self._generation = 0
        self.searching = False
        """Whether a search is under way whose result is still wanted."""

    @property
    def engine(self) -> Engine:
        """The engine, created on first use."""
        if self._engine is None:
            self._engine = Engine(hash_mb=HASH_MB)
        return self._engine

    def start(
        self,
        board: Board,
        limit: Limit,
        describe: Callable[[Board, Info], dict[str, Any]],
        on_info: Callable[[dict[str, Any]], None],
        on_done: Callable[[SearchResult], None],
    ) -> None:
        """Search ``board``; ``on_info``/``on_done`` run on the owner's thread while current.

        ``describe`` turns each iteration into JSON in the search thread (SAN takes a
        moment, and the event loop should not wait for it) with its own copy of the board.
        """
        self.cancel()
        self._generation += 1
        generation = self._generation
        self.searching = True
        snapshot = board.copy()

        def info_arrived(info: Info) -> None:
            """In the search thread: describe, then hand over."""
            payload = describe(snapshot, info)
            self._post(lambda: self._deliver_info(generation, payload, on_info))

        def done(result: SearchResult) -> None:
            """In the search thread: hand the result over."""
            self._post(lambda: self._deliver_done(generation, result, on_done))

        self.engine.start(snapshot, limit, on_info=info_arrived, on_done=done)

    def _deliver_info(
        self, generation: int, payload: dict[str, Any], on_info: Callable[[dict[str, Any]], None]
    ) -> None:
        """On the owner's thread: pass ``payload`` on if its search is still current."""
        if generation == self._generation and self.searching:
            on_info(payload)

    def _deliver_done(
        self, generation: int, result: SearchResult, on_done: Callable[[SearchResult], None]
    ) -> None:
        """On the owner's thread: pass the result on if its search is still current."""
        if generation == self._generation and self.searching:
            self.searching = False
            on_done(result)

    def stop(self) -> None:
        """Ask the search to finish now; its best move so far is still delivered."""
        if self._engine is not None and self.searching:
            self._engine.stop()

    def cancel(self) -> None:
        """Stop the search and forget it: its result will not be delivered."""
        self._generation += 1
        self.searching = False
        engine = self._engine
        if engine is not None and engine.is_searching():
            engine.stop()
            engine.wait()
