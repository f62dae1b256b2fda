"""Gauntlet: plies against engines from Debian's packages, and plies' rating in that pool.

plies (full strength, ``python -m plies uci``) plays a match against each
engine through the arena, as ``strength.py`` does: every opening twice with
colours swapped, one thread and own books off for every engine, clocks
enforced. Each match prints W/D/L, score and Elo with its 95% error bar; then
all games are rated jointly by maximum likelihood (``plies.arena.rating``, as
Ordo does: logistic model, a draw half a win, one engine anchored) with
bootstrap error bars. ``--pool-games N`` also plays N games between every two
opponents, so that each engine's rating (and plies' through it) rests on more
than its match with plies.

The engines (Debian/Ubuntu packages; this script installs nothing):
  ethereal        /usr/games/ethereal-chess  Ethereal 12.00      apt-get install ethereal-chess
  fairy-stockfish /usr/games/fairy-stockfish Fairy-Stockfish 11.1 apt-get install fairy-stockfish
  toga2           /usr/games/toga2           Toga II 3.0          apt-get install toga2
  glaurung        /usr/games/glaurung        Glaurung 2.2         apt-get install glaurung
  sf-skill-N      /usr/games/stockfish       Stockfish 15.1 at Skill Level N (0-20)
                                                                  apt-get install stockfish

Usage:
  python benchmarks/gauntlet.py --engines fairy-stockfish ethereal --games 200 --tc 10+0.1 \\
      --concurrency 2 --openings benchmarks/openings/balanced-100.pgn --pgn F.pgn.xz
  python benchmarks/gauntlet.py --engines ethereal fairy-stockfish sf-skill-10 --anchor ethereal
  python benchmarks/gauntlet.py --engines toga2 glaurung --games 4 --tc 5+0.05 --pool-games 4
A PGN path ending in .xz is written plain while the games run and compressed at the end.
Not a test: it takes hours; the machine should be otherwise idle for figures worth quoting.
"""

from __future__ import annotations

import argparse
import lzma
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from harness import (
    ETHEREAL,
    FAIRY_STOCKFISH,
    GLAURUNG,
    STOCKFISH,
    TOGA2,
    MatchRun,
    load_text,
    openings_from,
    plies_player,
    run_match,
    score_line,
)
from plies.arena.clock import TimeControl
from plies.arena.pgn import PgnWriter
from plies.arena.rating import Rating, rate_pool
from plies.arena.stats import Tally, format_elo

ENGINE_HASH_MB = 64
"""Hash of every opponent (plies' own is ``--hash``)."""


@dataclass(frozen=True)
class Engine:
    """One opponent: where it lives, how to set it up, which package brings it."""

    name: str
    """Name in the tables and PGN."""
    path: str
    """Executable."""
    options: tuple[tuple[str, str], ...]
    """UCI options: one thread, books off, the hash size, a level."""
    package: str
    """The Debian package that installs it."""

    def spec(self) -> str:
        """The arena player spec."""
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"uci:{self.path}:{opts},name={self.name}"


ENGINES: dict[str, Engine] = {
    "ethereal": Engine("ethereal-12.00", ETHEREAL,
                       (("Threads", "1"), ("Hash", str(ENGINE_HASH_MB))), "ethereal-chess"),
    "fairy-stockfish": Engine("fairy-stockfish-11.1", FAIRY_STOCKFISH,
                              (("Threads", "1"), ("Hash", str(ENGINE_HASH_MB))),
                              "fairy-stockfish"),
    # Toga II has no Threads option: it is single-threaded.
    "toga2": Engine("toga-ii-3.0", TOGA2,
                    (("Hash", str(ENGINE_HASH_MB)), ("OwnBook", "false")), "toga2"),
    "glaurung": Engine("glaurung-2.2", GLAURUNG,
                       (("Threads", "1"), ("Hash", str(ENGINE_HASH_MB)), ("OwnBook", "false")),
                       "glaurung"),
}
"""The fixed engines by their command-line name."""
STOCKFISH_PATH = STOCKFISH
"""Stockfish 15.1, played at fixed ``Skill Level``s."""
DEFAULT_ENGINES = ("ethereal", "fairy-stockfish", "toga2", "glaurung", "sf-skill-10",
                   "sf-skill-15")
"""The gauntlet when ``--engines`` is not given."""


def engine_named(name: str) -> Engine:
    """The engine called ``name`` (``sf-skill-N`` for Stockfish at Skill Level N); ValueError."""
    if name in ENGINES:
        return ENGINES[name]
    prefix = "sf-skill-"
    if name.startswith(prefix) and name[len(prefix):].isdigit():
        level = int(name[len(prefix):])
        if 0 <= level <= 20:
            return Engine(f"stockfish-15.1-skill-{level}", STOCKFISH_PATH,
                          (("Threads", "1"), ("Hash", str(ENGINE_HASH_MB)),
                           ("Skill Level", str(level))), "stockfish")
    known = ", ".join([*ENGINES, "sf-skill-N (N = 0..20)"])
    raise ValueError(f"unknown engine {name!r} (known: {known})")


def missing(engines: list[Engine]) -> list[Engine]:
    """The engines whose executable is not installed."""
    return [e for e in engines if not (Path(e.path).is_file() and os.access(e.path, os.X_OK))]


