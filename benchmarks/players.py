"""The cost of one move through each player adapter, beside a bare pipe round trip in one run.

Every adapter seats a random mover, so that what is measured is the adapter (the
process boundary, the protocol, the board kept in step), not a search:

- ``agent``: the ladder's ``random`` in this process (a ladder player);
- ``file``: a Python file mind (``random.choice(board.legal_moves)``) in its child process,
  in the sandbox (as minds run by default), and ``file-bare`` the same without it;
- ``mind``: a ``mind:`` program (Python with python-chess) answering FENs, in the sandbox,
  and ``mind-bare`` without it;
- ``uci``: a ``uci:`` engine (a random-move UCI engine in Python, through
  :class:`plies.agents.uci_engine.UciEngine`);
- ``xboard``: an ``xboard:`` engine (a random-move CECP engine in Python);
- ``pipe`` (the peer): a program that answers every line at once (a Python loop
  echoing a fixed action), asked through the same line-pipe code: the floor any
  process adapter pays.

Each plays whole games against itself (two processes) through the arena's referee, one
untimed game first (one-off loading) and then ``--games`` of them; the script prints the
median and mean wall time of one ``move`` call as the referee sees it, the ratio to the
peer's round trip, games per minute on one thread (the referee's own work included), and
the median start-up of a player (``create()`` until it has answered its first move) over
``--starts`` starts, the adapters' starts taken in turn so that a busy moment falls on all
alike.

Usage: python benchmarks/players.py [--games N] [--pipe-rounds N] [--starts N]
                                    [--only agent,file,file-bare,...]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import platform
import statistics
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import chess

from harness import clocked, load_average, machine_line
from plies.agents.player import Player
from plies.agents.process import LineProcess
from plies.agents.spec import PlayerSpec, parse_player
from plies.arena.openings import Opening
from plies.arena.referee import GameSettings, play_game
from plies.board import Board
from plies.engine.limits import Info, Limit
from plies.sandbox import Sandbox

RANDOM_FILE = """\
import random

def choose(board):
    return random.choice(board.legal_moves)
"""

RANDOM_MIND = """\
import random, sys
import chess
for line in sys.stdin:
    board = chess.Board(line.strip())
    move = random.choice(list(board.legal_moves))
    print(f"{move.from_square},{move.to_square}", flush=True)
"""

# A random mover speaking UCI (``uci`` argument) or xboard/CECP (``xboard``): one table of
# what each command does. It keeps its board between positions, as real engines do, so
# the adapter's cost is measured, not this engine's replay.
RANDOM_ENGINE = """\
import random, sys
import chess
protocol = sys.argv[1]
board = chess.Board()
root, played = "", []

def position(words):
    global board, root, played
    start = words.index("moves") if "moves" in words else len(words)
    moves = words[start + 1:]
    if " ".join(words[1:start]) != root or moves[:len(played)] != played:
        root, played = " ".join(words[1:start]), []
        board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:8]))
    for uci in moves[len(played):]:
        board.push(chess.Move.from_uci(uci))
    played = moves

def setboard(fen):
    global board
    board = chess.Board(fen)

def go(words):
    move = random.choice(list(board.legal_moves))
    if protocol == "uci":
        return "bestmove " + move.uci()
    board.push(move)
    return "move " + move.uci()

ANSWERS = {
    "uci": lambda w: "id name random-uci\\nuciok",
    "isready": lambda w: "readyok",
    "position": position,
    "protover": lambda w: 'feature myname="random-xboard" ping=1 setboard=1 usermove=1 done=1',
    "new": lambda w: setboard(chess.STARTING_FEN),
    "setboard": lambda w: setboard(" ".join(w[1:])),
    "usermove": lambda w: board.push_uci(w[1]),
    "ping": lambda w: "pong " + w[1],
    "go": go,
}
for line in sys.stdin:
    words = line.split() or ["?"]
    if words[0] == "quit":
        break
    answer = ANSWERS.get(words[0], lambda w: None)(words)
    if isinstance(answer, str):
        print(answer, flush=True)
"""

ECHO = """\
import sys
for line in sys.stdin:
    sys.stdout.write("12,28\\n")
    sys.stdout.flush()
"""


class TimedPlayer(Player):
    """A player whose ``play`` calls are timed (wall clock, as the referee waits)."""

    def __init__(self, inner: Player, times: list[float]) -> None:
        """Wrap ``inner``; each move's seconds are appended to ``times``."""
        self.inner = inner
        self.name = inner.name
        self.times = times

    def new_game(self, seed: int | None) -> None:
        """Pass on."""
        self.inner.new_game(seed)

    def play(self, board: Board, limit: Limit) -> Info:
        """Time the inner player's move."""
        started = time.perf_counter()
        info = self.inner.play(board, limit)
        self.times.append(time.perf_counter() - started)
        return info

    def stop(self) -> None:
        """Pass on."""
        self.inner.stop()

    @property
    def healthy(self) -> bool:  # type: ignore[override]
        """The inner player's health."""
        return self.inner.healthy

    def close(self) -> None:
        """Pass on."""
        self.inner.close()


