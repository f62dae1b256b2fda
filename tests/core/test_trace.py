"""The evaluation as features: the traced counts reproduce ``evaluate`` exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from tests.core.positions import random_game_fens

from plies.board import Board
from plies.core import weights
from plies.core.evaluate import evaluate
from plies.core.layout import FEATURE_TERM, N_FEATURES
from plies.learn.tune.dataset import Positions, build_features
from plies.learn.tune.weights_file import module_weights

DATA = Path(__file__).resolve().parent.parent / "data"
N_TRUNCATED_TERMS = 9


def _fens() -> list[str]:
    """The perft suites, seeded random playouts and self-play (datagen) positions."""
    fens = []
    for name in ("perft/perftsuite.epd", "perft/standard.epd"):
        text = (DATA / name).read_text(encoding="utf-8")
        fens += [line.split(";")[0].strip() for line in text.splitlines() if line.strip()]
    fens += random_game_fens(60, seed=5, plies=(10, 200), keep=0.12, final=False)
    sample = (DATA / "tune" / "selfplay-sample.txt").read_text(encoding="utf-8")
    fens += [line.split("|")[0].strip() for line in sample.splitlines() if line.strip()]
    return fens


def test_trace_reproduces_evaluate_exactly() -> None:
    """Per term, counts times weights, tapered and truncated, sum to ``evaluate`` everywhere.

    Without the nine truncations (the plain linear model ``plies tune`` fits) the
    difference is below 9 centipawns: each truncation moves its term by less than 1.
    """
    fens = _fens()
    assert len(fens) >= 2000
    data = Positions()
    for fen in fens:
        parts = fen.split()
        data.placements.append(parts[0])
        data.sides.append(0 if parts[1] == "w" else 1)
        data.results.append(0.5)
        data.scores.append(float("nan"))
    features, bad = build_features(data)
    assert bad == 0
    n = len(fens)
    dense = np.zeros((n, N_FEATURES), dtype=np.int64)
    rows = np.repeat(np.arange(n), np.diff(features.indptr))
    dense[rows, features.cols.astype(np.int64)] = features.vals
    mg, eg, tempo = module_weights(weights)
    term = np.array(FEATURE_TERM)
    phase, scale, danger = features.phase, features.scale, features.danger
    total = np.zeros(n, dtype=np.int64)
    for t in range(N_TRUNCATED_TERMS):
        cols = term == t
        m = dense[:, cols] @ mg[cols] + (danger if t == 5 else 0)
        e = dense[:, cols] @ eg[cols]
        blended = (m * phase * 64 + e * scale * (24 - phase)) / (24 * 64.0)
        total += np.trunc(blended).astype(np.int64)
    sign = features.sign.astype(np.int64)
    exact = sign * total + tempo
    linear = sign * ((dense @ mg) * features.mg_factor + (dense @ eg) * features.eg_factor
                     + features.fixed) + tempo  # fmt: skip
    actual = np.array([evaluate(Board(fen).core_position()) for fen in fens])
    assert np.array_equal(exact, actual)
    assert np.max(np.abs(linear - actual)) < N_TRUNCATED_TERMS
    # Every table is exercised by some position (a count that is always 0 would hide drift).
    used = set(np.unique(features.cols).tolist())
    assert len(used) > 0.8 * N_FEATURES


def test_malformed_placements_are_skipped_not_traced() -> None:
    """A board without a king, with 9 files or with a pawn on rank 8 is counted as bad."""
    data = Positions()
    for placement in ("8/8/8/8/8/8/8/4K3", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                      "P3k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3"):  # fmt: skip
        data.placements.append(placement)
        data.sides.append(0)
        data.results.append(0.5)
        data.scores.append(float("nan"))
    features, bad = build_features(data)
    assert bad == 3
    assert len(features) == 1
