"""Texel tuning: the sigmoid scale K, then Adam on the mean squared error of sigmoid(K * eval)."""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from plies.core.layout import N_FEATURES, OFFSET, TABLES
from plies.learn.epochs import EpochReport
from plies.learn.tune.dataset import Features


class Rows(NamedTuple):
    """The rows of ``Features`` the kernels read, as one compiled value."""

    indptr: np.ndarray
    cols: np.ndarray
    vals: np.ndarray
    mg_factor: np.ndarray
    eg_factor: np.ndarray
    fixed: np.ndarray
    sign: np.ndarray


class Model(NamedTuple):
    """The weights the kernels read: mg and eg per feature, the tempo bonus."""

    mg: np.ndarray
    eg: np.ndarray
    tempo: float


class Slopes(NamedTuple):
    """What a batch adds up per feature: the loss gradient and its Gauss-Newton diagonal."""

    grad_mg: np.ndarray
    grad_eg: np.ndarray
    hess_mg: np.ndarray
    hess_eg: np.ndarray


def _rows(data: Features) -> Rows:
    """The kernels' view of ``data``."""
    return Rows(data.indptr, data.cols, data.vals, data.mg_factor, data.eg_factor, data.fixed,
                data.sign)


@njit(cache=True, nogil=True, inline="always")
def _sums(
    indptr: np.ndarray, cols: np.ndarray, vals: np.ndarray, mg: np.ndarray, eg: np.ndarray, i: int
) -> tuple[float, float]:
    """Row ``i``'s middlegame and endgame sums (counts times weights)."""
    m = 0.0
    e = 0.0
    for j in range(indptr[i], indptr[i + 1]):
        m += vals[j] * mg[cols[j]]
        e += vals[j] * eg[cols[j]]
    return m, e


@njit(cache=True, nogil=True)
def _evals(rows: Rows, model: Model) -> np.ndarray:
    """The linear evaluation (White's side, untruncated) of every row."""
    indptr, cols, vals, mg_factor, eg_factor, fixed, sign = rows
    mg, eg, tempo = model
    n = len(mg_factor)
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        m, e = _sums(indptr, cols, vals, mg, eg, i)
        out[i] = mg_factor[i] * m + eg_factor[i] * e + fixed[i] + sign[i] * tempo
    return out


@njit(cache=True, nogil=True)
def _batch_gradient(
    rows: Rows, target: np.ndarray, lo: int, hi: int, k: float, model: Model, slopes: Slopes
) -> tuple[float, float, float]:
    """Loss sum over rows lo..hi; adds d(loss sum)/d(weights) to the gradients and the
    Gauss-Newton diagonal to the hessians; returns the loss and tempo's two."""
    indptr, cols, vals, mg_factor, eg_factor, fixed, sign = rows
    mg, eg, tempo = model
    grad_mg, grad_eg, hess_mg, hess_eg = slopes
    loss = 0.0
    grad_tempo = 0.0
    hess_tempo = 0.0
    for i in range(lo, hi):
        m, e = _sums(indptr, cols, vals, mg, eg, i)
        value = mg_factor[i] * m + eg_factor[i] * e + fixed[i] + sign[i] * tempo
        p = 1.0 / (1.0 + math.exp(-k * value))
        diff = p - target[i]
        loss += diff * diff
        slope = p * (1.0 - p) * k
        g = 2.0 * diff * slope
        h = 2.0 * slope * slope
        gm = g * mg_factor[i]
        ge = g * eg_factor[i]
        hm = h * mg_factor[i] * mg_factor[i]
        he = h * eg_factor[i] * eg_factor[i]
        for j in range(indptr[i], indptr[i + 1]):
            v = vals[j]
            grad_mg[cols[j]] += gm * v
            grad_eg[cols[j]] += ge * v
            hess_mg[cols[j]] += hm * v * v
            hess_eg[cols[j]] += he * v * v
        grad_tempo += g * sign[i]
        hess_tempo += h
    return loss, grad_tempo, hess_tempo


@dataclass
class Weights:
    """The tunable weights as floats: mg and eg per feature, and the tempo bonus."""

    mg: np.ndarray
    """Middlegame weight of each feature."""
    eg: np.ndarray
    """Endgame weight of each feature."""
    tempo: float
    """Bonus for the side to move."""

    def copy(self) -> Weights:
        """An independent copy."""
        return Weights(self.mg.copy(), self.eg.copy(), self.tempo)


_L2_UNIT = 100.0
_MIN_CURVE = 1e-12
NEWTON_MAX_STEP = 10.0
"""The most a newton step moves one weight, in centipawns."""


def _vector(w: Weights) -> np.ndarray:
    """All weights as one vector: mg, eg, tempo."""
    return np.concatenate([w.mg, w.eg, [w.tempo]])


