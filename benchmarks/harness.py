"""What every benchmark shares: the peer engines, the machine line, timing, matches, tallies.

- Engines: every outside engine's path is declared here once; ``bench_speed``
  runs an engine's own ``bench`` and reads its nodes per second, so that a
  figure can carry the speed of both sides measured in the same run.
- Machine: ``cpu_model``, ``load_average`` and ``machine_line`` (printed by every
  script beside its figures, since the machine is shared and rarely idle).
- Timing: ``clocked`` times one call (wall and CPU), ``children_cpu`` the engines run as
  subprocesses; ``in_turn`` runs several measurements N rounds in turn and keeps every
  result with the load (``Runs``: the best result, or the best and median as a
  ``Timing``); ``best_median`` does it for one measurement.
- Matches: ``run_match`` plays a match through the library under ``plies arena``
  (``plies.arena.match``), the one match runner of the benchmarks; ``score_line``
  and ``load_text`` print its tally. Scripts that run the ``plies arena`` command
  itself read its PGN back with ``tally_pgn``: each engine's score, faults by kind,
  slowest move and lowest clock (``faults_line`` prints the faults).
- Positions: ``random_ending`` (a random legal position of given material) and
  ``random_positions`` (boards from random games still in play).
"""

from __future__ import annotations

import argparse
import lzma
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Generic, TypeVar

import chess
import chess.pgn
from rich.console import Console

from plies.agents.spec import PlayerSpec, parse_player
from plies.arena.clock import TimeControl
from plies.arena.match import Match, MatchResult, MatchSettings
from plies.arena.openings import Opening, OpeningError, load_openings, random_opening
from plies.arena.pgn import PgnWriter, to_pgn
from plies.arena.referee import Adjudication, GameRecord, GameSettings
from plies.arena.report import game_line
from plies.arena.stats import Tally, elo_error, elo_from_score, los

# The outside engines (Debian packages); the one place their paths are written.
STOCKFISH = "/usr/games/stockfish"
"""Stockfish 15.1 (``apt-get install stockfish``)."""
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
"""Fairy-Stockfish 11.1 (``apt-get install fairy-stockfish``)."""
ETHEREAL = "/usr/games/ethereal-chess"
"""Ethereal 12.00 (``apt-get install ethereal-chess``)."""
TOGA2 = "/usr/games/toga2"
"""Toga II 3.0 (``apt-get install toga2``)."""
GLAURUNG = "/usr/games/glaurung"
"""Glaurung 2.2 (``apt-get install glaurung``)."""
SUNFISH = "sunfish-uci"
"""sunfish from PyPI (``pip install --no-deps sunfish``)."""

PLIES = "plies"
"""The name the tallies give plies."""


# ---- the machine ---------------------------------------------------------------------------

def cpu_model() -> str:
    """The CPU model and the number of CPUs this process may use."""
    name = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{name}, {len(os.sched_getaffinity(0))} CPUs"


def load_average() -> float:
    """The 1-minute load average."""
    return os.getloadavg()[0]


def machine_line() -> str:
    """``cpu AMD EPYC, 2 CPUs  load 1.23 0.98 0.80``: what a figure was measured on."""
    one, five, fifteen = os.getloadavg()
    return f"cpu {cpu_model()}  load {one:.2f} {five:.2f} {fifteen:.2f}"


def load_text(loads: list[float]) -> str:
    """``load 5.1 (3.0-7.2)``: the mean and range of the load averages seen."""
    if not loads:
        return "load n/a"
    return f"load {sum(loads) / len(loads):.1f} ({min(loads):.1f}-{max(loads):.1f})"


# ---- engine speed ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BenchSpeed:
    """An engine's own ``bench``: nodes searched and nodes per second (its own count)."""

    engine: str
    nodes: int
    nps: int

    def text(self) -> str:
        """``fairy-stockfish bench 578 k nodes/s (4,846,400 nodes)``."""
        return f"{self.engine} bench {self.nps / 1000:,.0f} k nodes/s ({self.nodes:,} nodes)"


_BENCH_PATTERNS = (
    (re.compile(r"Nodes searched\s*:\s*(\d+)"), re.compile(r"Nodes/second\s*:\s*(\d+)")),
    (re.compile(r"^Nodes\s*:\s*(\d+)", re.M), re.compile(r"^NPS\s*:\s*(\d+)", re.M)),
)


def bench_command(engine: str) -> list[str]:
    """The command line that runs ``engine``'s bench (``plies`` for this interpreter's)."""
    if engine == PLIES:
        return [sys.executable, "-m", "plies", "bench", "-q"]
    return [engine, "bench"]


