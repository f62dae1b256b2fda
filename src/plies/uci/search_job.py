"""The search or job in flight: started, its ``bestmove`` held or released, reported once.

Whatever thread gets there first (the search's callback, ``stop`` read by the reader
thread, the main thread finishing the search before the next command) prints it; the
others find it printed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from plies.options import shorten
from plies.uci.book import UciBook
from plies.uci.channel import Output
from plies.uci.jobs import Canceller, Job
from plies.uci.lines import bestmove_line, info_line
from plies.uci.protocol import Go

if TYPE_CHECKING:
    from plies.board import Board, Move
    from plies.engine import Engine, Info, Limit

# How long to wait for a stopped search's callback before reporting it ourselves.
STOP_GRACE_S = 10.0


@dataclass
class _Search:
    """One ``go``: its root position, whether ``bestmove`` is held back, and its outcome."""

    board: Board
    infinite: bool
    hold: bool
    result: Info | None = None
    done: bool = False
    reported: threading.Event = field(default_factory=threading.Event)


class InFlight:
    """At most one search or job at a time, and the ``bestmove`` each search owes."""

    def __init__(
        self,
        out: Output,
        engine: Callable[[], Engine],
        started: Callable[[], Engine | None],
        show_wdl: Callable[[], object],
    ) -> None:
        """Nothing in flight; ``engine`` waits for the engine, ``started`` does not."""
        self._out = out
        self._engine = engine
        self._started = started
        self._show_wdl = show_wdl
        self._search: _Search | None = None
        self._job: Job | None = None
        self._lock = threading.Lock()

    def go(self, board: Board, command: Go, book: UciBook, started_at: float | None) -> None:
        """Search ``board`` (the loop's own copy); ``bestmove`` follows from the search thread."""
        hold = command.limit.infinite or command.ponder
        search = _Search(board, infinite=command.limit.infinite, hold=hold)
        legal = board.legal_moves
        if not legal:
            # A finished game: nothing to search; report it like a search that ended.
            mate = board.is_check()
            self._out.send("info depth 0 score " + ("mate 0" if mate else "cp 0"))
            self._adopt(search)
            self._search_done(search, None)
            return
        book_move = None if hold or command.searchmoves else book.move(board)
        if book_move is not None:  # played at once, without a search
            self._out.info_string(f"book move {book_move.uci()}")
            self._adopt(search)
            self._search_done(search, None, fallback=book_move)
            return
        searchmoves = self._searchmoves(board, command.searchmoves)
        try:
            engine = self._engine()
            self._adopt(search)
            engine.start(
                board,
                limit_for(command),
                on_info=self._on_info,
                on_done=lambda result: self._search_done(search, result),
                searchmoves=searchmoves,
                ponder=command.ponder,
                started_at=started_at,
            )
        except Exception:
            # No search is running: answer anyway so a GUI waiting for bestmove moves on.
            with self._lock:
                search.hold = False
            self._adopt(search)
            self._search_done(search, None, fallback=legal[0])
            raise

    def _adopt(self, search: _Search) -> None:
        """Make ``search`` the one in flight."""
        with self._lock:
            self._search = search

    def _searchmoves(self, board: Board, texts: tuple[str, ...]) -> list[Move] | None:
        """The legal moves among ``searchmoves`` (None: search everything)."""
        from plies.board import IllegalMoveError

        if not texts:
            return None
        moves: list[Move] = []
        for text in texts:
            move: Move | None
            try:
                move = board.parse_uci(text)  # e1h1 or e1g1 for castling, as in ``position``
            except (IllegalMoveError, ValueError):
                move = None
            if move is not None and not move:
                move = None  # "0000" (a null move) is no move to search
            if move is None:
                self._out.info_string(f"searchmoves: {shorten(text)!r} is not legal here, skipped")
            elif move not in moves:
                moves.append(move)
        if not moves:
            self._out.info_string("searchmoves: no legal move given, searching all moves")
            return None
        return moves

    def _on_info(self, info: Info) -> None:
        """Search-thread callback: print one iteration."""
        self._out.send(info_line(info, show_wdl=self._show_wdl() is True))

    def _search_done(
        self, search: _Search, result: Info | None, fallback: Move | None = None
    ) -> None:
        """Search-thread callback: remember the result; print it unless it is held."""
        with self._lock:
            search.result = result
            search.done = True
            if search.hold:
                return
        self._report(search, fallback)

    def _report(self, search: _Search, fallback: Move | None = None) -> None:
        """Print ``bestmove`` once per search."""
        with self._lock:
            if search.reported.is_set():
                return
            search.reported.set()
        best, ponder = fallback, None
        result = search.result
        if result is not None:
            best, ponder = result.move, result.ponder
            if ponder is None and len(result.pv) > 1:
                ponder = result.pv[1]
        legal = search.board.legal_moves
        if best is not None and best not in legal:
            # Never hand a GUI an illegal move: that loses the game on the spot.
            self._out.info_string(f"engine returned illegal move {best.uci()}; playing a legal one")
            best, ponder = legal[0], None
        if best is None and legal:
            best = legal[0]
        self._out.send(bestmove_line(search.board, best, ponder))

    def stop(self) -> None:
        """End the search or job in flight; its ``bestmove`` is printed when it has stopped."""
        job = self._job
        if job is not None:
            job.cancel()
        self._release(lambda engine: engine.stop(), keep_infinite=False)

    def ponderhit(self) -> None:
        """The ponder move was played: the search now counts (and may end on its own)."""
        self._release(lambda engine: engine.ponderhit(), keep_infinite=True)

    def _release(self, tell: Callable[[Engine], None], keep_infinite: bool) -> None:
        """``tell`` a running search's engine, then lift the hold on its ``bestmove`` (an
        infinite search keeps it with ``keep_infinite``)."""
        search = self._search
        if search is None or search.reported.is_set():
            return
        engine = self._started()
        if engine is not None and not search.done:
            tell(engine)
        with self._lock:
            search.hold = search.infinite if keep_infinite else False
            ready = search.done and not search.hold
        if ready:
            self._report(search)

    def finish(self) -> None:
        """Stop any search or job, wait for it, and make sure its ``bestmove`` went out."""
        job = self._job
        if job is not None:
            job.cancel()
            job.wait()
            self._job = None
        search = self._search
        if search is None:
            return
        if not search.reported.is_set():
            self.stop()
        engine = self._started()
        if engine is not None:
            # Even after ``bestmove`` went out the search thread may still be
            # returning from its callback; the engine takes no new search until then.
            engine.wait()
        if not search.reported.wait(STOP_GRACE_S):
            # The engine ended without calling back: report what it returned.
            with self._lock:
                search.done = True
                search.hold = False
            self._report(search)
        with self._lock:
            if self._search is search:
                self._search = None

    def start_job(self, name: str, body: Callable[[Canceller], None]) -> None:
        """Run ``body`` in the background (after :meth:`finish`); an error in it becomes an
        ``info string``."""

        def guarded(canceller: Canceller) -> None:
            """The job's thread: never lets an exception escape silently."""
            try:
                body(canceller)
            except Exception as exc:
                self._out.info_string(f"{name} failed: {type(exc).__name__}: {shorten(str(exc))}")

        self._job = Job(name, guarded)


def limit_for(command: Go) -> Limit:
    """The engine :class:`Limit` of a ``go`` command (clocks clamped to sane values)."""

    def clock(ms: int | None) -> int | None:
        """A remaining time of at least 1 ms (GUIs may send 0 or the overdraft)."""
        return None if ms is None else max(1, ms)

    def inc(ms: int | None) -> int | None:
        """An increment of at least 0 ms."""
        return None if ms is None else max(0, ms)

    limit = command.limit
    # A ``go`` without any limit (bare ``go``, ``go ponder``) runs until ``stop``.
    return replace(
        limit,
        wtime=clock(limit.wtime),
        btime=clock(limit.btime),
        winc=inc(limit.winc),
        binc=inc(limit.binc),
        infinite=limit.is_unbounded(),
    )
