"""The network's weights as the trainer holds them: start values, and the .npz file the
core reads (format 1, or format 2 with king buckets), read and written through
``plies.core.netfile``, the one module that knows the file.

A net of B output buckets holds ``out_weight`` [B, 2H] and ``out_bias`` [B]; one of a
single output (B = 1) is written as the first version's ``out_weight`` [2H] and
``out_bias`` [1], which every reader of format 1 takes.

A king-bucketed net trains with a factoriser: beside its K bucket blocks of 768 feature
rows, one shared block that every position's pieces add too, so a bucket few positions
reach still learns from all of them. The file holds the K blocks with the shared one
folded into each (format 2); read back, the shared block starts at zero.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from plies.core import netfile
from plies.core.netfile import (
    BASE_HCE,
    BASE_NONE,
    MAX_BUCKETS,
    WEIGHT_LIMIT,
    NetArrays,
    NetShape,
    read_net,
    write_net,
)
from plies.learn.train.features import N_INPUTS, NO_KINGS, king_layout
from plies.learn.train.kernels import Kings, Params

SCALE = float(netfile.SCALE)
"""Centipawns per unit of the network's raw output (the net file's scale, as a float)."""
CLIP = float(np.nextafter(WEIGHT_LIMIT, np.float32(0.0)))
"""What weights are clipped to: the largest float32 below the file's WEIGHT_LIMIT (which
is float32(1.98) = 1.98000002), so a clipped net always passes the file's range check."""
BASES = (BASE_NONE, BASE_HCE)
"""The base values a file may hold."""

_FT_INIT = 0.05
"""Std of the start feature weights: a 30-piece accumulator starts with a spread of about
0.3, across the screlu's live range (0, 1)."""


@dataclass
class Network(NetShape):
    """(768 -> H) x 2 perspectives -> SCReLU -> one of B outputs (chosen by the number of
    pieces on the board), as float arrays (float32 for training); optionally with K king
    buckets (K blocks of 768 feature rows) and the factoriser's shared block after them."""

    ft_weight: np.ndarray
    """[blocks * 768, H] feature weights: one block without king buckets, else the K
    bucket blocks, then the shared block when ``factor``."""
    ft_bias: np.ndarray
    """[H] accumulator bias."""
    out_weight: np.ndarray
    """[B, 2H] output weights of each bucket: side to move's half first, then the other
    side's."""
    out_bias: np.ndarray
    """[B] output bias of each bucket."""
    king_buckets: np.ndarray | None = None
    """int64 [64]: the bucket of each own-king square (the spec's format 2); None: none."""
    king_mirror: int = 0
    """1: a perspective whose king stands on files e-h sees the board mirrored."""
    factor: bool = False
    """Whether ``ft_weight`` ends with the factoriser's shared block (training only)."""

    @property
    def king_count(self) -> int:
        """K, the number of king buckets (1 without king buckets)."""
        return 1 if self.king_buckets is None else int(self.king_buckets.max()) + 1

    def arrays(self) -> Params:
        """The four parameter arrays, in file order."""
        return Params(self.ft_weight, self.ft_bias, self.out_weight, self.out_bias)

    def kings(self) -> Kings:
        """The kernels' king layout: king_buckets (empty without), king_mirror, first row of
        the shared block (-1 without)."""
        if self.king_buckets is None:
            return Kings(NO_KINGS, 0, -1)
        shared = self.king_count * N_INPUTS if self.factor else -1
        return Kings(self.king_buckets, int(self.king_mirror), shared)

    def copy(self) -> Network:
        """An independent copy."""
        return self._with(*(a.copy() for a in self.arrays()))

    def astype(self, dtype: type[np.floating]) -> Network:
        """A copy with every array in ``dtype``."""
        return self._with(*(a.astype(dtype) for a in self.arrays()))

    def _with(self, *arrays: np.ndarray) -> Network:
        """This net's layout with other parameter arrays."""
        table = None if self.king_buckets is None else self.king_buckets.copy()
        ft_weight, ft_bias, out_weight, out_bias = arrays
        return replace(
            self, ft_weight=ft_weight, ft_bias=ft_bias, out_weight=out_weight,
            out_bias=out_bias, king_buckets=table,
        )  # fmt: skip

    def folded(self) -> Network:
        """The net as its file holds it: the shared block added into every bucket block
        (clipped to the weight limit), no shared block left."""
        if not self.factor:
            return self.copy()
        blocks = self.king_count
        w = self.ft_weight.reshape(blocks + 1, N_INPUTS, self.hidden)
        ft_weight = np.clip(w[:blocks] + w[blocks], -CLIP, CLIP).reshape(-1, self.hidden)
        net = self._with(ft_weight.astype(self.ft_weight.dtype), *self.arrays()[1:])
        net.factor = False
        return net.copy()