def tuned_mask(patterns: list[str]) -> np.ndarray:
    """Bool mask over (mg, eg, tempo) of the tables matching any pattern (fnmatch, e.g.
    ``PASSED*``); ValueError naming a pattern that matches nothing."""
    names = [t.name for t in TABLES] + ["TEMPO"]
    chosen: set[str] = set()
    for pattern in patterns:
        hits = fnmatch.filter(names, pattern.strip().upper())
        if not hits:
            raise ValueError(f"{pattern!r} matches no weight table ({', '.join(names)})")
        chosen.update(hits)
    per_feature = np.array([t.name in chosen for t in TABLES for _ in range(t.size)])
    return np.concatenate([per_feature, per_feature, ["TEMPO" in chosen]]).astype(bool)


def feature_support(data: Features) -> np.ndarray:
    """How much evidence the rows hold on each weight, over (mg, eg, tempo).

    A weight's support is the sum over rows of its feature's count times the share the
    row gives that phase (mg: phase / 24; eg: the endgame factor): a feature seen once
    in a full middlegame counts 1 for its mg weight and 0 for its eg weight.
    """
    n = len(data.mg_factor)
    per_entry = np.repeat(np.arange(n), np.diff(data.indptr))
    counts = np.abs(data.vals.astype(np.float64))
    cols = data.cols.astype(np.int64)
    mg = np.bincount(cols, weights=counts * data.mg_factor[per_entry], minlength=N_FEATURES)
    # The endgame factor carries the scale (of 64): a drawish ending tells less.
    eg = np.bincount(cols, weights=counts * data.eg_factor[per_entry], minlength=N_FEATURES)
    return np.concatenate([mg, eg, [float(n)]])


def mirror_groups(patterns: list[str]) -> np.ndarray:
    """Group ids over (mg, eg, tempo) tying each entry of the matching piece-square tables
    to its file mirror (a1 with h1, b1 with g1, ...): tied weights take one shared step,
    so a table learns half as many numbers from the same data. ValueError for a pattern
    that matches no piece-square table."""
    size = 2 * N_FEATURES + 1
    groups = np.arange(size)
    boards = [t for t in TABLES if t.size == 64]
    for pattern in patterns:
        hits = [t for t in boards if fnmatch.fnmatch(t.name, pattern.strip().upper())]
        if not hits:
            names = ", ".join(t.name for t in boards)
            raise ValueError(f"{pattern!r} matches no piece-square table ({names})")
        for table in hits:
            at = OFFSET[table.name]
            for half in (0, N_FEATURES):
                for index in range(64):
                    # The index is a square with a1 = 56: xor 7 mirrors the file.
                    groups[half + at + index] = half + at + min(index, index ^ 7)
    return groups


def tie(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each entry replaced by the sum over its group."""
    return np.asarray(np.bincount(groups, weights=values, minlength=len(values))[groups])


def evaluations(data: Features, w: Weights) -> np.ndarray:
    """The linear model's evaluation (White's side) of every row of ``data``."""
    return np.asarray(_evals(_rows(data), Model(w.mg, w.eg, float(w.tempo))))


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function, elementwise."""
    return np.asarray(1.0 / (1.0 + np.exp(-x)))


def mse(evals: np.ndarray, target: np.ndarray, k: float) -> float:
    """Mean squared error between sigmoid(k * evals) and ``target``."""
    return float(np.mean((sigmoid(k * evals) - target) ** 2))


def fit_k(evals: np.ndarray, target: np.ndarray, low: float = 1e-4, high: float = 0.1) -> float:
    """The K minimising mse(evals, target, K): golden-section search on log K."""
    a, b = math.log(low), math.log(high)
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = mse(evals, target, math.exp(c)), mse(evals, target, math.exp(d))
    for _ in range(60):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = mse(evals, target, math.exp(c))
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = mse(evals, target, math.exp(d))
    return math.exp((a + b) / 2.0)


def fit_score_k(data: Features) -> float | None:
    """The K that best turns the rows' search scores into their results; None without scores.

    The scores may come from another engine whose centipawns are not ours (Stockfish's
    are normalised to win chances): the blend needs their own scale, not the model's K.
    """
    has = ~np.isnan(data.scores)
    if not has.any():
        return None
    return fit_k(data.scores[has], data.results[has])


def targets(data: Features, score_k: float, score_weight: float) -> np.ndarray:
    """Results blended with sigmoid(score_k * search score) by ``score_weight`` (where a
    score exists)."""
    if score_weight <= 0.0:
        return data.results
    has = ~np.isnan(data.scores)
    out = data.results.copy()
    blended = (1.0 - score_weight) * data.results + score_weight * sigmoid(
        score_k * np.nan_to_num(data.scores)
    )
    out[has] = blended[has]
    return out


