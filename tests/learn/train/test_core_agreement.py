"""A net written by ``plies train`` evaluates in the engine's core as in the trainer.

The trainer computes the spec in floats, the core in quantised integers; on
real positions the two must agree to within the quantisation's rounding. A
residual net's engine evaluation is the classical one plus that output, the
same sum the trainer's prediction used (except where the engine's cannot-win rule
divides the output by 16, which the trainer does not model).
"""

from __future__ import annotations

from pathlib import Path

import chess
import numpy as np
import pytest
from tests.core.test_nnue import reference_residual_sum

import plies.core as core
from plies.board import Board
from plies.cli.main import main
from plies.learn.train.kernels import raw_outputs
from plies.learn.train.loader import read_dataset
from plies.learn.train.network import load_network
from plies.learn.train.residual import hce_centipawns

SAMPLE = Path(__file__).parents[2] / "data" / "train" / "sf-d7-sample.txt"


@pytest.mark.parametrize(
    ("residual", "buckets", "kings"),
    [(False, 8, 0), (True, 8, 0), (False, 1, 0), (True, 8, 4)],
    ids=["pure", "residual", "pure-single-output", "residual-king-buckets"],
)
def test_trained_net_agrees_with_the_core(
    tmp_path: Path, residual: bool, buckets: int, kings: int
) -> None:
    """Mean difference under 2 cp, none over 12 cp, on every sample position, both sides to
    move; a residual net's engine evaluation is the trainer's base plus its output. With
    --buckets 8 every bucket learnt something different; --buckets 1 writes the
    single-output shapes; --king-buckets 4 writes format 2, which the core reads."""
    path = tmp_path / "net.npz"
    args = ["train", str(SAMPLE), "--out", str(path), "--hidden", "32", "--epochs", "3",
            "--batch", "128", "--val", "0.1", "--buckets", str(buckets), "-q"]  # fmt: skip
    if kings:
        args += ["--king-buckets", str(kings)]
    # No validation split for the residual net: the kept net is then the last epoch's,
    # never the start's zero output (which would make the check trivial).
    assert main([*args, "--residual", "--val", "0"] if residual else args) == 0
    data, _ = read_dataset(SAMPLE)
    rows = np.arange(len(data), dtype=np.int64)
    trained = load_network(path)
    floats = raw_outputs(data.features, data.stm, rows, trained.arrays(), trained.kings())
    floats *= 400.0
    base = hce_centipawns(data)[:, 0]
    net = core.load_net(path)
    assert net.residual == residual and net.buckets == buckets
    assert net.king_buckets == max(kings, 1) and trained.king_count == max(kings, 1)
    with np.load(path) as f:
        assert f["out_weight"].shape == ((64,) if buckets == 1 else (buckets, 64))
    if buckets > 1:
        # Trained from identical copies, each bucket moved on its own positions.
        assert len({row.tobytes() for row in net.out_weight}) == buckets
    text = SAMPLE.read_bytes()
    diffs = []
    for r in rows:
        start = int(data.offset[r])
        fen = text[start : text.index(b"|", start)].decode()
        pos = core.copy_position(Board(fen).core_position())
        core.attach_net(pos, net)
        output = core.net_output(pos)
        diffs.append(output - floats[r])
        if residual:
            expected, _ = reference_residual_sum(chess.Board(fen), int(base[r]), output)
            assert core.static_evaluate(pos) == expected
    gaps = np.abs(np.array(diffs))
    assert float(np.std(floats)) > (20.0 if residual else 50.0)  # the check is not trivial
    assert set(data.stm.tolist()) == {0, 1}
    assert gaps.mean() < 2.0, gaps.mean()
    assert gaps.max() < 12.0, gaps.max()
