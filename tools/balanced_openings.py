"""Balanced opening lines for long matches, chosen by Stockfish (a PGN for ``--openings``).

The built-in lines of ``strength.py`` are 16 named openings: a 200-game match would play
each six times. This script walks ``--plies`` plies from the start position; at every ply
Stockfish (MultiPV ``--multipv`` at depth ``--walk-depth``) names its best moves and one
within ``--spread`` centipawns of the best is drawn at random, so the lines are the sort
of moves strong players choose, not random ones. A line is kept when Stockfish at depth
``--depth`` scores its end within ``--max-eval`` centipawns of equality and no earlier
line ended in the same position. The same ``--seed`` gives the same file.

Usage:
  python tools/balanced_openings.py --count 100 --out benchmarks/openings/balanced-100.pgn
Needs Stockfish (``apt-get install stockfish``); about a second a line.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn

# The outside engines' paths are declared once, in the benchmarks' harness.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from harness import STOCKFISH


def candidate_moves(
    engine: chess.engine.SimpleEngine, board: chess.Board, depth: int, multipv: int, spread: int
) -> list[chess.Move]:
    """Stockfish's best moves here that score within ``spread`` cp of its best."""
    infos = engine.analyse(board, chess.engine.Limit(depth=depth), multipv=multipv)
    scored = [(i["pv"][0], i["score"].pov(board.turn).score(mate_score=100_000))
              for i in infos if i.get("pv")]  # fmt: skip
    if not scored:
        return []
    best = max(s for _, s in scored)
    return [m for m, s in scored if s >= best - spread]


def balanced_line(
    engine: chess.engine.SimpleEngine, rng: random.Random, args: argparse.Namespace
) -> tuple[chess.Board, int] | None:
    """One walk and its final score for White (None: the walk ended the game or lopsided)."""
    board = chess.Board()
    for _ in range(args.plies):
        moves = candidate_moves(engine, board, args.walk_depth, args.multipv, args.spread)
        if not moves:
            return None
        board.push(rng.choice(moves))
        if board.is_game_over():
            return None
    info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
    score = info["score"].white().score(mate_score=100_000)
    if score is None or abs(score) > args.max_eval:
        return None
    return board, score


def main(argv: list[str] | None = None) -> int:
    """Write ``--count`` balanced lines to ``--out``."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=100, help="lines to write (default 100)")
    p.add_argument("--plies", type=int, default=8, help="plies per line (default 8)")
    p.add_argument("--multipv", type=int, default=4, help="moves considered per ply (default 4)")
    p.add_argument("--spread", type=int, default=30,
                   help="a move within this many cp of the best may be drawn (default 30)")
    p.add_argument("--walk-depth", type=int, default=10, help="depth of the walk (default 10)")
    p.add_argument("--depth", type=int, default=16, help="depth of the final score (default 16)")
    p.add_argument("--max-eval", type=int, default=40,
                   help="keep lines scored within this many cp of 0 (default 40)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--stockfish", default=STOCKFISH)
    p.add_argument("--out", required=True, help="PGN file to write")
    args = p.parse_args(argv)
    if args.count < 1 or args.plies < 1:
        p.error("--count and --plies must be at least 1")
    try:
        engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    except (OSError, chess.engine.EngineError) as exc:
        print(f"error: cannot start {args.stockfish}: {exc} (apt-get install stockfish)",
              file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    seen: set[str] = set()
    games: list[chess.pgn.Game] = []
    tries = 0
    try:
        engine.configure({"Threads": 1, "Hash": 64})
        while len(games) < args.count and tries < 20 * args.count:
            tries += 1
            found = balanced_line(engine, rng, args)
            if found is None:
                continue
            board, score = found
            key = board.epd()
            if key in seen:
                continue
            seen.add(key)
            game = chess.pgn.Game.from_board(board)
            number = len(games) + 1
            game.headers["Event"] = "balanced openings"
            game.headers["Round"] = str(number)
            game.headers["Opening"] = f"balanced {number}, {score:+d} cp at depth {args.depth}"
            game.headers["Result"] = "*"
            games.append(game)
            print(f"{len(games)}/{args.count}  {score:+4d}  {board.fen()}", flush=True)
    finally:
        engine.quit()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(str(g) + "\n\n" for g in games), encoding="utf-8")
    print(f"{len(games)} lines written to {out} ({tries} walks)")
    return 0 if len(games) == args.count else 1


if __name__ == "__main__":
    raise SystemExit(main())
