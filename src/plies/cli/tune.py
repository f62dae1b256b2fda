"""Texel-tune the evaluation weights on positions with game results.

Fit every evaluation weight (material, piece-square tables, pawn structure, passed pawns,
mobility, king safety, bishop pair, rooks, threats, tempo; middlegame and endgame) to game
results: the sigmoid scale K first, then Adam on the mean squared error of sigmoid(K *
eval), stopping when the held-out validation loss stops improving. Writes the weights as a
Python module.
"""

from __future__ import annotations

import argparse
import time

from plies.cli.common import CliError, Command, add_fitting_arguments, cannot_write, check_minimum
from plies.learn.tune import OPTIMIZERS

DEFAULT_LR = {"adam": 0.5, "newton": 0.2}
"""--lr when not given, by optimiser."""

_EPILOG = """\
input: datagen lines ("FEN | result" or "FEN | score | result", result 1.0/0.5/0.0 from
White's side) or EPD lines with a result (c9 "1-0" / "0-1" / "1/2-1/2", or [1.0]).
Bad lines are counted and skipped. The same file given twice counts twice.
output: a weights module like src/plies/core/weights.py (write it there, or copy it there,
to compile the tuned weights into the engine).
examples:
  plies tune data.txt --out weights.py
  plies tune a.txt b.txt --out src/plies/core/weights.py --score-weight 0.25
"""