@dataclass
class Settings:
    """Optimiser settings."""

    epochs: int = 500
    """Upper bound on passes over the training rows."""
    batch: int = 1 << 62
    """Rows per Adam step (more than the rows: one full-batch step per epoch)."""
    lr: float = 0.5
    """Adam step size, in centipawns."""
    patience: int = 20
    """Stop after this many epochs without a better validation loss."""
    min_delta: float = 1e-7
    """A validation loss better by less than this does not count as better."""
    seed: int = 0
    """Seed of the batch order."""
    tuned: np.ndarray | None = None
    """Which entries of (mg, eg, tempo) may move (bool); None for all."""
    l2: float = 0.0
    """Penalty per (100 cp)^2 of a weight's distance from its start: keeps rarely seen
    weights where they were when the data say little about them."""
    groups: np.ndarray | None = None
    """Group id of each entry of (mg, eg, tempo) (``mirror_groups``): a group's entries
    share one step, from their summed gradient and curvature; None for no ties."""
    optimizer: str = "adam"
    """``adam``, or ``newton``: each weight steps by lr times its gradient over its own
    Gauss-Newton curvature (plus the l2 term's), so a weight moves as far as its evidence
    says and a rarely seen one little (Adam moves every weight about lr per step)."""


def train(
    train_rows: Features,
    valid_rows: Features,
    start: Weights,
    k: float,
    score_weight: float,
    settings: Settings,
    report: Callable[[EpochReport], None] | None = None,
    score_k: float | None = None,
) -> tuple[Weights, list[EpochReport]]:
    """Adam on the training rows; the weights with the best validation loss and every epoch.

    The targets blend results with sigmoid(score_k * score), score_k defaulting to ``k``.
    """
    rng = np.random.default_rng(settings.seed)
    blend_k = k if score_k is None else score_k
    y_train = targets(train_rows, blend_k, score_weight)
    y_valid = targets(valid_rows, blend_k, score_weight)
    w = start.copy()
    n = len(train_rows)
    size = 2 * len(w.mg) + 1
    m1 = np.zeros(size)
    m2 = np.zeros(size)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    steps = 0
    origin = _vector(start)
    best = w.copy()
    best_loss = mse(evaluations(valid_rows, w), y_valid, k) if len(valid_rows) else math.inf
    history: list[EpochReport] = []
    stale = 0
    slopes = Slopes(np.zeros(len(w.mg)), np.zeros(len(w.eg)), np.zeros(len(w.mg)),
                    np.zeros(len(w.eg)))
    starts = np.arange(0, n, settings.batch)
    # The l2 term's curvature, summed over each tied group like the data's (once, not per step).
    l2_curve = 2.0 * settings.l2 / _L2_UNIT**2
    ties = 1.0 if settings.groups is None else tie(np.ones(size), settings.groups)
    d = _rows(train_rows)
    for epoch in range(1, settings.epochs + 1):
        total = 0.0
        for lo in rng.permutation(starts):
            hi = min(lo + settings.batch, n)
            for a in slopes:
                a.fill(0.0)
            loss, grad_tempo, hess_tempo = _batch_gradient(
                d, y_train, lo, hi, k, Model(w.mg, w.eg, float(w.tempo)), slopes
            )
            total += loss
            grad = np.concatenate([slopes.grad_mg, slopes.grad_eg, [grad_tempo]]) / (hi - lo)
            if settings.l2 > 0.0:
                grad += l2_curve * (_vector(w) - origin)
            if settings.tuned is not None:
                grad[~settings.tuned] = 0.0
            curve = np.concatenate([slopes.hess_mg, slopes.hess_eg, [hess_tempo]]) / (hi - lo)
            if settings.groups is not None:
                grad = tie(grad, settings.groups)
                curve = tie(curve, settings.groups)
            steps += 1
            if settings.optimizer == "newton":
                # A weight with no curvature (never seen) has no gradient either: no step.
                step = settings.lr * grad / np.maximum(curve + ties * l2_curve, _MIN_CURVE)
                # A trust region: one sample's worth of curvature must not fling a weight.
                np.clip(step, -NEWTON_MAX_STEP, NEWTON_MAX_STEP, out=step)
            else:
                m1 = beta1 * m1 + (1.0 - beta1) * grad
                m2 = beta2 * m2 + (1.0 - beta2) * grad * grad
                step = settings.lr * (m1 / (1.0 - beta1**steps)) / (
                    np.sqrt(m2 / (1.0 - beta2**steps)) + eps
                )
            if settings.tuned is not None:
                step[~settings.tuned] = 0.0
            half = len(w.mg)
            w.mg -= step[:half]
            w.eg -= step[half : 2 * half]
            w.tempo -= float(step[-1])
        valid = mse(evaluations(valid_rows, w), y_valid, k) if len(valid_rows) else total / n
        improved = valid < best_loss - settings.min_delta
        if improved:
            best_loss = valid
            best = w.copy()
            stale = 0
        else:
            stale += 1
        entry = EpochReport(epoch, total / n, valid, improved)
        history.append(entry)
        if report is not None:
            report(entry)
        if stale >= settings.patience:
            break
    return best, history
