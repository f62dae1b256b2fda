"""SPSA's game pairs: one worker's two engines, here in threads or on a Ray cluster.

A :class:`PairWorker` keeps two plies engines (``plies uci --tune``) warm and plays a
:class:`plies.learn.spsa.Proposal` as one game pair: the ``plus`` values with White,
then with Black, from the iteration's opening. The local runner gives each thread one;
on a cluster the arena's worker pool (:class:`plies.arena.cluster.WarmPool`) gives each
slot one and hands out the proposals in rounds of one per slot, the values of each round
taken after the previous round's results are in (as fishtest hands a batch of games the
values current when it asks).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from plies.agents.player import PlayerError
from plies.agents.uci_engine import UciEngine
from plies.arena.builds import Build
from plies.arena.cluster import JobLost, WarmPool, cluster_cpus, ray_session
from plies.arena.interrupt import CtrlC
from plies.arena.openings import Opening
from plies.arena.referee import GameRecord, GameSettings, play_game
from plies.arena.remote import LOST_FAULTS, WarmPlayers
from plies.learn.spsa import Proposal, Spsa

_POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def pair_result(first: GameRecord, second: GameRecord) -> float | None:
    """Wins minus losses of the side that had White in ``first`` and Black in ``second``
    (-2..2), or None if either game has no result."""
    if first.result not in _POINTS or second.result not in _POINTS:
        return None
    points = _POINTS[first.result][0] + _POINTS[second.result][1]
    return 2 * points - 2


class PairWorker(WarmPlayers[UciEngine]):
    """Plays SPSA game pairs with two engines of one build, kept between pairs."""

    def __init__(self, build: Build, settings: GameSettings, openings: Sequence[Opening]) -> None:
        """Remember the build, the game rules and the openings; engines start in ``setup``."""
        super().__init__()
        self.build = build
        self.settings = settings
        self.openings = list(openings)

    def setup(self) -> None:
        """Start both engines once (RuntimeError with the reason if they cannot start)."""
        # Ray workers install uvloop, whose subprocesses cannot start a new process group
        # (python-chess does): use asyncio's own loop, as the arena's workers do.
        asyncio.set_event_loop_policy(None)
        if not Path(self.build.src).exists():
            raise RuntimeError(f"the sources of plies ({self.build.src}) are not on this node")
        self._start()

    def _start(self) -> None:
        """Create the two engines, closing any old ones first."""
        self.close()
        players: list[UciEngine] = []
        try:
            for _ in range(2):
                player = self.build.spec().create()
                assert isinstance(player, UciEngine)
                players.append(player)
        except PlayerError as exc:
            for player in players:
                player.close()
            raise RuntimeError(f"the engine could not start: {exc.detail}") from None
        self._keep(players)

    def run(self, proposal: Proposal) -> float | None:
        """The pair's result for ``plus`` (None: stopped); JobLost if an engine went away."""
        if not self._players or not all(p.healthy for p in self._players.values()):
            try:
                self._start()
            except RuntimeError as exc:
                raise JobLost(str(exc)) from None
        plus, minus = self._players[0], self._players[1]
        try:
            plus.reconfigure({k: str(v) for k, v in proposal.plus.items()})
            minus.reconfigure({k: str(v) for k, v in proposal.minus.items()})
        except PlayerError as exc:
            raise JobLost(f"iteration {proposal.k}: {exc.detail}") from None
        opening = self.openings[(proposal.k - 1) % len(self.openings)]
        seed = 2 * proposal.k
        first = play_game(plus, minus, opening, self.settings, self._stop, seed)
        second = play_game(minus, plus, opening, self.settings, self._stop, seed + 1)
        if self._stop.is_set():
            return None
        if {first.fault, second.fault} & LOST_FAULTS:
            # An engine that died says nothing about the values it had.
            raise JobLost(f"iteration {proposal.k}: {first.reason or second.reason}")
        return pair_result(first, second)


Finished = Callable[[Proposal, float], None]
"""Called with each pair's proposal and result, in the order the results come in."""


def pairs_in_threads(
    spsa: Spsa, worker: Callable[[], PairWorker], threads: int, finished: Finished
) -> str:
    """Play every iteration on ``threads`` local workers; the first failure, or ''.

    Ctrl-C stops after the pairs in progress are abandoned (they do not count).
    """
    failures: list[str] = []
    stop = threading.Event()
    lock = threading.Lock()
    workers: list[PairWorker] = []

    def work() -> None:
        """One thread: a worker's engines, proposals until none are left."""
        try:
            w = worker()
            with lock:
                workers.append(w)
            w.setup()
            try:
                while not stop.is_set() and (proposal := spsa.propose()) is not None:
                    result = pair_with_replays(w, proposal)
                    if result is None:
                        return
                    finished(proposal, result)
            finally:
                w.close()
        except Exception as exc:  # reported once; the other threads stop too
            with lock:
                failures.append(str(exc) or type(exc).__name__)
            stop.set()
            for other in list(workers):
                other.stop()

    pool = [threading.Thread(target=work, daemon=True)
            for _ in range(min(threads, spsa.iterations))]  # fmt: skip
    with CtrlC() as ctrl:
        for t in pool:
            t.start()
        for t in pool:
            while t.is_alive():
                t.join(0.2)
                if ctrl.pressed and not stop.is_set():
                    stop.set()
                    for w in list(workers):
                        w.stop()
    return failures[0] if failures else ""


ATTEMPTS = 3
"""Tries of one pair whose engine died before a local run gives up (as the Ray pool's)."""


def pair_with_replays(worker: PairWorker, proposal: Proposal) -> float | None:
    """The pair's result, replayed on fresh engines when an engine died during it."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return worker.run(proposal)
        except JobLost as exc:
            if attempt == ATTEMPTS:
                raise RuntimeError(f"{exc.reason} (lost {ATTEMPTS} times)") from None
    return None  # pragma: no cover - the loop returns or raises


def pairs_on_cluster(
    spsa: Spsa,
    build: Build,
    settings: GameSettings,
    openings: Sequence[Opening],
    address: str,
    slots: int,
    finished: Finished,
) -> str:
    """Play every iteration on the Ray cluster at ``address`` with ``slots`` workers (0: one
    per cluster CPU), a round of one pair per worker at a time; the first failure, or ''.

    A pair lost with its worker is replayed elsewhere; one lost on every attempt ends the
    run (the results before it stand).
    """
    with ray_session(address), CtrlC() as ctrl:
        count = min(slots or cluster_cpus(), spsa.iterations)
        pool: WarmPool[Proposal, float | None] = WarmPool(
            partial(PairWorker, build, settings, tuple(openings)), count
        )
        with pool:
            while not ctrl.pressed:
                batch = [p for p in (spsa.propose() for _ in range(count)) if p is not None]
                if not batch:
                    return ""
                by_k = {p.k: p for p in batch}
                for outcome in pool.run([(p.k, p) for p in batch], lambda: ctrl.pressed):
                    if outcome.result is not None:
                        finished(by_k[outcome.key], outcome.result)
                    elif outcome.error:
                        lost = f"iteration {outcome.key} was lost on every attempt"
                        return f"{lost} ({outcome.error})"
    return ""
