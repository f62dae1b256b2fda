"""Calibrate ``UCI_Elo``: plies limited to an Elo against Stockfish 15.1 limited to the same.

For each level, plies (``python -m plies uci`` with ``UCI_LimitStrength=true,
UCI_Elo=E``) plays Stockfish (``UCI_LimitStrength=true, UCI_Elo=E``) through
the arena: every opening twice with colours swapped (paired openings, the
built-in lines of ``strength.py``), clocks enforced. A calibrated level scores
35-65%; the printed line per level gives W/D/L, the score and the Elo
difference with its 95% error bar, i.e. how far plies' E is from Stockfish's E,
then the time control and the machine's 1-minute load average over the games
(mean and range). A level above plies' level curve plays at full strength.

``--fit`` re-fits the level curve (``src/plies/engine/levels.json``): the
levels become the curve's points, each level's node budget is played, and a
level outside 35-65% moves its budget by its Elo offset over ``--slope`` Elo
per doubling (all of that level's rounds pooled), for up to ``--rounds``
rounds. Each round's curve reaches the engines through ``$PLIES_LEVELS``;
every match is appended to ``--log`` (``benchmarks/levels-log.md``). Once every
level is in range the curve is written with the ``plies bench`` signature of
the engine that played it (``tools/check_levels.py`` warns when that differs).

Usage (40 games per level at 10+0.1; 10-20 minutes a level):
  python benchmarks/calibrate_elo.py --levels 1400 1800 2200 --games 40 --tc 10+0.1
Re-fit the curve after a strength change, two games at a time:
  python benchmarks/calibrate_elo.py --fit --levels 1400 1800 2200 --games 40 --concurrency 2
A quick sanity check:
  nice python benchmarks/calibrate_elo.py --levels 1400 1800 2200 --games 10 --tc 5+0.05
Not a test: the machine should be otherwise idle for figures worth quoting.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from rich.console import Console

from harness import (
    STOCKFISH,
    MatchRun,
    load_text,
    openings_from,
    run_match,
    score_line,
)
from plies.arena.clock import TimeControl
from plies.arena.openings import Opening
from plies.arena.pgn import PgnWriter
from plies.arena.stats import Tally, elo_error, elo_from_score, format_elo
from plies.engine.levels import (
    LEVELS_ENV,
    LevelPoint,
    Levels,
    LevelsError,
    Signature,
    default_levels_path,
    load_levels,
    save_levels,
)
from plies.engine.strength import MAX_ELO, MIN_ELO
from strength import (
    SF_DEFAULT_OVERHEAD_MS,
    SF_MAX_ELO,
    SF_MIN_ELO,
    stockfish_player,
)

LOW_SCORE = 0.35
"""The lowest score of a calibrated level (the band is 35-65%)."""
HIGH_SCORE = 0.65
"""The highest score of a calibrated level."""
MAX_STEP_ELO = 400.0
"""The largest Elo offset one match may move a level by (a 0% or 100% score is unbounded)."""
DEFAULT_LOG = Path(__file__).with_name("levels-log.md")
"""Where every calibration match is logged."""
LOG_HEADER = """# UCI_Elo level log

Every match of `benchmarks/calibrate_elo.py` run with `--log` (`--fit` always logs):
plies at `UCI_Elo=E` with the level curve of that round against Stockfish 15.1 at
`UCI_LimitStrength=true UCI_Elo=E`, paired openings, one thread each. A level is
calibrated at 35-65%. `bench` is the `plies bench` node signature of the engine
that played; the load is the 1-minute load average after each game (mean, range).

"""
LOG_COLUMNS = ("date (UTC)", "bench", "level", "nodes", "temperature cp", "loss cap cp",
               "control", "games", "W-D-L", "score", "Elo ± 95%", "load", "result")
"""The log table's columns."""


def plies_player(elo: int, hash_mb: int, overhead_ms: int) -> str:
    """The arena spec of plies limited to ``elo`` (above its scale: full strength)."""
    own = min(elo, MAX_ELO)
    return (f"uci:{sys.executable} -m plies uci:Hash={hash_mb},UCI_LimitStrength=true,"
            f"UCI_Elo={own},Move Overhead={overhead_ms},name=plies-{elo}")


def score_interval(score: Tally) -> float:
    """Half-width of the 95% confidence interval of the mean score (normal approximation)."""
    if score.games < 2:
        return float("inf")
    m = score.mean
    var = (score.wins * (1 - m) ** 2 + score.draws * (0.5 - m) ** 2
           + score.losses * m**2) / score.games
    return 1.96 * math.sqrt(var / score.games)


def in_band(score: Tally) -> bool:
    """Whether a level's score is within the calibrated band."""
    return score.games > 0 and LOW_SCORE <= score.mean <= HIGH_SCORE


