"""Strength with and without Syzygy tables: plies against itself from endgame positions.

Random legal positions of a few 4-man endings (or --endings, e.g. 5-man ones
whose captures lead into the tables, probed inside the search) are each played
twice, colours swapped, through the arena (``harness.run_match``): plies with
``SyzygyPath`` set (the tables of ``--path``, by default ``$SYZYGY_PATH``)
against the same engine without tables, both as UCI subprocesses at a fixed
node budget per move, until the game ends (draws claimed) or --max-moves.
Printed: the match score of the engine with tables; for each engine how many
of its tablebase wins it converted and how many of its draws (or wins) it
held, the tables being the referee at the start; and the milliseconds per move
of each side at the same node budget (the probing cost shows there).

Usage: python benchmarks/syzygy_match.py [--path DIRS] [--per-ending N] [--nodes N]
                                         [--max-moves N] [--seed N] [--concurrency N]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
from collections import Counter

import chess
import chess.syzygy
from rich.console import Console

from harness import (
    load_text,
    machine_line,
    plies_player,
    random_ending,
    run_match,
    score_line,
)
from plies.agents.spec import PlayerSpec, parse_player
from plies.arena.openings import Opening
from plies.arena.referee import Adjudication, GameRecord, GameSettings
from plies.engine.limits import Limit

ENDINGS = ["KQvKR", "KRvKB", "KRvKN", "KQvKP", "KRvKP", "KPvKP", "KBNvK", "KPvK"]
WITH, WITHOUT = "tables", "no-tables"


def players(path: str) -> list[PlayerSpec]:
    """plies with the tables (``SyzygyPath``, which may hold ``:``) and plies without."""
    with_tables = parse_player(plies_player(16, WITH))
    with_tables = dataclasses.replace(
        with_tables, options=(*with_tables.options, ("SyzygyPath", path)))
    return [with_tables, parse_player(plies_player(16, WITHOUT))]


def start_positions(endings: list[str], per_ending: int, seed: int) -> list[Opening]:
    """``per_ending`` random positions of each ending, in play and without castling."""
    rng = random.Random(seed)
    out: list[Opening] = []
    for name in endings:
        for _ in range(per_ending):
            while True:
                start = random_ending(name, rng, swap=False)
                if not start.is_game_over() and not start.castling_rights:
                    break
            out.append(Opening(start.fen(), (), name))
    return out


def count(record: GameRecord, wdl: int | None, sides: dict[str, Counter[str]]) -> None:
    """Add one game to each side's conversions (against the start's verdict) and times:
    ``won starts`` and ``converted``, ``drawn-or-better starts`` and ``held``, ``moves``
    and ``ms``."""
    start = chess.Board(record.opening.fen)
    names = {chess.WHITE: record.white, chess.BLACK: record.black}
    winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(record.result)
    mover, other = sides[names[start.turn]], sides[names[not start.turn]]
    if wdl == 2:
        mover["won starts"] += 1
        mover["converted"] += winner == start.turn
    if wdl is not None and wdl >= 0:
        mover["drawn-or-better starts"] += 1
        mover["held"] += winner != (not start.turn)
    if wdl is not None and wdl <= 0:
        other["drawn-or-better starts"] += 1
        other["held"] += winner != start.turn
    for ply, move in enumerate(record.moves):
        side = sides[names[start.turn if ply % 2 == 0 else not start.turn]]
        side["moves"] += 1
        side["ms"] += move.elapsed_ms


def main() -> None:
    """Play the match and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=os.environ.get("SYZYGY_PATH", ""),
                        help="Syzygy tables (default: $SYZYGY_PATH)")
    parser.add_argument("--per-ending", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--max-moves", type=int, default=150,
                        help="a draw after this many moves (150)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (1)")
    parser.add_argument("--endings", default=",".join(ENDINGS),
                        help="comma-separated material, e.g. KRPvKR (5 men: probed in the search)")
    args = parser.parse_args()
    print(machine_line(), flush=True)
    if not args.path:
        parser.error("no tables: give --path DIRS or set SYZYGY_PATH")
    directories = args.path.split(os.pathsep)
    oracle = chess.syzygy.open_tablebase(directories[0])
    for extra in directories[1:]:
        oracle.add_directory(extra)
    endings = args.endings.split(",")
    starts = start_positions(endings, args.per_ending, args.seed)
    verdicts = {o.fen: oracle.get_wdl(chess.Board(o.fen)) for o in starts}  # None: no referee
    args.games = 2 * len(starts)
    settings = GameSettings(limit=Limit(nodes=args.nodes),
                            adjudication=Adjudication(max_moves=args.max_moves))
    run = run_match(players(args.path), args, starts, Console(highlight=False, soft_wrap=True),
                    event="plies syzygy match", settings=settings)
    sides: dict[str, Counter[str]] = {WITH: Counter(), WITHOUT: Counter()}
    for record in run.records:
        count(record, verdicts[record.opening.fen], sides)
    print(f"\nmatch: {len(endings)} endings x {args.per_ending} positions x 2 colours, "
          f"{args.nodes} nodes per move, {load_text(run.loads)}")
    print(score_line(WITH, WITHOUT, run.score))
    for name, s in sides.items():
        per_move = s["ms"] / s["moves"] if s["moves"] else 0.0
        print(f"{name:10s} converted {s['converted']}/{s['won starts']} won starts, held "
              f"{s['held']}/{s['drawn-or-better starts']} drawn-or-better starts, "
              f"{per_move:.1f} ms per move")


if __name__ == "__main__":
    main()
