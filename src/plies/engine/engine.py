"""The ``Engine``: iterative deepening over the compiled search, in its own thread.

The engine never prints. Callers (the UCI loop, the CLI, agents, tests) get one
``Info`` per finished iteration through a callback and a ``SearchResult`` at
the end. The search itself runs in compiled ``nogil`` code, so ``stop()`` from
another thread sets a flag that it notices within about a thousand nodes.
"""

from __future__ import annotations

import os
import random
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

import numpy as np

import plies.core as core
from plies.board import Board, Move
from plies.board.board import core_to_move
from plies.compile_notice import compile_notice
from plies.core import INF, MAX_PLY
from plies.core.nnue import residual_evaluate
from plies.engine import prewarm
from plies.engine.limits import Info, Limit, SearchResult
from plies.engine.state import SearchArrays, available_megabytes
from plies.engine.strength import (
    CANDIDATES,
    DEFAULT_ELO,
    MAX_ELO,
    MIN_ELO,
    choose_line,
    is_full_strength,
    strength_for,
)
from plies.engine.tablebases import RootRanking, Tablebases
from plies.engine.timeman import STOP_SHARE, Stability, allocate, node_scale
from plies.engine.wdl import material, wdl
from plies.time_options import (
    DEFAULT_MOVE_OVERHEAD_MS,
    DEFAULT_SLOW_MOVER,
    MAX_MOVE_OVERHEAD_MS,
    MAX_SLOW_MOVER,
    MIN_SLOW_MOVER,
)

InfoCallback = Callable[[Info], None]
DoneCallback = Callable[[SearchResult], None]

MIN_HASH_MB = 1
MAX_HASH_MB = 4096
MAX_THREADS = 64
HELPER_START_S = 0.05
"""Longest wait for a lazy-SMP helper thread to start running before the main search."""
NODE_CAP_FACTOR = 8
"""A strength-limited search is cut off at this many times its node budget."""
MIN_NODE_CAP = 50_000
"""The smallest such cut-off: far more than any depth-1 search needs."""
MAX_MULTIPV = 256
"""The most lines ``MultiPV`` may ask for (more than any position has legal moves)."""
DEFAULT_NET_ENV = "PLIES_DEFAULT_NET"
"""Environment variable naming the net an engine uses by default instead of the packaged one."""


def default_net_file() -> Path | None:
    """The net an engine loads by default: ``$PLIES_DEFAULT_NET`` if set, else the packaged
    net (None when this install ships none)."""
    named = os.environ.get(DEFAULT_NET_ENV, "").strip()
    return Path(named) if named else core.default_net_path()


def node_shares(nodes: int, threads: int) -> list[int]:
    """Split a node budget over ``threads`` (the main thread first gets the remainder)."""
    share = nodes // threads
    return [nodes - share * (threads - 1)] + [share] * (threads - 1)