def bench_figures(text: str) -> tuple[int, int] | None:
    """The nodes and nodes per second a ``bench`` printed (Stockfish's, Ethereal's or
    plies' wording), or None if it printed neither."""
    for nodes_re, nps_re in _BENCH_PATTERNS:
        nodes, nps = nodes_re.search(text), nps_re.search(text)
        if nodes and nps:
            return int(nodes.group(1)), int(nps.group(1))
    return None


def bench_speed(engine: str, timeout_s: float = 600.0) -> BenchSpeed:
    """Run ``engine``'s own bench (one thread, its defaults) and read its speed."""
    proc = subprocess.run(bench_command(engine), capture_output=True, text=True,
                          timeout=timeout_s, stdin=subprocess.DEVNULL, check=False)
    figures = bench_figures(proc.stdout + proc.stderr)
    if figures is None:
        raise RuntimeError(f"no bench figures in the output of {' '.join(bench_command(engine))}")
    name = PLIES if engine == PLIES else os.path.basename(engine)
    return BenchSpeed(name, *figures)


def installed(path: str) -> bool:
    """Whether an engine executable (a path or a name on PATH) is there."""
    return shutil.which(path) is not None


# ---- timing ---------------------------------------------------------------------------------

T = TypeVar("T")


def children_cpu() -> float:
    """User + system CPU seconds of this process's finished children so far (engines run
    as subprocesses count once they have exited)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(pid: int) -> float | None:
    """User + system CPU seconds of the running process ``pid`` so far (Linux), else None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # Fields 14 and 15 of proc(5), counted after the command name in parentheses.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Clocked(Generic[T]):
    """What a call returned, with the wall seconds it took and this process's CPU seconds."""

    value: T
    wall: float
    cpu: float


def clocked(fn: Callable[[], T]) -> Clocked[T]:
    """Call ``fn`` and time it (wall and this process's CPU: what a shared machine does not
    steal from it)."""
    cpu, start = time.process_time(), time.perf_counter()
    value = fn()
    return Clocked(value, time.perf_counter() - start, time.process_time() - cpu)


@dataclass(frozen=True)
class Timing:
    """N measurements of one thing: the best, the median and the load while they ran."""

    best: float
    median: float
    runs: int
    load: float

    def text(self, unit: str = "s") -> str:
        """``best 1.23 s, median 1.30 s of 5 (load 2.1)``."""
        return (f"best {self.best:.3g} {unit}, median {self.median:.3g} {unit} of {self.runs} "
                f"(load {self.load:.1f})")


@dataclass(frozen=True)
class Runs(Generic[T]):
    """Every result of one measurement taken N times, and the load after each."""

    results: list[T]
    loads: list[float]

    def best(self, key: Callable[[T], float], highest: bool = False) -> T:
        """The result whose ``key`` is lowest (``highest``: highest): the least disturbed."""
        return max(self.results, key=key) if highest else min(self.results, key=key)

    def timing(self, key: Callable[[T], float], highest: bool = False) -> Timing:
        """The best and median of ``key`` over the results, with the mean load."""
        values = [key(r) for r in self.results]
        best = max(values) if highest else min(values)
        return Timing(best, statistics.median(values), len(values),
                      sum(self.loads) / len(self.loads))


def in_turn(measures: Sequence[Callable[[], T]], repeat: int) -> list[Runs[T]]:
    """Call each measure once per round for ``repeat`` rounds, in turn, so that a change in
    the machine's load falls on every measure alike; one :class:`Runs` per measure."""
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    runs: list[Runs[T]] = [Runs([], []) for _ in measures]
    for _ in range(repeat):
        for measure, collected in zip(measures, runs, strict=True):
            collected.results.append(measure())
            collected.loads.append(load_average())
    return runs


def best_median(measure: Callable[[], float], repeat: int, highest: bool = False) -> Timing:
    """Call ``measure`` ``repeat`` times; the best is the lowest (``highest``: the highest)."""
    return in_turn([measure], repeat)[0].timing(float, highest)


def ratio_text(ours: float, peer: float, peer_name: str, higher_is_better: bool = True) -> str:
    """``2.41x stockfish``: how plies' figure compares with a peer's from the same run."""
    if peer == 0 or ours == 0:
        return f"n/a against {peer_name}"
    r = ours / peer if higher_is_better else peer / ours
    return f"{r:.2f}x {peer_name}"


# ---- matches and tallies -------------------------------------------------------------------

