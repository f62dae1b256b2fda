"""Strength with and without Syzygy tables: plies against itself from endgame positions.

Random legal positions of a few 4-man endings (or --endings, e.g. 5-man ones
whose captures lead into the tables, probed inside the search) (from the tables in
``--path``, by default ``$SYZYGY_PATH``) are each played twice, colours swapped:
plies with ``SyzygyPath`` set against the same engine without tables, at a
fixed node budget per move, until the game ends (draws claimed) or --max-plies.
Printed: the match score of the engine with tables; for each engine how many
of its tablebase wins it converted and how many of its draws (or wins) it
held, the tables being the referee at the start; and the nodes per second of
each side over the whole match (the probing cost at the root shows there).

Usage: python benchmarks/syzygy_match.py [--path DIRS] [--per-ending N] [--nodes N]
                                         [--max-plies N] [--seed N]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import chess
import chess.syzygy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness import machine_line, random_ending  # noqa: E402
from plies import Board, Engine, Limit  # noqa: E402

ENDINGS = ["KQvKR", "KRvKB", "KRvKN", "KQvKP", "KRvKP", "KPvKP", "KBNvK", "KPvK"]


class Side:
    """One engine of the match and what it achieved."""

    def __init__(self, name: str, engine: Engine) -> None:
        """Wrap ``engine`` with zeroed tallies."""
        self.name = name
        self.engine = engine
        self.nodes = 0
        self.seconds = 0.0
        self.wins_had = self.wins_made = 0
        self.holds_had = self.holds_made = 0

    def move(self, board: Board, limit: Limit) -> str:
        """The engine's move (UCI), timing the search."""
        start = time.perf_counter()
        result = self.engine.search(board, limit)
        self.seconds += time.perf_counter() - start
        self.nodes += self.engine.nodes_searched()
        assert result.best_move is not None
        return result.best_move.uci()


def play(fen: str, white: Side, black: Side, limit: Limit, max_plies: int) -> chess.Board:
    """One game from ``fen``; the final python-chess board."""
    board, mine = chess.Board(fen), Board(fen)
    for side in (white, black):
        side.engine.new_game()
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        side = white if board.turn == chess.WHITE else black
        uci = side.move(mine, limit)
        board.push_uci(uci)
        mine.push_uci(uci)
    return board


def main() -> None:
    """Play the match and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=os.environ.get("SYZYGY_PATH", ""),
                        help="Syzygy tables (default: $SYZYGY_PATH)")
    parser.add_argument("--per-ending", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--endings", default=",".join(ENDINGS),
                        help="comma-separated material, e.g. KRPvKR (5 men: probed in the search)")
    args = parser.parse_args()
    print(machine_line(), flush=True)
    if not args.path:
        parser.error("no tables: give --path DIRS or set SYZYGY_PATH")
    oracle = chess.syzygy.open_tablebase(args.path)
    with_tb = Engine(hash_mb=16)
    with_tb.set_option("SyzygyPath", args.path)
    sides = [Side("with tables", with_tb), Side("without", Engine(hash_mb=16))]
    limit = Limit(nodes=args.nodes)
    rng = random.Random(args.seed)
    points = games = 0.0
    endings = args.endings.split(",")
    for name in endings:
        for _ in range(args.per_ending):
            while True:
                start = random_ending(name, rng, swap=False)
                if not start.is_game_over() and not start.castling_rights:
                    break
            wdl = oracle.get_wdl(start)  # None beyond the tables: no referee
            for tb_white in (True, False):
                white, black = (sides[0], sides[1]) if tb_white else (sides[1], sides[0])
                board = play(start.fen(), white, black, limit, args.max_plies)
                outcome = board.outcome(claim_draw=True)
                winner = None if outcome is None else outcome.winner
                mover, other = (white, black) if start.turn == chess.WHITE else (black, white)
                if wdl == 2:
                    mover.wins_had += 1
                    mover.wins_made += winner == start.turn
                if wdl is not None and wdl >= 0:
                    mover.holds_had += 1
                    mover.holds_made += winner != (not start.turn)
                if wdl is not None and wdl <= 0:
                    other.holds_had += 1
                    other.holds_made += winner != start.turn
                tb_colour = chess.WHITE if tb_white else chess.BLACK
                points += 1.0 if winner == tb_colour else 0.5 if winner is None else 0.0
                games += 1
        print(f"{name}: {games:.0f} games so far, with tables {points:.1f}", flush=True)
    print(f"\nmatch: {games:.0f} games ({len(endings)} endings x {args.per_ending} positions"
          f" x 2 colours, {args.nodes} nodes per move)")
    print(f"plies with tables scores {points:.1f} / {games:.0f} ({100 * points / games:.1f}%)")
    for s in sides:
        nps = s.nodes / s.seconds if s.seconds else 0.0
        print(f"{s.name:12s} converted {s.wins_made}/{s.wins_had} won starts, held"
              f" {s.holds_made}/{s.holds_had} drawn-or-better starts, {nps:,.0f} nodes/s")


if __name__ == "__main__":
    main()
