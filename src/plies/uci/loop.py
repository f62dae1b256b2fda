"""The one UCI loop: reads commands, keeps the position and options, prints replies.

A reader thread reads lines into a queue; the main thread dispatches them.  The
search in flight (and the long extra commands, ``perft`` and ``bench``, run as
jobs) is :mod:`plies.uci.search_job`'s, so while anything runs ``isready`` is answered
and ``stop``/``quit`` act at once.  The engine is built and compiled in the
background from the start (:mod:`plies.uci.startup`); even the board is imported
lazily, so ``uci`` is answered at once while numba loads.  Every command runs
inside a guard, so a malformed line or an unexpected error becomes an
``info string`` and the loop carries on with its state intact.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import plies
from plies.options import (
    CHESS960,
    CLEAR_HASH,
    LOOP_OPTIONS,
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
from plies.uci.jobs import Canceller
from plies.uci.net import net_status
from plies.uci.protocol import (
    COMMAND_NAMES,
    Bench,
    Command,
    Go,
    Position,
    SetOption,
    UciParseError,
    Word,
    parse_command,
)
from plies.uci.search_job import InFlight
from plies.uci.startup import EngineFactory, EngineStartup, QuitError

if TYPE_CHECKING:
    from plies.board import Board
    from plies.engine import Engine

ENGINE_NAME = f"plies {plies.__version__}"
ENGINE_AUTHOR = "The plies developers"

# A ``go`` read this soon after ``position`` was sent with it: its clock started then.
POSITION_GO_GAP_S = 0.1

# What the reader thread queues: a line, the time it was read and its number; None at the end.
_Inbox = queue.Queue[tuple[str | OverlongLine, float, int] | None]


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
        self._startup = EngineStartup(out, self.values, engine_factory)
        self._in_flight = InFlight(
            out, self.engine, lambda: self._startup.started, lambda: self.values[SHOW_WDL.name]
        )
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
        self._startup.start()

    def engine(self) -> Engine:
        """The ready engine, waiting for compilation (with a notice) if needed."""
        return self._startup.wait(self._quit_is_next)

    def _quit_is_next(self) -> bool:
        """Whether ``quit`` is the very next command: nothing asked before it is left to
        answer, so a wait for the engine may leave now (a piped script still runs to its end)."""
        return self._quit_line is not None and self._quit_line == self._line_number + 1

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
            self._in_flight.stop()

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
        except QuitError:
            return False
        except Exception as exc:  # the guard: one bad command never ends the engine
            self.out.info_string(f"error: {type(exc).__name__}: {shorten(str(exc), 200)}")
            return True

    def dispatch(self, command: Command) -> bool:
        """Run one parsed command; False for ``quit``."""
        if command is Word.QUIT:
            return False
        if isinstance(command, Word):
            self._words[command]()
        elif isinstance(command, Go):
            self.go(command)
        elif isinstance(command, Position):
            self.position(command)
        elif isinstance(command, SetOption):
            self.setoption(command)
        elif isinstance(command, Bench):
            self.bench(command)
        return True  # ``debug``: accepted and ignored

    @property
    def _words(self) -> dict[Word, Callable[[], None]]:
        """What each command without arguments does (``quit`` ends the loop before)."""
        return {
            Word.UCI: self.uci,
            Word.ISREADY: self.isready,
            Word.REGISTER: lambda: None,  # plies needs no registration
            Word.UCINEWGAME: self.new_game,
            Word.STOP: self._in_flight.stop,
            Word.PONDERHIT: self._in_flight.ponderhit,
            Word.DISPLAY: self.display,
            Word.EVAL: self.evaluate,
            Word.HELP: lambda: self.out.info_string("commands: " + " ".join(COMMAND_NAMES)),
        }

    def shutdown(self) -> None:
        """Stop and wait for any search (its ``bestmove`` is still printed) or job."""
        self._in_flight.finish()

    # -- commands ----------------------------------------------------------------

    def uci(self) -> None:
        """Identify the engine and declare its options."""
        lines = [f"id name {ENGINE_NAME}", f"id author {ENGINE_AUTHOR}"]
        lines += [o.declaration() for o in self.options]
        lines.append("uciok")
        self.out.send_block(lines)

    def isready(self) -> None:
        """``readyok`` once the engine is ready; a search or job in flight does not delay it."""
        # readyok always follows: a GUI waiting for it must never hang, even if the
        # engine failed to start (that failure is reported as info string).
        try:
            self.engine()
        except QuitError:
            raise
        except Exception as exc:
            self.out.info_string(f"error: {type(exc).__name__}: {shorten(str(exc), 200)}")
        self.out.send("readyok")

    def new_game(self) -> None:
        """``ucinewgame``: the engine forgets what it learnt in the last game."""
        self._in_flight.finish()
        self.engine().new_game()

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
                fen = Board.STARTING_FEN if command.fen is None else command.fen  # startpos
                board = Board(fen, chess960=self.chess960)
                board.check_playable()
            except InvalidFenError as exc:
                self.out.info_string(f"position unchanged: {shorten(str(exc), 200)}")
                return
            except ValueError as exc:  # any other rejection of the FEN is still a bad FEN
                self.out.info_string(f"position unchanged: invalid fen: {shorten(str(exc), 200)}")
                return
        for text in command.moves[played:]:
            try:
                move = board.parse_uci(text)
                if not move:  # "0000": a null move is no move of a game (Stockfish stops too)
                    raise IllegalMoveError(f"null move {text!r}")
                board.push(move)
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
        self._in_flight.finish()
        self._in_flight.go(self.board.copy(), command, self.book, received)

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
        self._in_flight.finish()
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
        side = "white" if board.turn else "black"
        lines = [*board.pretty().splitlines(), ""]
        lines.append(f"Fen: {board.fen()}")
        lines.append(f"Key: {board.zobrist_key():016X}")
        lines.append(f"Side to move: {side}; legal moves: {len(board.legal_moves)}")
        if board.move_stack:
            lines.append("Moves: " + " ".join(m.uci() for m in board.move_stack))
        self.out.send_block(lines)

    def evaluate(self) -> None:
        """Print the static evaluation (and its terms, when the core offers them)."""
        from plies.uci.evaluation import evaluation_lines

        self._in_flight.finish()
        self.out.send_block(evaluation_lines(self.engine(), self.board))

    def perft(self, depth: int) -> None:
        """Divide-style perft from the current position, as a job ``stop`` can end."""
        from plies.uci.perft import stoppable_divide

        self._in_flight.finish()
        board = self.board.copy()

        def body(canceller: Canceller) -> None:
            """Count and print (what was counted, if stopped)."""
            self.out.send_block(stoppable_divide(board, depth, canceller).lines())

        self._in_flight.start_job("perft", body)

    def bench(self, command: Bench) -> None:
        """Run the bench as a job ``stop`` can end; print its signature and speed."""
        from plies.uci.bench import DEFAULT_DEPTH, bench_lines, run_bench

        self._in_flight.finish()
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

        self._in_flight.start_job("bench", body)
