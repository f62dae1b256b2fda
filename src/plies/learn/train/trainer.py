"""The training loop: shuffled minibatches, Adam, the rate schedule, the best net kept."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from plies.learn import epochs
from plies.learn.train.adam import Adam
from plies.learn.train.features import N_INPUTS
from plies.learn.train.kernels import Examples, Kings, Params, batch_gradient, raw_outputs
from plies.learn.train.loader import Dataset
from plies.learn.train.network import Network
from plies.learn.train.schedule import learning_rate


@dataclass
class Settings:
    """How to train."""

    epochs: int = 20
    """Passes over the training rows."""
    batch: int = 16384
    """Rows per Adam step."""
    lr: float = 0.001
    """Adam's start rate (cosine-decayed over all steps)."""
    threads: int = 1
    """Threads sharing each batch (the result is deterministic for a given count)."""
    seed: int = 0
    """Seed of the shuffles."""
    decay: float = 0.0
    """AdamW's weight decay: each step shrinks every weight by lr * decay of itself."""
    mirror: bool = False
    """Mirror a random half of the positions left to right each epoch (files a-h swapped):
    the evaluation hardly changes (only castling rights, which the net does not see), so
    this doubles the data the net sees."""


@dataclass
class EpochReport(epochs.EpochReport):
    """One epoch's figures: the losses (mean squared errors) and the training speed."""

    positions_per_s: float
    """Training rows per second this epoch (forward, backward and step)."""
    lr: float
    """The rate at the epoch's last step."""


@dataclass
class Outcome:
    """What training produced."""

    best: Network
    """The net of the epoch with the lowest validation loss (if Ctrl-C came before any
    epoch ended, the weights as they were then); a residual net's start (the handcrafted
    evaluation alone) competes too."""
    best_epoch: int
    """That epoch (0: none ended, or a residual net's start was best)."""
    history: list[EpochReport] = field(default_factory=list)
    """Every finished epoch."""
    interrupted: bool = False
    """Whether Ctrl-C ended training early."""


def loss(
    data: Dataset,
    target: np.ndarray,
    rows: np.ndarray,
    net: Network,
    base: np.ndarray | None = None,
) -> float:
    """Mean squared error between sigmoid(base + raw) and the target over ``rows`` (``base``:
    the fixed offsets of a residual net, ``plies.learn.train.residual``; None for a pure net)."""
    if len(rows) == 0:
        return float("nan")
    raw = raw_outputs(data.features, data.stm, rows, net.arrays(), net.kings())
    if base is not None:
        raw = raw + base[rows, 0]
    prediction = 1.0 / (1.0 + np.exp(-raw))
    return float(np.mean((prediction - target[rows]) ** 2))


class _Gradients:
    """One set of gradient arrays per thread, and the batch split between them."""

    def __init__(self, net: Network, threads: int) -> None:
        """Gradient arrays shaped like ``net`` for each of ``threads`` threads."""
        self.sets = [Params(*(np.zeros_like(a) for a in net.arrays())) for _ in range(threads)]
        self.pool = ThreadPoolExecutor(threads) if threads > 1 else None

    def compute(
        self,
        data: Dataset,
        target: np.ndarray,
        base: np.ndarray,
        rows: np.ndarray,
        mirrors: np.ndarray,
        net: Network,
    ) -> tuple[float, Params]:
        """Sum of squared errors over ``rows`` and the mean's gradient (summed in a fixed order)."""
        norm = 1.0 / len(rows)
        table, king_mirror, shared = net.kings()
        ft_weight = net.ft_weight
        if shared >= 0:
            # Through the folded weights (bucket + shared, unclipped): one row per piece and
            # perspective instead of two; the shared block's gradient is then the sum of
            # the bucket blocks' (the same gradient, half the work per position).
            blocks = ft_weight[:shared].reshape(-1, N_INPUTS, net.hidden)
            ft_weight = (blocks + ft_weight[shared:]).reshape(shared, net.hidden)
        parts = np.array_split(rows, len(self.sets))
        mirror_parts = np.array_split(mirrors, len(self.sets))

        def run(index: int) -> float:
            """One thread's share: its gradient set, zeroed, then filled."""
            grads = self.sets[index]
            for g in grads:
                g.fill(0.0)
            return float(
                batch_gradient(
                    Examples(data.features, data.stm, target, base),
                    parts[index],
                    mirror_parts[index],
                    norm,
                    net.arrays()._replace(ft_weight=ft_weight),
                    grads._replace(ft_weight=grads.ft_weight[: len(ft_weight)]),
                    Kings(table, king_mirror, -1),
                )
            )

        indices = range(len(self.sets))
        losses = [run(0)] if self.pool is None else list(self.pool.map(run, indices))
        total = self.sets[0]
        for other in self.sets[1:]:
            for t, o in zip(total, other, strict=True):
                t += o
        if shared >= 0:
            g_ft = total[0]
            g_ft[shared:] = g_ft[:shared].reshape(-1, N_INPUTS, net.hidden).sum(axis=0)
        return sum(losses), total

    def close(self) -> None:
        """Stop the threads."""
        if self.pool is not None:
            self.pool.shutdown()


