"""The handcrafted evaluation's loss on the same positions and target, for comparison."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from plies.learn.lines import read_bytes
from plies.learn.train.loader import Dataset
from plies.learn.train.network import SCALE


def row_fens(paths: Sequence[str | Path], data: Dataset, rows: np.ndarray) -> list[str]:
    """The FEN text (up to the first '|') of each row in ``rows``, read back from its file."""
    fens: list[str] = []
    buffers = [read_bytes(path)[0] for path in paths]
    for r in rows:
        buf = buffers[int(data.source[r])]
        start = int(data.offset[r])
        line = bytes(buf[start : start + 256])
        fens.append(line.split(b"|", 1)[0].decode("ascii", "replace").strip())
    return fens


def hce_loss(
    paths: Sequence[str | Path], data: Dataset, target: np.ndarray, rows: np.ndarray
) -> tuple[float, float]:
    """(mean squared error, K) of sigmoid(K * eval_stm) against ``target`` over ``rows``.

    The evaluation is plies.learn.tune's linear model of the engine's handcrafted evaluation
    with the shipped weights; K is fit to these rows, which favours the handcrafted side.
    """
    from plies.core import weights as shipped
    from plies.learn.tune.dataset import Positions, build_features
    from plies.learn.tune.fit import Weights, evaluations, fit_k, mse
    from plies.learn.tune.weights_file import module_weights

    fens = row_fens(paths, data, rows)
    positions = Positions(
        [f.split()[0] for f in fens],
        [int(s) for s in data.stm[rows]],
        [float(x) for x in data.result[rows]],
        [float(x) for x in data.score[rows]],
    )
    features, bad = build_features(positions)
    if bad:
        raise ValueError(f"{bad} positions the handcrafted evaluation could not read")
    mg, eg, tempo = module_weights(shipped)
    w = Weights(mg.astype(np.float64), eg.astype(np.float64), float(tempo))
    white = evaluations(features, w)
    stm_eval = np.where(data.stm[rows] == 0, white, -white)
    goal = target[rows].astype(np.float64)
    k = fit_k(stm_eval, goal)
    return mse(stm_eval, goal, k), k


def unscaled_loss(centipawns: np.ndarray, target: np.ndarray, rows: np.ndarray) -> float:
    """Mean squared error of sigmoid(eval / 400) against ``target`` over ``rows``: the
    handcrafted evaluation as a residual net adds to it, with no scale fit.

    ``centipawns`` is ``plies.learn.train.residual.hce_centipawns`` of the whole dataset.
    """
    prediction = 1.0 / (1.0 + np.exp(-centipawns[rows, 0].astype(np.float64) / SCALE))
    return float(np.mean((prediction - target[rows].astype(np.float64)) ** 2))