def _mate_moves(score: int) -> int | None:
    """Moves to mate for a mate score (negative when being mated), else None."""
    if score > core.MATE_BOUND:
        return (core.MATE - score + 1) // 2
    if score < -core.MATE_BOUND:
        return -((core.MATE + score) // 2)
    return None


class Engine:
    """A chess engine: owns a transposition table and searches positions on request."""

    def __init__(
        self,
        hash_mb: int = 64,
        move_overhead_ms: int = DEFAULT_MOVE_OVERHEAD_MS,
        threads: int = 1,
        default_net: str | os.PathLike[str] | None = None,
    ) -> None:
        """Create an engine with a ``hash_mb`` MB table searching on ``threads`` threads.

        ``default_net`` names the net used when ``EvalFile`` is empty (None:
        ``default_net_file()``). If that net cannot be loaded the engine still starts,
        on the classical evaluation, and says why in ``net_notice`` (and a warning).
        """
        if not MIN_HASH_MB <= hash_mb <= MAX_HASH_MB:
            raise ValueError(f"hash size must be {MIN_HASH_MB}..{MAX_HASH_MB} MB, got {hash_mb}")
        self._arrays = SearchArrays(hash_mb)
        self._hash_mb = hash_mb
        self.move_overhead_ms = move_overhead_ms
        """Milliseconds kept in reserve per move for communication delays."""
        self.slow_mover = DEFAULT_SLOW_MOVER
        """Percent of the planned time per move to aim at (more: deeper now, less later)."""
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
        self.multipv = 1
        """Lines reported per iteration: the best ``multipv`` root moves, each searched fully."""
        self.limit_strength = False
        """Whether to play at ``elo`` instead of full strength (``plies.engine.strength``)."""
        self.elo = DEFAULT_ELO
        """The level played when ``limit_strength`` is on."""
        self._rng = random.Random()
        self._lines_wanted = 1
        self._lines: list[Info] = []
        self._node_budget: int | None = None
        self.eval_file = ""
        """The net file set by ``EvalFile`` ("": the packaged default net, if any)."""
        self._default_net = default_net_file() if default_net is None else Path(default_net)
        self.net_notice: str | None = None
        """Why the default net is not in use although one was named (None: no problem)."""
        self._net: core.Net | None = None
        if self._default_net is not None:
            try:
                self._net = core.load_net(self._default_net)
            except ValueError as exc:
                self.net_notice = f"default net unusable, using the classical evaluation: {exc}"
                warnings.warn(self.net_notice, RuntimeWarning, stacklevel=2)
        self.use_net = self._net is not None
        """Whether the search evaluates with the net (``UseNet``): on when plies ships one."""
        self.tablebases = Tablebases()
        """Syzygy tables and options (``SyzygyPath`` ...; ``plies.engine.tablebases``)."""
        self._tb_root: RootRanking | None = None
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

    def seed(self, seed: int | None) -> None:
        """Seed the random choice of a strength-limited engine (None: from the OS)."""
        self._rng.seed(seed)

    def set_multipv(self, lines: int) -> None:
        """Report the best ``lines`` root moves (1..MAX_MULTIPV) each iteration."""
        if not 1 <= lines <= MAX_MULTIPV:
            raise ValueError(f"MultiPV must be 1..{MAX_MULTIPV}, got {lines}")
        self.multipv = lines

    def set_elo(self, elo: int) -> None:
        """Set the level of a strength-limited engine (MIN_ELO..MAX_ELO)."""
        if not MIN_ELO <= elo <= MAX_ELO:
            raise ValueError(f"UCI_Elo must be {MIN_ELO}..{MAX_ELO}, got {elo}")
        self.elo = elo

    @property
    def net(self) -> core.Net | None:
        """The net the search evaluates with (None: the classical evaluation)."""
        return self._net if self.use_net else None

    def _load_net(self, path: str) -> core.Net | None:
        """The net of ``path`` ("": the packaged default, None if there is none)."""
        if path:
            return core.load_net(path)
        default = self._default_net
        return None if default is None else core.load_net(default)

    def set_eval_file(self, path: str) -> None:
        """Load the net file ``path`` ("": the packaged default); a bad file raises ValueError
        and changes nothing. Clears the table, whose evaluations came from the old net."""
        self._require_idle()
        path = path.strip()
        net = self._load_net(path) if self.use_net or path else None
        self.eval_file = path
        self._net = net
        self.new_game()

    def set_use_net(self, on: bool) -> None:
        """Evaluate with the net (loading it now if needed) or with the classical evaluation.

        A net file that cannot be read raises ValueError and changes nothing; with no
        net at all (no ``EvalFile``, no packaged default) the classical evaluation
        stays in use (``net_warning`` says so). Clears the table.
        """
        self._require_idle()
        if on and self._net is None:
            self._net = self._load_net(self.eval_file)
        self.use_net = on
        self.new_game()

    def set_net(self, net: core.Net | None) -> None:
        """Search with this loaded net (None: the classical evaluation); clears the table."""
        self._require_idle()
        self._net = net
        self.use_net = net is not None
        self.new_game()

    def net_warning(self) -> str | None:
        """Why ``UseNet`` is on and the classical evaluation still runs, if it is so."""
        if self.use_net and self._net is None:
            return "UseNet: no net to use (EvalFile is empty and no default net is installed); " \
                   "using the classical evaluation"  # fmt: skip
        return None

    def evaluation_name(self) -> str:
        """Which evaluation the search uses, for a user (the net's file and width, or classical)."""
        net = self.net
        if net is None:
            return "classical evaluation"
        return net.describe()

    def _search_position(self, board: Board) -> core.Position:
        """The position a search of ``board`` runs on (the board's copy), carrying the net
        if one is in use."""
        pos = board.core_position()
        net = self.net
        if net is not None:
            core.attach_net(pos, net)
        return pos

    def set_option(self, name: str, value: str | int | bool | None) -> None:
        """Set an option by its UCI name (Hash, Threads, Move Overhead, Slow Mover, Clear Hash,
        MultiPV, UCI_LimitStrength, UCI_Elo, EvalFile, UseNet, SyzygyPath, SyzygyProbeDepth,
        Syzygy50MoveRule, SyzygyProbeLimit)."""
        key = name.strip().lower()
        if key == "evalfile":
            self.set_eval_file("" if value is None else str(value))
        elif key == "usenet":
            text = str(value).strip().lower()
            if text not in ("true", "false"):
                raise ValueError(f"UseNet must be true or false, got {value!r}")
            self.set_use_net(text == "true")
        elif key == "hash":
            self.set_hash(int(str(value)))
        elif key == "threads":
            self.set_threads(int(str(value)))
        elif key == "move overhead":
            ms = int(str(value))
            if not 0 <= ms <= MAX_MOVE_OVERHEAD_MS:
                raise ValueError(f"move overhead must be 0..{MAX_MOVE_OVERHEAD_MS} ms, got {ms}")
            self.move_overhead_ms = ms
        elif key == "slow mover":
            pct = int(str(value))
            if not MIN_SLOW_MOVER <= pct <= MAX_SLOW_MOVER:
                raise ValueError(
                    f"slow mover must be {MIN_SLOW_MOVER}..{MAX_SLOW_MOVER} %, got {pct}"
                )
            self.slow_mover = pct
        elif key == "clear hash":
            self.new_game()
        elif key.startswith("syzygy"):
            self._require_idle()
            self.tablebases.set_option(name, value)
        elif key == "multipv":
            self.set_multipv(int(str(value)))
        elif key == "uci_limitstrength":
            text = str(value).strip().lower()
            if text not in ("true", "false"):
                raise ValueError(f"UCI_LimitStrength must be true or false, got {value!r}")
            self.limit_strength = text == "true"
        elif key == "uci_elo":
            self.set_elo(int(str(value)))
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
        """Compile the search (slow only on the very first run) with a short search.

        On a cold cache, worker processes compile the evaluation and the move
        counter meanwhile (``plies.engine.prewarm``), and the search then loads
        them from the cache: the first run waits about half as long on 2 cores.
        """
        with compile_notice("compiling the chess engine (first run only, about a minute)..."):
            with prewarm.in_workers(prewarm.search_jobs()):
                # What the board and a game's moves use: this process's share.
                board = Board()
                move = board.legal_moves[0]
                board.push(move)
                board.pop()
                scratch = Engine(hash_mb=1)
            scratch.search(board, Limit(depth=3))
            scratch.evaluate(board)
            # The net's set-up and evaluation entry points (tiny), so UseNet costs no compile.
            spare = board.core_position()  # a copy already
            core.attach_net(spare, None)
            core.net_evaluate(spare)
            core.net_output(spare)  # and a residual net's parts
            residual_evaluate(spare, 0)
            # Paths a game may reach only later (a table probe from Python for the
            # ponder move): compiled or loaded now, not on the clock.
            # Found missing by comparing dispatcher signatures before and after games.
            scratch._hash_reply(board, move)

    def evaluate(self, board: Board) -> int:
        """Static evaluation in centipawns from the side to move (the net's, when in use;
        a residual net's: the classical evaluation plus the net's output)."""
        if self.net is not None:
            return core.net_evaluate(self._search_position(board))
        return int(core.evaluate_position(board.core_position()))

    def is_searching(self) -> bool:
        """Whether a search started with ``start`` is still running (its callback excepted)."""
        return self._searching

    def stop(self) -> None:
        """Ask the running search to finish now; it returns its best move so far."""
        core.set_stop(self._arrays.info, 1)
        self._pondering = False
        self._release.set()

    def ponderhit(self) -> None:
        """The expected move was played: keep searching, now on the real clock."""
        if not self._pondering:
            return
        self._pondering = False
        limit = self._ponder_limit or Limit(infinite=True)
        budget = allocate(limit, self._white_to_move, self.move_overhead_ms, self.slow_mover)
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
        core.set_stop(self._arrays.info, 0)
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
        core.set_stop(self._arrays.info, 1)
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
                core.set_stop(self._arrays.info, 0)
                self._release.clear()
                self._pondering = ponder
                self._ponder_limit = limit
            weaker = self.limit_strength and not is_full_strength(self.elo)
            strength = strength_for(self.elo) if weaker else None
            self._lines_wanted = self.multipv
            self._node_budget = None
            if strength is not None:
                # A weaker player: a small node budget, a few candidate moves to choose from.
                self._node_budget = strength.nodes
                self._lines_wanted = max(self.multipv, CANDIDATES)
                if limit.nodes is None:
                    # A hard cap far above the budget: only a tactical explosion reaches it.
                    limit = replace(limit, nodes=max(NODE_CAP_FACTOR * strength.nodes,
                                                     MIN_NODE_CAP))
            try:
                result = self._iterate(board, limit, on_info, searchmoves, ponder, _started_at)
                if strength is not None and result.lines:
                    chosen = choose_line(result.lines, strength, self._rng)
                    ponder_move = chosen.pv[1] if len(chosen.pv) > 1 else None
                    result = replace(result, best_move=chosen.pv[0], ponder_move=ponder_move)
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
        legal = board.core_legal()
        root = [int(m) for m in legal]
        if searchmoves is not None:
            wanted = {m.uci() for m in searchmoves}
            restricted = [m for m in root if core_to_move(m).uci() in wanted]
            root = restricted or root
        self._lines = []
        if not root:
            self._wait_if_unbounded(limit, ponder)
            return SearchResult(None, None, None)
        # Root in the tables: search only the moves that keep the best outcome.
        self._tb_root = self.tablebases.rank_root(board, root)
        if self._tb_root is not None:
            root = self._tb_root.moves
        self.tablebases.attach([a, *self._helpers])

        # Step 1: the position (with the net, if in use), with room for the deepest line.
        pos = self._search_position(board)
        core.reserve(pos, MAX_PLY + 2)
        a.root_moves[: len(root)] = root
        n_root = len(root)

        # Step 2: clocks and counters.
        self._age = (self._age + 1) & 0xFF
        a.new_search()
        info = a.info
        for helper in self._helpers:
            helper.reset_info(0, self._age)  # helpers left idle by a small budget count nothing
        helpers = self._helpers
        if limit.nodes is not None:
            # Each thread gets its share of the node budget (the core stops a thread
            # exactly at its own limit), so the total never exceeds ``limit.nodes``.
            helpers = helpers[: max(0, min(len(helpers), limit.nodes - 1))]
            shares = node_shares(limit.nodes, len(helpers) + 1)
        else:
            shares = [0] * (len(helpers) + 1)
        core.start_info(info, shares[0], self._age)
        self._white_to_move = board.turn == 0
        now = time.perf_counter()
        self._start_time = now if started_at is None else min(started_at, now)
        # A ponderhit may already have arrived (start() set the flag before this thread ran).
        if self._pondering:
            self._soft_ms = None
        else:
            budget = allocate(limit, self._white_to_move, self.move_overhead_ms, self.slow_mover)
            self._soft_ms = budget.soft_ms
            if budget.hard_ms is not None:
                spent_ms = (now - self._start_time) * 1000.0
                self._arm_timer(max(0.0, budget.hard_ms - spent_ms))
        if limit.nodes is not None and limit.nodes <= 0:
            core.set_stop(info, 1)

        max_depth = min(limit.depth or MAX_PLY - 1, MAX_PLY - 1)

        # Step 3: deepen until a limit says stop, helper threads filling the table.
        workers = self._start_helpers(helpers, shares[1:], pos, root, max_depth)
        try:
            best_code, best_line, last_info = self._deepen(
                board, limit, on_info, ponder, pos, n_root, max_depth, root
            )
        finally:
            self._stop_helpers(helpers, workers)
        self._wait_if_unbounded(limit, self._pondering)
        return self._finish(board, best_code, best_line, last_info)

    def _start_helpers(
        self,
        helpers: list[SearchArrays],
        node_limits: list[int],
        position: core.Position,
        root: list[int],
        max_depth: int,
    ) -> list[threading.Thread]:
        """Start the lazy-SMP helpers: the same search, sharing only the table.

        Returns once each helper thread runs (or after ``HELPER_START_S``): on a
        loaded machine a short main search could otherwise end before a helper
        was ever scheduled.
        """
        workers = []
        started = []
        for k, helper in enumerate(helpers):
            helper.new_search()
            helper.reset_info(node_limits[k], self._age)
            helper.root_moves[: len(root)] = root
            running = threading.Event()
            thread = threading.Thread(
                target=self._helper_search,
                args=(helper, core.copy_position(position), len(root), k % 2, max_depth, running),
                name=f"plies-helper-{k + 1}",
                daemon=True,
            )
            thread.start()
            workers.append(thread)
            started.append(running)
        for running in started:
            running.wait(HELPER_START_S)
        return workers

    @staticmethod
    def _stop_helpers(helpers: list[SearchArrays], workers: list[threading.Thread]) -> None:
        """Stop the helper threads and wait for them."""
        for helper in helpers:
            core.set_stop(helper.info, 1)
        for thread in workers:
            thread.join()

    @staticmethod
    def _helper_search(
        a: SearchArrays, position: core.Position, n_root: int, offset: int, max_depth: int,
        running: threading.Event,
    ) -> None:
        """A helper's deepening loop; odd helpers run one ply ahead to diversify."""
        running.set()
        for depth in range(1, max_depth + 1):
            core.search_root(position, a.stack, a.table, a.info, n_root,
                             min(depth + offset, max_depth), -INF, INF)  # fmt: skip
            if a.stopped():
                return

    def _root_search(
        self, position: core.Position, first: int, n_root: int, depth: int,
        alpha: int, beta: int,
    ) -> int:
        """One compiled search of ``root_moves[first:n_root]``: the lines before are excluded.

        The compiled search reads the first ``n`` root moves, so the excluded
        ones are rotated behind the searched ones for the call and back after
        it; the searched moves keep the order the search gave them.
        """
        a = self._arrays
        moves = a.root_moves
        if first:
            held = moves[:n_root].copy()
            moves[: n_root - first] = held[first:]
            moves[n_root - first : n_root] = held[:first]
        try:
            return int(core.search_root(position, a.stack, a.table, a.info, n_root - first,
                                        depth, alpha, beta))  # fmt: skip
        finally:
            if first:
                searched = moves[: n_root - first].copy()
                moves[:first] = held[:first]
                moves[first:n_root] = searched

    def _aspirate(
        self, position: core.Position, first: int, n_root: int, depth: int,
        previous: int | None,
    ) -> tuple[int | None, int | None]:
        """Search one line to ``depth`` in windows around ``previous``.

        Returns the score (None if the search was stopped) and the move of the
        last fail-high, which is good enough to play if time runs out.
        """
        delta = 18
        if previous is not None and depth >= 5 and _mate_moves(previous) is None:
            alpha, beta = max(previous - delta, -INF), min(previous + delta, INF)
        else:
            alpha, beta = -INF, INF
        fail_high: int | None = None
        while True:
            value = self._root_search(position, first, n_root, depth, alpha, beta)
            if self._arrays.stopped():
                return None, fail_high
            if value <= alpha:
                beta = (alpha + beta) // 2
                alpha = max(value - delta, -INF)
            elif value >= beta:
                beta = min(value + delta, INF)
                fail_high = int(self._arrays.pv[0, 0])
            else:
                return value, fail_high
            delta += delta // 2 + 5

    def _deepen(
        self,
        board: Board,
        limit: Limit,
        on_info: InfoCallback | None,
        ponder: bool,
        position: core.Position,
        n_root: int,
        max_depth: int,
        root: list[int],
    ) -> tuple[int, list[int], Info | None]:
        """The main thread's iterative deepening; returns best move, line and last Info.

        With several lines (MultiPV) each iteration searches the best move, then
        the best of the others, and so on (as Stockfish does): line K is the
        best move once lines 1..K-1 are excluded from the root.
        """
        a = self._arrays
        stability = Stability()
        best_code = root[0]
        best_line = [root[0]]
        last_info: Info | None = None
        score = 0
        n_lines = min(self._lines_wanted, n_root)
        previous: list[int | None] = [None] * n_lines
        effort = 1.0
        for depth in range(1, max_depth + 1):
            done: list[tuple[int, list[int]]] = []
            stopped = False
            for k in range(n_lines):
                value, fail_high = self._aspirate(position, k, n_root, depth, previous[k])
                if k == 0:
                    counts = a.counts()
                    effort = node_scale(counts.best_nodes, counts.root_nodes, depth)
                if k == 0 and fail_high is not None:
                    best_code, best_line = fail_high, [fail_high]
                if value is None:
                    stopped = True
                    break
                line = [int(x) for x in a.pv[0, : a.pv_len[0]]] or [int(a.root_moves[k])]
                done.append((value, line))
            if stopped and not done:
                # A move that beat the previous best in the unfinished iteration is trusted.
                if a.counts().root_updated and a.pv_len[0] > 0 and depth > 1:
                    best_code = int(a.pv[0, 0])
                    best_line = [int(x) for x in a.pv[0, : a.pv_len[0]]]
                break
            # Later lines can (rarely) outscore earlier ones: report them best first.
            done.sort(key=lambda item: -item[0])
            for k, (value, line) in enumerate(done):
                a.root_moves[k] = line[0]
                previous[k] = value
            score, best_line = done[0]
            best_code = best_line[0]
            last_info = self._report_lines(board, depth, done, on_info)
            if stopped:
                break

            if limit.mate is not None:
                mate = _mate_moves(score)
                if mate is not None and 0 < mate <= limit.mate:
                    break
            if self._soft_ms is not None and not self._pondering:
                elapsed = (time.perf_counter() - self._start_time) * 1000.0
                scale = stability.update(best_code, score, depth)
                if n_root == 1 and depth >= 4:
                    break
                if elapsed > self._soft_ms * scale * effort * STOP_SHARE:
                    break
            counts = a.counts()
            if counts.node_limit and counts.nodes >= counts.node_limit:
                break
            if self._node_budget is not None and 2 * self.nodes_searched() >= self._node_budget:
                break  # the next iteration would overrun the strength budget
            proven = _mate_moves(score) is not None and depth > 2 * (core.MATE - abs(score)) + 6
            if proven and not (limit.is_unbounded() or ponder):
                # A mate well inside the horizon cannot change with more depth.
                break
        return best_code, best_line, last_info

    def _report_lines(
        self, board: Board, depth: int, done: list[tuple[int, list[int]]],
        on_info: InfoCallback | None,
    ) -> Info:
        """Report the lines finished at ``depth`` (with the rest from the depth before).

        All lines finished: one report each, best first. A search stopped after
        some lines: those, then the previous iteration's other lines, so the
        last report of every line stays the freshest one.
        """
        points = material(board)
        fresh = [
            self._make_info(board, depth, value, line, k + 1, points)
            for k, (value, line) in enumerate(done)
        ]
        seen = {x.pv[0] for x in fresh if x.pv}
        missing = max(0, len(self._lines) - len(fresh))
        older = [x for x in self._lines if x.pv and x.pv[0] not in seen][:missing]
        lines = fresh + [replace(x, multipv=len(fresh) + i + 1) for i, x in enumerate(older)]
        self._lines = lines
        if on_info is not None:
            for item in lines[: self.multipv]:
                on_info(item)
        return lines[0]

    def _make_info(
        self, board: Board, depth: int, score: int, line: list[int], multipv: int, points: int
    ) -> Info:
        """The Info of one finished line."""
        seldepth = self._arrays.counts().seldepth
        elapsed = max(time.perf_counter() - self._start_time, 1e-6)
        nodes = self.nodes_searched()
        mate = _mate_moves(score)
        if mate is None and self._tb_root is not None:
            score = self._tb_root.score  # the tables know better than the evaluation
        cp = None if mate is not None else score
        return Info(
            depth=depth,
            seldepth=max(int(seldepth), depth),
            score_cp=cp,
            score_mate=mate,
            nodes=nodes,
            nps=int(nodes / elapsed),
            time_ms=int(elapsed * 1000),
            hashfull=int(core.hashfull(self._arrays.table, self._age)),
            pv=self._legal_line(board, line),
            multipv=multipv,
            wdl=wdl(cp, mate, points),
            tbhits=(self.tablebases.search_hits([self._arrays, *self._helpers])
                    if self.tablebases.loaded else None),
        )

    def _wait_if_unbounded(self, limit: Limit, pondering: bool) -> None:
        """With infinite or ponder searches the result waits for stop (or ponderhit)."""
        if limit.infinite or pondering:
            self._release.wait()

    def nodes_searched(self) -> int:
        """Nodes of the current (or last) search, over all threads."""
        return self._arrays.counts().nodes + sum(h.counts().nodes for h in self._helpers)

    @staticmethod
    def _legal_line(board: Board, line: list[int]) -> list[Move]:
        """The longest legal prefix of a line of core moves, as Moves.

        Checked in one compiled call on a copy of the position (it runs at every
        iteration; replaying the line on a Board copy cost about 2% of the search).
        """
        if not line:
            return []
        pos = board.core_position()  # a copy already: no second one on every iteration
        scratch = np.zeros(core.MAX_MOVES, dtype=np.int64)
        n = core.legal_prefix(pos, np.array(line, dtype=np.int64), scratch)
        return [core_to_move(code) for code in line[:n]]

    def _finish(
        self, board: Board, best_code: int, line: list[int], last: Info | None
    ) -> SearchResult:
        """Result with a legal best move and, if known, a legal ponder move."""
        best = core_to_move(best_code)
        if not board.is_legal(best):
            best = board.legal_moves[0]
        pv = self._legal_line(board, line)
        ponder = pv[1] if len(pv) >= 2 and pv[0] == best else self._hash_reply(board, best)
        return SearchResult(best, ponder, last, list(self._lines))

    def _hash_reply(self, board: Board, move: Move) -> Move | None:
        """The table's best reply after ``move``, if it is legal."""
        after = board.copy()
        after.push(move)
        key = np.uint64(after.zobrist_key())
        hit, move_code, _, _, _, _ = core.probe(self._arrays.table, key, 0)
        if hit and move_code:
            reply = core_to_move(int(move_code))
            if after.is_legal(reply):
                return reply
        return None