def rating_lines(table: list[Rating], anchor: str) -> list[str]:
    """The joint rating table, one player a line."""
    lines = [f"{'player':<30} {'Elo':>8} {'± 95%':>7} {'games':>6} {'points':>7}"]
    for row in table:
        error = "anchor" if row.name == anchor else (
            "inf" if row.error == float("inf") else f"{row.error:.0f}")
        lines.append(f"{row.name:<30} {format_elo(row.elo):>8} {error:>7} {row.games:>6} "
                     f"{row.points:>7g}")
    return lines


def compress(plain: Path, target: Path) -> None:
    """Write ``plain`` xz-compressed to ``target`` and remove ``plain``."""
    with plain.open("rb") as src, lzma.open(target, "wb", preset=9) as dst:
        shutil.copyfileobj(src, dst)
    plain.unlink()


def main() -> int:
    """Parse arguments, play the gauntlet, print the scores and the joint rating."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engines", nargs="+", default=list(DEFAULT_ENGINES),
                   help=f"opponents (default: {' '.join(DEFAULT_ENGINES)})")
    p.add_argument("--anchor", help="the engine whose rating is fixed (default: the first)")
    p.add_argument("--anchor-elo", type=float, default=0.0,
                   help="the anchor's rating (default 0: ratings relative to it)")
    p.add_argument("--games", type=int, default=40, help="games per opponent (even: paired)")
    p.add_argument("--pool-games", type=int, default=0,
                   help="games between every two opponents too (default 0)")
    p.add_argument("--tc", default="10+0.1", help="time control SECONDS[+INC] (default 10+0.1)")
    p.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    p.add_argument("--openings", help="EPD or PGN opening file (default: built-in lines)")
    p.add_argument("--first", type=int, default=1,
                   help="start at this opening of the file (1-based, default 1)")
    p.add_argument("--hash", type=int, default=64, help="plies Hash in MB (default 64)")
    p.add_argument("--margin", type=int, default=100, help="lag forgiven before a time loss (ms)")
    p.add_argument("--max-moves", type=int, default=200, help="draw after this many moves")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bootstrap", type=int, default=1000,
                   help="bootstrap resamples for the rating error bars (0: from the Hessian)")
    p.add_argument("--pgn", help="write every game here (a .xz name is compressed at the end)")
    args = p.parse_args()
    try:
        engines = [engine_named(name) for name in args.engines]
    except ValueError as exc:
        p.error(str(exc))
    if len({e.name for e in engines}) != len(engines):
        p.error("each engine may appear once")
    if args.games < 1 or args.concurrency < 1 or args.pool_games < 0 or args.bootstrap < 0:
        p.error("--games and --concurrency must be at least 1, --pool-games and --bootstrap >= 0")
    try:
        TimeControl.parse(args.tc)
    except ValueError as exc:
        p.error(str(exc))
    absent = missing(engines)
    if absent:
        packages = " ".join(sorted({e.package for e in absent}))
        names = ", ".join(f"{e.name} ({e.path})" for e in absent)
        print(f"gauntlet: not installed: {names}\n  install with: sudo apt-get install {packages}"
              "\n  (or leave them out with --engines)", file=sys.stderr)
        return 2
    anchor = engine_named(args.anchor).name if args.anchor else engines[0].name
    if anchor not in {e.name for e in engines}:
        p.error(f"the anchor {anchor} is not in the gauntlet")
    openings = openings_from(args.openings, p)
    if not 1 <= args.first <= len(openings):
        p.error(f"--first must be within 1..{len(openings)}")
    openings = openings[args.first - 1:] + openings[:args.first - 1]
    out = Console(soft_wrap=True)
    target = Path(args.pgn) if args.pgn else None
    plain = target.with_suffix("") if target is not None and target.suffix == ".xz" else target
    try:
        pgn = PgnWriter(plain) if plain is not None else None
    except OSError as exc:
        p.error(f"cannot write {plain}: {exc.strerror}")

    results: dict[tuple[str, str], Tally] = {}
    runs: list[tuple[str, MatchRun]] = []
    me = "plies"
    try:
        for engine in engines:
            out.rule(f"plies vs {engine.name}, {args.games} games at {args.tc}")
            run = run_match([plies_player(args.hash), engine.spec()], args, openings, out,
                            pgn=pgn)
            runs.append((engine.name, run))
            results[(me, engine.name)] = run.score
        if args.pool_games:
            pool_args = argparse.Namespace(**{**vars(args), "games": args.pool_games})
            for i, a in enumerate(engines):
                for b in engines[i + 1:]:
                    out.rule(f"{a.name} vs {b.name}, {args.pool_games} games at {args.tc}")
                    run = run_match([a.spec(), b.spec()], pool_args, openings, out, pgn=pgn)
                    results[(a.name, b.name)] = run.score
    finally:
        if pgn is not None:
            pgn.close()
        if target is not None and plain is not None and plain != target:
            compress(plain, target)
    out.rule("matches (plies' score)")
    for name, run in runs:
        out.print(f"{score_line('plies', name, run.score)}  tc {args.tc}  {load_text(run.loads)}",
                  markup=False, highlight=False)
    out.rule(f"joint rating ({anchor} = {args.anchor_elo:g}; "
             f"{'bootstrap' if args.bootstrap else 'Hessian'} 95% error bars)")
    table = rate_pool(results, anchor, args.anchor_elo, bootstrap=args.bootstrap, seed=args.seed)
    for line in rating_lines(table, anchor):
        out.print(line, markup=False, highlight=False)
    if target is not None:
        out.print(f"games: {target}", markup=False, highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
