"""The ``Engine``: a facade over the compiled search, which it runs in its own thread.

The engine never prints. Callers (the UCI loop, the CLI, agents, tests) get one
``Info`` per finished iteration through a callback and one ``Info`` at the end
(its ``move`` the best move). The search itself runs in compiled ``nogil`` code, so ``stop()`` from
another thread sets a flag that it notices within about a thousand nodes.
The parts live beside it: the options in ``plies.options``, the evaluation
choice in ``nets``, the clock and thread in ``control``, the deepening in
``deepening``, the helper threads in ``smp`` and the reports in ``reporting``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

import plies.core as core
from plies.board import Board, Move
from plies.compile_notice import compile_notice, compile_wait_notice
from plies.core import MAX_PLY
from plies.engine import prewarm
from plies.engine.control import SearchClock, SearchThread
from plies.engine.deepening import Deepening, InfoCallback
from plies.engine.limits import Info, Limit
from plies.engine.nets import NetChoice, default_net_file
from plies.engine.reporting import finish, hash_reply
from plies.engine.smp import node_shares, start_helpers, stop_helpers
from plies.engine.state import SearchArrays, available_megabytes
from plies.engine.strength import (
    CANDIDATES,
    DEFAULT_ELO,
    choose_line,
    is_full_strength,
    strength_for,
)
from plies.options import (
    CLEAR_HASH,
    ELO,
    EVAL_FILE,
    HASH,
    LIMIT_STRENGTH,
    MOVE_OVERHEAD,
    MULTIPV,
    OPTIONS,
    SLOW_MOVER,
    SYZYGY_OPTIONS,
    THREADS,
    TUNE_OPTIONS,
    USE_NET,
    OptionValue,
    find_option,
)
from plies.params import PARAMS, checked_values
from plies.syzygy.root import RootRanking, Tablebases

DoneCallback = Callable[[Info], None]

DEFAULT_MOVE_OVERHEAD_MS = MOVE_OVERHEAD.spin_default()
DEFAULT_SLOW_MOVER = SLOW_MOVER.spin_default()
NODE_CAP_FACTOR = 8
"""A strength-limited search is cut off at this many times its node budget."""
MIN_NODE_CAP = 50_000
"""The smallest such cut-off: far more than any depth-1 search needs."""


class Engine:
    """A chess engine: owns a transposition table and searches positions on request."""

    def __init__(
        self,
        hash_mb: int = HASH.spin_default(),
        move_overhead_ms: int = DEFAULT_MOVE_OVERHEAD_MS,
        threads: int = THREADS.spin_default(),
        default_net: str | os.PathLike[str] | None = None,
    ) -> None:
        """Create an engine with a ``hash_mb`` MB table searching on ``threads`` threads.

        ``default_net`` names the net used when ``EvalFile`` is empty (None:
        ``default_net_file()``). If that net cannot be loaded the engine still starts,
        on the classical evaluation, and says why in ``net_notice`` (and a warning).
        """
        HASH.check(hash_mb)
        self._arrays = SearchArrays(hash_mb)
        self._hash_mb = hash_mb
        self.move_overhead_ms = MOVE_OVERHEAD.check(move_overhead_ms)
        """Milliseconds kept in reserve per move for communication delays."""
        self.slow_mover = DEFAULT_SLOW_MOVER
        """Percent of the planned time per move to aim at (more: deeper now, less later)."""
        self._age = 0
        self._lock = threading.Lock()
        self._thread = SearchThread()
        self._clock = SearchClock(self._arrays)
        self._result: Info | None = None
        self._helpers: list[SearchArrays] = []
        self.multipv = MULTIPV.spin_default()
        """Lines reported per iteration: the best ``multipv`` root moves, each searched fully."""
        self.limit_strength = LIMIT_STRENGTH.default is True
        """Whether to play at ``elo`` instead of full strength (``plies.engine.strength``)."""
        self.elo = DEFAULT_ELO
        """The level played when ``limit_strength`` is on."""
        self._rng = random.Random()
        self._lines: list[Info] = []
        self._nets = NetChoice(default_net_file() if default_net is None else Path(default_net))
        self.tablebases = Tablebases()
        """Syzygy tables and options (``SyzygyPath`` ...; ``plies.syzygy.root``)."""
        self._tb_root: RootRanking | None = None
        self.set_threads(threads)

    # -- configuration --------------------------------------------------------

    @property
    def hash_mb(self) -> int:
        """Transposition-table size in MB."""
        return self._hash_mb

    def set_hash(self, hash_mb: int) -> None:
        """Resize (and clear) the transposition table."""
        HASH.check(hash_mb)
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
        THREADS.check(threads)
        self._require_idle()
        self._helpers = [self._arrays.helper() for _ in range(threads - 1)]

    def seed(self, seed: int | None) -> None:
        """Seed the random choice of a strength-limited engine (None: from the OS)."""
        self._rng.seed(seed)

    def set_multipv(self, lines: int) -> None:
        """Report the best ``lines`` root moves (within ``MultiPV``'s range) each iteration."""
        self.multipv = MULTIPV.check(lines)

    def set_elo(self, elo: int) -> None:
        """Set the level of a strength-limited engine (within ``UCI_Elo``'s range)."""
        self.elo = ELO.check(elo)

    @property
    def use_net(self) -> bool:
        """Whether the search evaluates with the net (``UseNet``): on when plies ships one."""
        return self._nets.use_net

    @property
    def net_notice(self) -> str | None:
        """Why the classical evaluation runs although a net is wanted: the default net could
        not be loaded, or ``UseNet`` is on with no net (None: no problem)."""
        return self._nets.notice

    @property
    def net(self) -> core.Net | None:
        """The net the search evaluates with (None: the classical evaluation)."""
        return self._nets.net

    def set_eval_file(self, path: str) -> None:
        """Load the net file ``path`` ("": the packaged default); a bad file raises ValueError
        and changes nothing. Clears the table, whose evaluations came from the old net."""
        self._require_idle()
        self._nets.set_eval_file(path)
        self.new_game()

    def set_use_net(self, on: bool) -> None:
        """Evaluate with the net (loading it now if needed) or with the classical evaluation.

        A net file that cannot be read raises ValueError and changes nothing; with no
        net at all (no ``EvalFile``, no packaged default) the classical evaluation
        stays in use (``net_notice`` says so). Clears the table.
        """
        self._require_idle()
        self._nets.set_use_net(on)
        self.new_game()

    def set_net(self, net: core.Net | None) -> None:
        """Search with this loaded net (None: the classical evaluation); clears the table."""
        self._require_idle()
        self._nets.set_net(net)
        self.new_game()

    def evaluation_name(self) -> str:
        """Which evaluation the search uses, for a user (the net's file and width, or classical)."""
        return self._nets.name()

    def set_option(self, name: str, value: OptionValue) -> None:
        """Set an option by its UCI name, checked against its declaration in ``plies.options``.

        A value may be the text of a ``setoption`` or already typed (an int, a bool)."""
        option = find_option(OPTIONS, name)
        if option is None:
            tunable = find_option(TUNE_OPTIONS, name)
            if tunable is not None:
                self.set_search_params({tunable.name: tunable.spin_value(value)})
                return
        setter = None if option is None else _SETTERS.get(option.name)
        if option is None or setter is None:
            raise ValueError(f"unknown option: {name}")
        setter(self, option.parse(value))

    def search_params(self) -> dict[str, int]:
        """The search's tunable numbers now in use, by name (``plies.params``)."""
        return {p.name: int(v) for p, v in zip(PARAMS, self._arrays.arrays.params, strict=True)}

    def set_search_params(self, values: dict[str, int]) -> None:
        """Search with ``values`` (by name; the others keep theirs) from the next search on;
        a name or value out of range is a ParamError and changes nothing."""
        self._require_idle()
        slots = checked_values({**self.search_params(), **values})
        for arrays in (self._arrays, *self._helpers):
            arrays.arrays.set_params(slots)

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

    def _search_position(self, board: Board) -> core.Position:
        """The position a search of ``board`` runs on (the board's copy), carrying the net
        if one is in use."""
        pos = board.core_position()
        net = self.net
        if net is not None:
            core.attach_net(pos, net)
        return pos

    # -- searching ------------------------------------------------------------

    def warm_up(self) -> None:
        """Compile (or load) the search and every entry point a game reaches, with a short
        search.

        On a cold cache the compile runs in phases, parts of each in a worker process
        (``plies.engine.prewarm``), and the search then loads them from the cache; the
        notice says how long a first run waits.
        """
        cold = prewarm.cache_is_cold()
        notice = compile_notice(compile_wait_notice() + "...") if cold else contextlib.nullcontext()
        with notice:
            if cold:
                prewarm.compile_in_phases()
            board = Board()
            move = board.legal_moves[0]
            board.push(move)
            board.pop()
            scratch = Engine(hash_mb=1)
            scratch.search(board, Limit(depth=3))
            prewarm.compile_entry_points(board, move, scratch._arrays.table, scratch.net)

    def evaluate(self, board: Board) -> int:
        """Static evaluation in centipawns from the side to move (the net's, when in use;
        a residual net's: the classical evaluation plus the net's output)."""
        return core.static_evaluate(self._search_position(board))

    def is_searching(self) -> bool:
        """Whether a search started with ``start`` is still running (its callback excepted)."""
        return self._thread.searching

    def stop(self) -> None:
        """Ask the running search to finish now; it returns its best move so far."""
        self._clock.stop()

    def ponderhit(self) -> None:
        """The expected move was played: keep searching, now on the real clock."""
        self._clock.ponderhit(self.move_overhead_ms, self.slow_mover)

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
        """Start searching in a background thread; ``on_done`` gets the final ``Info``.

        ``started_at`` (a ``time.perf_counter()`` reading, e.g. when ``go`` was
        read) is when the clock started for this move; the default is now.
        """
        self._require_idle()
        self._thread.join()  # finished (not searching), but may still be in on_done
        board = board.copy()
        moves = None if searchmoves is None else list(searchmoves)
        self._clock.prepare(limit, ponder)

        def run() -> Callable[[], None] | None:
            """Search; then hand the result over."""
            result = self.search(
                board, limit, on_info, moves, ponder, _prepared=True, _started_at=started_at
            )
            return None if on_done is None else lambda: on_done(result)

        self._thread.run(run)

    def wait(self) -> Info | None:
        """Wait for the search started with ``start``; its final ``Info``, or what it raised."""
        self._thread.join()
        if self._thread.error is not None:
            raise self._thread.error
        return self._result

    def search(
        self,
        board: Board,
        limit: Limit,
        on_info: InfoCallback | None = None,
        searchmoves: Iterable[Move] | None = None,
        ponder: bool = False,
        _prepared: bool = False,
        _started_at: float | None = None,
    ) -> Info:
        """Search ``board`` within ``limit`` (blocking): the report of the best line, with
        ``move`` the move to play (None only without a legal move), ``ponder`` the
        expected reply and ``lines`` every MultiPV line, best first."""
        with self._lock:
            if not _prepared:
                self._clock.prepare(limit, ponder)
            weaker = self.limit_strength and not is_full_strength(self.elo)
            strength = strength_for(self.elo) if weaker else None
            lines_wanted = self.multipv
            node_budget = None
            if strength is not None:
                # A weaker player: a small node budget, a few candidate moves to choose from.
                node_budget = strength.nodes
                lines_wanted = max(self.multipv, CANDIDATES)
                if limit.nodes is None:
                    # A hard cap far above the budget: only a tactical explosion reaches it.
                    limit = replace(limit, nodes=max(NODE_CAP_FACTOR * strength.nodes,
                                                     MIN_NODE_CAP))
            try:
                result = self._iterate(board, limit, on_info, searchmoves, ponder, _started_at,
                                       lines_wanted, node_budget)  # fmt: skip
                if strength is not None and result.lines:
                    chosen = choose_line(result.lines, strength, self._rng)
                    reply = chosen.pv[1] if len(chosen.pv) > 1 else None
                    result = replace(result, move=chosen.pv[0], ponder=reply)
            finally:
                self._clock.end()
            self._result = result
            return result

    def _iterate(
        self,
        board: Board,
        limit: Limit,
        on_info: InfoCallback | None,
        searchmoves: Iterable[Move] | None,
        ponder: bool,
        started_at: float | None,
        lines_wanted: int,
        node_budget: int | None,
    ) -> Info:
        """Set up the arrays, the clock and the helpers, then deepen; the heart of ``search``."""
        a = self._arrays
        legal = board.core_legal()
        root = [int(m) for m in legal]
        if searchmoves is not None:
            wanted = {m.uci() for m in searchmoves}
            restricted = [m for m in root if board.move_of(m).uci() in wanted]
            root = restricted or root
        self._lines = []
        if not root:
            self._clock.wait_if_unbounded(limit, ponder)
            return Info()
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
        self._clock.begin(limit, board.turn, started_at, self.move_overhead_ms,
                          self.slow_mover)  # fmt: skip
        if limit.nodes is not None and limit.nodes <= 0:
            core.set_stop(info, 1)

        max_depth = min(limit.depth or MAX_PLY - 1, MAX_PLY - 1)

        # Step 3: deepen until a limit says stop, helper threads filling the table.
        deepening = Deepening(
            a, pos, board, limit, self._clock, self._age, lines_wanted, self.multipv,
            node_budget, self.nodes_searched, on_info, ponder,
            tb_score=None if self._tb_root is None else self._tb_root.score,
            tb_hits=self._tb_hits if self.tablebases.loaded else None,
        )  # fmt: skip
        workers = start_helpers(helpers, shares[1:], self._age, pos, root, max_depth)
        try:
            best_code, best_line, last_info = deepening.run(n_root, max_depth, root)
        finally:
            stop_helpers(helpers, workers)
            self._lines = deepening.lines
        self._clock.wait_if_unbounded(limit, self._clock.pondering)
        return finish(board, a.table, best_code, best_line, last_info, self._lines)

    def nodes_searched(self) -> int:
        """Nodes of the current (or last) search, over all threads."""
        return self._arrays.counts().nodes + sum(h.counts().nodes for h in self._helpers)

    def _hash_reply(self, board: Board, move: Move) -> Move | None:
        """The table's best reply after ``move``, if it is legal."""
        return hash_reply(self._arrays.table, board, move)

    def _set_move_overhead(self, ms: int) -> None:
        """Keep ``ms`` milliseconds in reserve per move."""
        self.move_overhead_ms = MOVE_OVERHEAD.check(ms)

    def _set_slow_mover(self, percent: int) -> None:
        """Aim at ``percent`` of the planned time per move."""
        self.slow_mover = SLOW_MOVER.check(percent)

    def _tb_hits(self) -> int:
        """Tablebase probes of this search over all threads."""
        return int(self.tablebases.search_hits([self._arrays, *self._helpers]))

    def _set_tablebase_option(self, name: str, value: OptionValue) -> None:
        """A ``Syzygy*`` option (loading tables or changing how they are probed)."""
        self._require_idle()
        self.tablebases.set_option(name, value)

    def _set_limit_strength(self, on: bool) -> None:
        """Play at ``elo`` (on) or at full strength."""
        self.limit_strength = on


def _int(value: OptionValue) -> int:
    """A spin's checked value."""
    assert isinstance(value, int)
    return value


def _set_tablebase_option(engine: Engine, value: OptionValue, name: str) -> None:
    """Set the ``Syzygy*`` option ``name``."""
    engine._set_tablebase_option(name, value)


# What each option the engine reads does with its checked value (the table checked it).
_SETTERS: dict[str, Callable[[Engine, OptionValue], None]] = {
    HASH.name: lambda engine, value: engine.set_hash(_int(value)),
    THREADS.name: lambda engine, value: engine.set_threads(_int(value)),
    CLEAR_HASH.name: lambda engine, _: engine.new_game(),
    MOVE_OVERHEAD.name: lambda engine, value: engine._set_move_overhead(_int(value)),
    SLOW_MOVER.name: lambda engine, value: engine._set_slow_mover(_int(value)),
    MULTIPV.name: lambda engine, value: engine.set_multipv(_int(value)),
    LIMIT_STRENGTH.name: lambda engine, value: engine._set_limit_strength(value is True),
    ELO.name: lambda engine, value: engine.set_elo(_int(value)),
    EVAL_FILE.name: lambda engine, value: engine.set_eval_file(str(value or "")),
    USE_NET.name: lambda engine, value: engine.set_use_net(value is True),
    **{option.name: functools.partial(_set_tablebase_option, name=option.name)
       for option in SYZYGY_OPTIONS},
}
