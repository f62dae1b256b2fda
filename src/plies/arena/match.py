"""Match scheduling and running: pairings, paired openings, worker threads, SPRT and Ctrl-C.

Every pairing plays each opening twice, colours swapped, so neither side
profits from a lucky line.  Games are independent and run on ``concurrency``
worker threads; each thread keeps its own players (an outside engine is one
process per thread) and replaces any that crashed.  Ctrl-C or an SPRT verdict
stops the match: the games that finished are kept, those in flight are dropped.
With ``MatchSettings.cluster`` set the same games run on Ray workers instead
(:mod:`plies.arena.remote`); :func:`plies.arena.runner.run_match` picks where.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

from plies.agents.player import Player, PlayerError
from plies.agents.spec import PlayerSpec
from plies.arena.gsprt import Sprt
from plies.arena.interrupt import CtrlC
from plies.arena.openings import Opening
from plies.arena.pairs import pentanomial
from plies.arena.referee import GameRecord, GameSettings, play_game
from plies.arena.stats import Tally

# How often (seconds) the match loop looks at Ctrl-C and the stop flag between finished games.
POLL_S = 0.25


@dataclass(frozen=True)
class GameTask:
    """One scheduled game: its number, the players (spec indices), opening and seed."""

    round: int
    white: int
    black: int
    pairing: tuple[int, int]
    opening: Opening
    seed: int | None


@dataclass(frozen=True)
class MatchSettings:
    """How many games, on how many threads (or Ray workers), and whether to run an SPRT."""

    games: int = 2
    concurrency: int = 1
    seed: int | None = None
    gauntlet: bool = False
    # An SPRT on the first pairing, decided on its game pairs (pentanomial) at every game.
    sprt: Sprt | None = None
    # A Ray address ('auto' = a private local instance); None plays on local threads.
    cluster: str | None = None
    # Worker slots on the cluster (one CPU each); 0 = one per CPU the cluster offers.
    cluster_slots: int = 0
    # (path, what it is) every cluster node must have, checked before its first game
    # (a revision build's checkout: a missing one would silently run another plies).
    cluster_needs: tuple[tuple[str, str], ...] = ()


@dataclass
class MatchResult:
    """What a match produced so far: scores per pairing and every finished game."""

    names: list[str]
    pairings: list[tuple[int, int]]
    scores: dict[tuple[int, int], Tally] = field(default_factory=dict)
    records: list[GameRecord] = field(default_factory=list)
    scheduled: int = 0
    interrupted: bool = False
    sprt_llr: float | None = None
    sprt_verdict: str | None = None
    # Cluster runs: games replayed after a lost worker or engine, games given up, workers used
    # (those set up before the games ran out) out of the worker slots started.
    replays: int = 0
    given_up: int = 0
    workers: list[str] = field(default_factory=list)
    worker_slots: int = 0
    # Games started (or finished out of turn) but not counted when the match stopped early.
    cancelled: int = 0

    @property
    def played(self) -> int:
        """Number of finished games."""
        return len(self.records)


def pairings_for(n_players: int, gauntlet: bool = False) -> list[tuple[int, int]]:
    """Round robin (every pair once) or gauntlet (player 0 against each other player)."""
    if n_players < 2:
        raise ValueError("a match needs at least two players")
    if gauntlet:
        return [(0, j) for j in range(1, n_players)]
    return [(i, j) for i in range(n_players) for j in range(i + 1, n_players)]


def schedule(
    pairings: Sequence[tuple[int, int]],
    games: int,
    openings: Sequence[Opening],
    seed: int | None = None,
) -> list[GameTask]:
    """Games per pairing, interleaved so every pairing progresses evenly.

    Game 2k and 2k+1 of a pairing share opening k with colours swapped.
    ``openings`` needs at least ceil(games / 2) entries.
    """
    tasks: list[GameTask] = []
    for k in range((games + 1) // 2):
        for pairing in pairings:
            a, b = pairing
            for g, (white, black) in enumerate(((a, b), (b, a))):
                if 2 * k + g >= games:
                    break
                n = len(tasks) + 1
                game_seed = None if seed is None else seed * 1_000_003 + n
                tasks.append(GameTask(n, white, black, pairing, openings[k], game_seed))
    return tasks


def seat(spec: PlayerSpec, name: str) -> Player:
    """A fresh player made from ``spec``, shown as ``name`` (raises PlayerError if it cannot
    start)."""
    made = spec.create()
    made.name = name
    return made


class _PlayerPool:
    """Players per worker thread, created on first use and replaced when broken."""

    def __init__(self, specs: Sequence[PlayerSpec], started: Sequence[Player] = ()) -> None:
        """Remember the specs and the players already started for them (one per spec, in
        order, or none): the first thread that needs a spec's player takes it."""
        self.specs = specs
        self._local = threading.local()
        self._lock = threading.Lock()
        self._spare = dict(enumerate(started))
        self.everyone: list[Player] = list(started)
        self._aborted = False

    def get(self, index: int) -> Player:
        """This thread's player for spec ``index`` (raises PlayerError if it cannot start)."""
        cache: dict[int, Player] = self._local.__dict__.setdefault("players", {})
        player = cache.get(index)
        if player is not None and not player.healthy:
            player.close()
            player = None
        if player is None:
            with self._lock:
                player = self._spare.pop(index, None)
            if player is None or not player.healthy:
                player = seat(self.specs[index], unique_names(self.specs)[index])
                with self._lock:
                    self.everyone.append(player)
            else:
                player.name = unique_names(self.specs)[index]
            cache[index] = player
            with self._lock:
                aborted = self._aborted
            if aborted:  # started while abort_all ran: it would otherwise play on unstopped
                player.stop()
        return player

    def abort_all(self) -> None:
        """Stop every player's thinking (kills outside engines), now and any started later."""
        with self._lock:
            self._aborted = True
            players = list(self.everyone)
        for p in players:
            p.stop()

    def close_all(self) -> None:
        """Close every player that was ever started."""
        with self._lock:
            players, self.everyone = list(self.everyone), []
        for p in players:
            p.close()


