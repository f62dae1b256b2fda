"""A match's games on a Ray cluster: warm game workers, results owned by the driver.

Each worker slot is a :class:`GameWorker` inside a Ray actor: it starts the
match's players once (outside engines stay running between games; each game
still begins with ``ucinewgame`` + ``isready``) and plays whatever game the
driver hands it.  The driver keeps everything that counts: it releases
finished games strictly by game number, so the live lines, the PGN file, the
scores and the SPRT see the same sequence as a one-thread local run, and a
deterministic pair of engines gives the same results either way.

An outside engine that dies mid-game (or a worker process that dies) voids
that game only: it is replayed from the same opening with the same colours,
on another worker when there is one, and counted once.  An engine that dies
in every attempt loses its game, as it would locally.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Generic, TypeVar

from plies.agents.player import Player, PlayerError
from plies.agents.spec import PlayerSpec
from plies.arena.cluster import ClusterError, JobLost, WarmPool, cluster_cpus, ray_session
from plies.arena.interrupt import CtrlC
from plies.arena.match import GameTask, Match, MatchResult, play_task, seat, unique_names
from plies.arena.referee import GameRecord, GameSettings

LOST_FAULTS = frozenset({"crash", "start"})
"""Player faults that mean "the engine process went away", not "the engine played badly"."""

PlayerT = TypeVar("PlayerT", bound=Player)


class WarmPlayers(Generic[PlayerT]):
    """A cluster worker's players by slot, kept between jobs: replaced, aborted by
    :meth:`stop` and closed under one lock (the pool calls ``stop`` from another thread)."""

    def __init__(self) -> None:
        """No players yet; ``_stop`` is the flag the worker's games watch."""
        self._players: dict[int, PlayerT] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def _keep(self, players: list[PlayerT]) -> None:
        """Hold ``players`` (slots 0, 1, ...) from now on (the old ones already closed)."""
        with self._lock:
            self._players = dict(enumerate(players))

    def _put(self, slot: int, player: PlayerT) -> None:
        """Hold ``player`` in ``slot`` from now on (the old one already closed)."""
        with self._lock:
            self._players[slot] = player

    def stop(self) -> None:
        """Abandon the job in progress (kills outside engines mid-search)."""
        self._stop.set()
        with self._lock:
            players = list(self._players.values())
        for player in players:
            player.stop()

    def close(self) -> None:
        """Close the players."""
        with self._lock:
            players, self._players = list(self._players.values()), {}
        for player in players:
            player.close()


class GameWorker(WarmPlayers[Player]):
    """Plays arena games in one worker slot, keeping its players warm between games."""

    def __init__(
        self,
        specs: Sequence[PlayerSpec],
        game_settings: GameSettings,
        needs: Sequence[tuple[str, str]] = (),
    ) -> None:
        """Remember the players, the game rules and the (path, what it is) pairs every node
        must have; nothing starts before :meth:`setup`."""
        super().__init__()
        self.specs = list(specs)
        self.needs = tuple(needs)
        self.names = unique_names(self.specs)
        self.game_settings = game_settings

    def setup(self) -> None:
        """Check every needed path and engine binary exists here, then start every player once."""
        # Ray workers install uvloop, whose subprocesses cannot start a new process group
        # (python-chess does, so Ctrl-C never reaches an engine): use asyncio's own loop.
        asyncio.set_event_loop_policy(None)
        for path, what in self.needs:
            if not Path(path).exists():
                raise RuntimeError(f"{what} ({path}) is not on this node")
        for spec in self.specs:
            if spec.kind != "uci":
                continue
            exe = spec.command[0]
            if shutil.which(exe) is None and not (Path(exe).is_file() and os.access(exe, os.X_OK)):
                raise RuntimeError(f"engine not found or not executable: {exe}")
        for index, spec in enumerate(self.specs):
            try:
                self._get(index)
            except PlayerError as exc:
                raise RuntimeError(f"player {spec.text!r}: {exc.detail}") from None

    def _get(self, index: int) -> Player:
        """The warm player for spec ``index``, replaced if it broke."""
        player = self._players.get(index)
        if player is not None and not player.healthy:
            player.close()
            player = None
        if player is None:
            player = seat(self.specs[index], self.names[index])
            self._put(index, player)
        return player

    def run(self, task: GameTask) -> GameRecord | None:
        """Play one game; raise JobLost if an outside engine's process went away during it."""
        record = play_task(self._get, self.names, task, self.game_settings, self._stop)
        if record is not None and record.finished and record.fault in LOST_FAULTS:
            loser = record.black_index if record.result == "1-0" else record.white_index
            if self.specs[loser].kind == "uci":
                raise JobLost(f"game {task.round}: {record.reason}", fallback=record)
        return record


def _release(
    match: Match, finished: dict[int, GameRecord | None], next_round: int, flush: bool = False
) -> int:
    """Collect finished games in game-number order; return the first game still missing.

    With ``flush`` every finished game is collected, gaps and all (Ctrl-C).
    """
    while next_round in finished and not match.stopping:
        record = finished.pop(next_round)
        next_round += 1
        if record is not None:
            match.collect(record)
    if flush:
        for key in sorted(finished):
            record = finished.pop(key)
            if record is not None and not match.stopping:
                match.collect(record)
    return next_round


def run_on_cluster(match: Match) -> MatchResult:
    """Play ``match``'s games on the Ray cluster named by its settings; return the result."""
    settings = match.settings
    res = match.result
    address = settings.cluster
    assert address is not None
    make_worker = partial(
        GameWorker, tuple(match.specs), match.game_settings, settings.cluster_needs
    )
    finished: dict[int, GameRecord | None] = {}
    next_round = 1
    with ray_session(address):
        slots = min(settings.cluster_slots or cluster_cpus(), max(1, len(match.tasks)))
        pool: WarmPool[GameTask, GameRecord | None] = WarmPool(make_worker, slots)
        res.worker_slots = slots
        with pool, CtrlC() as ctrl_c:
            try:
                jobs = [(t.round, t) for t in match.tasks]
                for outcome in pool.run(jobs, should_stop=lambda: ctrl_c.pressed):
                    if outcome.error:
                        res.given_up += 1
                    finished[outcome.key] = outcome.result
                    next_round = _release(match, finished, next_round)
                    res.replays = pool.replays
                    res.workers = [str(w) for w in pool.workers]
                    if match.stopping or ctrl_c.pressed:
                        break
                if ctrl_c.pressed:
                    _release(match, finished, next_round, flush=True)
                    res.interrupted = True
                    match.stop()
                # Started or finished, but not counted: the match stopped before their turn.
                res.cancelled = pool.busy + sum(1 for r in finished.values() if r is not None)
            except KeyboardInterrupt:  # where CtrlC could not take over SIGINT
                _release(match, finished, next_round, flush=True)
                res.interrupted = True
                match.stop()
            except ClusterError:
                _release(match, finished, next_round, flush=True)
                raise
            finally:
                res.replays = pool.replays
                res.workers = [str(w) for w in pool.workers]
    if res.sprt_verdict is None and res.played + res.given_up < res.scheduled:
        res.interrupted = True
    return res
