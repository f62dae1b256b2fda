"""Playing strength: a match of plies (over UCI) against Stockfish at a set Elo, or sunfish.

plies runs as ``python -m plies uci`` and is driven, like its opponent, through
python-chess by the arena (``plies.arena``): every opening is played twice
with colours swapped, games run on ``--concurrency`` threads, and the result
is printed as W/D/L, score and Elo difference with a 95% error bar.

Stockfish is weakened with ``UCI_LimitStrength=true`` and ``UCI_Elo=E``
(1350..2850 in Stockfish 15.1); sunfish is PyPI ``sunfish`` (``sunfish-uci``).

Usage:
  python benchmarks/strength.py --opponent stockfish --elo 2000 --games 20 --tc 10+0.1
  python benchmarks/strength.py --opponent sunfish --games 10 --tc 10+0.1
  python benchmarks/strength.py --opponent both --elo 1500 --games 4 --tc 5+0.05
  python benchmarks/strength.py --elo 2500 --games 100 --pgn games.pgn   # keep the games
Not a test: it takes minutes to hours; the machine should be otherwise idle.
"""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from harness import (
    STOCKFISH,
    SUNFISH,
    MatchRun,
    installed,
    load_text,
    machine_line,
    openings_from,
    plies_player,
    run_match,
    score_line,
)
from plies.agents.spec import parse_player
from plies.arena.clock import TimeControl
from plies.arena.openings import Opening
from plies.arena.pgn import PgnWriter
from plies.arena.report import endings_table

SF_MIN_ELO = 1350
"""Stockfish 15.1's lowest ``UCI_Elo``."""
SF_MAX_ELO = 2850
"""Stockfish 15.1's highest ``UCI_Elo``."""
SF_DEFAULT_OVERHEAD_MS = 10
"""Stockfish's own default Move Overhead."""


def stockfish_player(elo: int, overhead_ms: int = SF_DEFAULT_OVERHEAD_MS) -> str:
    """The arena spec of Stockfish limited to ``elo`` (one thread, 16 MB hash)."""
    return (f"uci:{STOCKFISH}:UCI_LimitStrength=true,UCI_Elo={elo},Threads=1,Hash=16,"
            f"Move Overhead={overhead_ms},name=stockfish-{elo}")


def opponent_players(args: argparse.Namespace) -> list[str]:
    """Arena specs of the chosen opponents."""
    specs = []
    if args.opponent in ("stockfish", "both"):
        if not installed(STOCKFISH):
            sys.exit(f"strength: {STOCKFISH} not found")
        specs.append(stockfish_player(args.elo))
    if args.opponent in ("sunfish", "both"):
        if not installed(SUNFISH):
            sys.exit(f"strength: {SUNFISH} not found (pip install --no-deps sunfish)")
        specs.append(f"uci:{SUNFISH}:name=sunfish")
    return specs


def play(args: argparse.Namespace, opponent: str, openings: list[Opening],
         out: Console, pgn: PgnWriter | None = None) -> MatchRun:
    """Play one match of plies against ``opponent``."""
    run = run_match([plies_player(args.hash), opponent], args, openings, out, pgn=pgn)
    if run.records:
        out.print(endings_table(run.records))
    return run


def main() -> int:
    """Parse arguments, play the match(es), print the results."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--opponent", choices=("stockfish", "sunfish", "both"), default="stockfish")
    p.add_argument("--elo", type=int, default=2000,
                   help=f"Stockfish UCI_Elo, {SF_MIN_ELO}..{SF_MAX_ELO}")
    p.add_argument("--games", type=int, default=20, help="games per opponent (even: paired)")
    p.add_argument("--tc", default="10+0.1", help="time control SECONDS[+INC] (default 10+0.1)")
    p.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    p.add_argument("--openings", help="EPD or PGN opening file (default: built-in lines)")
    p.add_argument("--hash", type=int, default=64, help="plies Hash in MB (default 64)")
    p.add_argument("--margin", type=int, default=100, help="lag forgiven before a time loss (ms)")
    p.add_argument("--max-moves", type=int, default=200, help="draw after this many moves")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pgn", help="write every game to this PGN file as it ends")
    args = p.parse_args()
    if not SF_MIN_ELO <= args.elo <= SF_MAX_ELO:
        p.error(f"--elo must be within {SF_MIN_ELO}..{SF_MAX_ELO} (Stockfish 15.1's UCI_Elo range)")
    if args.games < 1 or args.concurrency < 1:
        p.error("--games and --concurrency must be at least 1")
    try:
        TimeControl.parse(args.tc)
    except ValueError as exc:
        p.error(str(exc))
    openings = openings_from(args.openings, p)
    out = Console(soft_wrap=True)
    results = []
    opponents = opponent_players(args)
    try:
        pgn = PgnWriter(args.pgn) if args.pgn else None
    except OSError as exc:
        p.error(f"cannot write {args.pgn}: {exc.strerror}")
    try:
        for opponent in opponents:
            name = parse_player(opponent).name
            out.rule(f"plies vs {name}, {args.games} games at {args.tc}")
            results.append((name, play(args, opponent, openings, out, pgn)))
    finally:
        if pgn is not None:
            pgn.close()
    out.rule("summary")
    out.print(machine_line(), markup=False, highlight=False)
    for name, run in results:
        out.print(f"{score_line('plies', name, run.score)}  tc {args.tc}  {load_text(run.loads)}",
                  markup=False, highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
