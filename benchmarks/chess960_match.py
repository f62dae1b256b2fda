"""Chess960 through ``plies arena``: plies against Stockfish 15.1, counting every fault.

Runs ``plies arena --variant chess960`` with plies as a real UCI subprocess
(``python -m plies uci``) against Stockfish limited with
``UCI_LimitStrength=true,UCI_Elo=E``: each game pair starts from its own seeded
Chess960 start position, colours swapped, both engines told ``UCI_Chess960``
by the arena.  Then it reads the PGN back and prints plies's W/D/L, score and
Elo with its 95% error bar, the illegal moves, crashes (crashed, hung, failed
to start) and losses on time of each engine, how many games had castling
(king takes rook on the wire), and checks every game again by python-chess's
Chess960 rules.  With ``--keep`` the PGN is stored xz-compressed.

    python benchmarks/chess960_match.py                     # 100 games, 2+0.02, UCI_Elo 2200
    python benchmarks/chess960_match.py --games 10 --elo 1800 --keep benchmarks/games/x.pgn.xz
"""

from __future__ import annotations

import argparse
import lzma
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess.pgn

from harness import STOCKFISH, machine_line
from plies.arena.stats import Score, elo_error, elo_from_score

PLIES = f"uci:{sys.executable} -m plies uci:name=plies"


@dataclass
class Faults:
    """The games one engine lost by its own fault, by kind."""

    illegal: int = 0
    crashes: int = 0
    time_losses: int = 0


@dataclass
class Tally:
    """What the PGN says: plies's score, each engine's faults, castling and replay checks."""

    score: Score
    faults: dict[str, Faults]
    castled_games: int = 0
    castlings: int = 0
    castlings_by: dict[str, int] = field(default_factory=dict)
    replay_errors: int = 0
    positions: int = 0


def command(args: argparse.Namespace, pgn: Path) -> list[str]:
    """The ``plies arena`` command line of the match."""
    sf = (f"uci:{STOCKFISH}:UCI_LimitStrength=true,UCI_Elo={args.elo},Threads=1,Hash=16,"
          f"name=stockfish-{args.elo}")  # fmt: skip
    return [
        sys.executable, "-m", "plies", "arena", PLIES, sf, "--variant", "chess960",
        "--tc", args.tc, "--games", str(args.games), "--concurrency", str(args.concurrency),
        "--seed", str(args.seed), "--time-margin", str(args.margin), "--pgn", str(pgn), "-q",
    ]  # fmt: skip


def tally(pgn: Path) -> Tally:
    """Read every game of ``pgn``: plies's score, faults per engine, castling, replays."""
    result = Tally(Score(), {})
    fens: set[str] = set()
    with pgn.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            _add(game, result)
            fens.add(game.headers.get("FEN", ""))
    result.positions = len(fens)
    return result


def _add(game: chess.pgn.Game, t: Tally) -> None:
    """Count one game."""
    h = game.headers
    names = {chess.WHITE: h["White"], chess.BLACK: h["Black"]}
    plies_side = chess.WHITE if names[chess.WHITE] == "plies" else chess.BLACK
    winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(h["Result"])
    t.score = t.score.add(0.5 if winner is None else float(winner == plies_side))
    board = game.board()
    castled = 0
    if game.errors or not board.chess960 or h.get("Variant") != "Chess960":
        t.replay_errors += 1
    for move in game.mainline_moves():
        if move not in board.legal_moves:
            t.replay_errors += 1
            break
        if board.is_castling(move):
            castled += 1
            mover = names[board.turn]
            t.castlings_by[mover] = t.castlings_by.get(mover, 0) + 1
        board.push(move)
    t.castlings += castled
    t.castled_games += castled > 0
    end = game.end()
    reason = end.comment if end is not game else game.comment
    kind = {"time forfeit": "time", "rules infraction": "illegal", "abandoned": "crash"}.get(
        h.get("Termination", ""), "crash" if "crashed" in reason or "hung" in reason else ""
    )
    if kind and not reason.endswith("cannot mate"):
        # The side at fault is the one to move in the final position.
        faults = t.faults.setdefault(names[board.turn], Faults())
        if kind == "time":
            faults.time_losses += 1
        elif kind == "illegal":
            faults.illegal += 1
        else:
            faults.crashes += 1


def report(t: Tally, wall_s: float, loads: tuple[float, float]) -> None:
    """Print the result lines."""
    s = t.score
    played = f", {wall_s / 60:.1f} min wall" if wall_s else ""
    print(f"\nplies vs Stockfish, Chess960: {s.games} games from {t.positions} start positions"
          f"{played}, load {loads[0]:.1f} before / {loads[1]:.1f} after")
    print(f"plies: W {s.wins} / D {s.draws} / L {s.losses}, {100 * s.mean:.1f}%, "
          f"Elo {round(elo_from_score(s.mean)):+d} ± {elo_error(s):.0f} (95%)")
    for name in sorted(t.faults) or ["(nobody)"]:
        f = t.faults.get(name, Faults())
        print(f"{name}: illegal moves {f.illegal}, crashes {f.crashes}, "
              f"losses on time {f.time_losses}")
    by = ", ".join(f"{name} {n}" for name, n in sorted(t.castlings_by.items()))
    print(f"castling: {t.castlings} castlings ({by}) in {t.castled_games} games; "
          f"games failing a python-chess Chess960 replay: {t.replay_errors}")


def main() -> int:
    """Play the match, print the tally, keep the games if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games (100)")
    parser.add_argument("--tc", default="2+0.02", help="time control (2+0.02)")
    parser.add_argument("--elo", type=int, default=2200, help="Stockfish UCI_Elo (2200)")
    parser.add_argument("--seed", type=int, default=960, help="seed of the start positions")
    parser.add_argument("--concurrency", type=int, default=2, help="games at once (2)")
    parser.add_argument("--margin", type=int, default=100, help="lag forgiven, ms (100)")
    parser.add_argument("--keep", type=Path, metavar="F.pgn.xz", help="store the games here")
    parser.add_argument("--report-only", type=Path, metavar="PGN",
                        help="only read an existing PGN (plain or .xz)")
    args = parser.parse_args()
    print(machine_line(), flush=True)
    if args.report_only is not None:
        pgn = args.report_only
        if pgn.suffix == ".xz":
            plain = Path(tempfile.mkdtemp()) / "games.pgn"
            plain.write_bytes(lzma.decompress(pgn.read_bytes()))
            pgn = plain
        report(tally(pgn), 0.0, (os.getloadavg()[0],) * 2)
        return 0
    if not Path(STOCKFISH).exists():
        print(f"{STOCKFISH} not found: apt-get install -y stockfish", file=sys.stderr)
        return 2
    os.environ.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1] / "src"))
    with tempfile.TemporaryDirectory() as tmp:
        pgn = Path(tmp) / "chess960.pgn"
        cmd = command(args, pgn)
        print("$", " ".join(cmd), flush=True)
        before = os.getloadavg()[0]
        start = time.perf_counter()
        proc = subprocess.run(cmd, check=False)
        wall = time.perf_counter() - start
        after = os.getloadavg()[0]
        if not pgn.exists():
            print(f"plies arena failed (exit {proc.returncode}) before any game", file=sys.stderr)
            return 1
        report(tally(pgn), wall, (before, after))
        if args.keep is not None:
            args.keep.write_bytes(lzma.compress(pgn.read_bytes(), preset=9))
            print(f"games kept in {args.keep}")
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())
