"""The one UCI loop: reads commands, keeps the position, drives the engine, prints replies.

A reader thread reads lines into a queue; the main thread dispatches them;
the engine searches in its own thread and reports through callbacks that
print ``info`` and ``bestmove`` via the locked :class:`Output`.  Long extra
commands (``perft``, ``bench``) run as background jobs (``plies.uci.jobs``),
so while anything runs ``isready`` is answered and ``stop``/``quit`` act at
once.  Every command runs inside a guard, so a malformed line or an
unexpected error becomes an ``info string`` and the loop carries on with its
state intact.

The engine is created and compiled in a background thread as soon as the
loop starts; ``isready`` (and anything that needs the engine) waits for it.
Even the board is imported lazily, so ``uci`` is answered at once while
numba loads.
A search started with ``go infinite`` or ``go ponder`` holds its
``bestmove`` until ``stop`` (or ``ponderhit``), as the protocol demands.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import plies
from plies.compile_notice import compile_wait_notice
from plies.options import (
    CHESS960,
    CLEAR_HASH,
    HASH,
    LOOP_OPTIONS,
    MOVE_OVERHEAD,
    NET_OPTIONS,
    OPTIONS,
    SHOW_WDL,
    SYZYGY_PATH,
    TUNE_OPTIONS,
    OptionError,
    OptionValue,
    find_option,
    shorten,
)
from plies.uci.book import UciBook
from plies.uci.channel import Output, OverlongLine
from plies.uci.jobs import Canceller, Job
from plies.uci.lines import bestmove_line, info_line
from plies.uci.net import net_status
from plies.uci.protocol import (
    COMMAND_NAMES,
    Bench,
    Command,
    Debug,
    Display,
    Eval,
    Go,
    Help,
    IsReady,
    PonderHit,
    Position,
    Quit,
    Register,
    SetOption,
    Stop,
    Uci,
    UciNewGame,
    UciParseError,
    parse_command,
)

if TYPE_CHECKING:
    from plies.board import Board, Move
    from plies.engine import Engine, Info, Limit, SearchResult

ENGINE_NAME = f"plies {plies.__version__}"
ENGINE_AUTHOR = "The plies developers"

# After this long without the engine being ready, ``isready`` says why it waits.
COMPILE_NOTICE_DELAY_S = 1.0

# How long to wait for a stopped search's callback before reporting it ourselves.
STOP_GRACE_S = 10.0

# A ``go`` read this soon after ``position`` was sent with it: its clock started then.
POSITION_GO_GAP_S = 0.1

# How often a wait for the engine's compile looks whether ``quit`` arrived.
QUIT_POLL_S = 0.05

EngineFactory = Callable[[int], "Engine"]

# What the reader thread queues: a line, the time it was read and its number; None at the end.
_Inbox = queue.Queue[tuple[str | OverlongLine, float, int] | None]


class _QuitError(Exception):
    """``quit`` arrived while a command was waiting for the engine: leave now."""


@dataclass
class _Search:
    """One ``go``: its root position, whether ``bestmove`` is held back, and its outcome."""

    board: Board
    infinite: bool
    hold: bool
    result: SearchResult | None = None
    done: bool = False
    reported: threading.Event = field(default_factory=threading.Event)


def _default_factory(hash_mb: int) -> Engine:
    """Create the real engine."""
    from plies.engine import Engine

    with warnings.catch_warnings():
        # The loop reports an unusable default net itself, as one ``info string``.
        warnings.simplefilter("ignore", RuntimeWarning)
        return Engine(hash_mb)


class UciLoop:
    """The UCI state machine: position, options, the engine and the search in flight."""

    def __init__(
        self, out: Output, engine_factory: EngineFactory | None = None, tune: bool = False
    ) -> None:
        """Set up the start position; call :meth:`run` (or :meth:`handle`) to drive it.

        ``tune`` declares the search's tunable numbers as options too (``plies uci --tune``).
        """
        self.out = out
        self._board: Board | None = None
        self.options = OPTIONS + TUNE_OPTIONS if tune else OPTIONS
        """The options declared in reply to ``uci`` and accepted by ``setoption``."""
        self.values: dict[str, OptionValue] = {o.name: o.default for o in self.options}
        self._factory = engine_factory or _default_factory
        self._engine: Engine | None = None
        self._engine_error: BaseException | None = None
        self._ready = threading.Event()
        # Set by the warm-up thread when the engine is not in the compile cache yet.
        self._compiling = threading.Event()
        self._warm_thread: threading.Thread | None = None
        self._search: _Search | None = None
        self._job: Job | None = None
        self._state_lock = threading.Lock()
        self.book = UciBook()
        self._quit_line: int | None = None
        self._line_number = -1
        self._received: float | None = None
        self._clock_start: float | None = None
        # The ``position`` (FEN, moves played) that gave the current board, so the
        # next one, as GUIs send it (the same moves and one or two more), only
        # plays the new moves: replaying a long game at every move costs clock time.
        self._source: tuple[str | None, tuple[str, ...]] | None = None

    @property
    def board(self) -> Board:
        """The current position (the start position until ``position`` says otherwise)."""
        if self._board is None:
            from plies.board import Board

            self._board = Board(chess960=self.chess960)
        return self._board

    @board.setter
    def board(self, board: Board) -> None:
        """Replace the current position."""
        self._board = board
        self._source = None

    @property
    def chess960(self) -> bool:
        """Whether ``UCI_Chess960`` is on: positions play by Chess960's rules."""
        return bool(self.values[CHESS960.name])

    # -- engine start-up -------------------------------------------------------

    def start_engine(self) -> None:
        """Create and compile the engine in a background thread (once)."""
        if self._warm_thread is not None:
            return
        self._warm_thread = threading.Thread(target=self._warm_up, name="uci-warm-up", daemon=True)
        self._warm_thread.start()

    def _warm_up(self) -> None:
        """Thread body: build the engine and compile its search."""
        try:
            # ``warm_up`` compiles (or loads) the board's part first, then the search.
            from plies.engine import prewarm

            if prewarm.cache_is_cold():
                self._compiling.set()
            hash_mb = self.values[HASH.name]
            engine = self._factory(hash_mb if isinstance(hash_mb, int) else HASH.spin_default())
            if engine.net_notice is not None:
                self.out.info_string(shorten(engine.net_notice, 300))
            engine.set_option(MOVE_OVERHEAD.name, self.values[MOVE_OVERHEAD.name])
            engine.warm_up()
            self._engine = engine
        except BaseException as exc:  # reported on first use; the loop itself keeps going
            self._engine_error = exc
        finally:
            self._ready.set()

    @property
    def warming_up(self) -> bool:
        """True while the background compile is still running."""
        return self._warm_thread is not None and self._warm_thread.is_alive()

    def engine(self) -> Engine:
        """The ready engine, waiting for compilation (with a notice) if needed."""
        self.start_engine()
        if not self._ready.wait(COMPILE_NOTICE_DELAY_S):
            told = False
            while not self._ready.wait(QUIT_POLL_S):
                if not told and self._compiling.is_set():
                    self.out.info_string(compile_wait_notice())
                    told = True
                if self._quit_line is not None and self._quit_line == self._line_number + 1:
                    # ``quit`` is the very next command: nothing asked before it is
                    # left to answer, so leave now (a piped script still runs to its end).
                    raise _QuitError
        if self._engine is None:
            err = self._engine_error
            reason = f"{type(err).__name__}: {err}" if err is not None else "unknown error"
            raise RuntimeError(f"the engine failed to start: {reason}")
        return self._engine

    # -- the loop ---------------------------------------------------------------

    def run(self, lines: Iterable[str | OverlongLine]) -> None:
        """Handle lines until ``quit``, end of input or a closed output."""
        self.start_engine()
        inbox: _Inbox = queue.Queue()
        reader = threading.Thread(target=self._read, args=(lines, inbox), name="uci-reader")
        reader.daemon = True
        reader.start()
        try:
            while (item := inbox.get()) is not None:
                line, received, self._line_number = item
                if isinstance(line, OverlongLine):
                    self.out.info_string(f"ignored a line of {line.length} bytes (too long)")
                    continue
                if not self.handle(line, received) or self.out.closed:
                    break
        finally:
            self.shutdown()

    def _read(self, lines: Iterable[str | OverlongLine], inbox: _Inbox) -> None:
        """Reader thread: queue each line with its arrival time; flag ``quit`` at once."""
        try:
            for number, line in enumerate(lines):
                word = line.split()[:1] if isinstance(line, str) else []
                if word == ["quit"] and self._quit_line is None:
                    self._quit_line = number  # a wait for the engine's compile may give up
                elif word == ["stop"]:
                    self._early_stop()
                inbox.put((line, time.perf_counter(), number))
        finally:
            inbox.put(None)

    def _early_stop(self) -> None:
        """Reader thread: act on ``stop`` at once (the main thread handles it again in turn).

        Under load every thread wake-up costs milliseconds; stopping here saves
        the main thread's.  A ``go`` still queued is unaffected: its search
        starts later and the queued ``stop`` ends it.
        """
        with contextlib.suppress(Exception):  # the main thread's own stop reports problems
            self.stop()

    def handle(self, line: str, received: float | None = None) -> bool:
        """Handle one line (read at ``received``); False when the loop should end.  Never raises."""
        try:
            command = parse_command(line)
        except UciParseError as exc:
            self.out.info_string(f"ignored: {exc}")
            return True
        if command is None:
            return True
        # The client's clock for a move starts before it sends ``position``; a
        # ``go`` read right after one (as GUIs send them) counts from there.
        start = self._clock_start
        paired = (
            isinstance(command, Go)
            and start is not None
            and received is not None
            and received - start <= POSITION_GO_GAP_S
        )
        self._received = start if paired else received
        self._clock_start = received if isinstance(command, Position) else None
        try:
            return self.dispatch(command)
        except _QuitError:
            return False
        except Exception as exc:  # the guard: one bad command never ends the engine
            self.out.info_string(f"error: {type(exc).__name__}: {shorten(str(exc), 200)}")
            return True

    def dispatch(self, command: Command) -> bool:
        """Run one parsed command; False for ``quit``."""
        if isinstance(command, Quit):
            return False
        if isinstance(command, Go):
            self.go(command)
        elif isinstance(command, Position):
            self.position(command)
        elif isinstance(command, IsReady):
            # readyok always follows: a GUI waiting for it must never hang, even if
            # the engine failed to start (that failure is reported as info string).
            # A search or job in flight does not delay it.
            try:
                self.engine()
            except _QuitError:
                raise
            except Exception as exc:
                self.out.info_string(f"error: {type(exc).__name__}: {shorten(str(exc), 200)}")
            self.out.send("readyok")
        elif isinstance(command, Stop):
            self.stop()
        elif isinstance(command, PonderHit):
            self.ponderhit()
        elif isinstance(command, Uci):
            self.uci()
        elif isinstance(command, UciNewGame):
            self.finish_search()
            self.engine().new_game()
        elif isinstance(command, SetOption):
            self.setoption(command)
        elif isinstance(command, Display):
            self.display()
        elif isinstance(command, Eval):
            self.evaluate()
        elif isinstance(command, Bench):
            self.bench(command)
        elif isinstance(command, Help):
            self.out.info_string("commands: " + " ".join(COMMAND_NAMES))
        elif isinstance(command, Debug | Register):
            pass
        return True

    def shutdown(self) -> None:
        """Stop and wait for any search (its ``bestmove`` is still printed) or job."""
        self.finish_search()

    # -- commands ----------------------------------------------------------------

    def uci(self) -> None:
        """Identify the engine and declare its options."""
        lines = [f"id name {ENGINE_NAME}", f"id author {ENGINE_AUTHOR}"]
        lines += [o.declaration() for o in self.options]
        lines.append("uciok")
        self.out.send_block(lines)

    def position(self, command: Position) -> None:
        """Set the position; stop at the first illegal move; keep the old one on a bad FEN."""
        from plies.board import Board, IllegalMoveError, InvalidFenError

        source = self._source
        played = 0
        if (
            source is not None
            and self._board is not None
            and source[0] == command.fen
            and command.moves[: len(source[1])] == source[1]
        ):
            board = self._board.copy()
            played = len(source[1])
        else:
            try:
                board = Board(command.fen, chess960=self.chess960)
            except InvalidFenError as exc:
                self.out.info_string(f"position unchanged: {shorten(str(exc), 200)}")
                return
            except ValueError as exc:  # any other rejection of the FEN is still a bad FEN
                self.out.info_string(f"position unchanged: invalid fen: {shorten(str(exc), 200)}")
                return
        for text in command.moves[played:]:
            try:
                board.push_uci(text)
            except (IllegalMoveError, ValueError):
                self.out.info_string(
                    f"illegal move {shorten(text)!r} (move {played + 1} of the list) in "
                    f"{board.fen()}; the position stops before it"
                )
                break
            played += 1
        self.board = board
        self._source = (command.fen, command.moves[:played])

    def go(self, command: Go) -> None:
        """Start a search (or run ``perft``); ``bestmove`` follows from the search thread."""
        if command.perft is not None:
            self.perft(command.perft)
            return
        received = self._received
        if command.ignored:
            words = " ".join(shorten(t, 20) for t in command.ignored[:5])
            self.out.info_string(f"go: ignored unknown token(s) {words}")
        self.finish_search()
        board = self.board.copy()
        hold = command.infinite or command.ponder
        search = _Search(board, infinite=command.infinite, hold=hold)
        legal = board.legal_moves
        if not legal:
            # A finished game: nothing to search; report it like a search that ended.
            mate = board.is_check()
            self.out.send("info depth 0 score " + ("mate 0" if mate else "cp 0"))
            with self._state_lock:
                self._search = search
            self._search_done(search, None)
            return
        book_move = None if hold or command.searchmoves else self.book.move(board)
        if book_move is not None:  # played at once, without a search
            self.out.info_string(f"book move {book_move.uci()}")
            with self._state_lock:
                self._search = search
            self._search_done(search, None, fallback=book_move)
            return
        searchmoves = self._searchmoves(board, command.searchmoves)
        try:
            engine = self.engine()
            limit = limit_for(command)
            with self._state_lock:
                self._search = search
            engine.start(
                board,
                limit,
                on_info=self._on_info,
                on_done=lambda result: self._search_done(search, result),
                searchmoves=searchmoves,
                ponder=command.ponder,
                started_at=received,
            )
        except Exception:
            # No search is running: answer anyway so a GUI waiting for bestmove moves on.
            with self._state_lock:
                search.hold = False
                self._search = search
            self._search_done(search, None, fallback=legal[0])
            raise

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
            if move is None:
                self.out.info_string(f"searchmoves: {shorten(text)!r} is not legal here, skipped")
            elif move not in moves:
                moves.append(move)
        if not moves:
            self.out.info_string("searchmoves: no legal move given, searching all moves")
            return None
        return moves

    def _on_info(self, info: Info) -> None:
        """Search-thread callback: print one iteration."""
        self.out.send(info_line(info, show_wdl=self.values[SHOW_WDL.name] is True))

    def _search_done(
        self, search: _Search, result: SearchResult | None, fallback: Move | None = None
    ) -> None:
        """Search-thread callback: remember the result; print it unless it is held."""
        with self._state_lock:
            search.result = result
            search.done = True
            if search.hold:
                return
        self._report(search, fallback)

    def _report(self, search: _Search, fallback: Move | None = None) -> None:
        """Print ``bestmove`` once per search."""
        with self._state_lock:
            if search.reported.is_set():
                return
            search.reported.set()
        best, ponder = fallback, None
        result = search.result
        if result is not None:
            best, ponder = result.best_move, result.ponder_move
            if ponder is None and result.info is not None and len(result.info.pv) > 1:
                ponder = result.info.pv[1]
        legal = search.board.legal_moves
        if best is not None and best not in legal:
            # Never hand a GUI an illegal move: that loses the game on the spot.
            self.out.info_string(f"engine returned illegal move {best.uci()}; playing a legal one")
            best, ponder = legal[0], None
        if best is None and legal:
            best = legal[0]
        self.out.send(bestmove_line(search.board, best, ponder))

    def _release(self, search: _Search, keep_infinite: bool) -> None:
        """Lift the hold on ``bestmove`` (for ``stop``, or ``ponderhit`` unless infinite)."""
        with self._state_lock:
            search.hold = search.infinite if keep_infinite else False
            ready = search.done and not search.hold
        if ready:
            self._report(search)

    def stop(self) -> None:
        """End the search or job in flight; its ``bestmove`` is printed when it has stopped."""
        job = self._job
        if job is not None:
            job.cancel()
        search = self._search
        if search is None or search.reported.is_set():
            return
        if self._engine is not None and not search.done:
            self._engine.stop()
        self._release(search, keep_infinite=False)

    def ponderhit(self) -> None:
        """The ponder move was played: the search now counts (and may end on its own)."""
        search = self._search
        if search is None or search.reported.is_set():
            return
        if self._engine is not None and not search.done:
            self._engine.ponderhit()
        self._release(search, keep_infinite=True)

    def finish_search(self) -> None:
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
        if self._engine is not None:
            # Even after ``bestmove`` went out the search thread may still be
            # returning from its callback; the engine takes no new search until then.
            self._engine.wait()
        if not search.reported.wait(STOP_GRACE_S):
            # The engine ended without calling back: report what it returned.
            with self._state_lock:
                search.done = True
                search.hold = False
            self._report(search)
        with self._state_lock:
            if self._search is search:
                self._search = None

    def setoption(self, command: SetOption) -> None:
        """Check and apply an option; a bad name or value changes nothing."""
        option = find_option(self.options, command.name)
        if option is None:
            self.out.info_string(f"no such option: {shorten(command.name)!r}")
            return
        try:
            value = option.parse(command.value)
        except OptionError as exc:
            self.out.info_string(f"option unchanged: {exc}")
            return
        if self.book.handles(option.name):
            try:
                self.book.set_option(option.name, value)
            except ValueError as exc:  # an unreadable book file: the old book stays
                self.out.info_string(f"option unchanged: {shorten(str(exc), 200)}")
                return
            self.values[option.name] = value
            return
        self.finish_search()
        engine = self.engine()
        if option in LOOP_OPTIONS:
            pass  # read by the loop (``go ponder`` drives pondering; WDL is printed here)
        elif option in NET_OPTIONS:
            try:
                engine.set_option(option.name, value)
            except ValueError as exc:  # an unreadable net file: the evaluation stays as it was
                self.out.info_string(f"option unchanged: {shorten(str(exc), 200)}")
                return
            self.out.info_string(net_status(engine))
        elif option == SYZYGY_PATH:
            engine.set_option(option.name, value)
            for line in engine.tablebases.report():
                self.out.info_string(shorten(line, 300))
        else:
            engine.set_option(option.name, value)
        if option != CLEAR_HASH:
            self.values[option.name] = value
        if option == CHESS960 and self._board is not None and self._board.chess960 != value:
            # The same FEN reads differently in the other mode: rebuild at the next position.
            self._board = None
            self._source = None

    def display(self) -> None:
        """Print the board, FEN, key and side to move."""
        board = self.board
        side = "white" if board.turn == 0 else "black"
        lines = [*str(board).splitlines(), ""]
        lines.append(f"Fen: {board.fen()}")
        lines.append(f"Key: {board.zobrist_key():016X}")
        lines.append(f"Side to move: {side}; legal moves: {len(board.legal_moves)}")
        if board.move_stack:
            lines.append("Moves: " + " ".join(m.uci() for m in board.move_stack))
        self.out.send_block(lines)

    def evaluate(self) -> None:
        """Print the static evaluation (and its terms, when the core offers them)."""
        from plies.uci.evaluation import evaluation_lines

        self.finish_search()
        self.out.send_block(evaluation_lines(self.engine(), self.board))

    def perft(self, depth: int) -> None:
        """Divide-style perft from the current position, as a job ``stop`` can end."""
        from plies.uci.perft import stoppable_divide

        self.finish_search()
        board = self.board.copy()

        def body(canceller: Canceller) -> None:
            """Count and print (what was counted, if stopped)."""
            self.out.send_block(stoppable_divide(board, depth, canceller).lines())

        self._start_job("perft", body)

    def bench(self, command: Bench) -> None:
        """Run the bench as a job ``stop`` can end; print its signature and speed."""
        from plies.uci.bench import DEFAULT_DEPTH, bench_lines, run_bench

        self.finish_search()
        net = self.engine().net  # (waiting for compilation, not charged to the bench)
        depth = command.depth or DEFAULT_DEPTH
        if net is not None:
            self.out.info_string(f"bench with the {net.describe()}")

        def body(canceller: Canceller) -> None:
            """Search the bench positions; a stopped bench reports the positions it finished."""
            result = run_bench(depth, canceller=canceller, net=net)
            if canceller.cancelled:
                self.out.info_string(
                    f"bench stopped after {len(result.positions)} positions; totals below"
                )
            self.out.send_block(bench_lines(result))

        self._start_job("bench", body)

    def _start_job(self, name: str, body: Callable[[Canceller], None]) -> None:
        """Run ``body`` in the background; an error in it becomes an ``info string``."""

        def guarded(canceller: Canceller) -> None:
            """The job's thread: never lets an exception escape silently."""
            try:
                body(canceller)
            except Exception as exc:
                self.out.info_string(f"{name} failed: {type(exc).__name__}: {shorten(str(exc))}")

        self._job = Job(name, guarded)


def limit_for(command: Go) -> Limit:
    """The engine :class:`Limit` of a ``go`` command (clocks clamped to sane values)."""
    from plies.engine import Limit

    def clock(ms: int | None) -> int | None:
        """A remaining time of at least 1 ms (GUIs may send 0 or the overdraft)."""
        return None if ms is None else max(1, ms)

    def inc(ms: int | None) -> int | None:
        """An increment of at least 0 ms."""
        return None if ms is None else max(0, ms)

    # A ``go`` without any limit (bare ``go``, ``go ponder``) runs until ``stop``.
    infinite = command.infinite or not command.has_limit
    return Limit(
        depth=command.depth,
        nodes=command.nodes,
        movetime=command.movetime,
        wtime=clock(command.wtime),
        btime=clock(command.btime),
        winc=inc(command.winc),
        binc=inc(command.binc),
        movestogo=command.movestogo,
        mate=command.mate,
        infinite=infinite,
    )