# Balanced, well-known opening lines (UCI moves from the start); each is played
# twice with colours swapped, so a line's bias cancels out.
OPENINGS: tuple[tuple[str, str], ...] = (
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    ("Italian", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("Sicilian Najdorf", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"),
    ("French", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6"),
    ("Caro-Kann", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"),
    ("Slav", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6"),
    ("Nimzo-Indian", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"),
    ("King's Indian", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"),
    ("English", "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5"),
    ("Scandinavian", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"),
    ("London", "d2d4 d7d5 c1f4 g8f6 e2e3 c7c5"),
    ("Pirc", "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6"),
    ("Reti", "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6"),
    ("Scotch", "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 g8f6"),
    ("Grunfeld", "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5"),
)


def builtin_openings() -> list[Opening]:
    """The built-in lines as arena openings."""
    return [Opening(moves=tuple(line.split()), name=name) for name, line in OPENINGS]


def openings_from(path: str | None, parser: argparse.ArgumentParser) -> list[Opening]:
    """The openings of ``path`` (the built-in lines if None); a bad file ends with its error."""
    if path is None:
        return builtin_openings()
    try:
        return load_openings(path)
    except OpeningError as exc:
        parser.error(str(exc))


def plies_player(hash_mb: int, name: str = PLIES) -> str:
    """The arena spec of plies as an outside UCI engine (this interpreter, ``-m plies uci``)."""
    return f"uci:{sys.executable} -m plies uci:Hash={hash_mb},name={name}"


def score_line(name: str, opponent: str, score: Tally) -> str:
    """``plies vs X: +W =D -L  score S%  Elo d +/- e  LOS p%``."""
    if score.games == 0:
        return f"{name} vs {opponent}: no finished games"
    elo = elo_from_score(score.mean)
    error = elo_error(score)
    elo_text = "+inf" if elo == float("inf") else "-inf" if elo == -float("inf") else f"{elo:+.0f}"
    error_text = "inf" if error == float("inf") else f"{error:.0f}"
    return (
        f"{name} vs {opponent}: {score.games} games  W {score.wins} / D {score.draws} / "
        f"L {score.losses}  score {100 * score.mean:.1f}%  Elo {elo_text} +/- {error_text} "
        f"(95%)  LOS {100 * los(score):.1f}%"
    )


@dataclass
class MatchRun:
    """A finished match as the benchmarks report it."""

    score: Tally
    """The first player's score."""
    records: list[GameRecord]
    """Every finished game."""
    seconds: float
    """Wall time of the match."""
    loads: list[float] = field(default_factory=list)
    """The 1-minute load average after each game (the machine's load while it ran)."""


def run_match(specs: Sequence[str | PlayerSpec], args: argparse.Namespace,
              openings: list[Opening], out: Console, indent: str = "",
              pgn: PgnWriter | None = None, event: str = "plies benchmark",
              settings: GameSettings | None = None) -> MatchRun:
    """Play the first spec against the second with ``args``' clock, openings and games.

    ``args`` carries ``games``, ``concurrency`` and ``seed``, and unless ``settings``
    limits the games otherwise (e.g. nodes per move), ``tc``, ``margin`` and
    ``max_moves``; the first ``games / 2`` openings are each played twice.
    """
    players = [parse_player(spec) if isinstance(spec, str) else spec for spec in specs]
    if settings is None:
        settings = GameSettings(
            tc=TimeControl.parse(args.tc),
            time_margin_ms=args.margin,
            adjudication=Adjudication(max_moves=args.max_moves),
        )
    tc_tag = settings.tc.pgn() if settings.tc is not None else "-"
    pairs = (args.games + 1) // 2
    schedule = [openings[i % len(openings)] for i in range(pairs)]
    loads: list[float] = []

    def on_game(record: GameRecord, res: MatchResult) -> None:
        """Print each game as it finishes, with the running score; note the load."""
        loads.append(load_average())
        if pgn is not None:
            pgn.write(to_pgn(record, event=event, time_control=tc_tag))
        s = res.scores[res.pairings[0]]
        out.print(f"{indent}{game_line(record)}   [{players[0].name} {s.points:g}/{s.games}]",
                  markup=False, highlight=False)

    match = Match(
        players,
        MatchSettings(games=args.games, concurrency=args.concurrency, seed=args.seed),
        settings,
        schedule,
        on_game=on_game,
    )
    start = time.perf_counter()
    result = match.run()
    seconds = time.perf_counter() - start
    out.print(f"{indent}({result.played} games in {seconds:.0f} s)")
    return MatchRun(result.scores[result.pairings[0]], result.records, seconds, loads)


# ---- tallies of a match's PGN ---------------------------------------------------------------

# A move's client-timed seconds in an arena PGN comment (``+0.31/12 0.104s``).
_MOVE_SECONDS = re.compile(r"(\d+\.\d+)s")

# The fault behind each PGN ``Termination`` the arena writes for one.
FAULT_KINDS = {"time forfeit": "time", "rules infraction": "illegal", "abandoned": "crash"}


@dataclass
class EngineTally:
    """One engine over the games of a match: its score, its faults by kind and its clock."""

    score: Tally = field(default_factory=Tally)
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(("crash", "illegal",
                                                                           "time"), 0))
    """Games lost by its own fault: ``crash`` (crashed, hung, failed to start), ``illegal``,
    ``time`` (a loss on time; drawn when the opponent could not mate)."""
    moves: int = 0
    slowest_ms: float = 0.0
    lowest_clock_ms: float = float("inf")
    """The least time its clock showed after a move (replayed from the per-move times)."""
    time_loss_plies: list[int] = field(default_factory=list)


@dataclass
class MatchTally:
    """Every engine's :class:`EngineTally` over the games of a PGN."""

    engines: dict[str, EngineTally] = field(default_factory=dict)

    def engine(self, name: str) -> EngineTally:
        """The tally of ``name`` (a fresh one on first use)."""
        return self.engines.setdefault(name, EngineTally())

    def add(self, game: chess.pgn.Game, tc: TimeControl | None) -> None:
        """Count one game for both of its engines (the clock replayed when ``tc`` is known)."""
        names = {chess.WHITE: game.headers["White"], chess.BLACK: game.headers["Black"]}
        clocks = dict.fromkeys(names, float(tc.base_ms if tc else 0))
        plies = 0
        last: chess.pgn.GameNode = game
        for node in game.mainline():
            plies += 1
            mover = not node.board().turn
            timed = _MOVE_SECONDS.search(node.comment)
            if timed and "book" not in node.comment:
                ms = float(timed.group(1)) * 1000
                t = self.engine(names[mover])
                t.moves += 1
                t.slowest_ms = max(t.slowest_ms, ms)
                if tc is not None:
                    clocks[mover] -= ms
                    t.lowest_clock_ms = min(t.lowest_clock_ms, clocks[mover])
                    clocks[mover] += tc.increment_ms
            last = node
        winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(game.headers["Result"])
        for side, name in names.items():
            t = self.engine(name)
            t.score = t.score.add(0.5 if winner is None else float(winner == side))
        reason = last.comment or game.comment
        kind = FAULT_KINDS.get(game.headers.get("Termination", ""),
                               "crash" if "crashed" in reason or "hung" in reason else "")
        if kind:  # the side at fault is the one to move in the final position
            t = self.engine(names[last.board().turn])
            t.faults[kind] += 1
            if kind == "time":
                t.time_loss_plies.append(plies)


def pgn_games(path: str | Path) -> Iterator[chess.pgn.Game]:
    """Every game of a PGN file, plain or xz-compressed (as the archives in ``games/``)."""
    p = Path(path)
    opener: Callable[..., IO[str]] = lzma.open if p.suffix == ".xz" else open
    with opener(p, "rt", encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            yield game


def tally_pgn(path: str | Path, tc: TimeControl | None = None) -> MatchTally:
    """The :class:`MatchTally` of a PGN file the arena wrote (plain or xz-compressed)."""
    tally = MatchTally()
    for game in pgn_games(path):
        tally.add(game, tc)
    return tally


def faults_line(name: str, t: EngineTally) -> str:
    """``plies: illegal moves 0, crashes 0, losses on time 1``."""
    f = t.faults
    return (f"{name}: illegal moves {f['illegal']}, crashes {f['crash']}, "
            f"losses on time {f['time']}")


# ---- positions ---------------------------------------------------------------------------

def random_positions(count: int, plies: tuple[int, int], rng: random.Random) -> list[chess.Board]:
    """``count`` boards from random games (``plies``: the range of their lengths), in play."""
    return [random_opening(rng.randrange(*plies), rng).board() for _ in range(count)]


def random_ending(material: str, rng: random.Random, swap: bool = False) -> chess.Board:
    """A random legal position with ``material`` (``KRvKP``: White's men, then Black's).

    ``swap`` gives White the second side's men. Either side may be to move; pawns
    stay off the first and last ranks; positions python-chess calls invalid (the
    side not to move in check, kings touching) are drawn again.
    """
    first, second = material.split("v")
    sides = (second, first) if swap else (first, second)
    while True:
        board = chess.Board(None)
        board.turn = rng.random() < 0.5
        squares = rng.sample(range(64), 64)
        for color, letters in zip((chess.WHITE, chess.BLACK), sides, strict=True):
            for letter in letters:
                kind = chess.PIECE_SYMBOLS.index(letter.lower())
                square = next(sq for sq in squares
                              if kind != chess.PAWN or 8 <= sq < 56)
                squares.remove(square)
                board.set_piece_at(square, chess.Piece(kind, color))
        if board.is_valid():
            return board


def api_perft(board: chess.Board, depth: int, bulk: bool = False) -> int:
    """Leaf count to ``depth`` through the python-chess API (``legal_moves``, ``push``,
    ``pop``), on either library's board; ``bulk`` counts the last ply's moves instead of
    pushing them."""
    if depth == 0:
        return 1
    if bulk and depth == 1:
        return len(list(board.legal_moves))
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += api_perft(board, depth - 1, bulk)
        board.pop()
    return nodes
