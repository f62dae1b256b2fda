"""The ``Engine``: iterative deepening over the compiled search, in its own thread.

The engine never prints. Callers (the UCI loop, the CLI, agents, tests) get one
``Info`` per finished iteration through a callback and a ``SearchResult`` at
the end. The search itself runs in compiled ``nogil`` code, so ``stop()`` from
another thread sets a flag that it notices within about a thousand nodes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable

import numpy as np

from plies.board import Board, Move
from plies.board.board import _core_to_move
from plies.core import tt
from plies.core.evaluate import evaluate as core_evaluate
from plies.core.search import (
    I_AGE,
    I_NODE_LIMIT,
    I_NODES,
    I_ROOT_UPDATED,
    I_SELDEPTH,
    I_STOP,
    INF,
    MAX_PLY,
    search_root,
)
from plies.core.tables import SLIDER_ATTACKS
from plies.core.warmup import compile_notice
from plies.engine.limits import Info, Limit, SearchResult
from plies.engine.state import SearchArrays, available_megabytes
from plies.engine.timeman import Stability, allocate

InfoCallback = Callable[[Info], None]
DoneCallback = Callable[[SearchResult], None]

MIN_HASH_MB = 1
MAX_HASH_MB = 4096
MAX_THREADS = 64
DEFAULT_MOVE_OVERHEAD_MS = 10
"""Milliseconds a move is assumed to lose outside the engine (Stockfish's default)."""


def node_shares(nodes: int, threads: int) -> list[int]:
    """Split a node budget over ``threads`` (the main thread first gets the remainder)."""
    share = nodes // threads
    return [nodes - share * (threads - 1)] + [share] * (threads - 1)


def _mate_moves(score: int) -> int | None:
    """Moves to mate for a mate score (negative when being mated), else None."""
    if score > tt.MATE_BOUND:
        return (tt.MATE - score + 1) // 2
    if score < -tt.MATE_BOUND:
        return -((tt.MATE + score) // 2)
    return None


class Engine:
    """A chess engine: owns a transposition table and searches positions on request."""

    def __init__(
        self, hash_mb: int = 64, move_overhead_ms: int = DEFAULT_MOVE_OVERHEAD_MS, threads: int = 1
    ) -> None:
        """Create an engine with a ``hash_mb`` MB table searching on ``threads`` threads."""
        if not MIN_HASH_MB <= hash_mb <= MAX_HASH_MB:
            raise ValueError(f"hash size must be {MIN_HASH_MB}..{MAX_HASH_MB} MB, got {hash_mb}")
        self._arrays = SearchArrays(hash_mb)
        self._hash_mb = hash_mb
        self.move_overhead_ms = move_overhead_ms
        """Milliseconds kept in reserve per move for communication delays."""
        self._age = 0
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._result: SearchResult | None = None
        self._release = threading.Event()
        self._pondering = False
        self._ponder_limit: Limit | None = None
        self._white_to_move = True
        self._deadline_timer: threading.Timer | None = None
        self._start_time = 0.0
        self._soft_ms: float | None = None
        self._helpers: list[SearchArrays] = []
        self._searching = False
        self.set_threads(threads)

    # -- configuration --------------------------------------------------------

    @property
    def hash_mb(self) -> int:
        """Transposition-table size in MB."""
        return self._hash_mb

    def set_hash(self, hash_mb: int) -> None:
        """Resize (and clear) the transposition table."""
        if not MIN_HASH_MB <= hash_mb <= MAX_HASH_MB:
            raise ValueError(f"hash size must be {MIN_HASH_MB}..{MAX_HASH_MB} MB, got {hash_mb}")
        self._require_idle()
        available = available_megabytes()
        if available is not None and hash_mb > available + self._hash_mb:
            # Writing a table the machine cannot hold would summon the OOM killer.
            raise ValueError(f"hash size {hash_mb} MB is more than the {available} MB available")
        self._arrays.resize_table(hash_mb)
        self._hash_mb = hash_mb
        self._helpers = [self._arrays.helper() for _ in self._helpers]

    @property
    def threads(self) -> int:
        """Number of search threads (1 = single-threaded, deterministic)."""
        return len(self._helpers) + 1

    def set_threads(self, threads: int) -> None:
        """Search on ``threads`` threads sharing one table (lazy SMP)."""
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be 1..{MAX_THREADS}, got {threads}")
        self._require_idle()
        self._helpers = [self._arrays.helper() for _ in range(threads - 1)]

    def set_option(self, name: str, value: str | int | bool | None) -> None:
        """Set an option by its UCI name (Hash, Threads, Move Overhead, Clear Hash)."""
        key = name.strip().lower()
        if key == "hash":
            self.set_hash(int(str(value)))
        elif key == "threads":
            self.set_threads(int(str(value)))
        elif key == "move overhead":
            ms = int(str(value))
            if not 0 <= ms <= 5000:
                raise ValueError(f"move overhead must be 0..5000 ms, got {ms}")
            self.move_overhead_ms = ms
        elif key == "clear hash":
            self.new_game()
        else:
            raise ValueError(f"unknown option: {name}")

    def new_game(self) -> None:
        """Forget the previous game (clears the table and move-ordering memory)."""
        self._require_idle()
        self._arrays.clear()  # the table, which the helpers share
        for helper in self._helpers:
            helper.clear_memory()

    def _require_idle(self) -> None:
        """Refuse to change state under a running search."""
        if self.is_searching():
            raise RuntimeError("the engine is searching; stop it first")

    # -- searching ------------------------------------------------------------

    def warm_up(self) -> None:
        """Compile the search (slow only on the very first run) with a short search."""
        with compile_notice("compiling the chess engine (first run only, about a minute)..."):
            scratch = Engine(hash_mb=1)
            board = Board()
            scratch.search(board, Limit(depth=3))
            scratch.evaluate(board)
            # Paths a game may reach only later (a table probe from Python for the
            # ponder move, undoing a move): compiled or loaded now, not on the clock.
            # Found missing by comparing dispatcher signatures before and after games.
            move = board.legal_moves[0]
            scratch._hash_reply(board, move)
            board.push(move)
            board.pop()

    def evaluate(self, board: Board) -> int:
        """Static evaluation in centipawns from the side to move."""
        bb, mb, st, _, _ = board.core_arrays()
        return int(core_evaluate(bb, mb, st, SLIDER_ATTACKS))

    def is_searching(self) -> bool:
        """Whether a search started with ``start`` is still running (its callback excepted)."""
        return self._searching

    def stop(self) -> None:
        """Ask the running search to finish now; it returns its best move so far."""
        self._arrays.info[I_STOP] = 1
        self._pondering = False
        self._release.set()

    def ponderhit(self) -> None:
        """The expected move was played: keep searching, now on the real clock."""
        if not self._pondering:
            return
        self._pondering = False
        limit = self._ponder_limit or Limit(infinite=True)
        budget = allocate(limit, self._white_to_move, self.move_overhead_ms)
        self._start_time = time.perf_counter()
        self._soft_ms = budget.soft_ms
        if budget.hard_ms is not None:
            self._arm_timer(budget.hard_ms)
        if not limit.is_unbounded():
            self._release.set()

    def start(
        self,
        board: Board,
        limit: Limit,
        on_info: InfoCallback | None = None,
        on_done: DoneCallback | None = None,
        searchmoves: Iterable[Move] | None = None,
        ponder: bool = False,
        started_at: float | None = None,
    ) -> None:
        """Start searching in a background thread; ``on_done`` gets the result.

        ``started_at`` (a ``time.perf_counter()`` reading, e.g. when ``go`` was
        read) is when the clock started for this move; the default is now.
        """
        self._require_idle()
        if self._thread is not None:
            self._thread.join()  # finished (not searching), but may still be in on_done
        board = board.copy()
        moves = None if searchmoves is None else list(searchmoves)
        self._arrays.info[I_STOP] = 0
        self._release.clear()
        # Set before the thread starts, so a ponderhit sent right after go is never lost.
        self._pondering = ponder
        self._ponder_limit = limit
        self._searching = True

        def run() -> None:
            """Search, then hand the result over."""
            try:
                result = self.search(
                    board, limit, on_info, moves, ponder, _prepared=True, _started_at=started_at
                )
            finally:
                self._searching = False
            if on_done is not None:
                on_done(result)

        self._thread = threading.Thread(target=run, name="plies-search", daemon=True)
        self._thread.start()

    def wait(self) -> SearchResult | None:
        """Wait for the search started with ``start``; return its result."""
        thread = self._thread
        if thread is not None:
            thread.join()
        return self._result

    def _arm_timer(self, ms: float) -> None:
        """Stop the search ``ms`` milliseconds from now."""
        if self._deadline_timer is not None:
            self._deadline_timer.cancel()
        timer = threading.Timer(ms / 1000.0, self._time_up)
        timer.daemon = True
        self._deadline_timer = timer
        timer.start()

    def _time_up(self) -> None:
        """Hard time limit reached."""
        self._arrays.info[I_STOP] = 1
        self._release.set()

    def search(
        self,
        board: Board,
        limit: Limit,
        on_info: InfoCallback | None = None,
        searchmoves: Iterable[Move] | None = None,
        ponder: bool = False,
        _prepared: bool = False,
        _started_at: float | None = None,
    ) -> SearchResult:
        """Search ``board`` within ``limit`` and return the best move (blocking)."""
        with self._lock:
            if not _prepared:
                self._arrays.info[I_STOP] = 0
                self._release.clear()
                self._pondering = ponder
                self._ponder_limit = limit
            try:
                result = self._iterate(board, limit, on_info, searchmoves, ponder, _started_at)
            finally:
                if self._deadline_timer is not None:
                    self._deadline_timer.cancel()
                    self._deadline_timer = None
                self._pondering = False
            self._result = result
            return result

    def _iterate(
        self,
        board: Board,
        limit: Limit,
        on_info: InfoCallback | None,
        searchmoves: Iterable[Move] | None,
        ponder: bool,
        started_at: float | None = None,
    ) -> SearchResult:
        """Iterative deepening with aspiration windows; the heart of ``search``."""
        a = self._arrays
        legal = board._core_legal()
        root = [int(m) for m in legal]
        if searchmoves is not None:
            wanted = {m.uci() for m in searchmoves}
            restricted = [m for m in root if _core_to_move(m).uci() in wanted]
            root = restricted or root
        if not root:
            self._wait_if_unbounded(limit, ponder)
            return SearchResult(None, None, None)

        # Step 1: position arrays with room for the deepest line.
        bb, mb, st, hist, keys = board.core_arrays()
        need = int(st[5]) + MAX_PLY + 4
        if hist.shape[0] < need:
            hist = np.concatenate([hist, np.zeros((need - hist.shape[0], hist.shape[1]), np.int64)])
            keys = np.concatenate([keys, np.zeros(need + 1 - keys.shape[0], np.uint64)])
        a.root_moves[: len(root)] = root
        n_root = len(root)

        # Step 2: clocks and counters.
        self._age = (self._age + 1) & 0xFF
        a.new_search()
        info = a.info
        info[I_NODES] = 0
        info[I_SELDEPTH] = 0
        for helper in self._helpers:
            helper.info[:] = 0  # helpers left idle by a small node budget count nothing
        helpers = self._helpers
        if limit.nodes is not None:
            # Each thread gets its share of the node budget (the core stops a thread
            # exactly at its own limit), so the total never exceeds ``limit.nodes``.
            helpers = helpers[: max(0, min(len(helpers), limit.nodes - 1))]
            shares = node_shares(limit.nodes, len(helpers) + 1)
        else:
            shares = [0] * (len(helpers) + 1)
        info[I_NODE_LIMIT] = shares[0]
        info[I_AGE] = self._age
        self._white_to_move = board.turn == 0
        now = time.perf_counter()
        self._start_time = now if started_at is None else min(started_at, now)
        # A ponderhit may already have arrived (start() set the flag before this thread ran).
        if self._pondering:
            self._soft_ms = None
        else:
            budget = allocate(limit, self._white_to_move, self.move_overhead_ms)
            self._soft_ms = budget.soft_ms
            if budget.hard_ms is not None:
                spent_ms = (now - self._start_time) * 1000.0
                self._arm_timer(max(0.0, budget.hard_ms - spent_ms))
        if limit.nodes is not None and limit.nodes <= 0:
            info[I_STOP] = 1

        max_depth = min(limit.depth or MAX_PLY - 1, MAX_PLY - 1)

        # Step 3: deepen until a limit says stop, helper threads filling the table.
        position = (bb, mb, st, hist, keys)
        workers = self._start_helpers(helpers, shares[1:], position, root, max_depth)
        try:
            best_code, best_line, last_info = self._deepen(
                board, limit, on_info, ponder, (bb, mb, st, hist, keys), n_root, max_depth, root
            )
        finally:
            self._stop_helpers(helpers, workers)
        self._wait_if_unbounded(limit, self._pondering)
        return self._finish(board, best_code, best_line, last_info)

    def _start_helpers(
        self,
        helpers: list[SearchArrays],
        node_limits: list[int],
        position: tuple[np.ndarray, ...],
        root: list[int],
        max_depth: int,
    ) -> list[threading.Thread]:
        """Start the lazy-SMP helpers: the same search, sharing only the table."""
        workers = []
        for k, helper in enumerate(helpers):
            helper.new_search()
            helper.info[I_AGE] = self._age
            helper.info[I_NODE_LIMIT] = node_limits[k]
            helper.root_moves[: len(root)] = root
            arrays = tuple(x.copy() for x in position)
            thread = threading.Thread(
                target=self._helper_search,
                args=(helper, arrays, len(root), k % 2, max_depth),
                name=f"plies-helper-{k + 1}",
                daemon=True,
            )
            thread.start()
            workers.append(thread)
        return workers

    @staticmethod
    def _stop_helpers(helpers: list[SearchArrays], workers: list[threading.Thread]) -> None:
        """Stop the helper threads and wait for them."""
        for helper in helpers:
            helper.info[I_STOP] = 1
        for thread in workers:
            thread.join()

    @staticmethod
    def _helper_search(
        a: SearchArrays, position: tuple[np.ndarray, ...], n_root: int, offset: int,
        max_depth: int,
    ) -> None:
        """A helper's deepening loop; odd helpers run one ply ahead to diversify."""
        bb, mb, st, hist, keys = position
        for depth in range(1, max_depth + 1):
            search_root(
                bb, mb, st, hist, keys, SLIDER_ATTACKS, a.tt_keys, a.tt_data, a.killers,
                a.history, a.counter, a.pv, a.pv_len, a.moves, a.scores, a.quiets, a.evals,
                a.probes, a.info, a.root_moves, n_root, min(depth + offset, max_depth), -INF, INF,
            )  # fmt: skip
            if a.info[I_STOP]:
                return

    def _deepen(
        self,
        board: Board,
        limit: Limit,
        on_info: InfoCallback | None,
        ponder: bool,
        position: tuple[np.ndarray, ...],
        n_root: int,
        max_depth: int,
        root: list[int],
    ) -> tuple[int, list[int], Info | None]:
        """The main thread's iterative deepening; returns best move, line and last Info."""
        a = self._arrays
        info = a.info
        bb, mb, st, hist, keys = position
        stability = Stability()
        best_code = root[0]
        best_line = [root[0]]
        last_info: Info | None = None
        score = 0
        for depth in range(1, max_depth + 1):
            delta = 18
            if depth >= 5 and _mate_moves(score) is None:
                alpha, beta = max(score - delta, -INF), min(score + delta, INF)
            else:
                alpha, beta = -INF, INF
            while True:
                value = int(search_root(
                    bb, mb, st, hist, keys, SLIDER_ATTACKS, a.tt_keys, a.tt_data, a.killers,
                    a.history, a.counter, a.pv, a.pv_len, a.moves, a.scores, a.quiets,
                    a.evals, a.probes, info, a.root_moves, n_root, depth, alpha, beta,
                ))  # fmt: skip
                if info[I_STOP]:
                    break
                if value <= alpha:
                    beta = (alpha + beta) // 2
                    alpha = max(value - delta, -INF)
                elif value >= beta:
                    beta = min(value + delta, INF)
                    # A fail-high's move is good enough to play if time runs out.
                    best_code = int(a.pv[0, 0])
                    best_line = [best_code]
                else:
                    break
                delta += delta // 2 + 5
            stopped = bool(info[I_STOP])
            if stopped:
                # A move that beat the previous best in the unfinished iteration is trusted.
                if info[I_ROOT_UPDATED] and a.pv_len[0] > 0 and depth > 1:
                    best_code = int(a.pv[0, 0])
                    best_line = [int(x) for x in a.pv[0, : a.pv_len[0]]]
                break
            score = value
            best_code = int(a.pv[0, 0]) if a.pv_len[0] > 0 else int(a.root_moves[0])
            best_line = [int(x) for x in a.pv[0, : a.pv_len[0]]] or [best_code]
            last_info = self._report(board, depth, score, best_line, on_info)

            if limit.mate is not None:
                mate = _mate_moves(score)
                if mate is not None and 0 < mate <= limit.mate:
                    break
            if self._soft_ms is not None and not self._pondering:
                elapsed = (time.perf_counter() - self._start_time) * 1000.0
                scale = stability.update(best_code, score, depth)
                if n_root == 1 and depth >= 4:
                    break
                if elapsed > self._soft_ms * scale * 0.55:
                    break
            if info[I_NODE_LIMIT] and info[I_NODES] >= info[I_NODE_LIMIT]:
                break
            proven = _mate_moves(score) is not None and depth > 2 * (tt.MATE - abs(score)) + 6
            if proven and not (limit.is_unbounded() or ponder):
                # A mate well inside the horizon cannot change with more depth.
                break
        return best_code, best_line, last_info

    def _wait_if_unbounded(self, limit: Limit, pondering: bool) -> None:
        """With infinite or ponder searches the result waits for stop (or ponderhit)."""
        if limit.infinite or pondering:
            self._release.wait()

    def _report(
        self, board: Board, depth: int, score: int, line: list[int], on_info: InfoCallback | None
    ) -> Info:
        """Build the Info of a finished iteration and hand it to the callback."""
        info = self._arrays.info
        elapsed = max(time.perf_counter() - self._start_time, 1e-6)
        nodes = self.nodes_searched()
        mate = _mate_moves(score)
        result = Info(
            depth=depth,
            seldepth=max(int(info[I_SELDEPTH]), depth),
            score_cp=None if mate is not None else score,
            score_mate=mate,
            nodes=nodes,
            nps=int(nodes / elapsed),
            time_ms=int(elapsed * 1000),
            hashfull=int(tt.hashfull(self._arrays.tt_data, self._age)),
            pv=self._legal_line(board, line),
        )
        if on_info is not None:
            on_info(result)
        return result

    def nodes_searched(self) -> int:
        """Nodes of the current (or last) search, over all threads."""
        return int(self._arrays.info[I_NODES]) + sum(int(h.info[I_NODES]) for h in self._helpers)

    @staticmethod
    def _legal_line(board: Board, line: list[int]) -> list[Move]:
        """The longest legal prefix of a line of core moves, as Moves."""
        scratch = board.copy()
        moves: list[Move] = []
        for code in line:
            move = _core_to_move(code)
            if not scratch.is_legal(move):
                break
            moves.append(move)
            scratch.push(move)
        return moves

    def _finish(
        self, board: Board, best_code: int, line: list[int], last: Info | None
    ) -> SearchResult:
        """Result with a legal best move and, if known, a legal ponder move."""
        best = _core_to_move(best_code)
        if not board.is_legal(best):
            best = board.legal_moves[0]
        pv = self._legal_line(board, line)
        ponder = pv[1] if len(pv) >= 2 and pv[0] == best else self._hash_reply(board, best)
        return SearchResult(best, ponder, last)

    def _hash_reply(self, board: Board, move: Move) -> Move | None:
        """The table's best reply after ``move``, if it is legal."""
        after = board.copy()
        after.push(move)
        out = np.zeros(tt.P_SIZE, dtype=np.int64)
        key = np.uint64(after.zobrist_key())
        if tt.probe(self._arrays.tt_keys, self._arrays.tt_data, key, 0, out) and out[1]:
            reply = _core_to_move(int(out[1]))
            if after.is_legal(reply):
                return reply
        return None
