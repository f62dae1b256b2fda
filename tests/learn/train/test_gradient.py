"""The compiled backward pass against finite differences, on a tiny float64 net."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from plies.learn.train.kernels import Examples, Params, batch_gradient, raw_outputs
from plies.learn.train.loader import Dataset, read_dataset
from plies.learn.train.network import Network, initial_network
from plies.learn.train.target import targets

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "train" / "sf-d7-sample.txt"


def _king_rows(data: Dataset, rows: np.ndarray, table: np.ndarray) -> set[int]:
    """The bucket-block rows the spec's format-2 index (mirror on) gives the pieces of
    ``rows`` in both perspectives."""
    out = set()
    for r in rows:
        pieces = [int(f) for f in data.features[r] if f >= 0]
        for p in (0, 1):
            # Perspective p's view of White's index f: ranks flipped and colours swapped for Black.
            seen = [f if p == 0 else (f ^ 56) + 384 if f < 384 else (f ^ 56) - 384 for f in pieces]
            ks = next(f - 320 for f in seen if 320 <= f < 384)
            flip = 7 if ks % 8 >= 4 else 0
            out.update(int(table[ks ^ flip]) * 768 + (f ^ flip) for f in seen)
    return out


def _loss(data, target: np.ndarray, rows: np.ndarray, net: Network) -> float:  # type: ignore[no-untyped-def]
    """Mean squared error, computed from the forward pass alone."""
    raw = raw_outputs(data.features, data.stm, rows, net.arrays(), net.kings())
    return float(np.mean((1.0 / (1.0 + np.exp(-raw)) - target[rows]) ** 2))


@pytest.mark.parametrize(("buckets", "kings"), [(1, None), (8, None), (8, 4)])
def test_gradient_matches_finite_differences(buckets: int, kings: int | None) -> None:
    """Every output weight and bias of every bucket, the feature biases and 40 touched
    feature weights (with king buckets: 20 of the bucket blocks, 20 of the shared block):
    the analytic gradient equals the central difference to 1e-6 relative (float64)."""
    data, _ = read_dataset(SAMPLE)
    target = targets(data, 0.25).astype(np.float64)
    rows = np.arange(0, 200, dtype=np.int64)
    mirrors = np.zeros(len(rows), dtype=np.int64)
    zero = np.zeros((len(data), 2), dtype=np.float64)
    net = initial_network(4, seed=3, buckets=buckets, king_buckets=kings).astype(np.float64)
    rng = np.random.default_rng(5)
    # Spread the accumulators over both screlu kinks (0 and 1) and the flat parts.
    net.ft_weight[:] = rng.normal(0.0, 0.25, size=net.ft_weight.shape)
    net.ft_bias[:] = rng.normal(0.3, 0.5, size=net.ft_bias.shape)
    net.out_weight[:] = rng.normal(0.0, 1.0, size=net.out_weight.shape)
    net.out_bias[:] = rng.normal(0.0, 0.5, size=net.out_bias.shape)
    grads = tuple(np.zeros_like(a) for a in net.arrays())
    loss_sum = batch_gradient(
        Examples(data.features, data.stm, target, zero), rows, mirrors, 1.0 / len(rows),
        net.arrays(), Params(*grads), net.kings(),
    )
    assert abs(loss_sum / len(rows) - _loss(data, target, rows, net)) < 1e-12
    if kings is None:
        used = np.unique(data.features[rows][data.features[rows] >= 0])
        chosen = rng.choice(used, 10, replace=False)
    else:
        # The rows the positions reach, found independently of the kernels' gradient.
        table = net.king_buckets
        assert table is not None
        reached = sorted(_king_rows(data, rows, table))
        shared = np.array(reached) % 768 + net.king_count * 768
        chosen = np.concatenate([rng.choice(reached, 5, replace=False),
                                 rng.choice(np.unique(shared), 5, replace=False)])  # fmt: skip
        assert (chosen >= net.king_count * 768).sum() == 5
    picks = [(0, (int(f), j)) for f in chosen for j in range(4)]
    picks += [(1, (j,)) for j in range(4)]
    picks += [(2, (b, j)) for b in range(buckets) for j in range(8)]
    picks += [(3, (b,)) for b in range(buckets)]
    h = 1e-6
    checked = 0
    for which, index in picks:
        array = net.arrays()[which]
        keep = array[index]
        array[index] = keep + h
        up = _loss(data, target, rows, net)
        array[index] = keep - h
        down = _loss(data, target, rows, net)
        array[index] = keep
        numeric = (up - down) / (2 * h)
        analytic = grads[which][index]
        assert abs(numeric - analytic) <= 1e-6 * max(abs(numeric), 1e-4), (which, index)
        checked += abs(analytic) > 0
    # A bucket block row few positions reach can sit on a dead unit: a little slack there.
    assert checked > (30 if kings else 36) + 8 * buckets


def test_only_the_positions_bucket_gets_output_gradient() -> None:
    """Rows of one piece-count bucket: every other bucket's output gradient is exactly 0,
    and that bucket's equals a single-output net's gradient with its weights."""
    data, _ = read_dataset(SAMPLE)
    target = targets(data, 0.25)
    pieces = (data.features >= 0).sum(axis=1)
    net = initial_network(8, seed=6, buckets=8)
    rng = np.random.default_rng(6)
    net.out_weight[:] = rng.normal(0.0, 0.3, size=net.out_weight.shape).astype(np.float32)
    zero = np.zeros((len(data), 2), dtype=np.float32)
    for bucket in (0, 3, 7):
        # The spec's bucket for 8: (pieces - 2) // 4 (clamped).
        rows = np.flatnonzero(np.clip((pieces - 2) // 4, 0, 7) == bucket).astype(np.int64)
        assert len(rows) > 50
        flips = np.zeros(len(rows), dtype=np.int64)
        grads = tuple(np.zeros_like(a) for a in net.arrays())
        batch_gradient(Examples(data.features, data.stm, target, zero), rows, flips, 1.0,
                       net.arrays(), Params(*grads), net.kings())  # fmt: skip
        others = np.arange(8) != bucket
        assert not np.any(grads[2][others]) and not np.any(grads[3][others])
        assert np.any(grads[2][bucket]) and grads[3][bucket] != 0.0
        single = Network(net.ft_weight, net.ft_bias, net.out_weight[bucket : bucket + 1].copy(),
                         net.out_bias[bucket : bucket + 1].copy())  # fmt: skip
        alone = tuple(np.zeros_like(a) for a in single.arrays())
        batch_gradient(Examples(data.features, data.stm, target, zero), rows, flips, 1.0,
                       single.arrays(), Params(*alone), single.kings())  # fmt: skip
        assert np.array_equal(alone[2][0], grads[2][bucket])
        assert np.array_equal(alone[0], grads[0]) and np.array_equal(alone[1], grads[1])


def test_mirrored_rows_train_as_mirrored_positions() -> None:
    """A row trained with mirror 7 gives the gradient of its left-right mirror image."""
    data, _ = read_dataset(SAMPLE)
    target = targets(data, 0.25)
    rows = np.arange(0, 300, dtype=np.int64)
    net = initial_network(8, seed=4)
    mirrored = Dataset(
        np.where(data.features >= 0, data.features ^ 7, data.features).astype(np.int16),
        data.stm,
        data.score,
        data.result,
        data.offset,
        data.source,
        data.ply,
    )

    def grads(d: Dataset, flip: int) -> tuple[float, tuple[np.ndarray, ...]]:
        """Loss sum and gradient over ``rows`` with every mirror set to ``flip``."""
        out = tuple(np.zeros_like(a) for a in net.arrays())
        flips = np.full(len(rows), flip, dtype=np.int64)
        zero = np.zeros((len(d), 2), dtype=np.float32)
        total = batch_gradient(
            Examples(d.features, d.stm, target, zero), rows, flips, 1.0, net.arrays(),
            Params(*out), net.kings(),
        )
        return total, out

    plain_loss, plain = grads(mirrored, 0)
    flip_loss, flipped = grads(data, 7)
    assert flip_loss == pytest.approx(plain_loss, rel=1e-12)
    assert all(np.allclose(a, b, atol=1e-7) for a, b in zip(plain, flipped, strict=True))
    assert not np.allclose(grads(data, 0)[1][0], plain[0], atol=1e-7)
