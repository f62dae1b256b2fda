"""Datagen games on a Ray cluster: warm self-play workers, lines handed back in game order.

The arena's worker pool (:class:`plies.arena.cluster.WarmPool`) does the
distribution; this module only says what one job is (a game number) and what
a worker keeps warm (its players).  Game ``n`` depends only on the settings and
``n`` (:mod:`plies.learn.datagen.selfplay`), and the driver hands the lines back
strictly by game number, so the one writer on the driver writes the bytes a
one-process run writes.

A game lost with its worker process, or with an outside engine's process, is
replayed (on another worker when there is one).  A game lost on every attempt
ends the run once the games before it are handed back: the file keeps them
and a re-run continues from that game.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from functools import partial

from plies.agents.player import Player, PlayerError
from plies.agents.spec import parse_player
from plies.arena.cluster import ClusterError, JobLost, WarmPool, cluster_cpus, ray_session
from plies.arena.interrupt import CtrlC
from plies.arena.remote import LOST_FAULTS, WarmPlayers
from plies.learn.datagen.positions import position_lines
from plies.learn.datagen.selfplay import DatagenSettings, play_datagen_game


class DatagenWorker(WarmPlayers[Player]):
    """Plays datagen games in one worker slot, keeping its players between games."""

    def __init__(self, settings: DatagenSettings) -> None:
        """Remember the settings; the players start in :meth:`setup`."""
        super().__init__()
        self.settings = settings

    def setup(self) -> None:
        """Start the player (and the opponent, if there is one) once."""
        self._start()

    def _start(self) -> None:
        """Create the players, closing any broken ones first."""
        self.close()
        texts = [self.settings.player]
        if self.settings.opponent:
            texts.append(self.settings.opponent)
        players: list[Player] = []
        try:
            for text in texts:
                players.append(parse_player(text).create())
        except (PlayerError, ValueError) as exc:
            for player in players:
                player.close()
            detail = exc.detail if isinstance(exc, PlayerError) else str(exc)
            raise RuntimeError(f"player could not start: {detail}") from None
        self._keep(players)

    def run(self, number: int) -> list[str]:
        """Game ``number``'s lines; raise JobLost if a player's process went away during it."""
        if not all(p.healthy for p in self._players.values()):
            try:
                self._start()
            except RuntimeError as exc:
                raise JobLost(str(exc)) from None
        first = self._players[0]
        second = self._players[1] if len(self._players) > 1 else first
        record = play_datagen_game(self.settings, number, first, second, self._stop)
        if self._stop.is_set():
            raise JobLost(f"game {number}: cancelled")
        lines = position_lines(record, self.settings.skip_plies, self.settings.scores)
        if record.finished and record.fault in LOST_FAULTS:
            # A local run keeps such a game as one without lines: that is the last resort.
            raise JobLost(f"game {number}: {record.reason}", fallback=lines)
        return lines


@dataclass
class ClusterStats:
    """What a cluster run did so far: worker slots started, workers set up, games replayed."""

    slots: int = 0
    workers: list[str] = field(default_factory=list)
    replays: int = 0


def games_on_cluster(
    settings: DatagenSettings,
    first: int,
    last: int,
    address: str,
    slots: int = 0,
    stats: ClusterStats | None = None,
) -> Generator[list[str], None, None]:
    """The lines of games ``first`` .. ``last`` in order, played on the Ray cluster at
    ``address`` by ``slots`` workers (0: one per cluster CPU); ``stats`` is kept current.

    Ctrl-C stops the run (KeyboardInterrupt once the workers are closed) and closing
    the iterator early cancels the games in flight; a cluster that cannot go on raises
    :class:`ClusterError` after the games before the trouble were handed back.
    """
    finished: dict[int, list[str]] = {}
    next_number = first
    given_up: tuple[int, str] | None = None
    stats = stats if stats is not None else ClusterStats()
    with ray_session(address), CtrlC() as ctrl_c:
        count = min(slots or cluster_cpus(), last - first + 1)
        pool: WarmPool[int, list[str]] = WarmPool(partial(DatagenWorker, settings), count)
        stats.slots = count
        with pool:
            jobs = [(n, n) for n in range(first, last + 1)]

            def should_stop() -> bool:
                """Ctrl-C, or every game before one that was given up is handed back."""
                return ctrl_c.pressed or (given_up is not None and next_number >= given_up[0])

            for outcome in pool.run(jobs, should_stop=should_stop):
                stats.workers = [str(w) for w in pool.workers]
                stats.replays = pool.replays
                if outcome.result is None:
                    if given_up is None or outcome.key < given_up[0]:
                        given_up = (outcome.key, outcome.error)
                    continue
                finished[outcome.key] = outcome.result
                while next_number in finished:
                    yield finished.pop(next_number)
                    next_number += 1
                if should_stop():
                    break
    if ctrl_c.pressed:
        raise KeyboardInterrupt
    if given_up is not None:
        number, reason = given_up
        raise ClusterError(
            f"game {number} was lost on every attempt ({reason}); "
            "run the same command to continue from it"
        )
