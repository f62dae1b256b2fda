"""Residual training (``plies train --residual``): the handcrafted base, its gradient, the file."""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest

import plies.core as core
from plies.board import Board
from plies.cli.main import main
from plies.core.netfile import BASE_HCE
from plies.learn.split import split_rows
from plies.learn.train.hce import unscaled_loss
from plies.learn.train.kernels import Examples, Params, batch_gradient
from plies.learn.train.loader import read_dataset
from plies.learn.train.network import initial_network, load_base, save_network
from plies.learn.train.residual import hce_base, hce_centipawns
from plies.learn.train.target import targets
from plies.learn.train.trainer import Settings, loss, train

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "train" / "sf-d7-sample.txt"


def _fens() -> list[str]:
    """The FEN of each kept sample row, in row order."""
    data, _ = read_dataset(SAMPLE)
    text = SAMPLE.read_bytes()
    return [
        text[int(o) : text.index(b"|", int(o))].decode().strip() for o in data.offset
    ]


def test_base_is_the_core_evaluation_of_each_row_and_its_mirror() -> None:
    """Column 0 equals the core's evaluate of the row's FEN, column 1 that of the FEN
    mirrored left to right, on 500 sample positions with both sides to move."""
    data, _ = read_dataset(SAMPLE)
    cp = hce_centipawns(data)
    fens = _fens()
    rows = range(0, len(fens), 4)
    for r in rows:
        board = chess.Board(fens[r])
        assert cp[r, 0] == core.evaluate_position(Board(fens[r]).core_position()), fens[r]
        mirror = board.transform(chess.flip_horizontal)
        mirror.castling_rights = chess.BB_EMPTY
        mirror.ep_square = None
        assert cp[r, 1] == core.evaluate_position(Board(mirror.fen()).core_position()), fens[r]
    assert {int(data.stm[r]) for r in rows} == {0, 1}
    assert np.any(cp[:, 0] != cp[:, 1])  # the classical evaluation is not mirror-symmetric
    assert np.allclose(hce_base(data), cp / 400.0)


def test_base_shifts_the_prediction_and_the_gradient() -> None:
    """With a nonzero base the loss is that of sigmoid(base + raw) and the gradient of the
    output bias and weights equals the central difference (float64)."""
    data, _ = read_dataset(SAMPLE)
    target = targets(data, 0.25).astype(np.float64)
    base = hce_base(data).astype(np.float64)
    rows = np.arange(0, 300, dtype=np.int64)
    net = initial_network(4, seed=2).astype(np.float64)
    grads = tuple(np.zeros_like(a) for a in net.arrays())
    mirrors = np.zeros(len(rows), dtype=np.int64)
    total = batch_gradient(
        Examples(data.features, data.stm, target, base), rows, mirrors, 1.0 / len(rows),
        net.arrays(), Params(*grads), net.kings(),
    )  # fmt: skip
    assert total / len(rows) == pytest.approx(loss(data, target, rows, net, base), rel=1e-12)
    assert total / len(rows) != pytest.approx(loss(data, target, rows, net), rel=1e-3)
    h = 1e-6
    for which, index in [(3, (0,)), (2, (0, 0)), (2, (0, 5))]:
        array = net.arrays()[which]
        keep = array[index]
        array[index] = keep + h
        up = loss(data, target, rows, net, base)
        array[index] = keep - h
        down = loss(data, target, rows, net, base)
        array[index] = keep
        numeric = (up - down) / (2 * h)
        assert grads[which][index] == pytest.approx(numeric, rel=1e-6, abs=1e-10)


def test_residual_training_learns_and_never_ends_worse_than_the_base() -> None:
    """A residual net starts exactly at the handcrafted loss (zero output); a short
    training lowers the training loss below it, and the net kept is no worse on the
    validation rows than the handcrafted evaluation alone (its start competes; on the
    1,600 sample positions no epoch beats it)."""
    data, _ = read_dataset(SAMPLE)
    target = targets(data, 0.25)
    valid, train_rows = split_rows(data.games(), 0.2, 0)
    cp = hce_centipawns(data)
    base = hce_base(data)
    net = initial_network(16, seed=0, residual=True)
    start = loss(data, target, valid, net, base)
    assert start == pytest.approx(unscaled_loss(cp, target, valid), rel=1e-6)
    outcome = train(
        data, target, train_rows, valid, net, Settings(5, 128, 0.008, decay=0.3), base=base
    )
    best = loss(data, target, valid, outcome.best, base)
    assert best <= start, (best, start)
    if outcome.best_epoch == 0:
        assert not np.any(outcome.best.out_weight) and best == start
    assert loss(data, target, train_rows, net, base) < 0.9 * loss(
        data, target, train_rows, initial_network(16, seed=0, residual=True), base
    )


def test_cli_writes_a_residual_net_the_core_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--residual marks the file (base 1); the core loads it as residual; a pure net cannot
    start a residual training (one-line error); --hce prints the unscaled loss."""
    out = tmp_path / "res.npz"
    args = ["train", str(SAMPLE), "--out", str(out), "--residual", "--hidden", "8",
            "--epochs", "1", "--batch", "256", "--hce", "-q"]  # fmt: skip
    assert main(args) == 0
    printed = " ".join(capsys.readouterr().err.split())  # rich wraps long lines
    assert "as it is (sigmoid(eval / 400))" in printed
    assert load_base(out) == BASE_HCE
    assert core.load_net(out).residual
    pure = tmp_path / "pure.npz"
    save_network(pure, initial_network(8, seed=1))
    assert load_base(pure) == 0 and "base" not in np.load(pure).files
    assert main([*args[:-2], "--init", str(pure), "-q"]) == 2
    assert "cannot start a residual" in " ".join(capsys.readouterr().err.split())
