"""Syzygy probe speed: plies' compiled WDL and DTZ probes against python-chess's, same positions.

Random legal positions of every WDL table found (in ``--path``, by default
``$SYZYGY_PATH`` when set, else the tables bundled with the tests) are
probed by python-chess's ``Tablebase.probe_wdl`` and by plies three ways:

- ``compiled loop``: one compiled loop over all positions, each set into one
  core ``Position`` (``set_position``) and probed by ``plies.syzygy.probe.probe_wdl``
  (what a compiled search pays per probe, plus the set-up);
- ``plies Board``: ``Tablebase.probe_wdl(Board)`` once per position (the
  dispatcher's argument checks included);
- ``python board``: ``Tablebase.probe_wdl(chess.Board)`` (bitboard extraction too).

Then DTZ: ``plies.syzygy.dtz.probe_dtz`` in a compiled loop against
python-chess's ``probe_dtz`` on fewer positions (--dtz-per-table; python-chess
is slow there). Every answer is compared with python-chess's (the counts are
printed). Rates are probes per CPU second of this process, best of --repeat
runs, so that other load on the machine does not skew the ratio.

Usage: python benchmarks/bench_syzygy.py [--path DIRS] [--per-table N] [--dtz-per-table N]
                                          [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import chess
import chess.syzygy
import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness import machine_line, random_ending  # noqa: E402
from plies.board import Board  # noqa: E402
from plies.core.encoding import NO_SQUARE  # noqa: E402
from plies.core.position import Position, new_position  # noqa: E402
from plies.syzygy.dtz import probe_dtz  # noqa: E402
from plies.syzygy.probe import probe_wdl, set_position  # noqa: E402
from plies.syzygy.tablebase import Tablebase, board_arrays  # noqa: E402
from plies.syzygy.tables import Tables  # noqa: E402

BUNDLED = ROOT / "tests" / "data" / "syzygy"


@njit(cache=True, nogil=True)
def probe_all(
    tables: Tables, pos: Position, boards: np.ndarray, sides: np.ndarray, eps: np.ndarray,
    out: np.ndarray, dtz: bool,
) -> int:  # fmt: skip
    """Probe (WDL, or DTZ) every row of ``boards`` into ``out`` (99999 where unknown)."""
    for i in range(boards.shape[0]):
        set_position(pos, boards[i], sides[i], eps[i])
        value, ok = probe_dtz(tables, pos) if dtz else probe_wdl(tables, pos)
        out[i] = value if ok else 99999
    return boards.shape[0]


def best_rate(run: Callable[[], object], count: int, repeat: int) -> float:
    """Probes per CPU second of ``run`` (which probes ``count`` positions), best of ``repeat``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return count / max(best, 1e-9)