def bench_signature() -> Signature:
    """The ``plies bench`` node signature of the engine the games run (a subprocess, as they)."""
    from plies.uci.bench import DEFAULT_DEPTH

    out = subprocess.run([sys.executable, "-m", "plies", "bench", "-q"], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            return Signature(DEFAULT_DEPTH, int(line.split(":")[1]))
    raise RuntimeError(f"plies bench printed no node count:\n{out}")


def level_offset(score: Tally) -> float:
    """Elo of plies over Stockfish at a level, finite (half a virtual draw) and capped."""
    shrunk = (score.points + 0.25) / (score.games + 0.5)
    return max(-MAX_STEP_ELO, min(MAX_STEP_ELO, elo_from_score(shrunk)))


@dataclass(frozen=True)
class Trial:
    """One match of a level at one node budget."""

    nodes: int
    """The level's node budget."""
    score: Tally
    """plies' score."""


def refit_nodes(trials: list[Trial], slope: float) -> int:
    """The budget expected to score 50%: each trial's budget moved by its offset, pooled."""
    total = sum(t.score.games for t in trials)
    log_nodes = sum(t.score.games * (math.log2(t.nodes) - level_offset(t.score) / slope)
                    for t in trials) / total
    return max(1, round(math.pow(2.0, log_nodes)))


def curve_at_levels(base: Levels, levels: list[int]) -> Levels:
    """A curve whose points are exactly ``levels``, read off ``base``."""
    return replace(base, points=tuple(base.at(elo) for elo in sorted(levels)))


def log_row(path: Path, when: str, bench: Signature, point: LevelPoint, tc: str,
            run: MatchRun, verdict: str) -> None:
    """Append one match to the markdown log (creating it with its header)."""
    score = run.score
    if not path.exists():
        table = "| " + " | ".join(LOG_COLUMNS) + " |\n" + "|---" * len(LOG_COLUMNS) + "|\n"
        path.write_text(LOG_HEADER + table, encoding="utf-8")
    elo = format_elo(elo_from_score(score.mean)) if score.games else "n/a"
    err = elo_error(score)
    err_text = "inf" if math.isinf(err) else f"{err:.0f}"
    row = (f"| {when} | {bench.nodes:,} | {point.elo} | {point.nodes:,} | "
           f"{point.temperature_cp:.1f} | {point.max_loss_cp} | {tc} | {score.games} | "
           f"{score.wins}-{score.draws}-{score.losses} | {100 * score.mean:.1f}% | "
           f"{elo} ± {err_text} | {load_text(run.loads).removeprefix('load ')} | {verdict} |\n")
    with path.open("a", encoding="utf-8") as fh:
        fh.write(row)


def summary_line(elo: int, run: MatchRun, tc: str) -> str:
    """The per-level summary: score line, score interval, verdict, clock and load."""
    score = run.score
    verdict = "in range" if in_band(score) else "OUT of range"
    line = score_line(f"plies-{elo}", f"stockfish-{elo}", score)
    half = 100 * score_interval(score)
    return (f"{line}  score 95% interval +/- {half:.0f} points  [{verdict}]  tc {tc}  "
            f"{load_text(run.loads)}")


def play_level(elo: int, args: argparse.Namespace, openings: list[Opening], out: Console,
               pgn: PgnWriter | None) -> MatchRun:
    """One calibration match at ``elo``."""
    out.rule(f"UCI_Elo {elo}: plies vs Stockfish 15.1, {args.games} games at {args.tc}")
    specs = [plies_player(elo, args.hash, args.overhead), stockfish_player(elo, args.overhead)]
    return run_match(specs, args, openings, out, indent="  ", pgn=pgn)


def now() -> str:
    """The current UTC time as the log writes it."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M")


def fit(args: argparse.Namespace, openings: list[Opening], out: Console,
        pgn: PgnWriter | None) -> int:
    """Play, correct and replay the levels until all are in range; write the stamped curve."""
    bench = bench_signature()
    out.print(f"plies bench signature: {bench.nodes:,} nodes at depth {bench.depth}")
    curve = curve_at_levels(load_levels(args.start or os.environ.get(LEVELS_ENV) or None),
                            args.levels)
    trials: dict[int, list[Trial]] = {elo: [] for elo in args.levels}
    last: dict[int, MatchRun] = {}
    with tempfile.TemporaryDirectory(prefix="plies-levels-") as tmp:
        candidate = Path(tmp) / "levels.json"
        os.environ[LEVELS_ENV] = str(candidate)  # the plies engines of the matches read it
        for round_no in range(1, args.rounds + 1):
            save_levels(curve, candidate)
            out.rule(f"round {round_no}: " + ", ".join(
                f"{p.elo}: {p.nodes:,} nodes" for p in curve.points))
            todo = [p for p in curve.points if p.elo not in last or not in_band(last[p.elo].score)]
            for point in todo:
                run = play_level(point.elo, args, openings, out, pgn)
                last[point.elo] = run
                trials[point.elo].append(Trial(point.nodes, run.score))
                verdict = "in range" if in_band(run.score) else "out of range"
                log_row(args.log, now(), bench, point, args.tc, run,
                        f"{verdict} (fit round {round_no})")
                out.print(summary_line(point.elo, run, args.tc), markup=False, highlight=False)
            if all(in_band(run.score) for run in last.values()):
                return finish(curve, bench, last, args, out)
            points = [replace(p, nodes=refit_nodes(trials[p.elo], args.slope))
                      if not in_band(last[p.elo].score) else p for p in curve.points]
            try:
                curve = Levels(tuple(points), curve.signature, curve.notes)
                save_levels(curve, candidate)
                load_levels(candidate)  # the rules: nodes must rise with the Elo
            except LevelsError as exc:
                out.print(f"the corrected curve breaks the rules ({exc}); stopping")
                return 1
    out.print(f"not fitted after {args.rounds} rounds: {args.output} left unchanged; the last "
              "curve tried: " + ", ".join(f"{p.elo}: {p.nodes:,}" for p in curve.points))
    return 1


def finish(curve: Levels, bench: Signature, runs: dict[int, MatchRun],
           args: argparse.Namespace, out: Console) -> int:
    """Write the fitted curve with its stamp and the matches that verified it."""
    results = []
    for point in curve.points:
        run = runs[point.elo]
        s = run.score
        results.append({"elo": point.elo, "nodes": point.nodes, "games": s.games,
                        "wins": s.wins, "draws": s.draws, "losses": s.losses,
                        "score": round(s.mean, 4),
                        "load": load_text(run.loads).removeprefix("load ")})
    notes = {
        "fitted": now(),
        "opponent": "Stockfish 15.1, UCI_LimitStrength=true, UCI_Elo at the same level",
        "control": args.tc,
        "openings": "paired (each line twice, colours swapped)",
        "band": f"{100 * LOW_SCORE:.0f}-{100 * HIGH_SCORE:.0f}%",
        "results": results,
    }
    fitted = Levels(curve.points, bench, notes)
    save_levels(fitted, args.output)
    out.print(f"fitted: wrote {args.output} (bench signature {bench.nodes:,})")
    return 0


def main() -> int:
    """Parse arguments, play each level (or fit the curve), print the score lines."""
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
    p.add_argument("--pgn", help="write every game to this PGN file as it ends")
    p.add_argument("--log", type=Path, help="append every match to this markdown log "
                   f"(--fit: default {DEFAULT_LOG.name})")
    p.add_argument("--fit", action="store_true", help="re-fit the level curve (see above)")
    p.add_argument("--rounds", type=int, default=3, help="--fit: rounds at most (default 3)")
    p.add_argument("--slope", type=float, default=100.0,
                   help="--fit: Elo per doubling of nodes assumed by a correction (default 100)")
    p.add_argument("--start", type=Path, help="--fit: the curve to start from (default: the "
                   "active one, $PLIES_LEVELS or the packaged levels.json)")
    p.add_argument("--output", type=Path, default=default_levels_path(),
                   help="--fit: where the fitted curve goes (default the packaged levels.json)")
    args = p.parse_args()
    low, high = max(MIN_ELO, SF_MIN_ELO), SF_MAX_ELO
    for elo in args.levels:
        if not low <= elo <= high:
            p.error(f"levels must be within {low}..{high} (both engines' UCI_Elo ranges)")
    if args.games < 1 or args.concurrency < 1 or args.rounds < 1 or args.slope <= 0:
        p.error("--games, --concurrency and --rounds must be at least 1, --slope positive")
    if args.fit and (len(set(args.levels)) < 2 or max(args.levels) > MAX_ELO):
        p.error(f"--fit needs at least two distinct levels up to {MAX_ELO} (UCI_Elo's top)")
    if not shutil.which(STOCKFISH):
        p.error(f"{STOCKFISH} not found (apt-get install stockfish)")
    try:
        TimeControl.parse(args.tc)
    except ValueError as exc:
        p.error(str(exc))
    if args.fit:
        args.log = args.log or DEFAULT_LOG
        try:
            load_levels(args.start or os.environ.get(LEVELS_ENV) or None)
        except LevelsError as exc:
            p.error(str(exc))
    openings = openings_from(args.openings, p)
    out = Console(soft_wrap=True)
    try:
        pgn = PgnWriter(args.pgn) if args.pgn else None
    except OSError as exc:
        p.error(f"cannot write {args.pgn}: {exc.strerror}")
    try:
        if args.fit:
            return fit(args, openings, out, pgn)
        bench = bench_signature() if args.log else None
        runs = []
        for elo in args.levels:
            run = play_level(elo, args, openings, out, pgn)
            runs.append((elo, run))
            if args.log and bench is not None:
                from plies.engine.strength import strength_for

                s = strength_for(elo)
                point = LevelPoint(elo, s.nodes, s.temperature_cp, s.max_loss_cp)
                verdict = "in range" if in_band(run.score) else "out of range"
                log_row(args.log, now(), bench, point, args.tc, run, verdict)
    finally:
        if pgn is not None:
            pgn.close()
    out.rule(f"summary (calibrated: {100 * LOW_SCORE:.0f}-{100 * HIGH_SCORE:.0f}%)")
    for elo, run in runs:
        out.print(summary_line(elo, run, args.tc), markup=False, highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
