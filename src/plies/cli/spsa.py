"""tune the search's parameters with SPSA (game pairs, fishtest's schedules).

Tune the search's parameters (plies uci --tune lists them) by simultaneous perturbation
stochastic approximation: many parameters at once, one game pair per iteration; print the
tuned values.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import threading
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from plies.cli import match_options
from plies.cli.common import CliError, Command, cannot_write, check_minimum

if TYPE_CHECKING:
    from rich.console import Console

    from plies.learn.spsa import Proposal, Spsa, Tunable
    from plies.learn.spsa_pairs import Finished

_EPILOG = """\
Each iteration plays one game pair (an opening, each side once with each colour) between
the current values pushed up and down by a random-sign perturbation, and moves every value
by the pair's result; the schedules are fishtest's (c_end: each parameter's step in
`plies uci --tune`'s table, r_end: --r-end). The engines are this plies, run as
`python -m plies uci --tune`. fishtest's r_end of 0.002 is made for tens of thousands of
pairs; in a run of a thousand or two the values barely move unless --r-end is larger.
The result is printed as options for plies sprt, which is how a tuned set should be
checked before it is kept:
  plies spsa --nodes 5000 --iterations 2000 --r-end 0.02 --concurrency 2 --history spsa.csv
  plies spsa --params RfpMargin FutilityMargin LmrDivisor --tc 5+0.05 --iterations 500
  plies spsa --nodes 5000 --iterations 20000 --cluster auto
  plies sprt --new-options RfpMargin=81,LmrDivisor=231 --nodes 15000
"""

REPORT_EVERY = 50
"""Iterations between two printed lines of current values."""


COMMAND = Command("spsa", __doc__, epilog=_EPILOG)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies spsa``."""
    from plies.params import PARAMS

    p.add_argument("--params", nargs="+", metavar="NAME",
                   help="parameters to tune (default: all: "
                        + " ".join(q.name for q in PARAMS) + ")")
    p.add_argument("--start", default="", metavar="OPTS",
                   help="start from these values, Name=value,... (default: the engine's)")
    p.add_argument("--iterations", type=int, default=2000, metavar="N",
                   help="game pairs (default 2000)")
    p.add_argument("--r-end", type=float, default=0.002, metavar="R",
                   help="final learning rate (default 0.002, as fishtest, for runs of 10,000 "
                        "pairs and more; about 0.02 for a thousand)")
    match_options.add_cluster_options(p, "game pairs at once", see_below=False)
    match_options.add_game_arguments(p, "; every opening is a Chess960 start")
    p.add_argument("--history", metavar="FILE.csv",
                   help="write each iteration's result and values here")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")


def _tunables(args: argparse.Namespace) -> list[Tunable]:
    """The parameters to tune, from their start values; one-line errors for bad names."""
    from plies.learn.spsa import Tunable
    from plies.params import PARAMS, checked_values, find_param
    from plies.registry import parse_options

    try:
        start = {k: int(v) for k, v in parse_options(args.start).items()}
        values = checked_values(start)
    except ValueError as exc:
        raise CliError(f"--start: {exc}") from None
    names = args.params or [q.name for q in PARAMS]
    chosen = []
    for name in dict.fromkeys(names):
        param = find_param(name)
        if param is None:
            raise CliError(f"--params: no search parameter {name!r} (plies uci --tune lists them)")
        tunable = Tunable.of(param, args.r_end)
        tunable.value = float(values[PARAMS.index(param)])
        chosen.append(tunable)
    return chosen


def run(args: argparse.Namespace) -> int:
    """Warm the engine, run the iterations on ``--concurrency`` workers, print the values."""
    from rich.console import Console

    from plies.arena.builds import CURRENT_SRC, Build, BuildError, warm_up
    from plies.arena.cluster import ClusterError
    from plies.learn.spsa import Spsa, SpsaError
    from plies.learn.spsa_pairs import PairWorker, pairs_in_threads, pairs_on_cluster

    check_minimum(args, {"iterations": 1})
    if not 0 < args.r_end < 1:
        raise CliError("--r-end must be between 0 and 1")
    match_options.check(args)
    tunables = _tunables(args)
    try:
        spsa = Spsa(tunables, args.iterations, seed=args.seed)
    except SpsaError as exc:
        raise CliError(str(exc)) from None
    settings = match_options.game_settings(args)
    openings = match_options.openings(args, args.iterations)
    out = Console()
    err = Console(stderr=True)
    try:
        warm_up(CURRENT_SRC)
    except BuildError as exc:
        raise CliError(str(exc)) from None
    build = Build("spsa", CURRENT_SRC, tune=True)
    with contextlib.ExitStack() as files:
        history = None
        if args.history:
            try:
                history = files.enter_context(
                    Path(args.history).open("w", newline="", encoding="utf-8")
                )
            except OSError as exc:
                raise cannot_write(args.history, exc) from None
        finished = _reporter(spsa, args, err, history)
        if args.cluster is None:
            worker = partial(PairWorker, build, settings, openings)
            failure = pairs_in_threads(spsa, worker, args.concurrency or 1, finished)
        else:
            try:
                failure = pairs_on_cluster(spsa, build, settings, openings, args.cluster,
                                           args.concurrency or 0, finished)  # fmt: skip
            except ClusterError as exc:
                failure = str(exc)
    final = spsa.rounded()
    out.print(f"after {spsa.done} of {spsa.iterations} iterations:", markup=False,
              highlight=False)  # fmt: skip
    for name, value in spsa.values().items():
        out.print(f"  {name:18} {value:10.2f}", markup=False, highlight=False)
    out.print("options: " + ",".join(f"{k}={v}" for k, v in final.items()), markup=False,
              highlight=False, soft_wrap=True)  # fmt: skip
    if failure:
        err.print(f"plies spsa: error: {failure}", markup=False, highlight=False, soft_wrap=True)
        return 2
    return 0 if spsa.done == spsa.iterations else 130


def _reporter(
    spsa: Spsa, args: argparse.Namespace, err: Console, history: TextIO | None
) -> Finished:
    """What to do with each pair's result: apply it, log it, now and then show the values."""
    lock = threading.Lock()
    writer = csv.writer(history) if history is not None else None
    if writer is not None:
        writer.writerow(["iteration", "result", *(t.name for t in spsa.tunables)])

    def finished(proposal: Proposal, result: float) -> None:
        """Apply a pair's result; log it and, now and then, the values."""
        with lock:
            spsa.update(proposal, result)
            if writer is not None and history is not None:
                values = spsa.values()
                writer.writerow([proposal.k, f"{result:g}",
                                 *(f"{values[t.name]:.3f}" for t in spsa.tunables)])  # fmt: skip
                history.flush()
            if not args.quiet and (spsa.done % REPORT_EVERY == 0 or spsa.done == spsa.iterations):
                shown = " ".join(f"{k}={v:.1f}" for k, v in spsa.values().items())
                err.print(f"{spsa.done}/{spsa.iterations}: {shown}", markup=False,
                          highlight=False, soft_wrap=True)  # fmt: skip

    return finished
