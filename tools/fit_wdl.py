"""Fit the win/draw/loss model behind ``UCI_ShowWDL`` to plies' own games.

Two steps, so the slow one can run in the background:

  python tools/fit_wdl.py generate --games 200 --nodes 4000 --out wdl-games.csv
  python tools/fit_wdl.py fit wdl-games.csv

``generate`` plays plies against itself (one engine, ``--nodes`` per move,
each game opened with ``--random-plies`` uniformly random moves so the games
differ and cover lopsided positions too) and writes one row per searched
position: game, ply, material, the search score (centipawns, side to move;
mates skipped) and the game's result from the side to move (1, 0.5, 0).

``fit`` finds the model of ``plies.engine.wdl`` by maximum likelihood:
P(win) = 1 / (1 + exp((a - s) / b)), P(loss) = the same at -s, P(draw) the
rest, with ``a`` and ``b`` linear in the material left (pawn 1, minor 3, rook
5, queen 9, both sides, clamped to 17..78 as Stockfish's model does). Rows
from the first plies (still the random opening) and with |score| > 1500 are
dropped. It prints the four coefficients to paste into ``plies.engine.wdl``.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time

import numpy as np

from plies.board import Board
from plies.engine import Engine, Limit
from plies.engine.wdl import material

MAX_PLIES = 300
"""A self-play game still going after this many plies is scored a draw."""
SKIP_PLIES = 16
"""Positions before this ply are left out of the fit (random opening moves)."""
MAX_SCORE = 1500
"""Scores beyond this (cp) say nothing about the shape of the curve."""


def generate(args: argparse.Namespace) -> int:
    """Play self-play games and write the rows."""
    rng = random.Random(args.seed)
    engine = Engine(hash_mb=16)
    engine.warm_up()
    start = time.perf_counter()
    with open(args.out, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["game", "ply", "material", "score", "result"])
        for game in range(args.games):
            board = Board()
            engine.new_game()
            for _ in range(args.random_plies):
                moves = board.legal_moves
                if not moves or board.is_game_over(claim_draw=True):
                    break
                board.push(rng.choice(moves))
            rows: list[tuple[int, int, int, int]] = []
            while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
                result = engine.search(board, Limit(nodes=args.nodes))
                if result.move is None:
                    break
                if result.score is not None and not result.score.is_mate():
                    cp = result.score.relative.score() or 0
                    rows.append((board.ply(), material(board), cp, board.turn))
                board.push(result.move)
            outcome = board.outcome(claim_draw=True)
            winner = None if outcome is None else outcome.winner
            for ply, mat, score, turn in rows:
                points = 0.5 if winner is None else (1.0 if winner == turn else 0.0)
                writer.writerow([game, ply, mat, score, points])
            handle.flush()
            print(
                f"game {game + 1}/{args.games}: {board.result(claim_draw=True)} after "
                f"{board.ply()} plies ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    return 0


def _probabilities(
    params: np.ndarray, score: np.ndarray, mat: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Model win, draw and loss probabilities for each row."""
    a0, a1, b0, b1 = params
    m = np.clip(mat, 17, 78) / 58.0
    a = a0 + a1 * m
    b = np.maximum(b0 + b1 * m, 1.0)
    win = 1.0 / (1.0 + np.exp((a - score) / b))
    loss = 1.0 / (1.0 + np.exp((a + score) / b))
    return win, np.clip(1.0 - win - loss, 1e-9, 1.0), loss


def fit(args: argparse.Namespace) -> int:
    """Fit the model to the rows of a generated file and print it."""
    from scipy.optimize import minimize

    data = np.loadtxt(args.data, delimiter=",", skiprows=1)
    if data.ndim == 1:
        data = data[None, :]
    keep = (data[:, 1] >= SKIP_PLIES) & (np.abs(data[:, 3]) <= MAX_SCORE)
    games = len(np.unique(data[:, 0]))
    data = data[keep]
    score, mat, result = data[:, 3], data[:, 2], data[:, 4]

    def nll(params: np.ndarray) -> float:
        """Negative mean log-likelihood of the observed results."""
        win, draw, loss = _probabilities(params, score, mat)
        p = np.where(result == 1.0, win, np.where(result == 0.0, loss, draw))
        return float(-np.mean(np.log(np.clip(p, 1e-9, 1.0))))

    best = minimize(nll, np.array([200.0, 100.0, 60.0, 30.0]), method="Nelder-Mead",
                    options={"maxiter": 4000, "xatol": 0.01, "fatol": 1e-7})
    a0, a1, b0, b1 = best.x
    wins = int(np.sum(result == 1.0))
    draws = int(np.sum(result == 0.5))
    print(f"{games} games, {len(data)} positions kept (wins {wins}, draws {draws}, "
          f"losses {len(data) - wins - draws} from the side to move)")
    freq = np.array([wins, draws, len(data) - wins - draws], dtype=float) / len(data)
    blind = float(np.sum(freq * np.log(np.clip(freq, 1e-9, 1.0))))
    print(f"mean log-likelihood {-best.fun:.4f} (ignoring the score: {blind:.4f})")
    print(f"A = ({a0:.1f}, {a1:.1f})  B = ({b0:.1f}, {b1:.1f})   # a = A0 + A1*m, b = B0 + B1*m")
    return 0


def main() -> int:
    """Parse arguments and run a step."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="step", required=True)
    g = sub.add_parser("generate", help="play self-play games and write positions")
    g.add_argument("--games", type=int, default=200)
    g.add_argument("--nodes", type=int, default=4000, help="nodes per move (default 4000)")
    g.add_argument("--random-plies", type=int, default=6, help="random opening plies (6)")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the model to a generated file")
    f.add_argument("data")
    args = p.parse_args()
    return generate(args) if args.step == "generate" else fit(args)


if __name__ == "__main__":
    sys.exit(main())
