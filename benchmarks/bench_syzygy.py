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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.syzygy
import numpy as np
from numba import njit

from harness import Timing, clocked, in_turn, machine_line, random_ending
from plies.board import Board
from plies.core.encoding import NO_SQUARE
from plies.core.position import Position, new_position
from plies.syzygy.dtz import probe_dtz
from plies.syzygy.probe import probe_wdl, set_position
from plies.syzygy.tablebase import Tablebase, board_arrays
from plies.syzygy.tables import Tables

BUNDLED = Path(__file__).resolve().parents[1] / "tests" / "data" / "syzygy"


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


@dataclass
class ProbeSet:
    """Random positions of some tables, as boards and as the arrays the compiled loop reads."""

    boards: list[chess.Board]
    bbs: np.ndarray
    sides: np.ndarray
    eps: np.ndarray
    out: np.ndarray
    tables: Tables
    pos: Position

    @classmethod
    def of(cls, tb: Tablebase, names: list[str], per_table: int, rng: random.Random) -> ProbeSet:
        """``per_table`` random positions of each table in ``names`` (either side stronger)."""
        boards = [random_ending(name, rng, swap=i % 2 == 1)
                  for name in names for i in range(per_table)]
        arrays = [board_arrays(b) for b in boards]
        return cls(
            boards,
            np.array([a[0] for a in arrays], dtype=np.uint64),
            np.array([a[1] for a in arrays], dtype=np.int64),
            np.array([a[2] for a in arrays], dtype=np.int64),
            np.zeros(len(boards), dtype=np.int64),
            tb.compiled(),
            new_position([0] * 64, 0, 0, NO_SQUARE, 0, 1),
        )

    def probe(self, dtz: bool, rows: int | None = None) -> int:
        """Probe the first ``rows`` positions (all by default) in the compiled loop."""
        end = len(self.boards) if rows is None else rows
        return probe_all(self.tables, self.pos, self.bbs[:end], self.sides[:end],
                         self.eps[:end], self.out[:end], dtz)

    def agreement(self, expected: list[int | None]) -> int:
        """How many compiled answers equal python-chess's (None where it has no table)."""
        return sum((None if o == 99999 else int(o)) == e
                   for o, e in zip(self.out, expected, strict=True))


def rates(runs: dict[str, Callable[[], object]], count: int, repeat: int) -> dict[str, Timing]:
    """Probes per CPU second of each run (each probes ``count`` positions): the best and the
    median of ``repeat`` rounds in turn."""
    timed = in_turn([lambda run=run: clocked(run).cpu for run in runs.values()], repeat)
    return {name: r.timing(lambda cpu: count / max(cpu, 1e-9), highest=True)
            for name, r in zip(runs, timed, strict=True)}


def show(timings: dict[str, Timing], peer: str) -> None:
    """One line per prober: the best rate, the median and the ratio to the peer's best."""
    for name, t in timings.items():
        print(f"{name:24s} {t.best:12,.0f} probes/s (median {t.median:,.0f})  "
              f"{t.best / timings[peer].best:8.1f}x python-chess")


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
    wdl = ProbeSet.of(tb, tb.names(), args.per_table, rng)
    boards, n = wdl.boards, len(wdl.boards)
    plies_boards = [Board(b.fen()) for b in boards]
    print(f"{len(tb.names())} WDL tables, {n} positions "
          f"({sum(b.has_legal_en_passant() for b in boards)} with en passant)")
    first = clocked(lambda: (wdl.probe(False, 1), tb.probe_wdl(plies_boards[0])))
    print(f"first compiled call (compile or cache load): {first.wall:.2f} s")

    expected = [ref.probe_wdl(b) for b in boards]
    wdl.probe(False)
    agree_py = sum(tb.probe_wdl(b) == e for b, e in zip(boards, expected, strict=True))
    print(f"agreement with python-chess: compiled {wdl.agreement(expected)}/{n}, "
          f"board API {agree_py}/{n}")
    show(rates({
        "python-chess probe_wdl": lambda: [ref.probe_wdl(b) for b in boards],
        "plies compiled loop": lambda: wdl.probe(False),
        "plies Board": lambda: [tb.probe_wdl(b) for b in plies_boards],
        "plies python board": lambda: [tb.probe_wdl(b) for b in boards],
    }, n, args.repeat), "python-chess probe_wdl")
    if args.dtz_per_table and tb.names(dtz=True):
        bench_dtz(tb, ref, args, rng)


def bench_dtz(
    tb: Tablebase, ref: chess.syzygy.Tablebase, args: argparse.Namespace, rng: random.Random
) -> None:
    """Time DTZ probes of every DTZ table's random positions, plies beside python-chess."""
    dtz = ProbeSet.of(tb, tb.names(dtz=True), args.dtz_per_table, rng)
    n = len(dtz.boards)
    first = clocked(lambda: dtz.probe(True, 1))
    print(f"\n{len(tb.names(dtz=True))} DTZ tables, {n} positions; first compiled call "
          f"{first.wall:.2f} s")
    expected = [ref.get_dtz(b) for b in dtz.boards]
    dtz.probe(True)
    print(f"DTZ agreement with python-chess: {dtz.agreement(expected)}/{n}")
    show(rates({
        "python-chess probe_dtz": lambda: [ref.get_dtz(b) for b in dtz.boards],
        "plies compiled loop": lambda: dtz.probe(True),
    }, n, args.repeat), "python-chess probe_dtz")


if __name__ == "__main__":
    main()
