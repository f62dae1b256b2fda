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
from dataclasses import dataclass, field
from pathlib import Path

from harness import (
    PLIES,
    STOCKFISH,
    MatchTally,
    clocked,
    faults_line,
    load_average,
    load_text,
    machine_line,
    pgn_games,
    plies_player,
    score_line,
    tally_pgn,
)


@dataclass
class Castling:
    """What only a Chess960 match checks: castling, start positions, the rules' replay."""

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
        sys.executable, "-m", "plies", "arena", plies_player(64), sf, "--variant", "chess960",
        "--tc", args.tc, "--games", str(args.games), "--concurrency", str(args.concurrency),
        "--seed", str(args.seed), "--time-margin", str(args.margin), "--pgn", str(pgn), "-q",
    ]  # fmt: skip


def castling(pgn: Path) -> Castling:
    """Castlings per engine, start positions, and games failing a Chess960 replay."""
    result = Castling()
    fens: set[str] = set()
    for game in pgn_games(pgn):
        fens.add(game.headers.get("FEN", ""))
        board = game.board()
        if game.errors or not board.chess960 or game.headers.get("Variant") != "Chess960":
            result.replay_errors += 1  # python-chess could not play a move, or not by 960 rules
        castled = 0
        for move in game.mainline_moves():
            if board.is_castling(move):
                castled += 1
                mover = game.headers["White" if board.turn else "Black"]
                result.castlings_by[mover] = result.castlings_by.get(mover, 0) + 1
            board.push(move)
        result.castlings += castled
        result.castled_games += castled > 0
    result.positions = len(fens)
    return result


def report(pgn: Path, wall_s: float, loads: list[float]) -> None:
    """Print the result lines."""
    t: MatchTally = tally_pgn(pgn)
    c = castling(pgn)
    played = f", {wall_s / 60:.1f} min wall" if wall_s else ""
    opponent = next((name for name in t.engines if name != PLIES), "stockfish")
    print(f"\nChess960: {c.positions} start positions{played}, {load_text(loads)}")
    print(score_line(PLIES, opponent, t.engine(PLIES).score))
    for name, engine in sorted(t.engines.items()):
        print(faults_line(name, engine))
    by = ", ".join(f"{name} {n}" for name, n in sorted(c.castlings_by.items()))
    print(f"castling: {c.castlings} castlings ({by}) in {c.castled_games} games; "
          f"games failing a python-chess Chess960 replay: {c.replay_errors}")


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
        report(args.report_only, 0.0, [])
        return 0
    if not Path(STOCKFISH).exists():
        print(f"{STOCKFISH} not found: apt-get install -y stockfish", file=sys.stderr)
        return 2
    os.environ.setdefault("PYTHONPATH", str(Path(__file__).resolve().parents[1] / "src"))
    with tempfile.TemporaryDirectory() as tmp:
        pgn = Path(tmp) / "chess960.pgn"
        cmd = command(args, pgn)
        print("$", " ".join(cmd), flush=True)
        before = load_average()
        played = clocked(lambda: subprocess.run(cmd, check=False))
        proc, wall = played.value, played.wall
        after = load_average()
        if not pgn.exists():
            print(f"plies arena failed (exit {proc.returncode}) before any game", file=sys.stderr)
            return 1
        report(pgn, wall, [before, after])
        if args.keep is not None:
            args.keep.write_bytes(lzma.compress(pgn.read_bytes(), preset=9))
            print(f"games kept in {args.keep}")
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())