def main() -> None:
    """Build the positions, time each prober, print rates, ratios and agreement."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = os.environ.get("SYZYGY_PATH") or str(BUNDLED)
    parser.add_argument("--path", default=default, help="SyzygyPath (default: %(default)s)")
    parser.add_argument("--per-table", type=int, default=300, help="positions per table")
    parser.add_argument(
        "--dtz-per-table", type=int, default=60, help="DTZ positions per table (0: no DTZ)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="timed runs, best kept")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(machine_line(), flush=True)

    tb = Tablebase(args.path)
    for problem in tb.problems:
        print("skipped:", problem)
    ref = chess.syzygy.open_tablebase(args.path.split(os.pathsep)[0])
    for extra in args.path.split(os.pathsep)[1:]:
        ref.add_directory(extra)
    rng = random.Random(args.seed)
    boards = [
        random_ending(name, rng, swap=i % 2 == 1)
        for name in tb.names()
        for i in range(args.per_table)
    ]
    n = len(boards)
    arrays = [board_arrays(b) for b in boards]
    bbs = np.array([a[0] for a in arrays], dtype=np.uint64)
    sides = np.array([a[1] for a in arrays], dtype=np.int64)
    eps = np.array([a[2] for a in arrays], dtype=np.int64)
    tables = tb.compiled()
    pos = new_position([0] * 64, 0, 0, NO_SQUARE, 0, 1)
    out = np.zeros(n, dtype=np.int64)
    plies_boards = [Board(b.fen()) for b in boards]
    print(
        f"{len(tb.names())} WDL tables, {n} positions "
        f"({sum(b.has_legal_en_passant() for b in boards)} with en passant), "
        f"load average {os.getloadavg()[0]:.2f}"
    )

    start = time.perf_counter()
    probe_all(tables, pos, bbs[:1], sides[:1], eps[:1], out[:1], False)
    tb.probe_wdl(plies_boards[0])
    print(f"first compiled call (compile or cache load): {time.perf_counter() - start:.2f} s")

    expected = [ref.probe_wdl(b) for b in boards]
    probe_all(tables, pos, bbs, sides, eps, out, False)
    agree = sum((None if o == 99999 else int(o)) == e for o, e in zip(out, expected, strict=True))
    agree_py = sum(tb.probe_wdl(b) == e for b, e in zip(boards, expected, strict=True))
    print(f"agreement with python-chess: compiled {agree}/{n}, board API {agree_py}/{n}")

    rates = {
        "python-chess probe_wdl": best_rate(
            lambda: [ref.probe_wdl(b) for b in boards], n, args.repeat
        ),
        "plies compiled loop": best_rate(
            lambda: probe_all(tables, pos, bbs, sides, eps, out, False), n, args.repeat
        ),
        "plies Board": best_rate(lambda: [tb.probe_wdl(b) for b in plies_boards], n, args.repeat),
        "plies python board": best_rate(lambda: [tb.probe_wdl(b) for b in boards], n, args.repeat),
    }
    peer = rates["python-chess probe_wdl"]
    for name, rate in rates.items():
        print(f"{name:24s} {rate:12,.0f} probes/s  {rate / peer:8.1f}x python-chess")
    if args.dtz_per_table and tb.names(dtz=True):
        bench_dtz(tb, ref, args, rng)


def bench_dtz(
    tb: Tablebase, ref: chess.syzygy.Tablebase, args: argparse.Namespace, rng: random.Random
) -> None:
    """Time DTZ probes of every DTZ table's random positions, plies beside python-chess."""
    boards = [
        random_ending(name, rng, swap=i % 2 == 1)
        for name in tb.names(dtz=True)
        for i in range(args.dtz_per_table)
    ]
    n = len(boards)
    arrays = [board_arrays(b) for b in boards]
    bbs = np.array([x[0] for x in arrays], dtype=np.uint64)
    sides = np.array([x[1] for x in arrays], dtype=np.int64)
    eps = np.array([x[2] for x in arrays], dtype=np.int64)
    tables = tb.compiled()
    pos = new_position([0] * 64, 0, 0, NO_SQUARE, 0, 1)
    out = np.zeros(n, dtype=np.int64)
    start = time.perf_counter()
    probe_all(tables, pos, bbs[:1], sides[:1], eps[:1], out[:1], True)
    print(
        f"\n{len(tb.names(dtz=True))} DTZ tables, {n} positions; first compiled call "
        f"{time.perf_counter() - start:.2f} s"
    )
    expected = [ref.get_dtz(b) for b in boards]
    probe_all(tables, pos, bbs, sides, eps, out, True)
    agree = sum((None if o == 99999 else int(o)) == e for o, e in zip(out, expected, strict=True))
    print(f"DTZ agreement with python-chess: {agree}/{n}")
    peer = best_rate(lambda: [ref.get_dtz(b) for b in boards], n, args.repeat)
    mine = best_rate(lambda: probe_all(tables, pos, bbs, sides, eps, out, True), n, args.repeat)
    print(f"{'python-chess probe_dtz':24s} {peer:12,.0f} probes/s  {1.0:8.1f}x python-chess")
    print(f"{'plies compiled loop':24s} {mine:12,.0f} probes/s  {mine / peer:8.1f}x python-chess")


if __name__ == "__main__":
    main()