def play_task(
    get_player: Callable[[int], Player],
    names: Sequence[str],
    task: GameTask,
    game_settings: GameSettings,
    stop: threading.Event,
) -> GameRecord | None:
    """Fetch the two players of ``task`` and play its game (None if already stopped)."""
    if stop.is_set():
        return None
    players: list[Player] = []
    for side, index in (("White", task.white), ("Black", task.black)):
        try:
            players.append(get_player(index))
        except PlayerError as exc:
            record = GameRecord(names[task.white], names[task.black], task.opening)
            record.result = "0-1" if side == "White" else "1-0"
            record.termination = "abandoned"
            record.reason = f"{side} ({names[index]}) failed to start: {exc.detail}"
            record.final_fen = task.opening.board().fen()
            record.fault = exc.kind
            return _stamp(record, task)
    record = play_game(players[0], players[1], task.opening, game_settings, stop, task.seed)
    return _stamp(record, task)


def _stamp(record: GameRecord, task: GameTask) -> GameRecord:
    """Copy the schedule's facts onto the record."""
    record.round = task.round
    record.pairing = task.pairing
    record.white_index = task.white
    record.black_index = task.black
    return record


def unique_names(specs: Sequence[PlayerSpec]) -> list[str]:
    """Display names, with ``#2``, ``#3`` added where two players share a name."""
    names: list[str] = []
    for spec in specs:
        name = spec.name
        k = 2
        while name in names:
            name = f"{spec.name}#{k}"
            k += 1
        names.append(name)
    return names


class Match:
    """A set of games between players, run on worker threads."""

    def __init__(
        self,
        specs: Sequence[PlayerSpec],
        settings: MatchSettings,
        game_settings: GameSettings,
        openings: Sequence[Opening],
        on_game: Callable[[GameRecord, MatchResult], None] | None = None,
        started: Sequence[Player] = (),
    ) -> None:
        """Schedule the games; nothing runs until :meth:`run`. ``started`` holds a running
        player for each spec (as a command-line check started them), which the match
        plays with and closes rather than start them again."""
        self.specs = list(specs)
        self.settings = settings
        self.game_settings = game_settings
        self.on_game = on_game
        self.names = unique_names(self.specs)
        self.pairings = pairings_for(len(self.specs), settings.gauntlet)
        self.tasks = schedule(self.pairings, settings.games, openings, settings.seed)
        self.result = MatchResult(self.names, self.pairings, scheduled=len(self.tasks))
        for p in self.pairings:
            self.result.scores[p] = Tally()
        self._stop = threading.Event()
        self._pool = _PlayerPool(self.specs, started)
        self._lock = threading.Lock()

    def close_players(self) -> None:
        """Close every player the match holds (a match run elsewhere leaves them unused)."""
        self._pool.close_all()

    def stop(self) -> None:
        """Ask the match to stop; games in flight are abandoned."""
        self._stop.set()
        self._pool.abort_all()

    @property
    def stopping(self) -> bool:
        """True once the match was asked to stop (SPRT verdict, Ctrl-C or :meth:`stop`)."""
        return self._stop.is_set()

    def _play(self, task: GameTask) -> GameRecord | None:
        """Worker body: fetch the players and play one game."""
        return play_task(self._pool.get, self.names, task, self.game_settings, self._stop)

    def collect(self, record: GameRecord) -> None:
        """Count a finished game, run the SPRT and notify the caller."""
        if not record.finished or self._stop.is_set():
            return
        res = self.result
        a, _ = record.pairing
        res.scores[record.pairing] = res.scores[record.pairing].add(record.points_for(a))
        res.records.append(record)
        if self.settings.sprt is not None:
            pairs = pentanomial(res.records, self.pairings[0][0], self.pairings[0])
            res.sprt_llr, res.sprt_verdict = self.settings.sprt.decide(pairs)
        if self.on_game is not None:
            self.on_game(record, res)
        if res.sprt_verdict is not None:
            self.stop()

    def run(self) -> MatchResult:
        """Play the games on this machine's threads; Ctrl-C stops cleanly and returns what
        finished (``plies.arena.runner.run_match`` runs a cluster match)."""
        if self.settings.cluster is not None:
            raise ValueError("a match on a cluster runs through plies.arena.runner.run_match")
        workers = max(1, self.settings.concurrency)
        executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="arena")
        pending: set[Future[GameRecord | None]] = set()
        with CtrlC() as ctrl_c:
            try:
                pending = {executor.submit(self._play, t) for t in self.tasks}
                while pending:
                    done, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
                    for fut in done:
                        record = fut.result()
                        if record is not None:
                            with self._lock:
                                self.collect(record)
                    if ctrl_c.pressed:
                        self.result.interrupted = True
                        self.stop()
                    if self._stop.is_set():
                        break
            except KeyboardInterrupt:  # where CtrlC could not take over SIGINT
                self.result.interrupted = True
                self.stop()
            finally:
                if self._stop.is_set():
                    self._pool.abort_all()
                self._stop.set()
                executor.shutdown(wait=True, cancel_futures=True)
                self.close_players()
        if self.result.sprt_verdict is None and self.result.played < self.result.scheduled:
            self.result.interrupted = True
        return self.result
