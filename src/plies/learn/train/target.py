"""The training target of each position: score and result blended, side to move's view."""

from __future__ import annotations

import numpy as np

from plies.learn.train.loader import Dataset
from plies.learn.train.network import SCALE


def stm_scores(data: Dataset) -> np.ndarray:
    """The score in centipawns from the side to move's view."""
    return np.where(data.stm == 0, data.score, -data.score).astype(np.float64)


def stm_results(data: Dataset) -> np.ndarray:
    """The game result (1, 0.5, 0) from the side to move's view."""
    return np.where(data.stm == 0, data.result, 1.0 - data.result).astype(np.float64)


def targets(data: Dataset, wdl: float) -> np.ndarray:
    """(1 - wdl) * sigmoid(score_stm / 400) + wdl * result_stm, as float32."""
    from_score = 1.0 / (1.0 + np.exp(-stm_scores(data) / SCALE))
    return ((1.0 - wdl) * from_score + wdl * stm_results(data)).astype(np.float32)