def train(
    data: Dataset,
    target: np.ndarray,
    train_rows: np.ndarray,
    valid_rows: np.ndarray,
    net: Network,
    settings: Settings,
    report: Callable[[EpochReport], None] | None = None,
    advance: Callable[[int], None] | None = None,
    base: np.ndarray | None = None,
) -> Outcome:
    """Train ``net`` in place; Ctrl-C ends it early with the best net so far kept.

    ``base`` (float32 [n, 2], ``plies.learn.train.residual``) makes the net a residual one: it
    learns a correction added to these fixed offsets; None trains a pure net. A residual
    net's start (zero output: the base alone) is epoch 0's candidate for the best net, so
    the net written is never worse on the validation rows than the base itself.
    """
    offsets = np.zeros((len(data), 2), dtype=np.float32) if base is None else base
    rng = np.random.default_rng(settings.seed)
    adam = Adam(net, settings.decay)
    steps_per_epoch = -(-len(train_rows) // settings.batch)
    total_steps = steps_per_epoch * settings.epochs
    outcome = Outcome(net.copy(), 0)
    best_loss = float("inf")
    if base is not None and len(valid_rows):
        best_loss = loss(data, target, valid_rows, net, base)
    gradients = _Gradients(net, settings.threads)
    step = 0
    try:
        for epoch in range(1, settings.epochs + 1):
            order = rng.permutation(train_rows)
            mirrors = (
                rng.integers(0, 2, size=len(order), dtype=np.int64) * 7
                if settings.mirror
                else np.zeros(len(order), dtype=np.int64)
            )
            started = time.perf_counter()
            sse = 0.0
            rate = settings.lr
            for lo in range(0, len(order), settings.batch):
                rows = order[lo : lo + settings.batch]
                flips = mirrors[lo : lo + settings.batch]
                part, grads = gradients.compute(data, target, offsets, rows, flips, net)
                sse += part
                rate = learning_rate(settings.lr, step, total_steps)
                adam.step(net, grads, rate)
                step += 1
                if advance is not None:
                    advance(len(rows))
            seconds = time.perf_counter() - started
            train_loss = sse / max(len(order), 1)
            valid_loss = (
                loss(data, target, valid_rows, net, base) if len(valid_rows) else train_loss
            )
            better = valid_loss < best_loss
            if better:
                best_loss = valid_loss
                outcome.best = net.copy()
                outcome.best_epoch = epoch
            entry = EpochReport(
                epoch, train_loss, valid_loss, better, len(order) / max(seconds, 1e-9), rate
            )
            outcome.history.append(entry)
            if report is not None:
                report(entry)
    except KeyboardInterrupt:
        outcome.interrupted = True
        if not outcome.history:
            # No epoch ended: the weights reached so far beat the random start.
            outcome.best = net.copy()
    finally:
        gradients.close()
    return outcome
