"""Datagen games played by worker processes, handed back in game order."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Generator
from concurrent.futures import Future, ProcessPoolExecutor

from plies.agents.player import Player, PlayerError
from plies.agents.spec import parse_player
from plies.learn.datagen.positions import position_lines
from plies.learn.datagen.selfplay import DatagenSettings, play_datagen_game

_players: list[Player] = []
_settings: list[DatagenSettings] = []
_failure: list[str] = []


def _exit_with_parent(parent: int) -> None:
    """End this worker once its parent is gone (killed without a chance to stop us)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _start_worker(settings: DatagenSettings) -> None:
    """Create this worker's players once; Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    _settings.append(settings)
    try:
        first = parse_player(settings.player).create()
        _players.append(first)
        second = parse_player(settings.opponent).create() if settings.opponent else first
        _players.append(second)
    except (PlayerError, ValueError) as exc:
        # Reported by the first game as one plain error, not as a dead pool.
        _failure.append(exc.detail if isinstance(exc, PlayerError) else str(exc))


def _play(number: int) -> list[str]:
    """Game ``number``'s lines, played in this worker."""
    if _failure:
        raise ValueError(f"player could not start: {_failure[0]}")
    settings = _settings[0]
    record = play_datagen_game(settings, number, _players[0], _players[1])
    return position_lines(record, settings.skip_plies, settings.scores)


def games_in_order(
    settings: DatagenSettings, first: int, last: int, workers: int
) -> Generator[list[str], None, None]:
    """The lines of games ``first`` .. ``last`` in order, ``workers`` games at a time.

    Game ``n`` depends only on the settings and ``n`` (each is seeded on its own and
    the players start each game afresh), so the lines are those of a one-process run.
    Closing the iterator early (Ctrl-C in the caller) cancels the games not started
    and stops the workers.
    """
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, context, _start_worker, (settings,))
    pending: dict[int, Future[list[str]]] = {}
    upcoming = first
    try:
        for number in range(first, last + 1):
            while upcoming <= last and len(pending) < 2 * workers:
                pending[upcoming] = pool.submit(_play, upcoming)
                upcoming += 1
            yield pending.pop(number).result()
    finally:
        for future in pending.values():
            future.cancel()
        # A game in progress is of no use once the caller stops reading: end its worker
        # now instead of waiting for the game (the executor offers no public way).
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
