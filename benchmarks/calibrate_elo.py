"""Calibrate ``UCI_Elo``: plies limited to an Elo against Stockfish 15.1 limited to the same.

For each level, plies (``python -m plies uci`` with ``UCI_LimitStrength=true,
UCI_Elo=E``) plays Stockfish (``UCI_LimitStrength=true, UCI_Elo=E``) through
the arena: every opening twice with colours swapped (paired openings, the
built-in lines of ``strength.py``), clocks enforced. A calibrated level scores
35-65%; the printed line per level gives W/D/L, the score and the Elo
difference with its 95% error bar, i.e. how far plies' E is from Stockfish's E,
then the time control and the machine's 1-minute load average over the games
(mean and range).
A level above plies' top ``UCI_Elo`` (its full strength) is played at that top.

Usage (40 games per level at 10+0.1; 15-20 minutes a level):
  python benchmarks/calibrate_elo.py --levels 1400 1800 2200 --games 40 --tc 10+0.1
The published figures (a loaded machine, so lag up to a second is forgiven):
  python benchmarks/calibrate_elo.py --levels 1400 1800 2000 2200 --margin 1000
A quick sanity check:
  nice python benchmarks/calibrate_elo.py --levels 1400 1800 2200 --games 10 --tc 5+0.05
Not a test: the machine should be otherwise idle for figures worth quoting.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys

from rich.console import Console

from plies.arena.clock import TimeControl
from plies.arena.stats import Score
from plies.engine.strength import MAX_ELO, MIN_ELO
from strength import (
    SF_DEFAULT_OVERHEAD_MS,
    SF_MAX_ELO,
    SF_MIN_ELO,
    STOCKFISH,
    load_text,
    openings_from,
    run_match,
    score_line,
    stockfish_player,
)

LOW_SCORE = 0.35
"""The lowest score of a calibrated level (the band is 35-65%)."""
HIGH_SCORE = 0.65
"""The highest score of a calibrated level."""


def plies_player(elo: int, hash_mb: int, overhead_ms: int) -> str:
    """The arena spec of plies limited to ``elo`` (above its scale: full strength)."""
    own = min(elo, MAX_ELO)
    return (f"uci:{sys.executable} -m plies uci:Hash={hash_mb},UCI_LimitStrength=true,"
            f"UCI_Elo={own},Move Overhead={overhead_ms},name=plies-{elo}")


def score_interval(score: Score) -> float:
    """Half-width of the 95% confidence interval of the mean score (normal approximation)."""
    if score.games < 2:
        return float("inf")
    m = score.mean
    var = (score.wins * (1 - m) ** 2 + score.draws * (0.5 - m) ** 2
           + score.losses * m**2) / score.games
    return 1.96 * math.sqrt(var / score.games)


def main() -> int:
    """Parse arguments, play each level, print the score lines."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--levels", type=int, nargs="+", default=[1400, 1800, 2200],
                   help="UCI_Elo levels to test (default 1400 1800 2200)")
    p.add_argument("--games", type=int, default=40, help="games per level (default 40)")
    p.add_argument("--tc", default="10+0.1", help="time control (default 10+0.1)")
    p.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    p.add_argument("--openings", help="EPD or PGN opening file (default: built-in lines)")
    p.add_argument("--hash", type=int, default=16, help="plies Hash in MB (default 16)")
    p.add_argument("--margin", type=int, default=100,
                   help="lag forgiven before a time loss (ms, default 100; on a loaded machine "
                   "1000 keeps scheduling delays from deciding games)")
    p.add_argument("--overhead", type=int, default=SF_DEFAULT_OVERHEAD_MS,
                   help="Move Overhead of both engines in ms (default 10; raise it on a loaded "
                   "machine, where Stockfish otherwise loses on time)")
    p.add_argument("--max-moves", type=int, default=200, help="draw after this many moves")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    low, high = max(MIN_ELO, SF_MIN_ELO), SF_MAX_ELO
    for elo in args.levels:
        if not low <= elo <= high:
            p.error(f"levels must be within {low}..{high} (both engines' UCI_Elo ranges)")
    if args.games < 1 or args.concurrency < 1:
        p.error("--games and --concurrency must be at least 1")
    if not shutil.which(STOCKFISH):
        p.error(f"{STOCKFISH} not found")
    try:
        TimeControl.parse(args.tc)
    except ValueError as exc:
        p.error(str(exc))
    openings = openings_from(args.openings, p)
    out = Console(soft_wrap=True)
    runs = []
    for elo in args.levels:
        out.rule(f"UCI_Elo {elo}: plies vs Stockfish 15.1, {args.games} games at {args.tc}")
        specs = [plies_player(elo, args.hash, args.overhead),
                 stockfish_player(elo, args.overhead)]
        runs.append((elo, run_match(specs, args, openings, out, indent="  ")))
    out.rule(f"summary (calibrated: {100 * LOW_SCORE:.0f}-{100 * HIGH_SCORE:.0f}%)")
    for elo, run in runs:
        score = run.score
        in_band = score.games > 0 and LOW_SCORE <= score.mean <= HIGH_SCORE
        verdict = "in range" if in_band else "OUT of range"
        line = score_line(f"plies-{elo}", f"stockfish-{elo}", score)
        half = 100 * score_interval(score)
        out.print(f"{line}  score 95% interval +/- {half:.0f} points  [{verdict}]  "
                  f"tc {args.tc}  {load_text(run.loads)}", markup=False, highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