def initial_network(
    hidden: int,
    seed: int,
    residual: bool = False,
    buckets: int = 1,
    king_buckets: int | None = None,
) -> Network:
    """Random start weights (normal, small), the same for the same seed; a residual net
    starts with zero output weights, so it starts as the handcrafted evaluation itself.
    Every output bucket starts as the same copy of one output (so any B starts as the
    single-output net of the same seed). ``king_buckets`` K (one of ``KING_LAYOUTS``)
    starts that layout as ``with_king_buckets`` turns the net without them."""
    if not 1 <= buckets <= MAX_BUCKETS:
        raise ValueError(f"buckets {buckets} is not between 1 and {MAX_BUCKETS}")
    rng = np.random.default_rng(seed)
    ft_weight = rng.normal(0.0, _FT_INIT, size=(N_INPUTS, hidden))
    out_weight = rng.normal(0.0, 1.0 / np.sqrt(2 * hidden), size=2 * hidden)
    if residual:
        out_weight[:] = 0.0
    out = np.tile(out_weight, (buckets, 1))
    net = Network(ft_weight, np.zeros(hidden), out, np.zeros(buckets))
    clipped = net.astype(np.float32)
    for a in clipped.arrays():
        np.clip(a, -CLIP, CLIP, out=a)
    return clipped if king_buckets is None else with_king_buckets(clipped, king_buckets)


def with_king_buckets(net: Network, count: int) -> Network:
    """A net without king buckets turned into the ``count``-bucket layout with the
    factoriser: the shared block is its feature weights, every bucket block zero (so it
    evaluates as ``net`` does wherever no king is mirrored, on files a-d)."""
    if net.king_buckets is not None:
        raise ValueError("the net has king buckets already")
    table, mirror = king_layout(count)
    blocks = int(table.max()) + 1
    zeros = np.zeros((blocks * N_INPUTS, net.hidden), dtype=net.ft_weight.dtype)
    ft_weight = np.concatenate([zeros, net.ft_weight])
    return Network(
        ft_weight, net.ft_bias.copy(), net.out_weight.copy(), net.out_bias.copy(),
        table, mirror, factor=True,
    )  # fmt: skip


def save_network(path: str | Path, net: Network, base: int = BASE_NONE) -> None:
    """Write ``net`` as the spec's .npz (``plies.core.netfile.write_net``; the factoriser
    folded in), whole: an interrupted write leaves no half net."""
    if base not in BASES:
        raise ValueError(f"base {base} is not one of {BASES}")
    net = net.folded() if net.factor else net
    write_net(path, NetArrays(
        net.ft_weight, net.ft_bias, net.out_weight.reshape(net.buckets, 2 * net.hidden),
        net.out_bias.reshape(net.buckets), base, net.king_buckets, int(net.king_mirror),
    ))  # fmt: skip


def load_base(path: str | Path) -> int:
    """The ``base`` of a net file (BASE_NONE when the key is absent); NetFileError if the
    file is not a net."""
    return read_net(path).base


def load_network(path: str | Path) -> Network:
    """Read a net file of format 1, or 2 (its weights as the bucket blocks, the factoriser's
    shared block zero), for a warm start or a check; NetFileError if it is not one."""
    arrays = read_net(path)
    ft_weight = arrays.ft_weight
    table = arrays.king_buckets
    if table is not None:
        # The file's blocks are already folded: the shared block starts from nothing.
        zero = np.zeros((N_INPUTS, ft_weight.shape[1]), ft_weight.dtype)
        ft_weight = np.concatenate([ft_weight, zero])
    net = Network(
        ft_weight, arrays.ft_bias, arrays.out_weight, arrays.out_bias, table,
        arrays.king_mirror, factor=table is not None,
    )  # fmt: skip
    return net.astype(np.float32)
