"""An independent match runner: plies against one UCI engine through python-chess alone.

A check on ``plies arena``: nothing of ``plies.arena`` is used to play, clock or
score the games. Every game starts both engines as fresh processes (python-chess's
``chess.engine.SimpleEngine``), sets one thread and ``--hash`` MB on each, and plays
one opening of the file with plies as White and, in the next game, as Black. The
clock is this script's own: the wall time of each ``play`` call (the request, the
search and the reply) is taken from the mover's clock, the increment added after
the move; a mover whose clock falls below ``-margin`` loses on time (drawn when the
opponent cannot mate). Games end by the rules (claimed threefold repetition and
fifty-move draws included) or, at ``--max-plies``, as a draw.

Usage:
  python benchmarks/uci_match.py --engine /usr/games/fairy-stockfish --games 40 \\
      --tc 10+0.1 --concurrency 2 --openings benchmarks/openings/balanced-100.pgn
  python benchmarks/uci_match.py --engine /usr/games/ethereal-chess --first 21 --games 40
Prints every game, then W/D/L from plies' side, the score with its 95% interval,
time losses per side, the CPU model and the load. Not a test: a 40-game match at
10+0.1 takes about ten minutes at two games at a time.
"""

from __future__ import annotations

import argparse
import math
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from harness import cpu_model, load_average, load_text

READY_TIMEOUT_S = 120.0
"""How long an engine may take to start (plies loads its compiled code at start)."""


@dataclass
class Side:
    """One engine: its command and display name."""

    command: list[str]
    name: str


@dataclass
class Game:
    """One finished game: who had White, the result, how it ended, the moves."""

    number: int
    opening: int
    plies_white: bool
    result: str
    reason: str
    moves: list[str] = field(default_factory=list)
    start_fen: str = chess.STARTING_FEN
    opening_moves: list[str] = field(default_factory=list)
    flagged: str = ""

    def plies_points(self) -> float:
        """plies' points from this game."""
        if self.result == "1/2-1/2":
            return 0.5
        white_won = self.result == "1-0"
        return 1.0 if white_won == self.plies_white else 0.0


def read_openings(path: str) -> list[list[str]]:
    """The main lines (UCI moves from the start) of every game in a PGN file."""
    lines = []
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            lines.append([m.uci() for m in game.mainline_moves()])
    if not lines:
        sys.exit(f"uci_match: no games in {path}")
    return lines


def parse_tc(text: str) -> tuple[float, float]:
    """``10+0.1`` as (base seconds, increment seconds)."""
    base, _, inc = text.partition("+")
    try:
        return float(base), float(inc or 0)
    except ValueError:
        sys.exit(f"uci_match: bad time control {text!r} (want SECONDS[+INC])")


def start(side: Side, hash_mb: int) -> chess.engine.SimpleEngine:
    """A fresh engine process with one thread and ``hash_mb`` MB."""
    engine = chess.engine.SimpleEngine.popen_uci(side.command, timeout=READY_TIMEOUT_S)
    options = {"Threads": 1, "Hash": hash_mb}
    engine.configure({k: v for k, v in options.items() if k in engine.options})
    engine.ping()
    return engine


def play_game(number: int, opening_index: int, opening: list[str], plies_white: bool,
              plies: Side, opponent: Side, args: argparse.Namespace) -> Game:
    """Play one game with fresh processes; the clock is measured here, around ``play``."""
    base, inc = parse_tc(args.tc)
    engines = {True: start(plies, args.hash), False: start(opponent, args.hash)}
    board = chess.Board()
    for uci in opening:
        board.push_uci(uci)
    game = Game(number, opening_index, plies_white, "*", "", opening_moves=list(opening))
    clock = {chess.WHITE: base, chess.BLACK: base}
    token = object()
    try:
        while True:
            outcome = board.outcome(claim_draw=True)
            if outcome is not None:
                game.result = outcome.result()
                game.reason = outcome.termination.name.lower()
                break
            if len(game.moves) >= args.max_plies:
                game.result, game.reason = "1/2-1/2", "move limit"
                break
            mover = board.turn
            engine = engines[(mover == chess.WHITE) == plies_white]
            limit = chess.engine.Limit(white_clock=max(clock[chess.WHITE], 0.0),
                                       black_clock=max(clock[chess.BLACK], 0.0),
                                       white_inc=inc, black_inc=inc)
            t0 = time.perf_counter()
            reply = engine.play(board, limit, game=token)
            clock[mover] -= time.perf_counter() - t0
            if clock[mover] < -args.margin / 1000.0:
                loser_is_plies = (mover == chess.WHITE) == plies_white
                game.flagged = "plies" if loser_is_plies else "opponent"
                if board.has_insufficient_material(not mover):
                    game.result = "1/2-1/2"
                else:
                    game.result = "0-1" if mover == chess.WHITE else "1-0"
                game.reason = "time forfeit"
                break
            clock[mover] += inc
            if reply.move is None or reply.move not in board.legal_moves:
                game.result = "0-1" if mover == chess.WHITE else "1-0"
                game.reason = f"illegal move {reply.move}"
                break
            game.moves.append(reply.move.uci())
            board.push(reply.move)
    finally:
        for engine in engines.values():
            try:
                engine.quit()
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
                engine.close()
    return game


