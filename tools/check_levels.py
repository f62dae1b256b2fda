"""Warn when the engine no longer matches the bench signature its UCI_Elo curve was fitted on.

The level curve (``src/plies/engine/levels.json``) maps each ``UCI_Elo`` to a
node budget measured in matches; an engine that searches or evaluates
differently plays those budgets at another strength. This runs ``plies bench``
at the curve's stamped depth (about 10 s once the engine is compiled) and
prints a WARNING when the node signature differs from the stamp: the fix is a
re-fit, ``python benchmarks/calibrate_elo.py --fit``.

Usage:
  python tools/check_levels.py            # exit 0 either way (CI prints the warning)
  python tools/check_levels.py --strict   # exit 1 on a mismatch
  python tools/check_levels.py --nodes N  # compare a signature already measured
"""

from __future__ import annotations

import argparse
import sys

from plies.engine.levels import LevelsError, active_levels


def main() -> int:
    """Compare the engine's bench signature with the level curve's stamp."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--strict", action="store_true", help="exit 1 when the signatures differ")
    p.add_argument("--nodes", type=int, help="the bench node count to compare (skips the bench)")
    args = p.parse_args()
    try:
        levels = active_levels()
    except LevelsError as exc:
        print(f"WARNING: UCI_Elo levels: {exc}")
        return 1
    stamp = levels.signature
    if args.nodes is not None:
        nodes = args.nodes
    else:
        from plies.uci.bench import run_bench

        nodes = run_bench(stamp.depth).nodes
    if nodes == stamp.nodes:
        print(f"UCI_Elo levels: bench signature {nodes:,} (depth {stamp.depth}) matches the curve")
        return 0
    print(f"WARNING: UCI_Elo levels were fitted on bench signature {stamp.nodes:,} but this "
          f"engine's is {nodes:,} (depth {stamp.depth}): the levels may no longer play at their "
          "Elo. Re-fit with: python benchmarks/calibrate_elo.py --fit --levels 1400 1800 2200 "
          "--games 40 --concurrency 2")
    return 1 if args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