COMMAND = Command("tune", __doc__, epilog=_EPILOG)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies tune``."""
    add_fitting_arguments(p, "weights module to write",
                          "start from this weights module (default: the engine's current "
                          "weights)")  # fmt: skip
    p.add_argument("--epochs", type=int, default=500, metavar="N",
                   help="at most N epochs (default %(default)s)")
    p.add_argument("--batch", type=int, default=0, metavar="N",
                   help="rows per Adam step (default %(default)s: all training rows, one step "
                        "per epoch; small batches were noisier on a few thousand games)")
    p.add_argument("--optimizer", choices=OPTIMIZERS, default="adam",
                   help="adam (every weight steps about --lr cp) or newton (each weight steps "
                        "--lr times its own Gauss-Newton step, so rarely seen weights move "
                        "little) (default %(default)s)")
    p.add_argument("--lr", type=float, metavar="X",
                   help="step size: cp per step for adam (default "
                        f"{DEFAULT_LR['adam']}), share of the Newton step for newton (default "
                        f"{DEFAULT_LR['newton']}: correlated weights overshoot above about 0.3)")
    p.add_argument("--patience", type=int, default=20, metavar="N",
                   help="stop after N epochs without a better validation loss (default "
                        "%(default)s)")
    p.add_argument("--validation", type=float, default=0.1, metavar="F",
                   help="fraction of games held out whole for validation (default %(default)s)")
    p.add_argument("--score-weight", type=float, default=0.0, metavar="F",
                   help="blend the target: (1-F) * result + F * sigmoid(Ks * score), Ks fit so "
                        "the scores best predict the results (another engine's scale is not "
                        "ours) (default %(default)g)")
    p.add_argument("--score-k", type=float, metavar="K",
                   help="the scores' sigmoid scale for the blend (default: fit so the scores "
                        "best predict the results); the model's own K keeps the scores' "
                        "centipawns as ours")
    p.add_argument("--l2", type=float, default=0.0, metavar="L",
                   help="penalty L per (100 cp)^2 of distance from the start weights (default "
                        "%(default)g)")
    p.add_argument("--only", metavar="TABLES",
                   help="tune only these weight tables, comma-separated, wildcards allowed "
                        "(e.g. MATERIAL,PASSED*,TEMPO; names as in core/weights.py without "
                        "_MG/_EG)")
    p.add_argument("--min-support", type=float, default=0.0, metavar="N",
                   help="keep a weight fixed when the training rows hold less than N "
                        "positions' worth of evidence on it (its feature's count, weighted by "
                        "the row's mg or eg share); rare weights otherwise move as fast as "
                        "common ones and overfit (default %(default)g: tune all)")
    p.add_argument("--mirror", metavar="TABLES",
                   help="tie these piece-square tables' file mirrors (a1 with h1 ...), "
                        "comma-separated, wildcards allowed (e.g. "
                        "'PSQT_KNIGHT,PSQT_BISHOP,PSQT_ROOK,PSQT_QUEEN,PSQT_KING')")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="shuffle seed (default %(default)s)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the summary")


def _check(args: argparse.Namespace) -> None:
    """Reject impossible option values with one clear line."""
    check_minimum(args, {"epochs": 1, "patience": 1, "batch": 0})
    if not 0.0 <= args.validation < 1.0:
        raise CliError("--validation must be at least 0 and below 1")
    if not 0.0 <= args.score_weight <= 1.0:
        raise CliError("--score-weight must be between 0 and 1")
    if args.lr is None:
        args.lr = DEFAULT_LR[args.optimizer]
    if args.lr <= 0.0:
        raise CliError("--lr must be positive")
    if args.l2 < 0.0:
        raise CliError("--l2 must not be negative")
    if args.score_k is not None and args.score_k <= 0.0:
        raise CliError("--score-k must be positive")
    if args.min_support < 0.0:
        raise CliError("--min-support must not be negative")


def run(args: argparse.Namespace) -> int:
    """Read, trace, fit K, train, write; 130 if interrupted (nothing written)."""
    import numpy as np
    from rich.console import Console

    from plies.cli.progress import progress_bar, progress_lines
    from plies.core import weights as shipped
    from plies.learn.epochs import EpochReport
    from plies.learn.lines import DataError
    from plies.learn.split import split_rows
    from plies.learn.tune import fit
    from plies.learn.tune.dataset import build_features, read_positions
    from plies.learn.tune.weights_file import (
        WeightsFileError,
        module_weights,
        read_weights,
        write_weights,
    )

    _check(args)
    try:
        mask = fit.tuned_mask(args.only.split(",")) if args.only else None
    except ValueError as exc:
        raise CliError(f"--only: {exc}") from None
    try:
        groups = fit.mirror_groups(args.mirror.split(",")) if args.mirror else None
    except ValueError as exc:
        raise CliError(f"--mirror: {exc}") from None
    err = Console(stderr=True)

    say = progress_lines(err, quiet=args.quiet)

    started = time.perf_counter()
    try:
        mg, eg, tempo = read_weights(args.init) if args.init else module_weights(shipped)
        data = read_positions(args.data)
    except (DataError, WeightsFileError) as exc:
        raise CliError(str(exc)) from None
    if data.bad:
        err.print(f"skipped {data.bad} bad lines (first: {data.first_bad})")
    if not data.placements:
        raise CliError("no usable positions in " + ", ".join(args.data))
    say(f"read {len(data.placements)} positions in {time.perf_counter() - started:.1f} s")
    progress = progress_bar(err, "[bold]{task.description}", quiet=args.quiet)
    try:
        with progress:
            task = progress.add_task("trace", total=len(data.placements))
            features, bad_fens = build_features(
                data, lambda done: progress.advance(task, done)
            )
        if bad_fens:
            err.print(f"skipped {bad_fens} positions with a malformed board")
        if len(features) < 2:
            raise CliError("fewer than 2 usable positions: nothing to tune on")
        say(
            f"feature matrix: {len(features)} rows, {len(features.cols)} entries "
            f"({time.perf_counter() - started:.1f} s)"
        )
        valid_index, train_index = split_rows(features.games, args.validation, args.seed)
        n_valid = len(valid_index)
        valid_rows = features.take(valid_index)
        train_rows = features.take(train_index)
        w = fit.Weights(mg.astype(np.float64), eg.astype(np.float64), float(tempo))
        k = fit.fit_k(fit.evaluations(train_rows, w), train_rows.results)
        score_k = fit.fit_score_k(train_rows) if args.score_weight > 0.0 else None
        if args.score_weight > 0.0 and score_k is None:
            raise CliError("--score-weight needs scores (FEN | score | result lines)")
        fitted_score_k = score_k
        if score_k is not None and args.score_k is not None:
            score_k = args.score_k
        blend_k = k if score_k is None else score_k
        checked = valid_rows if n_valid else train_rows
        checked_target = fit.targets(checked, blend_k, args.score_weight)
        start_loss = fit.mse(fit.evaluations(checked, w), checked_target, k)
        say(f"K = {k:.6f} (fit on the training results); start loss {start_loss:.6f}")
        if fitted_score_k is not None:
            say(f"score K = {fitted_score_k:.6f} (the scores' own scale, fit on the same results)")
        if score_k is not None and score_k != fitted_score_k:
            say(f"score K = {score_k:.6f} used, as given by --score-k")
        if args.min_support > 0.0:
            support = fit.feature_support(train_rows)
            if groups is not None:
                support = fit.tie(support, groups)
            supported = support >= args.min_support
            say(f"--min-support {args.min_support:g}: {int((~supported).sum())} of "
                f"{len(supported)} weights held fixed for lack of evidence")  # fmt: skip
            mask = supported if mask is None else mask & supported
        settings = fit.Settings(
            args.epochs, args.batch or len(train_rows), args.lr, args.patience,
            seed=args.seed, tuned=mask, l2=args.l2, groups=groups, optimizer=args.optimizer,
        )

        def show(entry: EpochReport) -> None:
            """One line per epoch."""
            mark = " *" if entry.best else ""
            say(f"epoch {entry.epoch:3d}  train {entry.train:.6f}  "
                f"validation {entry.validation:.6f}{mark}")  # fmt: skip

        with progress:
            epochs = progress.add_task("epochs", total=args.epochs)

            def report(entry: EpochReport) -> None:
                """Print the epoch and move the bar."""
                show(entry)
                progress.advance(epochs)

            best, history = fit.train(
                train_rows, valid_rows, w, k, args.score_weight, settings, report, score_k
            )
    except KeyboardInterrupt:
        err.print("interrupted: nothing written")
        return 130
    rounded_mg = np.rint(best.mg).astype(np.int64)
    rounded_eg = np.rint(best.eg).astype(np.int64)
    rounded_tempo = round(best.tempo)
    rounded = fit.Weights(rounded_mg.astype(np.float64), rounded_eg.astype(np.float64),
                      float(rounded_tempo))  # fmt: skip
    final = fit.mse(fit.evaluations(checked, rounded), checked_target, k)
    note = (
        f"{len(train_rows)} training positions, K {k:.6f}, score weight "
        f"{args.score_weight}"
        + ("" if score_k is None else f" (score K {score_k:.6f})")
        + ("" if not args.only else f", only {args.only} tuned (the rest as given)")
        + f", {len(history)} epochs, loss {start_loss:.6f} -> {final:.6f}"
    )
    try:
        write_weights(args.out, rounded_mg, rounded_eg, rounded_tempo, note)
    except OSError as exc:
        raise cannot_write(args.out, exc) from None
    if args.score_weight > 0.0:
        plain = [fit.mse(fit.evaluations(checked, x), checked.results, k) for x in (w, rounded)]
        say(f"loss against the results alone: {plain[0]:.6f} -> {plain[1]:.6f}")
    if final >= start_loss:
        err.print("the loss did not improve: the start weights may be as good as any")
    err.print(
        f"wrote {args.out}: validation loss {start_loss:.6f} -> {final:.6f} (rounded weights), "
        f"{len(history)} epochs, {time.perf_counter() - started:.1f} s"
    )
    return 0