def write_pgn(path: Path, games: list[Game], plies: Side, opponent: Side, tc: str) -> None:
    """Every game as PGN, in game order."""
    with path.open("w", encoding="utf-8") as out:
        for g in sorted(games, key=lambda g: g.number):
            pgn = chess.pgn.Game()
            pgn.headers["Event"] = "uci_match"
            pgn.headers["Round"] = str(g.number)
            pgn.headers["White"] = plies.name if g.plies_white else opponent.name
            pgn.headers["Black"] = opponent.name if g.plies_white else plies.name
            pgn.headers["Result"] = g.result
            pgn.headers["TimeControl"] = tc.replace("+", "+")
            pgn.headers["Termination"] = g.reason
            pgn.headers["Opening"] = str(g.opening)
            node: chess.pgn.GameNode = pgn
            for uci in [*g.opening_moves, *g.moves]:
                node = node.add_variation(chess.Move.from_uci(uci))
            print(pgn, file=out, end="\n\n")


def summary(games: list[Game]) -> str:
    """W/D/L from plies' side, the score, Elo with a 95% interval from the game scores."""
    points = [g.plies_points() for g in games]
    n = len(points)
    wins = sum(p == 1.0 for p in points)
    draws = sum(p == 0.5 for p in points)
    mean = sum(points) / n
    sd = math.sqrt(sum((p - mean) ** 2 for p in points) / max(n - 1, 1))
    half = 1.96 * sd / math.sqrt(n)

    def elo(s: float) -> float:
        """Logistic Elo difference of score ``s``."""
        s = min(max(s, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / s - 1)

    lo, hi = elo(mean - half), elo(mean + half)
    return (f"W {wins} / D {draws} / L {n - wins - draws}  score {100 * mean:.1f}% "
            f"({100 * (mean - half):.1f}-{100 * (mean + half):.1f})  Elo {elo(mean):+.0f} "
            f"({lo:+.0f} .. {hi:+.0f}, 95%)")


def main() -> int:
    """Parse arguments, play the games, print the tally."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", required=True, help="the opponent's executable")
    p.add_argument("--name", help="the opponent's name (default: the executable's)")
    p.add_argument("--plies", default=f"{sys.executable} -m plies uci",
                   help="the command that starts plies (default: this interpreter, -m plies uci)")
    p.add_argument("--games", type=int, default=40, help="games (even: every opening twice)")
    p.add_argument("--first", type=int, default=1, help="the first opening used (1-based)")
    p.add_argument("--openings", default="benchmarks/openings/balanced-100.pgn")
    p.add_argument("--tc", default="10+0.1", help="SECONDS[+INC] (default 10+0.1)")
    p.add_argument("--hash", type=int, default=64, help="Hash in MB for both (default 64)")
    p.add_argument("--concurrency", type=int, default=2, help="games at once (default 2)")
    p.add_argument("--margin", type=int, default=100, help="lag forgiven past zero (ms)")
    p.add_argument("--max-plies", type=int, default=400, help="draw after this many plies")
    p.add_argument("--pgn", help="write the games here")
    args = p.parse_args()
    if args.games < 2 or args.games % 2 or args.concurrency < 1 or args.first < 1:
        p.error("--games must be even and at least 2; --concurrency and --first at least 1")
    parse_tc(args.tc)
    lines = read_openings(args.openings)
    plies = Side(args.plies.split(), "plies")
    opponent = Side([args.engine], args.name or Path(args.engine).name)
    print(f"plies vs {opponent.name}: {args.games} games at {args.tc}, "
          f"{args.concurrency} at a time, openings {args.first}.. of {args.openings}")
    print(f"cpu {cpu_model()}  load at start {load_average():.2f}", flush=True)
    jobs = []
    for k in range(args.games):
        index = (args.first - 1 + k // 2) % len(lines)
        jobs.append((k + 1, index + 1, lines[index], k % 2 == 0))
    games: list[Game] = []
    loads: list[float] = []
    lock = threading.Lock()

    def run(job: tuple[int, int, list[str], bool]) -> None:
        """Play one job, print it with the running score."""
        game = play_game(*job, plies, opponent, args)
        with lock:
            games.append(game)
            loads.append(load_average())
            total = sum(g.plies_points() for g in games)
            colour = "W" if game.plies_white else "B"
            flag = f" ({game.flagged} flagged)" if game.flagged else ""
            print(f"game {game.number:3d} opening {game.opening:3d} plies {colour} "
                  f"{game.result:7s} {game.reason}{flag}  "
                  f"[plies {total:g}/{len(games)}]", flush=True)

    t0 = time.perf_counter()
    with ThreadPoolExecutor(args.concurrency) as pool:
        for future in [pool.submit(run, job) for job in jobs]:
            future.result()
    seconds = time.perf_counter() - t0
    if args.pgn:
        write_pgn(Path(args.pgn), games, plies, opponent, args.tc)
    flags = {who: sum(g.flagged == who for g in games) for who in ("plies", "opponent")}
    print(f"plies vs {opponent.name}: {summary(games)}  tc {args.tc}  "
          f"time losses plies {flags['plies']} opponent {flags['opponent']}  "
          f"{load_text(loads)}  {seconds:.0f} s  cpu {cpu_model()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
