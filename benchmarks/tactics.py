"""Tactical test suite: how many EPD best moves plies finds at a fixed time per position.

Runs the plies engine in process and, for comparison, Stockfish (when installed)
at the same time per position, and prints both solved counts.

Both engines run one thread with a 128 MB table; the table is cleared before
each position.

Usage:
  python benchmarks/tactics.py [--epd tests/data/tactics/bratko-kopec.epd] [--time 5]
  python benchmarks/tactics.py --epd tests/data/tactics/wac.epd --time 1 [--limit 100]
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import chess
import chess.engine

from harness import STOCKFISH, machine_line
from plies import Board, Engine, Limit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_EPD = ROOT / "tests" / "data" / "tactics" / "bratko-kopec.epd"
HASH_MB = 128


def load(path: Path) -> list[tuple[str, chess.Board, set[chess.Move]]]:
    """Positions with their ids and sets of best moves from an EPD file."""
    items = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        board, ops = chess.Board.from_epd(line)
        best = set(ops.get("bm", []))  # type: ignore[arg-type]
        items.append((str(ops.get("id", f"#{len(items) + 1}")), board, best))
    return items


def main() -> None:
    """Run the suite and print one line per position and the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epd", type=Path, default=DEFAULT_EPD)
    parser.add_argument("--time", type=float, default=5.0, help="seconds per position")
    parser.add_argument("--limit", type=int, default=None, help="only the first N positions")
    parser.add_argument("--no-stockfish", action="store_true")
    args = parser.parse_args()
    print(machine_line(), flush=True)
    items = load(args.epd)[: args.limit]
    engine = Engine(hash_mb=HASH_MB)
    engine.warm_up()
    stockfish = None
    if not args.no_stockfish and shutil.which(STOCKFISH):
        stockfish = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
        stockfish.configure({"Threads": 1, "Hash": HASH_MB})
    ours = theirs = 0
    for ident, board, best in items:
        engine.new_game()
        result = engine.search(Board(board.fen()), Limit(movetime=int(args.time * 1000)))
        move = chess.Move.from_uci(result.move.uci()) if result.move else None
        ok = move in best
        ours += ok
        line = f"{ident:8} plies {board.san(move) if move else '-':8} {'ok' if ok else '  '}"
        if stockfish is not None:
            played = stockfish.play(
                board, chess.engine.Limit(time=args.time), game=object()
            ).move
            sf_ok = played in best
            theirs += sf_ok
            line += f"  stockfish {board.san(played) if played else '-':8} {'ok' if sf_ok else ''}"
        print(line + f"  (best: {', '.join(board.san(m) for m in best)})", flush=True)
    print(f"plies solved {ours}/{len(items)} at {args.time:g} s per position")
    if stockfish is not None:
        print(f"stockfish solved {theirs}/{len(items)} at {args.time:g} s per position")
        stockfish.quit()


if __name__ == "__main__":
    main()
