"""train the learnt evaluation (a small NNUE-style net) on scored positions.

Train the (768 -> H) x 2 -> SCReLU -> 1 evaluation net (B output buckets chosen by the
number of pieces) on positions with search scores and game results: Adam on shuffled
minibatches, the rate cosine-decayed, every weight clipped to [-1.98, 1.98] after each step,
a held-out validation split. Writes the best epoch's net as .npz.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from plies.cli.common import CliError, Command, add_fitting_arguments, cannot_write, check_minimum

if TYPE_CHECKING:
    from plies.learn.train.network import Network

_EPILOG = """\
input: datagen lines "FEN | score | result" (score in centipawns and result 1.0/0.5/0.0,
both from White's side, as written by `plies datagen --scores`). Lines with |score| >= 3000
are skipped; malformed lines are skipped and counted; a line still being written (no final
newline) is left out.
target: (1 - wdl) * sigmoid(score_stm / 400) + wdl * result_stm; loss: mean squared error of
sigmoid(raw) against it (raw = eval / 400), the spec in docs/nnue-spec.md.
output: a .npz net file (format 1, or 2 with king buckets) the engine's core reads; the best
epoch's net (lowest validation loss) is written, also after Ctrl-C.
residual (--residual): the net learns a correction to the handcrafted evaluation (HCE):
prediction sigmoid((hce_cp + raw * 400) / 400), same target and loss; the HCE of every
position is computed once at load (the core's own evaluate). The file carries base = 1 and
the engine then evaluates with HCE + net.
buckets (--buckets B, default 8): the output layer has B sets of weights and bias, the one
used chosen by the number of pieces on the board, bucket = (pieces - 2) * B // 32 clamped
to 0..B-1 (B 8: (pieces - 2) // 4, 32 pieces bucket 7, 2-5 pieces bucket 0); each bucket
learns only from its own positions, the feature transformer from all. The file holds
out_weight [B, 2H] and out_bias [B]; --buckets 1 writes the single-output shapes ([2H],
[1]) that older plies versions read.
king buckets (--king-buckets 4, default off): each side's features also depend on where
its own king stands (HalfKA-style, mirrored): a king on files e-h sees the board mirrored,
and the (mirrored) king square picks one of 4 blocks of feature weights: a1 b1 c1, d1,
rank 2, ranks 3-8. Training adds a shared block every position uses too (a factoriser),
folded into each bucket's weights when the file (format 2) is written. 4x the feature
weights: it wants more data than the plain net. --init from a net without king buckets
starts from it (the shared block its weights, the buckets zero).
examples:
  plies train data.txt --out net.npz
  plies train data.txt --out res.npz --residual --threads 2 --hce
  plies train data.txt --out net.npz --hidden 256 --epochs 40 --threads 2 --hce
  plies train data.txt --out kings.npz --king-buckets 4 --threads 2 --hce
"""


COMMAND = Command("train", __doc__, epilog=_EPILOG)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the options of ``plies train``."""
    add_fitting_arguments(
        p, "net file to write (.npz)",
        "start from this net file (its H, buckets and king buckets win over --hidden, "
        "--buckets and --king-buckets; --king-buckets turns a net without them into that "
        "layout)",
    )  # fmt: skip
    p.add_argument("--hidden", type=int, default=128, metavar="H",
                   help="accumulator width (default %(default)s)")
    p.add_argument("--buckets", type=int, default=8, metavar="B",
                   help="output buckets, chosen by the number of pieces on the board (default "
                        "%(default)s; 1: a single output; at most 32)")
    p.add_argument("--king-buckets", type=_king_layout, metavar="K",
                   help="king buckets (HalfKA-style, mirrored; format 2): 4 = a1-c1, d1, "
                        "rank 2, ranks 3-8 of the own king, files e-h mirrored (default: none, "
                        "format 1)")
    p.add_argument("--epochs", type=int, default=12, metavar="N",
                   help="passes over the data (default %(default)s)")
    p.add_argument("--lr", type=float, default=0.008, metavar="X",
                   help="Adam's start rate, cosine-decayed to 2%% of it by the end (default "
                        "%(default)s, the best of the rates tried with --decay 0.3)")
    p.add_argument("--batch", type=int, default=4096, metavar="N",
                   help="positions per step (default %(default)s)")
    p.add_argument("--wdl", type=float, default=0.1, metavar="F",
                   help="weight of the game result in the target, the rest the score (default "
                        "%(default)s, which played strongest in games; losses under different "
                        "values do not compare)")
    p.add_argument("--val", type=float, default=0.02, metavar="F",
                   help="share of games held out whole for validation, so no game sits on "
                        "both sides; games are told apart by file, move number, result and "
                        "piece count (default %(default)s)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="start weights and shuffles")
    p.add_argument("--threads", type=int, default=1, metavar="N",
                   help="threads sharing each batch (default %(default)s; a given count gives "
                        "the same net for the same seed)")
    p.add_argument("--decay", type=float, default=0.3, metavar="D",
                   help="AdamW weight decay: each step shrinks every weight by lr * D of itself "
                        "(default %(default)s)")
    p.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=True,
                   help="each epoch, train on a random half of the positions mirrored left to "
                        "right (files a-h swapped; the net does not see castling rights, so "
                        "their value holds; more positions for the same data) (default on)")
    p.add_argument("--residual", action="store_true",
                   help="train a residual net: a correction added to the handcrafted "
                        "evaluation (which the file records; the engine then evaluates with "
                        "their sum)")
    p.add_argument("--hce", action="store_true",
                   help="also print the handcrafted evaluation's loss on the validation "
                        "positions (same target): as it is (sigmoid(eval / 400), what "
                        "--residual starts from) and with its scale fit to them, for comparison")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the summary")


def _king_layout(text: str) -> int:
    """A --king-buckets value, one of the layouts offered (looked up only when it is given)."""
    from plies.learn.train.features import KING_LAYOUTS

    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if count not in KING_LAYOUTS:
        offered = ", ".join(str(k) for k in sorted(KING_LAYOUTS))
        raise argparse.ArgumentTypeError(f"invalid choice: {count} (choose from {offered})")
    return count


def _check(args: argparse.Namespace) -> None:
    """Reject impossible option values with one clear line."""
    from plies.core.netfile import MAX_BUCKETS

    check_minimum(args, dict.fromkeys(("hidden", "epochs", "batch", "threads", "buckets"), 1))
    if args.buckets > MAX_BUCKETS:
        raise CliError(f"--buckets must be at most {MAX_BUCKETS}")
    if not args.lr > 0.0:
        raise CliError("--lr must be positive")
    if args.decay < 0.0:
        raise CliError("--decay must not be negative")
    if not 0.0 <= args.wdl <= 1.0:
        raise CliError("--wdl must be between 0 and 1")
    if not 0.0 <= args.val < 1.0:
        raise CliError("--val must be at least 0 and below 1")


def _kings(net: Network) -> str:
    """The net's king layout in a few words, for the summary lines."""
    if net.king_buckets is None:
        return "no king buckets"
    mirrored = " (mirrored)" if net.king_mirror else ""
    return f"{net.king_count} king buckets{mirrored}"


def run(args: argparse.Namespace) -> int:
    """Read, split, train, write the best net; 130 after Ctrl-C (the best net still written)."""
    import numpy as np
    from rich.console import Console

    from plies.cli.progress import progress_bar, progress_lines
    from plies.core.netfile import BASE_HCE, BASE_NONE, NetFileError
    from plies.learn.lines import DataError
    from plies.learn.split import split_rows
    from plies.learn.train.loader import combine, read_dataset
    from plies.learn.train.network import (
        initial_network,
        load_base,
        load_network,
        save_network,
        with_king_buckets,
    )
    from plies.learn.train.target import targets
    from plies.learn.train.trainer import EpochReport, Settings, loss, train

    _check(args)
    err = Console(stderr=True)

    say = progress_lines(err, quiet=args.quiet, highlight=False)

    started = time.perf_counter()
    parts = []
    for path in args.data:
        try:
            data, report = read_dataset(path)
        except DataError as exc:
            raise CliError(str(exc)) from None
        if report.bad:
            err.print(
                f"{path}: skipped {report.bad} malformed lines (first: {report.first_bad})",
                highlight=False,
            )
        if report.unterminated:
            say(f"{path}: left out an unfinished last line (no newline)")
        say(
            f"{path}: {len(data)} positions of {report.lines} lines "
            f"({report.big_scores} with |score| >= 3000 skipped)"
        )
        parts.append(data)
    data = combine(parts)
    if len(data) < 2:
        raise CliError("fewer than 2 usable positions in " + ", ".join(args.data))
    say(f"read {len(data)} positions in {time.perf_counter() - started:.1f} s")
    centipawns = None
    if args.residual or args.hce:
        from plies.learn.train.residual import hce_centipawns

        clock = time.perf_counter()
        centipawns = hce_centipawns(data)
        say(
            f"handcrafted evaluation of {len(data)} positions (and their mirror images) "
            f"in {time.perf_counter() - clock:.1f} s"
        )
    base = None
    if args.residual and centipawns is not None:
        base = (centipawns / 400.0).astype(np.float32)
    kind = BASE_HCE if args.residual else BASE_NONE
    try:
        if args.init:
            net = load_network(args.init)
            if load_base(args.init) != kind:
                raise CliError(
                    f"{args.init}: a {'pure' if kind == BASE_HCE else 'residual'} net cannot "
                    f"start a {'residual' if kind == BASE_HCE else 'pure'} one"
                )
            if net.king_buckets is None and args.king_buckets is not None:
                net = with_king_buckets(net, args.king_buckets)
        else:
            net = initial_network(
                args.hidden, args.seed, args.residual, args.buckets, args.king_buckets
            )
    except NetFileError as exc:
        raise CliError(str(exc)) from None
    target = targets(data, args.wdl)
    valid_rows, train_rows = split_rows(data.games(), args.val, args.seed)
    if len(train_rows) == 0:
        raise CliError("--val leaves no training positions")
    checked = valid_rows if len(valid_rows) else train_rows
    start_loss = loss(data, target, checked, net, base)
    say(
        f"{len(train_rows)} training, {len(valid_rows)} validation positions; H {net.hidden}, "
        f"{net.buckets} output bucket{'s' if net.buckets > 1 else ''}, {_kings(net)}"
        f"{' + a shared block' if net.factor else ''}, "
        f"wdl {args.wdl}{', residual' if args.residual else ''}; start validation loss "
        f"{start_loss:.6f}"
    )
    settings = Settings(
        args.epochs, args.batch, args.lr, args.threads, args.seed, args.decay, args.mirror
    )
    progress = progress_bar(err, "[bold]{task.description}", quiet=args.quiet, transient=True)

    with progress:
        task = progress.add_task("epoch 1", total=len(train_rows))

        def show(entry: EpochReport) -> None:
            """One line per epoch; the bar starts over."""
            mark = " *" if entry.best else ""
            say(
                f"epoch {entry.epoch:3d}  train {entry.train:.6f}  validation "
                f"{entry.validation:.6f}  {entry.positions_per_s:,.0f} pos/s  "
                f"lr {entry.lr:.6f}{mark}"
            )
            progress.reset(task, description=f"epoch {entry.epoch + 1}")

        outcome = train(
            data,
            target,
            train_rows,
            valid_rows,
            net,
            settings,
            show,
            lambda done: progress.advance(task, done),
            base,
        )
    if outcome.interrupted:
        err.print(f"interrupted after {len(outcome.history)} epochs: writing the best net so far")
    try:
        save_network(args.out, outcome.best, kind)
    except OSError as exc:
        raise cannot_write(args.out, exc) from None
    final = loss(data, target, checked, outcome.best, base)
    if args.residual and outcome.best_epoch == 0 and outcome.history:
        if args.init:
            err.print(
                f"no epoch beat {args.init} on the validation positions: writing it unchanged",
                highlight=False,
                soft_wrap=True,
            )
        else:
            err.print("no epoch beat the handcrafted evaluation alone: writing the zero correction")
    err.print(
        f"wrote {args.out}: {'residual, ' if args.residual else ''}H {net.hidden}, "
        f"B {net.buckets}, {_kings(net)}, "
        f"epoch {outcome.best_epoch} of {len(outcome.history)}, validation loss "
        f"{start_loss:.6f} -> {final:.6f}, {time.perf_counter() - started:.1f} s",
        highlight=False,
    )
    if args.hce and len(valid_rows) and centipawns is not None:
        from plies.learn.train.hce import hce_loss, unscaled_loss

        plain = unscaled_loss(centipawns, target, valid_rows)
        hce, k = hce_loss(args.data, data, target, valid_rows)
        err.print(
            f"handcrafted evaluation, same validation positions and target: loss "
            f"{plain:.6f} as it is (sigmoid(eval / 400)), {hce:.6f} with its scale fit "
            f"(sigmoid(eval * {k:.6f}))",
            highlight=False,
        )
    return 130 if outcome.interrupted else 0