def measure(make: Callable[[], Player], games: int) -> tuple[list[float], float, int]:
    """Per-move seconds, the games' wall seconds and the moves played, over ``games`` games."""
    times: list[float] = []
    white, black = TimedPlayer(make(), times), TimedPlayer(make(), times)
    settings = GameSettings(limit=Limit(depth=1), move_timeout_s=30.0)
    opening = Opening(chess.STARTING_FEN)
    play_game(white, black, opening, settings, seed=-1)  # one-off loading is not per move
    times.clear()
    started = time.perf_counter()
    try:
        for n in range(games):
            record = play_game(white, black, opening, settings, seed=n)
            assert record.finished and not record.fault, record.reason
    finally:
        elapsed = time.perf_counter() - started
        white.close()
        black.close()
    return times, elapsed, len(times)


def start_ups(specs: dict[str, PlayerSpec], rounds: int) -> dict[str, list[float]]:
    """Seconds from ``create()`` to a player's first move, ``rounds`` per spec, in turn."""
    seconds: dict[str, list[float]] = {name: [] for name in specs}
    for _ in range(rounds):
        for name, spec in specs.items():
            started = time.perf_counter()
            player = spec.create()
            player.new_game(None)
            player.play(Board(), Limit(depth=1))
            seconds[name].append(time.perf_counter() - started)
            player.close()
    return seconds


def pipe_floor(script: Path, rounds: int) -> list[float]:
    """Seconds of one line written and one line read back from a program that answers at once."""
    process = LineProcess([sys.executable, str(script)])
    fen = chess.Board().fen()

    def round_trip() -> None:
        """One line out, one line back."""
        process.send(fen)
        process.read_line(10.0)

    try:
        return [clocked(round_trip).wall for _ in range(rounds)]
    finally:
        process.close()


def main() -> int:
    """Measure each adapter and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per adapter (default 10)")
    parser.add_argument("--pipe-rounds", type=int, default=5000)
    parser.add_argument("--starts", type=int, default=5,
                        help="start-ups measured per adapter (default 5)")
    parser.add_argument("--only", default="agent,file,file-bare,mind,mind-bare,uci,"
                        "xboard", help="comma-separated adapters to measure")
    args = parser.parse_args()
    chosen = [a.strip() for a in args.only.split(",") if a.strip()]
    print(machine_line(), flush=True)
    load_before = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        folder.chmod(0o755)  # as root, a sandboxed mind runs as a user of its own
        files = {}
        for name, text in (("random_file.py", RANDOM_FILE), ("random_mind.py", RANDOM_MIND),
                           ("random_engine.py", RANDOM_ENGINE),
                           ("echo.py", ECHO)):
            files[name] = folder / name
            files[name].write_text(textwrap.dedent(text), encoding="utf-8")
        specs = {
            "agent": "random",
            "file": str(files["random_file.py"]),
            "file-bare": str(files["random_file.py"]),
            "mind": f"mind:{sys.executable} {files['random_mind.py']}",
            "mind-bare": f"mind:{sys.executable} {files['random_mind.py']}",
            "uci": f"uci:{sys.executable} {files['random_engine.py']} uci",
            "xboard": f"xboard:{sys.executable} {files['random_engine.py']} xboard",
        }
        floor = pipe_floor(files["echo.py"], args.pipe_rounds)
        floor_us = statistics.median(floor) * 1e6
        parsed = {name: parse_player(specs[name]) for name in chosen}
        parsed.update({name: dataclasses.replace(spec, sandbox=Sandbox("off"))
                       for name, spec in parsed.items() if name.endswith("-bare")})
        starts = start_ups(parsed, args.starts)
        rows = []
        for name, spec in parsed.items():
            times, elapsed, moves = measure(spec.create, args.games)
            start = statistics.median(starts[name]) * 1e3 if name in starts else math.nan
            rows.append((name, statistics.median(times) * 1e6, statistics.fmean(times) * 1e6,
                         moves, 60.0 * args.games / elapsed, start))
    load_after = load_average()
    print(f"Python {platform.python_version()}, chess {chess.__version__}; load average "
          f"{load_before:.2f} before, {load_after:.2f} after; {args.games} games per adapter "
          "(random against random, both through the adapter)")
    print(f"peer: pipe round trip (one line each way, answered at once): median "
          f"{floor_us:.0f} us over {args.pipe_rounds} rounds")
    print(f"{'adapter':<9} {'median us/move':>15} {'mean us/move':>13} {'x pipe':>7} "
          f"{'moves':>7} {'games/min (1 thread)':>21} {'start ms':>9}")
    for name, median, mean, moves, rate, start in rows:
        print(f"{name:<9} {median:>15.0f} {mean:>13.0f} {median / floor_us:>7.1f} {moves:>7} "
              f"{rate:>21.1f} {start:>9.0f}")
    print("start ms: median from create() to the first move answered, over "
          f"{args.starts} starts per adapter")
    return 0


if __name__ == "__main__":
    sys.exit(main())
