"""``plies spsa``: tune the search's parameters with SPSA over game pairs (as fishtest does)."""

from __future__ import annotations

import argparse
import contextlib
import csv
import threading
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from plies.cli.common import CliError
from plies.cli.sprt import add_game_arguments, check_game_arguments, game_settings, match_openings

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from plies.arena.builds import Build
    from plies.arena.game import GameRecord, GameSettings
    from plies.arena.openings import Opening
    from plies.arena.players import UciPlayer
    from plies.learn.spsa import Proposal, Spsa, Tunable

_EPILOG = """\
Each iteration plays one game pair (an opening, each side once with each colour) between
the current values pushed up and down by a random-sign perturbation, and moves every value
by the pair's result; the schedules are fishtest's (c_end: each parameter's step in
`plies uci --tune`'s table, r_end: --r-end). The engines are this plies, run as
`python -m plies uci --tune`. The result is printed as options for plies sprt, which is how
a tuned set should be checked before it is kept:
  plies spsa --nodes 5000 --iterations 2000 --concurrency 2 --history spsa.csv
  plies spsa --params RfpMargin FutilityMargin LmrDivisor --tc 5+0.05 --iterations 500
  plies sprt --new-options RfpMargin=81,LmrDivisor=231 --nodes 15000
"""

REPORT_EVERY = 50
"""Iterations between two printed lines of current values."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``spsa`` subcommand."""
    from plies.params import PARAMS

    p = subparsers.add_parser(
        "spsa",
        help="tune the search's parameters with SPSA (game pairs, fishtest's schedules)",
        description=(
            "Tune the search's parameters (plies uci --tune lists them) by simultaneous "
            "perturbation stochastic approximation: many parameters at once, one game pair "
            "per iteration; print the tuned values."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--params", nargs="+", metavar="NAME",
                   help="parameters to tune (default: all: "
                        + " ".join(q.name for q in PARAMS) + ")")
    p.add_argument("--start", default="", metavar="OPTS",
                   help="start from these values, Name=value,... (default: the engine's)")
    p.add_argument("--iterations", type=int, default=2000, metavar="N",
                   help="game pairs (default 2000)")
    p.add_argument("--r-end", type=float, default=0.002, metavar="R",
                   help="final learning rate (default 0.002, as fishtest)")
    p.add_argument("--concurrency", type=int, default=1, metavar="K",
                   help="game pairs at once (default 1)")
    add_game_arguments(p, "; every opening is a Chess960 start")
    p.add_argument("--history", metavar="FILE.csv",
                   help="write each iteration's result and values here")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=run)


def _tunables(args: argparse.Namespace) -> list[Tunable]:
    """The parameters to tune, from their start values; one-line errors for bad names."""
    from plies.agents.registry import parse_options
    from plies.learn.spsa import Tunable
    from plies.params import PARAMS, checked_values, find_param

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
    from plies.learn.spsa import Spsa, SpsaError

    if args.iterations < 1 or args.concurrency < 1:
        raise CliError("--iterations and --concurrency must be at least 1")
    if not 0 < args.r_end < 1:
        raise CliError("--r-end must be between 0 and 1")
    check_game_arguments(args)
    tunables = _tunables(args)
    try:
        spsa = Spsa(tunables, args.iterations, seed=args.seed)
    except SpsaError as exc:
        raise CliError(str(exc)) from None
    settings = game_settings(args)
    openings = match_openings(args, args.iterations)
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
                raise CliError(f"cannot write {args.history}: {exc.strerror or exc}") from None
        failure = _run_workers(spsa, build, settings, openings, args, err, history)
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


def _run_workers(
    spsa: Spsa,
    build: Build,
    settings: GameSettings,
    openings: list[Opening],
    args: argparse.Namespace,
    err: Console,
    history: TextIO | None,
) -> str:
    """Play every iteration on ``--concurrency`` threads; the first failure, or ''."""
    from plies.arena.interrupt import CtrlC

    stop = threading.Event()
    failures: list[str] = []
    lock = threading.Lock()
    writer = csv.writer(history) if history is not None else None
    if writer is not None:
        writer.writerow(["iteration", "result", *(t.name for t in spsa.tunables)])

    def finished(proposal: Proposal, result: float) -> None:
        """Apply a pair's result; log it and, now and then, the values."""
        spsa.update(proposal, result)
        with lock:
            if writer is not None:
                assert history is not None
                values = spsa.values()
                writer.writerow([proposal.k, f"{result:g}",
                                 *(f"{values[t.name]:.3f}" for t in spsa.tunables)])  # fmt: skip
                history.flush()
            if not args.quiet and (spsa.done % REPORT_EVERY == 0 or spsa.done == spsa.iterations):
                shown = " ".join(f"{k}={v:.1f}" for k, v in spsa.values().items())
                err.print(f"{spsa.done}/{spsa.iterations}: {shown}", markup=False,
                          highlight=False, soft_wrap=True)  # fmt: skip

    def work() -> None:
        """One worker: two engines, game pairs until the iterations run out."""
        try:
            _worker(spsa, build, settings, openings, stop, finished)
        except Exception as exc:  # reported once; the other workers stop too
            with lock:
                failures.append(str(exc) or type(exc).__name__)
            stop.set()

    threads = [threading.Thread(target=work, daemon=True) for _ in range(args.concurrency)]
    with CtrlC() as ctrl:
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(0.2)
                if ctrl.pressed:
                    stop.set()
    return failures[0] if failures else ""


def _worker(
    spsa: Spsa,
    build: Build,
    settings: GameSettings,
    openings: list[Opening],
    stop: threading.Event,
    finished: Callable[[Proposal, float], None],
) -> None:
    """Play proposals until none are left or ``stop`` is set."""
    from plies.arena.game import play_game
    from plies.arena.players import UciPlayer

    plus = build.spec().create()
    minus = build.spec().create()
    assert isinstance(plus, UciPlayer) and isinstance(minus, UciPlayer)
    try:
        while not stop.is_set():
            proposal = spsa.propose()
            if proposal is None:
                return
            _configure(plus, proposal.plus)
            _configure(minus, proposal.minus)
            opening = openings[(proposal.k - 1) % len(openings)]
            first = play_game(plus, minus, opening, settings, stop, proposal.k * 2)
            second = play_game(minus, plus, opening, settings, stop, proposal.k * 2 + 1)
            result = pair_result(first, second)
            if result is None:  # interrupted: the pair does not count
                return
            finished(proposal, result)
    finally:
        plus.close()
        minus.close()


def _configure(player: UciPlayer, values: dict[str, int]) -> None:
    """Give ``player`` these parameter values."""
    player.reconfigure({k: str(v) for k, v in values.items()})


_POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def pair_result(first: GameRecord, second: GameRecord) -> float | None:
    """Wins minus losses of the side that had White in ``first`` and Black in ``second``
    (-2..2), or None if either game has no result."""
    if first.result not in _POINTS or second.result not in _POINTS:
        return None
    points = _POINTS[first.result][0] + _POINTS[second.result][1]
    return 2 * points - 2

