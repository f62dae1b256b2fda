"""A net written by ``plies train`` evaluates in the engine's core as in the trainer.

The trainer computes the spec in floats, the core in quantised integers; on
real positions the two must agree to within the quantisation's rounding.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import plies.core as core
from plies.board import Board
from plies.cli.main import main
from plies.train.kernels import raw_outputs
from plies.train.loader import read_dataset
from plies.train.network import load_network

SAMPLE = Path(__file__).parent.parent / "data" / "train" / "sf-d7-sample.txt"


def test_trained_net_agrees_with_the_core(tmp_path: Path) -> None:
    """Mean difference under 2 cp, none over 12 cp, on every sample position, both sides to move."""
    path = tmp_path / "net.npz"
    args = ["train", str(SAMPLE), "--out", str(path), "--hidden", "32", "--epochs", "3",
            "--batch", "128", "--val", "0.1", "-q"]  # fmt: skip
    assert main(args) == 0
    data, _ = read_dataset(SAMPLE)
    rows = np.arange(len(data), dtype=np.int64)
    floats = raw_outputs(data.features, data.stm, rows, *load_network(path).arrays()) * 400.0
    net = core.load_net(path)
    text = SAMPLE.read_bytes()
    diffs = []
    for r in rows:
        start = int(data.offset[r])
        fen = text[start : text.index(b"|", start)].decode()
        pos = core.copy_position(Board(fen).core_position())
        core.attach_net(pos, net)
        diffs.append(core.net_output(pos) - floats[r])
    gaps = np.abs(np.array(diffs))
    assert float(np.std(floats)) > 50.0  # the net learnt something: the check is not trivial
    assert set(data.stm.tolist()) == {0, 1}
    assert gaps.mean() < 2.0, gaps.mean()
    assert gaps.max() < 12.0, gaps.max()
